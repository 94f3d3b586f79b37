"""Rosters (``"agents": {"from": "students/*/"}``): one agent per folder, its command from ``bot.json``
or its ``bot`` file; every agent's problem reported at once, in lists and rosters alike."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # the test extra; no stubs installed
import pytest

from arena.errors import ConfigError, ConfigProblems
from arena.tournament.config import load_config
from arena.tournament.roster_check import load_entries

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "arena" / "schemas" / "tournament.schema.json").read_text(encoding="utf-8"))


def student(root: Path, name: str, bot: str | None = "connect4_random.py", bot_json: Any = "default") -> Path:
    """A student's folder holding a copy of ``bots/<bot>`` and a bot.json running it (``bot_json``:
    the object to write instead, or None for none)."""
    folder = root / "students" / name
    folder.mkdir(parents=True)
    if bot is not None:
        shutil.copy(ROOT / "bots" / bot, folder / bot)
    if bot_json == "default":
        bot_json = {"command": f"python3 {bot}", "language": "python", "game": "connect4"}
    if bot_json is not None:
        (folder / "bot.json").write_text(json.dumps(bot_json))
    return folder


def config(root: Path, agents: Any, **more: Any) -> Path:
    path = root / "class.json"
    path.write_text(json.dumps({"id": "class", "game": "connect4", "agents": agents, **more}))
    return path


@pytest.fixture
def roster(tmp_path: Path) -> Path:
    student(tmp_path, "alice")
    student(tmp_path, "bob", "connect4_greedy.py")
    carol = student(tmp_path, "carol", bot_json=None)  # no bot.json: its executable `bot`
    (carol / "bot").write_text(f"#!/bin/sh\nexec python3 {carol / 'connect4_random.py'}\n")
    (carol / "bot").chmod(0o755)
    (tmp_path / "students" / "notes.txt").write_text("not a folder: skipped\n")
    return tmp_path


def test_each_folder_is_an_agent_named_by_it_in_sorted_order(roster: Path) -> None:
    loaded = load_config(config(roster, {"from": "students/*/", "env": {"DEPTH": "2"}}))
    assert loaded.agent_ids == ["alice", "bob", "carol"]
    alice, bob, carol = loaded.agents
    assert alice.command == ("python3", str(roster / "students" / "alice" / "connect4_random.py"))
    assert bob.raw_path == "python3 connect4_greedy.py" and bob.folder == "students/bob/"
    assert carol.command == (str(roster / "students" / "carol" / "bot"),) and carol.raw_path == "bot"
    assert all(a.env == (("DEPTH", "2"),) for a in loaded.agents)
    assert alice.to_json()["folder"] == "students/alice/"
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(json.loads((roster / "class.json").read_text()))) == []


def test_exclude_leaves_folders_out_and_a_typo_is_an_error(roster: Path) -> None:
    assert load_config(config(roster, {"from": "students/*", "exclude": ["bob"]})).agent_ids == ["alice", "carol"]
    with pytest.raises(ConfigError, match=r"^agents\.exclude: 'bobb' is not a folder 'students/\*' matches$"):
        load_config(config(roster, {"from": "students/*", "exclude": ["bobb"]}))


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        ({"from": "nobody/*/"}, r"^agents\.from: 'nobody/\*/' matches no folder \(looked in "),
        ({"from": "students/alice/"}, r"^agents: a tournament needs at least two agents, got 1 "),
        ({"from": "students/*/", "flavour": 1}, r"^agents\.flavour: unknown key \(known keys: from, exclude, env\)$"),
        ({"from": 3}, r"^agents\.from: must be a glob of folders"),
        ({"from": " "}, r"^agents\.from: empty"),
        ({"from": "students/*/", "env": {"1X": "1"}}, r"^agents\.env\.1X: not a valid environment variable name"),
        ({}, r"^agents: must be a list of agent objects or a roster"),
    ],
)
def test_mistakes_of_the_roster_itself_are_one_line(roster: Path, agents: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        load_config(config(roster, agents))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("agents", [{}, {"from": 3}, {"from": " "}, {"from": "s/*/", "flavour": 1},
                                    {"from": "s/*/", "exclude": "bob"}, {"from": "s/*/", "env": {"1X": "1"}}])
def test_the_schema_refuses_what_it_can_say_of_a_roster(agents: Any) -> None:
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors({"id": "t", "agents": agents})) != []


def test_every_broken_folder_is_reported_at_once(roster: Path) -> None:
    student(roster, "dave", bot_json={"command": "python3 missing.py"})
    student(roster, "eve", bot_json={"game": "checkers"})
    student(roster, "frank", bot=None, bot_json=None)
    student(roster, "Standings")
    student(roster, "gina", bot_json=["python3 x.py"])
    plain = student(roster, "hal", bot_json=None)
    (plain / "bot").write_text("#!/bin/sh\n")  # not executable
    with pytest.raises(ConfigProblems) as info:
        load_config(config(roster, {"from": "students/*/"}))
    lines = str(info.value).splitlines()
    assert lines[0] == "6 problems in the config:"
    assert [line.split(": ", 2)[1] for line in lines[1:]] == [
        "students/Standings/", "students/dave/", "students/eve/", "students/frank/", "students/gina/", "students/hal/"]
    assert lines[1] == "  agents: students/Standings/: the folder's name is the agent's id: 'Standings' is reserved for a log file"
    assert lines[2].startswith("  agents: students/dave/: bot.json: command: file 'missing.py' not found (looked at ")
    assert lines[3] == "  agents: students/eve/: bot.json: game: 'checkers', but the tournament plays connect4"
    assert lines[4].startswith("  agents: students/frank/: no bot.json with a command and no 'bot' file (looked in ")
    assert lines[5] == "  agents: students/gina/: bot.json: must be an object such as {\"command\": \"python3 bot.py\"}, got [\"python3 x.py\"]"
    assert lines[6] == "  agents: students/hal/: 'bot' is not executable (chmod +x it, or give its command in bot.json)"
    assert info.value.problems == tuple(line[2:] for line in lines[1:])


def test_a_bot_json_with_unknown_keys_or_bad_json_names_the_folder(roster: Path) -> None:
    student(roster, "dave", bot_json={"command": "python3 connect4_random.py", "lang": "python"})
    (roster / "students" / "bob" / "bot.json").write_text("{not json")
    with pytest.raises(ConfigProblems) as info:
        load_config(config(roster, {"from": "students/*/"}))
    assert info.value.problems[0].startswith("agents: students/bob/: bot.json: cannot be read (not valid JSON")
    assert info.value.problems[1].startswith("agents: students/dave/: bot.json: lang: unknown key (known keys: ")


def test_a_list_reports_every_agents_problem_and_one_problem_as_before(tmp_path: Path) -> None:
    shutil.copy(ROOT / "bots" / "connect4_random.py", tmp_path / "bot.py")
    good = {"id": "a", "path": "python3 bot.py"}
    agents = [good, {"id": "b", "path": "python3 nope.py"}, {"id": "a", "path": "python3 bot.py"}, "x",
              {"id": "c", "path": "python3 bot.py", "env": {"PATH": ""}}]
    with pytest.raises(ConfigProblems) as info:
        load_config(config(tmp_path, agents))
    problems = info.value.problems
    assert str(info.value).splitlines()[0] == "4 problems in the config:"
    assert problems[0].startswith("agents[1].path: file 'nope.py' not found")
    assert problems[1] == "agents[2].id: duplicate id 'a'"
    assert problems[2].startswith("agents[3]: must be an object")
    assert problems[3].startswith("agents[4].path: the bot cannot be started with the agent's env PATH ''")
    with pytest.raises(ConfigError) as one:
        load_config(config(tmp_path, [good, agents[1]]))
    assert not isinstance(one.value, ConfigProblems) and str(one.value).startswith("agents[1].path: file 'nope.py'")


def test_the_gate_lists_every_entry_loaded_or_not(roster: Path) -> None:
    student(roster, "dave", bot_json={"command": "python3 missing.py"})
    view, rows = load_entries(config(roster, {"from": "students/*/"}))
    assert view.game == "connect4"
    assert [(r.label, r.command, r.ok) for r in rows] == [
        ("alice", "python3 connect4_random.py", True), ("bob", "python3 connect4_greedy.py", True),
        ("carol", "bot", True), ("dave", "", False)]
    assert rows[0].language == "python"
    assert rows[3].reason is not None and rows[3].reason.startswith("bot.json: command: file 'missing.py' not found")
