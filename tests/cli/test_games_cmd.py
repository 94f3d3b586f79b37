"""`arena games`: the registry as users see it."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games import registry


def test_the_table_lists_every_game_with_its_protocol_cap_and_notation() -> None:
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    lines = result.output.split("\n\n")[0].splitlines()  # the table; the PREFIX:NAME families follow
    assert lines[0].split() == ["NAME", "PROTOCOL", "MAX", "MOVES", "FROM", "NOTATION"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert list(rows) == list(registry.all_game_names())
    for spec in registry.all_specs():
        assert rows[spec.name][1:4] == [spec.protocol_name(), str(spec.default_max_moves), spec.origin]
    assert all(line == line.rstrip() for line in lines)


def test_json_output_and_a_broken_game_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(cli, ["games", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [g["name"] for g in data["games"]] == list(registry.all_game_names())
    assert data["problems"] == {}
    two_player = set(registry.game_names())
    assert all(g["search"] for g in data["games"] if g["name"] in two_player)  # arena's search plays them all
    assert {g["name"]: g["players"] for g in data["games"]}["love_letter"] == [2, 4]
    assert all(g["players"] == [2, 2] and g["model"] == "two-player" for g in data["games"] if g["name"] in two_player)
    monkeypatch.setattr(registry, "BUILTIN_GAMES", {**registry.BUILTIN_GAMES, "nogame": "arena.games.nothing:SPEC"})
    registry.reload()
    try:
        result = CliRunner().invoke(cli, ["games"])
        assert result.exit_code == 1
        assert "arena: cannot use game nogame: cannot import arena.games.nothing" in result.output
        assert "shobu" in result.output  # the others are still listed
    finally:
        monkeypatch.undo()
        registry.reload()


def test_a_referees_command_is_a_line_below_the_table_not_a_column() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "arena", "games", "--rules", "python3 examples/referees/nim.py"],
                          capture_output=True, text=True, cwd=root, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    table = done.stdout.split("\n\n")[0].splitlines()
    nim = next(line for line in table if line.startswith("nim "))
    assert nim.split()[3] == "--rules" and "/" not in nim, nim
    assert f"nim: rules program python3 {root / 'examples' / 'referees' / 'nim.py'}" in table
