"""`arena sprt` of two Leduc poker bots, as docs/sprt.md writes it, and what the pair's shared
chance seed cancels in real records (the same deal, seats swapped)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.sprt_cmd import sprt_command
from arena.sprt.run import EXIT_H0, EXIT_H1, EXIT_UNDECIDED, pair_score

ROOT = Path(__file__).resolve().parents[2]


def docs_command() -> list[str]:
    """The Leduc poker SPRT of docs/sprt.md, as written there."""
    text = (ROOT / "docs" / "sprt.md").read_text()
    line = next(line for line in re.findall(r"^\$ (arena sprt .*)$", text, re.MULTILINE) if "leduc_poker" in line)
    return shlex.split(line)[2:]


def deals(record: dict) -> list[int]:
    """A record's chance outcomes in order (private cards, then the public card)."""
    return [step["outcome"] for step in record["steps"] if step["kind"] == "chance"]


def test_the_docs_leduc_sprt_decides_and_every_pair_is_a_duplicate_deal(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)  # the bots' paths are the docs', from the repository root
    args = [a.replace("/tmp/", f"{tmp_path}/") for a in docs_command()]
    result = CliRunner().invoke(sprt_command, [*args, "--max-pairs", "60", "--json"])
    assert result.exit_code in (EXIT_H1, EXIT_H0, EXIT_UNDECIDED), result.output
    assert "Traceback" not in result.output
    summary = json.loads(result.stdout)
    folder = tmp_path / "sprt-leduc"
    state = json.loads((folder / "sprt.json").read_text())
    assert state["stopped"] == summary["stopped"] == {EXIT_H1: "H1", EXIT_H0: "H0"}.get(result.exit_code, "max-pairs")
    scores = []
    for pair in state["pairs"]:
        first, second = (json.loads((folder / "games" / f"{2 * pair['pair'] + k:05d}.json").read_text())
                         for k in (0, 1))
        # NEW at seat 0, then at seat 1; one seed; the same cards for the same seat in both games.
        assert first["seats"][0]["id"] == second["seats"][1]["id"] == "leduc_poker_heuristic"
        assert first["seed"] == second["seed"]
        one, two = deals(first), deals(second)
        assert one[:2] == two[:2]  # the private cards: each bot gets each seat's card once
        if len(one) == len(two) == 3:
            assert one[2] == two[2]  # the public card follows the same cards left
        scores.append(pair_score((first, second)))
        assert pair["score"] == scores[-1]
    assert summary["pairs"] == len(scores) >= 1
    assert summary["pentanomial"] == [scores.count(k / 2) for k in range(5)]


def test_scoring_by_returns_is_a_duplicate_match() -> None:
    won = {"record_format": 3, "returns": [3, -3], "ranks": [1, 2]}  # NEW at seat 0 wins 3 chips
    lost = {"record_format": 3, "returns": [1, -1], "ranks": [1, 2]}  # NEW at seat 1 loses 1 chip
    assert pair_score((won, lost), "returns") == 2.0  # +3 - 1 over the pair
    assert pair_score((won, lost)) == 1.0  # by ranks: one game each
    assert pair_score(({"returns": [1, -1]}, {"returns": [1, -1]}), "returns") == 1.0
    assert pair_score(({"returns": [-2, 2]}, {"returns": [1, -1]}), "returns") == 0.0


def test_score_returns_is_refused_for_a_two_player_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(sprt_command, ["python3 bots/connect4_random.py", "python3 bots/connect4_random.py",
                                               "--game", "connect4", "--score", "returns", "--logs", str(tmp_path)])
    assert result.exit_code == 2
    assert "has no returns" in result.output and "Traceback" not in result.output


def test_a_config_scores_by_returns_for_a_game_of_seats_and_refuses_it_for_two_players(tmp_path: Path) -> None:
    from arena.errors import ConfigError
    from arena.sprt.config import sprt_settings
    from arena.tournament.config import parse_config

    agents = [{"type": "executable", "id": "h", "path": "python3 bots/leduc_poker_heuristic.py"},
              {"type": "executable", "id": "r", "path": "python3 bots/leduc_poker_random.py"}]
    obj = {"id": "s", "game": "leduc_poker", "players": 2, "agents": agents, "sprt": {"elo1": 100, "score": "returns"}}
    settings = sprt_settings(parse_config(obj, base_dir=ROOT), None, {})
    assert settings.score == "returns" and settings.identity()["score"] == "returns"
    with pytest.raises(ConfigError, match=r"sprt\.score: connect4 is a two-player game.*has no returns"):
        parse_config({**obj, "game": "connect4", "players": None}, base_dir=ROOT)
