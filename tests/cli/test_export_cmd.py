"""`arena export --pdn`: record files, arrays, tournament log folders; errors in one line."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.export_cmd import export_command
from arena.games.checkers.rules import CheckersGame
from arena.games.registry import all_specs

GAME = CheckersGame()


def _record(seed: int, plies: int = 12, game_index: int | None = None) -> dict[str, Any]:
    """A checkers record of ``plies`` random moves (no bots needed)."""
    rng = random.Random(seed)
    state = GAME.initial_state()
    states, turns = [GAME.state_to_json(state)], []
    for _ in range(plies):
        move = rng.choice(GAME.legal_moves(state))
        turns.append(GAME.move_to_record(move))
        state = GAME.apply(state, move)
        states.append(GAME.state_to_json(state))
    return {"game": "checkers", "winner": "NONE", "termination": "max_moves", "reason": "draw",
            "players": [{"id": f"b{seed}", "colour": "BLACK"}, {"id": f"w{seed}", "colour": "WHITE"}],
            "turns": turns, "game_states": states, "plies": plies, "game_index": game_index,
            "started_at": "2026-11-22T10:00:00.000Z"}


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


def _run(*args: str) -> Any:
    return CliRunner().invoke(export_command, list(args), catch_exceptions=False)


def _events(text: str, tag: str) -> list[str]:
    return re.findall(rf'^\[{tag} "([^"]*)"\]$', text, flags=re.MULTILINE)


def test_a_record_file_and_an_array_file_go_to_stdout_in_order(tmp_path: Path) -> None:
    one = _write(tmp_path / "one.json", _record(1))
    many = _write(tmp_path / "many.json", [_record(2), _record(3), _record(4)])
    result = _run("--pdn", str(one), str(many))
    assert result.exit_code == 0, result.output
    assert _events(result.output, "Black") == ["b1", "b2", "b3", "b4"]
    assert _events(result.output, "Event") == ["arena match"] * 4
    assert result.output.count("\n\n[Event ") == 3  # one blank line between games
    assert result.output.endswith("1/2-1/2\n")


def test_a_tournament_folder_in_game_order_with_its_id_as_event(tmp_path: Path) -> None:
    logs = tmp_path / "tournament_logs" / "t1"
    _write(logs / "config.json", {"id": "spring-cup", "game": "checkers"})
    for index in (10, 2, 9):  # written out of order, as a concurrent run finishes them
        _write(logs / "games" / f"{index:05d}.json", _record(index, game_index=index))
    (logs / "games" / ".00011.json.123.tmp").write_text("half a rec")  # a write cut short: ignored
    _write(logs / "standings.json", {"not": "a record"})  # derived files are not records
    result = _run("--pdn", str(logs))
    assert result.exit_code == 0, result.output
    assert _events(result.output, "Round") == ["3", "10", "11"]
    assert _events(result.output, "Event") == ["spring-cup"] * 3
    (logs / "config.json").unlink()  # without its config, the folder's name
    assert set(_events(_run("--pdn", str(logs)).output, "Event")) == {"t1"}


def test_a_folder_of_record_files(tmp_path: Path) -> None:
    _write(tmp_path / "b.json", _record(2))
    _write(tmp_path / "a.json", [_record(1)])
    result = _run("--pdn", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert _events(result.output, "Black") == ["b1", "b2"]


def test_output_file_is_written_whole(tmp_path: Path) -> None:
    source = _write(tmp_path / "r.json", [_record(1), _record(2)])
    out = tmp_path / "games.pdn"
    out.write_text("old")
    result = _run("--pdn", str(source), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote 2 games to {out}" in result.output
    assert out.read_text().startswith('[Event "arena match"]')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pdn", "r.json"]  # no temporary file left
    result = _run("--pdn", str(source), "-o", str(tmp_path / "missing" / "x.pdn"))
    assert result.exit_code == 1
    assert result.output.startswith("arena: error: cannot write ") and result.output.count("\n") == 1


def test_a_game_without_pdn_is_an_error_naming_it(tmp_path: Path) -> None:
    other = next(spec.name for spec in all_specs() if spec.pdn is None)
    source = _write(tmp_path / "r.json", [_record(1), {**_record(2), "game": other}])
    result = _run("--pdn", str(source))
    assert result.exit_code == 2
    with_pdn = ", ".join(spec.name for spec in all_specs() if spec.pdn)
    assert result.output == (f"arena: error: {source}[1]: game {other!r} has no PDN export "
                             f"(games with one: {with_pdn})\n")


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "not JSON"),
    ("42", "not a game record"),
    ("[1]", "[0]: not a game record"),
    ('{"winner": "NONE"}', "not a game record (no 'game', 'turns', 'game_states', 'termination')"),
    ("GAME=no_such_game", "unknown game 'no_such_game'"),
    ('{"a": 1, "a": 2}', "the key 'a' appears twice"),
    ("WINNER={}", "'winner' must be BLACK, WHITE or NONE, got {}"),
    ("[" * 100 + "]" * 100, "nested more than 64 levels deep"),
])
def test_bad_sources_exit_2_with_one_line(tmp_path: Path, content: str, words: str) -> None:
    source = tmp_path / "bad.json"
    if "=" in content:  # a whole record with one field changed
        key, value = content.split("=")
        content = json.dumps({**_record(1), key.lower(): json.loads(value) if value == "{}" else value})
    source.write_text(content)
    result = _run("--pdn", str(source))
    assert result.exit_code == 2
    assert result.output.startswith(f"arena: error: {source}") and words in result.output
    assert result.output.count("\n") == 1


def test_inconsistent_record_and_missing_paths(tmp_path: Path) -> None:
    record = _record(1)
    record["turns"][3] = {"path": [[0, 0], [1, 1]]}
    source = _write(tmp_path / "r.json", record)
    result = _run("--pdn", str(source))
    assert result.exit_code == 2
    assert "turns[3] does not follow from the position before it" in result.output
    result = _run("--pdn", str(tmp_path / "nothing.json"))
    assert result.exit_code == 2 and "no such file or folder" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = _run("--pdn", str(empty))
    assert result.exit_code == 2 and "no record files" in result.output
    (empty / "games").mkdir()
    result = _run("--pdn", str(empty))
    assert result.exit_code == 2 and "no game records" in result.output


def test_the_format_must_be_given(tmp_path: Path) -> None:
    source = _write(tmp_path / "r.json", _record(1))
    result = CliRunner().invoke(export_command, [str(source)])
    assert result.exit_code == 2
    assert "--pdn" in result.output
