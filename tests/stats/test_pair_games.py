"""Two-player standings on columns (arena.stats.pair_games) and the two-seat fast paths of the
Plackett–Luce model agree with the per-game code and with the model's definition."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from arena.stats.pair_games import PairGames, pair_model
from arena.stats.plackett_luce import PlackettLuce, _unique_rows
from arena.stats.ratings import (
    GameResult,
    compute_standings,
    crosstable,
    online_elo,
    ranked_from_game,
    termination_counts,
    wdl,
)
from arena.stats.resample import PairResampler


def league(games: int = 400, agents: int = 7, seed: int = 5) -> list[GameResult]:
    """Colour-swapped pairs with draws and faults, listed out of index order."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(agents)]
    out = []
    for pair in range(games // 2):
        a, b = rng.sample(names, 2)
        for k, (black, white) in enumerate(((a, b), (b, a))):
            score = rng.choice((1.0, 0.5, 0.0, 1.0))
            termination = "draw" if score == 0.5 else rng.choice(("win", "win", "timeout", "crash"))
            out.append(GameResult(2 * pair + k, black, white, score, termination, pair if pair % 5 else None))
    rng.shuffle(out)
    return out


def test_standings_on_columns_are_the_per_game_tables() -> None:
    results = league()
    standings = compute_standings(results, bootstrap_samples=20)
    assert standings["crosstable"] == crosstable(results)
    assert standings["terminations"] == termination_counts(results)
    counts, elo = wdl(results), online_elo(results)
    for row in standings["standings"]:
        assert {k: row[k] for k in ("games", "wins", "draws", "losses")} == counts[row["id"]]
        assert row["online_elo"] == round(elo[row["id"]])


def test_the_array_model_is_the_object_model() -> None:
    results = league()
    names = sorted({g.black for g in results} | {g.white for g in results})
    by_objects = PlackettLuce([ranked_from_game(g) for g in results], names)
    by_arrays = pair_model(PairGames.from_results(results, names), True, 2.0)
    assert by_arrays.unit_of.tolist() == by_objects.unit_of.tolist()
    assert by_arrays.fit().elo == pytest.approx(by_objects.fit().elo, abs=1e-9)


def test_two_seat_likelihood_and_derivatives_are_the_bradley_terry_ones() -> None:
    results = league(120, 5)
    model = pair_model(PairGames.from_results(results, [f"p{i}" for i in range(5)]), True, 2.0)
    rng = np.random.default_rng(1)
    theta = rng.normal(0.0, 0.5, model.dim)
    weights = rng.integers(0, 3, len(results)).astype(float)
    number = {a: i for i, a in enumerate(model.names)}
    expected = 0.0
    for g, w in zip(results, weights, strict=True):
        d = theta[number[g.black]] - theta[number[g.white]] + theta[-1]  # the last parameter: black's advantage
        expected += w * (g.score * -math.log1p(math.exp(-d)) + (1 - g.score) * -math.log1p(math.exp(d)))
    expected -= 2.0 * 0.5 * sum(math.log1p(math.exp(-t)) + math.log1p(math.exp(t)) for t in theta)
    assert model.objective(theta, weights) == pytest.approx(expected, rel=1e-12)
    grad, hess = model.derivatives(theta, weights)
    step = 1e-5
    for i in range(model.dim):
        e = np.zeros(model.dim)
        e[i] = step
        numeric = (model.objective(theta + e, weights) - model.objective(theta - e, weights)) / (2 * step)
        assert grad[i] == pytest.approx(numeric, abs=1e-6)
        second = (model.derivatives(theta + e, weights)[0] - model.derivatives(theta - e, weights)[0]) / (2 * step)
        assert -second == pytest.approx(hess[:, i], abs=1e-6)


@pytest.mark.parametrize("agents", [4, 30])  # a dense couples layout and a sparse one
def test_batched_bootstrap_solves_are_each_resamples_maximum(agents: int) -> None:
    results = league(300, agents)
    names = sorted({g.black for g in results} | {g.white for g in results})
    model = pair_model(PairGames.from_results(results, names), True, 2.0)
    batch = PairResampler(model)
    assert batch.dense == (agents == 4)
    counts = list(model.resample_counts(6, seed=2))
    for count, theta in zip(counts, batch.solve(counts, model.theta), strict=True):
        exact, _ = model.solve(count.astype(float)[model.unit_of], start=model.theta, tolerance=1e-12)
        assert theta == pytest.approx(exact, abs=1e-5)


def test_unique_rows_through_keys_is_numpys() -> None:
    table = np.random.default_rng(0).integers(0, 6, (500, 3))
    rows, inverse = _unique_rows(table)
    expected_rows, expected_inverse = np.unique(table, axis=0, return_inverse=True)
    assert np.array_equal(rows, expected_rows)
    assert np.array_equal(inverse, expected_inverse.reshape(-1))


def test_a_warm_started_fit_is_the_cold_one() -> None:
    """The stats worker starts each refresh from the last fit (``warm``): the same maximum, to 1e-9,
    in no more Newton steps; a start of another size (the field changed) is not used."""
    results = sorted(league(games=600), key=lambda g: g.index)
    names = sorted({a for g in results for a in (g.black, g.white)})
    warm: dict[str, object] = {}
    compute_standings(results[:400], names, bootstrap_samples=0, warm=warm)
    last = warm["theta"]
    for more in (500, 600):
        games = PairGames.from_results(results[:more], names)
        cold, hot = pair_model(games, True, 2.0), pair_model(games, True, 2.0)
        hot.warm_start = last
        assert np.max(np.abs(hot.theta - cold.theta)) < 1e-9
        assert hot._iterations <= cold._iterations
        last = hot.theta
    games = PairGames.from_results(results, [*names, "newcomer"])
    other = pair_model(games, True, 2.0)
    other.warm_start = last
    assert np.array_equal(other.theta, pair_model(games, True, 2.0).theta)
