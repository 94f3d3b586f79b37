"""The checkers move on the wire (``n c1 r1 ... cn rn``), in records and in PDN notation.

Tolerant reading, strict judging: a reply that is not a well-formed path is a MoveSyntaxError
(malformed reply); a well-formed path that is not a legal move is an IllegalMoveError (illegal
move) whose reason names the squares.
"""

from __future__ import annotations

import pytest

from arena.games import Color, IllegalMoveError, MoveSyntaxError, get_game
from arena.games.checkers.rules import CheckersGame, CheckersMove, CheckersState, state_from_board

GAME: CheckersGame = get_game("checkers")  # type: ignore[assignment]
START = GAME.initial_state()



def after(*notations: str) -> CheckersState:
    state = START
    for notation in notations:
        state = GAME.apply(state, GAME.parse_notation(notation, state))
    return state


# After 11-15 (black) 22-18 (white): black to move must take 15x22.
CAPTURE_STATE = after("11-15", "22-18")


@pytest.mark.parametrize(
    "wire",
    [
        "2 3 2 2 3",
        "2 3 2 2 3\n",
        "2 3 2 2 3\r\n",
        "  2   3 2 2 3   ",
        "2\t3\t2\t2\t3",
        "2 3 2 2 3 \r",
        "02 3 2 2 03",
    ],
)
def test_valid_wire_forms(wire: str) -> None:
    move = GAME.parse_move(wire)
    assert move.path == ((3, 2), (2, 3))
    assert GAME.validate_move(START, move) == move
    assert move in GAME.legal_moves(START)
    assert hash(move) == hash(GAME.legal_moves(START)[2])


@pytest.mark.parametrize(
    ("wire", "fragment"),
    [
        ("", "empty reply"),
        ("   \r\n", "empty reply"),
        ("abc", "'abc' is not a non-negative whole number"),
        ("2 3 2 2 x", "'x' is not"),
        ("3 1 2 3 4", "the count 3 announces 3 squares (6 numbers) but 4 numbers follow"),
        ("2 1 2 3", "the count 2 announces 2 squares (4 numbers) but 3 numbers follow"),
        ("2 3 2 2 3 4", "but 5 numbers follow"),
        ("2 3.0 2 2 3", "'3.0' is not"),
        ("2 3 2 2 -3", "'-3' is not"),
        ("-2 3 2 2 3", "'-2' is not"),
        ("+2 3 2 2 3", "'+2' is not"),
        ("2 3,2 2,3", "'3,2' is not"),
        ("1 3 2", "the count 1 is too small"),
        ("0", "the count 0 is too small"),
        ("2 ３ 2 2 3", "is not a non-negative whole number"),  # a full-width digit
        ("2 1_0 2 2 3", "'1_0' is not"),
    ],
)
def test_malformed_wire_forms(wire: str, fragment: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        GAME.parse_move(wire)
    assert fragment in str(caught.value)


def test_non_text_and_bad_utf8_are_malformed() -> None:
    with pytest.raises(MoveSyntaxError, match="UTF-8"):
        GAME.parse_move(b"2 3 2 \xff 3")
    with pytest.raises(MoveSyntaxError, match="text line"):
        GAME.parse_move(23)
    assert GAME.parse_move(b"2 3 2 2 3").path == ((3, 2), (2, 3))


@pytest.mark.parametrize(
    ("state_name", "wire", "fragment"),
    [
        ("start", "2 8 2 7 3", "square (8,2) is off the board"),
        ("start", "2 3 2 2 99", "square (2,99) is off the board"),
        ("start", "2 3 2 3 3", "(3,3) is a light square"),
        ("start", "2 2 3 3 4", "(2,3) [PDN 14] is empty"),
        ("start", "2 0 5 1 4", "is WHITE's; BLACK is to move"),
        ("start", "2 1 0 2 1", "(2,1) [PDN 6] is occupied"),
        ("start", "2 3 2 2 1", "goes backwards"),
        ("start", "2 3 2 6 5", "neither a diagonal step nor a jump"),
        ("start", "3 1 2 0 3 1 4", "only jumps can be chained"),
        ("start", "2 1 2 3 4", "jumps over an empty square on (2,3) [PDN 14]"),
        ("start", "2 3 0 5 2", "jumps over a BLACK piece"),
        ("capture", "2 1 2 0 3", "capturing is mandatory: BLACK must capture (15x22)"),
        ("capture", "2 4 3 5 4", "capturing is mandatory"),
        ("capture", "2 4 3 3 4", "(3,4) [PDN 18] is occupied"),
    ],
)
def test_illegal_paths_say_why(state_name: str, wire: str, fragment: str) -> None:
    state = START if state_name == "start" else CAPTURE_STATE
    move = GAME.parse_move(wire)
    with pytest.raises(IllegalMoveError) as caught:
        GAME.validate_move(state, move)
    message = str(caught.value).replace("there is no piece on", "").strip()
    if "is empty" in fragment:  # phrased "there is no piece on (2,3) [PDN 14]"
        assert "no piece on (2,3) [PDN 14]" in str(caught.value)
    else:
        assert fragment in message, message
    with pytest.raises(IllegalMoveError):
        GAME.play_wire(state, wire)


def test_capture_on_the_wire_and_in_records() -> None:
    (capture,) = GAME.legal_moves(CAPTURE_STATE)
    assert GAME.move_to_wire(capture) == "2 4 3 2 5"
    assert GAME.move_to_record(capture) == {"path": [[4, 3], [2, 5]], "pdn": "15x22"}
    move, next_state = GAME.play_wire(CAPTURE_STATE, "2 4 3 2 5\r\n")
    assert move == capture and GAME.to_move(next_state) is Color.WHITE
    step = GAME.legal_moves(START)[4]
    assert GAME.move_to_record(step) == {"path": [[5, 2], [4, 3]], "pdn": "11-15"}
    assert GAME.describe_move(step) == "11-15"


def test_from_path_matches_generated_moves() -> None:
    for state in (START, CAPTURE_STATE):
        for move in GAME.legal_moves(state):
            assert CheckersMove.from_path(move.path) == move
            assert GAME.parse_move(GAME.move_to_wire(move)) == move
    with pytest.raises(MoveSyntaxError):
        CheckersMove.from_path([(1, 2)])
    with pytest.raises(MoveSyntaxError):
        CheckersMove.from_path([(1, 2), ("a", 3)])


# --- human notation ---------------------------------------------------------------------------

AMBIGUOUS = state_from_board(
    [
        "........",
        "........",
        "...b....",
        "..w.w...",
        "........",
        "..w.....",
        "........",
        "........",
    ]
)


def test_notation_forms() -> None:
    assert GAME.parse_notation("11-15").path == ((5, 2), (4, 3))
    assert GAME.parse_notation(" 11 - 15 ", START).path == ((5, 2), (4, 3))
    assert GAME.parse_notation("2 3 2 2 3", START).path == ((3, 2), (2, 3))
    assert GAME.parse_notation("15X22", CAPTURE_STATE) == GAME.legal_moves(CAPTURE_STATE)[0]
    assert GAME.parse_notation("9x18x27").path == ((1, 2), (3, 4), (5, 6))


def test_short_capture_notation_is_resolved_against_the_position() -> None:
    # black man on 10, white men on 14, 15 and 22: 10x17 (over 14) must go on to 26 (over 22);
    # 10x19 (over 15) ends there.
    assert {GAME.describe_move(m) for m in GAME.legal_moves(AMBIGUOUS)} == {"10x17x26", "10x19"}
    assert GAME.describe_move(GAME.parse_notation("10x26", AMBIGUOUS)) == "10x17x26"
    with pytest.raises(IllegalMoveError, match="must be completed"):
        GAME.parse_notation("10x17", AMBIGUOUS)
    with pytest.raises(IllegalMoveError, match="no legal capture matches 10x28"):
        GAME.parse_notation("10x28", AMBIGUOUS)
    with pytest.raises(MoveSyntaxError, match="leaves out landing squares"):
        GAME.parse_notation("10x26")


def test_ambiguous_short_capture_is_refused() -> None:
    cycle = state_from_board(
        [
            "........",
            "........",
            "...B....",
            "..w.w...",
            "........",
            "..w.w...",
            "........",
            "........",
        ]
    )
    with pytest.raises(IllegalMoveError, match="ambiguous: it could be 10x17x26x19x10, 10x19x26x17x10"):
        GAME.parse_notation("10x10", cycle)
    assert GAME.describe_move(GAME.parse_notation("10x19x26x10", cycle)) == "10x19x26x17x10"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty move"),
        ("   ", "empty move"),
        ("hello", "is not a move"),
        ("11", "is not a move"),
        ("11-", "is not a move"),
        ("11-15x18", "mixes - and x"),
        ("0-4", "square 0 is not a PDN square"),
        ("11-33", "square 33 is not a PDN square"),
        ("11-15-19", "a step joins exactly two squares"),
        ("3 1 2 3 4", "the count 3 announces"),
    ],
)
def test_bad_notation_is_a_syntax_error(text: str, fragment: str) -> None:
    with pytest.raises(MoveSyntaxError, match=fragment.replace("(", r"\(")):
        GAME.parse_notation(text, START)


def test_illegal_notation_is_an_illegal_move() -> None:
    with pytest.raises(IllegalMoveError, match="backwards"):
        GAME.parse_notation("15-11", after("11-15", "24-20"))
    with pytest.raises(IllegalMoveError, match="occupied"):
        GAME.parse_notation("6-10", START)
