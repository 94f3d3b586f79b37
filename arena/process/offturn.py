"""Whether a bot between its turns could use the CPU: freeze only what could run.

Without pondering a bot must get no CPU while its opponent thinks. Freezing its cgroup guarantees
that, but costs a ply more than the freeze itself: the kernel wakes the bot, asleep in a read of its
input, to enter the freezer, then again at the thaw (about 19 us of arena's CPU a ply, and more
wall time). A bot that sleeps in a read of its input cannot run until arena writes to it, so it is
left alone ("parked") rather than frozen. :class:`OffTurn` tells the two apart, each time the bot
replied, from what the kernel shows of every task in the bot's cgroup:

- the number of tasks (``pids.current``, one read) matches the tasks last listed, each of which is
  still alive (else they are listed again);
- each of the bot's own processes has one thread, which sleeps in ``read``/``readv`` of fd 0, the
  bot's stdin pipe (checked when the process is first seen), or in ``wait4``/``waitid`` (a shell
  waiting for the bot it started): ``/proc/PID/syscall``, kept open, one read a process. A running
  or runnable task reads ``running`` there: the bot could think, it is frozen. So is a
  multi-threaded runtime (a JVM, Go, a Python bot with a thread): it is frozen as before.
- bubblewrap's own processes (the leader and its child, pid 1 of the bot's namespace, when the bot
  is wrapped) are arena's and run no code of the bot's: not looked at, but counted.

Nothing seen at one instant can rule out every wake-up: a timer signal (``alarm``) interrupts the
read, a process could have put another pipe on its fd 0 during its turn. So the bot's CPU time
(its cgroup's usage) is read once it is parked and again just before its next input
(:meth:`OffTurn.used_cpu`): if it grew, the bot thought on the opponent's time, and it is frozen
after every reply for the rest of the game. A bot may thus win one opponent's turn of CPU by a
trick, never two; a bot that keeps running after its reply (the usual pondering) is frozen at once.

The look's price, measured in bench/engine_overhead.py's long game (Shobu, instant replay bots;
arena's thread CPU time around each call, medians of 3 games of 10,000 plies each way, load 16):
the look after a reply 11.8 us, the CPU reading before the next input 4.6 us (the turn's own
reading at its input, which it serves too), and the write of that input 5.1 us (2.2 us to a frozen
bot: the write now wakes it). Freezing instead: the freeze 11.9 us, the thaw 9.5 us, and the
turn's CPU reading 4.7 us. So the look costs about 5 us a reply less than the freeze and thaw it
spares (before the two CPU readings were one, about as much as they).

Where a look cannot be had (no task counter, no ``/proc/PID/syscall``, an architecture
without the system-call numbers) the answer is "could run", and the bot is frozen as before.
Standard library only; knows no game.
"""

from __future__ import annotations

import contextlib
import os
import platform

from arena.process.cgroups import BotCgroup
from arena.process.waiting import READ_SYSCALLS

#: ``wait4`` and ``waitid`` by architecture: a process waiting for a child of the bot's.
WAIT_SYSCALLS: dict[str, frozenset[int]] = {
    "x86_64": frozenset({61, 247}),
    "aarch64": frozenset({260, 95}),
}


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    fds.clear()


class OffTurn:
    """Looks at one bot between its turns. ``cgroup``: the bot's; ``stdin_fd``: arena's end of its
    stdin pipe; ``helpers``: the leader's pid when the leader is bubblewrap (it and its children are
    arena's processes, not the bot's), else None. :meth:`close` gives the descriptors back."""

    def __init__(self, cgroup: BotCgroup, stdin_fd: int, helpers: int | None) -> None:
        self.cgroup = cgroup
        self.helpers = helpers
        self.thinks_off_turn = False  # seen using CPU between its turns: frozen from then on
        self.parks = 0  # replies after which it was left alone
        self.freezes = 0  # replies after which it had to be frozen
        self._reads = READ_SYSCALLS.get(platform.machine(), frozenset())
        self._waits = WAIT_SYSCALLS.get(platform.machine(), frozenset())
        self._task_fds: list[int] = []  # /proc/PID/syscall of the bot's own processes
        self._count = -1  # every task in the cgroup when they were listed (helpers' too)
        self._usage: float | None = None  # CPU seconds when last parked
        try:
            self._pipe = os.fstat(stdin_fd).st_ino
            self._counter = self._open_counter()
        except OSError:
            self._counter = -1

    def _open_counter(self) -> int:
        folders = self.cgroup.folders
        if "pids" in folders:
            path = folders["pids"] / "pids.current"
        elif self.cgroup.layout.pids == "v2":
            path = folders["v2"] / "pids.current"
        else:
            return -1
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)

    def _tasks_now(self) -> int:
        return int(os.pread(self._counter, 32, 0))

    def _list(self) -> None:
        """Open the ``syscall`` file of each of the bot's own processes and count every task in
        the cgroup. A bot process with more than one thread is not listed: it is never parked."""
        _close_all(self._task_fds)
        self._count = -1
        count = 0
        for pid in self.cgroup.procs():
            parent, threads = _parent_and_threads(pid)
            count += threads
            # bubblewrap's own: the leader, and its one child (pid 1 of the bot's namespace), which
            # runs bubblewrap (the bot is that child's child: it can never be the leader's).
            if self.helpers is not None and (pid == self.helpers or parent == self.helpers):
                continue
            if threads != 1:
                raise OSError("a process of the bot has threads")
            if os.stat(f"/proc/{pid}/fd/0").st_ino != self._pipe:
                raise OSError("its stdin is not the pipe arena writes")
            self._task_fds.append(os.open(f"/proc/{pid}/syscall", os.O_RDONLY | os.O_CLOEXEC))
        self._count = count

    def _all_asleep(self) -> bool:
        for fd in self._task_fds:
            words = os.pread(fd, 64, 0).split(None, 2)  # "NR ARG0 ..." or "running"
            if len(words) < 2 or not words[0].isdigit():
                return False  # running, or stopped outside a system call
            number = int(words[0])
            if not ((number in self._reads and int(words[1], 16) == 0) or number in self._waits):
                return False
        return True

    def parked(self) -> bool:
        """Whether the bot, which just replied, can be left alone until its next input (see the
        module docstring); counts the answer. Never raises."""
        if self.thinks_off_turn or self._counter < 0 or not self._reads:
            self.freezes += 1
            return False
        try:
            if self._tasks_now() != self._count:
                self._list()
                if self._tasks_now() != self._count:
                    raise OSError("its tasks changed while they were listed")
            asleep = bool(self._task_fds) and self._all_asleep()
        except (OSError, ValueError):
            _close_all(self._task_fds)  # gone, or changed: list them again next time
            self._count = -1
            asleep = False
        self._usage = self.cgroup.cpu_seconds() if asleep else None
        if self._usage is None:
            self.freezes += 1
            return False
        self.parks += 1
        return True

    def used_cpu(self) -> tuple[bool, float | None]:
        """Called before the next input of a parked bot: whether it used CPU since it was parked,
        and its CPU seconds now when they were read for that (None: not read). If it did, it is
        frozen after every reply from now on (:attr:`thinks_off_turn`)."""
        if self._usage is None:
            return False, None
        now = self.cgroup.cpu_seconds()
        used = now is None or now > self._usage
        self._usage = None
        if used:
            self.thinks_off_turn = True
        return used, now

    def close(self) -> None:
        _close_all(self._task_fds)
        if self._counter >= 0:
            with contextlib.suppress(OSError):
                os.close(self._counter)
            self._counter = -1


def _parent_and_threads(pid: int) -> tuple[int, int]:
    """The parent and the number of threads of ``pid`` (``/proc/PID/stat``); OSError if it is gone."""
    fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
    try:
        fields = os.read(fd, 1024).rpartition(b")")[2].split()
    finally:
        os.close(fd)
    return int(fields[1]), int(fields[17])
