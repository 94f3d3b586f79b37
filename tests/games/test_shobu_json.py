"""Shobu's JSON forms: the state object, the bot's turn payload, the record, and the notation."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from arena.games import Color, MoveSyntaxError, StateError, random_opening
from arena.games.shobu.rules import (
    START_BOARD,
    ShobuGame,
    ShobuMove,
    board_from_picture,
    describe_move,
    parse_notation,
)

GAME = ShobuGame()
START = GAME.initial_state()


def payload(px: Any = 0, py: Any = 7, ax: Any = 4, ay: Any = 3, hx: Any = 0, hy: Any = -1) -> dict:
    return {
        "passive": {"origin": {"x": px, "y": py}, "heading": {"x": hx, "y": hy}},
        "aggressive": {"origin": {"x": ax, "y": ay}, "heading": {"x": hx, "y": hy}},
    }


# --- states ---------------------------------------------------------------------------------


def test_state_json_round_trip() -> None:
    rng = random.Random(3)
    states = [START, START._replace(turn=Color.WHITE)]
    states += [random_opening(GAME, rng.randrange(1, 30), rng) for _ in range(20)]
    for state in states:
        obj = GAME.state_to_json(state)
        assert list(obj) == ["board", "turn", "turnNumber"]
        assert GAME.state_from_json(json.loads(json.dumps(obj))) == state
    assert GAME.state_to_json(START) == {"board": START_BOARD, "turn": "BLACK", "turnNumber": 0}


def good_state(**changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"board": START_BOARD, "turn": "BLACK", "turnNumber": 0}
    obj.update(changes)
    return obj


def without(key: str) -> dict[str, Any]:
    obj = good_state()
    del obj[key]
    return obj


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (good_state(board=START_BOARD[:63]), "board must have 64 characters, got 63"),
        (good_state(board=START_BOARD + "."), "board must have 64 characters, got 65"),
        (good_state(board=""), "board must have 64 characters, got 0"),
        (good_state(board="X" + START_BOARD[1:]), "board has 'X' at index 0 (square (0,0))"),
        (good_state(board=START_BOARD[:20] + " " + START_BOARD[21:]), "index 20 (square (4,2))"),
        (good_state(board=list(START_BOARD)), "board must be a string"),
        (good_state(board=None), "board must be a string, got null"),
        (good_state(turn="black"), 'turn must be "BLACK" or "WHITE", got "black"'),
        (good_state(turn="NONE"), 'got "NONE"'),
        (good_state(turn=0), "got 0"),
        (good_state(turnNumber=-1), "turnNumber must be a non-negative integer, got -1"),
        (good_state(turnNumber=1.0), "turnNumber must be a non-negative integer, got 1.0"),
        (good_state(turnNumber=True), "turnNumber must be a non-negative integer, got true"),
        (good_state(turnNumber="3"), 'got "3"'),
        (good_state(turnNumber=None), "got null"),
        (good_state(extra=1), "game state: unexpected key 'extra'"),
        (without("board"), "game state: missing key 'board'"),
        (without("turn"), "game state: missing key 'turn'"),
        (without("turnNumber"), "game state: missing key 'turnNumber'"),
        ([START_BOARD, "BLACK", 0], "game state must be an object"),
        ("hello", "game state must be an object"),
        (None, "game state must be an object, got null"),
    ],
)
def test_malformed_states_are_rejected(obj: Any, message: str) -> None:
    with pytest.raises(StateError) as caught:
        GAME.state_from_json(obj)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_hand_made_states_are_accepted() -> None:
    # Any 64 squares of x o . are a position, whatever the stone counts or the turn parity.
    odd = GAME.state_from_json(good_state(board="x" * 64, turn="WHITE", turnNumber=7))
    assert (odd.board, odd.turn, odd.turn_number) == ("x" * 64, Color.WHITE, 7)


def test_board_picture_helper() -> None:
    rows = [START_BOARD[i : i + 8] for i in range(0, 64, 8)]
    picture = "\n".join(row[:4] + " | " + row[4:] for row in rows)
    assert board_from_picture(picture) == START_BOARD
    with pytest.raises(StateError, match="8 rows of 8"):
        board_from_picture("....\n....")
    with pytest.raises(StateError, match="'X'"):
        board_from_picture(picture.replace("o", "X", 1))


# --- the turn payload ---------------------------------------------------------------------------


def test_wire_form_in_seed_key_order_and_round_trip() -> None:
    for move in GAME.legal_moves(START):
        wire = GAME.move_to_wire(move)
        assert list(wire) == ["passive", "aggressive"]
        for part in ("passive", "aggressive"):
            assert list(wire[part]) == ["origin", "heading"]
            assert list(wire[part]["origin"]) == ["x", "y"]
            assert list(wire[part]["heading"]) == ["x", "y"]
        assert GAME.move_to_record(move) == wire
        assert GAME.parse_move(json.loads(json.dumps(wire))) == move
    assert GAME.move_to_wire(ShobuMove((0, 7), (4, 3), (0, -1))) == payload()


def test_parse_move_accepts_any_key_order() -> None:
    reordered = {
        "aggressive": {"heading": {"y": -1, "x": 0}, "origin": {"y": 3, "x": 4}},
        "passive": {"heading": {"y": -1, "x": 0}, "origin": {"y": 7, "x": 0}},
    }
    assert GAME.parse_move(reordered) == ShobuMove((0, 7), (4, 3), (0, -1))


def test_parse_move_keeps_a_second_heading_for_validate_to_reject() -> None:
    wire = payload()
    wire["aggressive"]["heading"] = {"x": 1, "y": -1}
    move = GAME.parse_move(wire)
    assert move == ShobuMove((0, 7), (4, 3), (0, -1), (1, -1))
    assert GAME.move_to_wire(move) == wire
    assert describe_move(move) == "07 43 N/NE"


def _drop(path: tuple[str, ...]) -> dict:
    wire = payload()
    target = wire
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return wire


def _set(path: tuple[str, ...], value: Any) -> dict:
    wire = payload()
    target = wire
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return wire


@pytest.mark.parametrize(
    ("wire", "message"),
    [
        (_drop(("passive", "heading", "y")), "passive.heading: missing key 'y'"),
        (_drop(("aggressive", "origin", "x")), "aggressive.origin: missing key 'x'"),
        (_drop(("passive", "origin")), "passive: missing key 'origin'"),
        (_drop(("aggressive",)), "turn payload: missing key 'aggressive'"),
        (_set(("passive", "origin", "z"), 1), "passive.origin: unexpected key 'z'"),
        (_set(("aggressive", "speed"), 1), "aggressive: unexpected key 'speed'"),
        (_set(("type",), "turn"), "turn payload: unexpected key 'type'"),
        (payload(ax=1.5), "aggressive.origin.x must be an integer, got 1.5"),
        (payload(px=1.0), "passive.origin.x must be an integer, got 1.0"),
        (payload(py="7"), 'passive.origin.y must be an integer, got "7"'),
        (payload(hy=True), "passive.heading.y must be an integer, got true"),
        (payload(ay=None), "aggressive.origin.y must be an integer, got null"),
        (payload(ax=[4]), "aggressive.origin.x must be an integer, got [4]"),
        (_set(("passive", "origin"), [0, 7]), "passive.origin must be an object, got [0, 7]"),
        (_set(("aggressive",), "43N"), 'aggressive must be an object, got "43N"'),
        ([], "turn payload must be an object, got []"),
        ("07 43 N", 'turn payload must be an object, got "07 43 N"'),
        (None, "turn payload must be an object, got null"),
    ],
)
def test_malformed_payloads_are_rejected(wire: Any, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        GAME.parse_move(wire)
    assert message in str(caught.value)


def test_off_board_coordinates_parse_and_are_illegal_not_malformed() -> None:
    move = GAME.parse_move(payload(px=12, py=-3))
    assert move.passive_origin == (12, -3)
    assert describe_move(move) == "(12,-3) 43 N"


# --- notation -------------------------------------------------------------------------------


def test_describe_move_examples() -> None:
    assert describe_move(ShobuMove((0, 7), (4, 3), (0, -1))) == "07 43 N"
    assert describe_move(ShobuMove((1, 6), (5, 5), (2, -2))) == "16 55 NE2"
    assert describe_move(ShobuMove((7, 0), (0, 4), (-1, 1))) == "70 04 SW"
    assert describe_move(ShobuMove((0, 7), (4, 3), (1, 2))) == "07 43 (1,2)"
    assert GAME.describe_move(ShobuMove((3, 3), (4, 4), (-2, 0))) == "33 44 W2"


@pytest.mark.parametrize(
    "text", ["07 43 N", "07 43 n", "0743N", "  07   43  n ", "07,43,N", "0 7 4 3 N", "07 43 N1"]
)
def test_parse_notation_is_lenient_on_case_and_spaces(text: str) -> None:
    assert parse_notation(text) == ShobuMove((0, 7), (4, 3), (0, -1))


def test_parse_notation_two_steps_and_every_direction() -> None:
    assert parse_notation("16 55 ne2") == ShobuMove((1, 6), (5, 5), (2, -2))
    assert parse_notation("16 55 NE 2") == ShobuMove((1, 6), (5, 5), (2, -2))
    rng = random.Random(11)
    for _ in range(10):
        state = random_opening(GAME, rng.randrange(0, 20), rng)
        for move in GAME.legal_moves(state):
            assert parse_notation(describe_move(move)) == move


@pytest.mark.parametrize(
    "text",
    ["", "07 43", "07 43 X", "08 43 N", "07 43 N3", "7 43 N", "07 43 NNE", "hello", "07 43 N 2 2"],
)
def test_parse_notation_rejects_bad_text(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match="expected '<passive xy> <aggressive xy>"):
        parse_notation(text)
