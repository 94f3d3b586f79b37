"""`arena standings LOGDIR [--json]`: the whole standings object on stdout with --json, the tables
otherwise (two-player from a real folder; N-seat from the object the folder's reader returns)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from standings_fixtures import seat_standings, synthetic_seat_rows

from arena.cli.standings_cmd import standings_command


def two_player_folder(folder: Path) -> Path:
    folder.mkdir()
    rows = [{"index": i, "pair": i // 2, "black": b, "white": w, "winner": winner, "termination": "win",
             "reason": "", "plies": 10}
            for i, (b, w, winner) in enumerate([("a", "b", "BLACK"), ("b", "a", "WHITE"), ("a", "c", "NONE"),
                                                ("c", "a", "WHITE"), ("b", "c", "BLACK"), ("c", "b", "BLACK")])]
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def test_json_is_the_whole_two_player_object(tmp_path: Path) -> None:
    folder = two_player_folder(tmp_path / "t")
    result = CliRunner().invoke(standings_command, [str(folder), "--json", "--bootstrap", "20"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"games", "model", "first_move_elo", "standings", "crosstable", "terminations", "agents"} <= set(data)
    assert data["games"] == 6 and data["standings"][0]["id"] == "a"
    result = CliRunner().invoke(standings_command, [str(folder), "--bootstrap", "20"], catch_exceptions=False)
    assert result.exit_code == 0 and "Crosstable" in result.stdout and "W-D-L" in result.stdout


def test_json_and_tables_of_n_seat_standings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agents = [f"p{i}" for i in range(40)]
    standings = seat_standings(synthetic_seat_rows(agents, 200, 3), agents)

    def from_folder(folder: Path, samples: int, ratings: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
        return standings, {"p0": {"games": 1, "wins": 1}}

    monkeypatch.setattr("arena.cli.standings_cmd.standings_from_folder", from_folder)
    result = CliRunner().invoke(standings_command, [str(tmp_path), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {**standings, "agents": {"p0": {"games": 1, "wins": 1}}}
    result = CliRunner().invoke(standings_command, [str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    text = result.stdout
    # Not a terminal: the tables are whole, the crosstable of all 40 agents included (no top pairs).
    assert "avg rank" in text and "Seats" in text and "Top pairs" not in text
    assert all(f" p{i} " in text for i in range(40)) and max(len(line) for line in text.splitlines()) > 120
    assert f"arena standings {tmp_path} --json" not in " ".join(text.split())  # nothing dropped to point at
