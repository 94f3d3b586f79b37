"""Breakthrough: rules (table tests on pictured positions), error messages, the JSON, wire and
notation forms, the pictures, and perft checked against a deliberately naive second implementation
written here (a dict of squares and its own move generator, sharing no code with the module)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from arena.agents.parts import search_ref
from arena.games import Color, Termination, get_game
from arena.games.base import Game, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.breakthrough.rules import (
    ROW_1,
    ROW_8,
    SPEC,
    BreakthroughGame,
    BreakthroughMove,
    BreakthroughState,
    board_svg,
    square_index,
    square_name,
)
from arena.games.registry import load_ref

GAME = BreakthroughGame()
START = ["wwwwwwww", "wwwwwwww", "........", "........", "........", "........", "bbbbbbbb", "bbbbbbbb"]
#: Leaf counts from the start, depth 0-6: the module's counter and the naive one below agree
#: (depth 6 took ~8 s with the fast counter, so the tests stop at 5 for it and 4 for the naive one).
PERFT = [1, 22, 484, 11132, 256036, 6182818, 149264638]


def state(rows: list[str], turn: str = "BLACK", number: int = 10) -> BreakthroughState:
    return GAME.state_from_json({"board": rows, "turn": turn, "turnNumber": number})


def mv(text: str) -> BreakthroughMove:
    """``"a2-a3"`` as a move (capture flag unset, as parse_move gives)."""
    return BreakthroughMove(square_index(text[:2]), square_index(text[3:]))


# --- a naive second implementation --------------------------------------------------------------
# Squares are (file, row) with file 0-7 (a-h) and row 1-8; the board a dict of occupied squares.


def naive_board(rows: list[str]) -> dict[tuple[int, int], str]:
    return {(f, 8 - i): c for i, line in enumerate(rows) for f, c in enumerate(line) if c != "."}


def naive_over(board: dict[tuple[int, int], str], turn: str) -> bool:
    """The side to move has lost: the other side stands on its far row, or it has no pieces."""
    other, far = ("w", 1) if turn == "b" else ("b", 8)
    if any(p == other and row == far for (_, row), p in board.items()):
        return True
    return not any(p == turn for p in board.values())


def naive_moves(board: dict[tuple[int, int], str], turn: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    if naive_over(board, turn):
        return []
    step = 1 if turn == "b" else -1
    out = []
    for (f, r), piece in board.items():
        if piece != turn:
            continue
        ahead = (f, r + step)
        if 1 <= ahead[1] <= 8 and ahead not in board:
            out.append(((f, r), ahead))
        for df in (-1, 1):
            diag = (f + df, r + step)
            if 0 <= diag[0] <= 7 and 1 <= diag[1] <= 8 and board.get(diag) != turn:
                out.append(((f, r), diag))
    return out


def naive_perft(board: dict[tuple[int, int], str], turn: str, depth: int) -> int:
    if depth == 0:
        return 1
    moves = naive_moves(board, turn)
    if depth == 1:
        return len(moves)
    total = 0
    for origin, target in moves:
        after = dict(board)
        del after[origin]
        after[target] = turn
        total += naive_perft(after, "w" if turn == "b" else "b", depth - 1)
    return total


def random_states(count: int, seed: int, *, live: bool = True) -> list[BreakthroughState]:
    """States met in random playouts, at every stage of the game (only unfinished ones if ``live``)."""
    rng = random.Random(seed)
    found: list[BreakthroughState] = []
    while len(found) < count:
        current = GAME.initial_state()
        for _ in range(rng.randrange(0, 90)):
            moves = GAME.legal_moves(current)
            if not moves:
                break
            current = GAME.apply(current, rng.choice(moves))
        if not live or GAME.outcome(current) is None:
            found.append(current)
    return found


# --- perft ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(6))
def test_perft_from_the_start(depth: int) -> None:
    assert GAME.perft(GAME.initial_state(), depth) == PERFT[depth]


@pytest.mark.parametrize("depth", range(1, 5))
def test_naive_perft_from_the_start(depth: int) -> None:
    assert naive_perft(naive_board(START), "b", depth) == PERFT[depth]


@pytest.mark.parametrize("depth", range(1, 4))
def test_plain_recursion_agrees(depth: int) -> None:
    assert Game.perft(GAME, GAME.initial_state(), depth) == PERFT[depth]


@pytest.mark.parametrize("index, position", list(enumerate(random_states(12, 909, live=False))))
def test_perft_matches_the_naive_one_in_random_positions(index: int, position: BreakthroughState) -> None:
    rows = GAME.state_to_json(position)["board"]
    turn = "b" if position.turn is Color.BLACK else "w"
    for depth in (1, 2, 3):
        assert GAME.perft(position, depth) == naive_perft(naive_board(rows), turn, depth), (index, depth)


def test_legal_moves_match_the_naive_generator() -> None:
    for position in random_states(60, 4242, live=False):
        rows = GAME.state_to_json(position)["board"]
        turn = "b" if position.turn is Color.BLACK else "w"
        naive = {(o[0] + 8 * (o[1] - 1), t[0] + 8 * (t[1] - 1)) for o, t in naive_moves(naive_board(rows), turn)}
        ours = GAME.legal_moves(position)
        assert {(m.origin, m.target) for m in ours} == naive
        assert ours == sorted(ours, key=lambda m: (m.origin, m.target))
        enemy = position.white if position.turn is Color.BLACK else position.black
        assert all(m.capture == bool(enemy >> m.target & 1) for m in ours)


def test_divide_and_negative_depth() -> None:
    start = GAME.initial_state()
    divided = GAME.divide(start, 3)
    assert sum(count for _, count in divided) == PERFT[3]
    with pytest.raises(ValueError):
        GAME.perft(start, -1)


# --- rules ----------------------------------------------------------------------------------------

# A middle game: Black (up) and White (down) in contact on d4/e5, c5.
MIDDLE = [
    "wwwwwwww",
    "ww.ww.ww",
    "........",
    "..w.w...",
    "...b....",
    "........",
    "bbb.bbbb",
    "bbbbbbbb",
]


@pytest.mark.parametrize("turn, move, captures", [
    ("BLACK", "d4-d5", False),   # straight onto an empty square
    ("BLACK", "d4xc5", True),    # diagonal capture, towards file a
    ("BLACK", "d4xe5", True),    # diagonal capture, towards file h
    ("BLACK", "a2-a3", False),
    ("BLACK", "a2-b3", False),   # diagonal onto an empty square
    ("BLACK", "c1-d2", False),   # d2 is empty in this picture
    ("WHITE", "c5xd4", True),
    ("WHITE", "e5xd4", True),
    ("WHITE", "e5-e4", False),
    ("WHITE", "h7-g6", False),
])
def test_legal_moves_in_a_middle_game(turn: str, move: str, captures: bool) -> None:
    position = state(MIDDLE, turn)
    legal = GAME.validate_move(position, mv(move))
    assert legal in GAME.legal_moves(position)
    assert legal.capture is captures
    assert GAME.describe_move(legal) == move


@pytest.mark.parametrize("turn, move, message", [
    ("BLACK", "d3-d4", "d3-d4: there is no piece on d3"),
    ("BLACK", "c5-c4", "c5-c4: the piece on c5 is White's; Black is to move"),
    ("BLACK", "d4-d3", "d4-d3: a piece never moves backwards (Black moves towards row 8)"),
    ("BLACK", "d4-e4", ("d4-e4: a piece never moves sideways; it goes one square forward or"
                        " diagonally forward (Black moves towards row 8)")),
    ("BLACK", "d4-d4", "d4-d4: a piece never moves sideways"),
    ("BLACK", "a2-a4", "a2-a4: a piece moves one square only, forward or diagonally forward"),
    ("BLACK", "a2-c3", "a2-c3: a piece moves one square only"),
    ("BLACK", "a1-a2", "a1-a2: a2 is taken by another Black piece"),
    ("BLACK", "b1-c2", "b1-c2: c2 is taken by another Black piece"),
    ("WHITE", "c5-c4", "c5-c4"),  # legal moves (message == move) keep their neighbours honest
    ("WHITE", "e5-e4", "e5-e4"),
    ("WHITE", "c6-c5", "c6-c5: there is no piece on c6"),
    ("WHITE", "b7-b8", "b7-b8: a piece never moves backwards (White moves towards row 1)"),
])
def test_illegal_moves_say_why(turn: str, move: str, message: str) -> None:
    position = state(MIDDLE, turn)
    if message == move:
        assert GAME.validate_move(position, mv(move)) == mv(move)
        return
    with pytest.raises(IllegalMoveError) as info:
        GAME.validate_move(position, mv(move))
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_straight_moves_never_capture() -> None:
    facing = ["wwwwwwww", "wwwwwww.", "........", "........", "...w....", "...b....", "bbbbbbbb", "bbbbbbb."]
    position = state(facing)
    with pytest.raises(IllegalMoveError, match=r"^d3-d4: a piece moves straight forward only onto an empty"
                                               r" square; d4 holds an enemy piece \(captures are diagonal\)$"):
        GAME.validate_move(position, mv("d3-d4"))
    assert mv("d3-d4") not in GAME.legal_moves(position)
    white = state(facing, "WHITE")
    with pytest.raises(IllegalMoveError, match="^d4-d3: .* d3 holds an enemy piece"):
        GAME.validate_move(white, mv("d4-d3"))


def test_edge_files_have_one_diagonal() -> None:
    position = GAME.initial_state()
    from_a2 = {GAME.describe_move(m) for m in GAME.legal_moves(position) if m.origin == square_index("a2")}
    from_h2 = {GAME.describe_move(m) for m in GAME.legal_moves(position) if m.origin == square_index("h2")}
    assert from_a2 == {"a2-a3", "a2-b3"}
    assert from_h2 == {"h2-h3", "h2-g3"}


@pytest.mark.parametrize("rows, turn, winner, reason", [
    # Black stepped onto row 8: White, to move, has lost.
    (["...b....", "wwww.www", "........", "........", "........", "........", "bbb.bbbb", "bbbbbbbb"],
     "WHITE", Color.BLACK, "BLACK reached row 8 (d8)"),
    # White captured onto row 1.
    (["wwwwwwww", "wwwwwww.", "........", "........", "........", "........", "bbbbbbbb", "bbbwbbbb"],
     "BLACK", Color.WHITE, "WHITE reached row 1 (d1)"),
    # White's last piece was taken.
    (["........", "........", "....b...", "........", "........", "........", "bbbbbbbb", "bbbbbbb."],
     "WHITE", Color.BLACK, "WHITE has no pieces left"),
    (["wwwwwwww", "........", "........", "........", "........", "........", "........", "........"],
     "BLACK", Color.WHITE, "BLACK has no pieces left"),
])
def test_the_game_ends(rows: list[str], turn: str, winner: Color, reason: str) -> None:
    position = state(rows, turn)
    outcome = GAME.outcome(position)
    assert outcome is not None
    assert outcome.termination is Termination.WIN
    assert outcome.winner is winner
    assert outcome.reason == reason
    assert GAME.legal_moves(position) == []
    assert GAME.perft(position, 2) == 0
    with pytest.raises(IllegalMoveError, match=r"the game is over \("):
        GAME.validate_move(position, mv("a7-a6" if turn == "WHITE" else "a2-a3"))


def test_a_win_is_played_and_recognised() -> None:
    near = ["wwwwwww.", "wwwwwwwb", "........", "........", "........", "........", "bbbbbbb.", "bbbbbbbb"]
    position = state(near)
    won = GAME.apply(position, GAME.validate_move(position, mv("h7-h8")))
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.winner is Color.BLACK
    capture = GAME.validate_move(position, mv("h7-g8"))
    assert capture.capture and GAME.describe_move(capture) == "h7xg8"


def test_apply_moves_and_captures() -> None:
    position = state(MIDDLE)
    after = GAME.apply(position, GAME.validate_move(position, mv("d4-c5")))
    assert GAME.state_to_json(after) == {
        "board": ["wwwwwwww", "ww.ww.ww", "........", "..b.w...", "........", "........", "bbb.bbbb",
                  "bbbbbbbb"],
        "turn": "WHITE",
        "turnNumber": 11,
    }
    assert GAME.state_to_json(position)["board"] == MIDDLE  # unchanged


def test_every_game_ends_within_the_move_cap() -> None:
    # The module docstring proves 177 plies; random play is far from the bound, but never past it.
    rng = random.Random(7)
    for _ in range(200):
        current = GAME.initial_state()
        while GAME.outcome(current) is None:
            current = GAME.apply(current, rng.choice(GAME.legal_moves(current)))
            assert current.turn_number <= GAME.default_max_moves
    assert GAME.default_max_moves == 177 == SPEC.default_max_moves


# --- JSON -----------------------------------------------------------------------------------------


def test_initial_state_json() -> None:
    assert GAME.state_to_json(GAME.initial_state()) == {"board": START, "turn": "BLACK", "turnNumber": 0}


def test_json_round_trip() -> None:
    for position in random_states(100, 31, live=False):
        obj = GAME.state_to_json(position)
        # Square by square (the rows come from a table of row patterns): row 8 first, file a first.
        for i, row in enumerate(obj["board"]):
            for col, cell in enumerate(row):
                bit = 1 << (8 * (7 - i) + col)
                assert cell == ("b" if position.black & bit else "w" if position.white & bit else ".")
        assert GAME.state_from_json(obj) == position
        assert hash(GAME.state_from_json(obj)) == hash(position)


@pytest.mark.parametrize("obj, message", [
    ([], "game state must be an object, got []"),
    ({"board": START, "turn": "BLACK"}, "game state: missing key 'turnNumber'"),
    ({"board": START, "turn": "black", "turnNumber": 0}, 'turn must be "BLACK" or "WHITE", got "black"'),
    ({"board": START, "turn": "BLACK", "turnNumber": -1}, "turnNumber must be a non-negative integer"),
    ({"board": "w" * 64, "turn": "BLACK", "turnNumber": 0},
     "board must be a list of 8 strings (row 8 first), got"),
    ({"board": START[:7], "turn": "BLACK", "turnNumber": 0}, "board has 7 rows, expected 8 (row 8 first)"),
    ({"board": [*START[:7], 5], "turn": "BLACK", "turnNumber": 0}, "board row 1 (board[7]) must be a string, got 5"),
    ({"board": ["wwwwwww", *START[1:]], "turn": "BLACK", "turnNumber": 0},
     'board row 8 (board[0]) has 7 squares, expected 8: "wwwwwww"'),
    ({"board": [*START[:6], "bbbxbbbb", START[7]], "turn": "BLACK", "turnNumber": 0},
     'board square d2: "x" is not one of b w .'),
    ({"board": [*START[:6], "BBBBBBBB", START[7]], "turn": "BLACK", "turnNumber": 0},
     'board square a2: "B" is not one of b w .'),
    ({"board": [*START[:5], "b.......", *START[6:]], "turn": "BLACK", "turnNumber": 0},
     "board: Black has 17 pieces, at most 16"),
    ({"board": ["...b....", *START[1:6], "bbb.bbbb", START[7]], "turn": "BLACK", "turnNumber": 0},
     "board: Black is to move but already stands on its far row (d8): the game ended when it got there"),
    ({"board": ["........"] * 6 + START[6:], "turn": "BLACK", "turnNumber": 0},
     "board: White has no pieces, yet it made the last move"),
])
def test_bad_states_are_refused_in_one_line(obj: Any, message: str) -> None:
    with pytest.raises(StateError) as info:
        GAME.state_from_json(obj)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


# --- the wire, the record and the notation --------------------------------------------------------


def test_wire_and_record_forms() -> None:
    position = state(MIDDLE)
    capture = GAME.validate_move(position, GAME.parse_move({"from": "d4", "to": "c5"}))
    assert capture == mv("d4-c5") and capture.capture
    assert GAME.move_to_wire(capture) == {"from": "d4", "to": "c5"}
    assert GAME.move_to_record(capture) == {"from": "d4", "to": "c5", "notation": "d4xc5"}
    for position in random_states(30, 5):
        for move in GAME.legal_moves(position):
            assert GAME.parse_move(GAME.move_to_wire(move)) == move
            assert GAME.validate_move(position, GAME.parse_move(GAME.move_to_wire(move))).capture == move.capture


@pytest.mark.parametrize("record, message", [
    ([], "a record move must be an object, got []"),
    ({"from": "d4", "to": "c5"}, "record move: missing key 'notation'"),
    ({"from": "d4", "to": "c5", "notation": "d4-c6"}, 'record move: notation "d4-c6" does not name d4 to c5'),
    ({"from": "d4", "to": "c5", "notation": 5}, "record move: notation 5 does not name d4 to c5"),
    ({"from": "d9", "to": "c5", "notation": "d9-c5"}, 'move "from": "d9" is not a square a1-h8'),
])
def test_bad_record_moves(record: Any, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        GAME.move_from_record(record)
    assert str(info.value).startswith(message)


def test_record_round_trip_keeps_the_capture() -> None:
    for position in random_states(30, 6):
        for move in GAME.legal_moves(position):
            back = GAME.move_from_record(GAME.move_to_record(move))
            assert back == move and back.capture == move.capture


@pytest.mark.parametrize("wire, message", [
    ("a2-a3", 'a move must be an object, got "a2-a3": expected {"from": "a2", "to": "a3"}'),
    (None, "a move must be an object, got null"),
    ({"from": "a2"}, "move: missing key 'to'"),
    ({"from": "a2", "to": "a3", "x": 1}, "move: unexpected key 'x'"),
    ({"from": "A2", "to": "a3"}, 'move "from": "A2" is not a square a1-h8 (lower case)'),
    ({"from": "a2", "to": "i3"}, 'move "to": "i3" is not a square a1-h8 (lower case)'),
    ({"from": "a2", "to": "a9"}, 'move "to": "a9" is not a square a1-h8'),
    ({"from": "a2", "to": 3}, 'move "to": 3 is not a square a1-h8'),
    ({"from": "a2 ", "to": "a3"}, 'move "from": "a2 " is not a square'),
    ({"from": "a2\n", "to": "a3"}, 'move "from": "a2\\n" is not a square'),
])
def test_malformed_wire_moves(wire: Any, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as info:
        GAME.parse_move(wire)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_notation_round_trip() -> None:
    for position in random_states(40, 77):
        for move in GAME.legal_moves(position):
            text = GAME.describe_move(move)
            assert GAME.parse_notation(text, position) == move
            assert GAME.parse_notation(text, position).capture == move.capture
            plain = text.replace("x", "-")
            assert GAME.parse_notation(plain, position).capture == move.capture  # x may be left out
            assert GAME.parse_notation(plain.replace("-", "").upper(), position) == move


@pytest.mark.parametrize("text, error, message", [
    ("", MoveSyntaxError, "no move given"),
    ("a2", MoveSyntaxError, "'a2' is not a move: write the two squares, e.g. a2-a3, or b4xc5 for a capture"),
    ("a2/a3", MoveSyntaxError, "'a2/a3' is not a move"),
    ("a2-a4", IllegalMoveError, "a2-a4: a piece moves one square only"),
    ("a2xa3", IllegalMoveError, "a2xa3: a3 is empty, nothing to capture (write a2-a3)"),
    (" D4 x C5 ", None, "d4xc5"),
    ("d4c5", None, "d4xc5"),
])
def test_notation_errors(text: str, error: type[Exception] | None, message: str) -> None:
    position = state(MIDDLE)
    if error is None:
        assert GAME.describe_move(GAME.parse_notation(text, position)) == message
        return
    with pytest.raises(error) as info:
        GAME.parse_notation(text, position)
    assert str(info.value).startswith(message)


def test_moves_are_hashable_values() -> None:
    assert mv("d4-c5") == BreakthroughMove(square_index("d4"), square_index("c5"), True)
    assert len({mv("d4-c5"), BreakthroughMove(27, 34, True)}) == 1
    with pytest.raises(ValueError):
        BreakthroughMove(64, 0)
    assert [square_name(i) for i in (0, 7, 56, 63)] == ["a1", "h1", "a8", "h8"]


# --- the match's per-ply calls against the naive implementation ---------------------------------
# validate_move, outcome, parse_move and the board rows take short cuts for the common case (issue
# 24); these hold every answer to the naive rules above, in played and in arbitrary positions.


def masks_board(position: BreakthroughState) -> dict[tuple[int, int], str]:
    """The naive board of ``position``, read from its masks square by square."""
    board = {}
    for index in range(64):
        if position.black >> index & 1:
            board[(index % 8, index // 8 + 1)] = "b"
        elif position.white >> index & 1:
            board[(index % 8, index // 8 + 1)] = "w"
    return board


def arbitrary_states(count: int, seed: int) -> list[BreakthroughState]:
    """Random disjoint masks, sparse to full, either side to move: positions no game reaches too
    (a side on its own far row, without pieces, without a move)."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        black = white = 0
        density = rng.random()
        for index in range(64):
            if rng.random() < density:
                if rng.random() < 0.5:
                    black |= 1 << index
                else:
                    white |= 1 << index
        found.append(BreakthroughState(black, white, rng.choice([Color.BLACK, Color.WHITE]), rng.randrange(100)))
    return found


def blocked_states(count: int, seed: int) -> list[BreakthroughState]:
    """Pieces in facing pairs (a black piece with a white one just above it) and, sometimes, a few
    on their own far rows: no straight step anywhere, so only diagonal moves, or none."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        black = white = 0
        for file in rng.sample(range(8), rng.randint(1, 8)):
            row = rng.randrange(7)
            black |= 1 << (8 * row + file)
            white |= 1 << (8 * (row + 1) + file)
        if rng.random() < 0.3:
            black, white = black & ROW_8 | (1 << 56), white & ~ROW_1 & ~(1 << 56)
        found.append(BreakthroughState(black, white, rng.choice([Color.BLACK, Color.WHITE]), 0))
    return found


def fast_path_states() -> list[BreakthroughState]:
    return random_states(150, 24, live=False) + arbitrary_states(400, 25) + blocked_states(300, 26)


def test_validate_move_agrees_with_the_naive_rules() -> None:
    checked = captures = 0
    for position in fast_path_states():
        board, turn = masks_board(position), position.turn.value[0].lower()
        legal = set(naive_moves(board, turn))
        for origin in range(64):
            for target in {origin + step for step in (-9, -8, -7, 7, 8, 9, 1, 16)} & set(range(64)):
                pair = ((origin % 8, origin // 8 + 1), (target % 8, target // 8 + 1))
                try:
                    move = GAME.validate_move(position, BreakthroughMove(origin, target))
                except IllegalMoveError as exc:
                    assert pair not in legal, (position, pair, exc)
                    assert ("the game is over" in str(exc)) == (not legal)
                    continue
                assert pair in legal, (position, pair)
                assert (move.origin, move.target) == (origin, target)
                assert move.capture == (target in range(64) and board.get(pair[1]) not in (None, turn))
                checked += 1
                captures += move.capture
    assert checked > 3000 and captures > 500  # the short cut was taken, captures included


def test_outcome_agrees_with_the_naive_rules() -> None:
    ended = no_move = diagonal_only = 0
    for position in fast_path_states():
        board, turn = masks_board(position), position.turn.value[0].lower()
        outcome = GAME.outcome(position)
        assert (outcome is None) == bool(naive_moves(board, turn)), position
        ended += outcome is not None
        no_move += outcome is not None and outcome.termination is Termination.NO_LEGAL_MOVES
        diagonal_only += outcome is None and all(origin[0] != target[0]
                                                 for origin, target in naive_moves(board, turn))
    assert ended > 100 and no_move > 20 and diagonal_only > 100  # the short cut and the full account


def test_board_rows_read_square_by_square() -> None:
    for position in fast_path_states():
        board = masks_board(position)
        rows = ["".join(board.get((f, row), ".") for f in range(8)) for row in range(8, 0, -1)]
        assert GAME.state_to_json(position) == {"board": rows, "turn": position.turn.value,
                                                "turnNumber": position.turn_number}


def test_parse_move_reads_every_pair_of_squares() -> None:
    names = [square_name(index) for index in range(64)]
    for origin in names:
        for target in names:
            move = GAME.parse_move({"from": origin, "to": target})
            assert (move.origin, move.target, move.capture) == (square_index(origin), square_index(target), False)
    for wire in ({"from": ["a2"], "to": "a3"}, {"from": "a2", "to": {"a": 3}}, {"to": "a3", "too": "a3"},
                 {"from": "a2", "to": None}, {"from": "a2", "to": "a3", "by": 1}):
        with pytest.raises(MoveSyntaxError):
            GAME.parse_move(wire)


# --- pictures and the registry --------------------------------------------------------------------


def test_board_text() -> None:
    text = GAME.board_text(GAME.initial_state())
    lines = text.splitlines()
    assert lines[0] == lines[-1] == "  a b c d e f g h"
    assert lines[1] == "8 w w w w w w w w 8"
    assert lines[8] == "1 b b b b b b b b 1"
    assert len(lines) == 10


def test_svg_is_well_formed_and_marks_the_last_move() -> None:
    position = state(MIDDLE)
    move = GAME.validate_move(position, mv("d4-c5"))
    after = GAME.apply(position, move)
    svg = board_svg(after, move)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("viewBox") == "0 0 360 360"
    circles = root.findall(f"{ns}circle")
    assert len([c for c in circles if c.get("class") == "black"]) == 16
    assert len([c for c in circles if c.get("class") == "white"]) == 15
    assert len([r for r in root.findall(f"{ns}rect") if r.get("class") == "last-move"]) == 2
    assert "href" not in svg  # self-contained
    plain = ET.fromstring(board_svg(GAME.initial_state()))
    assert not [r for r in plain.findall(f"{ns}rect") if r.get("class") == "last-move"]


def test_registry_entry() -> None:
    assert isinstance(get_game("breakthrough"), BreakthroughGame)
    assert SPEC.name == GAME.name == "breakthrough" and SPEC.protocol == "json"
    assert load_ref(SPEC.svg) is board_svg  # type: ignore[arg-type]
    adapter = load_ref(search_ref(SPEC) or "")  # arena's agents own the search adapter
    assert set(adapter.DEFAULT_WEIGHTS) >= {"piece", "advance", "runner"}
