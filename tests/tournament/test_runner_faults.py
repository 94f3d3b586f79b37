"""The runner around the games, with a scripted stand-in for play_game (no processes): arena's own
failures stop the run with one error, one run per folder, growth of any gamesPerPair, corrupt logs,
the isolation choices reaching every game, and the concurrency caps."""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from helpers import eventually
from tournament_support import REPO, read_jsonl

import arena.tournament.runner as runner_module
from arena.backends import local as local_backend
from arena.errors import ConfigError, ResourceError
from arena.process import isolation as isolation_module
from arena.process.isolation import Isolation
from arena.records import logstore
from arena.records.format import utc_now_iso
from arena.records.logstore import FolderLock, LogError
from arena.tournament import concurrency
from arena.tournament import logs as logs_module
from arena.tournament.config import load_config
from arena.tournament.logs import standings_from_folder
from arena.tournament.runner import RunOptions, Tournament, concurrency_plan, run_tournament
from arena.tournament.schedule import (
    RANDOM_LAYOUT_BALANCED,
    RANDOM_LAYOUT_COUPLE_ROUNDS,
    ScheduledGame,
    balanced_random_matches,
    build_schedule,
    random_matches,
)
from arena.tournament.stats_worker import restore_priority

Script = Callable[[int], Any]  # game index -> "win"/"draw", or an exception to raise


class FakeGames:
    """Stands in for play_game: each game takes a scheduler tick (or ``delay``) and ends as scripted."""

    def __init__(self, script: Script | None = None, delay: float = 0.0) -> None:
        self.script = script or (lambda index: "win")
        self.delay = delay
        self.calls: list[dict[str, Any]] = []
        self.cancelled: list[int] = []

    async def __call__(self, game: Any, black: Any, white: Any, **kw: Any) -> dict[str, Any]:
        index = kw["game_index"]
        self.calls.append({"black": black, "white": white, **kw})
        try:
            await trio.sleep(self.delay)
        except trio.Cancelled:
            self.cancelled.append(index)
            raise
        outcome = self.script(index)
        if isinstance(outcome, BaseException):
            raise outcome
        winner = "BLACK" if outcome == "win" else "NONE"
        return {"winner": winner, "termination": "win" if winner == "BLACK" else "max_moves",
                "reason": "scripted", "plies": 3, "duration_s": 0.01, "started_at": utc_now_iso(),
                "game_index": index, "players": [{"id": black.id, "colour": "BLACK"},
                                                 {"id": white.id, "colour": "WHITE"}]}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Callable[..., FakeGames]:
    def install(script: Script | None = None, delay: float = 0.0) -> FakeGames:
        games = FakeGames(script, delay)
        monkeypatch.setattr(local_backend, "play_game", games)
        # The fake replaces play_game in this process: games at once stay here, not in workers.
        monkeypatch.setattr(runner_module, "local_workers", lambda asked, concurrency: 0)
        return games
    return install


def write_config(folder: Path, name: str = "c.json", agents: int = 3, **extra: Any) -> Path:
    obj: dict[str, Any] = {"id": "f", "game": "shobu", "timeLimit": 1000, "maxMoves": 8,
                           "agents": [{"id": f"a{i}", "path": f"{sys.executable} -c pass"} for i in range(agents)]}
    obj.update(extra)
    path = folder / name
    path.write_text(json.dumps(obj))
    return path


def opts(tmp_path: Path, **kw: Any) -> RunOptions:
    # Rows kept by index: these tests name games by their place in the schedule.
    return RunOptions(logs_root=tmp_path / "logs", standings_interval_s=0.05, agent_files_interval_s=0.05,
                      **{"by_pairing": False, **kw})


def indices(folder: Path) -> list[int]:
    return sorted(r["index"] for r in read_jsonl(folder / "games.jsonl"))


# -- arena's failures are arena's ------------------------------------------------------------------


async def test_a_game_failing_for_arena_once_is_played_again_and_noted(tmp_path: Path, fake: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "ARENA_ERROR_PAUSE_S", 0.0)
    failed: list[int] = []

    def script(i: int) -> Any:
        if i == 2 and not failed:  # an arena_error the first time only: not the bots' doing
            failed.append(i)
            return ResourceError("cannot create another process (EAGAIN) while starting the BLACK bot 'a0'")
        return "win"

    fake(script)
    summary = await run_tournament(load_config(write_config(tmp_path)), opts(tmp_path))
    assert summary.complete and indices(tmp_path / "logs" / "f") == list(range(6))  # game 2 recorded once
    assert any(w.startswith("game 2: arena_error, played again: cannot create another process") for w in summary.warnings)


async def test_a_resource_error_stops_the_run_with_that_one_error(tmp_path: Path, fake: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "ARENA_ERROR_PAUSE_S", 0.0)
    games = fake(lambda i: ResourceError("cannot start bot: Too many open files (EMFILE)") if i == 3 else "win",
                 delay=0.01)
    tournament = Tournament(load_config(write_config(tmp_path, agents=4)), opts(tmp_path, concurrency=2))
    tournament.prepare()
    with pytest.raises(ResourceError, match=r"^cannot start bot: Too many open files \(EMFILE\) \(game 3 failed "
                                            r"3 times for arena's reasons, not a bot's; nothing was recorded for it\)$"):
        await tournament.play()  # the error itself, not an ExceptionGroup
    summary = await tournament.finish()
    folder = tmp_path / "logs" / "f"
    done = indices(folder)
    assert 3 not in done and len(games.cancelled) <= 1  # the other running game: dropped
    assert set(range(3)) <= set(done) | set(games.cancelled) and not set(games.cancelled) & set(done)
    assert summary.finished == len(done) and not summary.complete
    assert json.loads((folder / "standings.json").read_text())["games"] == len(done)
    # a resumed run plays the failed game and the cancelled one
    fake()
    second = await run_tournament(load_config(write_config(tmp_path, agents=4)), opts(tmp_path, concurrency=2))
    assert second.complete and indices(folder) == list(range(12))


async def test_a_bug_in_a_game_is_raised_alone(tmp_path: Path, fake: Any) -> None:
    fake(lambda i: TypeError("a bug") if i == 1 else "win")
    tournament = Tournament(load_config(write_config(tmp_path)), opts(tmp_path, concurrency=3))
    tournament.prepare()
    with pytest.raises(TypeError, match="a bug"):
        await tournament.play()
    await tournament.finish()


async def test_a_full_disk_stops_the_run_and_takes_back_the_half_written_line(
        tmp_path: Path, fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake()
    lines = [0]
    real_write = logs_module._write

    def filling(fd: int, data: bytes) -> int:
        lines[0] += 1
        if lines[0] == 3:  # half of the third line fits, then the disk is full
            real_write(fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(logs_module, "_write", filling)
    path = write_config(tmp_path)
    tournament = Tournament(load_config(path), opts(tmp_path, concurrency=1))
    tournament.prepare()
    with pytest.raises(ResourceError) as info:
        await tournament.play()
    message = str(info.value)
    assert message.startswith("cannot write ") and "games.jsonl" in message and "(ENOSPC)" in message
    assert "\n" not in message
    summary = await tournament.finish()
    folder = tmp_path / "logs" / "f"
    assert (folder / "games.jsonl").read_bytes().endswith(b"\n") and indices(folder) == [0, 1]
    assert summary.finished == 2
    monkeypatch.setattr(logs_module, "_write", real_write)
    again = await run_tournament(load_config(path), opts(tmp_path, concurrency=1))
    assert again.played_now == 4 and indices(folder) == list(range(6))


async def test_a_record_that_cannot_be_written_is_not_a_finished_game(
        tmp_path: Path, fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake()
    real = logs_module.atomic_write

    def failing(path: Path, data: bytes, **options: Any) -> None:
        if path.name == "00001.json":
            raise OSError(errno.EACCES, os.strerror(errno.EACCES))
        real(path, data, **options)

    monkeypatch.setattr(logs_module, "atomic_write", failing)
    tournament = Tournament(load_config(write_config(tmp_path)), opts(tmp_path, concurrency=1))
    tournament.prepare()
    with pytest.raises(LogError, match=r"^cannot write .*00001\.json: Permission denied \(EACCES\)$"):
        await tournament.play()
    await tournament.finish()
    folder = tmp_path / "logs" / "f"
    assert indices(folder) == [0] and not list((folder / "games").glob(".*.tmp"))


async def test_standings_that_cannot_be_written_are_a_warning(
        tmp_path: Path, fake: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    fake()
    real = logstore.atomic_write

    def failing(path: Path, data: bytes, **options: Any) -> None:
        if path.name == "standings.json":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data, **options)

    monkeypatch.setattr(logstore, "atomic_write", failing)
    summary = await run_tournament(load_config(write_config(tmp_path)), opts(tmp_path, stats_worker=False))
    assert summary.complete and summary.standings["games"] == 6
    assert any("standings.json" in w and "ENOSPC" in w for w in summary.warnings)


# -- the standings worker ------------------------------------------------------------------------


async def test_without_the_worker_arena_writes_the_files_at_finish(tmp_path: Path, fake: Any) -> None:
    fake()
    summary = await run_tournament(load_config(write_config(tmp_path)), opts(tmp_path, stats_worker=False))
    folder = tmp_path / "logs" / "f"
    standings, stats = standings_from_folder(folder)
    assert summary.standings == standings == json.loads((folder / "standings.json").read_text())
    assert json.loads((folder / "a0.json").read_text())["games"] == stats["a0"]["games"] == 4


def worker_processes(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                argv = (Path("/proc") / entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"arena.tournament.stats_worker" in argv and marker.encode() in b" ".join(argv):
                found.append(int(entry))
    return found


def start_worker(folder: Path, **init: Any) -> subprocess.Popen[bytes]:
    message = {"init": {"folder": str(folder), "id": "w", "game": "shobu", "seed": 1,
                        "agents": [["a", "executable", "x"], ["b", "executable", "y"]], "bootstrap": 5,
                        "games_bytes": 0, "low_priority": False, **init}}
    proc = subprocess.Popen([sys.executable, "-m", "arena.tournament.stats_worker", str(folder)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=REPO)
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()
    return proc


def row(index: int) -> dict[str, Any]:
    black, white = ("a", "b") if index % 2 == 0 else ("b", "a")
    return {"index": index, "pair": index // 2, "black": black, "white": white, "winner": "BLACK",
            "termination": "win"}


def wait_for(check: Callable[[], bool], what: str) -> None:
    eventually(check, what=what)


def test_the_worker_throttles_the_agent_files_and_writes_the_final_standings(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_bytes(b"")
    proc = start_worker(tmp_path, agent_files_interval_s=3600, standings_interval_s=0)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps({"row": row(0), "pending": 1}).encode() + b"\n")
    proc.stdin.flush()
    agent_file = tmp_path / "a.json"
    wait_for(agent_file.exists, "the first per-agent files")
    for index in range(1, 50):
        proc.stdin.write(json.dumps({"row": row(index), "pending": index + 1}).encode() + b"\n")
    proc.stdin.flush()

    def standings_games() -> int:
        try:
            return int(json.loads((tmp_path / "standings.json").read_text())["games"])
        except (OSError, ValueError):
            return -1

    # Once the standings cover all 50 games the worker has read every row and had its chance to
    # rewrite the per-agent files: within the hour's interval it must not have.
    wait_for(lambda: standings_games() == 50, "standings of all 50 games")
    assert json.loads(agent_file.read_text())["games"] == 1
    proc.stdin.write(b'{"finish": true}\n')
    proc.stdin.close()
    assert json.loads(proc.stdout.read()) == {"done": 50}
    assert proc.wait(timeout=120) == 0


def test_the_worker_runs_only_on_idle_cpus_until_arena_lifts_it(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_bytes(b"")
    proc = start_worker(tmp_path, low_priority=True)
    wait_for(lambda: os.sched_getscheduler(proc.pid) == os.SCHED_IDLE, "the worker's idle policy")
    # Root (CI, containers) may leave SCHED_IDLE; an ordinary user only with RLIMIT_NICE 20.
    can_lift = os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20
    assert restore_priority(proc.pid) is can_lift
    assert (os.sched_getscheduler(proc.pid) == os.SCHED_OTHER) is can_lift
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b'{"finish": true}\n')
    proc.stdin.close()
    assert json.loads(proc.stdout.read()) == {"done": 0}
    assert proc.wait(timeout=120) == 0


def test_the_worker_exits_when_arena_goes_away(tmp_path: Path) -> None:
    (tmp_path / "games.jsonl").write_bytes(b"")
    proc = start_worker(tmp_path)
    assert proc.stdin is not None
    proc.stdin.write(json.dumps({"row": row(0), "pending": 1}).encode() + b"\n")
    proc.stdin.close()  # end of input without "finish": arena died or gave up on it
    assert proc.wait(timeout=120) == 0
    assert not worker_processes(str(tmp_path))


# -- one run per folder --------------------------------------------------------------------------


async def test_a_second_run_on_the_same_folder_is_refused_naming_the_holder(tmp_path: Path, fake: Any) -> None:
    fake()
    path = write_config(tmp_path)
    first = Tournament(load_config(path), opts(tmp_path))
    first.prepare()
    second = Tournament(load_config(path), opts(tmp_path))
    with pytest.raises(LogError) as info:
        second.prepare()
    message = str(info.value)
    assert "is in use by another arena run" in message and f"process {os.getpid()}" in message
    assert "--logs" in message and "\n" not in message
    await first.play()
    await first.finish()
    third = Tournament(load_config(path), opts(tmp_path))
    third.prepare()  # released at finish
    third.finish_sync()


def test_the_lock_is_held_by_another_process(tmp_path: Path) -> None:
    folder = tmp_path / "logs" / "f"
    script = ("import sys, time; from pathlib import Path; "
              "from arena.records.logstore import FolderLock; FolderLock(Path(sys.argv[1])).acquire(); "
              "print('locked', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", script, str(folder)], stdout=subprocess.PIPE, cwd=REPO)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        with pytest.raises(LogError, match=f"process {holder.pid} holds"):
            FolderLock(folder).acquire()
    finally:
        holder.kill()
        holder.wait()
    lock = FolderLock(folder)
    lock.acquire()  # the OS dropped the dead holder's lock
    lock.release()


# -- growth, old folders, corrupt logs -----------------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [(1, 2), (3, 5), (2, 3), (1, 4)])
async def test_gamesperpair_grows_odd_or_even(tmp_path: Path, fake: Any, before: int, after: int) -> None:
    fake()
    first = await run_tournament(load_config(write_config(tmp_path, gamesPerPair=before)), opts(tmp_path))
    folder = tmp_path / "logs" / "f"
    old_rows = {r["index"]: (r["black"], r["white"]) for r in read_jsonl(folder / "games.jsonl")}
    grown = await run_tournament(load_config(write_config(tmp_path, "g.json", gamesPerPair=after)), opts(tmp_path))
    assert (first.finished, grown.already_done, grown.played_now) == (3 * before, 3 * before, 3 * (after - before))
    rows = {r["index"]: (r["black"], r["white"]) for r in read_jsonl(folder / "games.jsonl")}
    assert sorted(rows) == list(range(3 * after)) and all(rows[i] == v for i, v in old_rows.items())
    couples = [frozenset(v) for v in rows.values()]
    assert all(couples.count(c) == after for c in set(couples))


async def test_a_folder_of_the_old_layout_resumes_and_grows(tmp_path: Path, fake: Any) -> None:
    # Written before rounds: pairs at consecutive indices and no "pairBlocks" in config.json.
    fake()
    config = load_config(write_config(tmp_path, gamesPerPair=3))
    folder = tmp_path / "logs" / "f"
    (folder / "games").mkdir(parents=True)
    saved = config.to_json()
    del saved["pairBlocks"], saved["ponder"], saved["inheritEnv"]
    saved.pop("sandbox", None)  # written only when the config sets it
    (folder / "config.json").write_text(json.dumps(saved))
    old = list(build_schedule("roundRobin", config.agent_ids, games_per_pair=3, seed=config.seed, pair_blocks=1))
    assert [(g.black, g.white) for g in old[:2]] == [("a0", "a1"), ("a1", "a0")]  # the old layout
    with open(folder / "games.jsonl", "w") as handle:
        handle.writelines(json.dumps({"index": g.index, "pair": g.pair, "black": g.black, "white": g.white,
                                      "winner": "NONE", "termination": "max_moves",
                                      "record": f"games/{g.index:05d}.json"}) + "\n" for g in old[:5])
    for g in old[:5]:
        (folder / "games" / f"{g.index:05d}.json").write_text("{}\n")  # resume only checks it is there
    summary = await run_tournament(load_config(write_config(tmp_path, "g.json", gamesPerPair=4)), opts(tmp_path))
    assert (summary.already_done, summary.played_now) == (5, 7)
    assert json.loads((folder / "config.json").read_text())["pairBlocks"] == 1
    rows = read_jsonl(folder / "games.jsonl")
    couples = [frozenset((r["black"], r["white"])) for r in rows]
    assert all(couples.count(c) == 4 for c in set(couples))


def write_old_rows(folder: Path, games: list[ScheduledGame]) -> None:
    """``games`` as finished in ``folder`` (rows as the runner writes them; empty records, which
    resume only checks are there)."""
    (folder / "games").mkdir(parents=True, exist_ok=True)
    with open(folder / "games.jsonl", "w") as handle:
        handle.writelines(json.dumps({"index": g.index, "pair": g.pair, "black": g.black, "white": g.white,
                                      "winner": "NONE", "termination": "max_moves",
                                      "record": f"games/{g.index:05d}.json"}) + "\n" for g in games)
    for g in games:
        (folder / "games" / f"{g.index:05d}.json").write_text("{}\n")


def pairings(folder: Path) -> list[tuple[int, str, str]]:
    return sorted((r["index"], r["black"], r["white"]) for r in read_jsonl(folder / "games.jsonl"))


async def test_random_matches_folder_without_a_layout_resumes_its_draw(tmp_path: Path, fake: Any) -> None:
    # Written before random matches were balanced: no "randomLayout" in config.json.
    fake()
    config = load_config(write_config(tmp_path, agents=4, tournamentType="randomMatches", seed=3, matches=6))
    folder = tmp_path / "logs" / "f"
    folder.mkdir(parents=True)
    saved = config.to_json()
    del saved["randomLayout"], saved["pairBlocks"]
    (folder / "config.json").write_text(json.dumps(saved))
    old = list(random_matches(config.agent_ids, 3, 8))
    assert old[:12] != list(balanced_random_matches(config.agent_ids, 3, 6))  # the layouts differ here
    write_old_rows(folder, old[:5])
    grown = load_config(write_config(tmp_path, "g.json", agents=4, tournamentType="randomMatches", seed=3, matches=8))
    summary = await run_tournament(grown, opts(tmp_path))
    assert (summary.already_done, summary.played_now) == (5, 11)
    assert pairings(folder) == [(g.index, g.black, g.white) for g in old]
    assert json.loads((folder / "config.json").read_text())["randomLayout"] == RANDOM_LAYOUT_COUPLE_ROUNDS
    summary = await run_tournament(load_config(write_config(tmp_path, "h.json", agents=4, tournamentType="randomMatches",
                                                            seed=3, matches=9)), opts(tmp_path))
    assert pairings(folder) == [(g.index, g.black, g.white) for g in random_matches(config.agent_ids, 3, 9)]


async def test_a_new_random_matches_folder_is_balanced_and_stays_so(tmp_path: Path, fake: Any) -> None:
    fake()
    agents = ["a0", "a1", "a2", "a3"]
    await run_tournament(load_config(write_config(tmp_path, agents=4, tournamentType="randomMatches", seed=3,
                                                  matches=3)), opts(tmp_path))
    folder = tmp_path / "logs" / "f"
    assert json.loads((folder / "config.json").read_text())["randomLayout"] == RANDOM_LAYOUT_BALANCED
    await run_tournament(load_config(write_config(tmp_path, "g.json", agents=4, tournamentType="randomMatches",
                                                  seed=3, matches=7)), opts(tmp_path))
    assert pairings(folder) == [(g.index, g.black, g.white) for g in balanced_random_matches(agents, 3, 7)]


@pytest.mark.parametrize("line", [
    b"null", b"5", b"[]", b'"x"', b'{"index": 0}', b'{"index": -1, "black": "a0", "white": "a1", "winner": "NONE"}',
    b'{"index": true, "black": "a0", "white": "a1", "winner": "NONE"}',
    b'{"index": 1.5, "black": "a0", "white": "a1", "winner": "NONE"}',
    b'{"index": 0, "black": 7, "white": "a1", "winner": "NONE"}',
    b'{"index": 0, "players": [5], "winner": "NONE"}',
    b'{"index": 99999999999999999999, "black": "a0", "white": "a1", "winner": "NONE"}',
])
def test_corrupt_log_lines_name_the_file_and_line(tmp_path: Path, fake: Any, line: bytes) -> None:
    folder = tmp_path / "logs" / "f"
    folder.mkdir(parents=True)
    good = b'{"index": 1, "black": "a1", "white": "a0", "winner": "NONE"}\n'
    (folder / "games.jsonl").write_bytes(good + line + b"\n")
    with pytest.raises(LogError) as info:
        Tournament(load_config(write_config(tmp_path)), opts(tmp_path)).prepare()
    message = str(info.value)
    assert message.startswith(f"{folder / 'games.jsonl'}:2: not a valid game line") and "\n" not in message
    with pytest.raises(LogError, match=":2: not a valid game line"):
        standings_from_folder(folder)
    FolderLock(folder).acquire()  # a failed prepare released the lock


def test_an_index_far_beyond_the_games_listed_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "logs" / "f"
    folder.mkdir(parents=True)
    # checked before the endless schedule is walked that far
    (folder / "games.jsonl").write_text(json.dumps({"index": 10**12, "black": "a0", "white": "a1",
                                                    "winner": "NONE"}) + "\n")
    with pytest.raises(LogError, match="far beyond"):
        Tournament(load_config(write_config(tmp_path, tournamentType="randomMatches", seed=1)),
                   opts(tmp_path)).prepare()


# -- isolation reaches every game ----------------------------------------------------------------


async def test_isolation_and_env_reach_play_game(tmp_path: Path, fake: Any) -> None:
    games = fake()
    path = write_config(tmp_path, ponder=True, inheritEnv=True, agents=2)
    obj = json.loads(path.read_text())
    obj["agents"][1]["env"] = {"DEPTH": "4", "A_B": ""}
    path.write_text(json.dumps(obj))
    await run_tournament(load_config(path), opts(tmp_path))
    assert games.calls and all(c["isolation"] == Isolation(ponder=True, inherit_env=True) for c in games.calls)
    by_id = {c["black"].id: c["black"] for c in games.calls} | {c["white"].id: c["white"] for c in games.calls}
    assert by_id["a0"].env == () and by_id["a1"].env == (("A_B", ""), ("DEPTH", "4"))
    saved = json.loads((tmp_path / "logs" / "f" / "config.json").read_text())
    assert saved["ponder"] is True and saved["agents"][1]["env"] == {"A_B": "", "DEPTH": "4"}


async def test_run_options_override_the_config_and_ponder_is_identity(tmp_path: Path, fake: Any) -> None:
    games = fake()
    path = write_config(tmp_path)
    await run_tournament(load_config(path), opts(tmp_path, inherit_env=True, concurrency=1))
    assert all(c["isolation"] == Isolation(inherit_env=True) for c in games.calls)
    with pytest.raises(ConfigError, match="ponder was false, now true"):
        Tournament(load_config(path), opts(tmp_path, ponder=True)).prepare()
    # sandbox and inheritEnv are how to run, not what is played: they may change on resume
    grown = write_config(tmp_path, "g.json", gamesPerPair=3)
    summary = await run_tournament(load_config(grown), opts(tmp_path, inherit_env=False))
    assert summary.played_now == 3


async def test_a_folder_written_before_ponder_existed_resumes(tmp_path: Path, fake: Any) -> None:
    fake()
    path = write_config(tmp_path)
    await run_tournament(load_config(path), opts(tmp_path))
    saved_path = tmp_path / "logs" / "f" / "config.json"
    saved = json.loads(saved_path.read_text())
    del saved["ponder"]
    saved_path.write_text(json.dumps(saved))
    summary = await run_tournament(load_config(write_config(tmp_path, "p.json", ponder=True, gamesPerPair=3)),
                                   opts(tmp_path))
    assert summary.played_now == 3


def test_an_unavailable_sandbox_is_a_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation_module, "sandbox_available", lambda: "bubblewrap is not installed")
    with pytest.raises(ConfigError, match=r"^sandbox: bubblewrap is not installed$"):
        load_config(write_config(tmp_path, sandbox=True))
    with pytest.raises(ConfigError, match=r"^sandbox: bubblewrap is not installed$"):
        Tournament(load_config(write_config(tmp_path)), opts(tmp_path, sandbox=True)).prepare()
    assert not (tmp_path / "logs" / "f").exists()


# -- bounds --------------------------------------------------------------------------------------


def test_concurrency_is_capped_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(write_config(tmp_path))
    plan = concurrency_plan(config, 10**8)
    assert plan.value == concurrency.MAX_CONCURRENCY and "capped at 256" in (plan.note or "")
    assert concurrency_plan(config, 3) == concurrency.ConcurrencyPlan(3, None)
    assert concurrency_plan(config, 30, games_left=4).value == 4  # nothing lost: no note
    limit = {"soft": 150, "hard": 150}
    monkeypatch.setattr(concurrency.resource, "getrlimit", lambda _: (limit["soft"], limit["hard"]))
    monkeypatch.setattr(concurrency.resource, "setrlimit", lambda _, v: limit.update(soft=v[0]))
    plan = concurrency_plan(config, 30)
    expected = (150 - concurrency.FD_RESERVE) // concurrency.FDS_PER_GAME
    assert plan.value == expected and "open-file limit (ulimit -n) is 150" in (plan.note or "")
    limit.update(soft=150, hard=100_000)  # a soft limit is raised as far as needed, then no cap
    assert concurrency_plan(config, 30) == concurrency.ConcurrencyPlan(30, None)
    assert limit["soft"] == concurrency.FD_RESERVE + 30 * concurrency.FDS_PER_GAME
    human = load_config(write_config(tmp_path, "h.json", agents=2))
    object.__setattr__(human.agents[0], "type", "player")
    assert concurrency_plan(human, 4).value == 1


@pytest.mark.parametrize("limit", [150, 45])
def test_a_low_open_file_limit_caps_concurrency_instead_of_failing_games(tmp_path: Path, bot_file: Path,
                                                                       limit: int) -> None:
    # At 45 not even one game's descriptors are sure: teardown must still kill what it cannot list
    # (cgroup.kill unwritable once descriptors ran out once left the run standing still).
    # `ulimit -n 150` and concurrency 30 once turned games into "crash" records; now the run plays
    # fewer games at once and every game is a real one.
    obj = {"id": "nofile", "game": "shobu", "maxMoves": 4, "timeLimit": 20000, "gamesPerPair": 2,
           "agents": [{"id": f"b{i}", "path": f"{sys.executable} {bot_file}"} for i in range(6)]}
    path = tmp_path / "n.json"
    path.write_text(json.dumps(obj))
    script = (f"import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, {limit})); "
              "from arena.__main__ import main; sys.argv = ['arena'] + sys.argv[1:]; main()")
    done = subprocess.run([sys.executable, "-c", script, "run", str(path), "--logs", str(tmp_path / "logs"),
                           "--concurrency", "30"], cwd=REPO, capture_output=True, check=False, timeout=800)  # a hang backstop: 30 games took over 240 s at load 16
    assert done.returncode == 0, done.stderr.decode()
    rows = read_jsonl(tmp_path / "logs" / "nofile" / "games.jsonl")
    assert len(rows) == 30
    if limit == 150:  # room for every game: each is a real one
        assert {r["termination"] for r in rows} == {"max_moves"}
