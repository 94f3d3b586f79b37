"""The local backend's worker processes (arena.backends.pool): games spread over the workers give
the same records as in arena's own process; a killed worker costs only its game (an arena_error)
and the run goes on; Ctrl-C leaves no worker and no bot alive."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
from tournament_support import bot_command, read_jsonl, shobu_config

from arena.backends import GameJob
from arena.backends.local import LocalBackend
from arena.backends.pool import WorkerPool
from arena.backends.wire import EventUnpickler
from arena.errors import ResourceError
from arena.games.base import GameError
from arena.match.clock import TimeControl
from arena.match.progress import GameEnded, GameStarted, StepPlayed, runs_anywhere
from arena.players.spec import AgentSpec
from arena.referee.registration import forget_referees, register_referee
from arena.tournament import runner
from arena.tournament.concurrency import local_workers
from arena.tournament.config import load_config
from arena.tournament.live import LiveTrace, live_name
from arena.tournament.runner import RunOptions, SilentReporter, Tournament
from tests.helpers import eventually

REPO = Path(__file__).resolve().parents[2]


def job(bot_file: Path, index: int, *args: str) -> GameJob:
    agents = tuple(AgentSpec(id=f"b{i}", command=bot_command(bot_file, "--seed", str(i), *args)) for i in range(2))
    return GameJob(game="shobu", agents=agents, time_control=TimeControl(time_limit_ms=20000), max_moves=8,
                   seed=index, game_index=index)


def play_tournament(tmp_path: Path, bot_file: Path, backend: LocalBackend, name: str,
                    reporter: SilentReporter | None = None) -> tuple[Tournament, list[dict[str, Any]]]:
    """Six Shobu games, two at once, on ``backend``: the run and its rows."""
    config = load_config(str(shobu_config(tmp_path, bot_file, id=name, agents=3, gamesPerPair=2)))
    tournament = Tournament(config, RunOptions(logs_root=tmp_path, concurrency=2, backend=backend),
                            reporter or SilentReporter())
    tournament.prepare()

    async def main() -> None:
        await tournament.play()
        await tournament.finish()

    trio.run(main)
    return tournament, read_jsonl(tmp_path / name / "games.jsonl")


def test_workers_follow_concurrency() -> None:
    assert local_workers(None, 1) == 0 and local_workers(4, 1) == 0  # one game: arena's own process
    assert local_workers(1, 8) == 1 and local_workers(16, 3) == 3
    assert 1 <= local_workers(None, 2) <= 2


def test_games_spread_over_workers_give_the_same_records(tmp_path: Path, bot_file: Path) -> None:
    workers = LocalBackend(2)
    pools: list[WorkerPool] = []
    play = workers.play

    async def watching(*args: Any, **kwargs: Any) -> dict[str, Any]:
        record = await play(*args, **kwargs)
        if workers._pool is not None and workers._pool not in pools:
            pools.append(workers._pool)
        return record

    workers.play = watching  # type: ignore[method-assign]
    spread = play_tournament(tmp_path, bot_file, workers, "spread")[1]
    alone = play_tournament(tmp_path, bot_file, LocalBackend(0), "alone")[1]
    assert len(spread) == len(alone) == 6
    assert len(pools) == 1 and len(pools[0].workers) == 0  # closed by the run's end
    key = ("index", "black", "white", "winner", "termination", "plies")
    assert sorted(tuple(r[k] for k in key) for r in spread) == sorted(tuple(r[k] for k in key) for r in alone)
    for row in alone:  # every move the same, as in arena's own process
        mine = json.loads((tmp_path / "spread" / row["record"]).read_text())
        theirs = json.loads((tmp_path / "alone" / row["record"]).read_text())
        assert [t["notation"] for t in mine["turns"]] == [t["notation"] for t in theirs["turns"]]


def test_a_worker_plays_several_games_and_forwards_their_events(bot_file: Path) -> None:
    pool = WorkerPool(1)
    seen: dict[int, list[Any]] = {0: [], 1: []}

    async def main() -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = [{}, {}]

        async def one(index: int) -> None:
            records[index] = await pool.play(job(bot_file, index), observer=seen[index].append)

        async with trio.open_nursery() as nursery:
            for index in (0, 1):
                nursery.start_soon(one, index)
        assert len(pool.workers) == 1  # one worker, both games
        return records

    try:
        records = trio.run(main)
    finally:
        pool.close()
    for index, record in enumerate(records):
        events = seen[index]
        assert isinstance(events[0], GameStarted) and isinstance(events[-1], GameEnded)
        steps = [e for e in events if isinstance(e, StepPlayed)]
        assert [e.notation for e in steps] == [t["notation"] for t in record["turns"]]
        assert events[-1].record == record and events[-1].game_index == index


def test_a_killed_worker_loses_only_its_game(bot_file: Path) -> None:
    pool = WorkerPool(2)

    async def main() -> tuple[str, dict[str, Any]]:
        started = trio.Event()

        def kill_on_first_move(event: Any) -> None:
            if isinstance(event, StepPlayed) and not started.is_set():
                started.set()
                os.kill(pool.workers[0].pid, signal.SIGKILL)

        try:
            await pool.play(job(bot_file, 0, "--sleep-ms", "30"), observer=kill_on_first_move)
        except ResourceError as exc:
            failed = str(exc)
        else:
            raise AssertionError("the game of a killed worker has a record")
        return failed, await pool.play(job(bot_file, 1))  # a fresh worker plays on

    try:
        failed, record = trio.run(main)
    finally:
        pool.close()
    assert "was killed by signal 9" in failed and record["termination"] in ("max_moves", "win")


def test_a_killed_worker_is_an_arena_error_and_the_run_goes_on(tmp_path: Path, bot_file: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "ARENA_ERROR_PAUSE_S", 0.0)
    backend = LocalBackend(2)

    class KillOnce(SilentReporter):
        killed = False

        def game_started(self, game: Any) -> None:
            pool = backend._pool
            if not self.killed and pool is not None and pool.workers:
                self.killed = True
                os.kill(pool.workers[0].pid, signal.SIGKILL)

    tournament, rows = play_tournament(tmp_path, bot_file, backend, "k", KillOnce())
    assert len(rows) == 6  # every game, the lost one played again
    assert any("arena_error, played again" in e and "worker process" in e for e in tournament.arena_errors)


def descendants(root: int) -> set[int]:
    """Every live process below ``root`` (by the parent pids in /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def running(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except OSError:
        return False


def test_ctrl_c_ends_every_worker_and_bot(tmp_path: Path, bot_file: Path) -> None:
    obj = {"id": "c", "game": "shobu", "timeLimit": 60000, "maxMoves": 40,
           "agents": [{"id": f"s{i}", "path": bot_command(bot_file, "--sleep-ms", "200")} for i in range(3)]}
    (tmp_path / "c.json").write_text(json.dumps(obj))
    proc = subprocess.Popen([sys.executable, "-m", "arena", "run", str(tmp_path / "c.json"), "--logs", str(tmp_path),
                             "-j", "2", "--workers", "2"], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Two workers, each with a game's two bots (python children of the worker).
    def workers_and_bots() -> set[int] | None:
        below = descendants(proc.pid)
        cmdlines = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in below if running(pid)}
        workers = [pid for pid, c in cmdlines.items() if b"arena.backends.worker" in c]
        bots = [pid for pid, c in cmdlines.items() if str(bot_file).encode() in c]
        return below if len(workers) == 2 and len(bots) >= 4 else None

    started = eventually(workers_and_bots, what="two workers, each playing a game")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err
    eventually(lambda: not any(running(pid) for pid in started), timeout=15, what="no worker nor bot left")


def test_a_referee_game_in_a_worker_reaches_the_driver_as_the_drivers_game() -> None:
    """An external referee's game cannot cross a pipe (it holds the referee's process): it is sent
    as its command, players and parameters, and the driver's observer gets every event of the game,
    with the game the driver registered for that command."""
    nim = REPO / "examples" / "referees"
    argv = (sys.executable, str(nim / "nim.py"))
    driver_game = register_referee(argv).table(3, {})
    agents = tuple(AgentSpec(id=f"r{i}", command=f"{sys.executable} {nim / 'nim_random.py'}") for i in range(3))
    nim_job = GameJob(game=driver_game.name, agents=agents, time_control=TimeControl(time_limit_ms=20000),
                      players=3, seed=4, game_index=0, rules=argv)
    pool = WorkerPool(1)
    events: list[Any] = []
    try:
        record = trio.run(lambda: pool.play(nim_job, observer=events.append))
    finally:
        pool.close()
        forget_referees()  # the registry is this test process's: the next test must not see Nim
    assert isinstance(events[0], GameStarted) and isinstance(events[-1], GameEnded)
    assert type(events[0].game) is type(driver_game) and events[0].game.players == 3
    steps = [e for e in events if isinstance(e, StepPlayed)]
    assert steps and len(steps) == len(record["steps"])
    assert events[-1].record == record


def test_a_live_trace_is_written_by_the_worker_and_no_event_crosses_the_pipe(tmp_path: Path, bot_file: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The tournament's live trace runs anywhere: it goes to the worker with the game, which writes
    every step to the trace's file itself; the driver unpickles no event."""
    unpickled: list[Any] = []
    loads = EventUnpickler.loads
    monkeypatch.setattr(EventUnpickler, "loads", lambda self, *a: unpickled.append(a) or loads(self, *a))
    live = LiveTrace(tmp_path / "run", tmp_path)
    trace = live.start(0, ["b0", "b1"])
    assert trace is not None and runs_anywhere(trace)
    pool = WorkerPool(1)
    try:
        record = trio.run(lambda: pool.play(job(bot_file, 0), observer=trace))
    finally:
        pool.close()
    lines = [json.loads(line) for line in (tmp_path / "run" / "live" / live_name(0)).read_text().splitlines()]
    live.end(0, trace)
    assert lines[0]["index"] == 0 and lines[0]["players"] == ["b0", "b1"]
    assert [line["move"] for line in lines[1:]] == [t["notation"] for t in record["turns"]]
    assert unpickled == []
    assert not (tmp_path / "run" / "live" / live_name(0)).exists()


def test_an_arena_error_in_a_worker_is_raised_by_the_driver_as_its_own_class(bot_file: Path) -> None:
    """A user's error met in the worker (here a game the worker does not know, as a plugin that does
    not load there) reaches the run as that error, printed in one line, not as a RuntimeError."""
    unknown = dataclasses.replace(job(bot_file, 0), game="no_such_game")
    pool = WorkerPool(1)
    try:
        with pytest.raises(GameError, match="no_such_game"):
            trio.run(lambda: pool.play(unknown))
    finally:
        pool.close()


def test_a_finished_run_holds_no_descriptor_of_its_live_folder(tmp_path: Path, bot_file: Path) -> None:
    """The live trace's folder is held open while the run plays, and let go at its end: a process
    that runs many tournaments (the evolutionary bootstrap) keeps no descriptor per tournament."""
    tournament, rows = play_tournament(tmp_path, bot_file, LocalBackend(0), "held")
    assert len(rows) == 6
    assert tournament._live._fd is None
    live = str(tmp_path / "held" / "live")
    held = [fd for fd in os.listdir("/proc/self/fd") if os.path.realpath(f"/proc/self/fd/{fd}") == live]
    assert held == []
