"""Can an opponent steal a bot's CPU? A bot needing ~40 ms of CPU per move, against a quiet opponent
and against a thief that keeps busy processes running, with pondering off (the default) and on.

Run: ``.venv/bin/python bench/cpu_thief.py [--games 4] [--cpu-ms 40] [--busy 4] [--max-moves 40]
[--time-limit 1100] [--escape] [--sandbox]``

- The *worker* bot burns ``--cpu-ms`` of its own CPU time (``time.process_time``) per move, then
  plays the first legal move (checkers, arena's own rules).
- The *quiet* opponent answers at once. The *thief* answers at once too, but on its first move
  starts ``--busy`` child processes that spin for ever (in its process group, as any helper
  process of a bot would be).
- For each case (quiet/thief x ponder off/on) ``--games`` games are played, colours alternating; the
  worker's charged time per move is read from the records (its first move, charged after the
  start-up allowance, is left out), with the games it lost on time.

With pondering off, arena stops the thief's whole group after each reply, so the worker's charged
time should stay within 10% of what it is against the quiet opponent; with pondering on, the busy
processes share the CPUs with the worker while its clock runs.

``--escape``: the thief's busy processes call ``setsid()`` first, leaving its process group (and,
on Linux with autogroup scheduling, each gets a CPU share of its own). Without the sandbox they
then escape the stop; ``--sandbox`` refuses ``setsid`` (seccomp), so they stay stopped.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
from typing import Any

import trio

from arena.games import get_game
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation

BOT = r"""
import subprocess, sys, time
role, cpu_ms, busy, escape = sys.argv[1], float(sys.argv[2]) / 1000.0, int(sys.argv[3]), sys.argv[4] == "1"
LEAVE = "import os\ntry:\n    os.setsid()\nexcept OSError:\n    pass\n" if escape else ""
SPIN = LEAVE + "import sys\nsys.stdout.write('up\\n'); sys.stdout.flush()\nwhile True: pass\n"
from arena.games import get_game
game = get_game("checkers")
inp, out = sys.stdin.buffer, sys.stdout.buffer
inp.readline()
colour = inp.readline().decode().strip().upper()
children = []
while True:
    if not inp.readline():
        break
    board = [inp.readline().decode() for _ in range(8)]
    begun = time.process_time()
    state = game.state_from_json({"board": board, "turn": colour, "turnNumber": 0})
    move = game.legal_moves(state)[0]
    if role == "worker":
        while time.process_time() - begun < cpu_ms:
            pass
    if role == "thief" and not children:  # on its first move (start-up allowance): spinners up first
        children = [subprocess.Popen([sys.executable, "-c", SPIN], stdout=subprocess.PIPE) for _ in range(busy)]
        for child in children:
            child.stdout.readline()
    out.write(game.move_to_wire(move).encode() + b"\n")
    out.flush()
"""


def bot_command(role: str, args: argparse.Namespace) -> str:
    return shlex.join([sys.executable, "-c", BOT, role, str(args.cpu_ms), str(args.busy), "1" if args.escape else "0"])


async def run_case(opponent: str, ponder: bool, args: argparse.Namespace) -> dict[str, Any]:
    """Play ``args.games`` games worker vs ``opponent``; the worker's charged ms per move and timeouts."""
    game = get_game("checkers")
    worker = AgentSpec("worker", command=bot_command("worker", args))
    other = AgentSpec(opponent, command=bot_command(opponent, args))
    tc = TimeControl(time_limit_ms=args.time_limit, time_margin_ms=50, startup_ms=3000)
    charged: list[float] = []
    timeouts = 0
    for index in range(args.games):
        worker_first = index % 2 == 0
        black, white = (worker, other) if worker_first else (other, worker)
        record = await play_game(configured_game(game.name), black, white, time_control=tc, max_moves=args.max_moves,
                                 isolation=Isolation(ponder=ponder, sandbox=args.sandbox))
        times = record["move_times_ms"][0 if worker_first else 1 :: 2]
        charged.extend(times[1:])  # the first move is charged after the start-up allowance
        worker_colour = "BLACK" if worker_first else "WHITE"
        if record["termination"] == "timeout" and record["winner"] != worker_colour:
            timeouts += 1
    return {"charged": charged, "timeouts": timeouts}


async def main(args: argparse.Namespace) -> None:
    print(f"worker needs {args.cpu_ms} ms CPU per move; thief runs {args.busy} busy processes"
          f"{' that leave its process group (setsid)' if args.escape else ''}"
          f"{'; every bot sandboxed' if args.sandbox else ''}; "
          f"{args.games} games per case, timeLimit {args.time_limit} ms, maxMoves {args.max_moves}, "
          f"{os.cpu_count()} CPUs (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    results: dict[tuple[str, bool], dict[str, Any]] = {}
    for ponder in (False, True):
        for opponent in ("quiet", "thief"):
            result = results[(opponent, ponder)] = await run_case(opponent, ponder, args)
            charged = result["charged"]
            median = statistics.median(charged) if charged else float("nan")
            mean = statistics.fmean(charged) if charged else float("nan")
            print(f"  ponder {'on ' if ponder else 'off'}  vs {opponent:5}: worker charged per move median "
                  f"{median:6.1f} ms, mean {mean:6.1f} ms over {len(charged)} moves; "
                  f"lost on time {result['timeouts']} of {args.games}")
    for ponder in (False, True):
        quiet, thief = results[("quiet", ponder)]["charged"], results[("thief", ponder)]["charged"]
        if quiet and thief:
            ratio = statistics.median(thief) / statistics.median(quiet)
            goal = "  (goal <= 1.10)" if not ponder else ""
            print(f"  ponder {'on ' if ponder else 'off'}: thief / quiet (medians) {ratio:5.2f}{goal}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per case")
    parser.add_argument("--cpu-ms", type=float, default=40.0, help="the worker's CPU per move")
    parser.add_argument("--busy", type=int, default=4, help="the thief's busy processes")
    parser.add_argument("--max-moves", type=int, default=40)
    parser.add_argument("--time-limit", type=int, default=1100, help="ms per bot per game")
    parser.add_argument("--escape", action="store_true", help="the thief's processes call setsid() first")
    parser.add_argument("--sandbox", action="store_true", help="run every bot under the sandbox")
    trio.run(main, parser.parse_args())
