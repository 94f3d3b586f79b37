"""Nothing a bot starts outlives its game, nor arena: setsid grandchildren, bots that ignore end of
input and every signal but SIGKILL, arena killed with SIGKILL or hung up; and bots live as long as
their game even when the thread trio would have forked them from is long gone."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import trio
import trio._core._thread_cache as thread_cache
from engine_support import assert_no_leftovers, processes_matching
from helpers import eventually, eventually_async
from hostile_support import hostile_command, reap_adopted_zombies, reports

from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.match.progress import StepPlayed
from arena.players.spec import AgentSpec
from arena.process.bot import open_bot_process
from arena.process.isolation import Isolation
from arena.process.spawn import spawner_thread

TC = TimeControl(time_limit_ms=30000, startup_ms=5000)
ROOT = Path(__file__).resolve().parents[2]


async def test_a_setsid_grandchild_is_gone_after_the_game(marker: str, tmp_path: Path) -> None:
    seen: list[int] = []

    def observer(event: object) -> None:
        if isinstance(event, StepPlayed):
            seen.append(len(processes_matching(marker + "-escapee")))

    # No sandbox: it would refuse setsid (test_sandbox.py); here the grandchild does leave.
    escaper = AgentSpec("escaper", command=hostile_command(marker, "shobu", "escapee", "-"))
    other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", "-"))
    record = await play_game(configured_game("shobu"), escaper, other, time_control=TC, max_moves=6, observer=observer,
                             stderr_dir=tmp_path, game_index=0, isolation=Isolation(sandbox=False))
    assert record["termination"] == "max_moves", record["reason"]
    left = [text for *_, text in reports(tmp_path, "escapee-escapee.txt")]
    assert left == ["left"]  # it had left the bot's session
    assert max(seen) >= 1
    assert_no_leftovers(marker, wait=0.0)  # gone when play_game returns, not eventually


async def test_bots_that_ignore_end_of_input_and_signals_are_gone(marker: str, tmp_path: Path) -> None:
    black = AgentSpec("deaf", command=hostile_command(marker, "checkers", "ignore_eof", tmp_path))
    white = AgentSpec("deafer", command=hostile_command(marker, "checkers", "ignore_signals", tmp_path))
    record = await play_game(configured_game("checkers"), black, white, time_control=TC, max_moves=6)
    assert record["termination"] == "max_moves", record["reason"]
    assert_no_leftovers(marker, wait=0.0)


ECHO = "import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n"


async def test_bots_outlive_idle_worker_threads(marker: str, monkeypatch: object) -> None:
    """The parent-death signal fires when the *thread* that forked a bot exits. trio's worker
    threads exit when idle; bots must be forked by arena's spawner thread, which never exits."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setattr(thread_cache, "IDLE_TIMEOUT", 0.05)
    async with open_bot_process([sys.executable, "-u", "-c", ECHO, marker]) as bot:
        await trio.to_thread.run_sync(lambda: None)  # a worker thread, idle from now on
        spawner = spawner_thread()
        assert spawner.is_alive() and spawner is not threading.current_thread()
        with open(f"/proc/self/task/{spawner.native_id}/children") as f:
            assert str(bot.pid) in f.read().split()
        await trio.sleep(0.5)  # ten idle timeouts: the worker thread is gone
        bot.resume()
        await bot.send(b"still here\n")
        with trio.fail_after(10):
            assert await bot.read_line() == b"still here"
    assert_no_leftovers(marker)


def _arena_match(marker: str, black_mode: str, white_mode: str, *extra: str) -> subprocess.Popen[bytes]:
    """``arena match`` of two hostile bots reporting on stderr (``-``): as root each bot has a user
    of its own, which may write none of the test's folders."""
    return subprocess.Popen(
        [sys.executable, "-m", "arena", "match", hostile_command(marker, "shobu", black_mode, "-"),
         hostile_command(marker, "shobu", white_mode, "-"), "--game", "shobu", "--games", "50", "--time-limit", "60000",
         "--quiet", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)


def _wait_for_escapee(marker: str, proc: subprocess.Popen[bytes], timeout: float = 30,
                      own_session: bool = True) -> None:
    """Until a game runs with its escapee out of the bot's session (``own_session``; a sandbox
    refuses setsid: then just alive) and both bots alive."""
    def running() -> bool:
        escapees = processes_matching(marker + "-escapee", (proc.pid,))
        if escapees and len(processes_matching(marker, (proc.pid,))) >= 3:
            try:
                with open(f"/proc/{escapees[0]}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                return False
            if int(fields[3]) == escapees[0] or not own_session:  # own session: it has called setsid
                return True
        if proc.poll() is not None:
            raise AssertionError(f"arena exited with {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        return False

    eventually(running, timeout, what="an escapee")


def _wait_until_gone(marker: str, exclude: tuple[int, ...], timeout: float) -> list[int]:
    """The processes of ``marker`` still alive once none is, or after ``timeout``."""
    with contextlib.suppress(AssertionError):
        eventually(lambda: not processes_matching(marker, exclude), timeout)
    return processes_matching(marker, exclude)


def _guardian_of(arena_pid: int) -> int:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            if ppid == arena_pid and b"arena.process.guardian" in cmdline:
                return int(entry)
    raise AssertionError(f"arena {arena_pid} has no guardian")


def test_nothing_survives_kill_9_of_arena(marker: str, tmp_path: Path) -> None:
    # No sandbox: its seccomp filter refuses setsid; here the escapee does leave the bot's session.
    proc = _arena_match(marker, "escapee", "ignore_signals", "--no-sandbox")
    try:
        _wait_for_escapee(marker, proc)  # two bots and an escapee at least
        guardian = _guardian_of(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        # Bot leaders die by their parent-death signal; the guardian kills the rest, then exits.
        left = _wait_until_gone(marker, (proc.pid,), timeout=10)
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{guardian}") and time.monotonic() < deadline:
            reap_adopted_zombies()
            time.sleep(0.05)
        guardian_left = os.path.exists(f"/proc/{guardian}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reap_adopted_zombies()
    assert left == []
    assert not guardian_left


async def test_the_guardian_holds_nothing_of_the_bots(marker: str) -> None:
    from arena.process.spawn import guardian_pid

    async with open_bot_process([sys.executable, "-u", "-c", ECHO, marker]):
        guardian = guardian_pid()
        assert guardian is not None
        links = {fd: os.readlink(f"/proc/{guardian}/fd/{fd}") for fd in os.listdir(f"/proc/{guardian}/fd")}
        with open(f"/proc/{guardian}/environ", "rb") as f:
            environ = f.read()
    pipes = [fd for fd, target in links.items() if target.startswith("pipe:")]
    assert pipes == ["0"], links  # only the pipe from arena that tells it arena is gone
    assert links["1"] == links["2"] == "/dev/null"
    assert b"ARENA_RUN_TOKEN" not in environ and b"ARENA_GAME_TOKEN" not in environ
    assert_no_leftovers(marker)


def test_nothing_survives_kill_9_of_arena_with_the_sandbox(marker: str, tmp_path: Path) -> None:
    from arena.process.isolation import sandbox_available

    if sandbox_available() is not None:
        import pytest

        pytest.skip(str(sandbox_available()))
    logs = tmp_path / "logs"
    proc = _arena_match(marker, "escapee", "ignore_signals", "--sandbox", "--stderr-dir", str(logs),
                        "--max-moves", "1000")
    try:
        _wait_for_escapee(marker, proc, own_session=False)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        left = _wait_until_gone(marker, (proc.pid,), timeout=10)
        deadline = time.monotonic() + 10
        scratch = list(Path(tempfile.gettempdir()).glob(f"arena-sandbox-{proc.pid}-*"))
        while scratch and time.monotonic() < deadline:
            time.sleep(0.05)
            scratch = list(Path(tempfile.gettempdir()).glob(f"arena-sandbox-{proc.pid}-*"))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reap_adopted_zombies()
    assert left == []
    assert scratch == []  # the guardian removed the scratch folders arena could not


def test_sighup_stops_arena_gracefully_and_nothing_survives(marker: str, tmp_path: Path) -> None:
    proc = _arena_match(marker, "escapee", "ignore_signals", "--no-sandbox")
    try:
        _wait_for_escapee(marker, proc)
        os.kill(proc.pid, signal.SIGHUP)
        _, err = proc.communicate(timeout=30)
        left = _wait_until_gone(marker, (proc.pid,), timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reap_adopted_zombies()
    assert proc.returncode == 129, err.decode()[-2000:]
    assert b"Traceback" not in err
    assert left == []


async def test_a_games_teardown_leaves_the_other_games_alone(marker: str) -> None:
    """Two games at once: the teardown after the short one (with an escapee out of its session) must
    not touch the long one's bots nor their children."""
    long_game = {"running": True}
    seen_alive: list[int] = []
    no_sandbox = Isolation(sandbox=False)  # the escapee may leave its session

    async def play_long() -> dict[str, object]:
        thief = AgentSpec("thief", command=hostile_command(marker + "-long", "shobu", "thief", "-"))
        slow = AgentSpec("slow", command=hostile_command(marker + "-long", "shobu", "plain", "-", {"sleep_ms": 300}))
        try:
            return await play_game(configured_game("shobu"), thief, slow, time_control=TC, max_moves=16,
                                   isolation=no_sandbox)
        finally:
            long_game["running"] = False

    async def play_short() -> dict[str, object]:
        # Polled from outside (the bots have PID namespaces of their own): the thief's children are up.
        with trio.fail_after(30):
            await eventually_async(lambda: len(processes_matching(marker + "-long-busy")) >= 2
                                   or not long_game["running"])
        assert long_game["running"], f"the long game ended first: {records.get('long')}"
        escaper = AgentSpec("escaper", command=hostile_command(marker + "-short", "shobu", "escapee", "-"))
        other = AgentSpec("other", command=hostile_command(marker + "-short", "shobu", "plain", "-"))
        record = await play_game(configured_game("shobu"), escaper, other, time_control=TC, max_moves=4,
                                 isolation=no_sandbox)
        assert long_game["running"], "the long game ended first: the test proves nothing"
        seen_alive.extend(processes_matching(marker + "-long"))
        return record

    records: dict[str, dict[str, object]] = {}
    async with trio.open_nursery() as nursery:
        async def run(name: str, fn: object) -> None:
            records[name] = await fn()  # type: ignore[operator]
        nursery.start_soon(run, "long", play_long)
        nursery.start_soon(run, "short", play_short)
    assert records["short"]["termination"] == "max_moves", records["short"]["reason"]
    assert records["long"]["termination"] == "max_moves", records["long"]["reason"]
    assert len(seen_alive) >= 4  # both long-game bots and the thief's two children, untouched
    assert_no_leftovers(marker, wait=0.0)
