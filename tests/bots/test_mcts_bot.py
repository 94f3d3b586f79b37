"""MCTS as the hyperparameters agent: its keys in the hyperparameters file, the example file for
every registered game, and whole games through ``arena match`` with the bot as a process (Kuhn
poker with three seats, Goofspiel's simultaneous bids, Connect Four's own protocol)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.agents.hyperparameters import Hyperparameters, check_hyperparameters, load_hyperparameters
from arena.agents.mcts import DEFAULT_EXPLORATION
from arena.cli import cli
from arena.errors import ConfigError
from arena.games.registry import all_game_names

ROOT = Path(__file__).resolve().parents[2]


def test_the_mcts_keys_are_read() -> None:
    hp = check_hyperparameters({"algorithm": "mcts", "iterations": 500, "exploration": 0.7, "moveTimeMs": 40,
                                "seed": 3, "description": "x"}, "kuhn_poker")
    assert hp == Hyperparameters("mcts", move_time_ms=40, seed=3, iterations=500, exploration=0.7)
    assert check_hyperparameters({"algorithm": "mcts"}, "goofspiel").exploration == DEFAULT_EXPLORATION


@pytest.mark.parametrize(("obj", "named"), [
    ({"algorithm": "mcts", "iterations": 0}, "iterations: "),
    ({"algorithm": "mcts", "iterations": 1.5}, "iterations: "),
    ({"algorithm": "mcts", "exploration": -1}, "exploration: "),
    ({"algorithm": "mcts", "exploration": "high"}, "exploration: "),
    ({"algorithm": "mcts", "evaluation": {"centre": 3}}, 'evaluation: not for "algorithm": "mcts"'),
    ({"algorithm": "mcts", "maxDepth": 3}, "maxDepth: not for"),
    ({"algorithm": "mcts", "rollouts": 3}, "rollouts: unknown key"),
    ({"algorithm": "alphabeta", "iterations": 30}, 'iterations: only for "algorithm": "mcts"'),
])
def test_bad_mcts_settings_name_the_key(obj: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        check_hyperparameters(obj, "connect4")


def test_games_without_a_search_adapter_need_mcts() -> None:
    with pytest.raises(ConfigError, match="no search adapter"):
        check_hyperparameters({"algorithm": "alphabeta"}, "kuhn_poker")


@pytest.mark.parametrize("game", all_game_names())
def test_the_example_file_is_valid_for_every_registered_game(game: str) -> None:
    assert load_hyperparameters(ROOT / "examples" / "mcts.json", game).algorithm == "mcts"


def _match(tmp_path: Path, *args: str) -> list[dict[str, Any]]:
    out = tmp_path / "records.json"
    result = CliRunner().invoke(cli, ["match", *args, "-q", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    records = json.loads(out.read_text())
    return records if isinstance(records, list) else [records]


def _settings(tmp_path: Path, iterations: int = 60) -> str:
    path = tmp_path / "mcts.json"
    path.write_text(json.dumps({"algorithm": "mcts", "iterations": iterations, "seed": 5}))
    return str(path)


def test_three_mcts_bots_play_kuhn_poker(tmp_path: Path) -> None:
    mcts = _settings(tmp_path)
    (record,) = _match(tmp_path, "--game", "kuhn_poker", "--players", "3", mcts, mcts, mcts)
    assert record["termination"] == "win" and not record["eliminations"]
    assert sum(record["returns"]) == 0
    assert sum(1 for step in record["steps"] if step["kind"] == "move") >= 3


def test_mcts_bids_in_goofspiel(tmp_path: Path) -> None:
    random_bot = f"python3 {ROOT / 'bots' / 'goofspiel_random.py'} --seed 1"
    (record,) = _match(tmp_path, "--game", "goofspiel", "--param", "num_cards=4", _settings(tmp_path), random_bot)
    assert record["termination"] in ("win", "draw") and not record["eliminations"]
    assert [step["kind"] for step in record["steps"]].count("joint") == 3


def test_mcts_plays_connect4_over_its_own_protocol(tmp_path: Path) -> None:
    random_bot = f"python3 {ROOT / 'bots' / 'connect4_random.py'} --seed 1"
    records = _match(tmp_path, "--game", "connect4", "--games", "2", _settings(tmp_path, 200), random_bot)
    # Two hundred playouts a move beat a random player with either colour.
    assert [r["termination"] for r in records] == ["win", "win"]
    assert [r["winner"] for r in records] == ["BLACK", "WHITE"]


def test_arena_tells_the_bot_the_seats_and_parameters_of_a_game_of_the_general_model() -> None:
    from arena.games.registry import get_spec
    from arena.players import agent_argv
    from arena.players.spec import AgentSpec

    spec = AgentSpec("m", "hyperparameters", path="m.json")
    argv = agent_argv(spec, get_spec("goofspiel").table(3, {"num_cards": 5}))
    assert argv[argv.index("--players") + 1] == "3"
    assert json.loads(argv[argv.index("--params") + 1]) == {"num_cards": 5}
    assert "--players" not in agent_argv(spec, get_spec("connect4").table())
