"""Finding what a bot left behind after its process group was killed: its escapees.

A bot's descendant can leave the bot's process group (``setsid``, ``setpgid``), so the group kill
misses it. Arena is a child subreaper (:func:`arena.spawn.harden_arena_process`), so once the bot
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
import signal
from collections.abc import Collection

import trio

_MAX_ROUNDS = 16
_EXIT_WAIT_S = 2.0


def arena_children() -> list[int]:
    """Pids of this process's direct children (from every thread's ``children`` list)."""
    pids: set[int] = set()
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return []
    found_any = False
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children") as f:
                pids.update(int(p) for p in f.read().split())
            found_any = True
        except OSError:
            continue
    if not found_any:  # a kernel without CONFIG_PROC_CHILDREN: scan for our children instead
        me = os.getpid()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                stat = _stat(int(entry))
                if stat is not None and stat[1] == me:
                    pids.add(int(entry))
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


async def sweep_escapees(game_token: str, pgid: int, *, skip: Collection[int]) -> list[int]:
    """Kill and reap the escapees of the bot whose group was ``pgid`` (see the module docstring).

    ``skip``: pids never to touch (live bot leaders, the guardian). Returns the pids killed.
    Never raises for a process that vanished meanwhile.
    """
    needle = b"\0ARENA_GAME_TOKEN=" + game_token.encode() + b"\0"
    me_group = os.getpgrp()
    killed: list[int] = []
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
