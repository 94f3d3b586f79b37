"""Rating math against hand computations and an independent algorithm (Zermelo/MM iteration)."""

from __future__ import annotations

import math
import random

import pytest

from arena.stats.ratings import (
    ELO_PER_NAT,
    GameResult,
    bootstrap_intervals,
    bradley_terry,
    compute_standings,
    crosstable,
    likelihood_of_superiority,
    normal_intervals,
    online_elo,
    result_from_row,
    termination_counts,
    wdl,
)


def games(spec: list[tuple[str, str, float]], pairs: bool = True) -> list[GameResult]:
    return [GameResult(i, b, w, s, pair=i // 2 if pairs else None) for i, (b, w, s) in enumerate(spec)]


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def test_symmetric_results_give_equal_ratings() -> None:
    # every agent wins once and loses once against each other, with each colour
    spec = []
    for x, y in [("a", "b"), ("a", "c"), ("b", "c")]:
        spec += [(x, y, 1.0), (y, x, 1.0), (x, y, 0.0), (y, x, 0.0), (x, y, 0.5), (y, x, 0.5)]
    fit = bradley_terry(games(spec))
    assert all(abs(v) < 1e-9 for v in fit.elo.values())
    assert fit.first_move_elo == pytest.approx(0.0, abs=1e-9)
    low, high = bootstrap_intervals(games(spec), samples=50)["a"]
    assert low <= 0.0 <= high


def test_two_players_match_the_closed_form() -> None:
    # a scores 7 of 10 against b (draws as half points): MLE difference is logit(0.7)
    spec = [("a", "b", 1.0)] * 3 + [("b", "a", 0.0)] * 3 + [("a", "b", 0.5)] * 2 + [("b", "a", 1.0)] * 2
    fit = bradley_terry(games(spec), colour_advantage=False, prior_draws=1e-9)
    assert fit.elo["a"] - fit.elo["b"] == pytest.approx(400 * math.log10(7 / 3), abs=1e-3)
    assert fit.elo["a"] == pytest.approx(-fit.elo["b"])  # centred at mean 0


def test_first_mover_term_matches_the_closed_form() -> None:
    # a as black scores 8/10 against b; b as black scores 4/10 against a.
    spec = [("a", "b", 1.0)] * 8 + [("a", "b", 0.0)] * 2 + [("b", "a", 1.0)] * 4 + [("b", "a", 0.0)] * 6
    fit = bradley_terry(games(spec, pairs=False), prior_draws=1e-9)
    # logit(0.8) = d + h and logit(0.4) = -d + h, with d = r_a - r_b
    d = (logit(0.8) - logit(0.4)) / 2
    h = (logit(0.8) + logit(0.4)) / 2
    assert fit.elo["a"] - fit.elo["b"] == pytest.approx(ELO_PER_NAT * d, abs=1e-3)
    assert fit.first_move_elo == pytest.approx(ELO_PER_NAT * h, abs=1e-3)


def mm_fit(results: list[GameResult], names: list[str]) -> dict[str, float]:
    """Zermelo's fixed-point (minorization-maximization) iteration: an independent solver."""
    strength = {a: 1.0 for a in names}
    points = {a: 0.0 for a in names}
    meetings: dict[tuple[str, str], int] = {}
    for g in results:
        points[g.black] += g.score
        points[g.white] += 1 - g.score
        for key in ((g.black, g.white), (g.white, g.black)):
            meetings[key] = meetings.get(key, 0) + 1
    for _ in range(20000):
        new = {}
        for a in names:
            denominator = sum(n / (strength[a] + strength[b]) for (x, b), n in meetings.items() if x == a)
            new[a] = points[a] / denominator
        mean_log = sum(math.log(v) for v in new.values()) / len(names)
        strength = {a: v / math.exp(mean_log) for a, v in new.items()}
    return {a: ELO_PER_NAT * math.log(v) for a, v in strength.items()}


def test_three_players_agree_with_an_independent_algorithm() -> None:
    rng = random.Random(11)
    true = {"a": 1.0, "b": 0.0, "c": -0.7}
    spec = []
    for _ in range(60):
        x, y = rng.sample(sorted(true), 2)
        p = 1 / (1 + math.exp(-(true[x] - true[y])))
        u = rng.random()
        spec.append((x, y, 1.0 if u < p - 0.1 else 0.5 if u < p + 0.1 else 0.0))
    results = games(spec)
    newton = bradley_terry(results, ["a", "b", "c"], colour_advantage=False, prior_draws=1e-9).elo
    independent = mm_fit(results, ["a", "b", "c"])
    for agent in "abc":
        assert newton[agent] == pytest.approx(independent[agent], abs=0.01)


def test_perfect_and_zero_scores_stay_finite_and_ordered() -> None:
    spec = [("a", "b", 1.0), ("b", "a", 0.0)] * 5 + [("b", "c", 1.0), ("c", "b", 0.0)] * 5
    fit = bradley_terry(games(spec))
    assert all(math.isfinite(v) for v in fit.elo.values())
    assert fit.elo["a"] > fit.elo["b"] > fit.elo["c"]
    # a stronger prior pulls harder toward equality
    weak = bradley_terry(games(spec), prior_draws=0.5).elo
    strong = bradley_terry(games(spec), prior_draws=10).elo
    assert weak["a"] - weak["c"] > strong["a"] - strong["c"] > 0


def test_bootstrap_is_seeded_and_shrinks_with_more_games() -> None:
    rng = random.Random(2)
    def sample(n: int) -> list[GameResult]:
        spec = []
        for _ in range(n):
            spec += [("a", "b", rng.choice([1.0, 1.0, 0.5, 0.0])), ("b", "a", rng.choice([0.0, 0.0, 0.5, 1.0]))]
        return games(spec)
    few, many = sample(10), sample(200)
    first = bootstrap_intervals(few, samples=100, seed=1)
    assert first == bootstrap_intervals(few, samples=100, seed=1)
    assert first != bootstrap_intervals(few, samples=100, seed=2)
    point = bradley_terry(few).elo
    for agent, (low, high) in first.items():
        assert low <= point[agent] <= high
    wide = first["a"][1] - first["a"][0]
    narrow = bootstrap_intervals(many, samples=100, seed=1)["a"]
    assert narrow[1] - narrow[0] < wide / 2


def test_likelihood_of_superiority_by_hand() -> None:
    assert likelihood_of_superiority(0, 0) == 0.5
    # (w - l) / sqrt(w + l) = 1 standard deviation: Phi(1)
    assert likelihood_of_superiority(3, 1) == pytest.approx(0.841345, abs=1e-6)
    assert likelihood_of_superiority(1, 3) == pytest.approx(1 - 0.841345, abs=1e-6)
    assert likelihood_of_superiority(5, 5) == 0.5


def test_online_elo_by_hand_and_in_index_order() -> None:
    results = [GameResult(0, "a", "b", 1.0), GameResult(1, "a", "b", 0.0)]
    expected_b = 990 + 20 * (1 - 1 / (1 + 10 ** (20 / 400)))
    ratings = online_elo(results)
    assert ratings["a"] == pytest.approx(1010 - (expected_b - 990))
    assert ratings["b"] == pytest.approx(expected_b)
    assert online_elo(list(reversed(results))) == ratings


def test_tables() -> None:
    results = [
        GameResult(0, "a", "b", 1.0, "win"), GameResult(1, "b", "a", 1.0, "timeout"),
        GameResult(2, "a", "c", 0.5, "max_moves"), GameResult(3, "c", "a", 0.0, "crash"),
    ]
    table = crosstable(results)
    assert table["a"]["b"] == {"games": 2, "wins": 1, "draws": 0, "losses": 1, "points": 1.0, "los": 0.5}
    assert table["a"]["c"]["points"] == 1.5 and table["c"]["a"]["points"] == 0.5
    assert table["b"]["c"]["games"] == 0
    assert wdl(results)["a"] == {"games": 4, "wins": 2, "draws": 1, "losses": 1}
    counts = termination_counts(results)
    assert counts["total"] == {"crash": 1, "max_moves": 1, "timeout": 1, "win": 1}
    assert counts["faults"] == {"a": {"timeout": 1}, "c": {"crash": 1}}


def test_standings_object() -> None:
    spec = [("a", "b", 1.0), ("b", "a", 0.5), ("a", "c", 1.0), ("c", "a", 0.0), ("b", "c", 1.0), ("c", "b", 0.5)]
    out = compute_standings(games(spec), ["a", "b", "c"], bootstrap_samples=20)
    assert [r["id"] for r in out["standings"]] == ["a", "b", "c"]
    top = out["standings"][0]
    assert (top["rank"], top["games"], top["wins"], top["draws"], top["losses"]) == (1, 4, 3, 1, 0)
    assert top["score_pct"] == 87.5 and top["draw_pct"] == 25.0
    assert top["elo_low"] <= top["elo"] <= top["elo_high"]
    assert out["games"] == 6 and "crosstable" in out and "terminations" in out
    empty = compute_standings([], ["a", "b"])
    assert empty["standings"][0]["elo"] == 0 and empty["standings"][0]["score_pct"] is None


def test_result_from_rows_and_records() -> None:
    row = {"index": 3, "black": "x", "white": "y", "winner": "WHITE", "termination": "timeout", "pair": 1}
    assert result_from_row(row) == GameResult(3, "x", "y", 0.0, "timeout", 1)
    record = {"game_index": 4, "winner": "NONE", "termination": "max_moves",
              "players": [{"id": "p", "colour": "WHITE"}, {"id": "q", "colour": "BLACK"}]}
    assert result_from_row(record) == GameResult(4, "q", "p", 0.5, "max_moves", None)
    with pytest.raises(ValueError):
        result_from_row({"index": 1, "black": "x", "white": "y", "winner": "RED"})


def test_normal_intervals_by_hand_for_two_players() -> None:
    # Two players, no colour term, no prior: Var(r_a - r_b) = 1 / (n p (1 - p)), and the centred
    # rating r_a - mean = (r_a - r_b) / 2 has a quarter of that variance.
    spec = [("a", "b", 1.0)] * 6 + [("b", "a", 1.0)] * 2 + [("a", "b", 0.0)] * 2
    fit = bradley_terry(games(spec), colour_advantage=False, prior_draws=1e-9)
    low, high = normal_intervals(games(spec), colour_advantage=False, prior_draws=1e-9)["a"]
    se = ELO_PER_NAT * math.sqrt(1 / (10 * 0.6 * 0.4)) / 2
    assert (high - low) / 2 == pytest.approx(1.959964 * se, rel=1e-4)
    assert (low + high) / 2 == pytest.approx(fit.elo["a"], abs=1e-6)


def test_standings_intervals_are_never_degenerate() -> None:
    # one colour-swapped pair, both won by a: every bootstrap resample is identical
    out = compute_standings(games([("a", "b", 1.0), ("b", "a", 0.0)]), bootstrap_samples=50)
    for row in out["standings"]:
        assert row["elo_high"] - row["elo_low"] > 100
        assert row["elo_low"] < row["elo"] < row["elo_high"]
