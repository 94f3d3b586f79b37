"""Two-player ratings on stored logs reproduce the Bradley–Terry fit they replaced (issue 21).

``tests/data/ratings/golden.json`` was written by the pure-Python Bradley–Terry code before the
Plackett–Luce fit took its place (see ``tests/data/ratings/make_logs.py``): unrounded Elo,
bootstrap and normal interval ends, and the first-move Elo of three simulated tournaments.
The requirement is agreement within 0.1 Elo; the fits agree to about 1e-13.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.stats.ratings import bootstrap_intervals, bradley_terry, compute_standings, normal_intervals, result_from_row

DATA = Path(__file__).resolve().parents[1] / "data" / "ratings"
GOLDEN = json.loads((DATA / "golden.json").read_text())
TOLERANCE = 0.1  # Elo, the requirement


def results_of(name: str) -> list:
    return [result_from_row(json.loads(line)) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("name", sorted(GOLDEN["logs"]))
def test_ratings_and_intervals_reproduce_the_old_fit(name: str) -> None:
    golden = GOLDEN["logs"][name]
    results = results_of(name)
    fit = bradley_terry(results)
    boot = bootstrap_intervals(results, samples=GOLDEN["samples"], seed=GOLDEN["seed"])
    normal = normal_intervals(results)
    assert fit.first_move_elo == pytest.approx(golden["first_move_elo"], abs=TOLERANCE)
    assert set(fit.elo) == set(golden["agents"])
    for agent, (elo, boot_low, boot_high, normal_low, normal_high) in golden["agents"].items():
        assert fit.elo[agent] == pytest.approx(elo, abs=TOLERANCE), agent
        assert boot[agent] == pytest.approx((boot_low, boot_high), abs=TOLERANCE), agent
        assert normal[agent] == pytest.approx((normal_low, normal_high), abs=TOLERANCE), agent


@pytest.mark.parametrize("name", sorted(GOLDEN["logs"]))
def test_standings_reproduce_the_old_rounded_figures(name: str) -> None:
    golden = GOLDEN["logs"][name]
    standings = compute_standings(results_of(name), bootstrap_samples=GOLDEN["samples"], seed=GOLDEN["seed"])
    # compute_standings rounds to 0.1 and reports the union of the two intervals
    assert standings["first_move_elo"] == pytest.approx(golden["first_move_elo"], abs=0.05 + TOLERANCE)
    for row in standings["standings"]:
        elo, boot_low, boot_high, normal_low, normal_high = golden["agents"][row["id"]]
        assert row["elo"] == pytest.approx(elo, abs=0.05 + TOLERANCE)
        assert row["elo_low"] == pytest.approx(min(boot_low, normal_low), abs=0.05 + TOLERANCE)
        assert row["elo_high"] == pytest.approx(max(boot_high, normal_high), abs=0.05 + TOLERANCE)


def test_the_unbeaten_agent_stays_finite_and_on_top() -> None:
    results = results_of("unbeaten4")
    assert not any(r.score == (0.0 if r.black == "champion" else 1.0) for r in results if "champion" in (r.black, r.white))
    fit = bradley_terry(results)
    assert max(fit.elo, key=fit.elo.__getitem__) == "champion"
    assert fit.elo["champion"] < 1000.0
