"""What confining an external referee costs: its start, and a request's round trip, plain and confined.

A referee is started once per arena process and kept for every game, so a game pays only its
requests; the start is paid once per run (and again after a referee failure). Both ways in the same
run, alternating: ``confine=False`` is the referee as arena ran it before (a plain child, arena's
user and environment), ``confine=True`` as it runs now (a bot user, a cgroup, the sandbox where
bubblewrap works). Per way: the start (to the first answer of ``info``), and ``apply`` round trips
over seeded random games of the C Breakthrough referee (examples/referees/breakthrough-c) through
:class:`arena.referee.client.RefereeClient`, in wall time and in arena's own CPU time.

    .venv/bin/python bench/referee_confined.py [--starts 10] [--games 100] [--rounds 6]

Builds the referee first (needs cc and make).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from arena.referee.client import RefereeClient
from arena.referee.protocol import request
from tests.referees.driver import build


def start_seconds(argv: list[str], confine: bool) -> float:
    """Wall seconds from nothing running to the first ``info`` answer."""
    client = RefereeClient(argv, confine=confine)
    began = time.perf_counter()
    client.call(request("info"), "info")
    took = time.perf_counter() - began
    client.close()
    return took


def plies(argv: list[str], confine: bool, games: int) -> tuple[int, float, float]:
    """``(plies, wall seconds, arena CPU seconds)`` of ``games`` seeded random games, ``apply`` only."""
    client = RefereeClient(argv, confine=confine)
    start = client.call(request("new", players=2, params={}), "new")
    count, wall, cpu = 0, 0.0, 0.0
    for seed in range(games):
        rng, node = random.Random(seed), start
        while node["actor"] >= 0:
            move = rng.choice(node["legal"][str(node["actor"])])
            line = json.dumps({"cmd": "apply", "state": node["state"], "move": move}).encode() + b"\n"
            w0, c0 = time.perf_counter(), time.process_time()
            node = client.call(line, "apply")
            wall += time.perf_counter() - w0
            cpu += time.process_time() - c0
            count += 1
    client.close()
    return count, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    argv = [str(build("breakthrough-c", ("cc",)) / "breakthrough-referee")]
    starts: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.starts):
        for confine in (False, True):
            starts[confine].append(start_seconds(argv, confine))
    for confine in (False, True):
        name = "confined" if confine else "plain   "
        print(f"{name} start to first answer: median {statistics.median(starts[confine]) * 1e3:.1f} ms "
              f"(min {min(starts[confine]) * 1e3:.1f}, max {max(starts[confine]) * 1e3:.1f}; {args.starts} starts)")
    per_ply: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    count = 0
    for _ in range(args.rounds):  # alternating, so both ways share the machine's load alike
        for confine in (False, True):
            count, wall, cpu = plies(argv, confine, args.games)
            per_ply[confine].append((wall / count, cpu / count))
    for confine in (False, True):
        name = "confined" if confine else "plain   "
        walls = [w * 1e6 for w, _ in per_ply[confine]]
        cpus = [c * 1e6 for _, c in per_ply[confine]]
        print(f"{name} apply round trip: median {statistics.median(walls):.1f} us wall (rounds {min(walls):.0f}-"
              f"{max(walls):.0f}), {statistics.median(cpus):.1f} us arena CPU per ply ({args.rounds} rounds of "
              f"{count} plies)")

if __name__ == "__main__":
    main()
