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

Measured 2026-12-07 on the 2-core machine, load average 28 from other work (so every figure is
loose, likely high), sandbox on, 30 games, medians per game of 2 plies (two bots)::

    game (whole process)   10.5 ms      teardown (2 bots)        2.4 ms
    spawn (spawner thread)  1.3 ms      cgroup mkdir + limits    0.67 ms
    cgroup rmdir            0.36 ms     user (uid pool)          0.15 ms
    bubblewrap argv         0.11 ms     seccomp pipe             0.07 ms
    path plan (reused)      0.04 ms     user given back          0.02 ms
    phases summed           5.1 ms      the rest (match loop, 2 plies, the bots' tasks, the record,
                                        waiting for the bots to start) 5.4 ms

bubblewrap's own work (its namespaces: pid, ipc, net, uts; its mounts; loading the seccomp filter) is
done in its processes, charged to the bot's cgroup and not to arena: ``bwrap --ro-bind / / --dev
/dev --proc /proc --unshare-pid,ipc,net,uts -- /bin/true`` took 1.5-2.1 ms of CPU (5.4 ms without a
pid namespace, rusage of its children) and 43-51 ms of wall time at that load, against 0.66 ms and
6.6 ms for ``/bin/true`` alone.

So of arena's ~5 ms a game for two bots, the kernel objects (user, cgroups: 1.2 ms) and the
teardown (2.4 ms: TERM, ``cgroup.kill``, a poll every 0.5 ms until the cgroup is empty, reaping,
rmdir) weigh most, then the fork and exec from arena's large process (1.3 ms).

The design this points to (not built): **a box per agent per run, kept warm.**

- Once per agent per run: its uid, a cgroup folder with its limits (memory, pids) and, under it,
  a long-lived bubblewrap whose pid 1 is a tiny launcher of arena's (C, or ``python -S``; in the
  namespaces, under the bot's user and seccomp filter), talking to arena over a Unix socket.
- Per game: arena sends the launcher the game's three pipe ends (``SCM_RIGHTS``) and the argv, one
  message; the launcher ``unshare``s a fresh IPC and network namespace (nothing a game leaves in
  System V IPC or an abstract socket reaches the next; the kernel's cost, not arena's), forks the
  bot into a per-game child cgroup (``box/game``: one ``mkdir`` or a reused pair of folders) and
  sends back its pid; arena opens a pidfd and writes the freeze for the hand-shake as today.
- At the game's end: one write to ``cgroup.kill`` of the game's cgroup; its emptiness is not
  awaited in the game's path (the next game gets the other folder of the pair; the kernel's
  EPOLLPRI on ``cgroup.events`` comes at most every 10 ms, see :mod:`arena.process.bot`, so the
  folder is checked when its turn comes again), then the launcher wipes ``/tmp`` and ``/dev/shm`` (its own tmpfs: unmount and mount
  again, so no file survives) and answers "clean" before the box takes another game.
- What arena pays a game: two socket messages, a pidfd, a ``cgroup.kill`` and one ``rmdir`` or
  none: well under 1 ms. What stays per run: the uid and the box cgroup, as the trust issue's tests
  require per bot (an agent's games never share a box with another agent's).
- Cheaper steps short of that, in today's design: the teardown's emptiness poll (0.5 ms sleeps,
  several wake-ups a bot) taken off the game's path (the uid and folders given back by a reaper
  task once empty); the v1 memory and pids folders
  (3 hierarchies a bot on this hybrid machine) made once per run per agent and the bot's processes
  moved between them, leaving one v2 folder a game.
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
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
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
        record = await play_game(configured_game(game.name), AgentSpec("a", command=f"{PYTHON} {bot} --seed 1"),
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
