"""Finding what a bot left behind after its process group was killed: its escapees.

A bot's descendant can leave the bot's process group (``setsid``, ``setpgid``), so the group kill
misses it. Arena is a child subreaper (:func:`arena.process.spawn.harden_arena_process`), so once the bot
is dead such a process is re-parented to arena: it is one of arena's **direct children**. Teardown
therefore looks only at arena's children (``/proc/self/task/*/children``; cheap, no scan of the
machine) that are not live bot leaders nor the guardian, and kills and reaps those that belong to
the bot:

- a live child whose ``/proc/<pid>/environ`` carries the bot's ``ARENA_GAME_TOKEN``, or whose session
  or process group is the bot's (it left the group but not the session, or scrubbed its
  environment without leaving the session);
- a zombie child of the bot's session or group, or one this sweep killed.

Each is SIGKILLed with its process group, then reaped by its own pid (``waitpid(pid)``, never
``waitpid(-1)``: other parts of a program may have children of their own). Killing one may orphan
its own descendants, which are re-parented to arena in turn: the sweep repeats until a round finds
nothing (bounded). A bot that both leaves its session and scrubs its environment is beyond this
(the sandbox's PID namespace is not).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from collections.abc import Collection

import trio

_MAX_ROUNDS = 16
_EXIT_WAIT_S = 2.0


def arena_children() -> list[int]:
    """Pids of this process's direct children (from every thread's ``children`` list)."""
    me = os.getpid()
    if os.path.exists(f"/proc/self/task/{me}/children"):
        return sorted(set(_children_of(me)))
    # A kernel without CONFIG_PROC_CHILDREN: scan for our children instead.
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[1] == me:
                pids.append(int(entry))
    return sorted(pids)


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, ppid, pgid, session) of ``pid`` from /proc, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(b")") + 2 :].split()
    return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3])


def _carries(pid: int, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return needle in b"\0" + f.read()
    except OSError:
        return False


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


async def _wait_and_reap(pid: int) -> None:
    """Wait (bounded) for our child ``pid`` to exit, then reap it."""
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        _reap(pid)
        return
    try:
        with trio.move_on_after(_EXIT_WAIT_S):
            await trio.lowlevel.wait_readable(pidfd)
    finally:
        os.close(pidfd)
    _reap(pid)


def hold(held: dict[int, int], pids: Collection[int], *, leader: int) -> None:
    """Add to ``held`` (pid -> pidfd) a pidfd for each of a bot's processes not held yet but its
    ``leader`` (arena reaps that one itself), taken while the bot is still alive so that each names
    that very process, never a later one given the same pid. For :func:`reap_orphans`; a process
    that is already gone is skipped."""
    for pid in pids:
        if pid != leader and pid not in held:
            with contextlib.suppress(OSError):
                held[pid] = os.pidfd_open(pid)


async def reap_orphans(held: Collection[int]) -> None:
    """Reap those of a killed bot's processes (``held`` by :func:`hold`) that died as arena's
    children, then close the pidfds. Arena is a child subreaper: a process whose parent died before
    it (bubblewrap's pid 1, once the leader is reaped; a child that left the bot's session) is
    re-parented to arena, and nothing else would ever wait for it: one zombie a bot a game, until
    the pid table (32,768 on many machines) is full. Each is waited for (bounded) and reaped by its
    pidfd, which cannot touch another process; one that is not arena's child (its own parent reaped
    it) is left alone."""
    # Most are gone by now (the leader exits last): one poll finds them, and only the others cost
    # a wait through trio's scheduler (a pass each, even for a descriptor that is ready already).
    poller = select.poll()
    for pidfd in held:
        poller.register(pidfd, select.POLLIN)
    gone = {fd for fd, _ in poller.poll(0)}
    for pidfd in held:
        try:
            if pidfd not in gone:
                with trio.move_on_after(_EXIT_WAIT_S):
                    await trio.lowlevel.wait_readable(pidfd)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitid(os.P_PIDFD, pidfd, os.WEXITED | os.WNOHANG)  # noqa: ASYNC222 - WNOHANG, after the pidfd said it exited
        finally:
            os.close(pidfd)


async def sweep_escapees(game_token: str, pgid: int, *, skip: Collection[int],
                         killed_already: Collection[int] = ()) -> list[int]:
    """Kill and reap the escapees of the bot whose group was ``pgid`` (see the module docstring).

    ``skip``: pids never to touch (live bot leaders, the guardian). ``killed_already``: the bot's
    processes the caller killed itself (reaped here once they are re-parented to arena as zombies).
    Returns the pids killed. Never raises for a process that vanished meanwhile.
    """
    needle = b"\0ARENA_GAME_TOKEN=" + game_token.encode() + b"\0"
    me_group = os.getpgrp()
    killed: list[int] = list(killed_already)
    for _ in range(_MAX_ROUNDS):
        found: list[tuple[int, int]] = []
        for pid in arena_children():
            if pid in skip:
                continue
            stat = _stat(pid)
            if stat is None:
                continue
            state, _, group, session = stat
            ours = session == pgid or group == pgid
            if state in ("Z", "X"):
                if ours or pid in killed:
                    _reap(pid)
                continue
            if ours or _carries(pid, needle):
                found.append((pid, group))
        if not found:
            break
        for pid, group in found:
            if group > 1 and group != me_group and group not in skip:
                with contextlib.suppress(OSError):
                    os.killpg(group, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        for pid, _ in found:
            await _wait_and_reap(pid)
    return killed


# -- stopping what left the group (no pondering) -------------------------------------------------

_main_children_fd: int | None = None
# Files kept open per bot on its leader's threads (a JVM has dozens of threads: read the rest anew).
_KEPT_TASK_FILES = 4


def _adopted_children() -> list[int]:
    """Pids in the children list of arena's main thread: as a subreaper, orphans of bots are
    re-parented there (bots themselves are forked by the spawner thread, so they are not)."""
    global _main_children_fd
    if _main_children_fd is None:
        try:
            _main_children_fd = os.open(f"/proc/self/task/{os.getpid()}/children", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return []
    try:
        data = os.pread(_main_children_fd, 1 << 16, 0)
    except OSError:
        return []
    return [int(p) for p in data.split()] if data else []


def _children_of_task(pid: int, tid: str) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _children_of(pid: int) -> list[int]:
    """The children of every thread of ``pid`` (none if it is gone)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    return [child for tid in tasks for child in _children_of_task(pid, tid)]


class StrayStopper:
    """Stops and continues a bot's processes that left its process group (``setsid``, ``setpgid``).

    SIGSTOP to the group reaches only the group. :meth:`stop`, called right after it, walks the
    bot's process tree from the leader, top down, and stops every descendant outside the group; a
    process is stopped before its children are read, so none can fork past the walk. Descendants
    whose parent died were re-parented to arena (a subreaper): those carrying the bot's
    ``ARENA_GAME_TOKEN`` or in its session are stopped with their subtrees too. :meth:`resume`
    continues exactly the processes :meth:`stop` stopped.

    The common case, a bot with one thread and no children, costs a directory listing and two
    reads of already open files per call. A descendant that left the session *and* scrubbed its
    environment after its parent died is beyond this (the sandbox forbids ``setsid``).
    """

    def __init__(self, leader: int, game_token: str) -> None:
        self.leader = leader
        self._needle = b"\0ARENA_GAME_TOKEN=" + game_token.encode() + b"\0"
        self._stopped: list[int] = []
        self._not_ours: set[int] = set()
        self._task_dir: int | None = None
        self._task_fds: dict[str, int] = {}

    def _leader_children(self) -> list[int]:
        # The leader's files stay open: this runs every turn, and opening costs more than reading.
        if self._task_dir is None:
            try:
                self._task_dir = os.open(f"/proc/{self.leader}/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError:
                return []
        try:
            tasks = os.listdir(self._task_dir)
        except OSError:
            return []
        out: list[int] = []
        for tid in tasks:
            fd = self._task_fds.get(tid)
            if fd is None and len(self._task_fds) >= _KEPT_TASK_FILES:
                out.extend(_children_of_task(self.leader, tid))
                continue
            if fd is None:
                try:
                    fd = self._task_fds[tid] = os.open(f"/proc/{self.leader}/task/{tid}/children",
                                                       os.O_RDONLY | os.O_CLOEXEC)
                except OSError:
                    continue
            try:
                data = os.pread(fd, 1 << 16, 0)
            except OSError:
                continue
            if data:
                out.extend(int(p) for p in data.split())
        if len(self._task_fds) > len(tasks):  # threads that ended: close their files
            for tid in [t for t in self._task_fds if t not in tasks]:
                os.close(self._task_fds.pop(tid))
        return out

    def _stop_tree(self, roots: list[int], group: int) -> None:
        frontier = roots
        seen: set[int] = set()
        while frontier:
            pid = frontier.pop()
            if pid in seen:
                continue
            seen.add(pid)
            stat = _stat(pid)
            if stat is None or stat[0] in ("Z", "X"):
                continue
            if stat[2] != group:  # outside the stopped group: stop it before reading its children
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGSTOP)
                self._stopped.append(pid)
            frontier.extend(_children_of(pid))

    def stop(self, group: int, skip: Collection[int] = ()) -> None:
        """Stop the bot's processes outside ``group`` (which the caller has just stopped)."""
        children = self._leader_children()
        if children:
            self._stop_tree(children, group)
        for pid in _adopted_children():
            if pid in skip or pid in self._not_ours:
                continue
            stat = _stat(pid)
            if stat is None or stat[0] in ("Z", "X"):
                continue
            if stat[3] == group or stat[2] == group or _carries(pid, self._needle):
                self._stop_tree([pid], group)
            else:
                # Someone else's (another bot's orphan, a helper arena started): not read again.
                self._not_ours.add(pid)

    def kill_stopped(self) -> list[int]:
        """SIGKILL what :meth:`stop` stopped (teardown); the pids, for the sweep to reap."""
        pids = list(self._stopped)
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        self._stopped.clear()
        return pids

    def resume(self) -> None:
        """Continue what :meth:`stop` stopped (the caller continues the group)."""
        for pid in self._stopped:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
        self._stopped.clear()

    def close(self) -> None:
        """Close the files kept open on the leader's /proc entries."""
        for fd in self._task_fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._task_fds.clear()
        if self._task_dir is not None:
            with contextlib.suppress(OSError):
                os.close(self._task_dir)
            self._task_dir = None
