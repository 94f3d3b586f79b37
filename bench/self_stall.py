"""Does a bot gain time from CPU pressure it causes itself? (issue 33, item 6)

A checkers bot spins ``--spin-ms`` (400) of wall time every turn, on a game budget of ``--budget``
(1500) ms, beside ``--busy`` (1) busy loops this script starts and kills by pid: once as one
process, once with five more busy processes of its own (``--procs``, 6), which keep its cgroup's
CPU pressure near 100%. The bot is ``tests/hostile/spender_bot.py``; it reports each turn's wall
time and the CPU time it and its children used so far. Games go until it runs out of time (or
``--max-moves``, 60 plies).

Printed per case and game: how it ended, the wall time of its turns after the first (the first is
charged after the start-up allowance) and the CPU time it used in them. The fair clock owes a bot
at most one CPU: a many-process bot should run out of time after about its budget of CPU, in no
more wall time than a single-process one.

    .venv/bin/python bench/self_stall.py [--games 3] [--procs 6] [--spin-ms 400] [--budget 1500]
        [--busy 1] [--max-moves 60]

As root with cgroups and bubblewrap (the sandbox is used). The load average is printed first and
last: other work on the machine shows in every figure.

Measured on 2 cores shared with other work (load 15-22), 3 games a case, wall time of the turns
after the first: before the fix (pressure credited whole, arena's own run delay on top) one process
5.7-12.1 s, six processes 13.0-13.6 s (all three games reached the 60-ply cap); after it one process
2.0-2.5 s, six 1.3-2.8 s, every game lost on time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import uuid
from pathlib import Path

import trio

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests" / "hostile"), str(REPO / "tests" / "engine"), str(REPO / "tests"), str(REPO)]

from hostile_support import busy_loops, hostile_command  # noqa: E402 - the bots live with the tests
from test_kernel_state import spender, spent  # noqa: E402

from arena.games.registry import configured_game  # noqa: E402
from arena.match.clock import TimeControl  # noqa: E402
from arena.match.game import play_game  # noqa: E402
from arena.players.spec import AgentSpec  # noqa: E402
from arena.process.isolation import Isolation  # noqa: E402


async def one_game(marker: str, procs: int, args: argparse.Namespace, folder: Path) -> tuple[str, float, float]:
    """(termination, wall ms of its turns after the first, CPU ms used in them) of one game."""
    hog = AgentSpec("hog", command=spender(marker, procs, args.spin_ms))
    other = AgentSpec("other", command=hostile_command(marker, "checkers", "plain", "-"))
    record = await play_game(configured_game("checkers"), hog, other, time_control=TimeControl(
        time_limit_ms=args.budget, time_margin_ms=20, startup_ms=10000), max_moves=args.max_moves,
        stderr_dir=folder, game_index=0, isolation=Isolation(sandbox=True))
    turns = spent(folder / "00000-black-hog.log")
    wall = sum(w for w, _ in turns[1:])
    cpu = turns[-1][1] - turns[0][1] if turns else 0.0
    return record["termination"], wall, cpu


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--procs", type=int, default=6)
    parser.add_argument("--spin-ms", type=int, default=400)
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--busy", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=60)
    args = parser.parse_args()
    marker = f"arena-hostile-{uuid.uuid4().hex}"
    print(f"# budget {args.budget} ms, {args.spin_ms} ms of wall time spun a turn, {args.busy} busy loop(s); "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    with busy_loops(marker, args.busy, seconds=3600):
        for procs in (1, args.procs):
            walls = []
            for game in range(args.games):
                with tempfile.TemporaryDirectory() as folder:
                    ended, wall, cpu = await one_game(marker, procs, args, Path(folder))
                walls.append(wall)
                print(f"{procs} process(es), game {game + 1}: {ended}; wall {wall / 1000:.2f} s, "
                      f"CPU {cpu / 1000:.2f} s", flush=True)
            print(f"{procs} process(es): wall time used {min(walls) / 1000:.1f}-{max(walls) / 1000:.1f} s "
                  f"(median {statistics.median(walls) / 1000:.1f} s) on a {args.budget / 1000:g} s budget", flush=True)
    print(f"# load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    trio.run(main)
