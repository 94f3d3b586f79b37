"""Where a game's bot start and teardown spend arena's CPU, phase by phase (issue 36, item 1).

    .venv/bin/python bench/start_cost.py [--games 40] [--no-sandbox] [--ponder]

Plays ``--games`` games of 2 plies between two instant random checkers bots (``bots/checkers_random.py``),
one at a time, with the isolation arena uses by default (its own user, cgroups and bubblewrap for each
bot, as root), and wraps each step of a bot's start and end with a CPU clock of the thread that runs
it (the spawner thread for the fork, the hand-shake and the cgroup attach; arena's event loop for
the rest; the whole process for the async teardown). Prints the median per game of each phase and of
the whole game (``time.process_time``), with the load average. The bots' own start-up and bubblewrap's
work in its child processes (namespaces, mounts, seccomp load) are not arena's CPU and not counted.

Phases: ``user`` (uid from the pool: a lock file), ``cgroup`` (mkdir of each hierarchy's folder and
the limits written), ``plan`` (what the bot's user is shown; reused for :data:`PLAN_REUSE_S`),
``seccomp`` (the filter's pipe), ``argv`` (the bubblewrap command line), ``spawn`` (pipes, Popen's fork
and exec, the cgroup attach and the hand-shake, the pidfd), ``teardown`` (TERM, the cgroup kill, the
wait for it to empty, reaping), ``give back`` (rmdir of the cgroups, the scratch folder, the uid).

Measured 2026-12-07 on this 2-core machine (load 8-20 from other work: the medians are loose):
see docs/isolation.md, "What a game's sandbox costs".
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

from arena.games import get_game
from arena.match.game import TimeControl, play_game
from arena.players.spec import AgentSpec
from arena.process import bot as bot_module
from arena.process import botuser, cgroups, confinement, sandbox, spawn
from arena.process.isolation import Isolation

REPO = Path(__file__).resolve().parent.parent
PYTHON = os.path.realpath(sys.executable)
spent: dict[str, float] = defaultdict(float)


def _timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        begun = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.thread_time() - begun
    return wrapper


def _timed_async(name: str, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        begun = time.process_time()
        try:
            return await fn(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - begun
    return wrapper


def instrument() -> None:
    """Wrap each phase where arena looks it up (module attributes, methods)."""
    botuser.allocate = _timed("user", botuser.allocate)
    botuser.BotUser.release = _timed("give back: user", botuser.BotUser.release)  # type: ignore[method-assign]
    cgroups.RunCgroups.create = _timed("cgroup", cgroups.RunCgroups.create)  # type: ignore[method-assign]
    cgroups.BotCgroup.remove = _timed("give back: cgroup", cgroups.BotCgroup.remove)  # type: ignore[method-assign]
    confinement.path_plan = _timed("plan", confinement.path_plan)
    sandbox.seccomp_pipe = _timed("seccomp", sandbox.seccomp_pipe)
    sandbox.bot_argv = _timed("argv", sandbox.bot_argv)
    spawn._start = _timed("spawn (spawner thread)", spawn._start)
    bot_module.BotProcess._kill_cgroup = _timed_async(  # type: ignore[method-assign,assignment]
        "teardown", bot_module.BotProcess._kill_cgroup)


async def main(args: argparse.Namespace) -> None:
    instrument()
    game = get_game("checkers")
    isolation = Isolation(sandbox=not args.no_sandbox, ponder=args.ponder)
    bot = str(REPO / "bots" / "checkers_random.py")
    per_game: dict[str, list[float]] = defaultdict(list)
    profiler = cProfile.Profile(time.thread_time) if args.profile else None
    for index in range(args.games + 1):
        if profiler is not None and index == 1:
            profiler.enable()
        spent.clear()
        begun = time.process_time()
        record = await play_game(game, AgentSpec("a", command=f"{PYTHON} {bot} --seed 1"),
                                 AgentSpec("b", command=f"{PYTHON} {bot} --seed 2"),
                                 time_control=TimeControl(time_limit_ms=10000, startup_ms=5000), max_moves=2,
                                 isolation=isolation)
        total = time.process_time() - begun
        if record["termination"] != "max_moves":
            raise SystemExit(f"the game ended early: {record['reason']}")
        if index == 0:
            continue  # warm-up: imports, the guardian, the run's cgroup folders
        for name, value in spent.items():
            per_game[name].append(value)
        per_game["game (whole process)"].append(total)
    print(f"arena CPU per game of 2 plies, medians of {args.games} games (load average {os.getloadavg()[0]:.2f};"
          f" sandbox {'off' if args.no_sandbox else 'on'}, ponder {'on' if args.ponder else 'off'}):")
    accounted = 0.0
    for name, values in sorted(per_game.items(), key=lambda item: -statistics.median(item[1])):
        median = statistics.median(values)
        if not name.startswith("game"):
            accounted += median
        print(f"  {name:28} {median * 1e3:7.3f} ms")
    print(f"  {'(phases above, summed)':28} {accounted * 1e3:7.3f} ms")
    if profiler is not None:
        profiler.disable()
        print(f"arena's event loop thread, per game (cProfile, CPU of that thread; {args.games} games):")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(r"arena/(process|players|match)", 40)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--no-sandbox", action="store_true")
    parser.add_argument("--ponder", action="store_true")
    parser.add_argument("--profile", action="store_true", help="also cProfile arena's event-loop thread")
    trio.run(main, parser.parse_args())
