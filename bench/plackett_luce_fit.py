"""Fit time and peak memory of the Plackett–Luce ratings: 100,000 games of 4 players, 200 agents.

Simulates the games from the model (strengths spread over about 600 Elo, a seat advantage, 5% of
the games with two seats tied), then times, each in a fresh child process so that one's memory
does not hide in another's high-water mark:

- building the model (``PlackettLuce(...)``: the arrays of every game),
- the fit of all games (Newton iterations reported),
- the normal intervals (one more Hessian and a dense solve),
- one bootstrap resample (the standings refit ``--samples`` of them, 200 by default: multiply).

Peak memory is the child's VmHWM (the high-water resident set, numpy and the games included),
beside its resident set after the simulation (before any fitting).

    .venv/bin/python bench/plackett_luce_fit.py [--games 100000] [--agents 200] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from arena.stats.plackett_luce import PlackettLuce
from arena.stats.results import RankedResult


def memory_kib() -> dict[str, int]:
    """VmHWM and VmRSS of this process in KiB."""
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                fields[key] = int(value.split()[0])
    return fields


def games_of(count: int, agents: int, players: int, seed: int = 1) -> list[RankedResult]:
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.2) for _ in range(agents)]
    seat = [0.2 * (players - 1 - s) / max(players - 1, 1) for s in range(players)]
    out = []
    for index in range(count):
        chosen = rng.sample(range(agents), players)
        noisy = [strength[a] + seat[s] - math.log(-math.log(rng.random())) for s, a in enumerate(chosen)]
        order = sorted(range(players), key=lambda s: -noisy[s])
        ranks = [0] * players
        for place, s in enumerate(order, 1):
            ranks[s] = place
        if rng.random() < 0.05:  # two neighbours in the ranking share a place
            tied = rng.randrange(1, players)
            ranks = [r - 1 if r > tied else r for r in ranks]
        out.append(RankedResult(index, tuple(f"a{a}" for a in chosen), tuple(ranks), group=index // players))
    return out


def child(args: argparse.Namespace, step: str) -> dict[str, float]:
    results = games_of(args.games, args.agents, args.players)
    before = memory_kib()["VmRSS"]
    started = time.perf_counter()
    model = PlackettLuce(results)
    figures = {"build_s": time.perf_counter() - started}
    if step in ("fit", "normal", "bootstrap"):
        started = time.perf_counter()
        fit = model.fit()
        figures.update(fit_s=time.perf_counter() - started, iterations=fit.iterations)
    if step == "normal":
        started = time.perf_counter()
        model.normal_intervals()
        figures["normal_s"] = time.perf_counter() - started
    if step == "bootstrap":
        started = time.perf_counter()
        model.bootstrap_intervals(samples=1, seed=0)
        figures["resample_s"] = time.perf_counter() - started
    memory = memory_kib()
    figures.update(rss_after_games_mib=before / 1024, peak_mib=memory["VmHWM"] / 1024)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--child", choices=["build", "fit", "normal", "bootstrap"])
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args, args.child)))
        return 0
    print(f"{args.games} games of {args.players} players, {args.agents} agents")
    for step in ("build", "fit", "normal", "bootstrap"):
        argv = [sys.executable, __file__, "--child", step, "--games", str(args.games), "--agents",
                str(args.agents), "--players", str(args.players)]
        figures = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
        print(f"{step:9s} " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                          for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
