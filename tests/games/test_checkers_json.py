"""Checkers states as JSON (``{"board": [8 lines], "turn", "turnNumber"}``): round trips and the
strict reading that rejects every malformed state with a one-line StateError."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.games import Color, StateError, get_game
from arena.games.checkers.rules import CheckersGame, CheckersState, state_from_board

GAME: CheckersGame = get_game("checkers")  # type: ignore[assignment]

START_LINES = [
    ". b . b . b . b",
    "b . b . b . b .",
    ". b . b . b . b",
    ". . . . . . . .",
    ". . . . . . . .",
    "w . w . w . w .",
    ". w . w . w . w",
    "w . w . w . w .",
]

MIXED = [
    ". B . . . . . .",
    ". . . . . . . .",
    ". . . b . . . .",
    "w . . . . . . .",
    ". . . . . W . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
]


def start_json(**changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"board": list(START_LINES), "turn": "BLACK", "turnNumber": 0}
    obj.update(changes)
    return obj


def test_initial_state_to_json() -> None:
    assert GAME.state_to_json(GAME.initial_state()) == start_json()


def test_round_trip_keeps_kings_turn_and_counter() -> None:
    state = state_from_board(MIXED, Color.WHITE, 37)
    obj = GAME.state_to_json(state)
    assert obj == {"board": MIXED, "turn": "WHITE", "turnNumber": 37}
    assert GAME.state_from_json(json.loads(json.dumps(obj))) == state
    assert isinstance(GAME.state_from_json(obj), CheckersState)


def test_board_lines_without_spaces_and_with_trailing_spaces() -> None:
    compact = [line.replace(" ", "") for line in START_LINES]
    assert GAME.state_from_json(start_json(board=compact)) == GAME.initial_state()
    trailing = [line + "  " for line in START_LINES]  # as the reference prints them
    assert GAME.state_from_json(start_json(board=trailing)) == GAME.initial_state()


BAD_STATES: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "must be an object"),
    ("missing board", {"turn": "BLACK", "turnNumber": 0}, "missing key 'board'"),
    ("missing turnNumber", {"board": START_LINES, "turn": "BLACK"}, "missing key 'turnNumber'"),
    ("extra key", start_json(extra=1), "unexpected key"),
    ("board a string", start_json(board="".join(START_LINES)), "list of 8 strings"),
    ("board of numbers", start_json(board=[0] * 8), "list of 8 strings"),
    ("7 lines", start_json(board=START_LINES[:7]), "board has 7 lines"),
    ("9 lines", start_json(board=START_LINES + [START_LINES[0]]), "board has 9 lines"),
    ("short line", start_json(board=START_LINES[:2] + [". b . b . b ."] + START_LINES[3:]),
     "board line 3 has 7 squares"),
    ("long line", start_json(board=START_LINES[:2] + [". b . b . b . b ."] + START_LINES[3:]),
     "board line 3 has 9 squares"),
    ("compact short", start_json(board=["bbb"] + START_LINES[1:]), "board line 1 has 3 squares"),
    ("bad symbol", start_json(board=START_LINES[:4] + [". . . x . . . ."] + START_LINES[5:]),
     "board line 5, column 3: 'x'"),
    ("double symbol", start_json(board=START_LINES[:4] + [". . . bb . . . ."] + START_LINES[5:]),
     "'bb' is not one of"),
    ("light square", start_json(board=START_LINES[:3] + [". b . . . . . ."] + START_LINES[4:]),
     "on a light square"),
    ("uncrowned black man on row 7",
     start_json(board=START_LINES[:7] + ["b . . . . . . ."]), "crowning row"),
    ("turn lower case", start_json(turn="black"), "turn must be"),
    ("turn missing value", start_json(turn=None), "turn must be"),
    ("turn a list", start_json(turn=["BLACK"]), "turn must be"),
    ("negative turnNumber", start_json(turnNumber=-1), "turnNumber"),
    ("float turnNumber", start_json(turnNumber=1.0), "turnNumber"),
    ("bool turnNumber", start_json(turnNumber=True), "turnNumber"),
    ("string turnNumber", start_json(turnNumber="3"), "turnNumber"),
]


@pytest.mark.parametrize(("obj", "fragment"), [(o, f) for _, o, f in BAD_STATES],
                         ids=[name for name, _, _ in BAD_STATES])
def test_malformed_states_are_rejected(obj: Any, fragment: str) -> None:
    with pytest.raises(StateError) as caught:
        GAME.state_from_json(obj)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message


def test_board_lines_are_the_protocol_lines() -> None:
    state = state_from_board(MIXED)
    lines = GAME.board_lines(state)
    assert lines == MIXED
    assert all(len(line) == 15 and line[1::2] == " " * 7 for line in lines)
