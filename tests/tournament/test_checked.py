"""``games.checked.json`` (arena.tournament.checked): a resume reads only the lines written since
the last check, and arrives where a check of every row arrives; anything that does not fit (a hand
edit, a bad line, a lost record, another config, a broken file) gives the check of every row, with
the same one-line error."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.lowlevel
from helpers import eventually_async
from tournament_support import StopAfter

from arena.backends import local as local_backend
from arena.records.format import utc_now_iso
from arena.records.logstore import LogError
from arena.stats.ratings import GameResult
from arena.stats.results import RankedResult
from arena.tournament import checked as checked_module
from arena.tournament.checked import CHECKED_FILE, Checked
from arena.tournament.config import load_config
from arena.tournament.field import Field, PlayOrder, field_games, game_key, mark
from arena.tournament.logs import LegacyEloStats
from arena.tournament.runner import RunOptions, Tournament, run_tournament
from arena.tournament.tables import TableTally


async def fake_game(game: Any, black: Any, white: Any, **kw: Any) -> dict[str, Any]:
    """Stands in for play_game: the result follows the game's index (wins, losses and draws)."""
    await trio.lowlevel.checkpoint()
    winner = ("BLACK", "WHITE", "NONE")[kw["game_index"] % 3]
    return {"winner": winner, "termination": "draw" if winner == "NONE" else "win", "reason": "scripted",
            "plies": 3, "duration_s": 0.01, "started_at": utc_now_iso(), "game_index": kw["game_index"],
            "seed": kw.get("seed"), "players": [{"id": black.id, "colour": "BLACK"}, {"id": white.id, "colour": "WHITE"}]}


@pytest.fixture(autouse=True)
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_backend, "play_game", fake_game)


def write_config(folder: Path, **extra: Any) -> Path:
    obj = {"id": "c", "game": "shobu", "timeLimit": 1000, "maxMoves": 8, "gamesPerPair": 4,
           "agents": [{"id": f"a{i}", "path": f"{sys.executable} -c pass"} for i in range(4)], **extra}
    path = folder / "c.json"
    path.write_text(json.dumps(obj))
    return path  # a round robin kept by pairing: 24 games


def opts(tmp_path: Path) -> RunOptions:
    return RunOptions(logs_root=tmp_path / "logs", stats_worker=False, concurrency=2)


def run_some(config: Path, tmp_path: Path, count: int) -> None:
    """Play ``count`` more games, then stop as Ctrl-C does (the run finishes: its files are written)."""
    async def main() -> None:
        reporter = StopAfter(count)
        tournament = Tournament(load_config(config), opts(tmp_path), reporter)
        tournament.prepare()
        with reporter.scope:
            await tournament.play()
        await tournament.finish(interrupted=True)

    trio.run(main)


def checked_of(config: Path, tmp_path: Path) -> Checked:
    """What a resume of the folder works out before its first game (then it lets go of the folder)."""
    tournament = Tournament(load_config(config), opts(tmp_path))
    tournament.prepare()
    try:
        assert tournament._checked is not None
        return tournament._checked
    finally:
        tournament._close_backend()
        tournament._log.close()
        tournament._lock.release()


def same(a: Checked, b: Checked) -> None:
    assert (a.size, a.digest.hexdigest(), a.context) == (b.size, b.digest.hexdigest(), b.context)
    assert (a.taken, a.done, a.nodes) == (b.taken, b.done, b.nodes)
    # The same tally, whatever of it is folded yet (it folds in index order either way).
    assert a.tally.snapshot(a.first_free()) == b.tally.snapshot(b.first_free())
    assert a.tally.snapshot(None) == b.tally.snapshot(None)
    assert a.tally.state() == b.tally.state()


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """``(rows, listed)`` of every row check of a resume: rows read, and rows known from the file."""
    calls: list[tuple[int, int]] = []
    real = checked_module.check_pairing_rows

    def check(folder: Path, root: Path, rows: list[dict[str, Any]], *args: Any, listed: Any = ()) -> None:
        calls.append((len(rows), len(listed)))
        real(folder, root, rows, *args, listed=listed)

    monkeypatch.setattr(checked_module, "check_pairing_rows", check)
    return calls


def test_a_resume_reads_only_the_lines_written_since_and_ends_as_an_uninterrupted_run(
        tmp_path: Path, spy: list[tuple[int, int]]) -> None:
    config = write_config(tmp_path)
    run_some(config, tmp_path, 5)
    folder = tmp_path / "logs" / "c"
    saved = json.loads((folder / CHECKED_FILE).read_text())
    done = len((folder / "games.jsonl").read_bytes().splitlines())
    assert saved["bytes"] == (folder / "games.jsonl").stat().st_size and done >= 5
    assert saved["records"] is not None  # every record file was found at the end: games/ is stamped
    spy.clear()
    trio.run(run_tournament, load_config(config), opts(tmp_path))
    assert spy == [(0, 0)]  # no line read, and the records folder is as it was stamped
    reference = tmp_path / "reference"
    reference.mkdir()
    trio.run(run_tournament, load_config(write_config(reference)), opts(reference))
    for name in ("standings.json", *(f"a{i}.json" for i in range(4))):
        assert json.loads((folder / name).read_text()) == json.loads((reference / "logs" / "c" / name).read_text())


def test_lines_written_after_it_are_checked_and_give_what_a_full_check_gives(
        tmp_path: Path, spy: list[tuple[int, int]]) -> None:
    config = write_config(tmp_path)
    run_some(config, tmp_path, 4)
    folder = tmp_path / "logs" / "c"
    shutil.copy(folder / CHECKED_FILE, tmp_path / "old")
    lines = len((folder / "games.jsonl").read_bytes().splitlines())
    run_some(config, tmp_path, 6)
    shutil.copy(tmp_path / "old", folder / CHECKED_FILE)  # as if that run was killed with kill -9
    spy.clear()
    fast = checked_of(config, tmp_path)
    new = len((folder / "games.jsonl").read_bytes().splitlines()) - lines
    assert spy == [(new, lines)] and new >= 6
    assert json.loads((folder / CHECKED_FILE).read_text())["bytes"] == fast.size  # written again at once
    (folder / CHECKED_FILE).unlink()
    spy.clear()
    full = checked_of(config, tmp_path)
    assert spy == [(lines + new, 0)]
    same(fast, full)
    assert len(full.taken) == full.kept == lines + new and full.history == 0


def _edit_line(folder: Path, number: int, **change: Any) -> None:
    path = folder / "games.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[number] = json.dumps({**json.loads(lines[number]), **change}) + "\n"
    path.write_text("".join(lines))


def _append(folder: Path, text: str) -> None:
    with open(folder / "games.jsonl", "a") as handle:
        handle.write(text)


def _first(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "games.jsonl").read_text().splitlines()[0])


TAMPERING = {
    "a hand edit of a checked line": lambda f: _edit_line(f, 1, result="1/2-1/2", winner="BLACK"),
    "a line that is not JSON after them": lambda f: _append(f, "{not json\n"),
    "a checked game's index again": lambda f: _append(f, json.dumps({**_first(f), "reason": "again"}) + "\n"),
    "a checked game again under a new number": lambda f: _append(f, json.dumps({**_first(f), "index": 99}) + "\n"),
    "a checked game's record file removed": lambda f: (f / "games" / "00002.json").unlink(),
}


@pytest.mark.parametrize("tamper", TAMPERING.values(), ids=TAMPERING.keys())
def test_a_folder_tampered_with_gives_the_same_one_line_error_as_without_the_file(tmp_path: Path, tamper: Any) -> None:
    config = write_config(tmp_path)
    run_some(config, tmp_path, 6)
    folder = tmp_path / "logs" / "c"
    tamper(folder)
    before = (folder / "games.jsonl").read_bytes()
    assert (folder / CHECKED_FILE).exists()
    errors = []
    for _ in range(2):
        with pytest.raises(LogError) as info:
            checked_of(config, tmp_path)
        errors.append(str(info.value))
        assert (folder / "games.jsonl").read_bytes() == before  # nothing changed, nothing played
        (folder / CHECKED_FILE).unlink(missing_ok=True)  # the second time: without it
    assert errors[0] == errors[1] and "\n" not in errors[0] and str(folder / "games.jsonl") in errors[0]


def _break_json(folder: Path) -> None:
    (folder / CHECKED_FILE).write_text("{")


def _change(**change: Any) -> Any:
    def edit(folder: Path) -> None:
        saved = json.loads((folder / CHECKED_FILE).read_text())
        (folder / CHECKED_FILE).write_text(json.dumps({**saved, **change}))
    return edit


def _cut_games(folder: Path) -> None:
    lines = (folder / "games.jsonl").read_text().splitlines(keepends=True)
    (folder / "games.jsonl").write_text("".join(lines[:-1]))


UNUSABLE = {
    "not JSON": _break_json,
    "another config": _change(context="0" * 64),
    "another hash": _change(sha256="0" * 64),
    "more bytes than games.jsonl": _cut_games,
    "a tally of others": _change(tally={"counts": {}, "folded": {}, "folded_below": 0, "tail": []}),
    "ranges that are not": _change(taken=[[3, 1]]),
    "a bitmap of another field": _change(done="AAAAAA"),
    "a hand edit (no game done)": _change(done="AAAA"),
}


@pytest.mark.parametrize("spoil", UNUSABLE.values(), ids=UNUSABLE.keys())
def test_a_file_that_does_not_fit_is_not_used_and_is_written_again(
        tmp_path: Path, spoil: Any, spy: list[tuple[int, int]]) -> None:
    config = write_config(tmp_path)
    run_some(config, tmp_path, 6)
    folder = tmp_path / "logs" / "c"
    spoil(folder)
    spy.clear()
    used = checked_of(config, tmp_path)
    lines = len((folder / "games.jsonl").read_bytes().splitlines())
    assert spy == [(lines, 0)]  # every row checked
    assert json.loads((folder / CHECKED_FILE).read_text())["bytes"] == (folder / "games.jsonl").stat().st_size
    spy.clear()
    same(checked_of(config, tmp_path), used)
    assert spy == [(0, lines)]


def test_another_config_is_a_check_of_every_row(tmp_path: Path, spy: list[tuple[int, int]]) -> None:
    config = write_config(tmp_path)
    run_some(config, tmp_path, 6)
    grown = write_config(tmp_path, gamesPerPair=6)  # a field change: what counts and what is left differ
    spy.clear()
    checked = checked_of(grown, tmp_path)
    assert spy == [(len(checked.taken), 0)] and checked.kept == len(checked.taken)


# -- the pieces ---------------------------------------------------------------------------------------


def test_play_order_places_every_game_of_the_field_and_lists_the_missing_in_order() -> None:
    for field in (Field("roundRobin", ("a", "b", "c", "d"), games_per_pair=3),
                  Field("gauntlet", ("h", "x", "y", "z"), games_per_pair=4, players=3)):
        order = PlayOrder(field)
        games = list(field_games(field))
        assert [order.place(game_key(g)) for g in games] == list(range(len(games))) == list(range(len(order)))
        done = order.empty()
        assert list(order.missing(done)) == games
        for place in (0, 3, len(games) - 1):
            mark(done, place)
        assert list(order.missing(done)) == [g for p, g in enumerate(games) if p not in (0, 3, len(games) - 1)]
        assert order.place((("a", "zz"), 0)) is None and order.place((games[0].seats if hasattr(games[0], "seats")
                                                                       else (games[0].black, games[0].white), 99)) is None


def test_the_two_player_tally_comes_back_from_its_state_to_the_bit() -> None:
    agents = ["a", "b", "c"]
    tally = LegacyEloStats(agents)
    games = [GameResult(i, agents[i % 3], agents[(i + 1) % 3], (1.0, 0.5, 0.0)[i % 3], "win", i // 2) for i in range(30)]
    for game in games[:20]:
        tally.add(game)
    tally.snapshot(12)  # folds the games below 12
    back = LegacyEloStats.from_state(agents, json.loads(json.dumps(tally.state())))
    for game in games[20:]:
        tally.add(game)
        back.add(game)
    assert back.snapshot(None) == tally.snapshot(None) and back.state() == tally.state()
    for bad in ({}, {**tally.state(), "folded_below": "0"}, {**tally.state(), "tail": [[0, "a", "b", 2.0, "win", None]]}):
        with pytest.raises(ValueError):
            LegacyEloStats.from_state(agents, bad)
    with pytest.raises(ValueError):
        LegacyEloStats.from_state(["a", "b"], tally.state())


def test_the_placings_tally_comes_back_from_its_state() -> None:
    agents = ["a", "b", "c", "d"]
    tally = TableTally(agents)
    for i in range(5):
        tally.add(RankedResult(i, ("a", "b", "c") if i % 2 else ("d", "c", "b"), (1, 2, 2)))
    back = TableTally.from_state(agents, json.loads(json.dumps(tally.state())))
    assert back.snapshot() == tally.snapshot()
    with pytest.raises(ValueError):
        TableTally.from_state(agents, {"counts": {}, "rank_sum": {}})


def test_the_standings_worker_keeps_it_up_to_date_for_a_run_killed_with_kill_9(
        tmp_path: Path, spy: list[tuple[int, int]]) -> None:
    config = write_config(tmp_path)
    folder = tmp_path / "logs" / "c"

    def covered() -> int:
        return int(json.loads((folder / CHECKED_FILE).read_text())["bytes"])

    async def main() -> None:
        reporter = StopAfter(8)
        options = RunOptions(logs_root=tmp_path / "logs", concurrency=2, standings_interval_s=0.01)
        tournament = Tournament(load_config(config), options, reporter)
        tournament.prepare()
        assert covered() == 0  # written after the check of an empty folder
        with reporter.scope:
            await tournament.play()
        with trio.fail_after(60):  # a backstop: the worker writes within its interval
            await eventually_async(covered)
        assert tournament._worker is not None
        tournament._worker.kill()  # as kill -9 leaves the folder: nothing written at the end
        tournament._worker.reap()
        tournament._close_backend()
        tournament._log.close()
        tournament._lock.release()

    trio.run(main)
    lines = len((folder / "games.jsonl").read_bytes().splitlines())
    prefix = (folder / "games.jsonl").read_bytes()[:covered()].count(b"\n")
    spy.clear()
    fast = checked_of(config, tmp_path)
    assert spy == [(lines - prefix, prefix)] and prefix > 0
    (folder / CHECKED_FILE).unlink()
    same(fast, checked_of(config, tmp_path))
