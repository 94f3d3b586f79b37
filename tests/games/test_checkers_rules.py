"""The rules of English draughts (docs/rules/checkers.md, rules 1-8), each on a position drawn by hand.

Positions are 8-line pictures (row 0 at the top, ``board[row][col]``); moves are compared by their
PDN notation, and a few by their (col,row) paths so that the numbering itself is checked too.
"""

from __future__ import annotations

import pytest

from arena.games import Color, IllegalMoveError, Termination, get_game
from arena.games.checkers.rules import (
    CheckersGame,
    CheckersState,
    piece_counts,
    square_coords,
    square_number,
    state_from_board,
)

GAME: CheckersGame = get_game("checkers")  # type: ignore[assignment]
B, W = Color.BLACK, Color.WHITE


def position(picture: str, turn: Color = B) -> CheckersState:
    return state_from_board(picture.split(), turn)


def pdn_moves(state: CheckersState) -> set[str]:
    return {GAME.describe_move(move) for move in GAME.legal_moves(state)}


def illegal_reason(state: CheckersState, notation: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_notation(notation, state)
    return str(caught.value)


# --- rule 1: black moves first, players alternate ------------------------------------------------


def test_start_position_and_black_moves_first() -> None:
    start = GAME.initial_state()
    assert GAME.board_lines(start) == [
        ". b . b . b . b",
        "b . b . b . b .",
        ". b . b . b . b",
        ". . . . . . . .",
        ". . . . . . . .",
        "w . w . w . w .",
        ". w . w . w . w",
        "w . w . w . w .",
    ]
    assert GAME.to_move(start) is B and GAME.ply(start) == 0
    assert pdn_moves(start) == {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    after = GAME.apply(start, GAME.parse_move("2 3 2 2 3"))
    assert GAME.to_move(after) is W and GAME.ply(after) == 1
    assert pdn_moves(after) == {"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}
    assert GAME.to_move(GAME.apply(after, GAME.legal_moves(after)[0])) is B


# --- rule 2: men step forward, kings one square in all four directions ---------------------------

MAN_PICTURE = """
........
........
........
........
...b....
w.......
........
........
"""


def test_black_man_steps_forward_only() -> None:
    state = position(MAN_PICTURE)  # black man on (3,4) = 18
    assert pdn_moves(state) == {"18-22", "18-23"}
    assert {m.path for m in GAME.legal_moves(state)} == {((3, 4), (2, 5)), ((3, 4), (4, 5))}
    assert "backwards" in illegal_reason(state, "18-14")
    assert "backwards" in illegal_reason(state, "18-15")


def test_white_man_steps_forward_only() -> None:
    state = position(MAN_PICTURE.replace("b", "x").replace("w", "b").replace("x", "w"), W)
    assert pdn_moves(state) == {"18-14", "18-15"}
    assert "backwards" in illegal_reason(state, "18-22")


@pytest.mark.parametrize("king", ["B", "W"])
def test_king_steps_one_square_in_all_directions(king: str) -> None:
    other = "w" if king == "B" else "b"
    picture = MAN_PICTURE.replace("b", king).replace("w", other)
    state = position(picture, B if king == "B" else W)
    assert pdn_moves(state) == {"18-14", "18-15", "18-22", "18-23"}
    # no flying kings: two squares along an empty diagonal is not a move
    assert "neither a diagonal step nor a jump" in illegal_reason(state, "18-32")
    assert "jumps over an empty square" in illegal_reason(state, "18x27")


def test_king_in_a_corner_and_step_onto_occupied_square() -> None:
    state = position(
        """
        .......B
        ......b.
        ........
        ........
        ........
        ........
        ........
        w.......
        """
    )
    assert pdn_moves(state) == {"8-11", "8-12"}  # the king on 4 is boxed in by its own man
    assert "occupied" in illegal_reason(state, "4-8")


# --- rule 3: captures; men capture forward only, kings in all directions ------------------------

BACKWARD_PICTURE = """
........
........
........
..w.....
...b....
........
........
........
"""


def test_men_do_not_capture_backwards() -> None:
    black_to_move = position(BACKWARD_PICTURE)  # black man 18, white man 14 behind it
    assert pdn_moves(black_to_move) == {"18-22", "18-23"}
    assert "backwards" in illegal_reason(black_to_move, "18x9")
    white_to_move = position(BACKWARD_PICTURE, W)  # for white, the black man on 18 is behind
    assert pdn_moves(white_to_move) == {"14-9", "14-10"}


def test_kings_capture_backwards_and_the_piece_is_removed() -> None:
    state = position(BACKWARD_PICTURE.replace("b", "B"))
    assert pdn_moves(state) == {"18x9"}
    after = GAME.apply(state, GAME.parse_notation("18x9", state))
    assert GAME.board_lines(after)[2] == ". B . . . . . ."
    assert after.white == 0 and piece_counts(after).black_kings == 1


def test_man_captures_forward() -> None:
    state = position(
        """
        ........
        ........
        .b......
        ..w.....
        ........
        ........
        ........
        ........
        """,
        W,
    )
    assert pdn_moves(state) == {"14x5"}
    assert [m.path for m in GAME.legal_moves(state)] == [((2, 3), (0, 1))]


# --- rule 4: capturing is mandatory, but any capture may be chosen ------------------------------


def test_capture_is_mandatory() -> None:
    state = position(
        """
        .......b
        ........
        .b......
        ..w.....
        ........
        ........
        ........
        ........
        """
    )
    assert pdn_moves(state) == {"9x18"}
    assert "capturing is mandatory" in illegal_reason(state, "4-8")
    assert "capturing is mandatory" in illegal_reason(state, "9-13")


FREE_CHOICE_PICTURE = """
........
........
.b...b..
..w...w.
........
....w...
........
........
"""


def test_any_capture_may_be_chosen_not_only_the_longest() -> None:
    state = position(FREE_CHOICE_PICTURE)
    # 9 can take two pieces (14 and 23); 11 can take one (16): both are legal.
    assert pdn_moves(state) == {"9x18x27", "11x20"}
    short = GAME.parse_notation("11x20", state)
    after = GAME.apply(state, short)
    assert piece_counts(after).white_men == 2


def test_man_capture_is_legal_when_a_king_can_capture_too() -> None:
    state = position(
        """
        ........
        ........
        .....b..
        ..w...w.
        ...B....
        ........
        ........
        ........
        """
    )
    assert pdn_moves(state) == {"18x9", "11x20"}


# --- rule 5: multi-jumps are completed; no piece is jumped twice --------------------------------


def test_multi_jump_must_be_completed() -> None:
    state = position(FREE_CHOICE_PICTURE.replace(".b...b..", ".b......").replace("..w...w.", "..w....."))
    assert pdn_moves(state) == {"9x18x27"}
    assert GAME.move_to_wire(GAME.legal_moves(state)[0]) == "3 1 2 3 4 5 6"
    reason = illegal_reason(state, "9x18")
    assert "must be completed" in reason and "9x18x27" in reason
    with pytest.raises(IllegalMoveError, match="must be completed"):
        GAME.validate_move(state, GAME.parse_move("2 1 2 3 4"))


def test_a_piece_is_not_jumped_twice() -> None:
    state = position(
        """
        ........
        ........
        .B......
        ..w.....
        ........
        ........
        ........
        w.......
        """
    )
    # After 9x18 the king could jump the same man back to its (vacated) start square: not allowed.
    assert pdn_moves(state) == {"9x18"}
    reason = illegal_reason(state, "9x18x9")
    assert "already jumped" in reason


def test_king_may_circle_back_to_its_start_square() -> None:
    state = position(
        """
        ........
        ........
        ...B....
        ..w.w...
        ........
        ..w.w...
        ........
        ........
        """
    )
    assert pdn_moves(state) == {"10x19x26x17x10", "10x17x26x19x10"}
    after = GAME.apply(state, GAME.parse_notation("10x19x26x17x10", state))
    assert after.white == 0 and after.black == after.kings == 1 << 9


# --- rule 6: crowning ends the move ---------------------------------------------------------------

CROWN_PICTURE = """
........
........
........
........
........
..b.....
...w.w..
........
"""


def test_crowning_ends_the_move_even_if_the_king_could_jump_on() -> None:
    state = position(CROWN_PICTURE)  # black man 22 jumps 26 to 31; as a king it could take 27
    assert pdn_moves(state) == {"22x31"}
    reason = illegal_reason(state, "22x31x24")
    assert "crowning ends the move" in reason
    after = GAME.apply(state, GAME.parse_notation("22x31", state))
    assert GAME.board_lines(after)[7] == ". . . . B . . ."
    assert piece_counts(after) == (0, 1, 1, 0)


def test_white_man_crowned_mid_jump_stops_too() -> None:
    state = position(
        """
        ........
        ..b.b...
        .w......
        ........
        ........
        ........
        ........
        ........
        """,
        W,
    )
    assert pdn_moves(state) == {"9x2"}
    assert GAME.board_lines(GAME.apply(state, GAME.legal_moves(state)[0]))[0] == ". . . W . . . ."


def test_a_king_reaching_the_far_row_jumps_on() -> None:
    state = position(CROWN_PICTURE.replace("b", "B"))
    assert pdn_moves(state) == {"22x31x24"}


def test_a_step_onto_the_far_row_crowns() -> None:
    state = position(
        """
        ........
        ........
        ........
        ........
        ........
        ........
        .b......
        w.......
        """
    )
    assert pdn_moves(state) == {"25-30"}
    after = GAME.apply(state, GAME.parse_notation("25-30", state))
    assert piece_counts(after).black_kings == 1 and GAME.to_move(after) is W


# --- rule 7: no legal move loses -------------------------------------------------------------------


BLOCKED_PICTURE = """
........
........
........
b.......
.w......
..w.....
........
........
"""


def test_a_blocked_player_loses() -> None:
    state = position(BLOCKED_PICTURE)  # the black man on 13 can neither step nor jump
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination is Termination.NO_LEGAL_MOVES and outcome.winner is W
    assert "BLACK has no legal move" in outcome.reason
    assert GAME.perft(state, 1) == 0 and GAME.perft(state, 3) == 0
    assert GAME.outcome(position(BLOCKED_PICTURE, W)) is None


def test_a_player_without_pieces_loses() -> None:
    state = position(
        """
        ........
        ........
        ........
        ........
        ........
        b.......
        .w......
        ........
        """
    )
    assert GAME.outcome(state) is None
    assert pdn_moves(state) == {"21x30"}
    after = GAME.apply(state, GAME.legal_moves(state)[0])
    assert GAME.to_move(after) is W
    outcome = GAME.outcome(after)
    assert outcome is not None
    assert outcome.termination is Termination.WIN and outcome.winner is B
    assert outcome.reason == "WHITE has no pieces left"
    assert GAME.legal_moves(after) == []


def test_the_start_is_not_over() -> None:
    assert GAME.outcome(GAME.initial_state()) is None
    assert GAME.default_max_moves == 100  # rule 8 (the draw at maxMoves) is the match's business


# --- numbering ------------------------------------------------------------------------------------


def test_pdn_numbering_both_ways() -> None:
    for number in range(1, 33):
        row = (number - 1) // 4
        col = 2 * ((number - 1) % 4) + (1 if row % 2 == 0 else 0)
        assert square_coords(number) == (col, row)
        assert square_number(col, row) == number
    assert square_coords(1) == (1, 0) and square_coords(4) == (7, 0)
    assert square_coords(5) == (0, 1) and square_coords(32) == (6, 7)
    with pytest.raises(ValueError):
        square_number(0, 0)
    with pytest.raises(ValueError):
        square_coords(33)
