"""Connect Four behind the :class:`~arena.games.base.Game` interface (standard library only).

Rules: 7 columns by 6 rows standing upright; a move drops a piece of the side to move into a
column that is not full, where it falls to the lowest empty cell. Black moves first. Four pieces
of one colour in a row -- horizontally, vertically or diagonally -- win for the side that made the
line (the game ends at once); a full board without such a line is a draw
(``Outcome(Termination.DRAW, None, "the board is full")``).

Coordinates. Columns are numbered 0-6 from the left on the wire and lettered ``a``-``g`` for
people; rows are 1-6 from the bottom. A cell is named like a chess square: ``d1`` is the bottom
cell of the middle column.

Wire form of a move (the generic JSON protocol's ``payload``): the column number, a JSON integer
0-6, e.g. ``{"type": "turn", "payload": 3}``. :meth:`ConnectFourGame.parse_move` is strict: a bool,
a float (``3.0``), a string (``"3"``) or anything else that is not an integer is a
:class:`MoveSyntaxError`; an integer that is not a column (``7``, ``-1``) or names a full column is
an :class:`IllegalMoveError` from :meth:`ConnectFourGame.validate_move`.

Record form of a move (:meth:`ConnectFourGame.move_to_record`, read back by
:meth:`ConnectFourGame.move_from_record`): ``{"column": 3, "notation": "d"}``.

Human notation (the human player and records): :meth:`ConnectFourGame.describe_move` writes the
column letter ``a``-``g``; :meth:`ConnectFourGame.parse_notation` reads a letter ``a``-``g`` or a
number ``1``-``7`` counted from the left as people count (so ``4`` is ``d``, the wire's column 3),
case and spaces ignored.

State object (``state_to_json``)::

    {"board": ["......." (row 6, the top), ..., "...b..." (row 1, the bottom)],
     "turn": "WHITE", "turnNumber": 1}

``board`` is a list of 6 strings of 7 characters, **top row first**: ``b`` a black piece, ``w`` a
white piece, ``.`` an empty cell; ``turnNumber`` is the number of moves played, which is the
number of pieces on the board. :meth:`ConnectFourGame.state_from_json` accepts only positions that
legal play reaches: no floating piece, as many black pieces as white or one more, ``turn`` and
``turnNumber`` agreeing with the pieces, at most one side with four in a row, made by the last
move, and an order of moves that could have built the board (see :func:`check_reachable`).

Implementation: a position is two bitboards (Tromp's layout). Bit ``7 * column + row`` (row 0 the
bottom) is a cell; bit 6 of each column is an always-empty sentinel, so shifting a line of cells
never wraps from one column into the next. ``has_four`` tests all lines with four shifts.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from arena.games.base import (
    Color,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    StateError,
    Termination,
    TwoColourGame,
    show_value,
)
from arena.games.registry import spec_of

WIDTH, HEIGHT = 7, 6
CELLS = WIDTH * HEIGHT
_STRIDE = HEIGHT + 1  # bits per column: six cells and the sentinel
COLUMN_LETTERS = "abcdefg"
#: Bit of the bottom cell of each column.
BOTTOM_CELL = tuple(1 << (_STRIDE * c) for c in range(WIDTH))
#: The six cells of each column.
COLUMN_MASK = tuple(((1 << HEIGHT) - 1) << (_STRIDE * c) for c in range(WIDTH))
#: The top cell of each column (set: the column is full).
TOP_CELL = tuple(1 << (_STRIDE * c + HEIGHT - 1) for c in range(WIDTH))
#: Every cell of the board (no sentinels).
BOARD_MASK = sum(COLUMN_MASK)
# Directions of a line as bit shifts: vertical, horizontal, and the two diagonals.
_SHIFTS = (1, _STRIDE, _STRIDE - 1, _STRIDE + 1)


def cell_bit(column: int, row: int) -> int:
    """The bit of the cell in ``column`` (0-6 from the left) and ``row`` (0-5 from the bottom)."""
    return 1 << (_STRIDE * column + row)


def cell_name(bit_index: int) -> str:
    """``d1`` for bit index 21: column letter and row 1-6 from the bottom."""
    column, row = divmod(bit_index, _STRIDE)
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def has_four(bits: int) -> bool:
    """Whether the cells in ``bits`` contain four in a row in any direction."""
    for shift in _SHIFTS:
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def four_cells(bits: int) -> int:
    """Every cell of ``bits`` that is part of some four in a row (0 if there is none)."""
    found = 0
    for shift in _SHIFTS:
        found |= _line_cells(bits, shift)
    return found


def _line_cells(bits: int, shift: int) -> int:
    """The cells of ``bits`` on a four (or longer) line along ``shift``."""
    pairs = bits & (bits >> shift)
    starts = pairs & (pairs >> (2 * shift))  # the lowest cell of each four along this shift
    cells = 0
    for k in range(4):
        cells |= starts << (k * shift)
    return cells


def line_names(bits: int) -> list[str]:
    """Each line of four or more in ``bits``, as its cells from one end, e.g. ``"a1 b1 c1 d1"``
    (a five in a row is one line; one piece may close two lines)."""
    names = []
    for shift in _SHIFTS:
        cells = _line_cells(bits, shift)
        while cells:
            start = cells & -cells  # the lowest cell of a run starts it
            run = [start.bit_length() - 1]
            while cells & (1 << (run[-1] + shift)):
                run.append(run[-1] + shift)
            for index in run:
                cells &= ~(1 << index)
            names.append(" ".join(cell_name(i) for i in run))
    return names


def column_height(occupied: int, column: int) -> int:
    """How many pieces ``column`` holds (pieces stack from the bottom without gaps)."""
    return ((occupied >> (_STRIDE * column)) & 0x7F).bit_length()


def drop_bit(occupied: int, column: int) -> int:
    """The cell a piece dropped into ``column`` lands on; ``column`` must not be full."""
    # Adding the bottom bit carries through the column's stacked pieces to the first empty cell.
    return (occupied + BOTTOM_CELL[column]) & COLUMN_MASK[column]


class ConnectFourState(NamedTuple):
    """A position: ``black`` and ``white`` bitboards (bit ``7 * column + row``, row 0 the bottom),
    the side to move and the number of moves played."""

    black: int
    white: int
    turn: Color
    turn_number: int


def _bits_of(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        out.append(low.bit_length() - 1)
    return out


def check_reachable(black: int, white: int) -> bool:
    """Whether alternate moves, Black first, can build exactly this board (gravity respected, no
    four in a row before the last move is the caller's check).

    A depth-first search backwards over the column heights: the last mover's piece must be on top
    of some column; remove it and go on with the other colour. Heights determine the position, so
    each height vector is tried once (at most 7**7 of them; typical boards settle in a few steps).
    """
    heights = [column_height(black | white, c) for c in range(WIDTH)]
    total = sum(heights)
    failed: set[tuple[int, ...]] = set()

    def search(remaining: int) -> bool:
        if remaining == 0:
            return True
        key = tuple(heights)
        if key in failed:
            return False
        # The piece played at move number ``remaining - 1`` is Black's when that number is even.
        mover = black if remaining % 2 == 1 else white
        for column in range(WIDTH):
            height = heights[column]
            if height and mover & cell_bit(column, height - 1):
                heights[column] = height - 1
                found = search(remaining - 1)
                heights[column] = height
                if found:
                    return True
        failed.add(key)
        return False

    return search(total)


def _parse_board(board: Any) -> tuple[int, int]:
    """The bitboards of a JSON board (6 strings of 7 of ``b w .``, top row first); StateError
    naming the first problem (shape, symbol, floating piece)."""
    if not isinstance(board, list) or len(board) != HEIGHT:
        raise StateError(f"board must be a list of {HEIGHT} rows (top row first), got {show_value(board)}")
    black = white = 0
    for index, line in enumerate(board):
        row = HEIGHT - 1 - index
        if not isinstance(line, str) or len(line) != WIDTH:
            raise StateError(
                f"board[{index}] (row {row + 1}) must be a string of {WIDTH} characters"
                f" from 'b', 'w', '.', got {show_value(line)}"
            )
        for column, symbol in enumerate(line):
            if symbol == "b":
                black |= cell_bit(column, row)
            elif symbol == "w":
                white |= cell_bit(column, row)
            elif symbol != ".":
                raise StateError(
                    f"board[{index}] (row {row + 1}) has {show_value(symbol)} at column"
                    f" {COLUMN_LETTERS[column]}: expected 'b', 'w' or '.'"
                )
    occupied = black | white
    # A piece whose cell below is empty floats: (occupied << 1) marks each cell above a piece.
    floating = occupied & ~(occupied << 1) & ~sum(BOTTOM_CELL)
    if floating:
        first = min(_bits_of(floating))
        raise StateError(
            f"floating piece at {cell_name(first)}: the cell below it ({cell_name(first - 1)}) is empty"
        )
    return black, white


def state_from_board(board: list[str], turn: Color | None = None, turn_number: int | None = None) -> ConnectFourState:
    """A checked state from board rows (top row first), for tests and tools; ``turn`` and
    ``turn_number`` default to what the pieces imply. StateError as :meth:`ConnectFourGame.state_from_json`."""
    black, white = _parse_board(board)
    pieces = (black | white).bit_count()
    implied = Color.BLACK if pieces % 2 == 0 else Color.WHITE
    return _checked_state(black, white, implied if turn is None else turn,
                          pieces if turn_number is None else turn_number)


def _checked_state(black: int, white: int, turn: Color, turn_number: int) -> ConnectFourState:
    nb, nw = black.bit_count(), white.bit_count()
    if nb - nw not in (0, 1):
        raise StateError(
            f"impossible piece counts: {nb} black and {nw} white (Black moves first, so it has as many"
            " pieces as White or one more)"
        )
    to_move = Color.BLACK if nb == nw else Color.WHITE
    if turn is not to_move:
        raise StateError(f"turn is {turn.value} but with {nb} black and {nw} white pieces it is {to_move.value}'s turn")
    if turn_number != nb + nw:
        raise StateError(
            f"turnNumber {turn_number} does not match the {nb + nw} pieces on the board (each move adds one)"
        )
    black_four, white_four = has_four(black), has_four(white)
    if black_four and white_four:
        raise StateError("both BLACK and WHITE have four in a row: the game ends at the first four")
    last_mover = to_move.other
    if black_four or white_four:
        winner = Color.BLACK if black_four else Color.WHITE
        if winner is not last_mover:
            raise StateError(
                f"{winner.value} has four in a row but {last_mover.value} moved after it: the game ends at the first four"
            )
        own = black if winner is Color.BLACK else white
        occupied = black | white
        last_candidates = [
            cell_bit(c, h - 1) for c in range(WIDTH) if (h := column_height(occupied, c)) and own & cell_bit(c, h - 1)
        ]
        if not any(not has_four(own ^ bit) and _reachable_without(black, white, bit) for bit in last_candidates):
            raise StateError(
                f"{winner.value}'s four in a row cannot all have been made by its last move: the game ends at the first four"
            )
    elif not check_reachable(black, white):
        raise StateError("no order of alternate moves (Black first) builds this board")
    return ConnectFourState(black, white, turn, turn_number)


def _reachable_without(black: int, white: int, bit: int) -> bool:
    return check_reachable(black & ~bit, white & ~bit)


class ConnectFourGame(TwoColourGame[ConnectFourState, int]):
    """The rules of Connect Four; stateless, shared by all matches. A move is a column 0-6."""

    name: ClassVar[str] = "connect4"
    default_max_moves: ClassVar[int] = CELLS  # a game cannot last longer: the cap never decides it

    # --- the forward model ------------------------------------------------------------------

    def initial_state(self) -> ConnectFourState:
        return ConnectFourState(0, 0, Color.BLACK, 0)

    def legal_moves(self, state: ConnectFourState) -> list[int]:
        """The columns that are not full, left to right; empty once the game is over."""
        black, white = state[0], state[1]
        if has_four(black) or has_four(white):
            return []
        occupied = black | white
        return [c for c in range(WIDTH) if not occupied & TOP_CELL[c]]

    def apply(self, state: ConnectFourState, move: int) -> ConnectFourState:
        """The next state; ``move`` must be legal in ``state`` (not checked)."""
        black, white, turn, turn_number = state
        bit = drop_bit(black | white, move)
        if turn is Color.BLACK:
            return ConnectFourState(black | bit, white, Color.WHITE, turn_number + 1)
        return ConnectFourState(black, white | bit, Color.BLACK, turn_number + 1)

    def outcome(self, state: ConnectFourState) -> Outcome | None:
        for color, bits in ((Color.BLACK, state.black), (Color.WHITE, state.white)):
            if has_four(bits):
                lines = " and ".join(line_names(bits))
                return Outcome(Termination.WIN, color, f"{color.value} has four in a row ({lines})")
        if (state.black | state.white) == BOARD_MASK:
            return Outcome(Termination.DRAW, None, "the board is full")
        return None

    def count_leaves(self, state: ConnectFourState, depth: int) -> int:
        """Perft on bitboards (a game that ends stops its branch)."""
        if has_four(state.black) or has_four(state.white):
            return 0
        me, them = (state.black, state.white) if state.turn is Color.BLACK else (state.white, state.black)
        return _perft(me, them, depth)

    # --- moves on the wire, in records and for humans -----------------------------------------

    def parse_move(self, wire: Any) -> int:
        """The column of a bot's turn payload: a JSON integer (not a bool, float or string), else
        :class:`MoveSyntaxError`. Whether the column exists and has room is :meth:`validate_move`'s."""
        if type(wire) is not int:
            raise MoveSyntaxError(f"a move is a column number 0-6 (a JSON integer), got {show_value(wire)}")
        return wire

    def move_to_wire(self, move: int) -> int:
        return move

    def move_to_record(self, move: int) -> dict[str, Any]:
        """``{"column": 3, "notation": "d"}``."""
        return {"column": move, "notation": self.describe_move(move)}

    def move_from_record(self, turn: Any) -> int:
        """The column of a record's turn object ``{"column": 3, "notation": "d"}`` (``notation``
        may be left out; when given it must name the same column); MoveSyntaxError otherwise."""
        if not isinstance(turn, dict) or "column" not in turn or not set(turn) <= {"column", "notation"}:
            raise MoveSyntaxError(f'a recorded move is {{"column": n, "notation": "x"}}, got {show_value(turn)}')
        column = self.parse_move(turn["column"])
        if "notation" in turn and turn["notation"] != self.describe_move(column):
            raise MoveSyntaxError(
                f"recorded move: notation {show_value(turn['notation'])} does not name column {column}"
            )
        return column

    def describe_move(self, move: int) -> str:
        """The column letter ``a``-``g`` (``column N`` for a number that is not a column)."""
        if type(move) is int and 0 <= move < WIDTH:
            return COLUMN_LETTERS[move]
        return f"column {show_value(move)}"

    def validate_move(self, state: ConnectFourState, move: int) -> int:
        """``move`` if it is a legal column in ``state``; else :class:`IllegalMoveError` saying
        why (no such column, column full, game over), or MoveSyntaxError for a non-integer."""
        if type(move) is not int:
            raise MoveSyntaxError(f"a move is a column number 0-6 (a JSON integer), got {show_value(move)}")
        if not 0 <= move < WIDTH:
            raise IllegalMoveError(f"there is no column {show_value(move)}: columns are 0-6")
        over = self.outcome(state)
        if over is not None:
            raise IllegalMoveError(f"the game is over: {over.reason}")
        if (state.black | state.white) & TOP_CELL[move]:
            raise IllegalMoveError(f"column {move} ({COLUMN_LETTERS[move]}) is full")
        return move

    def parse_notation(self, text: str, state: ConnectFourState) -> int:
        """The legal column ``text`` names: a letter ``a``-``g`` or a number ``1``-``7`` counted
        from the left (``4`` and ``d`` are the middle column), case and spaces ignored.
        MoveSyntaxError for other text, IllegalMoveError (with the reason) for a full column."""
        wanted = "".join(text.split()).lower() if isinstance(text, str) else ""
        if len(wanted) == 1 and wanted in COLUMN_LETTERS:
            column = COLUMN_LETTERS.index(wanted)
        elif len(wanted) == 1 and wanted in "1234567":
            column = int(wanted) - 1
        else:
            shown = show_value(text.strip()) if isinstance(text, str) else show_value(text)
            raise MoveSyntaxError(
                f"{shown} is not a column: write a letter a-g or a number 1-7 (counted from the left)"
            )
        return self.validate_move(state, column)

    # --- states as JSON and as pictures ---------------------------------------------------------

    def board_rows(self, state: ConnectFourState) -> list[str]:
        """The 6 rows of ``b w .``, top row first (the JSON board)."""
        black, white = state[0], state[1]
        rows = []
        for row in range(HEIGHT - 1, -1, -1):
            cells = []
            for column in range(WIDTH):
                bit = cell_bit(column, row)
                cells.append("b" if black & bit else "w" if white & bit else ".")
            rows.append("".join(cells))
        return rows

    board_json = board_rows

    def board_text(self, state: ConnectFourState) -> str:
        """Rows 6 (top) to 1 with ``b`` black, ``w`` white, ``.`` empty, and the column letters."""
        lines = [f"{HEIGHT - i} {' '.join(row)}" for i, row in enumerate(self.board_rows(state))]
        lines.append("  " + " ".join(COLUMN_LETTERS))
        return "\n".join(lines)

    def read_board(self, board: Any, turn: Color, turn_number: int) -> ConnectFourState:
        """Strict reading of ``board`` (6 rows, top first): only positions legal play reaches (see
        the module docstring). :class:`StateError` naming the first problem."""
        black, white = _parse_board(board)
        return _checked_state(black, white, turn, turn_number)


def _perft(me: int, them: int, depth: int) -> int:
    """Leaves ``depth >= 1`` plies below a live position where ``me`` is to move."""
    occupied = me | them
    if depth == 1:
        return sum(1 for c in range(WIDTH) if not occupied & TOP_CELL[c])
    total = 0
    for c in range(WIDTH):
        if occupied & TOP_CELL[c]:
            continue
        mine = me | ((occupied + BOTTOM_CELL[c]) & COLUMN_MASK[c])
        if not has_four(mine):  # a winning move ends its branch before the leaves
            total += _perft(them, mine, depth - 1)
    return total


# --- the SVG picture --------------------------------------------------------------------------

_CELL = 60
_MARGIN = 20


def _cell_pictures() -> list[tuple[int, int, int, dict[str, str]]]:
    """Per cell, in drawing order: ``(bit, cx, cy, {"b"|"w"|".": its <circle> with title})``. The
    board is drawn from these strings (they depend on the cell only), not formatted per position."""
    radius = _CELL * 0.4
    colours = {"b": ("#111111", "#000000"), "w": ("#f5f5f5", "#888888"), ".": ("#dde6f7", "#163a8c")}
    cells = []
    for column in range(WIDTH):
        cx = _MARGIN + column * _CELL + _CELL // 2
        for row in range(HEIGHT):
            cy = _MARGIN + (HEIGHT - 1 - row) * _CELL + _CELL // 2
            title = cell_name(_STRIDE * column + row)
            kinds = {kind: (f'<circle cx="{cx}" cy="{cy}" r="{radius:g}" fill="{fill}" stroke="{stroke}"'
                            f' stroke-width="2"><title>{title}</title></circle>')
                     for kind, (fill, stroke) in colours.items()}
            cells.append((cell_bit(column, row), cx, cy, kinds))
    return cells


_CELLS = _cell_pictures()
_LABEL_Y = _MARGIN + HEIGHT * _CELL + 18
#: The column letter drawn after each column's cells.
_LABELS = [
    f'<text x="{_MARGIN + column * _CELL + _CELL // 2}" y="{_LABEL_Y}" text-anchor="middle" font-family="sans-serif"'
    f' font-size="16" fill="#333333">{COLUMN_LETTERS[column]}</text>'
    for column in range(WIDTH)
]
_SVG_WIDTH = 2 * _MARGIN + WIDTH * _CELL
_SVG_HEIGHT = 2 * _MARGIN + HEIGHT * _CELL + 24
_FRAME = (
    f'<rect x="{_MARGIN}" y="{_MARGIN}" width="{WIDTH * _CELL}" height="{HEIGHT * _CELL}"'
    ' rx="10" fill="#1f4fbf"/>'
)


def board_svg(state: ConnectFourState, last_move: int | None = None) -> str:
    """A self-contained SVG picture of ``state``: a blue frame with black and white pieces, column
    letters below, the piece ``last_move`` (a column) dropped outlined in red, and the four in a row
    (if any) marked. Standard library only, no external resources."""
    header = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_SVG_WIDTH} {_SVG_HEIGHT}" width="{_SVG_WIDTH}"'
        f' height="{_SVG_HEIGHT}" role="img" aria-label="Connect Four board, {state.turn.value} to move">'
    )
    parts = [header, _FRAME]
    black, white = state.black, state.white
    occupied = black | white
    last_bit = 0
    if last_move is not None and 0 <= last_move < WIDTH:
        height_now = column_height(occupied, last_move)
        if height_now:
            last_bit = cell_bit(last_move, height_now - 1)
    winning = four_cells(black) | four_cells(white)
    marked = winning | last_bit
    radius = _CELL * 0.4
    for index, (bit, cx, cy, kinds) in enumerate(_CELLS):
        parts.append(kinds["b" if black & bit else "w" if white & bit else "."])
        if bit & marked:
            if bit & winning:
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{radius * 0.35:g}" fill="#2eb82e"/>')
            if bit == last_bit:
                parts.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{radius + 3:g}" fill="none" stroke="#e0262b"'
                    ' stroke-width="4" class="last-move"/>'
                )
        if index % HEIGHT == HEIGHT - 1:
            parts.append(_LABELS[index // HEIGHT])
    parts.append("</svg>")
    return "".join(parts)


SPEC = spec_of(ConnectFourGame, "Connect Four", svg="arena.games.connect4.rules:board_svg",
               summary="7x6 upright board, pieces fall; four in a row wins, a full board draws",
               notation="column letter a-g (or 1-7 from the left); wire: column number 0-6")

__all__ = [
    "BOARD_MASK",
    "COLUMN_LETTERS",
    "HEIGHT",
    "SPEC",
    "WIDTH",
    "ConnectFourGame",
    "ConnectFourState",
    "board_svg",
    "cell_bit",
    "cell_name",
    "check_reachable",
    "column_height",
    "drop_bit",
    "four_cells",
    "has_four",
    "line_names",
    "state_from_board",
]
