"""A user, a cgroup and a mount namespace per bot (arena/process/confinement.py, botuser.py, cgroups.py).

Real processes through :func:`arena.process.bot.open_bot_process`. The parts that need root and
cgroups skip elsewhere, saying why.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from engine_support import uid_locked

from arena.errors import ConfigError
from arena.process import botuser, cgroups, confinement, reclaim, runcgroups
from arena.process.bot import open_bot_process
from arena.process.replies import ReplyReader

ROOTED = pytest.mark.skipif(not botuser.can_switch_users() or cgroups.layout() is None,
                            reason="needs arena as root with cgroups (bots get users and cgroups only then)")

REPORT = ("import os, sys\n"
          "print(os.getuid(), os.getgid(), os.getgroups(), open('/proc/self/cgroup').read().split(), flush=True)\n"
          "sys.stdin.readline()\n")


def _status(pid: int, key: str) -> str:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].strip()
    raise KeyError(key)


@ROOTED
@pytest.mark.parametrize("sandbox", [False, True], ids=["no-sandbox", "sandbox"])
async def test_each_bot_has_a_user_and_cgroups_of_its_own_and_gives_them_back(sandbox: bool) -> None:
    seen = []
    folders: list[Path] = []
    async with open_bot_process([sys.executable, "-c", REPORT], sandbox=sandbox) as one, \
            open_bot_process([sys.executable, "-c", REPORT], sandbox=sandbox) as two:
        for bot in (one, two):
            with trio.fail_after(30):
                line = (await bot.read_line()).decode()
            uid, gid = int(line.split()[0]), int(line.split()[1])
            seen.append(uid)
            first, count = botuser.pool()
            assert first <= uid < first + count and gid == uid
            assert bot.cgroup is not None
            folders.extend(bot.cgroup.folders.values())
            assert all(folder.is_dir() for folder in bot.cgroup.folders.values())
            # In its own cgroup namespace: its cgroup is its root, and its processes are in it.
            assert "'0::/'" in line and "arena-" not in line
            assert bot.cgroup.procs()
            assert _status(bot.pid, "CapEff") in ("0000000000000000",) or sandbox  # the leader is bwrap's
    assert seen[0] != seen[1] and os.getuid() not in seen
    # Given back once the kernel has emptied them (off the game's path): the folders are kept for
    # the agent's next bots, empty; the users are free again.
    assert reclaim.settle() == 0
    assert not any(cgroups._procs(folder) for folder in folders)
    for uid in seen:
        assert not uid_locked(uid)
    run = runcgroups.for_run()
    assert run is not None
    pooled = [set(c.folders.values()) for pool in run._pools.values() for c in pool]
    assert set(folders[:len(folders) // 2]) in pooled and set(folders[len(folders) // 2:]) in pooled


@ROOTED
async def test_a_stopped_bot_is_frozen_until_resumed_and_its_cpu_time_is_counted() -> None:
    code = "import sys, time\nsys.stdin.readline()\nt = time.process_time()\nwhile time.process_time() - t < 0.2: pass\nprint('done', flush=True)\n"
    async with open_bot_process([sys.executable, "-c", code], stopped=True) as bot:
        assert bot.cgroup is not None
        events = bot.cgroup.folders["v2"] / "cgroup.events" if "v2" in bot.cgroup.folders else None
        if events is not None:
            for _ in range(200):  # the kernel freezes asynchronously, in microseconds
                if "frozen 1" in events.read_text():
                    break
                await trio.sleep(0.005)
            assert "frozen 1" in events.read_text()
        before = bot.cpu_seconds()
        await trio.sleep(0.2)
        assert bot.cpu_seconds() == before  # frozen: not one tick
        bot.resume()
        await bot.send(b"go\n")
        with trio.fail_after(30):
            assert await bot.read_line() == b"done"
        used = bot.cpu_seconds()
        assert used is not None and before is not None and used - before >= 0.18


@ROOTED
async def test_what_a_bot_starts_and_hides_dies_with_its_cgroup() -> None:
    # A child that leaves the session and empties its environment: no token, no group finds it.
    code = ("import os, subprocess, sys\n"
            "subprocess.Popen([sys.executable, '-c', 'import os, time\\nos.setsid()\\ntime.sleep(600)'], env={},"
            " start_new_session=True)\nprint('started', flush=True)\nimport time; time.sleep(600)\n")
    async with open_bot_process([sys.executable, "-c", code], sandbox=False) as bot:
        with trio.fail_after(30):
            assert await bot.read_line() == b"started"
        assert bot.cgroup is not None
        folder = next(iter(bot.cgroup.folders.values()))
        await trio.sleep(0.1)
        pids = [int(p) for p in (folder / "cgroup.procs").read_text().split()]
        assert len(pids) >= 2
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or _status(pid, "State").startswith("Z")


@ROOTED
@pytest.mark.parametrize("sandbox", [False, True], ids=["no-sandbox", "sandbox"])
async def test_a_finished_bot_leaves_no_zombie_behind(sandbox: bool) -> None:
    # Arena is a subreaper: a bot's process whose parent died first (bubblewrap's pid 1, a child
    # that left the session) becomes arena's child. One zombie a bot a game would fill the pid
    # table of a long tournament.
    # The sandbox refuses a new session; its own pid 1 is what would be left there.
    code = ("import subprocess, sys\n"
            f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'], start_new_session={not sandbox})\n"
            "print('started', flush=True)\nimport time; time.sleep(600)\n")
    seen: set[int] = set()
    for _ in range(3):
        async with open_bot_process([sys.executable, "-c", code], sandbox=sandbox) as bot:
            with trio.fail_after(30):
                assert await bot.read_line() == b"started"
            assert bot.cgroup is not None
            seen.update(bot.cgroup.procs())
    assert len(seen) >= 6
    left = [pid for pid in seen if Path(f"/proc/{pid}").exists() and int(_status(pid, "PPid")) == os.getpid()]
    assert left == []


@ROOTED
async def test_a_bot_is_shown_a_script_in_a_folder_its_user_cannot_enter(tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    inner = closed / "bots"
    inner.mkdir(parents=True)
    (inner / "bot.py").write_text("print('hello', flush=True)\n")
    inner.chmod(0o755)
    closed.chmod(0o700)  # another user cannot pass this folder
    async with open_bot_process([sys.executable, str(inner / "bot.py")], sandbox=False) as bot:
        with trio.fail_after(30):
            assert await bot.read_line() == b"hello"


@ROOTED
def test_only_run_folders_whose_arena_is_gone_are_swept() -> None:
    # Liveness is the run folder's lock, held by its arena for its whole life: a pid in a name
    # means nothing across PID namespaces, which share the cgroup tree.
    layout = cgroups.layout()
    assert layout is not None
    root = layout.folders()[0]
    dead = root / f"{runcgroups.RUN_PREFIX}999999999-1-{runcgroups.pid_namespace()}"
    alive = root / f"{runcgroups.RUN_PREFIX}999999998-1-{runcgroups.pid_namespace()}"
    foreign = root / f"{runcgroups.RUN_PREFIX}not-ours"
    for folder in (dead, alive, foreign):
        folder.mkdir()
    held = os.open(alive, os.O_RDONLY | os.O_DIRECTORY)
    try:
        import fcntl

        fcntl.flock(held, fcntl.LOCK_EX)
        runcgroups.sweep_stale(layout)
        assert not dead.exists() and alive.exists() and foreign.exists()
    finally:
        os.close(held)
        for folder in (dead, alive, foreign):
            with contextlib.suppress(OSError):
                folder.rmdir()


async def test_bytes_before_a_question_are_dropped_and_only_the_non_blank_counted() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    try:
        reader = ReplyReader(None, read_end)
        os.write(write_end, b"2 0 0 7 7\n  \n")
        assert reader.discard_early() == b"20077"  # spaces and newlines are not kept
        assert reader.discard_early() == b""
        os.write(write_end, b"reply\n")
        assert await reader.read_line() == b"reply"
    finally:
        os.close(read_end)
        os.close(write_end)


def _counting_needs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every argv :func:`botuser.command_needs` is asked about from now on."""
    asked: list[tuple[str, ...]] = []
    real = botuser.command_needs

    def counted(argv: Any, *args: Any, **kwargs: Any) -> botuser.CommandNeeds:
        asked.append(tuple(argv))
        return real(argv, *args, **kwargs)

    monkeypatch.setattr(botuser, "command_needs", counted)
    confinement.forget_plans()
    return asked


def test_a_bots_path_plan_is_reused_for_the_same_command_within_its_bound(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    asked = _counting_needs(monkeypatch)
    env = {"PATH": os.environ.get("PATH", os.defpath)}
    logs = tmp_path / "logs" / "t1" / "stderr"
    logs.mkdir(parents=True)
    (logs.parent / "config.json").write_text("{}")
    plan = functools.partial(confinement.path_plan, who="a bot", own_user=False, resolve=True, sandbox=True,
                             logs_dir=logs)
    first = plan(["sh", "-c", "true"], tmp_path, env)
    again = plan(["sh", "-c", "true"], tmp_path, env)
    assert again == first and len(asked) == 1
    assert first[1] == [logs.parent.parent.resolve()]  # the logs root: it holds a tournament folder
    # Another command, folder or PATH is another plan.
    plan(["sh", "-c", "false"], tmp_path, env)
    plan(["sh", "-c", "true"], tmp_path, {"PATH": "/bin"})
    assert len(asked) == 3
    # Past the bound (here at once) the plan is worked out afresh, and sees what changed.
    monkeypatch.setattr(confinement, "PLAN_REUSE_S", 0.0)
    (logs.parent / "config.json").unlink()
    later = plan(["sh", "-c", "true"], tmp_path, env)
    assert len(asked) == 4 and later[1] == [logs.parent.resolve()]
    confinement.forget_plans()


def test_a_folder_the_bots_user_cannot_enter_is_refused_every_time_until_it_can(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = _counting_needs(monkeypatch)
    closed: list[str | None] = [str(tmp_path), None]
    monkeypatch.setattr(botuser, "closed_folder", lambda shown: closed.pop(0))
    plan = functools.partial(confinement.path_plan, who="a bot", own_user=True, resolve=True, sandbox=False,
                             logs_dir=None)
    with pytest.raises(ConfigError, match="its own user cannot enter"):
        plan(["sh"], tmp_path, {"PATH": os.defpath})
    needs, hide, _ = plan(["sh"], tmp_path, {"PATH": os.defpath})
    assert len(asked) == 2 and hide == [] and needs.argv == ("sh",)
    confinement.forget_plans()
