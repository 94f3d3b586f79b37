"""The hyperparameters file of the search agent: every key, every error, the shipped examples, and
the agent as a process (one-line errors with exit status 2, a move for a valid file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.agents.hyperparameters import Hyperparameters, check_hyperparameters, load_hyperparameters
from arena.errors import ConfigError
from arena.games import game_names, get_game

ROOT = Path(__file__).resolve().parents[2]
SHOBU_STATE = {"board": "oooooooo................xxxxxxxxoooooooo................xxxxxxxx", "turn": "BLACK",
               "turnNumber": 0}


def write(tmp_path: Path, obj: object, name: str = "hyp.json") -> Path:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return path


def test_an_empty_object_gives_the_defaults() -> None:
    assert check_hyperparameters({}, "checkers") == Hyperparameters()


def test_every_key_is_read() -> None:
    hp = check_hyperparameters(
        {"algorithm": "minimax", "maxDepth": 3, "moveTimeMs": 250, "evaluation": {"king": 170},
         "transpositionTable": False, "seed": 9, "description": "x"},
        "checkers",
    )
    assert hp == Hyperparameters("minimax", 3, 250, {"king": 170}, False, 9)


@pytest.mark.parametrize(
    ("obj", "game", "named"),
    [
        ({"depth": 3}, "checkers", "depth: unknown key"),
        ({"algorithm": "uct"}, "checkers", "algorithm: "),
        ({"algorithm": 1}, "checkers", "algorithm: "),
        ({"maxDepth": 0}, "checkers", "maxDepth: "),
        ({"maxDepth": 65}, "checkers", "maxDepth: "),
        ({"maxDepth": 2.5}, "checkers", "maxDepth: "),
        ({"maxDepth": "3"}, "checkers", "maxDepth: "),
        ({"maxDepth": True}, "checkers", "maxDepth: "),
        ({"moveTimeMs": 0}, "shobu", "moveTimeMs: "),
        ({"moveTimeMs": 600001}, "shobu", "moveTimeMs: "),
        ({"moveTimeMs": 100.5}, "shobu", "moveTimeMs: "),
        ({"evaluation": [1, 2]}, "checkers", "evaluation: "),
        ({"evaluation": {"stone": 100}}, "checkers", "evaluation.stone: unknown checkers weight"),  # a Shobu weight in checkers
        ({"evaluation": {"king": 150}}, "shobu", "evaluation.king: unknown shobu weight"),  # a checkers weight in Shobu
        ({"evaluation": {"king": "big"}}, "checkers", "evaluation.king: "),
        ({"evaluation": {"king": 1.5}}, "checkers", "evaluation.king: "),
        ({"evaluation": {"king": False}}, "checkers", "evaluation.king: "),
        ({"evaluation": {"man": 100001}}, "checkers", "evaluation.man: "),
        ({"transpositionTable": "yes"}, "checkers", "transpositionTable: "),
        ({"transpositionTable": 1}, "checkers", "transpositionTable: "),
        ({"seed": "7"}, "checkers", "seed: "),
        ({"seed": 1.5}, "checkers", "seed: "),
        ({"description": 3}, "checkers", "description: "),
    ],
)
def test_each_mistake_is_a_config_error_naming_the_key(obj: dict, game: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        check_hyperparameters(obj, game)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[1, 2]", "must be a JSON object"),
        ("{\"maxDepth\": 3,", "not valid JSON"),
        ("{\"seed\": 1, \"seed\": 2}", "'seed' appears twice"),
        ("\"alphabeta\"", "must be a JSON object"),
    ],
)
def test_file_level_mistakes(tmp_path: Path, text: str, problem: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=problem) as caught:
        load_hyperparameters(path, "checkers")
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_missing_file_and_unknown_game(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_hyperparameters(tmp_path / "absent.json", "checkers")
    with pytest.raises(ConfigError, match="unknown game"):
        load_hyperparameters(write(tmp_path, {}), "chess")


def test_game_objects_are_accepted_and_the_examples_load() -> None:
    for name in game_names():  # every game with a search adapter ships an example file
        hp = load_hyperparameters(ROOT / "configs" / f"hyperparameters_{name}.json", get_game(name))
        assert hp.algorithm == "alphabeta"
    for path in sorted((ROOT / "configs").glob("hyp_*.json")):
        obj = json.loads(path.read_text())
        if "agents" in obj:
            continue  # a tournament config that uses the hyperparameters files
        game = "shobu" if "shobu" in path.name else "checkers"
        load_hyperparameters(path, game)


def run_agent(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.agents.search_bot", *args], input=stdin,
                          capture_output=True, text=True, check=False, timeout=60, cwd=ROOT)


def test_agent_process_reports_a_bad_file_in_one_line_with_status_2(tmp_path: Path) -> None:
    path = write(tmp_path, {"maxDepth": 100})
    done = run_agent(["--game", "checkers", "--hyperparameters", str(path)], "")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "maxDepth: " in lines[0] and "Traceback" not in done.stderr


def test_agent_process_reports_bad_arguments_in_one_line_with_status_2() -> None:
    done = run_agent(["--game", "chess", "--hyperparameters", "x.json"], "")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_agent_process_plays_shobu_and_checkers(tmp_path: Path) -> None:
    path = write(tmp_path, {"algorithm": "alphabeta", "maxDepth": 2, "seed": 1})
    message = json.dumps({"type": "game_state", "payload": SHOBU_STATE}) + "\n"
    done = run_agent(["--game", "shobu", "--hyperparameters", str(path)], message)
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    shobu = get_game("shobu")
    shobu.play_wire(shobu.state_from_json(SHOBU_STATE), reply["payload"])

    checkers = get_game("checkers")
    start = checkers.initial_state()
    text = "10000\nblack\n10000\n" + "\n".join(checkers.board_lines(start)) + "\n"
    done = run_agent(["--game", "checkers", "--hyperparameters", str(path)], text)
    assert done.returncode == 0, done.stderr
    checkers.play_wire(start, done.stdout.strip())
