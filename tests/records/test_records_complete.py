"""Complete records (issue 10): every record replays from the game's true start, random opening
plies included and marked, each turn with its notation and the mover's clock; the format is the
published JSON Schema; old records still read.

The records come from real `arena match --opening-plies 4` runs between random bots, one per
registered game; the same records go through `arena pass-through` from the initial state.
"""

from __future__ import annotations

import copy
import json
import random
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from helpers import as_format_1

from arena.cli import cli
from arena.cli.match_cmd import match_command
from arena.games.base import MoveSyntaxError, Termination, random_opening, random_opening_moves
from arena.games.registry import game_names, get_game
from arena.records.check import check_record
from arena.records.format import (
    RECORD_FORMAT,
    SCHEMA_PATH,
    TURN_KEYS,
    VALIDATE_ENV,
    RecordFormatError,
    turn_entry,
    turn_move,
    validate_record,
)
from arena.records.normal import record_format

# A random player for any registered game, through the bot side of the game's own protocol.
RANDOM_BOT = r"""
import random, sys
from arena.agents.parts import bot_side_ref
from arena.games.registry import get_spec, load_ref
spec = get_spec(sys.argv[1])
game = spec.rules_object()
serve = load_ref(bot_side_ref(spec))
rng = random.Random(int(sys.argv[2]))
sys.exit(serve(game, lambda request: rng.choice(game.legal_moves(request.state)), name="random"))
"""

OPENING = 4


def random_bot(game_name: str, seed: int) -> str:
    return shlex.join([sys.executable, "-c", RANDOM_BOT, game_name, str(seed)])


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """Two games of every registered game from `arena match --opening-plies 4 --seed 7`."""
    folder = tmp_path_factory.mktemp("records")
    found: dict[str, list[dict[str, Any]]] = {}
    for name in game_names():
        out = folder / f"{name}.json"
        result = CliRunner().invoke(match_command, [
            random_bot(name, 1), random_bot(name, 2), "--game", name, "--games", "2", "--seed", "7",
            "--opening-plies", str(OPENING), "--time-limit", "60000", "--quiet", "--out", str(out),
        ], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        found[name] = json.loads(out.read_text())
    return found


def test_the_tests_validate_every_record() -> None:
    import os

    assert os.environ.get(VALIDATE_ENV) == "1"  # tests/conftest.py: every record built is validated


def test_records_of_every_game_match_the_schema_and_check_out(records: dict[str, list[dict[str, Any]]]) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))
    assert set(records) == set(game_names())
    for name, games in records.items():
        game = get_game(name)
        for record in games:
            assert list(validator.iter_errors(record)) == [], name
            validate_record(record)
            assert check_record(record) == [], name
            assert record["record_format"] == RECORD_FORMAT
            assert record["game_states"][0] == game.state_to_json(game.initial_state())
            opening = [t for t in record["turns"] if t["opening"]]
            assert len(opening) == record["opening_plies"] == OPENING
            assert all(not t["opening"] for t in record["turns"][OPENING:])
            assert record["plies"] == len(record["turns"]) == len(record["game_states"]) - 1
            assert record["move_times_ms"] == [t["charged_ms"] for t in record["turns"][OPENING:]]
            for i, turn in enumerate(record["turns"]):
                assert set(TURN_KEYS) <= set(turn)
                move = turn_move(game, turn)
                assert turn["notation"] == game.describe_move(move)
                # The move written is the one played: it leads to the next recorded state.
                state = game.state_from_json(record["game_states"][i])
                assert game.state_to_json(game.apply(state, move)) == record["game_states"][i + 1]


def test_opening_is_the_seeds_random_opening(records: dict[str, list[dict[str, Any]]]) -> None:
    for name, (first, second) in records.items():
        game = get_game(name)
        assert first["turns"][:OPENING] == second["turns"][:OPENING]  # one opening per colour-swapped pair
        moves = random_opening_moves(game, OPENING, random.Random(first["seed"]))
        assert [turn_move(game, t) for t in first["turns"][:OPENING]] == moves
        after = random_opening(game, OPENING, random.Random(first["seed"]))
        assert first["game_states"][OPENING] == game.state_to_json(after)


def test_clock_fields_follow_the_time_control(records: dict[str, list[dict[str, Any]]]) -> None:
    for games in records.values():
        for record in games:
            limit = record["time_control"]["timeLimit"]
            left = {"BLACK": float(limit), "WHITE": float(limit)}
            for i, turn in enumerate(record["turns"]):
                mover = record["game_states"][i]["turn"]
                if turn["opening"]:
                    assert turn["charged_ms"] is None and turn["clock_left_ms"] is None
                    continue
                left[mover] = max(0.0, left[mover] - turn["charged_ms"])
                assert turn["clock_left_ms"] == pytest.approx(left[mover], abs=0.1)
            if record["termination"] not in ("timeout",):
                assert record["clocks_left_ms"] == pytest.approx([left["BLACK"], left["WHITE"]], abs=0.1)


def test_records_replay_from_the_start_through_pass_through(records: dict[str, list[dict[str, Any]]]) -> None:
    """Feed {"turn": wire form, "game_state": states[i]} for every turn from the initial state."""
    for name, games in records.items():
        game = get_game(name)
        for record in games:
            states = record["game_states"]
            assert states[0] == game.state_to_json(game.initial_state())
            lines = [json.dumps({"turn": game.move_to_wire(turn_move(game, turn)), "game_state": states[i]})
                     for i, turn in enumerate(record["turns"])]
            result = CliRunner().invoke(cli, ["pass-through", "--game", name], input="\n".join(lines) + "\n",
                                        catch_exceptions=False)
            assert result.exit_code == 0, result.output
            replies = [json.loads(line) for line in result.stdout.splitlines()]
            expected = [game.state_to_json(game.state_from_json(s)) for s in states[1:]]
            assert [game.state_to_json(game.state_from_json(r)) for r in replies] == expected, name


def test_old_records_still_check_out_and_read(records: dict[str, list[dict[str, Any]]]) -> None:
    for name, games in records.items():
        game = get_game(name)
        for record in games:
            old = as_format_1(copy.deepcopy(record))
            assert record_format(old) == 1
            assert check_record(old) == [], name
            assert [turn_move(game, t) for t in old["turns"]] == [
                turn_move(game, t) for t in record["turns"][OPENING:]]
            with pytest.raises(RecordFormatError):
                validate_record(old)  # the schema is the current format


def test_the_checker_finds_what_is_wrong(records: dict[str, list[dict[str, Any]]]) -> None:
    for name, games in records.items():
        record = games[0]
        bad = copy.deepcopy(record)
        bad["turns"][OPENING + 1]["notation"] = "zz"
        # (Breakthrough's and Connect Four's own record forms hold the notation: they reject it first.)
        assert any(p.startswith("turn 5: ") and "zz" in p for p in check_record(bad)), name
        bad = copy.deepcopy(record)
        bad["turns"][OPENING + 1]["opening"] = True
        assert any("turn 5" in p for p in check_record(bad)), name
        bad = copy.deepcopy(record)
        bad["turns"][OPENING]["charged_ms"] += 1
        assert "move_times_ms differs from the turns' charged_ms" in check_record(bad), name
        bad = copy.deepcopy(record)
        other = next(j for j in range(1, OPENING) if bad["turns"][j] != bad["turns"][0])
        bad["turns"][0], bad["turns"][other] = bad["turns"][other], bad["turns"][0]
        assert check_record(bad), name  # a reordered opening does not replay
        bad = copy.deepcopy(record)
        bad["seed"] += 1
        assert any("not the random opening of seed" in p for p in check_record(bad)), name
        bad = copy.deepcopy(record)
        del bad["turns"][-1]
        counts = f"{len(bad['turns'])} turns but {len(bad['game_states'])} states"
        assert check_record(bad) == [f"{counts} (the final state must be included)"]
    assert check_record([]) == ["a record is a JSON object, got list"]
    assert check_record({"game": "no_such_game", "turns": [], "game_states": [{}], "winner": "NONE",
                         "termination": "interrupted"})[0].startswith("cannot check: ")
    assert check_record({"game": game_names()[0], "turns": [], "game_states": [{}], "winner": {"x": 1},
                         "termination": "interrupted"}) == [
        "not a record: 'winner' must be BLACK, WHITE or NONE, got {\"x\": 1}"]
    assert check_record({"game": game_names()[0]}) == [
        "not a record: missing 'turns', 'game_states', 'winner', 'termination'"]


def test_validation_names_the_place_of_a_mismatch(records: dict[str, list[dict[str, Any]]]) -> None:
    record = copy.deepcopy(next(iter(records.values()))[0])
    del record["turns"][3]["notation"]
    with pytest.raises(RecordFormatError, match="at turns/3: 'notation' is a required property"):
        validate_record(record)
    record = copy.deepcopy(next(iter(records.values()))[0])
    record["plies"] += 1
    with pytest.raises(RecordFormatError, match="plies is"):
        validate_record(record)


def test_random_opening_moves_are_random_openings_moves() -> None:
    for name in game_names():
        game = get_game(name)
        for seed in range(20):
            plies = seed % 9
            moves = random_opening_moves(game, plies, random.Random(seed))
            state = game.initial_state()
            for move in moves:
                state = game.apply(state, move)
            assert game.state_to_json(state) == game.state_to_json(random_opening(game, plies, random.Random(seed)))


def test_schema_describes_every_field_and_every_termination() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(schema["properties"]["termination"]["enum"]) == {t.value for t in Termination}

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                assert "description" in sub, f"{where}/{key} has no description"
            for key, sub in node.items():
                walk(sub, f"{where}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}/{i}")

    walk(schema, "")


class WireIsRecordGame:
    """The parts of a game :func:`turn_entry` and :func:`turn_move` use, with a record form that is
    not an object (a plugin may have one)."""

    def describe_move(self, move: int) -> str:
        return f"cell {move}"

    def move_to_record(self, move: int) -> int:
        return move

    def move_from_record(self, turn: Any) -> int:
        if type(turn) is not int:
            raise MoveSyntaxError(f"a recorded move is an integer, got {turn!r}")
        return turn


def test_a_record_form_that_is_not_an_object_is_kept_under_move() -> None:
    game: Any = WireIsRecordGame()
    turn = turn_entry(game, 4, opening=False, charged_ms=1.23456, clock_left_ms=99.0)
    assert turn == {"move": 4, "notation": "cell 4", "opening": False, "charged_ms": 1.235, "clock_left_ms": 99.0}
    assert turn_move(game, turn) == 4
    assert turn_move(game, 4) == 4  # a format-1 turn
    with pytest.raises(MoveSyntaxError, match="a recorded move is an integer"):
        turn_move(game, {"move": "x", "notation": "?", "opening": True, "charged_ms": None, "clock_left_ms": None})


def test_example_record_paths_are_relative_to_the_repository() -> None:
    repo = Path(__file__).resolve().parents[2]
    assert SCHEMA_PATH == repo / "arena" / "schemas" / "record.schema.json"  # package data, in the wheel
    assert (repo / "schemas" / "record.schema.json").resolve() == SCHEMA_PATH.resolve()  # the link to it
