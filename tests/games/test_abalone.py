"""Abalone: rules as table tests on small positions (every push case, blocked pushes, broadside,
pushes off the board, the win by six), error messages, the notation, wire, record and JSON forms,
the pictures, and perft from the start. The independent second implementation is compared in
test_abalone_independent.py."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from arena.games import Color, Termination, get_game
from arena.games.abalone.board import DIRECTIONS, START_BLACK, START_WHITE
from arena.games.abalone.rules import SPEC, AbaloneGame, AbaloneMove, AbaloneState, cell_index
from arena.games.abalone.svg import board_svg
from arena.games.base import IllegalMoveError, MoveSyntaxError, StateError
from arena.games.registry import load_ref

GAME = AbaloneGame()
START_ROWS = ["wwwww", "wwwwww", "..www..", "........", ".........", "........", "..bbb..", "bbbbbb", "bbbbb"]
#: perft from the start, depths 1-3 (equal to bench/abalone_plain.py's brute-force count).
PERFT = [1, 44, 1936, 98912]
#: Far-away marbles that bring each side to nine, so that a small test position is not already won.
BLACK_FILL = ["A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4"]
WHITE_FILL = ["I5", "I6", "I7", "I8", "I9", "H4", "H5", "H6", "H7"]


def mask(names: list[str]) -> int:
    return sum(1 << cell_index(n) for n in names)


def position(black: str, white: str, turn: Color = Color.BLACK, fill: bool = True) -> AbaloneState:
    """A state with the named marbles, topped up to nine a side from the far rows when ``fill``."""
    b, w = black.split(), white.split()
    if fill:
        b += [n for n in BLACK_FILL if n not in b and n not in w][: max(0, 9 - len(b))]
        w += [n for n in WHITE_FILL if n not in b and n not in w][: max(0, 9 - len(w))]
    return AbaloneState(mask(b), mask(w), turn, 10)


def move(names: str, direction: str) -> AbaloneMove:
    return AbaloneMove(tuple(sorted(cell_index(n) for n in names.split())), DIRECTIONS.index(direction))


def cells_of(state_mask: int) -> set[str]:
    from arena.games.abalone.board import bits
    from arena.games.abalone.rules import cell_name

    return {cell_name(i) for i in bits(state_mask)}


# --- the start -----------------------------------------------------------------------------------


def test_start_position_and_perft() -> None:
    start = GAME.initial_state()
    assert GAME.state_to_json(start) == {"board": START_ROWS, "turn": "BLACK", "turnNumber": 0}
    assert (start.black, start.white) == (START_BLACK, START_WHITE)
    assert start.black.bit_count() == start.white.bit_count() == 14
    assert [GAME.perft(start, d) for d in range(4)] == PERFT
    assert generic_perft(start, 2) == PERFT[2]
    assert sum(n for _, n in GAME.divide(start, 2)) == PERFT[2]


def generic_perft(state: AbaloneState, depth: int) -> int:
    """Base-class perft (legal_moves/apply), not the mask counter."""
    from arena.games.base import Game

    return Game.perft(GAME, state, depth)


def test_registry_entry() -> None:
    assert get_game("abalone") is not None and SPEC.name == GAME.name == "abalone"
    assert load_ref(SPEC.svg or "") is board_svg
    assert GAME.default_max_moves == SPEC.default_max_moves == 200


# --- pushes (sumito) ------------------------------------------------------------------------------


@pytest.mark.parametrize(("black", "white", "line", "black_after", "white_after"), [
    ("E3 E4", "E5", "E3 E4", "E4 E5", "E6"),                       # 2 push 1
    ("E2 E3 E4", "E5", "E2 E3 E4", "E3 E4 E5", "E6"),              # 3 push 1
    ("E2 E3 E4", "E5 E6", "E2 E3 E4", "E3 E4 E5", "E6 E7"),        # 3 push 2
    ("E7 E8", "E9", "E7 E8", "E8 E9", ""),                         # 2 push 1 off the board
    ("E5 E6 E7", "E8 E9", "E5 E6 E7", "E6 E7 E8", "E9"),           # 3 push 2, one off
    ("C3 D4", "E5", "C3 D4", "D4 E5", "F6"),                       # diagonal (NE) push
])
def test_pushes(black: str, white: str, line: str, black_after: str, white_after: str) -> None:
    state = position(black, white)
    mv = move(line, "E" if line.split()[0][0] == line.split()[-1][0] else "NE")
    assert GAME.validate_move(state, mv) == mv
    assert mv in GAME.legal_moves(state)
    after = GAME.apply(state, mv)
    assert set(black_after.split()) <= cells_of(after.black)
    assert not (set(black.split()) - set(black_after.split())) & cells_of(after.black)
    test_white = set(white.split()) | set(white_after.split())
    assert cells_of(after.white) & test_white == set(white_after.split())
    pushed_off = len(white.split()) - len(white_after.split())
    assert after.white.bit_count() == state.white.bit_count() - pushed_off
    assert after.turn is Color.WHITE and after.turn_number == state.turn_number + 1


@pytest.mark.parametrize(("black", "white", "line", "direction", "reason"), [
    ("E4", "E5", "E4", "E", "1 marble cannot push 1"),
    ("E3 E4", "E5 E6", "E3 E4", "E", "2 marbles cannot push 2"),
    ("E2 E3 E4", "E5 E6 E7", "E2 E3 E4", "E", "3 marbles cannot push 3"),
    ("E3 E4 E6", "E5", "E3 E4", "E", "blocked by the Black marble on E6"),
    ("E2 E3 E4 E7", "E5 E6", "E2 E3 E4", "E", "blocked by the Black marble on E7"),
    ("E2 E3 E4 E5", "", "E2 E3 E4", "E", "E5 holds a Black marble"),
    ("E9", "", "E9", "E", "E9 would leave the board"),
    ("E8 E9", "", "E8 E9", "E", "E9 would leave the board"),
    ("A1 A2 A3", "", "A1 A2 A3", "SE", "A1 would leave the board"),
    ("D3 D4 D5", "E4", "D3 D4 D5", "NW", "E4 is taken"),
    ("D3 D4 D5 E6", "", "D3 D4 D5", "NE", "E6 is taken"),
    ("D3 D5", "", "D3 D5", "NW", "next to each other in one straight line"),
    ("D3 E5", "", "D3 E5", "NW", "next to each other in one straight line"),
    ("D3", "D4", "D3 D4", "NW", "D4 is White's"),
    ("D3", "", "D3 D4", "NW", "D4 is empty"),
])
def test_illegal_moves_say_why(black: str, white: str, line: str, direction: str, reason: str) -> None:
    state = position(black, white)
    mv = move(line, direction)
    with pytest.raises(IllegalMoveError, match=reason):
        GAME.validate_move(state, mv)
    assert mv not in GAME.legal_moves(state)


def test_broadside_moves_every_marble_and_never_pushes() -> None:
    state = position("D3 D4 D5", "")
    mv = move("D3 D4 D5", "NW")
    after = GAME.apply(state, GAME.validate_move(state, mv))
    assert {"E3", "E4", "E5"} <= cells_of(after.black) and not {"D3", "D4", "D5"} & cells_of(after.black)
    assert GAME.describe_move(mv) == "D3D5E3"
    blocked = position("D3 D4 D5", "E5")
    assert mv not in GAME.legal_moves(blocked)


def test_win_by_six_and_game_over() -> None:
    # White has nine marbles; E9 goes off: six pushed off, Black wins.
    state = position("E7 E8", "E9")
    assert state.white.bit_count() == 9
    after = GAME.apply(state, move("E7 E8", "E"))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.termination is Termination.WIN and outcome.winner is Color.BLACK
    assert "pushed 6 marbles off" in outcome.reason
    assert GAME.legal_moves(after) == [] and GAME.perft(after, 2) == 0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        GAME.validate_move(after, move("I5", "SE"))
    assert GAME.outcome(state) is None


def test_a_side_without_a_legal_move_loses() -> None:
    # Found by a local search over positions: every Black marble is walled in by White marbles and
    # the edge, and no Black line outnumbers what stands before it. Practically never met in play.
    stuck = position("A1 A2 A4 A5 B1 B6 C7 D8 E9",
                     "A3 B2 B3 B4 B5 C1 C2 C6 D1 D7 E8 F4 F9 H8", fill=False)
    assert GAME.legal_moves(stuck) == []
    outcome = GAME.outcome(stuck)
    assert outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
    assert outcome.winner is Color.WHITE and "BLACK has no legal move" in outcome.reason
    assert GAME.state_from_json(GAME.state_to_json(stuck)) == stuck


# --- notation -------------------------------------------------------------------------------------


def test_notation_of_inline_and_broadside_moves() -> None:
    start = GAME.initial_state()
    assert GAME.describe_move(move("A1", "NE")) == "A1B2"
    assert GAME.describe_move(move("A1 B2 C3", "NE")) == "A1B2"
    assert GAME.describe_move(move("C3 C4 C5", "W")) == "C5C4"
    assert GAME.describe_move(move("C3 C4 C5", "NW")) == "C3C5D3"
    assert GAME.parse_notation("c3c5d3", start) == move("C3 C4 C5", "NW")
    assert GAME.parse_notation("C5 C3 D5", start) == move("C3 C4 C5", "NW")  # the other end first
    assert GAME.parse_notation("C5-C4", start) == move("C3 C4 C5", "W")
    assert GAME.parse_notation("B1C2", start) == move("B1", "NE")
    # A1, B2 and C3 are Black and D4 is empty: the line from A1 towards B2 is all three.
    assert GAME.parse_notation("A1B2", start) == move("A1 B2 C3", "NE")
    assert GAME.parse_notation("B2C3", start) == move("B2 C3", "NE")


def test_parse_notation_errors() -> None:
    start = GAME.initial_state()
    for text, error, message in [
        ("", MoveSyntaxError, "no move given"),
        ("A1", MoveSyntaxError, "is not a move"),
        ("A1C3", MoveSyntaxError, "C3 is not next to A1"),
        ("A9B1", MoveSyntaxError, "not a cell of the board"),
        ("C3C5C4", MoveSyntaxError, "inline move"),
        ("C3E4D3", MoveSyntaxError, "not the ends of a line"),
        ("E1F2", IllegalMoveError, "E1 is empty"),
        ("C3C2", IllegalMoveError, None),
    ]:
        if message is None:
            assert GAME.parse_notation(text, start) == move("C3", "W")  # a lone marble
            continue
        with pytest.raises(error, match=message):
            GAME.parse_notation(text, start)
    four = position("E1 E2 E3 E4", "")
    with pytest.raises(IllegalMoveError, match="4 marbles in a line"):
        GAME.parse_notation("E1E2", four)


def test_notation_round_trips_on_random_positions() -> None:
    rng = random.Random(5)
    state = GAME.initial_state()
    checked = 0
    for _ in range(120):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        for mv in moves:
            assert GAME.parse_notation(GAME.describe_move(mv), state) == mv
            assert GAME.parse_move(GAME.move_to_wire(mv)) == mv
            assert GAME.move_from_record(GAME.move_to_record(mv)) == mv
            checked += 1
        state = GAME.apply(state, rng.choice(moves))
    assert checked > 5000


# --- wire, record and state forms ---------------------------------------------------------------------


def test_wire_form() -> None:
    mv = move("C3 C4 C5", "NW")
    assert GAME.move_to_wire(mv) == {"marbles": ["C3", "C4", "C5"], "direction": "NW"}
    assert GAME.parse_move({"marbles": ["c5", "C3", "C4"], "direction": "nw"}) == mv
    assert GAME.move_to_record(mv) == {"marbles": ["C3", "C4", "C5"], "direction": "NW", "notation": "C3C5D3"}
    for wire, message in [
        ("C3C5D3", "must be an object"),
        ({"marbles": ["C3"]}, "missing key 'direction'"),
        ({"marbles": ["C3"], "direction": "N", }, "is not one of E, NE"),
        ({"marbles": [], "direction": "E"}, "1-3 cells"),
        ({"marbles": ["C3", "C4", "C5", "C6"], "direction": "E"}, "1-3 cells"),
        ({"marbles": ["C3", "C3"], "direction": "E"}, "twice"),
        ({"marbles": ["J1"], "direction": "E"}, "not a cell"),
        ({"marbles": ["A6"], "direction": "E"}, "not a cell"),
        ({"marbles": [3], "direction": "E"}, "not a cell"),
        ({"marbles": ["C3"], "direction": "E", "x": 1}, "unexpected key"),
    ]:
        with pytest.raises(MoveSyntaxError, match=message):
            GAME.parse_move(wire)
    with pytest.raises(MoveSyntaxError, match="notation"):
        GAME.move_from_record({"marbles": ["C3", "C4", "C5"], "direction": "NW", "notation": "C3C4"})


def test_state_json_round_trip_and_refusals() -> None:
    rng = random.Random(2)
    state = GAME.initial_state()
    for _ in range(200):
        assert GAME.state_from_json(GAME.state_to_json(state)) == state
        moves = GAME.legal_moves(state)
        if not moves:
            break
        state = GAME.apply(state, rng.choice(moves))
    good = {"board": START_ROWS, "turn": "BLACK", "turnNumber": 0}
    for board, message in [
        (START_ROWS[:8], "9 strings"),
        (["wwwwww", *START_ROWS[1:]], "row I"),
        ([*START_ROWS[:8], "bbbbx"], "is not one of b w"),
        (["wwwww", "wwwwww", "wwwwwww", *START_ROWS[3:]], "at most 14"),
        (["wwwww", "wwww..", *(["." * n for n in (7, 8, 9, 8, 7, 6)]), "bbbbb"], "has 5 marbles"),
    ]:
        with pytest.raises(StateError, match=message):
            GAME.state_from_json({**good, "board": board})


def test_pictures() -> None:
    state = GAME.initial_state()
    text = GAME.board_text(state)
    assert text.splitlines()[0].strip() == "I w w w w w" and "A b b b b b" in text
    mv = move("C3 C4 C5", "NW")
    root = ET.fromstring(board_svg(GAME.apply(state, mv), last_move=mv))
    assert root.tag.endswith("svg") and "viewBox" in root.attrib
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}polygon")) == 61
    assert len(root.findall(f"{ns}circle[@class='black']")) == 14
    assert len(root.findall(f"{ns}circle[@class='last-to']")) == 3
