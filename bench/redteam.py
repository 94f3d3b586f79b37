"""The red-team table of issue 18: each attack, as real ``arena match`` / ``arena run`` commands with
real hostile bots, and the figure it gives, with the sandbox on and off.

Run (as root: the memory hog, the fork bombs and the disk filler run inside a cgroup or on a tmpfs
this script makes, so that they cannot hurt the machine when arena does not contain them)::

    .venv/bin/python bench/redteam.py [--only NAME ...] [--isolation sandbox,no-sandbox] [--wait 10]
        [--extra "--memory-mb 512"]

The scenarios live in ``tests/hostile/red_team.py`` (one home: the tests of
``tests/hostile/test_red_team_*.py`` assert the fixed behaviour on the same figures); the bots in
``tests/hostile/hostile_bot.py``. ``--isolation`` takes ``sandbox`` (``--sandbox``), ``no-sandbox``
(``--no-sandbox``) and ``default`` (no flag). ``--extra`` adds options to every arena command (for
the limits once they exist; before them, arena refuses unknown options).

Survivors are counted ``--wait`` s after arena exits (or is killed), not the issue's 60 s: the
guardian's sweep ends within a second (rounds of 20 ms until three find nothing) and the bots'
parent-death signal is immediate, while every process an attack leaves behind lives 60 s unless
killed (its ``hold``/``seconds``): alive after 10 s means nothing of arena's will ever kill it.

The bounds: the memory hog runs in a memory cgroup of 1,500 MiB (20 x 100 MiB against an honest bot
of 150 MiB); the fork and thread bombs in a pids cgroup of 400 tasks (standing for the machine's task
limit: the threads bomb therefore takes ~390 threads, not 3,000); the disk filler on a 64 MiB tmpfs
that holds arena's TMPDIR and the tournament's logs (the "before" measurement never touches the real
disk); /dev/shm gets at most 512 MiB, removed after.

Measured before the fixes of issue 18 (2 cores shared with other work, as root): ``REDTEAM_BEFORE``
at the end of this file. Surprises there: under ``--sandbox`` an injector hits only itself (bwrap's
init in its PID namespace holds its stdout); a reply written before its input is taken in the
sandbox too; a fork bomb stops a run without the sandbox (arena's own fork fails: exit 1) and makes
the honest bot "crash" with it (bwrap cannot make its namespaces); arena's charge of a 700-thread
bot's opponent starts late (its charge is below its own measure) while the opponent's own time grows.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests" / "hostile"), str(REPO / "tests" / "engine"), str(REPO)]

import red_team  # noqa: E402 - after the sys.path line: the scenarios live with the tests
from hostile_support import cgroups_usable, public_folder  # noqa: E402

ISOLATION_FLAGS = {"sandbox": ["--sandbox"], "no-sandbox": ["--no-sandbox"], "default": []}


def scenarios(wait: float) -> list[tuple[str, str, Callable[..., red_team.Measured], dict[str, Any], bool]]:
    """(name, item of issue 18 and attack, scenario, its arguments, needs root's bounds)."""
    return [
        ("inject", "1. fake move into the opponent's stdout (6 games)", red_team.injection_match, {"games": 6}, False),
        ("inject-all", "1. ... into every bot of a tournament (4 agents, 12 games, concurrency 2)",
         red_team.injection_tournament, {}, False),
        ("early", "1. reply written before its turn's input (6 games)", red_team.early_reply, {"games": 6}, False),
        ("stop-arena", "2. SIGSTOP arena 2 s in the opponent's turn (4 games)", red_team.stop_arena,
         {"games": 4}, False),
        ("kill-arena", "2. SIGKILL arena (4 games)", red_team.kill_arena, {"games": 4}, False),
        ("kill-guardian", "2. SIGKILL the guardian, then kill -9 of arena", red_team.kill_guardian,
         {"wait": wait}, False),
        ("other-guardian", "2. SIGKILL another run's guardian", red_team.other_guardians, {}, False),
        ("escape", "3. double fork + setsid + empty env CPU burners (6 games)", red_team.escape_burn,
         {"games": 6, "wait": wait}, False),
        ("memory", "4. memory hog vs a 150 MiB honest bot (2 games)", red_team.memory_hog, {"games": 2}, True),
        ("fork-bomb", "4. fork bomb, detached (4 games)", red_team.fork_bomb, {"kind": "procs"}, True),
        ("thread-bomb", "4. thread bomb, detached (4 games)", red_team.fork_bomb, {"kind": "threads"}, True),
        ("disk", "4. disk filler (tournament, 4 games)", red_team.disk_filler, {}, True),
        ("shm", "4. 512 MiB into /dev/shm", red_team.dev_shm, {"mb": 512}, False),
        ("threads", "4. stop/continue a 700-thread bot (2 games)", red_team.stopped_threads, {}, False),
        ("root", "6. root's files, games.jsonl, 127.0.0.1", red_team.root_probe, {}, False),
        ("flood", "verdict: 20 MiB on stdout", red_team.stdout_flood, {}, False),
        ("cpu", "record: each side's CPU time", red_team.cpu_time, {}, False),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="scenario names (default: all)")
    parser.add_argument("--isolation", default="sandbox,no-sandbox")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds after arena's exit to count survivors")
    parser.add_argument("--extra", default="", help="options added to every arena command")
    args = parser.parse_args()
    isolations = args.isolation.split(",")
    extra = shlex.split(args.extra)
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            check=False).stdout.strip()
    print(f"# bench/redteam.py at {commit}, {time.strftime('%Y-%m-%d %H:%M')} UTC, load {os.getloadavg()[0]:.2f}, "
          f"uid {os.geteuid()}, extra {extra or '-'}", flush=True)
    bounds = cgroups_usable()
    for name, title, scenario, kwargs, needs_bounds in scenarios(args.wait):
        if args.only and name not in args.only:
            continue
        print(f"\n{title}", flush=True)
        for isolation in isolations:
            flags = [*ISOLATION_FLAGS[isolation], *extra]
            if needs_bounds and bounds is not None:
                print(f"  {isolation:<11} skipped: {bounds}", flush=True)
                continue
            marker = f"arena-hostile-{uuid.uuid4().hex}"
            begun = time.monotonic()
            try:
                with public_folder(marker) as folder:
                    figure = scenario(marker, folder, flags, **kwargs).figure
            except Exception as exc:  # noqa: BLE001 - one scenario's failure must not stop the table
                figure = f"error: {type(exc).__name__}: {exc}"
            print(f"  {isolation:<11} {figure}  [{time.monotonic() - begun:.0f} s]", flush=True)


if __name__ == "__main__":
    main()


#: The table as measured before the fixes (bench/redteam.py, default arguments).
REDTEAM_BEFORE = """
# bench/redteam.py at dff45ef, 2026-11-26 05:50 UTC, load 3.05, uid 0, extra -

1. fake move into the opponent's stdout (6 games)
  sandbox     games decided by injection 0/6  [1 s]
  no-sandbox  games decided by injection 6/6  [2 s]

1. ... into every bot of a tournament (4 agents, 12 games, concurrency 2)
  sandbox     games decided by injection 0/12, 0 between two other bots  [3 s]
  no-sandbox  games decided by injection 11/12, 6 between two other bots  [2 s]

1. reply written before its turn's input (6 games)
  sandbox     replies written before their input taken as the move 6/6 games  [2 s]
  no-sandbox  replies written before their input taken as the move 6/6 games  [2 s]

2. SIGSTOP arena 2 s in the opponent's turn (4 games)
  sandbox     arena stopped 0x for 2 s; opponent lost on time 0/4  [3 s]
  no-sandbox  arena stopped 4x for 2 s; opponent lost on time 4/4  [10 s]

2. SIGKILL arena (4 games)
  sandbox     arena exit 0; records kept 4/4  [1 s]
  no-sandbox  arena exit -9; records kept 0/4  [1 s]

2. SIGKILL the guardian, then kill -9 of arena
  sandbox     guardian alive when arena got kill -9; bot processes alive 10 s later: 0  [2 s]
  no-sandbox  guardian KILLED when arena got kill -9; bot processes alive 10 s later: 1  [11 s]

2. SIGKILL another run's guardian
  sandbox     other run's guardian alive (bot: none)  [1 s]
  no-sandbox  other run's guardian KILLED (bot: 10439:ok)  [1 s]

3. double fork + setsid + empty env CPU burners (6 games)
  sandbox     escapees alive at arena's exit 0, 10 s later 0; victim lost on time 0/6  [13 s]
  no-sandbox  escapees alive at arena's exit 12, 10 s later 12; victim lost on time 4/6  [17 s]

4. memory hog vs a 150 MiB honest bot (2 games)
  sandbox     honest bot OOM-killed 2/2; hog lost by memory_limit 0/2; OOM kills 15; arena exit 0  [21 s]
  no-sandbox  honest bot OOM-killed 2/2; hog lost by memory_limit 0/2; OOM kills 15; arena exit 0  [21 s]

4. fork bomb, detached (4 games)
  sandbox     honest bot lost by crash 2/4; games recorded 4/4; arena exit 0; bomb took 390 EAGAIN 388 EAGAIN 391 EAGAIN 389 EAGAIN  [3 s]
  no-sandbox  honest bot lost by crash 0/4; games recorded 1/4; arena exit 1; bomb took 394 EAGAIN  [1 s]

4. thread bomb, detached (4 games)
  sandbox     honest bot lost by crash 2/4; games recorded 4/4; arena exit 0; bomb took 389 RuntimeError 388 RuntimeError 390 RuntimeError 389 RuntimeError  [2 s]
  no-sandbox  honest bot lost by crash 0/4; games recorded 1/4; arena exit 1; bomb took 394 RuntimeError  [1 s]

4. disk filler (tournament, 4 games)
  sandbox     arena exit 0; games recorded 4/4; filler wrote 64 MiB (ENOSPC), 0 MiB of it left on the shared disk  [2 s]
  no-sandbox  arena exit 1; games recorded 0/4; filler wrote 0 MiB (no report), 63 MiB of it left on the shared disk; arena: error: the run failed: no space left on device (ENOSPC) while writing the stderr log of the BLACK bot 'filler'; free some disk space  [1 s]

4. 512 MiB into /dev/shm
  sandbox     wrote 512 MiB into /dev/shm, 0 MiB left after arena  [1 s]
  no-sandbox  wrote 512 MiB into /dev/shm, 512 MiB left after arena  [1 s]

4. stop/continue a 700-thread bot (2 games)
  sandbox     opponent of a 700-thread bot: own 40.1 ms, charged 30.2 ms per move; of a 1-thread bot: own 29.9 ms, charged 27.2 ms (20 ms of CPU)  [5 s]
  no-sandbox  opponent of a 700-thread bot: own 37.7 ms, charged 21.1 ms per move; of a 1-thread bot: own 20.9 ms, charged 20.3 ms (20 ms of CPU)  [4 s]

6. root's files, games.jsonl, 127.0.0.1
  sandbox     bot uids [0]; shadow read, root_home listed, root_write denied, forge denied, connect denied  [1 s]
  no-sandbox  bot uids [0]; shadow read, root_home listed, root_write written, forge appended, connect connected  [1 s]

verdict: 20 MiB on stdout
  sandbox     flooder lost by malformed_reply  [0 s]
  no-sandbox  flooder lost by malformed_reply  [0 s]

record: each side's CPU time
  sandbox     cpuMs worker None, idle None (worker needs 250 ms)  [1 s]
  no-sandbox  cpuMs worker None, idle None (worker needs 250 ms)  [1 s]
"""


#: The table after the fixes (bench/redteam.py --isolation default,no-sandbox; the default is the
#: sandbox now). Measured on a machine shared with other sessions (load 1.2 at the start). Read
#: beside REDTEAM_BEFORE: the limits are arena's defaults now (1024 MiB, 128 tasks, 256 MiB of
#: scratch per bot), which is why the bombs take 124 tasks, the filler and /dev/shm stop at 256 MiB
#: (inside the bot's own tmpfs: none of it on the shared disk) and the "700-thread" bot has 125.
#: Still open: the memory hog (its children are killed inside its own cgroup, but its leader plays
#: on, so it rarely loses by memory_limit, and the honest bot was killed in 1 of 2 games without the
#: sandbox: see tests/hostile/test_red_team_limits.py); cpuMs missing for one side once.
REDTEAM_AFTER = """
# bench/redteam.py at 6ae04e4, 2026-11-26 06:40 UTC, load 1.20, uid 0, extra -

1. fake move into the opponent's stdout (6 games)
  default     games decided by injection 0/6  [1 s]
  no-sandbox  games decided by injection 0/6  [1 s]

1. ... into every bot of a tournament (4 agents, 12 games, concurrency 2)
  default     games decided by injection 0/12, 0 between two other bots  [2 s]
  no-sandbox  games decided by injection 0/12, 0 between two other bots  [2 s]

1. reply written before its turn's input (6 games)
  default     replies written before their input taken as the move 0/6 games  [1 s]
  no-sandbox  replies written before their input taken as the move 0/6 games  [1 s]

2. SIGSTOP arena 2 s in the opponent's turn (4 games)
  default     arena stopped 0x for 2 s; opponent lost on time 0/4  [3 s]
  no-sandbox  arena stopped 0x for 2 s; opponent lost on time 0/4  [3 s]

2. SIGKILL arena (4 games)
  default     arena exit 0; records kept 4/4  [1 s]
  no-sandbox  arena exit 0; records kept 4/4  [1 s]

2. SIGKILL the guardian, then kill -9 of arena
  default     guardian alive when arena got kill -9; bot processes alive 10 s later: 0  [1 s]
  no-sandbox  guardian alive when arena got kill -9; bot processes alive 10 s later: 0  [1 s]

2. SIGKILL another run's guardian
  default     other run's guardian alive (bot: none)  [1 s]
  no-sandbox  other run's guardian alive (bot: none)  [1 s]

3. double fork + setsid + empty env CPU burners (6 games)
  default     escapees alive at arena's exit 0, 10 s later 0; victim lost on time 0/6  [14 s]
  no-sandbox  escapees alive at arena's exit 0, 10 s later 0; victim lost on time 0/6  [14 s]

4. memory hog vs a 150 MiB honest bot (2 games)
  default     honest bot OOM-killed 0/2; hog lost by memory_limit 1/2; OOM kills 0; arena exit 0  [17 s]
  no-sandbox  honest bot OOM-killed 1/2; hog lost by memory_limit 1/2; OOM kills 0; arena exit 0  [6 s]

4. fork bomb, detached (4 games)
  default     honest bot lost by crash 0/4; games recorded 4/4; arena exit 0; bomb took 124 EAGAIN 124 EAGAIN 124 EAGAIN 124 EAGAIN  [2 s]
  no-sandbox  honest bot lost by crash 0/4; games recorded 4/4; arena exit 0; bomb took 124 EAGAIN 124 EAGAIN 124 EAGAIN 124 EAGAIN  [2 s]

4. thread bomb, detached (4 games)
  default     honest bot lost by crash 0/4; games recorded 4/4; arena exit 0; bomb took 124 RuntimeError 124 RuntimeError 124 RuntimeError 124 RuntimeError  [1 s]
  no-sandbox  honest bot lost by crash 0/4; games recorded 4/4; arena exit 0; bomb took 124 RuntimeError 124 RuntimeError 124 RuntimeError 124 RuntimeError  [1 s]

4. disk filler (tournament, 4 games)
  default     arena exit 0; games recorded 4/4; filler wrote 256 MiB (none), 0 MiB of it left on the shared disk  [2 s]
  no-sandbox  arena exit 0; games recorded 4/4; filler wrote 256 MiB (none), 0 MiB of it left on the shared disk  [3 s]

4. 512 MiB into /dev/shm
  default     wrote 256 MiB into /dev/shm, 0 MiB left after arena  [1 s]
  no-sandbox  wrote 256 MiB into /dev/shm, 0 MiB left after arena  [1 s]

4. stop/continue a 700-thread bot (2 games)
  default     opponent of a 125-thread bot: own 21.9 ms, charged 20.4 ms per move; of a 1-thread bot: own 20.3 ms, charged 20.3 ms (20 ms of CPU)  [3 s]
  no-sandbox  opponent of a 125-thread bot: own 20.1 ms, charged 20.3 ms per move; of a 1-thread bot: own 20.1 ms, charged 20.3 ms (20 ms of CPU)  [3 s]

6. root's files, games.jsonl, 127.0.0.1
  default     bot uids [2100036958, 2100050709]; shadow denied, root_home listed, root_write denied, forge denied, connect denied  [1 s]
  no-sandbox  bot uids [2100005448, 2100062486]; shadow denied, root_home listed, root_write denied, forge denied, connect connected  [1 s]

verdict: 20 MiB on stdout
  default     flooder lost by output_limit  [1 s]
  no-sandbox  flooder lost by output_limit  [1 s]

record: each side's CPU time
  default     cpuMs worker 294.632, idle 50.668 (worker needs 250 ms)  [1 s]
  no-sandbox  cpuMs worker None, idle 44.319 (worker needs 250 ms)  [1 s]
"""
