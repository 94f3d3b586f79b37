"""Plackett–Luce ratings against a simulation of the model itself (issue 21, "Must show").

12 agents with known strengths (evenly spaced from -220 to +220 Elo) play 3-player games: each
game seats 3 distinct agents drawn at random, with a seat advantage of +30, +10 and 0 Elo, and its
ranking is drawn from the Plackett–Luce model (utility + Gumbel noise, sorted). Each of
``--runs`` simulations of ``--games`` games is fitted as the standings are (seat advantage on,
``prior_draws`` 2, bootstrap of ``--samples`` resamples), and the script prints the mean Spearman
rho between the estimated and true strengths, the RMS error in Elo (estimates and truth both
centred on the agents' mean), and the coverage of the 95% intervals — the fraction of (agent,
simulation) cases whose interval holds the true centred Elo — for the normal interval, the
bootstrap interval and their union (what the standings report).

    .venv/bin/python bench/plackett_luce_coverage.py [--runs 50] [--games 2000] [--samples 200]

``simulate`` is also the simulation of ``tests/stats/test_plackett_luce.py`` (loaded by path).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from arena.stats.plackett_luce import ELO_PER_NAT, PlackettLuce
from arena.stats.results import RankedResult

STRENGTHS_ELO = [-220.0 + 40.0 * i for i in range(12)]
SEAT_ELO = [30.0, 10.0, 0.0]


def simulate(seed: int, strengths: Sequence[float], games: int, seats: int,
             seat_strengths: Sequence[float] | None = None) -> list[RankedResult]:
    """``games`` games of ``seats`` distinct agents (``a0``, ``a1``, ...) drawn from the Plackett–Luce
    model with ``strengths`` and ``seat_strengths`` (in nats); no ties, each game its own unit."""
    rng = random.Random(seed)
    names = [f"a{i}" for i in range(len(strengths))]
    out = []
    for index in range(games):
        chosen = rng.sample(range(len(strengths)), seats)
        noisy = [strengths[a] + (seat_strengths[s] if seat_strengths else 0.0) - math.log(-math.log(rng.random()))
                 for s, a in enumerate(chosen)]
        order = sorted(range(seats), key=lambda s: -noisy[s])
        ranks = [0] * seats
        for place, s in enumerate(order, 1):
            ranks[s] = place
        out.append(RankedResult(index, tuple(names[a] for a in chosen), tuple(ranks)))
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho of two sequences without ties."""
    rx, ry = np.argsort(np.argsort(x)), np.argsort(np.argsort(y))
    return float(np.corrcoef(rx, ry)[0, 1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=200, help="bootstrap resamples per simulation")
    args = parser.parse_args()
    truth = np.array(STRENGTHS_ELO) - np.mean(STRENGTHS_ELO)
    rhos, rms, seat_err = [], [], []
    covered = {"normal": 0, "bootstrap": 0, "union": 0}
    widths = {"normal": 0.0, "bootstrap": 0.0, "union": 0.0}
    started = time.perf_counter()
    for run in range(args.runs):
        results = simulate(run, [e / ELO_PER_NAT for e in STRENGTHS_ELO], args.games, 3,
                           [e / ELO_PER_NAT for e in SEAT_ELO])
        model = PlackettLuce(results, [f"a{i}" for i in range(12)])
        fit = model.fit()
        estimate = np.array([fit.elo[f"a{i}"] for i in range(12)])
        rhos.append(spearman(estimate, truth))
        rms.append(float(np.sqrt(np.mean((estimate - truth) ** 2))))
        assert fit.seat_elo is not None
        seat_err += [fit.seat_elo[s] - SEAT_ELO[s] for s in range(2)]
        normal = model.normal_intervals()
        boot = model.bootstrap_intervals(args.samples, seed=run)
        for i in range(12):
            a = f"a{i}"
            union = (min(normal[a][0], boot[a][0]), max(normal[a][1], boot[a][1]))
            for kind, (low, high) in (("normal", normal[a]), ("bootstrap", boot[a]), ("union", union)):
                covered[kind] += low <= truth[i] <= high
                widths[kind] += high - low
    cases = 12 * args.runs
    print(f"{args.runs} simulations x {args.games} games of 3 players, 12 agents "
          f"({STRENGTHS_ELO[0]:+.0f}..{STRENGTHS_ELO[-1]:+.0f} Elo), seat advantage {SEAT_ELO} Elo, "
          f"bootstrap {args.samples} resamples; {time.perf_counter() - started:.1f} s")
    print(f"Spearman rho: mean {np.mean(rhos):.4f}, min {np.min(rhos):.4f}")
    print(f"RMS error: mean {np.mean(rms):.1f} Elo, max {np.max(rms):.1f} Elo")
    print(f"seat advantage error (seats 0, 1): RMS {np.sqrt(np.mean(np.square(seat_err))):.1f} Elo")
    for kind, count in covered.items():
        print(f"95% interval coverage, {kind:9s}: {100.0 * count / cases:5.1f}% of {cases} "
              f"(mean width {widths[kind] / cases:.0f} Elo)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
