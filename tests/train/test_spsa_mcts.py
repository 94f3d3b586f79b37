"""SPSA of the MCTS agent's settings, for any game (arena/train/spsa_mcts.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.errors import ConfigError
from arena.train.spsa import load_spsa_config, read_history, run_spsa
from arena.train.spsa_mcts import play_mcts_probe

START = {"algorithm": "mcts", "iterations": 30, "exploration": 1.0, "seed": 1}


def _config(tmp_path: Path, agent: dict | None = None, **changes: object) -> Path:
    (tmp_path / "start.json").write_text(json.dumps(START if agent is None else agent))
    obj = {"game": "kuhn_poker", "agent": "start.json", "iterations": 3, "pairs": 2, "seed": 3,
           "parameters": {"exploration": {"min": 0.05, "max": 4, "c": 0.3},
                          "iterations": {"start": 20, "min": 5, "max": 200, "c": 10}}}
    obj.update(changes)
    path = tmp_path / "spsa.json"
    path.write_text(json.dumps(obj))
    return path


def test_a_config_of_the_mcts_agent_tunes_floats_and_integers_for_a_game_of_seats(tmp_path: Path) -> None:
    config = load_spsa_config(_config(tmp_path))
    assert [(p.key, p.start, p.type) for p in config.parameters] == [("exploration", 1.0, "float"),
                                                                    ("iterations", 20.0, "int")]
    theta = run_spsa(config, tmp_path / "run")
    history = read_history(tmp_path / "run")
    assert [line["k"] for line in history] == [0, 1, 2]
    assert all(-1.0 <= line["y"] <= 1.0 for line in history)
    tuned = json.loads((tmp_path / "run" / "tuned.json").read_text())
    assert tuned["algorithm"] == "mcts" and tuned["exploration"] == round(theta["exploration"], 4)
    assert isinstance(tuned["iterations"], int) and tuned["iterations"] == round(theta["iterations"])
    # The same command resumes and goes on.
    more = run_spsa(config, tmp_path / "run", iterations=4)
    assert [line["k"] for line in read_history(tmp_path / "run")] == [0, 1, 2, 3] and set(more) == set(theta)


def test_a_probe_is_reproducible_and_more_playouts_beat_fewer() -> None:
    agent = {"algorithm": "mcts", "seed": 1}
    strong, weak = {"iterations": 300.0}, {"iterations": 1.0}
    first = play_mcts_probe("connect4", agent, strong, weak, pairs=2, opening_plies=2, seed=5)
    assert first == play_mcts_probe("connect4", agent, strong, weak, pairs=2, opening_plies=2, seed=5)
    assert first > 0.5  # 300 playouts a move against one: the stronger side scores most of the games
    assert play_mcts_probe("connect4", agent, weak, strong, pairs=2, opening_plies=2, seed=5) < -0.5


@pytest.mark.parametrize(("change", "message"), [
    ({"parameters": {"maxDepth": {"min": 1, "max": 4, "c": 1}}}, "not a tunable key of the MCTS agent"),
    ({"openings": "book.jsonl"}, "openings: not for the MCTS agent"),
])
def test_mistakes_of_an_mcts_config_are_one_line(tmp_path: Path, change: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_spsa_config(_config(tmp_path, **change))


def test_an_mcts_file_whose_search_would_not_stop_is_refused(tmp_path: Path) -> None:
    path = _config(tmp_path, agent={"algorithm": "mcts"},
                   parameters={"exploration": {"min": 0.05, "max": 4, "c": 0.3}})
    result = CliRunner().invoke(cli, ["tune", "spsa", str(path), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "must set iterations or moveTimeMs" in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
