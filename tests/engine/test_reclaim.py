"""A finished bot's user and cgroup given back off the game's path, its cgroup folders reused by its
agent's next bot (arena/process/reclaim.py, cgroups.py's pools).

Real processes through :func:`arena.process.bot.open_bot_process` where root and cgroups are here;
the rule that a uid is never unlocked while its cgroup holds a process is also shown on a cgroup
whose emptiness the test decides.
"""

from __future__ import annotations

import os
import sys

import pytest
import trio
from engine_support import uid_locked

from arena.process import botuser, cgroups, reclaim
from arena.process.bot import open_bot_process
from arena.process.confinement import Confinement
from arena.process.isolation import BotLimits

ROOTED = pytest.mark.skipif(not botuser.can_switch_users() or cgroups.layout() is None,
                            reason="needs arena as root with cgroups (bots get users and cgroups only then)")

BURN = ("import sys, time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
        "print('done', flush=True)\nsys.stdin.readline()\n")
# Tries to hold 12 processes at once; the limit below lets it have a few.
FORKS = ("import os, sys, time\nfor _ in range(12):\n    try:\n        if os.fork() == 0:\n"
         "            time.sleep(60)\n            os._exit(0)\n    except OSError:\n        pass\n"
         "print('done', flush=True)\nsys.stdin.readline()\n")


class _Cgroup:
    """Stands for a killed bot's cgroup that the kernel has or has not emptied yet."""

    def __init__(self) -> None:
        self.busy = True
        self.recycled = False

    def populated(self) -> bool:
        return self.busy

    def recycle(self) -> bool:
        self.recycled = not self.busy
        return self.recycled


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid locks live in a root-only folder")
def test_a_uid_is_unlocked_only_once_its_cgroup_is_empty() -> None:
    assert reclaim.settle() == 0  # what earlier tests in this process left
    held = Confinement()
    held.user = botuser.allocate()
    cgroup = _Cgroup()
    held.cgroup = cgroup  # type: ignore[assignment]
    uid = held.user.uid
    reclaim.defer(held)
    try:
        assert reclaim.collect() == 0 and reclaim.settle(0.01) == 1
        assert uid_locked(uid) and not cgroup.recycled
    finally:
        cgroup.busy = False
    assert reclaim.collect() == 1 and reclaim.pending() == 0
    assert not uid_locked(uid) and cgroup.recycled and held.user is None


@ROOTED
async def test_an_agents_next_bot_gets_its_folders_thawed_with_counters_from_zero() -> None:
    argv = [sys.executable, "-c", BURN]
    async with open_bot_process(argv) as first:
        with trio.fail_after(30):
            assert await first.read_line() == b"done"
        assert first.cgroup is not None
        first.stop()  # killed frozen: its folders stay frozen until given back
        folders, used = dict(first.cgroup.folders), first.cpu_seconds()
    assert used is not None and used >= 0.3
    assert reclaim.settle() == 0
    async with open_bot_process(argv) as second:  # not frozen: it must run in the same folders
        assert second.cgroup is not None and second.cgroup.folders == folders
        with trio.fail_after(30):
            assert await second.read_line() == b"done"
        again = second.cpu_seconds()
        assert again is not None and 0.3 <= again < used + 0.25  # its own 0.3 s, not the first's too
        # A different agent never gets them, nor does a second bot of the agent while one lives.
        async with open_bot_process([sys.executable, "-c", BURN + "\n"]) as other, \
                open_bot_process(argv) as twin:
            assert other.cgroup is not None and twin.cgroup is not None
            assert set(folders.values()).isdisjoint(other.cgroup.folders.values())
            assert set(folders.values()).isdisjoint(twin.cgroup.folders.values())
    assert reclaim.settle() == 0


@ROOTED
async def test_refused_forks_are_counted_for_the_bot_that_made_them_only() -> None:
    argv, limits = [sys.executable, "-c", FORKS], BotLimits(max_processes=6)
    async with open_bot_process(argv, limits=limits) as first:
        with trio.fail_after(30):
            assert await first.read_line() == b"done"
        assert first.task_limit_hit()
        assert first.cgroup is not None
        folders = dict(first.cgroup.folders)
    assert reclaim.settle() == 0
    async with open_bot_process([sys.executable, "-c", "import sys\nprint('up', flush=True)\nsys.stdin.readline()\n"],
                                limits=limits) as other:
        with trio.fail_after(30):
            assert await other.read_line() == b"up"
    assert reclaim.settle() == 0
    async with open_bot_process(argv, limits=BotLimits(max_processes=6)) as second:
        assert second.cgroup is not None and second.cgroup.folders == folders
        assert not second.task_limit_hit()  # the first bot's refusals are not the second's
