"""Whether a bot is stuck waiting for input: it read everything arena wrote and sleeps in a read of
its stdin, so it cannot reply until arena writes more, which arena never does before a reply.

Such a bot did not understand its input (a bot of another game or protocol waits for the rest of a
message that never comes) or wrote its reply without flushing it. Told from ``/proc`` (Linux), read
as arena's user: arena running as root reads every bot's; running as the bots' own user it reads
them too (same owner). Measured here (kernel 6.18, x86_64), a Python bot blocked in
``sys.stdin.readline()``: ``/proc/PID/syscall`` reads ``0 0x0 ...`` (``read`` on fd 0) and
``/proc/PID/wchan`` ``anon_pipe_read``, both for root and for the bot's own user; for another user
``wchan`` reads ``0`` and ``syscall`` is refused, and only ``stat``'s state (``S``) is left, which
cannot tell a read from a sleep. So the system call is the evidence, and without it (another
user, another architecture) the answer is "cannot tell" (None), never a guess.

Knows no game: the caller passes the bot's stdin descriptor and its processes.
"""

from __future__ import annotations

import array
import fcntl
import os
import platform
import termios
from collections.abc import Iterable

#: ``read`` and ``readv`` by architecture (the first field of ``/proc/PID/syscall``).
READ_SYSCALLS: dict[str, frozenset[int]] = {
    "x86_64": frozenset({0, 19}),
    "aarch64": frozenset({63, 65}),
}
#: ``nanosleep`` and ``clock_nanosleep``: a thread asleep on a timer wakes by itself (a bot that
#: reads its input in one thread and sleeps before replying in another is not stuck).
SLEEP_SYSCALLS: dict[str, frozenset[int]] = {
    "x86_64": frozenset({35, 230}),
    "aarch64": frozenset({101, 115}),
}


def input_pending(stdin_fd: int) -> int | None:
    """Bytes written to a pipe and not yet read from it (``FIONREAD`` works on either end); None
    when the descriptor is not a pipe that says."""
    buf = array.array("i", [0])
    try:
        fcntl.ioctl(stdin_fd, termios.FIONREAD, buf)
    except OSError:
        return None
    return buf[0]


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as file:
            return file.read()
    except OSError:
        return None


def _state(stat: str) -> str:
    """The state letter of a ``/proc/.../stat`` line (after the command, which may hold spaces)."""
    return stat.rpartition(")")[2].split()[0]


def cpu_ticks(pids: Iterable[int]) -> int:
    """User + system clock ticks used so far by the processes ``pids`` (gone ones count 0)."""
    total = 0
    for pid in pids:
        stat = _read(f"/proc/{pid}/stat")
        if stat:
            fields = stat.rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])
    return total


def blocked_reading(stdin_fd: int, pids: Iterable[int]) -> bool | None:
    """Whether the bot whose processes are ``pids`` and whose stdin arena writes through
    ``stdin_fd`` is waiting for input now: nothing left unread in the pipe, no thread of its
    processes running or asleep on a timer, and a thread of one whose stdin is that pipe sleeping
    in a ``read`` of fd 0. None when this cannot be told here (see the module docstring)."""
    reads = READ_SYSCALLS.get(platform.machine())
    sleeps = SLEEP_SYSCALLS.get(platform.machine(), frozenset())
    pending = input_pending(stdin_fd)
    if reads is None or pending is None:
        return None
    if pending:
        return False
    try:
        pipe = os.fstat(stdin_fd).st_ino
    except OSError:
        return None
    reading = False
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
            own = os.stat(f"/proc/{pid}/fd/0").st_ino == pipe
        except OSError:
            continue  # gone, or not ours to look at (a wrapper of arena's as another user)
        for tid in tasks:
            base = f"/proc/{pid}/task/{tid}"
            stat = _read(f"{base}/stat")
            if stat is None:
                continue
            if _state(stat) in ("R", "D"):
                return False  # something is working (or waiting on a disk): not stuck
            call = _read(f"{base}/syscall")
            if call is None:
                return None
            words = call.split()
            number = int(words[0]) if words and words[0].isdigit() else -1
            if number in sleeps:
                return False
            if own and number in reads and len(words) > 1 and int(words[1], 16) == 0:
                reading = True
    return reading


def group_pids(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (a bot without a cgroup)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _read(f"/proc/{name}/stat")
            if stat and int(stat.rpartition(")")[2].split()[2]) == pgid:
                found.append(int(name))
    return found
