"""``arena run --set-aside-failing``: the roster check first, the failing entries set aside, the rest
play (arena.tournament.roster_check.passing_config)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_roster import config, student

from arena.cli import cli
from arena.errors import ConfigError
from arena.tournament.roster_check import EntryCheck, set_aside


def entry(where: str, reason: str | None) -> EntryCheck:
    return EntryCheck(where, where, "", (), reason)


def test_set_aside_drops_failing_list_entries_and_excludes_failing_folders() -> None:
    listed = {"agents": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}
    rows = [entry("agents[0]", None), entry("agents[1]", "crashed"), entry("agents[2]", None)]
    assert set_aside(listed, rows)["agents"] == [{"id": "a"}, {"id": "c"}]
    roster = {"agents": {"from": "students/*/", "exclude": ["old"]}}
    rows = [entry("agents: students/a/", None), entry("agents: students/b/", "no bot"), entry("agents: students/c/", None)]
    assert set_aside(roster, rows)["agents"] == {"from": "students/*/", "exclude": ["old", "b"]}
    with pytest.raises(ConfigError, match="1 of 3 entries pass the roster check"):
        set_aside(listed, [entry("agents[0]", None), entry("agents[1]", "x"), entry("agents[2]", "y")])


def test_run_sets_aside_the_failing_bots_saying_which_and_why(tmp_path: Path) -> None:
    student(tmp_path, "alice")
    student(tmp_path, "bob", "connect4_greedy.py")
    crash = student(tmp_path, "dave", None, {"command": "python3 crash.py"})
    (crash / "crash.py").write_text("import sys\nsys.exit(3)\n")
    student(tmp_path, "erin", None, None)  # neither bot.json nor a bot file
    path = config(tmp_path, {"from": "students/*/"}, maxMoves=6, gamesPerPair=2)
    result = CliRunner().invoke(cli, ["run", str(path), "--set-aside-failing", "--logs", str(tmp_path / "logs"),
                                       "--json", "-j", "1"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert any(line.startswith("set aside: dave: check-bot: ") for line in lines), result.stderr
    assert any(line.startswith("set aside: erin: no bot.json with a command") for line in lines), result.stderr
    assert "2 of 4 agents pass the check; 2 set aside" in lines
    summary = json.loads(result.stdout[result.stdout.index("{"):])
    assert summary["games_finished"] == 2 and {a for a in summary["agents"]} == {"alice", "bob"}


def test_without_the_option_a_broken_entry_stops_the_run_with_a_hint(tmp_path: Path) -> None:
    student(tmp_path, "alice")
    student(tmp_path, "bob", "connect4_greedy.py")
    student(tmp_path, "erin", None, None)
    path = config(tmp_path, {"from": "students/*/"})
    result = CliRunner().invoke(cli, ["run", str(path), "--logs", str(tmp_path / "logs")], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        (f"arena: error: agents: students/erin/: no bot.json with a command and no 'bot' file (looked in "
         f"{tmp_path / 'students' / 'erin'}) (arena run --set-aside-failing sets aside the agents that fail and "
         "plays the others)")], result.stderr
