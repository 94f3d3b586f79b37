"""Connect Four rules: lines in every direction, draws, errors, JSON, notation, pictures, and perft
checked against a separate naive implementation and against published position counts."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import pytest

from arena.games.base import Color, IllegalMoveError, MoveSyntaxError, Outcome, StateError, Termination
from arena.games.connect4.rules import (
    SPEC,
    ConnectFourGame,
    ConnectFourState,
    board_svg,
    check_reachable,
    state_from_board,
)

GAME = ConnectFourGame()
# A full board without four in a row, reached by these moves (wire columns 0-6), found by a seeded
# random playout that avoided wins.
DRAW_MOVES = "532315310141250566206042303423260411544566"
DRAW_BOARD = ["bwbwbww", "wbbbwbb", "wwwbwww", "wwbbwwb", "bwbwbww", "bbbwbbb"]


def play(moves: str | list[int], state: ConnectFourState | None = None) -> ConnectFourState:
    """The state after ``moves`` (each checked by validate_move), from the start by default."""
    current = GAME.initial_state() if state is None else state
    for move in moves:
        current = GAME.apply(current, GAME.validate_move(current, int(move)))
    return current


def letters(text: str) -> list[int]:
    """Columns from notation letters: ``"dde"`` -> ``[3, 3, 4]``."""
    return ["abcdefg".index(ch) for ch in text]


# --- rules ------------------------------------------------------------------------------------


def test_start() -> None:
    state = GAME.initial_state()
    assert GAME.to_move(state) is Color.BLACK and GAME.ply(state) == 0
    assert GAME.legal_moves(state) == [0, 1, 2, 3, 4, 5, 6]
    assert GAME.outcome(state) is None
    assert GAME.default_max_moves == 42 and SPEC.default_max_moves == 42
    assert GAME.state_to_json(state) == {"board": ["......."] * 6, "turn": "BLACK", "turnNumber": 0}


def test_pieces_fall_and_sides_alternate() -> None:
    state = play(letters("ddc"))
    assert GAME.state_to_json(state) == {
        "board": [".......", ".......", ".......", ".......", "...w...", "..bb..."],
        "turn": "WHITE",
        "turnNumber": 3,
    }
    # States are values: the same position reached in another order is equal, with the same hash.
    assert play(letters("cde")) == play(letters("edc"))
    assert hash(play(letters("cde"))) == hash(play(letters("edc")))
    assert play(letters("cde")) != play(letters("cdf"))


@pytest.mark.parametrize(
    ("moves", "winner", "line"),
    [
        ("aabbccd", Color.BLACK, "a1 b1 c1 d1"),  # horizontal
        ("ababab" + "a", Color.BLACK, "a1 a2 a3 a4"),  # vertical
        ("abbccdcddgd", Color.BLACK, "a1 b2 c3 d4"),  # diagonal, rising to the right
        ("gffeededdad", Color.BLACK, "d4 e3 f2 g1"),  # diagonal, falling to the right
        ("gaabbccd", Color.WHITE, "a1 b1 c1 d1"),  # White wins too
    ],
)
def test_four_in_a_row_in_every_direction_wins_for_the_mover(moves: str, winner: Color, line: str) -> None:
    before = play(letters(moves[:-1]))
    assert GAME.outcome(before) is None
    after = play(letters(moves[-1]), before)
    outcome = GAME.outcome(after)
    assert outcome == Outcome(Termination.WIN, winner, f"{winner.value} has four in a row ({line})")
    assert GAME.to_move(after) is winner.other  # the side not to move made the line
    assert GAME.legal_moves(after) == []
    with pytest.raises(IllegalMoveError, match="^the game is over: .* has four in a row"):
        GAME.validate_move(after, 0)
    assert GAME.perft(after, 1) == 0


def test_one_piece_closing_two_lines_names_both() -> None:
    # From a round-robin game (opening a1 f1): Black's last piece b3 closes a row and a diagonal.
    state = play([0, 5] + letters("dddcdgddcgcggfcccffeeaeeeaeaaabbb"))
    assert GAME.outcome(state) == Outcome(
        Termination.WIN, Color.BLACK, "BLACK has four in a row (b3 c3 d3 e3 and b3 c4 d5 e6)"
    )


def test_lines_do_not_wrap_between_columns_or_rows() -> None:
    # e1 f1 g1 and a2 are consecutive bits in a naive layout; the sentinel row keeps them apart.
    state = state_from_board([".......", ".......", ".......", ".......", "b...w..", "w.wwbbb"])
    assert GAME.outcome(state) is None
    # Three at the top of column a and one at the bottom of column b (built directly: the counts
    # are not a game's, the line test is the point).
    black, white = _masks(["b......", "b......", "b......", "w......", "w......", "wb....."])
    state = ConnectFourState(black, white, Color.WHITE, 7)
    assert GAME.outcome(state) is None and GAME.legal_moves(state) == [1, 2, 3, 4, 5, 6]
    # a1 a6 b5 c4: evenly spaced cells in a layout without the sentinel row (a "diagonal" that
    # steps from the bottom of column a to its top).
    black, white = _masks(["b......", ".b.....", "..b....", ".......", ".......", "b......"])
    assert GAME.outcome(ConnectFourState(black, white, Color.WHITE, 4)) is None


def test_full_board_without_four_is_a_draw() -> None:
    state = GAME.initial_state()
    for move in DRAW_MOVES[:-1]:
        state = play(move, state)
        assert GAME.outcome(state) is None
    state = play(DRAW_MOVES[-1], state)
    assert GAME.board_rows(state) == DRAW_BOARD
    assert GAME.outcome(state) == Outcome(Termination.DRAW, None, "the board is full")
    assert GAME.legal_moves(state) == [] and GAME.ply(state) == 42
    assert GAME.state_from_json(GAME.state_to_json(state)) == state


def test_a_line_made_by_the_last_piece_on_a_full_board_wins() -> None:
    moves = "123615046113131330226523645522460454406005"  # found like DRAW_MOVES
    before = play(moves[:-1])
    assert GAME.outcome(before) is None
    after = play(moves[-1], before)
    assert (after.black | after.white).bit_count() == 42
    assert GAME.outcome(after) == Outcome(Termination.WIN, Color.WHITE, "WHITE has four in a row (c3 d4 e5 f6)")


# --- moves on the wire and their errors ---------------------------------------------------------


@pytest.mark.parametrize("wire", [True, False, 3.0, "3", None, [3], {"column": 3}])
def test_parse_move_rejects_anything_but_an_integer(wire: object) -> None:
    with pytest.raises(MoveSyntaxError, match=r"^a move is a column number 0-6 \(a JSON integer\), got "):
        GAME.parse_move(wire)


def test_parse_move_and_wire_forms() -> None:
    assert GAME.parse_move(3) == 3 and GAME.move_to_wire(3) == 3
    assert GAME.move_to_record(3) == {"column": 3, "notation": "d"}
    assert GAME.move_from_record({"column": 3, "notation": "d"}) == GAME.move_from_record({"column": 3}) == 3
    for record, message in [
        (3, 'a recorded move is {"column": n, "notation": "x"}, got 3'),
        ({"col": 3}, 'a recorded move is {"column": n, "notation": "x"}, got {"col": 3}'),
        ({"column": 3, "extra": 1}, "a recorded move is"),
        ({"column": "3"}, 'a move is a column number 0-6 (a JSON integer), got "3"'),
        ({"column": 3, "notation": "e"}, 'recorded move: notation "e" does not name column 3'),
    ]:
        with pytest.raises(MoveSyntaxError) as info:
            GAME.move_from_record(record)
        assert message in str(info.value)
    assert GAME.parse_move(9) == 9  # well formed; validate_move says it is not a column
    state = GAME.initial_state()
    for bad, message in [(7, "there is no column 7: columns are 0-6"), (-1, "there is no column -1: columns are 0-6")]:
        with pytest.raises(IllegalMoveError) as info:
            GAME.validate_move(state, bad)
        assert str(info.value) == message
    full = play("333333")
    with pytest.raises(IllegalMoveError) as info:
        GAME.validate_move(full, 3)
    assert str(info.value) == "column 3 (d) is full"
    assert 3 not in GAME.legal_moves(full)
    move, after = GAME.play_wire(full, 4)
    assert move == 4 and GAME.board_rows(after)[5] == "...bb.."


# --- notation -----------------------------------------------------------------------------------


def test_notation() -> None:
    state = GAME.initial_state()
    assert [GAME.describe_move(m) for m in GAME.legal_moves(state)] == list("abcdefg")
    assert GAME.describe_move(9) == "column 9"
    for text, column in [("d", 3), ("D", 3), (" 4 ", 3), ("a", 0), ("1", 0), ("g", 6), ("7", 6)]:
        assert GAME.parse_notation(text, state) == column
    for text in ["h", "0", "8", "", "d4", "dd", "-1"]:
        with pytest.raises(MoveSyntaxError, match="is not a column: write a letter a-g or a number 1-7"):
            GAME.parse_notation(text, state)
    with pytest.raises(IllegalMoveError, match=r"^column 3 \(d\) is full$"):
        GAME.parse_notation("4", play("333333"))


# --- JSON ---------------------------------------------------------------------------------------


def random_states(count: int, seed: int) -> list[ConnectFourState]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 43)):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
        found.append(state)
    return found


def test_json_round_trip() -> None:
    for state in random_states(300, seed=1):
        obj = json.loads(json.dumps(GAME.state_to_json(state)))
        assert GAME.state_from_json(obj) == state


def board_obj(board: list[str], turn: str | None = None, turn_number: int | None = None) -> dict[str, object]:
    pieces = sum(row.count("b") + row.count("w") for row in board)
    return {
        "board": board,
        "turn": turn if turn is not None else ("BLACK" if pieces % 2 == 0 else "WHITE"),
        "turnNumber": pieces if turn_number is None else turn_number,
    }


EMPTY_ROWS = ["......."] * 4


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"board": ["......."] * 6, "turn": "BLACK"}, "game state: missing key 'turnNumber'"),
        (board_obj(["......."] * 5), 'board must be a list of 6 rows (top row first), got [".......",'),
        (board_obj(["......."] * 5 + ["......"]), 'board[5] (row 1) must be a string of 7 characters'),
        (board_obj(["......."] * 5 + ["...x..."]), "board[5] (row 1) has \"x\" at column d: expected 'b', 'w' or '.'"),
        (board_obj(EMPTY_ROWS + ["...b...", "......."]), "floating piece at d2: the cell below it (d1) is empty"),
        (board_obj(EMPTY_ROWS + [".......", "bb....."], "WHITE", 2), "impossible piece counts: 2 black and 0 white"),
        (board_obj(EMPTY_ROWS + [".......", "ww....."], "BLACK", 2), "impossible piece counts: 0 black and 2 white"),
        (board_obj(EMPTY_ROWS + [".......", "bw....."], "WHITE"),
         "turn is WHITE but with 1 black and 1 white pieces it is BLACK's turn"),
        (board_obj(EMPTY_ROWS + [".......", "bw....."], turn_number=5),
         "turnNumber 5 does not match the 2 pieces on the board (each move adds one)"),
        (board_obj(["......."] * 2 + ["b.....w", "b.....w", "b.....w", "b.....w"], "BLACK"),
         "both BLACK and WHITE have four in a row"),
        (board_obj(["......."] * 2 + ["b......", "b.....w", "b.....w", "b..w..w"], "BLACK"),
         "BLACK has four in a row but WHITE moved after it"),
        (board_obj(["......."] * 2 + ["......b", "ww....b", "www...b", "bbbbwwb"], "WHITE"),
         "BLACK's four in a row cannot all have been made by its last move"),
        (board_obj(EMPTY_ROWS + ["b......", "w......"]), "no order of alternate moves (Black first) builds this board"),
    ],
)
def test_state_from_json_errors(obj: dict[str, object], message: str) -> None:
    with pytest.raises(StateError) as info:
        GAME.state_from_json(obj)
    text = str(info.value)
    assert message in text and "\n" not in text


def test_a_win_made_by_the_last_move_is_accepted() -> None:
    # Five in a row made by dropping the middle piece last: one move made both fours.
    state = GAME.state_from_json(board_obj(["......."] * 4 + ["ww.w...", "bbbbbw."], "WHITE"))
    assert GAME.outcome(state) == Outcome(Termination.WIN, Color.BLACK, "BLACK has four in a row (a1 b1 c1 d1 e1)")


def test_reachability_needs_the_right_order() -> None:
    # Column a: black; column b: white then black; column c: white. Backwards, after c1 the search
    # first tries a1 and gets stuck (b2 is black); only a1, b1, b2, c1 builds the board.
    state = GAME.state_from_json(board_obj(EMPTY_ROWS + [".b.....", "bww...."]))
    assert state.turn is Color.BLACK and state.turn_number == 4
    assert check_reachable(state.black, state.white)
    assert not check_reachable(*_masks(EMPTY_ROWS + ["b......", "w......"]))


def _masks(rows: list[str]) -> tuple[int, int]:
    black = white = 0
    for index, line in enumerate(rows):
        for column, symbol in enumerate(line):
            bit = 1 << (7 * column + 5 - index)
            black |= bit if symbol == "b" else 0
            white |= bit if symbol == "w" else 0
    return black, white


# --- perft --------------------------------------------------------------------------------------


class NaiveBoard:
    """A second, deliberately plain Connect Four: a list of columns (bottom first) and a win test
    that walks the four directions from the last piece. Shares no code with the rules module."""

    def __init__(self) -> None:
        self.columns: list[list[str]] = [[] for _ in range(7)]
        self.to_move = "b"
        self.over = False

    @classmethod
    def from_state(cls, state: ConnectFourState) -> NaiveBoard:
        board = cls()
        rows = GAME.state_to_json(state)["board"]
        for column in range(7):
            board.columns[column] = [rows[5 - row][column] for row in range(6) if rows[5 - row][column] != "."]
        board.to_move = "b" if state.turn is Color.BLACK else "w"
        board.over = GAME.outcome(state) is not None
        return board

    def cell(self, column: int, row: int) -> str | None:
        if 0 <= column < 7 and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def moves(self) -> list[int]:
        if self.over:
            return []
        return [c for c in range(7) if len(self.columns[c]) < 6]

    def wins_at(self, column: int, row: int) -> bool:
        piece = self.cell(column, row)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while self.cell(c, r) == piece:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                return True
        return False

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for column in self.moves():
            self.columns[column].append(self.to_move)
            was_over, mover = self.over, self.to_move
            self.over = self.wins_at(column, len(self.columns[column]) - 1) or all(
                len(col) == 6 for col in self.columns
            )
            self.to_move = "w" if mover == "b" else "b"
            total += self.perft(depth - 1)
            self.to_move, self.over = mover, was_over
            self.columns[column].pop()
        return total


def test_perft_from_the_start() -> None:
    # Depths 1-6: every sequence is legal (no four before move 7, no column full before move 6).
    # Depth 7: of the 7**7 sequences, the 7 that fill one column in the first six moves have only
    # six choices at the seventh.
    expected = [1, 7, 49, 343, 2401, 16807, 117649, 823536]
    state = GAME.initial_state()
    assert [GAME.perft(state, depth) for depth in range(8)] == expected


def test_perft_agrees_with_a_naive_implementation() -> None:
    start = GAME.initial_state()
    assert GAME.perft(start, 5) == NaiveBoard().perft(5) == 16807
    # Mid-game positions, where lines end branches early (and some are already over).
    positions = random_states(60, seed=5)
    endings = 0
    for state in positions:
        naive = NaiveBoard.from_state(state)
        for depth in (1, 2, 3):
            assert GAME.perft(state, depth) == naive.perft(depth)
        # The generic recursion of Game.perft over legal_moves/apply agrees with the bitboard one.
        assert super(ConnectFourGame, GAME).perft(state, 3) == GAME.perft(state, 3)
        endings += GAME.perft(state, 3) < len(GAME.legal_moves(state)) ** 3
    assert endings > 5  # the sample did exercise games that end inside the tree


def test_distinct_positions_match_oeis_a212693() -> None:
    # OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n plies" (table by John
    # Tromp, from P. Kissmann): 1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, ...
    published = [1, 7, 49, 238, 1120, 4263, 16422]
    level = {GAME.initial_state()}
    counts = [len(level)]
    for _ in range(len(published) - 1):
        level = {GAME.apply(state, move) for state in level for move in GAME.legal_moves(state)}
        counts.append(len(level))
    assert counts == published


def test_perft_rejects_a_negative_depth() -> None:
    with pytest.raises(ValueError, match="perft depth must be >= 0"):
        GAME.perft(GAME.initial_state(), -1)


# --- pictures -----------------------------------------------------------------------------------


def test_board_text() -> None:
    expected = """\
6 . . . . . . .
5 . . . . . . .
4 . . . . . . .
3 . . . . . . .
2 . . . w . . .
1 . . b b . . .
  a b c d e f g"""
    assert GAME.board_text(play(letters("ddc"))) == expected


def test_svg_is_well_formed_and_marks_the_last_move_and_the_line() -> None:
    state = play(letters("aabbccd"))
    svg = board_svg(state, last_move=3)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("viewBox")
    circles = root.findall(f"{ns}circle")
    assert len([c for c in circles if c.find(f"{ns}title") is not None]) == 42
    last = [c for c in circles if c.get("class") == "last-move"]
    assert len(last) == 1
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no external resources
    assert len([c for c in circles if c.get("fill") == "#2eb82e"]) == 4  # the four in a row
    ET.fromstring(board_svg(GAME.initial_state()))
    ET.fromstring(board_svg(GAME.initial_state(), last_move=3))  # an empty column: nothing to mark


def test_spec() -> None:
    assert SPEC.name == GAME.name == "connect4"
    assert SPEC.protocol == "json"
    assert SPEC.rules_object().name == "connect4"
