"""Issue 33, item 5: every file and folder arena creates is its owner's alone (files 0600, folders
0700, from :mod:`arena.fileio.files`), whatever the umask; a file replaced keeps the mode its owner
gave it; what bots must read (a training run's players) is readable by all. Each kind of output is
made by the real command and its modes are checked (the hostile side, a later bot that tries to
read them, is tests/hostile/test_outputs_closed.py)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.fileio.files import (
    FILE_MODE,
    FOLDER_MODE,
    SHARED_FILE_MODE,
    SHARED_FOLDER_MODE,
    atomic_write,
    make_folders,
    open_beneath,
)

REPO = Path(__file__).resolve().parents[2]
BOT = f"{sys.executable} {REPO / 'bots' / 'connect4_random.py'}"
CHECKERS_BOT = f"{sys.executable} {REPO / 'bots' / 'checkers_random.py'}"
TIMEOUT_S = 120


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """umask 0: a mode arena asks for is the mode the file gets (the tightest test of the modes)."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # A shell's umask 0 too: the modes must come from arena, not from a careful umask.
    return subprocess.run(["sh", "-c", 'umask 0 && exec "$@"', "sh", sys.executable, "-m", "arena", *args], cwd=cwd,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT_S, check=False)


def all_below(folder: Path) -> tuple[list[Path], list[Path]]:
    """(folders, files) below ``folder``, ``folder`` included."""
    folders, files = [folder], []
    for path in folder.rglob("*"):
        (folders if path.is_dir() else files).append(path)
    return folders, files


def assert_private(*roots: Path) -> None:
    for root in roots:
        folders, files = all_below(root) if root.is_dir() else ([], [root])
        assert files or folders
        wrong = {str(p): oct(mode(p)) for p in folders if mode(p) != FOLDER_MODE}
        wrong |= {str(p): oct(mode(p)) for p in files if mode(p) != FILE_MODE}
        assert not wrong, wrong


# -- the one home ------------------------------------------------------------------------------------


def test_make_folders_gives_every_new_folder_the_owners_mode_and_leaves_the_others(
        tmp_path: Path, open_umask: None) -> None:
    (tmp_path / "mine").mkdir(mode=0o755)
    made = make_folders(tmp_path / "mine" / "a" / "b")
    assert made == tmp_path / "mine" / "a" / "b" and made.is_dir()
    assert mode(tmp_path / "mine") == 0o755  # the user's folder, as it was
    assert mode(tmp_path / "mine" / "a") == mode(made) == FOLDER_MODE
    make_folders(made)  # already there: nothing to do
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileExistsError):
        make_folders(tmp_path / "file")
    assert mode(make_folders(tmp_path / "shared", SHARED_FOLDER_MODE)) == SHARED_FOLDER_MODE


def test_atomic_write_creates_closed_and_keeps_the_mode_its_owner_gave(tmp_path: Path, open_umask: None) -> None:
    atomic_write(tmp_path / "new.json", b"{}")
    assert mode(tmp_path / "new.json") == FILE_MODE
    (tmp_path / "shared.html").write_text("old")
    os.chmod(tmp_path / "shared.html", 0o644)  # the owner published it
    atomic_write(tmp_path / "shared.html", b"new")
    assert mode(tmp_path / "shared.html") == 0o644 and (tmp_path / "shared.html").read_text() == "new"
    atomic_write(tmp_path / "player.json", b"{}", mode=SHARED_FILE_MODE)
    assert mode(tmp_path / "player.json") == SHARED_FILE_MODE


def test_open_beneath_creates_closed_folders_and_files(tmp_path: Path, open_umask: None) -> None:
    os.close(open_beneath(tmp_path, tmp_path / "run" / "stderr" / "x.log", os.O_WRONLY | os.O_CREAT, make_dirs=True))
    os.close(open_beneath(tmp_path, tmp_path / "run" / "fresh.log", os.O_WRONLY, fresh=True))
    assert_private(tmp_path / "run")


# -- each kind of output, made by its command ---------------------------------------------------------


def test_a_matchs_records_and_stderr_logs_are_closed(tmp_path: Path) -> None:
    done = arena("match", BOT, BOT, "--game", "connect4", "--games", "2", "--max-moves", "6", "-q",
                 "--out", "new/sub/records.json", "--stderr-dir", "err", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_private(tmp_path / "new", tmp_path / "err")
    assert len(list((tmp_path / "err").glob("*.log"))) == 4


def test_match_logs_saved_by_default_are_closed(tmp_path: Path, open_umask: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.cli import match_cmd

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(match_cmd, "_stdout_is_terminal", lambda: True)  # records saved under match_logs/
    result = CliRunner().invoke(match_cmd.match_command, [BOT, BOT, "--game", "connect4", "--max-moves", "4", "-q"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "match_logs").glob("*.json"))) == 1, result.output
    assert_private(tmp_path / "match_logs")


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished round robin of two random checkers bots (logs root ``logs``, made by arena)."""
    folder = tmp_path_factory.mktemp("tournament")
    config = {"id": "t", "game": "checkers", "gamesPerPair": 2, "maxMoves": 6, "timeLimit": 10000,
              "agents": [{"id": "a", "path": CHECKERS_BOT}, {"id": "b", "path": CHECKERS_BOT}]}
    (folder / "t.json").write_text(json.dumps(config))
    done = arena("run", "t.json", "--logs", "logs", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_a_tournaments_folder_records_stderr_and_standings_are_closed(tournament: Path) -> None:
    logs = tournament / "logs"
    assert (logs / "t" / "games.jsonl").is_file() and list((logs / "t" / "stderr").glob("*.log"))
    assert_private(logs)


@pytest.mark.parametrize("kind", ["report", "export", "openings", "replay"])
def test_reports_exports_books_and_viewers_are_closed(tournament: Path, tmp_path: Path, kind: str) -> None:
    record = next((tournament / "logs" / "t" / "games").glob("*.json"))
    args = {"report": ["report", str(tournament / "logs" / "t"), "-o", "out/report.html"],
            "export": ["export", "--pdn", str(record), "-o", "out/games.pdn"],
            "openings": ["openings", "--game", "connect4", "--plies", "2", "--count", "2", "--depth", "1",
                         "-o", "out/book.jsonl"],
            "replay": ["replay", str(record), "--html", "out/game.html"]}[kind]
    (tmp_path / "out").mkdir(mode=0o755)  # the user's folder: only what arena makes in it is checked
    done = arena(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    made = [p for p in (tmp_path / "out").iterdir()]
    assert made, done.stderr
    assert_private(*made)


def test_an_evolve_runs_players_are_readable_by_their_bots_and_the_rest_is_closed(tmp_path: Path,
                                                                                   open_umask: None) -> None:
    from arena.cli.train_cmd import train_command

    result = CliRunner().invoke(train_command, [
        "evolve", "--game", "connect4", "--out", str(tmp_path / "run"), "--population", "2", "--keep", "1",
        "--rounds", "1", "--games-per-pair", "1", "--depth", "1", "--final-games", "0", "--time-limit", "5000"],
        catch_exceptions=False)
    assert result.exit_code == 0, result.output
    run = tmp_path / "run"
    players = sorted((run / "players").glob("*.json"))
    assert players and mode(run) == mode(run / "players") == SHARED_FOLDER_MODE
    assert {mode(p) for p in players} == {SHARED_FILE_MODE}
    others = [p for p in run.iterdir() if p.name != "players"]
    assert others
    assert_private(*others)
