"""What stopping only what could run saves (:mod:`arena.process.offturn`), games interleaved in one process.

    .venv/bin/python bench/off_turn.py [--games 20] [--rounds 3]

Builds ``bench/bots/breakthrough_instant.c`` (an instant C bot: a random legal move at once) and
plays full Breakthrough games between two of them, pondering off, sandbox as by default, alternating
game by game between two policies so that the machine's load hits both alike:

- ``freeze``: every bot frozen after every reply (what arena did before: the off-turn look is skipped);
- ``park``: a bot asleep in the read of its next input left alone, any other frozen.

Prints per policy the medians over ``--rounds`` rounds of ``--games`` games each: arena's CPU per ply
(``time.process_time``: every thread of this process), the bots' CPU per ply (their cgroups, bubblewrap
included) and wall time per ply, with how often a bot was parked, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import trio

from arena.games import get_game
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process import offturn

BOT_SOURCE = Path(__file__).resolve().parent / "bots" / "breakthrough_instant.c"


async def _round(bot: str, games: int) -> tuple[float, float, float]:
    """(arena CPU, bots' CPU, wall) seconds per ply over ``games`` games."""
    game = get_game("breakthrough")
    cpu, bots, wall, plies = 0.0, 0.0, 0.0, 0
    for index in range(games):
        begun_cpu, begun_wall = time.process_time(), time.perf_counter()
        record = await play_game(configured_game(game.name), AgentSpec("a", command=f"{bot} {2 * index + 1}"),
                                 AgentSpec("b", command=f"{bot} {2 * index + 2}"),
                                 time_control=TimeControl(time_limit_ms=10000, startup_ms=5000))
        cpu += time.process_time() - begun_cpu
        wall += time.perf_counter() - begun_wall
        plies += record["plies"]
        bots += sum(player.get("cpuMs") or 0.0 for player in record["players"]) / 1e3
    return cpu / plies, bots / plies, wall / plies


async def main(args: argparse.Namespace, bot: str) -> None:
    looked = offturn.OffTurn.parked
    counts = {"park": [0, 0]}

    def counted(self: offturn.OffTurn) -> bool:
        parked = looked(self)
        counts["park"][0 if parked else 1] += 1
        return parked

    def never(self: offturn.OffTurn) -> bool:
        self.freezes += 1
        return False

    results: dict[str, list[tuple[float, float, float]]] = {"freeze": [], "park": []}
    await _round(bot, 2)  # warm-up: imports, the guardian, the run's cgroup folders
    counts["park"] = [0, 0]
    for _ in range(args.rounds):
        for policy in ("freeze", "park"):
            offturn.OffTurn.parked = never if policy == "freeze" else counted  # type: ignore[method-assign]
            results[policy].append(await _round(bot, args.games))
    offturn.OffTurn.parked = looked  # type: ignore[method-assign]
    print(f"Breakthrough, instant C bots, {args.rounds} rounds of {args.games} games a policy, interleaved"
          f" (load average {os.getloadavg()[0]:.2f}); medians of the rounds:")
    for policy, rows in results.items():
        cpu, bots, wall = (statistics.median(row[i] for row in rows) * 1e6 for i in range(3))
        spread = ", ".join(f"{row[0] * 1e6:.1f}" for row in rows)
        print(f"  {policy:6} arena CPU {cpu:6.1f} us/ply (rounds: {spread}); bots' CPU {bots:6.1f} us/ply;"
              f" wall {wall:7.1f} us/ply")
    parked, frozen = counts["park"]
    print(f"  park: {parked} replies left parked, {frozen} frozen ({parked / max(1, parked + frozen):.0%} parked)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        instant = str(Path(tmp) / "instant")
        subprocess.run(["cc", "-O2", "-o", instant, str(BOT_SOURCE)], check=True)
        os.chmod(tmp, 0o755)  # the bots' own users must reach it
        trio.run(main, options, instant)
