"""The guardian: kills every process of an arena run once that arena is gone, even after SIGKILL.

Run as ``python -m arena.process.guardian`` by :mod:`arena.process.spawn` (once per arena process, lazily, in its
own session, stdout/stderr to /dev/null, no file descriptor of arena's but its stdin). Contract:

- stdin: the first line is the run token, arena's pid and its start time (``/proc/<pid>/stat``);
  arena then holds the write end open and never writes again. The guardian also watches arena
  itself (a pidfd).
- When stdin reaches end of file or arena exits — whichever comes first; a SIGKILLed arena does
  both — it SIGKILLs every process whose ``/proc/<pid>/environ`` carries ``ARENA_RUN_TOKEN=<token>``,
  and the process group of each, in rounds until a few rounds in a row find none (bounded), then
  exits. First, where bots have cgroups (:mod:`arena.process.cgroups`), it kills everything in the run's
  cgroups at once and removes them: that catches what no token finds. Its own environment never carries the token, so it does not kill itself. Then it removes
  arena's sandbox scratch folders (:func:`scratch_root_name`), which arena cannot do once killed.
- It ignores SIGINT and SIGHUP (a terminal's Ctrl-C or hang-up must not take it before arena).

Standard library only, and nothing imported from the rest of arena: it must start fast and work
whatever state arena was in.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import sys
import tempfile
import time

from arena.process import runcgroups
from arena.process.isolation import make_undumpable

TOKEN_VAR = b"ARENA_RUN_TOKEN"
_ROUND_PAUSE_S = 0.02
_QUIET_ROUNDS = 3
_MAX_ROUNDS = 250


#: The start of the name of every arena process's scratch root (see :func:`scratch_root_name`).
SCRATCH_PREFIX = "arena-sandbox-"


def scratch_root_name(arena_pid: int, token: str) -> str:
    """The folder (in the temporary folder) that holds the sandbox scratch folders and the Ray game
    folders of the arena process ``arena_pid`` with run token ``token`` (:mod:`arena.process.sandbox`
    makes it): ``arena-sandbox-<pid>-<PID namespace>-<token's start>`` (the caller must be in
    that process's PID namespace, as its guardian is)."""
    name = f"{SCRATCH_PREFIX}{arena_pid}-{runcgroups.pid_namespace()}-{token[:8]}"
    return os.path.join(tempfile.gettempdir(), name)


def carriers(needle: bytes, me: int) -> list[tuple[int, int]]:
    """(pid, pgid) of every process whose environment contains ``needle`` (``\\0NAME=value\\0``)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                data = b"\0" + f.read()
        except OSError:
            continue
        if needle in data:
            try:
                pgid = os.getpgid(int(entry))
            except OSError:
                pgid = -1
            found.append((int(entry), pgid))
    return found


def sweep(token: bytes, *, quiet_rounds: int = _QUIET_ROUNDS, max_rounds: int = _MAX_ROUNDS) -> int:
    """Kill every carrier of ``token`` (and its process group) until ``quiet_rounds`` rounds in a row
    find none, at most ``max_rounds`` rounds. Returns how many processes were signalled."""
    needle = b"\0" + TOKEN_VAR + b"=" + token + b"\0"
    me, my_group = os.getpid(), os.getpgrp()
    killed = 0
    quiet = 0
    for _ in range(max_rounds):
        found = carriers(needle, me)
        if not found:
            quiet += 1
            if quiet >= quiet_rounds:
                break
        else:
            quiet = 0
        for pid, pgid in found:
            if pgid > 1 and pgid != my_group:
                with contextlib.suppress(OSError):
                    os.killpg(pgid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            killed += 1
        time.sleep(_ROUND_PAUSE_S)
    return killed


def wait_for_arena(stdin_fd: int, arena_pid: int, start: str | None = None) -> None:
    """Return when ``stdin_fd`` reaches end of file or process ``arena_pid`` (started at ``start``,
    clock ticks since boot; None: our parent) exits."""
    poller = select.poll()
    poller.register(stdin_fd, select.POLLIN | select.POLLHUP)
    pidfd = None
    with contextlib.suppress(OSError, AttributeError):
        pidfd = os.pidfd_open(arena_pid)
        poller.register(pidfd, select.POLLIN)
    # Arena died before the pidfd was made: the pid may be someone else's by now.
    if (start is None and os.getppid() != arena_pid) or (start is not None and runcgroups.start_time(arena_pid) != start):
        return
    while True:
        for fd, _ in poller.poll():
            if fd == pidfd:
                return
            try:
                if not os.read(stdin_fd, 4096):
                    return
            except BlockingIOError:
                continue
            except OSError:
                return


def main() -> None:
    make_undumpable()  # bots run as the same user: they must not read or write our /proc files
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    stdin_fd = sys.stdin.fileno()
    line = b""
    while not line.endswith(b"\n"):
        chunk = os.read(stdin_fd, 256)
        if not chunk:
            break
        line += chunk
    # "<token> <arena's pid> <its start time>": arena may be gone (a Ray worker killed at once)
    # before this process has even started Python, so neither its pid nor the names of its
    # folders can be learnt from it now.
    fields = line.split()
    if not fields or not fields[0].isalnum():
        return
    token = fields[0]
    if len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit():
        arena_pid, start = int(fields[1]), fields[2].decode()
    else:
        arena_pid, start = os.getppid(), None
    run_folder = runcgroups.run_folder_name(arena_pid, start)
    wait_for_arena(stdin_fd, arena_pid, start)
    runcgroups.kill_run_folder(run_folder)
    sweep(token)
    shutil.rmtree(scratch_root_name(arena_pid, token.decode()), ignore_errors=True)


if __name__ == "__main__":
    main()
