"""`arena roster check CONFIG`: a table of every entry, ✓ or the reason, exit 0 only when all pass;
`--probe` runs check-bot's checks on each bot; `arena run` lists every agent's problem, exit 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arena.cli import cli

ROOT = Path(__file__).resolve().parents[2]


def student(root: Path, name: str, bot: str, command: str | None = None) -> None:
    folder = root / "students" / name
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "bots" / bot, folder / bot)
    (folder / "bot.json").write_text(json.dumps({"command": command or f"python3 {bot}", "language": "python"}))


def class_config(root: Path) -> Path:
    student(root, "alice", "connect4_random.py")
    student(root, "bob", "connect4_greedy.py")
    path = root / "class.json"
    path.write_text(json.dumps({"id": "class", "game": "connect4", "agents": {"from": "students/*/"}}))
    return path


def arena(*args: Any) -> Any:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def test_a_roster_that_loads_passes(tmp_path: Path) -> None:
    result = arena("roster", "check", class_config(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["id", "command", "loads"]
    assert lines[1].split() == ["alice", "python3", "connect4_random.py", "✓"]
    assert lines[-1] == "2 of 2 entries pass"


def test_a_broken_entry_is_a_row_with_its_reason_and_exit_1(tmp_path: Path) -> None:
    path = class_config(tmp_path)
    student(tmp_path, "carol", "connect4_random.py", command="python3 connect4_randm.py")
    result = arena("roster", "check", path)
    assert result.exit_code == 1, result.output
    carol = result.output.splitlines()[3]
    assert carol.startswith("carol") and "✗ bot.json: command: file 'connect4_randm.py' not found" in carol
    assert result.output.splitlines()[-1] == "2 of 3 entries pass; 1 fail"
    data = json.loads(arena("roster", "check", path, "--json").output)
    assert data["ok"] is False and [e["ok"] for e in data["entries"]] == [True, True, False]
    assert data["entries"][0]["argv"] == ["python3", str(tmp_path / "students" / "alice" / "connect4_random.py")]


def test_arena_run_prints_every_problem_and_exits_2(tmp_path: Path) -> None:
    path = class_config(tmp_path)
    student(tmp_path, "carol", "connect4_random.py", command="python3 connect4_randm.py")
    student(tmp_path, "games", "connect4_random.py")
    result = CliRunner().invoke(cli, ["run", str(path), "--logs", str(tmp_path / "logs")], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert lines[0] == "arena: error: 2 problems in the config:"
    assert lines[1].startswith("  agents: students/carol/: bot.json: command: file 'connect4_randm.py' not found")
    assert lines[2] == "  agents: students/games/: the folder's name is the agent's id: 'games' is reserved for a log file"
    assert not (tmp_path / "logs").exists()


def test_a_config_that_cannot_be_read_as_far_as_its_agents_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"id": "x", "game": "chess", "agents": {"from": "*/"}}))
    result = arena("roster", "check", path)
    assert result.exit_code == 2 and "arena: error: game: unknown game 'chess'" in result.output


def test_probe_runs_check_bot_on_each_loaded_bot(tmp_path: Path) -> None:
    path = class_config(tmp_path)
    # Loads (its program and script exist) but plays connect4 as if it were checkers: check-bot fails it.
    student(tmp_path, "carol", "checkers_random.py")
    result = arena("roster", "check", path, "--probe", "--games", "1", "--time-limit", "2000")
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["id", "command", "check-bot"]
    assert lines[1].endswith("✓") and lines[2].endswith("✓")
    assert lines[3].startswith("carol") and "✗ check-bot: " in lines[3] and "checks failed; first: " in lines[3]
    data = json.loads(arena("roster", "check", path, "--probe", "--games", "0", "--json").output)
    alice = data["entries"][0]
    assert data["probed"] and alice["probed"] and alice["checks"] and all(c["ok"] for c in alice["checks"])


def test_a_long_command_keeps_its_program_name_in_the_table_and_is_whole_in_the_json(tmp_path: Path) -> None:
    path = class_config(tmp_path)
    deep = tmp_path / "students" / "carol" / "src" / "engine" / "players" / "search"
    deep.mkdir(parents=True)
    shutil.copy(ROOT / "bots" / "connect4_random.py", deep / "carols_connect4_bot.py")
    command = "python3 ./src/engine/players/search/carols_connect4_bot.py --seed 12345 --name carol-the-first"
    assert len(command) > 60
    (tmp_path / "students" / "carol" / "bot.json").write_text(json.dumps({"command": command}))
    result = arena("roster", "check", path)
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if line.startswith("carol"))
    assert "python3 …/search/carols_connect4_bot.py --seed 12345" in row and row.endswith("✓"), row
    assert "../" not in row and "..." not in row
    entries = json.loads(arena("roster", "check", path, "--json").output)["entries"]
    assert next(e for e in entries if e["id"] == "carol")["command"] == command


def test_short_command_cuts_paths_to_their_last_parts_then_the_end() -> None:
    from arena.cli.roster_cmd import short_command

    assert short_command("python3 bot.py") == "python3 bot.py"
    assert short_command("python3 ../../../../../../../students/alice/bot.py --depth 3", 40) == \
        "python3 …/alice/bot.py --depth 3"
    cut = short_command("./bot " + "--flag " * 20, 30)
    assert cut.startswith("./bot --flag") and cut.endswith("…") and len(cut) == 30
