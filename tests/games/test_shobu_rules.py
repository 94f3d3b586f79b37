"""Every rule clause of docs/rules/shobu.md on hand-drawn positions, the start-position figures,
the seed README's examples, and agreement with the plain generator in bench/plain_shobu.py."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from helpers import bench_module

from arena.games import Color, Game, IllegalMoveError, Termination, get_game, random_opening
from arena.games.shobu.core import HEADINGS
from arena.games.shobu.rules import (
    START_BOARD,
    ShobuGame,
    ShobuMove,
    ShobuState,
    board_from_picture,
    count_legal_turns,
    state_from_board,
    stone_counts,
)

GAME = ShobuGame()
N, NE, E, NW, S = (0, -1), (1, -1), (1, 0), (-1, -1), (0, 1)
N2, NE2, E2, NW2 = (0, -2), (2, -2), (2, 0), (-2, -2)


def position(picture: str, turn: Color = Color.BLACK, turn_number: int = 0) -> ShobuState:
    return state_from_board(board_from_picture(picture), turn, turn_number)


def turn(
    passive: tuple[int, int], aggressive: tuple[int, int], heading: tuple[int, int]
) -> ShobuMove:
    return ShobuMove(passive, aggressive, heading)


def assert_legal(state: ShobuState, move: ShobuMove) -> None:
    assert GAME.validate_move(state, move) == move
    assert move in GAME.legal_moves(state)


def assert_illegal(state: ShobuState, move: ShobuMove, *fragments: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.validate_move(state, move)
    for fragment in fragments:
        assert fragment in str(caught.value)
    assert move not in GAME.legal_moves(state)


def after(state: ShobuState, move: ShobuMove) -> str:
    return GAME.apply(state, GAME.validate_move(state, move)).board


def load_plain() -> ModuleType:
    return bench_module("plain_shobu")


START = GAME.initial_state()

# A quiet middle game: every board holds both colours, nothing touches.
QUIET = """
    o...|o...
    ....|....
    ....|....
    x...|x...
    ----+----
    o...|...o
    ..o.|....
    ....|....
    x..x|x...
"""


# --- the start, whose move it is, counters ---------------------------------------------------


def test_black_moves_first_from_the_published_start() -> None:
    assert START.board == START_BOARD
    assert GAME.to_move(START) is Color.BLACK and GAME.ply(START) == 0
    assert get_game("shobu").initial_state() == START
    assert stone_counts(START) == ((4, 4),) * 4


def test_turn_and_turn_number_advance() -> None:
    first = GAME.apply(START, GAME.legal_moves(START)[0])
    assert (first.turn, first.turn_number) == (Color.WHITE, 1)
    second = GAME.apply(first, GAME.legal_moves(first)[0])
    assert (second.turn, second.turn_number) == (Color.BLACK, 2)
    late = position(QUIET, Color.WHITE, 17)
    assert GAME.apply(late, GAME.legal_moves(late)[-1])[2:] == (Color.BLACK, 18)


# --- home boards and board colours ------------------------------------------------------------


def test_passive_moves_start_on_the_movers_home_boards_only() -> None:
    assert {m.passive_origin[1] // 4 for m in GAME.legal_moves(START)} == {1}
    white = START._replace(turn=Color.WHITE)
    assert {m.passive_origin[1] // 4 for m in GAME.legal_moves(white)} == {0}
    assert_illegal(START, turn((0, 3), (4, 7), N), "(0,3)", "not a home board of BLACK")
    quiet_white = position(QUIET, Color.WHITE)
    assert_illegal(quiet_white, turn((0, 4), (4, 0), S), "(0,4)", "not a home board of WHITE")
    assert_legal(quiet_white, turn((0, 0), (7, 4), S))


def test_aggressive_move_is_on_the_other_column_either_players_board() -> None:
    moves = GAME.legal_moves(START)
    assert all(m.passive_origin[0] // 4 != m.aggressive_origin[0] // 4 for m in moves)
    boards = {(m.passive_origin[0] // 4, m.aggressive_origin[1] // 4) for m in moves}
    assert boards == {(0, 0), (0, 1), (1, 0), (1, 1)}, "both boards of the other column are used"
    assert_illegal(START, turn((0, 7), (1, 3), N), "(1,3)", "same colour (left column)")
    assert_illegal(START, turn((0, 7), (1, 7), N), "left column")
    assert_illegal(START, turn((4, 7), (5, 3), N), "right column")
    assert_legal(START, turn((0, 7), (5, 3), N))
    assert_legal(START, turn((0, 7), (5, 7), N))


# --- headings -----------------------------------------------------------------------------------


def test_exactly_sixteen_headings() -> None:
    expected = {(dx * k, dy * k) for k in (1, 2) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    expected.discard((0, 0))
    assert set(HEADINGS) == expected and len(HEADINGS) == 16
    assert {m.heading for m in GAME.legal_moves(START)} <= expected


@pytest.mark.parametrize("heading", [(1, 2), (0, -3), (0, 0), (2, -1), (-3, -3)])
def test_other_headings_are_illegal(heading: tuple[int, int]) -> None:
    wire = {
        "passive": {"origin": {"x": 0, "y": 7}, "heading": {"x": heading[0], "y": heading[1]}},
        "aggressive": {"origin": {"x": 4, "y": 3}, "heading": {"x": heading[0], "y": heading[1]}},
    }
    move = GAME.parse_move(wire)
    assert_illegal(START, move, f"({heading[0]},{heading[1]})", "not one of the 16")


def test_both_moves_use_the_same_heading() -> None:
    wire = GAME.move_to_wire(turn((0, 7), (4, 3), N))
    wire["aggressive"]["heading"] = {"x": 1, "y": -1}
    expected = r"\(0,-1\) and the aggressive heading \(1,-1\) differ"
    with pytest.raises(IllegalMoveError, match=expected):
        GAME.play_wire(START, wire)


# --- the passive move ------------------------------------------------------------------------

PASSIVE = """
    o...|o...
    ....|....
    ....|....
    x...|x...
    ----+----
    o...|.o..
    ....|....
    ..o.|....
    x..x|x...
"""


def test_passive_move_needs_an_own_stone() -> None:
    state = position(PASSIVE)
    assert_illegal(state, turn((0, 4), (4, 3), S), "(0,4) holds a WHITE stone")
    assert_illegal(state, turn((1, 7), (4, 3), N), "(1,7) is empty")
    assert_illegal(state, turn((9, 7), (4, 3), N), "(9,7) is off the board")
    assert_legal(state, turn((0, 7), (4, 3), N))


def test_passive_path_and_landing_must_be_empty_no_push() -> None:
    state = position(PASSIVE)
    # (2,6) holds a white stone: landing on it would push, passing over it would jump.
    assert_illegal(
        state, turn((3, 7), (4, 3), NW), "blocked by the WHITE stone on (2,6)", "cannot push"
    )
    assert_illegal(state, turn((3, 7), (4, 3), NW2), "blocked by the WHITE stone on (2,6)")
    # A two-step move whose first square is free but whose landing square (0,4) is not.
    landing_taken = position(
        """
        o...|o...
        ....|....
        ....|....
        x...|x...
        ----+----
        o...|.o..
        ....|....
        x.o.|....
        ...x|x...
        """
    )
    assert_illegal(landing_taken, turn((0, 6), (4, 3), N2), "blocked by the WHITE stone on (0,4)")
    assert_legal(landing_taken, turn((0, 6), (4, 3), N))
    assert_legal(state, turn((0, 7), (4, 3), N2))


def test_passive_move_stays_on_its_board() -> None:
    state = position(PASSIVE)
    assert_illegal(state, turn((3, 7), (4, 3), E), "(3,7)->(4,7) leaves the bottom-left board")
    assert_illegal(state, turn((0, 7), (4, 3), S), "leaves the bottom-left board")
    assert_illegal(state, turn((4, 7), (0, 3), (1, 1)), "leaves the bottom-right board")


# --- the aggressive move and pushes -----------------------------------------------------------

AGGRESSIVE = """
    o...|o.oo
    ....|.xo.
    ....|o..o
    x...|xxxx
    ----+----
    o...|...o
    ....|....
    ....|....
    ..x.|x...
"""


def test_aggressive_move_needs_an_own_stone_and_stays_on_its_board() -> None:
    state = position(AGGRESSIVE)
    assert_illegal(state, turn((2, 7), (4, 2), N), "(4,2) holds a WHITE stone")
    assert_illegal(state, turn((2, 7), (5, 2), N), "(5,2) is empty")
    assert_illegal(state, turn((2, 7), (4, 3), (-1, -1)), "(4,3)->(3,2) leaves the top-right board")
    assert_illegal(state, turn((2, 7), (5, 1), N2), "leaves the top-right board")


def test_aggressive_move_never_pushes_an_own_stone() -> None:
    state = position(AGGRESSIVE)
    assert_illegal(state, turn((2, 7), (5, 3), N2), "would push BLACK's own stone on (5,1)")
    assert_illegal(state, turn((2, 7), (4, 3), E), "would push BLACK's own stone on (5,3)")
    assert_illegal(state, turn((2, 7), (6, 3), (-1, 0)), "own stone on (5,3)")
    assert_legal(state, turn((2, 7), (5, 3), N))


def test_aggressive_move_pushes_at_most_one_stone() -> None:
    state = position(AGGRESSIVE)
    # (7,3) north pushes the white (7,2) onto the empty (7,1).
    assert_legal(state, turn((2, 7), (7, 3), N))
    two = position(AGGRESSIVE.replace(".xo.", ".xoo"))
    assert_illegal(two, turn((2, 7), (7, 3), N2), "would push two stones, on (7,2) and (7,1)")


def test_pushed_stone_cannot_land_on_any_stone() -> None:
    state = position(AGGRESSIVE)
    # (6,3) north two passes the empty (6,2) and lands on the white (6,1), which would go to (6,0).
    assert_illegal(
        state,
        turn((2, 7), (6, 3), N2),
        "push the WHITE stone on (6,1) onto (6,0), which holds a WHITE stone",
    )
    own_behind = position(AGGRESSIVE.replace("o.oo", "o.xo"))
    assert_illegal(own_behind, turn((2, 7), (6, 3), N2), "onto (6,0), which holds a BLACK stone")


def test_two_step_push_moves_an_adjacent_stone_two_squares() -> None:
    state = position(
        """
        o...|....
        ....|....
        ....|o...
        x...|x...
        ----+----
        o...|...o
        ....|....
        ....|....
        x...|x...
        """
    )
    assert after(state, turn((0, 7), (4, 3), N2)) == board_from_picture(
        """
        o...|o...
        ....|x...
        ....|....
        x...|....
        ----+----
        o...|...o
        x...|....
        ....|....
        ....|x...
        """
    )


def test_two_step_push_moves_a_stone_on_the_landing_square_one_square() -> None:
    state = position(
        """
        o...|....
        ....|o...
        ....|....
        x...|x...
        ----+----
        o...|...o
        ....|....
        ....|....
        x...|x...
        """
    )
    assert after(state, turn((0, 7), (4, 3), N2)) == board_from_picture(
        """
        o...|o...
        ....|x...
        ....|....
        x...|....
        ----+----
        o...|...o
        x...|....
        ....|....
        ....|x...
        """
    )


def test_one_step_push_moves_the_stone_one_square() -> None:
    state = position(
        """
        o...|....
        ....|....
        ....|o...
        x...|x...
        ----+----
        o...|...o
        ....|....
        ....|....
        x...|x...
        """
    )
    assert after(state, turn((0, 7), (4, 3), N)) == board_from_picture(
        """
        o...|....
        ....|o...
        ....|x...
        x...|....
        ----+----
        o...|...o
        ....|....
        x...|....
        ....|x...
        """
    )


def test_push_off_the_sub_board_removes_the_stone_and_never_crosses_boards() -> None:
    # Q0: black (1,1) pushes white (3,1) east two: (4,1) exists on the 8x8 board but is on Q1.
    state = position(
        """
        o...|o...
        .x.o|....
        ....|....
        ....|x...
        ----+----
        o...|...o
        ....|....
        ....|....
        x...|x...
        """
    )
    result = after(state, turn((4, 7), (1, 1), E2))
    assert result == board_from_picture(
        """
        o...|o...
        ...x|....
        ....|....
        ....|x...
        ----+----
        o...|...o
        ....|....
        ....|....
        x...|..x.
        """
    )
    assert [white for _, white in stone_counts(state_from_board(result))] == [1, 1, 1, 1]


# --- the end of the game ----------------------------------------------------------------------

LAST_WHITE_ON_TOP_RIGHT = """
    o...|....
    ....|...o
    ....|...x
    x...|....
    ----+----
    o...|...o
    ....|....
    ....|....
    x...|x...
"""


def test_clearing_a_sub_board_wins_and_a_won_position_has_no_moves() -> None:
    state = position(LAST_WHITE_ON_TOP_RIGHT)
    assert GAME.outcome(state) is None
    won = GAME.apply(state, GAME.validate_move(state, turn((0, 7), (7, 2), N2)))
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.termination is Termination.WIN
    assert outcome.winner is Color.BLACK
    assert outcome.reason == "WHITE has no stones left on the top-right board"
    assert GAME.legal_moves(won) == [] and count_legal_turns(won) == 0
    assert GAME.perft(won, 1) == 0 and GAME.perft(won, 3) == 0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        GAME.validate_move(won, turn((0, 0), (4, 4), (0, 1)))
    # Also when the colour to move is the one that lacks the board (a hand-made position).
    black_bare = position(LAST_WHITE_ON_TOP_RIGHT.replace("...x", "...."), Color.BLACK)
    lost = GAME.outcome(black_bare)
    assert lost is not None and lost.winner is Color.WHITE
    assert "BLACK has no stones left on the top-right board" in lost.reason


def test_both_colours_lacking_a_board_goes_to_the_player_who_moved_last() -> None:
    # White loses its only top-right stone, Black its only bottom-left one.
    picture = LAST_WHITE_ON_TOP_RIGHT.replace("...o\n", "....\n", 1)
    picture = picture.replace("x...|x...", "....|x...")
    for to_move in Color:
        outcome = GAME.outcome(position(picture, to_move))
        assert outcome is not None and outcome.termination is Termination.WIN
        assert outcome.winner is to_move.other
        assert "both colours" in outcome.reason


def test_no_legal_turn_loses() -> None:
    # Black's home stones are boxed in by white ones: no passive move at all.
    boxed = position(
        """
        x...|x...
        ....|....
        ....|....
        ...o|...o
        ----+----
        ....|....
        ....|....
        oo..|..oo
        xo..|..ox
        """
    )
    outcome = GAME.outcome(boxed)
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is Color.WHITE and outcome.reason == "BLACK has no legal turn"
    assert GAME.legal_moves(boxed) == [] and GAME.perft(boxed, 1) == 0


def test_a_passive_move_without_an_aggressive_follow_up_is_not_a_turn() -> None:
    # (0,7) can go north one or two, but neither (4,0) (edge) nor (7,7) (push into a stone, or two
    # stones) can follow north; (7,7) itself has no passive move.
    state = position(
        """
        x...|x...
        ....|....
        ....|....
        ...o|...o
        ----+----
        ....|....
        ....|...o
        .o..|..oo
        xo..|..ox
        """
    )
    assert GAME.legal_moves(state) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert_illegal(state, turn((0, 7), (4, 0), N), "(4,0)->(4,-1) leaves the top-right board")
    assert_illegal(state, turn((0, 7), (7, 7), N), "onto (7,5), which holds a WHITE stone")
    assert_illegal(state, turn((0, 7), (7, 7), N2), "two stones")
    # Free the square beyond (7,6) and both headings work: (7,6) is pushed to (7,5) or (7,4).
    freed = state_from_board(state.board[:47] + "." + state.board[48:])
    assert GAME.legal_moves(freed) == [turn((0, 7), (7, 7), N), turn((0, 7), (7, 7), N2)]


# --- figures from the start -------------------------------------------------------------------


def test_start_counts_for_both_colours() -> None:
    black_moves = GAME.legal_moves(START)
    assert len(black_moves) == 232 and len(set(black_moves)) == 232
    white_moves = GAME.legal_moves(START._replace(turn=Color.WHITE))
    assert len(white_moves) == 232
    assert count_legal_turns(START) == 232
    assert len({GAME.apply(START, m).board for m in black_moves}) == 174


def test_perft_two_from_the_start_fast_and_plain() -> None:
    assert GAME.perft(START, 1) == 232
    assert GAME.perft(START, 2) == 50508
    assert Game.perft(GAME, START, 2) == 50508
    by_hand = sum(len(GAME.legal_moves(GAME.apply(START, m))) for m in GAME.legal_moves(START))
    assert by_hand == 50508
    divided = GAME.divide(START, 2)
    assert [m for m, _ in divided] == GAME.legal_moves(START)
    assert sum(n for _, n in divided) == 50508


def test_plain_generator_in_bench_gives_the_published_numbers() -> None:
    plain = load_plain()
    assert plain.plain_perft(1) == 232
    assert plain.plain_perft(2) == 50508


def test_fast_perft_matches_the_plain_generator_in_random_positions() -> None:
    plain = load_plain()
    rng = random.Random(7)
    for i in range(40):
        state = random_opening(GAME, rng.randrange(1, 40), rng)
        me = "x" if state.turn is Color.BLACK else "o"
        grid = plain.board_from_string(state.board)
        plain_turns = {(p, a, h) for p, a, h in plain.legal_turns(grid, me)}
        mine = {(m.passive_origin, m.aggressive_origin, m.heading) for m in GAME.legal_moves(state)}
        assert mine == plain_turns
        for move in GAME.legal_moves(state)[:: max(1, len(plain_turns) // 5)]:
            plain_turn = (move.passive_origin, move.aggressive_origin, move.heading)
            theirs = plain.apply_turn(grid, plain_turn, me)
            assert GAME.apply(state, move).board == "".join("".join(row) for row in theirs)
        if i < 3:
            assert GAME.perft(state, 2) == plain.perft_from(grid, me, 2)


# --- the seed README's examples ---------------------------------------------------------------


def test_seed_pass_through_example() -> None:
    state = GAME.state_from_json({"board": START_BOARD, "turn": "BLACK", "turnNumber": 0})
    wire = {
        "passive": {"origin": {"x": 6, "y": 7}, "heading": {"x": 0, "y": -1}},
        "aggressive": {"origin": {"x": 3, "y": 3}, "heading": {"x": 0, "y": -1}},
    }
    _, nxt = GAME.play_wire(state, wire)
    # (6,7) steps up to (6,6) on the bottom-right board; (3,3) steps up to (3,2) on the top-left.
    assert GAME.state_to_json(nxt) == {
        "board": "oooooooo"
        "........"
        "...x...."
        "xxx.xxxx"
        "oooooooo"
        "........"
        "......x."
        "xxxxxx.x",
        "turn": "WHITE",
        "turnNumber": 1,
    }


def test_seed_bot_message_and_record_first_turn_are_legal_from_the_start() -> None:
    bot_reply = {
        "passive": {"origin": {"x": 0, "y": 7}, "heading": {"x": 0, "y": -1}},
        "aggressive": {"origin": {"x": 4, "y": 3}, "heading": {"x": 0, "y": -1}},
    }
    assert GAME.play_wire(START, bot_reply)[0] == turn((0, 7), (4, 3), N)
    record_first = {
        "passive": {"origin": {"x": 1, "y": 7}, "heading": {"x": 1, "y": -1}},
        "aggressive": {"origin": {"x": 6, "y": 7}, "heading": {"x": 1, "y": -1}},
    }
    assert GAME.play_wire(START, record_first)[0] == turn((1, 7), (6, 7), NE)


def test_seed_record_last_turn_wins_for_black() -> None:
    state = GAME.state_from_json(
        {
            "turn": "BLACK",
            "board": "o.....ooo.o.o.....o.....xxxx.ox...o.o.....x..x...xx...x......x..",
            "turnNumber": 58,
        }
    )
    last = {
        "passive": {"origin": {"y": 6, "x": 2}, "heading": {"y": -1, "x": -1}},
        "aggressive": {"origin": {"y": 5, "x": 5}, "heading": {"x": -1, "y": -1}},
    }
    _, final = GAME.play_wire(state, last)
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome.winner_name == "BLACK"
    assert outcome.reason == "WHITE has no stones left on the bottom-right board"
