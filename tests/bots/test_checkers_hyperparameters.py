"""The checkers system's agent files run as they are (issue 11 item 6): its hyperparameters files load
with the documented translation and a one-line warning per key arena cannot honour, its
``default_tournament.json`` loads unchanged and runs end to end through ``arena run``.

The files under tests/data/checkers_system/ are the checkers system's, written from their contents:
``default_tournament.json`` and ``data/default_hyperparameters.json`` (its latest version), plus the
earlier key set with ``operation_limit`` and the agent its code embeds (``reorder_moves`` false)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.agents.checkers_hyperparameters import CHECKERS_SYSTEM_DEFAULTS, is_checkers_system_format
from arena.agents.eval_checkers import CheckersSearch
from arena.agents.hyperparameters import check_hyperparameters, load_hyperparameters
from arena.errors import ConfigError
from arena.tournament.config import load_config

ROOT = Path(__file__).resolve().parents[2]
CHECKERS_SYSTEM = ROOT / "tests" / "data" / "checkers_system"
GAME = "checkers"
OFF = {"advance": 0, "backRank": 0, "centre": 0, "mobility": 0, "trade": 0, "hunt": 0}
KING_28 = "'king_table' has 28 entries for 32 squares: entries 28-31 count as 0"


def load(name: str) -> tuple[Any, list[str]]:
    warnings: list[str] = []
    hp = load_hyperparameters(CHECKERS_SYSTEM / "data" / name, GAME, warn=warnings.append)
    return hp, warnings


def check(obj: dict[str, Any]) -> tuple[Any, list[str]]:
    warnings: list[str] = []
    return check_hyperparameters(obj, GAME, "hp", warnings.append), warnings


def test_the_latest_default_file() -> None:
    hp, warnings = load("default_hyperparameters.json")
    assert (hp.algorithm, hp.max_depth, hp.move_time_ms, hp.transposition_table) == ("alphabeta", 10, 1000, False)
    raw = json.loads((CHECKERS_SYSTEM / "data" / "default_hyperparameters.json").read_text())
    assert hp.evaluation == {**OFF, "man": 100, "king": 1000,  # values times diff_multiplier 100
                             "manTable": tuple(raw["pawn_table"]),  # times pawn_value 1
                             "kingTable": tuple(10 * v for v in raw["king_table"]) + (0, 0, 0, 0)}
    assert len(warnings) == 1 and KING_28 in warnings[0] and "\n" not in warnings[0]


def test_the_operation_limit_version() -> None:
    hp, warnings = load("default_hyperparameters_operation_limit.json")
    assert (hp.algorithm, hp.max_depth, hp.move_time_ms) == ("alphabeta", 5, None)  # time from the clock
    assert [w.split(": ", 1)[1][:18] for w in warnings] == ["'operation_limit' ", KING_28[:18]]


def test_the_agent_embedded_in_the_checkers_system_code() -> None:
    hp, warnings = load("current_agent_config.json")
    assert (hp.max_depth, hp.move_time_ms, hp.transposition_table) == (20, 500, True)
    assert hp.evaluation["man"] == 100 and hp.evaluation["king"] == 100
    assert any("'reorder_moves' false ignored" in w for w in warnings)


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        ({"search_algorithm": 0}, {"algorithm": "random"}),
        ({"search_algorithm": 1, "use_alpha_beta": False}, {"algorithm": "minimax"}),
        ({"use_cache": True}, {"transposition_table": True}),
        ({"use_cache": True, "use_transposition_table": False}, {"transposition_table": False}),
        ({"max_depth": 3}, {"max_depth": 3}),
        ({"move_time_limit": 250}, {"move_time_ms": 250}),
    ],
)
def test_search_keys(obj: dict[str, Any], expected: dict[str, Any]) -> None:
    hp, _ = check(obj)
    for name, value in expected.items():
        assert getattr(hp, name) == value


def test_basic_evaluation_is_material_only() -> None:
    hp, warnings = check({"evaluation_algorithm": 0, "pawn_value": 3, "king_value": 5})
    assert hp.evaluation == {**OFF, "man": 3, "king": 5}
    assert warnings == []


@pytest.mark.parametrize(
    ("obj", "says"),
    [
        ({"operation_limit": 1000}, "'operation_limit' ignored"),
        ({"debug_bit": 1}, "'debug_bit' ignored"),
        ({"reorder_moves": False}, "'reorder_moves' false ignored"),
        ({"max_depth": 999}, "'max_depth' 999 searched as 64"),
        ({"search_algorithm": 7}, "'search_algorithm' 7 is not 0, 1 or 2"),
        ({"pawn_value": 1, "king_dist": 2}, "'king_dist' is not a key of the checkers system"),
        ({"pawn_table": list(range(33))}, "'pawn_table' has 33 entries for 32 squares: the last 1 are ignored"),
    ],
)
def test_what_arena_cannot_honour_is_a_one_line_warning(obj: dict[str, Any], says: str) -> None:
    _, warnings = check({**obj, "king_table": [0] * 32})
    assert len(warnings) == 1 and says in warnings[0] and "\n" not in warnings[0]


@pytest.mark.parametrize(
    ("obj", "says"),
    [
        ({"max_depth": "5"}, "checkers-system key 'max_depth' must be an integer"),
        ({"max_depth": 0}, "checkers-system key 'max_depth' must be at least 1"),
        ({"use_alpha_beta": 1}, "checkers-system key 'use_alpha_beta' must be true or false"),
        ({"pawn_table": [1, "x"]}, "checkers-system key 'pawn_table' must be a list of integers"),
        ({"pawn_value": 5000}, "pawn_value * diff_multiplier gives the weight 500000"),
    ],
)
def test_wrong_checkers_system_values_are_errors(obj: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError, match=says.replace("*", r"\*")):
        check(obj)


def test_arena_format_stays_strict() -> None:
    assert not is_checkers_system_format({"maxDepth": 3, "pawn_value": 1})
    with pytest.raises(ConfigError, match="pawn_value: unknown key"):
        check({"maxDepth": 3, "pawn_value": 1})
    with pytest.raises(ConfigError, match="manTable: must be a list of 32 integers"):
        check({"evaluation": {"manTable": [1, 2]}})
    assert check({"evaluation": {"manTable": [1] * 32}})[0].evaluation == {"manTable": (1,) * 32}


def test_checkers_system_files_are_for_a_game_with_tables() -> None:
    with pytest.raises(ConfigError, match="need a game whose search evaluation has men, kings"):
        check_hyperparameters(CHECKERS_SYSTEM_DEFAULTS, "shobu", "hp", lambda _: None)


def test_warnings_go_to_stderr_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    load_hyperparameters(CHECKERS_SYSTEM / "data" / "default_hyperparameters_operation_limit.json", GAME)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith("warning: hyperparameters file ") for line in lines)


def test_piece_square_tables_score_each_side_from_its_own_view() -> None:
    table = [0] * 32
    table[9] = 7  # White's view: square index 9; a black man scores it on 31 - 9 = 22
    search = CheckersSearch({**OFF, "manTable": table})
    plain = CheckersSearch(OFF)
    white_on_9 = search.position(black=1 << 0, white=1 << 9, kings=0, black_to_move=False, turn_number=0)
    black_on_22 = search.position(black=1 << 22, white=1 << 31, kings=0, black_to_move=True, turn_number=0)
    assert search.evaluate(white_on_9) - plain.evaluate(white_on_9) == 7
    assert search.evaluate(black_on_22) - plain.evaluate(black_on_22) == 7
    mirrored = search.position(black=1 << 22, white=1 << 9, kings=0, black_to_move=True, turn_number=0)
    assert search.evaluate(mirrored) == plain.evaluate(mirrored)  # both sides on their square 9


def test_the_unchanged_tournament_file_loads() -> None:
    config = load_config(CHECKERS_SYSTEM / "default_tournament.json")
    assert (config.id, config.game, config.tournament_type) == ("test", GAME, "roundRobin")
    assert (config.time_limit_ms, config.max_moves, config.visualize) == (100000, 100, False)
    assert [(a.id, a.type) for a in config.agents] == [("hyp1", "hyperparameters"), ("player1", "player")]
    assert config.agents[0].path == str(CHECKERS_SYSTEM / "data" / "default_hyperparameters.json")


def run(config: Path, logs: Path) -> subprocess.CompletedProcess[str]:
    # stdin closed: the checkers system's player1 is a person; with nobody at the terminal they resign.
    return subprocess.run([sys.executable, "-m", "arena", "run", str(config), "--logs", str(logs), "--json"],
                          check=False, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, cwd=ROOT)


def games(logs: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (logs / "test" / "games.jsonl").read_text().splitlines()]


def test_the_unchanged_checkers_system_tournament_runs(tmp_path: Path) -> None:
    done = run(CHECKERS_SYSTEM / "default_tournament.json", tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["complete"] and summary["games_finished"] == 2
    assert summary["agents"]["hyp1"]["wins"] == 2
    assert done.stderr.count(KING_28) == 1  # checked once before the games, not per game
    assert "unknown key" not in done.stderr
    assert len(games(tmp_path)) == 2


def test_a_short_copy_plays_whole_games(tmp_path: Path) -> None:
    """The same files with a bot in place of the person, 10 ms a move and 12 plies (test-only)."""
    hyper = json.loads((CHECKERS_SYSTEM / "data" / "default_hyperparameters.json").read_text())
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "default_hyperparameters.json").write_text(json.dumps({**hyper, "move_time_limit": 10}))
    config = json.loads((CHECKERS_SYSTEM / "default_tournament.json").read_text())
    config["agents"][1] = {"type": "executable", "id": "player1",
                           "path": f"{sys.executable} {ROOT / 'bots' / 'checkers_random.py'}"}
    config["maxMoves"] = 12
    (tmp_path / "t.json").write_text(json.dumps(config))
    done = run(tmp_path / "t.json", tmp_path / "logs")
    assert done.returncode == 0, done.stderr[-2000:]
    played = games(tmp_path / "logs")
    assert len(played) == 2
    # Every game is played out to the cap or won over the board: no time-outs, no illegal moves.
    assert all(g["plies"] == 12 or g["termination"] in ("win", "no_legal_moves") for g in played), played
