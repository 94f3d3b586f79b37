"""The rules' fast paths (the match's per-ply calls) give exactly what the strict paths give.

Each fast path is held to a reference: Shobu's ``check_move`` and ``count_turns``; checkers'
legal-move list; and plain re-implementations of the board renderings as they were before the
tables. The move parsers have no fast twin: their tests only check that odd
input gives a move or a MoveSyntaxError.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

import arena.games.checkers.rules as checkers_module
from arena.games import Color, get_game
from arena.games.base import IllegalMoveError, MoveSyntaxError, Outcome, Termination
from arena.games.checkers.board import COORDS, INDEX_OF
from arena.games.shobu import core
from arena.games.shobu.checks import check_move, stones_outcome
from arena.games.shobu.rules import ShobuMove, ShobuState, count_legal_turns

SHOBU = get_game("shobu")
CHECKERS = get_game("checkers")


def _same(fast: Callable[[], Any], strict: Callable[[], Any]) -> None:
    """Both return equal values, or both raise the same exception type with the same message."""
    try:
        expected: Any = strict()
    except (MoveSyntaxError, IllegalMoveError) as exc:
        expected = exc
    try:
        got: Any = fast()
    except (MoveSyntaxError, IllegalMoveError) as exc:
        got = exc
    if isinstance(expected, Exception):
        assert type(got) is type(expected) and str(got) == str(expected), (got, expected)
    else:
        assert not isinstance(got, Exception), got
        assert got == expected and type(got) is type(expected)


def _playout_states(game: Any, seed: int, games: int, start: Any = None) -> list[Any]:
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.initial_state() if start is None else start
        for _ in range(80):
            states.append(state)
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
        states.append(state)
    return states


def _random_shobu_state(rng: random.Random, dense: bool) -> ShobuState:
    black = white = 0
    for q in range(4):
        squares = list(range(16))
        rng.shuffle(squares)
        if dense:
            k = rng.randint(1, 15)
            m = rng.randint(1, 16 - k)
        else:
            k, m = rng.randint(0, 4), rng.randint(0, 4)
        for i in squares[:k]:
            black |= 1 << (16 * q + i)
        for i in squares[k : k + m]:
            white |= 1 << (16 * q + i)
    return ShobuState(black, white, rng.choice([Color.BLACK, Color.WHITE]), rng.randint(0, 50))


def _shobu_reference_outcome(state: ShobuState) -> Outcome | None:
    """ShobuGame.outcome as it was: count every legal turn."""
    if not (core.every_quadrant_occupied(state.black) and core.every_quadrant_occupied(state.white)):
        return stones_outcome(state)
    if count_legal_turns(state):
        return None
    return Outcome(Termination.NO_LEGAL_MOVES, state.turn.other, f"{state.turn.value} has no legal turn")


def _shobu_strict_validate(state: ShobuState, move: Any) -> ShobuMove:
    p, a, h = check_move(state, move)
    return ShobuMove(core.XY_OF_PACKED[p], core.XY_OF_PACKED[a], core.HEADINGS[h], None)


def _shobu_mutations(move: ShobuMove, rng: random.Random) -> list[Any]:
    (px, py), (ax, ay), (hx, hy) = move.passive_origin, move.aggressive_origin, move.heading
    some = lambda: rng.randint(-1, 8)  # noqa: E731 - a tiny local helper reads better here
    return [
        ShobuMove((px, py), (ax, ay), (-hx, -hy)),
        ShobuMove((ax, ay), (px, py), (hx, hy)),
        ShobuMove((some(), some()), (ax, ay), (hx, hy)),
        ShobuMove((px, py), (some(), some()), (hx, hy)),
        ShobuMove((px, py), (ax, ay), (rng.randint(-2, 2), rng.randint(-2, 2))),
        ShobuMove((px, py), (ax, ay), (hx, hy), (hy, hx)),
        ShobuMove((px, py), (ax, ay), (hx, hy), (hx, hy)),
        ShobuMove((px, py), (ax, ay), (3 * hx, 3 * hy)),
        ShobuMove((bool(px), py), (ax, ay), (hx, hy)),
        ShobuMove((float(px), py), (ax, ay), (hx, hy)),
        ShobuMove((px, py), (ax, ay), (float(hx), hy)),
        ShobuMove([px, py], (ax, ay), (hx, hy)),  # type: ignore[arg-type]
        (move.passive_origin, move.aggressive_origin, move.heading, None),
        ShobuMove((px, py, 0), (ax, ay), (hx, hy)),  # type: ignore[arg-type]
    ]


def test_shobu_validate_fast_path_matches_check_move() -> None:
    rng = random.Random(5)
    for state in _playout_states(SHOBU, 11, 6):
        legal = SHOBU.legal_moves(state)
        for move in legal:
            assert SHOBU.validate_move(state, move) == move
        for move in rng.sample(legal, min(len(legal), 25)):
            for mutated in _shobu_mutations(move, rng):
                _same(partial(SHOBU.validate_move, state, mutated), partial(_shobu_strict_validate, state, mutated))


def test_shobu_is_legal_turn_is_membership_in_turns() -> None:
    rng = random.Random(8)
    states = _playout_states(SHOBU, 3, 1)[::20] + [_random_shobu_state(rng, dense=True) for _ in range(2)]
    for state in states:
        own, opp = (state.black, state.white) if state.turn is Color.BLACK else (state.white, state.black)
        black = state.turn is Color.BLACK
        legal = set(core.turns(own, opp, black))
        for p in range(64):
            for a in range(64):
                for h in range(16):
                    assert core.is_legal_turn(own, opp, black, p, a, h) == ((p, a, h) in legal)


def test_shobu_outcome_and_has_turn_match_counting() -> None:
    rng = random.Random(2)
    states = _playout_states(SHOBU, 4, 4)
    states += [_random_shobu_state(rng, dense) for dense in (True, False) for _ in range(1500)]
    no_turn = 0
    for state in states:
        assert SHOBU.outcome(state) == _shobu_reference_outcome(state)
        for black in (True, False):
            counted = core.count_turns(state.black, state.white, black)
            assert core.has_turn(state.black, state.white, black) == (counted > 0)
        no_turn += _shobu_reference_outcome(state) is not None
    assert no_turn > 50  # the dense random boards reach "no legal turn" and wins, not only play


def _shobu_wires(rng: random.Random) -> list[Any]:
    legal = SHOBU.move_to_wire(SHOBU.legal_moves(SHOBU.initial_state())[7])
    wires: list[Any] = [legal, {}, [], "turn", None, {"passive": legal["passive"]}]
    for _ in range(300):
        wire = SHOBU.move_to_wire(SHOBU.legal_moves(SHOBU.initial_state())[rng.randrange(200)])
        part = rng.choice(["passive", "aggressive"])
        field = rng.choice(["origin", "heading"])
        key = rng.choice(["x", "y"])
        change = rng.randrange(9)
        if change == 0:
            wire[part][field][key] = rng.choice([True, False, 1.0, "1", None, -7, 2**70])
        elif change == 1:
            del wire[part][field][key]
        elif change == 2:
            wire[part][field]["z"] = 1
        elif change == 3:
            wire[part][field] = [1, 2]
        elif change == 4:
            wire[part]["extra"] = {}
        elif change == 5:
            del wire[part]
        elif change == 6:
            wire["type"] = "turn"
        elif change == 7:
            wire["aggressive"]["heading"] = {"x": rng.randint(-2, 2), "y": rng.randint(-2, 2)}
        wires.append(wire)
    return wires


def test_shobu_parse_reads_a_move_or_names_the_problem() -> None:
    """Mangled payloads give a ShobuMove or a MoveSyntaxError, never another exception."""
    read = 0
    for wire in _shobu_wires(random.Random(9)):
        try:
            move = SHOBU.parse_move(wire)
        except MoveSyntaxError as exc:
            assert str(exc)
        else:
            read += 1
            assert type(move) is ShobuMove and SHOBU.parse_move(SHOBU.move_to_wire(move)) == move
    assert read > 10


def _board_reference(black: int, white: int) -> str:
    return "".join("x" if black & bit else "o" if white & bit else "." for bit in core.BIT_OF_BOARD_INDEX)


def test_shobu_board_tables_match_the_square_by_square_board() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        black, white = rng.getrandbits(64), rng.getrandbits(64)  # overlaps too: black wins a square
        assert core.board_from_masks(black, white) == _board_reference(black, white)
    for state in _playout_states(SHOBU, 1, 2):
        assert SHOBU.state_to_json(state) == {"board": state.board, "turn": state.turn.value,
                                              "turnNumber": state.turn_number}


# -- checkers ------------------------------------------------------------------------------------


def _checkers_strict_validate(state: Any, move: Any) -> Any:
    legal = CHECKERS.legal_moves(state)
    if move in legal:
        return move
    raise IllegalMoveError(checkers_module.explain_illegal(state, move.path, legal, CHECKERS.describe_move))


def _checkers_states() -> list[Any]:
    kings = CHECKERS.state_from_json({"board": [
        ". b . . . b . b", "b . . . b . . .", ". b . B . . . .", ". . w . . . . .",
        ". . . . . W . .", ". . w . w . . .", ". w . . . w . .", "w . . . w . w .",
    ], "turn": "WHITE", "turnNumber": 9})
    return _playout_states(CHECKERS, 21, 8) + _playout_states(CHECKERS, 22, 4, kings)


def test_checkers_validate_fast_path_matches_the_legal_list() -> None:
    rng = random.Random(6)
    for state in _checkers_states():
        for move in CHECKERS.legal_moves(state):
            assert CHECKERS.validate_move(state, move) is move
        for _ in range(30):
            start = rng.choice(COORDS) if rng.random() < 0.9 else (rng.randint(-1, 8), rng.randint(-1, 8))
            dc, dr = rng.choice([-1, 1, 2, -2, 0]), rng.choice([-1, 1, 2, -2, 0])
            move = checkers_module.CheckersMove.from_path([start, (start[0] + dc, start[1] + dr)])
            _same(partial(CHECKERS.validate_move, state, move), partial(_checkers_strict_validate, state, move))
        # A move whose masks do not match its path is judged by its path, as before.
        for move in CHECKERS.legal_moves(state)[:3]:
            odd = move._replace(path=((0, 0), (1, 1)))
            _same(partial(CHECKERS.validate_move, state, odd), partial(_checkers_strict_validate, state, odd))


def test_checkers_parse_reads_a_move_or_names_the_problem() -> None:
    """Odd lines give the move of their path or a MoveSyntaxError, never another exception."""
    rng = random.Random(7)
    lines = ["2 3 2 2 3", "02 3 2 2 3", "2 +3 2 2 3", "2 1_0 2 2 3", "2 \u0663 2 2 3", "2 3 2 2", "2 3 2 2 3 4",
             "2\t3 2  2 3\r", "3 1 2 3 4 5 6", "2 0 0 1 1", "2 9 9 8 8", "", "x", "2 3 2 2 3x"]
    for _ in range(400):
        lines.append(" ".join(["2"] + [str(rng.randint(-1, 9)) for _ in range(4)]))
    read = 0
    for line in lines:
        try:
            move = CHECKERS.parse_move(line)
        except MoveSyntaxError as exc:
            assert str(exc)
        else:
            read += 1
            assert move == checkers_module.CheckersMove.from_path(move.path)
            assert CHECKERS.parse_move(CHECKERS.move_to_wire(move)) == move
    assert read > 100
    assert CHECKERS.parse_move(b"2 3 2 2 3") == CHECKERS.parse_move("2 3 2 2 3")
    for wire in (b"\xff", 5, None):
        with pytest.raises(MoveSyntaxError):
            CHECKERS.parse_move(wire)


def _board_lines_reference(state: Any) -> list[str]:
    cells = [["."] * 8 for _ in range(8)]
    for index, (col, row) in enumerate(COORDS):
        bit = 1 << index
        if state.black & bit:
            cells[row][col] = "B" if state.kings & bit else "b"
        elif state.white & bit:
            cells[row][col] = "W" if state.kings & bit else "w"
    return [" ".join(row) for row in cells]


def _describe_reference(move: Any) -> str:
    jump = any(abs(c2 - c1) == 2 for (c1, _), (c2, _) in itertools.pairwise(move.path))
    names = [str(INDEX_OF[sq] + 1) if sq in INDEX_OF else f"({sq[0]},{sq[1]})" for sq in move.path]
    return ("x" if jump else "-").join(names)


@pytest.mark.parametrize("seed", [1, 2])
def test_checkers_row_tables_and_notation_match_the_plain_versions(seed: int) -> None:
    rng = random.Random(seed)
    for state in _checkers_states():
        assert CHECKERS.board_lines(state) == _board_lines_reference(state)
        assert CHECKERS.state_to_json(state)["turn"] == state.turn.value
        for move in CHECKERS.legal_moves(state):
            assert CHECKERS.describe_move(move) == _describe_reference(move)
    for _ in range(300):
        black = rng.getrandbits(32)
        state = checkers_module.CheckersState(black, rng.getrandbits(32) & ~black, rng.getrandbits(32),
                                              Color.BLACK, 0)
        assert CHECKERS.board_lines(state) == _board_lines_reference(state)
        path = ((rng.randint(-1, 8), rng.randint(-1, 8)), (rng.randint(-1, 8), rng.randint(-1, 8)))
        move = checkers_module.CheckersMove.from_path(path)
        assert CHECKERS.describe_move(move) == _describe_reference(move)
