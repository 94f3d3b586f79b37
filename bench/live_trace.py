"""What the trace of the games in progress (``live/``, arena/tournament/live.py) costs per ply.

Run: ``.venv/bin/python bench/live_trace.py [--plies 4000] [--repeats 5] [--games shobu,checkers]``

For each game, the long quiet game of bench/engine_overhead.py (a 4-ply cycle, ``max_moves``
raised), played in this process, rounds interleaved (untraced, traced, untraced, ...) so that the
machine's load falls on both alike:

1. the match loop with in-process instant players (no pipes: arena's CPU alone, where the trace's
   share is largest), untraced and traced;
2. the real thing: two replay bots over pipes (arena's default isolation), untraced and traced.

A traced game has the run's observer: a ``StepPlayed`` event built per ply (the step, its notation,
the clocks) and one ``orjson.dumps`` and ``write`` of its line to ``live/00000.jsonl`` in a
temporary folder. Prints arena's CPU per ply (``time.process_time`` of this process: the bots are
other processes), the median of the rounds, and the traced/untraced ratio.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_overhead import Cycle, _median, find_cycle, in_process_loop, replay_argv

from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation
from arena.tournament.live import LiveTrace

Observer = Callable[[Any], None] | None


async def piped_game(cycle: Cycle, plies: int, observer: Observer) -> float:
    """CPU seconds per ply of arena's side of a game between two replay bots over pipes."""
    game = cycle.game
    tc = TimeControl(time_limit_ms=10**9, startup_ms=5000)
    black = AgentSpec("replay-black", command=shlex.join(replay_argv(game.name, cycle.black)))
    white = AgentSpec("replay-white", command=shlex.join(replay_argv(game.name, cycle.white)))
    begun = time.process_time()
    record = await play_game(cycle.played, black, white, time_control=tc, max_moves=plies, start_state=cycle.start,
                             game_index=0, isolation=Isolation(ponder=False), observer=observer)
    cpu = time.process_time() - begun
    if record["plies"] != plies:
        raise SystemExit(f"the {game.name} game did not go the distance: {record['reason']}")
    return cpu / plies


async def compare(name: str, play: Callable[[Cycle, int, Observer], Any], cycle: Cycle, plies: int,
                  repeats: int, folder: Path) -> None:
    live = LiveTrace(folder, folder.parent)
    await play(cycle, min(plies, 500), None)  # warm up
    plain, traced = [], []
    for _ in range(repeats):
        plain.append(await play(cycle, plies, None) * 1e6)
        trace = live.start(0, ["a", "b"])
        try:
            traced.append(await play(cycle, plies, trace) * 1e6)
        finally:
            live.end(0, trace)
    a, b = _median(plain), _median(traced)
    print(f"{cycle.game.name} {name}: arena CPU per ply {a:.1f} us untraced, {b:.1f} us traced: "
          f"+{b - a:.1f} us, ratio {b / a:.3f} (medians of {repeats} interleaved rounds of {plies} plies; "
          f"load average {os.getloadavg()[0]:.2f})")


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "t"
        folder.mkdir()
        for name in args.games.split(","):
            cycle = find_cycle(name)
            await compare("in process (no pipes)", in_process_loop, cycle, args.plies, args.repeats, folder)
            await compare("two bots over pipes", piped_game, cycle, args.plies, args.repeats, folder)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=4000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", default="shobu,checkers")
    trio.run(main, parser.parse_args())
