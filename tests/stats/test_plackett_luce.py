"""The Plackett–Luce fit: against choix, the tie rule, the seat advantage, a simulation."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from helpers import bench_module

from arena.stats import plackett_luce, ties
from arena.stats.plackett_luce import ELO_PER_NAT, PlackettLuce
from arena.stats.resample import TableResampler
from arena.stats.results import RankedResult
from arena.stats.ties import MARGINAL_MAX, tie_terms

SIM = bench_module("plackett_luce_coverage")


def game_log_likelihood(ranks: tuple[int, ...], u: list[float]) -> float:
    """A game's log-likelihood under the module's model, from tie_terms, at utilities ``u``."""
    linear, terms, stages = tie_terms(ranks)
    value = sum(c * x for c, x in zip(linear, u, strict=True))
    for multiplier, weight in terms:
        value -= weight * math.log(sum(m * math.exp(x) for m, x in zip(multiplier, u, strict=True)))
    for stage in stages:
        value -= float(stage.parts(np.array([u]), hessian=False)[0][0])
    return value


def strict_log_likelihood(order: tuple[int, ...], u: list[float]) -> float:
    """log P(order) by the Plackett–Luce formula, ``order`` best first."""
    return sum(u[s] - math.log(sum(math.exp(u[t]) for t in order[j:])) for j, s in enumerate(order))


def test_point_estimates_match_choix_on_rankings_without_ties() -> None:
    choix = pytest.importorskip("choix")
    strengths = [0.8 * math.sin(i) for i in range(10)]
    results = SIM.simulate(5, strengths, 1500, 4)
    names = [f"a{i}" for i in range(10)]
    ours = PlackettLuce(results, names, seat_advantage=False, prior_draws=1e-8).fit()
    data = [tuple(int(g.seats[s][1:]) for s in sorted(range(4), key=g.ranks.__getitem__)) for g in results]
    # choix's iterative Luce spectral ranking: another algorithm for the same maximum; both priors
    # negligible (our 1e-8 virtual draws, its L2 penalty 1e-8 |theta|^2 / 2)
    theirs = choix.ilsr_rankings(10, data, alpha=1e-8, tol=1e-12, max_iter=1000)
    theirs = ELO_PER_NAT * (theirs - np.mean(theirs))
    assert max(abs(ours.elo[a] - theirs[i]) for i, a in enumerate(names)) < 1e-3  # Elo


def test_a_two_player_draw_is_half_a_win_and_half_a_loss() -> None:
    u = [0.7, -0.4]
    win, loss = math.log(1 / (1 + math.exp(-1.1))), math.log(1 / (1 + math.exp(1.1)))
    assert game_log_likelihood((1, 1), u) == pytest.approx(0.5 * win + 0.5 * loss, abs=1e-12)
    # and in the model: a draw has the weight of one win and one loss at half weight each
    draw = PlackettLuce([RankedResult(0, ("a", "b"), (1, 1))], prior_draws=0.0)
    split = PlackettLuce([RankedResult(0, ("a", "b"), (1, 2)), RankedResult(1, ("a", "b"), (2, 1))], prior_draws=0.0)
    theta = np.array([0.7, -0.4, 0.25])
    assert draw.objective(theta, np.ones(1)) == pytest.approx(split.objective(theta, np.full(2, 0.5)), abs=1e-12)


@pytest.mark.parametrize("ranks", [(1, 1, 2), (2, 1, 1), (1, 2, 2, 3), (2, 2, 2, 1), (1, 1, 1, 1), (3, 1, 3, 2, 1),
                                   (1, 2, 2, 4), (2, 2, 4, 1, 2, 6), (1, 2, 2, 2, 5)])
def test_a_ranking_with_ties_is_the_sum_of_the_strict_orders_it_allows(ranks: tuple[int, ...]) -> None:
    """A shared place says only that its seats came after those above and before those below: the
    probability of the game is that of every strict order agreeing with it (a shared last place:
    every order of the remainder, probability 1 in all)."""
    rng = random.Random(len(ranks))
    u = [rng.uniform(-1.5, 1.5) for _ in ranks]
    orders = [o for o in itertools.permutations(range(len(ranks)))
              if all(ranks[a] <= ranks[b] for a, b in itertools.pairwise(o))]
    expected = math.log(sum(math.exp(strict_log_likelihood(o, u)) for o in orders))
    assert game_log_likelihood(ranks, u) == pytest.approx(expected, abs=1e-12)


def test_a_shared_last_place_says_nothing_about_the_order_of_the_losers() -> None:
    # ranks 1, 2, 2, 2: the winner's probability of winning, whatever the losers' strengths
    u = [0.2, 1.0, -2.0, 0.5]
    assert game_log_likelihood((1, 2, 2, 2), u) == pytest.approx(u[0] - math.log(sum(map(math.exp, u))), abs=1e-12)
    assert game_log_likelihood((2, 2, 2), [0.3, 1.2, -0.7]) == 0.0


def test_the_derivatives_of_ties_in_the_middle_are_the_objectives() -> None:
    generator = np.random.default_rng(7)
    names = [f"a{i}" for i in range(6)]
    shapes = [(1, 2, 2, 4), (1, 1, 3, 3), (2, 2, 1, 4), (1, 2, 3, 4), (1, 2, 2, 2)]
    results = [RankedResult(i, tuple(generator.choice(names, 4, replace=False)), shapes[i % len(shapes)], group=i // 4)
               for i in range(200)]
    model = PlackettLuce(results)
    theta, w = generator.normal(size=model.dim) * 0.4, np.ones(model.games)
    grad, hess = model.derivatives(theta, w)
    eps, basis = 1e-6, np.eye(model.dim)
    numeric = [(model.objective(theta + eps * e, w) - model.objective(theta - eps * e, w)) / (2 * eps) for e in basis]
    assert np.max(np.abs(grad - numeric)) < 1e-5
    curve = np.array([(model.gradient(theta - eps * e, w) - model.gradient(theta + eps * e, w)) / (2 * eps) for e in basis])
    assert np.max(np.abs(hess - curve)) < 1e-5
    assert np.linalg.eigvalsh(hess).min() > 0.0  # log-concave: the fit's maximum is unique
    # the bootstrap's batched refits reach each resample's own maximum
    counts = list(model.resample_counts(3, 1))
    for count, found in zip(counts, TableResampler(model).solve(counts, model.theta), strict=True):
        alone = model.solve(count.astype(float)[model.unit_of], start=model.theta)[0]
        assert np.max(np.abs(found - alone)) < 1e-6


def test_a_large_shared_place_in_the_middle_is_approximated_closely(monkeypatch: pytest.MonkeyPatch) -> None:
    m = MARGINAL_MAX + 1
    ranks = (1,) + (2,) * m + (m + 2,)
    generator = np.random.default_rng(3)
    names = [f"a{i}" for i in range(10)]
    strength = np.linspace(-1.0, 1.0, 10)
    results = []
    for i in range(150):
        seated = generator.choice(10, m + 2, replace=False)
        order = np.argsort(-(strength[seated] + generator.gumbel(size=m + 2)))
        results.append(RankedResult(i, tuple(names[a] for a in seated[order]), ranks))
    efron = PlackettLuce(results, names).fit().elo
    monkeypatch.setattr(ties, "MARGINAL_MAX", m)
    exact = PlackettLuce(results, names).fit().elo
    gaps = [abs(efron[a] - exact[a]) for a in names]
    assert max(gaps) > 0.1  # an approximation ...
    assert max(gaps) < 35.0  # ... and a close one


def test_the_seat_advantage_is_recovered() -> None:
    seat = [0.5, 0.2, 0.0]
    results = SIM.simulate(8, [0.3 * i - 1.0 for i in range(8)], 6000, 3, seat)
    fit = PlackettLuce(results).fit()
    assert fit.seat_elo is not None and fit.seat_elo[2] == 0.0
    for s in range(2):
        assert fit.seat_elo[s] == pytest.approx(ELO_PER_NAT * seat[s], abs=25.0)
    without = PlackettLuce(results, seat_advantage=False).fit()
    assert without.seat_elo is None


def test_twelve_agents_three_player_simulation() -> None:
    strengths = [e / ELO_PER_NAT for e in SIM.STRENGTHS_ELO]
    results = SIM.simulate(2024, strengths, 2000, 3)
    model = PlackettLuce(results, [f"a{i}" for i in range(12)])
    fit = model.fit()
    truth = np.array(SIM.STRENGTHS_ELO) - np.mean(SIM.STRENGTHS_ELO)
    estimate = np.array([fit.elo[f"a{i}"] for i in range(12)])
    assert SIM.spearman(estimate, truth) > 0.9
    assert math.sqrt(np.mean((estimate - truth) ** 2)) < 25.0
    normal = model.normal_intervals()
    assert sum(normal[f"a{i}"][0] <= truth[i] <= normal[f"a{i}"][1] for i in range(12)) >= 9


def test_an_unbeaten_agent_stays_finite() -> None:
    results = [RankedResult(i, ("top", "x", "y"), (1, 2 + i % 2, 3 - i % 2)) for i in range(20)]
    fit = PlackettLuce(results).fit()
    assert 200.0 < fit.elo["top"] < 2000.0


def test_the_bootstrap_is_deterministic_and_resamples_whole_groups() -> None:
    results = [RankedResult(i, ("a", "b", "c"), (1, 2, 3) if i < 3 else (3, 2, 1), group=0 if i < 3 else 1)
               for i in range(6)]
    model = PlackettLuce(results)
    assert model.unit_of.tolist() == [0, 0, 0, 1, 1, 1]
    draws = model.bootstrap_draws(samples=30, seed=3)
    assert np.array_equal(draws, PlackettLuce(results).bootstrap_draws(samples=30, seed=3))
    # with two units a resample holds group 0 twice, group 1 twice, or one of each: three fits
    assert len({round(float(d), 6) for d in draws[:, 0]}) == 3


def test_no_games_and_unknown_agents() -> None:
    empty = PlackettLuce([], ["a", "b"])
    assert empty.fit().elo == {"a": 0.0, "b": 0.0}
    assert empty.bootstrap_intervals(samples=10) == {"a": (0.0, 0.0), "b": (0.0, 0.0)}
    with pytest.raises(ValueError, match="'c'"):
        PlackettLuce([RankedResult(0, ("a", "c"), (1, 2))], ["a", "b"])


def assert_each_resample_maximum(model: PlackettLuce, resampler: TableResampler, counts: list[np.ndarray],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The resampler's batch of ``counts`` is settled by the chord (no Newton fallback), each at
    the resample's own maximum as the model's Newton's method finds it."""
    fallbacks = []
    with monkeypatch.context() as patch:
        patch.setattr(model, "solve", lambda *args, **kwargs: fallbacks.append(args))
        thetas = resampler.solve(counts, model.theta)
    assert not fallbacks
    for count, theta in zip(counts, thetas, strict=True):
        exact, _ = model.solve(count.astype(float)[model.unit_of], start=model.theta, tolerance=1e-12)
        assert theta == pytest.approx(exact, abs=1e-5)


def test_batched_bootstrap_solves_of_n_seat_games_are_each_resamples_maximum(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table resampler's chord steps (games of three and four seats, ties among them) reach
    each resample's own maximum, as the model's Newton's method finds it."""
    rng = random.Random(5)
    agents = [f"a{i}" for i in range(7)]
    results = []
    for i in range(240):
        seats = tuple(rng.sample(agents, 3 + i % 2))
        ranks = tuple(rng.choice([1, 2, 2, 3, 4][: len(seats) + 1]) for _ in seats)
        results.append(RankedResult(i, seats, ranks, group=i // 4))
    model = PlackettLuce(results)
    resampler = TableResampler(model)
    counts = list(model.resample_counts(5, seed=1))
    assert_each_resample_maximum(model, resampler, counts, monkeypatch)


@pytest.mark.parametrize("seat_advantage", [True, False])
def test_the_n_seat_hessian_is_the_same_counted_by_pairs_or_by_parameters(
        monkeypatch: pytest.MonkeyPatch, seat_advantage: bool) -> None:
    """The Hessian over couples of (agent, seat) pairs (few agents) is the one counted per couple
    of parameters (many agents), and both are the gradient's derivative."""
    rng = random.Random(8)
    agents = [f"a{i}" for i in range(6)]
    results = [RankedResult(i, tuple(rng.sample(agents, 3 + i % 2)), tuple(rng.choice([1, 1, 2, 3]) for _ in range(3 + i % 2)))
               for i in range(60)]
    model = PlackettLuce(results, seat_advantage=seat_advantage)
    theta = np.array([rng.uniform(-1, 1) for _ in range(model.dim)])
    weights = np.array([float(rng.randrange(3)) for _ in range(model.games)])
    _, by_pairs = model.derivatives(theta, weights)
    monkeypatch.setattr(plackett_luce, "PAIR_CELLS_MAX", -1)
    for block in model.blocks:
        block._pair_cells = None
    _, by_parameters = model.derivatives(theta, weights)
    assert by_pairs == pytest.approx(by_parameters, abs=1e-12)
    step = 1e-6
    for i in range(model.dim):
        shift = np.zeros(model.dim)
        shift[i] = step
        slope = (model.gradient(theta + shift, weights) - model.gradient(theta - shift, weights)) / (2 * step)
        assert -slope == pytest.approx(by_pairs[:, i], abs=1e-5)


@pytest.mark.parametrize("repeated", [False, True])
def test_table_resampler_rows_of_one_game_or_of_several(monkeypatch: pytest.MonkeyPatch, repeated: bool) -> None:
    """A resample's row weights are its units' weights gathered (every row one game) or summed
    per row (games repeated): either way each resample's own maximum."""
    rng = random.Random(11)
    agents = [f"a{i}" for i in range(12)]
    results = []
    for i in range(120):
        seats = tuple(rng.sample(agents, 4)) if not repeated or i % 3 == 0 else results[-1].seats
        ranks = tuple(rng.choice([1, 2, 2, 3]) for _ in seats) if not repeated or i % 3 == 0 else results[-1].ranks
        results.append(RankedResult(i, seats, ranks, group=i // 2))
    model = PlackettLuce(results)
    resampler = TableResampler(model)
    assert all((units is None) == repeated for units in resampler.units_of_rows)
    counts = list(model.resample_counts(4, seed=2))
    assert_each_resample_maximum(model, resampler, counts, monkeypatch)
