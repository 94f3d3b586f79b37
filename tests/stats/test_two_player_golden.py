"""Two-player ratings on stored logs reproduce the Bradley–Terry fit they replaced (issue 21).

``tests/data/ratings/golden.json`` was written by the pure-Python Bradley–Terry code before the
Plackett–Luce fit took its place (see ``tests/data/ratings/make_logs.py``): unrounded Elo,
bootstrap and normal interval ends, and the first-move Elo of three simulated tournaments.
The fits and the normal intervals agree to about 1e-13 (required: 1e-9 Elo).

The bootstrap intervals are no longer bit for bit the old ones: since issue 24 a resample is one
draw of all units from numpy's generator (seeded alike) instead of one ``random.Random`` call per
unit, so the old and new intervals are two bootstraps of 200 samples of the same data. An end of a
95% percentile interval from 200 samples has a Monte Carlo standard error of about 0.1 of the
half-width, the difference of two such ends about 0.14: each end must lie within
:data:`BOOT_TOLERANCE` (0.5, about 3.6 standard errors) of the old half-width from the old end
(measured: at most 0.28).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.stats.ratings import bootstrap_intervals, bradley_terry, compute_standings, normal_intervals, result_from_row

DATA = Path(__file__).resolve().parents[1] / "data" / "ratings"
GOLDEN = json.loads((DATA / "golden.json").read_text())
TOLERANCE = 0.1  # Elo, issue 21's requirement for the rounded figures
EXACT = 1e-9  # Elo: the fit and the normal intervals are the old ones
BOOT_TOLERANCE = 0.5  # of the old interval's half-width (see the module docstring)


def results_of(name: str) -> list:
    return [result_from_row(json.loads(line)) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("name", sorted(GOLDEN["logs"]))
def test_ratings_and_intervals_reproduce_the_old_fit(name: str) -> None:
    golden = GOLDEN["logs"][name]
    results = results_of(name)
    fit = bradley_terry(results)
    boot = bootstrap_intervals(results, samples=GOLDEN["samples"], seed=GOLDEN["seed"])
    normal = normal_intervals(results)
    assert fit.first_move_elo == pytest.approx(golden["first_move_elo"], abs=EXACT)
    assert set(fit.elo) == set(golden["agents"])
    for agent, (elo, boot_low, boot_high, normal_low, normal_high) in golden["agents"].items():
        assert fit.elo[agent] == pytest.approx(elo, abs=EXACT), agent
        assert normal[agent] == pytest.approx((normal_low, normal_high), abs=EXACT), agent
        half = (boot_high - boot_low) / 2
        assert boot[agent] == pytest.approx((boot_low, boot_high), abs=BOOT_TOLERANCE * half), agent


@pytest.mark.parametrize("name", sorted(GOLDEN["logs"]))
def test_standings_reproduce_the_old_rounded_figures(name: str) -> None:
    golden = GOLDEN["logs"][name]
    standings = compute_standings(results_of(name), bootstrap_samples=GOLDEN["samples"], seed=GOLDEN["seed"])
    # compute_standings rounds to 0.1 and reports the union of the two intervals
    assert standings["first_move_elo"] == pytest.approx(golden["first_move_elo"], abs=0.05 + TOLERANCE)
    for row in standings["standings"]:
        elo, boot_low, boot_high, normal_low, normal_high = golden["agents"][row["id"]]
        assert row["elo"] == pytest.approx(elo, abs=0.05 + TOLERANCE)
        half = (boot_high - boot_low) / 2
        assert row["elo_low"] == pytest.approx(min(boot_low, normal_low), abs=0.05 + BOOT_TOLERANCE * half)
        assert row["elo_high"] == pytest.approx(max(boot_high, normal_high), abs=0.05 + BOOT_TOLERANCE * half)


def test_the_unbeaten_agent_stays_finite_and_on_top() -> None:
    results = results_of("unbeaten4")
    assert not any(r.score == (0.0 if r.black == "champion" else 1.0) for r in results if "champion" in (r.black, r.white))
    fit = bradley_terry(results)
    assert max(fit.elo, key=fit.elo.__getitem__) == "champion"
    assert fit.elo["champion"] < 1000.0
