"""A bot sees only what it needs (issue 33): in the sandbox a thief in a class cannot read the
project checkout, a classmate's folder or another run's logs, nor run a classmate's bot; its
``bot.json`` cannot widen its view (refused in one line at the roster check and at run start);
the organiser's ``readOnlyPaths`` are shown as named."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from engine_support import assert_no_leftovers

from arena.cli import cli
from arena.errors import ConfigError
from arena.process.isolation import sandbox_available
from arena.process.spawn import arena_import_root
from arena.process.view import Reach, bot_view, installation, outside_folder
from arena.tournament.config import load_config

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "bots" / "connect4_random.py"
THIEF = Path(__file__).with_name("thief_bot.py")
needs_sandbox = pytest.mark.skipif(sandbox_available() is not None, reason=str(sandbox_available()))


def _bot(folder: Path, command: str, *files: Path) -> Path:
    folder.mkdir(parents=True)
    for file in files:
        shutil.copy(file, folder / file.name)
    (folder / "bot.json").write_text(json.dumps({"command": command, "language": "python", "game": "connect4"}))
    return folder


def _config(path: Path, pattern: str, **more: object) -> Path:
    path.write_text(json.dumps({"id": "class", "game": "connect4", "gamesPerPair": 2, "timeLimit": 20000,
                                "maxMoves": 42, "agents": {"from": pattern}, **more}))
    return path


def test_what_a_roster_bot_names_must_lie_inside_its_folder(tmp_path: Path) -> None:
    mine = _bot(tmp_path / "class" / "bob", "python3 bot.py", RANDOM_BOT)
    (mine / "bot.py").write_text("")
    other = _bot(tmp_path / "class" / "alice", "python3 bot.py")
    (other / "bot.py").write_text("")
    assert outside_folder(("python3", str(mine / "bot.py")), str(mine)) is None
    assert outside_folder(("java", "-cp", f"{mine}:/usr/share/java/none.jar", "Main"), str(mine)) is None
    problem = outside_folder(("python3", str(other / "bot.py")), str(mine))
    assert problem is not None and "outside the bot's folder" in problem and "\n" not in problem
    problem = outside_folder(("java", "-cp", f"{mine}:{other}", "Main"), str(mine))
    assert problem is not None and str(other) in problem
    (mine / "link.py").symlink_to(other / "bot.py")
    assert outside_folder(("python3", str(mine / "link.py")), str(mine)) is not None
    (mine / "closed").mkdir(mode=0o700)
    (mine / "closed" / "bot.py").write_text("")
    closed = outside_folder(("python3", str(mine / "closed" / "bot.py")), str(mine), own_user=True)
    assert closed is not None and "other users cannot enter" in closed
    assert outside_folder(("python3", str(mine / "closed" / "bot.py")), str(mine), own_user=False) is None


def test_the_roster_check_and_the_run_refuse_a_bot_json_that_names_a_classmates_file(tmp_path: Path) -> None:
    alice = _bot(tmp_path / "class" / "alice", "python3 connect4_random.py", RANDOM_BOT)
    _bot(tmp_path / "class" / "bob", "python3 connect4_random.py", RANDOM_BOT)
    _bot(tmp_path / "class" / "thief", "python3 ../alice/connect4_random.py")
    config = _config(tmp_path / "class.json", "class/*/")
    result = CliRunner().invoke(cli, ["roster", "check", str(config)], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("thief"))
    assert f"script {alice / 'connect4_random.py'} is outside the bot's folder" in line, result.output
    assert sum(line.startswith(("alice", "bob")) and "✓" in line for line in result.output.splitlines()) == 2
    with pytest.raises(ConfigError, match=r"agents: class/thief/: bot\.json: script .* is outside the bot's folder"):
        load_config(config)
    run = CliRunner().invoke(cli, ["run", str(config), "--logs", str(tmp_path / "logs")], catch_exceptions=False)
    assert run.exit_code == 2 and "outside the bot's folder" in run.output
    assert not (tmp_path / "logs" / "class").exists()


def test_a_roster_bots_view_is_its_folder_and_its_interpreter(tmp_path: Path) -> None:
    mine = _bot(tmp_path / "class" / "bob", "python3 connect4_random.py", RANDOM_BOT)
    shared = tmp_path / "books"
    shared.mkdir()
    python = os.path.realpath(sys.executable)  # an interpreter as arena resolves it (a shim's real one)
    view = bot_view((python, str(mine / "connect4_random.py"), str(tmp_path)), ROOT,
                    {"PATH": os.environ["PATH"]}, Reach(folder=str(mine), read_only=(str(shared),)))
    shown = set(view.shown)
    assert shown == {str(mine), str(shared), installation(python)}, shown  # not tmp_path, which the command names
    assert installation(python) != sys.base_prefix or not sys.base_prefix.startswith("/usr")
    assert view.empty_workdir  # arena's folder (the checkout here): an empty folder in its view
    assert str(Path(arena_import_root()) / "arena") not in shown  # a student's bot is not arena's


def _thief_class(tmp_path: Path, marker: str) -> tuple[Path, Path, dict[str, str]]:
    """A class of two honest bots and a thief; an earlier run's log folder (readable by anyone);
    the config; the secrets the thief must not get, by name."""
    classroom = tmp_path / "class"
    alice = _bot(classroom / "alice", "python3 connect4_random.py", RANDOM_BOT)
    (alice / "secret.txt").write_text(f"alice-secret-{marker}")
    _bot(classroom / "bob", "python3 connect4_random.py", RANDOM_BOT)
    thief = _bot(classroom / "thief", "python3 thief_bot.py", RANDOM_BOT, THIEF)
    earlier = tmp_path / "logs" / "earlier-run"
    earlier.mkdir(parents=True)
    (earlier / "games.jsonl").write_text(f"earlier-run-{marker}\n")
    for folder in (tmp_path, tmp_path / "logs", earlier):
        folder.chmod(0o755)  # readable by anyone: only the view keeps the thief out
    checkout_file = Path(arena_import_root()) / "pyproject.toml"
    (thief / "targets.json").write_text(json.dumps({
        "read": [str(checkout_file), str(alice / "secret.txt"), str(alice / "bot.json"),
                 str(earlier / "games.jsonl"), "/etc/passwd"],
        "list": [arena_import_root(), str(classroom), str(earlier), str(tmp_path / "logs")],
        "exec": str(alice)}))
    secrets = {"checkout": checkout_file.read_text()[:60], "alice": f"alice-secret-{marker}",
               "earlier run": f"earlier-run-{marker}"}
    return _config(tmp_path / "class.json", "class/*/", sandbox=True), tmp_path / "logs", secrets


@needs_sandbox
def test_a_thief_in_a_class_gets_nothing_and_the_honest_bots_play_every_game(marker: str, tmp_path: Path) -> None:
    config, logs, secrets = _thief_class(tmp_path, marker)
    check = CliRunner().invoke(cli, ["roster", "check", str(config)], catch_exceptions=False)
    assert check.exit_code == 0, check.output  # an honest bot.json: nothing to refuse before the games
    result = CliRunner().invoke(cli, ["run", str(config), "--logs", str(logs), "--json", "--concurrency", "2"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    games = [json.loads(line) for line in (logs / "class" / "games.jsonl").read_text().splitlines()]
    assert len(games) == 6
    for game in games:  # no forfeit, no crash: everyone played by the rules
        assert game["termination"] in ("win", "draw", "max_moves"), game
    reports: dict[str, str] = {}
    stderr_text = ""
    for log in sorted((logs / "class" / "stderr").glob("*thief*.log")):
        text = log.read_text(errors="replace")
        stderr_text += text
        for line in text.splitlines():
            if line.startswith("REPORT "):
                _, what, answer = line.split(" ", 2)
                reports[what] = answer
    assert reports, "the thief reported nothing"
    thief = tmp_path / "class" / "thief"
    for what, answer in reports.items():
        got = json.loads(answer)
        if what.startswith("list:") and "ok" in got:
            # A folder on the way to its own folder exists (empty but for that way): nothing else.
            folder = Path(what.removeprefix("list:"))
            assert all(thief.is_relative_to(folder / name) for name in got["ok"]), (what, answer)
        else:
            assert got.keys() == {"failed"}, (what, answer)
    for name, secret in secrets.items():
        assert secret not in stderr_text, f"the thief got the {name} secret"
    assert_no_leftovers(str(tmp_path / "class"))  # every bot's command names its folder there


@pytest.mark.parametrize(("paths", "message"), [
    (["nowhere"], "readOnlyPaths[0]: 'nowhere' not found (looked at"),
    ([""], "readOnlyPaths[0]: empty"),
    (["/"], "readOnlyPaths[0]: '/' would show bots the whole machine"),
    ("books", "readOnlyPaths: must be a list of strings"),
])
def test_read_only_paths_are_checked_in_one_line(tmp_path: Path, paths: object, message: str) -> None:
    for name in ("alice", "bob"):
        _bot(tmp_path / "class" / name, "python3 connect4_random.py", RANDOM_BOT)
    config = _config(tmp_path / "class.json", "class/*/", readOnlyPaths=paths)
    with pytest.raises(ConfigError) as caught:
        load_config(config)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value), caught.value
    result = CliRunner().invoke(cli, ["match", "--game", "connect4", "--read-only", "nowhere", "python3 x", "python3 y"],
                                catch_exceptions=False)
    assert result.exit_code == 2 and "--read-only" in result.output and "'nowhere' not found" in result.output


@needs_sandbox
def test_the_organisers_read_only_paths_are_shown_to_the_bots(tmp_path: Path) -> None:
    """A book every bot may read (``--read-only``) and one only for one agent (its ``readOnlyPaths``);
    a bot reads them with ``cat`` before each move (its stderr tells what it saw)."""
    shared, own = tmp_path / "shared.txt", tmp_path / "own.txt"
    shared.write_text("shared-book\n")
    own.write_text("own-book\n")
    for path in (tmp_path, shared, own):
        path.chmod(0o755 if path.is_dir() else 0o644)
    # The books' paths built in the script (a path written out in it would be shown as named).
    reader = (f"sh -c 'd={tmp_path}; cat $d/shared.txt $d/own.txt >&2; exec python3 \"$0\"' {RANDOM_BOT}")
    config = tmp_path / "books.json"
    config.write_text(json.dumps({"id": "books", "game": "connect4", "gamesPerPair": 1, "maxMoves": 4,
                                  "sandbox": True, "agents": [
                                      {"id": "owner", "path": reader, "readOnlyPaths": [str(own)]},
                                      {"id": "other", "path": reader}]}))
    result = CliRunner().invoke(cli, ["run", str(config), "--logs", str(tmp_path / "logs"), "--read-only",
                                      str(shared)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    logs = {log.name: log.read_text() for log in (tmp_path / "logs" / "books" / "stderr").glob("*.log")}
    owner = "".join(text for name, text in logs.items() if "owner" in name)
    other = "".join(text for name, text in logs.items() if "other" in name)
    assert "shared-book" in owner and "own-book" in owner, logs
    assert "shared-book" in other and "own-book" not in other and "No such file" in other, logs
