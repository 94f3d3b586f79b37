"""A tournament's log folder tampered with (issue 18, item 8): links planted anywhere below the logs
root are refused, never written or read through; a resumed run refuses rows that are not the games
the schedule puts there; records and rows are synced to the disk."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.lowlevel
from tournament_support import REPO, TEST_BOT, bot_command, read_jsonl

from arena.backends import local as local_backend
from arena.records.format import utc_now_iso
from arena.records.logstore import LogError
from arena.tournament.config import load_config
from arena.tournament.runner import RunOptions, Tournament, run_tournament
from arena.tournament.schedule import build_schedule


async def fake_game(game: Any, black: Any, white: Any, **kw: Any) -> dict[str, Any]:
    """Stands in for play_game: black wins at once."""
    await trio.lowlevel.checkpoint()
    return {"winner": "BLACK", "termination": "win", "reason": "scripted", "plies": 3, "duration_s": 0.01,
            "started_at": utc_now_iso(), "game_index": kw["game_index"], "seed": kw.get("seed"),
            "players": [{"id": black.id, "colour": "BLACK"}, {"id": white.id, "colour": "WHITE"}]}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_backend, "play_game", fake_game)


def write_config(folder: Path, **extra: Any) -> Path:
    obj: dict[str, Any] = {"id": "f", "game": "shobu", "timeLimit": 1000, "maxMoves": 8, "gamesPerPair": 2,
                           "agents": [{"id": f"a{i}", "path": f"{sys.executable} -c pass"} for i in range(3)],
                           **extra}
    path = folder / "c.json"
    path.write_text(json.dumps(obj))
    return path


def opts(tmp_path: Path) -> RunOptions:
    return RunOptions(logs_root=tmp_path / "logs", stats_worker=False, by_pairing=False)  # rows kept by index


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120, check=False)


# -- resume refuses rows that are not the scheduled games ---------------------------------------------


def _future_row(config_path: Path, index: int, **change: Any) -> dict[str, Any]:
    """A row for game ``index`` as a forger would write it: the right agents and colours."""
    config = load_config(config_path)
    game = next(g for g in build_schedule(config.tournament_type, config.agent_ids, games_per_pair=2,
                                          seed=config.seed) if g.index == index)
    row = {"index": index, "pair": game.pair, "black": game.black, "white": game.white,
           "players": [{"id": game.black, "colour": "BLACK"}, {"id": game.white, "colour": "WHITE"}],
           "winner": "WHITE", "result": "0-1", "termination": "win", "reason": "forged", "plies": 9,
           "duration_s": 1.0, "started_at": "2026-11-26T00:00:00.000Z", "record": f"games/{index:05d}.json",
           "seed": game.opening_seed}
    row.update(change)
    return row


def _interrupted_run(tmp_path: Path) -> tuple[Path, Path]:
    """A real run of 6 games cut back to its first 2 (as a kill leaves it)."""
    config = write_config(tmp_path)
    trio.run(run_tournament, load_config(config), opts(tmp_path))
    folder = tmp_path / "logs" / "f"
    rows = sorted(read_jsonl(folder / "games.jsonl"), key=lambda r: r["index"])[:2]
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    for index in range(2, 6):
        (folder / "games" / f"{index:05d}.json").unlink()
    return config, folder


@pytest.mark.parametrize(("change", "words"), [
    ({}, "game 4 has no record file (games/00004.json)"),
    ({"pair": 0}, "game 4 is not the game arena scheduled there (it says pair 0, but the schedule puts pair 1 there)"),
    ({"seed": 12345}, "its opening seed is 12345, not the scheduled"),
    ({"record": "games/00000.json"}, "its record is 'games/00000.json', not games/00004.json"),
    ({"result": "1-0"}, "its result '1-0' does not match its winner 'WHITE'"),
    ({"termination": "bribe"}, "its termination 'bribe' is not one arena records"),
    ({"players": [{"id": "a0", "colour": "WHITE"}, {"id": "a2", "colour": "BLACK"}]},
     "its players differ from its black and white"),
])
def test_a_forged_row_for_a_future_game_is_refused_on_resume(tmp_path: Path, fake: None, change: dict[str, Any],
                                                             words: str) -> None:
    config, folder = _interrupted_run(tmp_path)
    with open(folder / "games.jsonl", "a") as handle:
        handle.write(json.dumps(_future_row(config, 4, **change)) + "\n")
    if change:  # a record file planted too: the row itself gives it away
        (folder / "games" / "00004.json").write_text("{}\n")
    before = (folder / "games.jsonl").read_bytes()
    tournament = Tournament(load_config(config), opts(tmp_path))
    with pytest.raises(LogError) as info:
        tournament.prepare()
    message = str(info.value)
    assert message.startswith(f"{folder / 'games.jsonl'}: game 4") and words in message and "\n" not in message
    assert (folder / "games.jsonl").read_bytes() == before  # nothing changed, nothing played


def test_the_forged_row_through_the_command_line(tmp_path: Path) -> None:
    """As a user meets it: one line, exit 2, no game played (the finding: the row was counted)."""
    bot = tmp_path / "bot.py"
    bot.write_text(TEST_BOT)
    obj = {"id": "f", "game": "shobu", "maxMoves": 4, "gamesPerPair": 2,
           "agents": [{"id": f"a{i}", "path": bot_command(bot, "--seed", str(i))} for i in range(3)]}
    (tmp_path / "c.json").write_text(json.dumps(obj))
    done = arena("run", "c.json", "--logs", "logs", "--concurrency", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "logs" / "f"
    rows = sorted(read_jsonl(folder / "games.jsonl"), key=lambda r: r["index"])
    forged = {**rows[5], "winner": "WHITE" if rows[5]["winner"] != "WHITE" else "BLACK", "reason": "forged"}
    forged["result"] = {"BLACK": "1-0", "WHITE": "0-1"}[forged["winner"]]
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:3]) + json.dumps(forged) + "\n")
    for index in (3, 4, 5):
        (folder / "games" / f"{index:05d}.json").unlink()
    again = arena("run", "c.json", "--logs", "logs", cwd=tmp_path)
    assert again.returncode == 2, again.stderr
    assert again.stderr.strip().splitlines()[-1].startswith(f"arena: error: {Path('logs/f/games.jsonl')}: game 5 "
                                                           "has no record file"), again.stderr
    assert "Traceback" not in again.stderr
    assert len(read_jsonl(folder / "games.jsonl")) == 4  # nothing played, nothing removed


def test_rows_carry_their_opening(tmp_path: Path, fake: None) -> None:
    config = write_config(tmp_path, openingPlies=2)
    trio.run(run_tournament, load_config(config), opts(tmp_path))
    loaded = load_config(config)
    scheduled = {g.index: g.opening_seed for g in build_schedule("roundRobin", loaded.agent_ids, games_per_pair=2,
                                                                 seed=loaded.seed)}
    rows = read_jsonl(tmp_path / "logs" / "f" / "games.jsonl")
    assert {r["index"]: r["seed"] for r in rows} == scheduled


# -- links and odd files in the log folder -----------------------------------------------------------


@pytest.mark.parametrize("planted", ["stderr", "games", "games.jsonl", "config.json", "f", "standings.json"])
def test_a_link_planted_in_the_log_folder_is_refused(tmp_path: Path, fake: None, planted: str) -> None:
    config = write_config(tmp_path)
    folder = tmp_path / "logs" / "f"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder.parent.mkdir()
    if planted == "f":
        (elsewhere / "games").mkdir()
        folder.symlink_to(elsewhere)
    else:
        for sub in ("games", "stderr"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        target = elsewhere / planted
        if planted in ("stderr", "games"):
            (folder / planted).rmdir()
            target.mkdir()
        else:
            target.write_text("{}\n" if planted != "games.jsonl" else "")
        (folder / planted).symlink_to(target)
    before = {p: p.read_bytes() for p in elsewhere.rglob("*") if p.is_file()}
    words = f"'{planted}' is a symbolic link inside arena's own folder"
    if planted == "standings.json":  # derived data, written at the end: a warning, the games are kept
        summary = trio.run(run_tournament, load_config(config), opts(tmp_path))
        assert summary.complete and any("not a regular file (a symbolic link)" in w for w in summary.warnings)
    else:
        with pytest.raises(LogError) as info:
            trio.run(run_tournament, load_config(config), opts(tmp_path))
        assert words in str(info.value) and "\n" not in str(info.value)
    assert {p: p.read_bytes() for p in elsewhere.rglob("*") if p.is_file()} == before  # nothing written through


@pytest.mark.parametrize("planted", ["games.jsonl", "config.json"])
def test_a_fifo_in_the_log_folder_cannot_hang_a_resume(tmp_path: Path, planted: str) -> None:
    folder = tmp_path / "logs" / "f"
    folder.mkdir(parents=True)
    os.mkfifo(folder / planted)
    write_config(tmp_path)
    result = arena("run", "c.json", "--logs", "logs", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert "not a regular file (a FIFO)" in last and "Traceback" not in result.stderr
    result = arena("standings", str(folder), cwd=tmp_path)
    assert result.returncode == 2 and "not a regular file (a FIFO)" in result.stderr, result.stderr


# A Shobu bot that, on its first move, swaps the tournament's games/ folder for a link to a folder
# of its own (as any bot running as arena's user could): arena must not write a record through it.
SWAPPING_BOT = TEST_BOT.replace("moves_made += 1", '''moves_made += 1
    import os, pathlib
    folder = pathlib.Path("logs/f")
    if moves_made == 1 and not (folder / "games").is_symlink():
        os.rename(folder / "games", folder / "games.real")
        os.symlink(os.path.abspath("trap"), folder / "games")''')


@pytest.mark.parametrize("as_arenas_user", [False, True], ids=["own-user", "arenas-user"])
def test_a_folder_swapped_for_a_link_during_the_run_stops_it_with_one_line(tmp_path: Path, as_arenas_user: bool) -> None:
    (tmp_path / "trap").mkdir()
    bot = tmp_path / "bot.py"
    bot.write_text(SWAPPING_BOT)
    obj = {"id": "f", "game": "shobu", "maxMoves": 4, "gamesPerPair": 1, "sandbox": False,
           "agents": [{"id": "a", "path": bot_command(bot)}, {"id": "b", "path": bot_command(bot)}]}
    (tmp_path / "c.json").write_text(json.dumps(obj))
    if not as_arenas_user:
        if os.geteuid() != 0:
            pytest.skip("bots have users of their own only when arena runs as root")
        # A bot with a user of its own cannot touch arena's log folder at all: it loses, nothing moved.
        result = arena("run", "c.json", "--logs", "logs", "--concurrency", "1", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert not (tmp_path / "logs" / "f" / "games").is_symlink() and not any((tmp_path / "trap").iterdir())
        return
    # A bot running as arena's own user (arena as root stripped of its capabilities cannot switch
    # users) can swap the folder: arena must notice and write nothing through the link.
    setpriv = shutil.which("setpriv")
    if os.geteuid() == 0 and setpriv is None:
        pytest.skip("needs setpriv to run arena as a root without capabilities")
    prefix = [setpriv, "--bounding-set=-all", "--inh-caps=-all", "--"] if os.geteuid() == 0 and setpriv else []
    result = subprocess.run([*prefix, sys.executable, "-m", "arena", "run", "c.json", "--logs", "logs",
                             "--concurrency", "1"], cwd=tmp_path, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=120, check=False)
    assert result.returncode != 0, result.stderr
    assert "'games' is a symbolic link inside arena's own folder" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert list((tmp_path / "trap").iterdir()) == []  # no record written through the link
    assert (tmp_path / "logs" / "f" / "games.jsonl").read_text() == ""  # and no row without its record


# -- durability ------------------------------------------------------------------------------------


def test_each_record_and_row_is_synced_before_the_next_game(tmp_path: Path, fake: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.fileio import files
    from arena.tournament import logs

    calls: list[str] = []
    real_fsync, real_fdatasync, real_write = os.fsync, os.fdatasync, logs._write

    def fsync(fd: int) -> None:
        calls.append("fsync-dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync-file")
        real_fsync(fd)

    def fdatasync(fd: int) -> None:
        calls.append("fdatasync")
        real_fdatasync(fd)

    def write(fd: int, data: bytes) -> int:
        calls.append("row")
        return real_write(fd, data)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(logs.os, "fdatasync", fdatasync)
    monkeypatch.setattr(logs, "_write", write)
    trio.run(run_tournament, load_config(write_config(tmp_path)), opts(tmp_path))
    per_game = ["fsync-file", "fsync-dir", "row", "fdatasync"]
    games = [i for i in range(len(calls)) if calls[i:i + 4] == per_game]
    assert len(games) == 6, calls


# -- an SPRT run's folder ------------------------------------------------------------------------------


def test_an_sprt_resume_refuses_a_record_that_is_not_its_game(tmp_path: Path) -> None:
    from arena.games.registry import configured_game
    from arena.match.clock import TimeControl
    from arena.players.spec import AgentSpec
    from arena.sprt.run import SprtRun, SprtSettings

    bot = f"{sys.executable} {REPO / 'bots' / 'connect4_random.py'}"

    def run(max_pairs: int) -> str:
        settings = SprtSettings(game=configured_game("connect4"), new=AgentSpec("new", command=bot),
                                old=AgentSpec("old", command=bot), time_control=TimeControl(time_limit_ms=20000),
                                max_pairs=max_pairs, opening_plies=2, seed=5)
        runner = SprtRun(settings, tmp_path / "logs" / "s")
        runner.open()
        try:
            return trio.run(runner.run)
        finally:
            runner.close()

    assert run(2) == "max-pairs"
    games = tmp_path / "logs" / "s" / "games"
    first, third = (json.loads((games / f"0000{i}.json").read_text()) for i in (0, 2))
    (games / "00002.json").write_text(json.dumps({**third, "winner": "BLACK", "seed": first["seed"]}))
    with pytest.raises(LogError, match=r"00002\.json: not the record of game 2 of this run \(its opening seed is not "):
        run(3)
    (games / "00002.json").write_text(json.dumps({**first, "game_index": 2}))
    with pytest.raises(LogError, match=r"not the record of game 2 of this run \(its opening seed"):
        run(3)
    (games / "00002.json").unlink()
    (games / "00002.json").symlink_to(games / "00000.json")
    with pytest.raises(LogError, match="'00002.json' is a symbolic link inside arena's own folder"):
        run(3)
    (games / "00002.json").unlink()  # the pair is played again
    assert run(3) == "max-pairs"


@pytest.mark.parametrize("command", ["standings", "replay", "report", "export", "check-logs"])
def test_readers_of_a_log_folder_refuse_a_planted_link(tmp_path: Path, fake: None, command: str) -> None:
    """The commands that read a finished folder treat it as the user's and everything in it as
    arena's: a record replaced by a link to a file elsewhere is refused with one line."""
    trio.run(run_tournament, load_config(write_config(tmp_path, game="checkers")), opts(tmp_path))
    folder = tmp_path / "logs" / "f"
    secret = tmp_path / "secret.json"
    secret.write_text((folder / "games" / "00000.json").read_text())
    (folder / "games" / "00000.json").unlink()
    (folder / "games" / "00000.json").symlink_to(secret)
    args = {"standings": ["standings", str(folder)], "replay": ["replay", str(folder), "--game", "0", "--plain"],
            "report": ["report", str(folder), "-o", str(tmp_path / "r.html")],
            "export": ["export", "--pdn", str(folder)], "check-logs": ["check-logs", str(folder)]}[command]
    result = arena(*args, cwd=tmp_path)
    if command == "standings":  # reads games.jsonl only: the records are not its business
        assert result.returncode == 0, result.stderr
        folder.joinpath("games.jsonl").rename(tmp_path / "rows.jsonl")
        folder.joinpath("games.jsonl").symlink_to(tmp_path / "rows.jsonl")
        result = arena(*args, cwd=tmp_path)
    assert result.returncode != 0 and "Traceback" not in result.stderr + result.stdout
    said = (result.stdout if command == "check-logs" else result.stderr).strip().splitlines()
    assert any("is a symbolic link inside arena's own folder" in line for line in said), said
    assert not (tmp_path / "r.html").exists()
