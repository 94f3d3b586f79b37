"""Where a game's bot start and teardown spend arena's CPU, phase by phase (issue 36, item 1).

    .venv/bin/python bench/start_cost.py [--games 40] [--no-sandbox] [--ponder]

Plays ``--games`` games of 2 plies between two instant random checkers bots (``bots/checkers_random.py``),
one at a time, with the isolation arena uses by default (its own user, cgroups and bubblewrap for each
bot, as root), and wraps each step of a bot's start and end with a CPU clock of the thread that runs
it (the spawner thread for the fork, the hand-shake and the cgroup attach; arena's event loop for
the rest; the whole process for the async teardown). Prints the median per game of each phase and of
the whole game (``time.process_time``), with the load average. The bots' own start-up and bubblewrap's
work in its child processes (namespaces, mounts, seccomp load) are not arena's CPU and not counted.

Phases: ``user`` (uid from the pool: a lock file), ``cgroup`` (the agent's pooled folders, or the
mkdir of each hierarchy's folder and the limits written), ``plan`` (what the bot's user is shown;
reused for :data:`PLAN_REUSE_S`), ``seccomp`` (the filter's pipe), ``argv`` (the bubblewrap command
line), ``spawn`` (pipes, Popen's fork and exec, the cgroup attach and the hand-shake, the pidfd),
``teardown`` (TERM, the cgroup kill, reaping), ``give back`` (the cgroup's folders back to the
agent's pool, the scratch folder, the uid: when the next bot starts, :mod:`arena.process.reclaim`).
The first table below was measured before those last two changed.

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
rmdir) weighed most, then the fork and exec from arena's large process (1.3 ms).

**Built since (the cheap steps).** Teardown ends at ``cgroup.kill`` and the reaping of the held
processes; the emptiness wait, the cgroup, the scratch and the uid are given back off the game's
path (:mod:`arena.process.reclaim`: when the next bot starts, when the uid pool runs out, at exit).
An agent's cgroup folders are made once per run and reused by its next bots, one set per live bot
(:mod:`arena.process.runcgroups`). Measured 2026-12-07, same machine, 60 games, the old code (main
at 71ecdd5) and the new one run one after the other, medians per game::

    load 9-10                  before    after
    game (whole process)       7.59 ms   6.24 ms
    teardown (2 bots)          1.95      1.25
    cgroup (+ its give-back)   0.77      0.16
    spawn (spawner thread)     0.87      0.77
    phases summed              3.89      2.47

    game, interleaved pairs:   load 1.4-3.2: 8.60/7.86/7.08/6.31 -> 6.02/5.38/6.40/5.57 ms;
                               load 6-10:    7.68/7.90/10.18     -> 6.60/6.91/6.13 ms

Since then a pooled folder set keeps no descriptor open (a run at ``ulimit -n 45`` ran out of
them), so the agent's next bot opens its counters again: cgroup + give-back 0.28 ms, game
7.36 ms at load 14 (pairs at load 14-16: 8.58/8.55 -> 8.46/6.77 ms).

What is left of arena's CPU that the sandbox costs is mostly the start itself: in the spawner
thread, ``Popen`` of the hand-shake's ``sh`` (0.16 ms a bot) and the attach to the three cgroup
hierarchies of this hybrid machine (0.18 ms a bot: ``cgroup.procs`` of v2, v1 memory, v1 pids);
in the event loop, a teardown whose wake-ups (the leader's exit, the stderr drain, the held
processes) are a process's end, not the sandbox's. The rest of the game (the match loop, the two
plies, the bots' tasks, the record: about 3.5 ms) is the same without the sandbox.

The design this points to (not built): **a box per agent per run, kept warm.**

- Once per agent per run: its uid, a cgroup folder with its limits (memory, pids) and, under it,
  a long-lived bubblewrap whose pid 1 is a tiny launcher of arena's (C, or ``python -S``; in the
  namespaces, under the bot's user and seccomp filter), talking to arena over a Unix socket.
- Per game: arena sends the launcher the game's three pipe ends (``SCM_RIGHTS``) and the argv, one
  message; the launcher forks the bot into a per-game child cgroup (``box/game``; made once, it is
  entered at the fork, so no ``cgroup.procs`` write of arena's) and sends back its pid (arena
  reads it from the game cgroup's ``cgroup.procs``, where it is in arena's PID namespace); arena
  opens a pidfd and writes the freeze for the hand-shake as today. A probe of that exchange (a
  plain launcher process, no namespaces, 200 starts, load 6.5): 27-30 us of arena's CPU a start
  against 128-137 us for ``Popen`` of the same program from a process as large as arena's.
- Between games, what the trust issue's tests look for must be gone: ``/tmp`` and ``/dev/shm``
  wiped, System V IPC, message queues and abstract sockets of the game gone. The launcher cannot
  ``unshare`` a fresh IPC and network namespace itself: it runs as the bot's user without
  capabilities, and the seccomp filter refuses ``CLONE_NEWUSER``, the only way to gain them. So
  either the launcher stays privileged until the fork (outside the filter: a larger trusted
  surface inside the box) or it removes what the uid left (``/proc/sysvipc``, ``/dev/mqueue``,
  files in ``/tmp``) and the test of a later bot under the same uid proves it found everything.
- The exit status: the bot is the launcher's child, not arena's, so arena's pidfd can wait for
  its end but not read its status; the launcher must report it, and ``describe_exit`` read it.
- What arena would pay a game: two socket messages, a pidfd, a ``cgroup.kill``; what stays per
  run: the uid and the box cgroup, as the trust issue's tests require per bot (an agent's games
  never share a box with another agent's).
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
from arena.process import botuser, cgroups, confinement, runcgroups, sandbox, spawn
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
    runcgroups.RunCgroups.create = _timed("cgroup", runcgroups.RunCgroups.create)  # type: ignore[method-assign]
    cgroups.BotCgroup.recycle = _timed("give back: cgroup", cgroups.BotCgroup.recycle)  # type: ignore[method-assign]
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
