"""Features that cannot apply to a game say so in one line, with the reason (docs/tables.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli


def arena(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("game", ["kuhn_poker", "leduc_poker", "goofspiel", "love_letter"])
def test_the_learners_need_a_player_with_weights(game: str, tmp_path: Path) -> None:
    code, out = arena("train", "td", "--game", game, "--games", "1", "--out", str(tmp_path / "td"))
    assert code == 2 and out.count("\n") == 1, out
    assert "need a player with weights" in out and "alpha-beta needs two seats taking turns in plain sight" in out
    assert not (tmp_path / "td").exists()


def test_spsa_of_weights_of_a_game_of_seats_is_refused_in_one_line(tmp_path: Path) -> None:
    agent = tmp_path / "agent.json"
    agent.write_text(json.dumps({"algorithm": "alphabeta", "maxDepth": 2}))
    config = tmp_path / "spsa.json"
    config.write_text(json.dumps({"game": "kuhn_poker", "agent": "agent.json", "iterations": 1,
                                  "parameters": {"maxDepth": {"min": 1, "max": 4, "c": 1}}}))
    code, out = arena("tune", "spsa", str(config), "--out", str(tmp_path / "run"))
    assert code == 2 and out.count("\n") == 1, out
    assert "need a player with weights" in out


def test_alpha_beta_needs_two_seats_in_plain_sight_and_names_mcts(tmp_path: Path) -> None:
    agent = tmp_path / "ab.json"
    agent.write_text(json.dumps({"algorithm": "alphabeta", "maxDepth": 2}))
    code, out = arena("match", str(agent), "python3 bots/kuhn_poker_random.py", "--game", "kuhn_poker")
    assert code == 2, out
    line = out.strip().splitlines()[-1]
    assert "alpha-beta needs two seats taking turns in plain sight" in line and '"algorithm": "mcts"' in line


def test_pdn_is_checkers_and_nothing_is_written(tmp_path: Path) -> None:
    source = tmp_path / "kuhn.json"
    code, _ = arena("match", "python3 bots/kuhn_poker_random.py", "python3 bots/kuhn_poker_random.py", "--game",
                    "kuhn_poker", "--seed", "1", "--out", str(source))
    assert code == 0 and json.loads(source.read_text())["record_format"] == 4
    code, out = arena("export", "--pdn", str(source), "-o", str(tmp_path / "x.pdn"))
    assert code == 2 and out.count("\n") == 1 and "has no PDN export (games with one: checkers)" in out
    assert not (tmp_path / "x.pdn").exists()
