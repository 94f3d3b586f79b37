"""Breakthrough (Dan Troyka, 2000) behind the :class:`~arena.games.base.Game` interface.

Board and orientation. Files ``a``-``h`` left to right, rows ``1``-``8``. **Black** starts on rows
1-2 (a1..h2), moves first and plays *up*, towards row 8; **White** starts on rows 7-8 (a7..h8) and
plays *down*, towards row 1. Square index ``file + 8 * (row - 1)``: a1 = 0, h1 = 7, a8 = 56, h8 = 63.

Rules. A piece moves one square straight forward onto an empty square, or one square diagonally
forward onto a square that is empty or holds an enemy piece, which it captures. Captures are
diagonal only and never compulsory. A side wins when one of its pieces reaches the far row (Black:
row 8, White: row 1) or when it captures the last enemy piece; :meth:`BreakthroughGame.outcome`
reports both as ``WIN``. A side to move with no legal move loses (``NO_LEGAL_MOVES``); this cannot
happen in Breakthrough while it has a piece (its most advanced piece always has a diagonal square
that is empty or an enemy's), but the rule is implemented like in the other games.

Length. Every move advances a piece by exactly one row, so a side can make at most
8 * 6 + 8 * 5 = 88 moves without reaching the far row; Black's 89th move, at the latest, wins.
Every game is therefore over after at most 2 * 88 + 1 = 177 plies, and
``default_max_moves`` = 177 never cuts a game short: Breakthrough has no draws.

Forms (all JSON):

- state: ``{"board": [8 strings of 8 characters], "turn": "BLACK"|"WHITE", "turnNumber": n}``;
  ``board[0]`` is row 8 (White's home row at the start), ``board[7]`` row 1, and character ``i``
  of a row is file ``"abcdefgh"[i]``; ``b`` a black piece, ``w`` a white piece, ``.`` empty.
  The start: ``["wwwwwwww", "wwwwwwww", "........" x 4, "bbbbbbbb", "bbbbbbbb"]``.
- wire move (what a bot sends as the turn payload): ``{"from": "a2", "to": "a3"}``, squares in
  lower case; a capture is written the same way (the rules know it is one).
- record move: ``{"from": "b4", "to": "c5", "notation": "b4xc5"}`` (read back by ``move_from_record``).
- notation (:meth:`BreakthroughGame.describe_move`): ``a2-a3`` for a move, ``b4xc5`` for a capture;
  :meth:`BreakthroughGame.parse_notation` also reads ``b4-c5``, ``b4c5`` and upper case.

Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from arena.games.base import (
    Color,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    StateError,
    Termination,
    TwoColourGame,
    cap_text,
    exact_keys,
    show_value,
)
from arena.games.registry import spec_of

FILES = "abcdefgh"
FULL = (1 << 64) - 1
FILE_A = sum(1 << (8 * r) for r in range(8))
FILE_H = FILE_A << 7
ROW_1 = 0xFF
ROW_8 = 0xFF << 56
_INITIAL_BLACK = 0xFFFF  # rows 1-2
_INITIAL_WHITE = 0xFFFF << 48  # rows 7-8
MAX_PIECES = 16
_SQUARE = re.compile(r"[a-h][1-8]\Z")
_NOTATION = re.compile(r"([a-h][1-8])([-x]?)([a-h][1-8])\Z")
_WIRE_HINT = 'expected {"from": "a2", "to": "a3"}'


class BreakthroughState(NamedTuple):
    """A position: ``black`` and ``white`` are 64-bit masks (bit ``file + 8 * (row - 1)``)."""

    black: int
    white: int
    turn: Color
    turn_number: int


@dataclass(frozen=True, slots=True)
class BreakthroughMove:
    """A move from square ``origin`` to square ``target`` (indices 0-63).

    Its identity (equality, hash) is ``(origin, target)``. ``capture`` only serves the notation
    (``b4xc5``): it is set on the moves :meth:`BreakthroughGame.legal_moves` and
    :meth:`~BreakthroughGame.validate_move` return, while :meth:`~BreakthroughGame.parse_move`
    leaves it False (the wire does not say; the rules know).
    """

    origin: int
    target: int
    capture: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if not (type(self.origin) is int and type(self.target) is int
                and 0 <= self.origin < 64 and 0 <= self.target < 64):
            raise ValueError(f"squares are integers 0-63, got {self.origin!r} and {self.target!r}")


def _steps(black: bool) -> dict[int, bool]:
    """Every one-square forward step of a side, keyed ``origin << 6 | target``: True if straight,
    False if diagonal (the geometry only; what stands on the squares is the caller's)."""
    steps = {}
    for origin in range(64):
        row, file = divmod(origin, 8)
        ahead = row + (1 if black else -1)
        if 0 <= ahead < 8:
            for towards in (-1, 0, 1):
                if 0 <= file + towards < 8:
                    steps[origin << 6 | (8 * ahead + file + towards)] = towards == 0
    return steps


#: The steps of each side, for the match's legality check of one move (no move list built).
_BLACK_STEPS, _WHITE_STEPS = _steps(True), _steps(False)
#: Each move the match has checked, once (keyed ``origin << 7 | target << 1 | capture``): moves
#: are immutable values, and building one (its ``__post_init__`` check) cost a microsecond a ply.
_MOVES: dict[int, BreakthroughMove] = {}


def _interned(origin: int, target: int, capture: bool) -> BreakthroughMove:
    """The move ``BreakthroughMove(origin, target, capture)``, built once."""
    key = origin << 7 | target << 1 | capture
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = BreakthroughMove(origin, target, capture)
    return move


#: The name of each square by index (a move's names are written several times a ply: a table).
_SQUARE_NAMES = tuple(FILES[index % 8] + str(index // 8 + 1) for index in range(64))
#: The index of each square name (a bot's move is read every ply: a table, not the regex).
_SQUARE_INDICES = {name: index for index, name in enumerate(_SQUARE_NAMES)}
# The sides as module constants: reading ``Color.BLACK`` is a class attribute lookup each time.
_BLACK, _WHITE = Color.BLACK, Color.WHITE


def square_name(index: int) -> str:
    """``"a1"`` for 0 ... ``"h8"`` for 63."""
    return _SQUARE_NAMES[index]


def square_index(name: str) -> int:
    """The index of a square name ``a1``..``h8`` (lower case); ValueError for anything else."""
    if not isinstance(name, str) or not _SQUARE.match(name):
        raise ValueError(f"{show_value(name)} is not a square a1-h8")
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def relative(state: BreakthroughState) -> tuple[int, int, bool]:
    """``(mine, theirs, black_to_move)`` for the side to move."""
    if state.turn is Color.BLACK:
        return state.black, state.white, True
    return state.white, state.black, False


def move_masks(mine: int, theirs: int, black: bool) -> tuple[int, int, int]:
    """The target squares of every move of ``mine``, one mask per direction:
    ``(straight, diagonal towards file a, diagonal towards file h)``. A straight target is empty;
    a diagonal one is empty or ``theirs`` (a capture). Bit ``t`` of the straight mask is the move
    from ``t -+ 8``; of the a-side mask from ``t -+ 7`` (Black/White); of the h-side from ``t -+ 9``."""
    empty = ~(mine | theirs) & FULL
    if black:
        return ((mine << 8) & empty, ((mine & ~FILE_A) << 7) & ~mine & FULL,
                ((mine & ~FILE_H) << 9) & ~mine & FULL)
    return (mine >> 8) & empty, ((mine & ~FILE_A) >> 9) & ~mine, ((mine & ~FILE_H) >> 7) & ~mine


def _shifts(black: bool) -> tuple[int, int, int]:
    """How far a target lies from its origin, per direction of :func:`move_masks`."""
    return (8, 7, 9) if black else (-8, -9, -7)


def has_lost(mine: int, theirs: int, black: bool) -> bool:
    """The side to move has lost: the opponent stands on its far row, or it has no pieces."""
    return not mine or bool(theirs & (ROW_1 if black else ROW_8))


def count_moves(mine: int, theirs: int, black: bool) -> int:
    """Number of moves of ``mine`` (the game-over check is the caller's)."""
    straight, side_a, side_h = move_masks(mine, theirs, black)
    return straight.bit_count() + side_a.bit_count() + side_h.bit_count()


def raw_moves(mine: int, theirs: int, black: bool) -> list[tuple[int, int, bool]]:
    """``(origin, target, capture)`` of every move of ``mine``, by origin then target (the
    game-over check is the caller's)."""
    moves: list[tuple[int, int, bool]] = []
    for mask, shift in zip(move_masks(mine, theirs, black), _shifts(black), strict=True):
        while mask:
            low = mask & -mask
            mask ^= low
            target = low.bit_length() - 1
            moves.append((target - shift, target, bool(theirs & low)))
    moves.sort()
    return moves


def _perft(mine: int, theirs: int, black: bool, depth: int) -> int:
    if has_lost(mine, theirs, black):
        return 0
    if depth == 1:
        return count_moves(mine, theirs, black)
    total = 0
    for origin, target, _ in raw_moves(mine, theirs, black):
        bit = 1 << target
        total += _perft(theirs & ~bit, (mine ^ (1 << origin)) | bit, not black, depth - 1)
    return total


def _row_text(black: int, white: int) -> str:
    """One board row's 8 characters from its two 8-bit masks (bit ``i`` is file ``i``)."""
    return "".join("b" if black >> col & 1 else "w" if white >> col & 1 else "." for col in range(8))


# Why a table: a state is encoded for the wire and the record once per ply, and building the 64
# characters one by one was 9% of arena's CPU per ply in a tournament of instant bots (issue 24).
# A row is one of 3^8 = 6561 patterns; each is built once, on first sight.
_ROWS: dict[int, str] = {}


def board_rows(state: BreakthroughState) -> list[str]:
    """The 8 board strings of the JSON form, row 8 first."""
    # One expression per row (row r's key: its black byte, then its white byte): the loop it
    # replaces cost a third more, and this runs once a ply (issue 24).
    black, white, rows = state.black, state.white, _ROWS
    try:
        return [rows[black >> 48 & 0xFF00 | white >> 56], rows[black >> 40 & 0xFF00 | white >> 48 & 0xFF],
                rows[black >> 32 & 0xFF00 | white >> 40 & 0xFF], rows[black >> 24 & 0xFF00 | white >> 32 & 0xFF],
                rows[black >> 16 & 0xFF00 | white >> 24 & 0xFF], rows[black >> 8 & 0xFF00 | white >> 16 & 0xFF],
                rows[black & 0xFF00 | white >> 8 & 0xFF], rows[black << 8 & 0xFF00 | white & 0xFF]]
    except KeyError:  # a row pattern not seen yet: build the missing ones, then read them all
        for shift in range(0, 64, 8):
            key = (black >> shift & 0xFF) << 8 | white >> shift & 0xFF
            if key not in rows:
                rows[key] = _row_text(key >> 8, key & 0xFF)
        return board_rows(state)


def _parse_board(board: Any) -> tuple[int, int]:
    if not isinstance(board, list):
        raise StateError(f"board must be a list of 8 strings (row 8 first), got {show_value(board)}")
    if len(board) != 8:
        raise StateError(f"board has {len(board)} rows, expected 8 (row 8 first)")
    black = white = 0
    for i, line in enumerate(board):
        row = 8 - i
        if not isinstance(line, str):
            raise StateError(f"board row {row} (board[{i}]) must be a string, got {show_value(line)}")
        if len(line) != 8:
            raise StateError(f"board row {row} (board[{i}]) has {len(line)} squares, expected 8: {show_value(line)}")
        for col, cell in enumerate(line):
            bit = 1 << (8 * (row - 1) + col)
            if cell == "b":
                black |= bit
            elif cell == "w":
                white |= bit
            elif cell != ".":
                raise StateError(f"board square {FILES[col]}{row}: {show_value(cell)} is not one of b w .")
    return black, white


def _check_position(black: int, white: int, turn: Color) -> None:
    """StateError when the pieces cannot stand so with ``turn`` to move (see state_from_json)."""
    for name, mask in (("Black", black), ("White", white)):
        if mask.bit_count() > MAX_PIECES:
            raise StateError(f"board: {name} has {mask.bit_count()} pieces, at most {MAX_PIECES}")
    mover, mine, goal = ("Black", black, ROW_8) if turn is Color.BLACK else ("White", white, ROW_1)
    other, theirs = ("White", white) if turn is Color.BLACK else ("Black", black)
    if mine & goal:
        square = square_name((mine & goal).bit_length() - 1)
        raise StateError(f"board: {mover} is to move but already stands on its far row ({square}):"
                         " the game ended when it got there")
    if not theirs:
        raise StateError(f"board: {other} has no pieces, yet it made the last move")


class BreakthroughGame(TwoColourGame[BreakthroughState, BreakthroughMove]):
    """The rules of Breakthrough; stateless, shared by all matches. See the module docstring."""

    name: ClassVar[str] = "breakthrough"
    #: Never reached: every game ends within 177 plies (module docstring).
    default_max_moves: ClassVar[int] = 177

    # --- the forward model ------------------------------------------------------------------

    def initial_state(self) -> BreakthroughState:
        return BreakthroughState(_INITIAL_BLACK, _INITIAL_WHITE, Color.BLACK, 0)

    def legal_moves(self, state: BreakthroughState) -> list[BreakthroughMove]:
        """Every move, by origin square then target square (a1 = 0 ... h8 = 63); empty when the
        game is over."""
        mine, theirs, black = relative(state)
        if has_lost(mine, theirs, black):
            return []
        return [BreakthroughMove(o, t, c) for o, t, c in raw_moves(mine, theirs, black)]

    def apply(self, state: BreakthroughState, move: BreakthroughMove) -> BreakthroughState:
        """The next state; ``move`` must be legal in ``state`` (not checked)."""
        origin, target = 1 << move.origin, 1 << move.target
        if state.turn is _BLACK:
            return BreakthroughState((state.black ^ origin) | target, state.white & ~target,
                                     _WHITE, state.turn_number + 1)
        return BreakthroughState(state.black & ~target, (state.white ^ origin) | target,
                                 _BLACK, state.turn_number + 1)

    def outcome(self, state: BreakthroughState) -> Outcome | None:
        """``WIN`` for the side that reached its far row or took the last enemy piece;
        ``NO_LEGAL_MOVES`` if the side to move cannot move (never, in practice); else None."""
        # The match asks every ply: a game going on is told by a few masks, and a straight step
        # found (nearly always) spares counting the moves. The rest is the full account.
        black, white = state.black, state.white
        if state.turn is _BLACK:
            if black and not white & ROW_1 and (black << 8 & ~(black | white) & FULL):
                return None
        elif white and not black & ROW_8 and (white >> 8 & ~(black | white)):
            return None
        mine, theirs, black_turn = relative(state)
        mover = state.turn
        reached = theirs & (ROW_1 if black_turn else ROW_8)
        if reached:
            square = square_name(reached.bit_length() - 1)
            far = 1 if black_turn else 8
            return Outcome(Termination.WIN, mover.other, f"{mover.other.value} reached row {far} ({square})")
        if not mine:
            return Outcome(Termination.WIN, mover.other, f"{mover.value} has no pieces left")
        if not count_moves(mine, theirs, black_turn):
            return Outcome(Termination.NO_LEGAL_MOVES, mover.other, f"{mover.value} has no legal move")
        return None

    def count_leaves(self, state: BreakthroughState, depth: int) -> int:
        """Perft on the masks, counting the last ply without building its moves."""
        return _perft(*relative(state), depth)

    # --- moves on the wire, in records and for humans -----------------------------------------

    def parse_move(self, wire: Any) -> BreakthroughMove:
        """A move from the turn payload ``{"from": "a2", "to": "a3"}`` (exactly these keys, squares
        ``a1``-``h8`` in lower case). Raises :class:`MoveSyntaxError` naming the problem; whether
        the move is legal is :meth:`validate_move`'s business."""
        if type(wire) is dict and len(wire) == 2:  # the usual reply: two names, looked up
            names = wire.get("from"), wire.get("to")
            if type(names[0]) is str and type(names[1]) is str:
                origin, target = _SQUARE_INDICES.get(names[0]), _SQUARE_INDICES.get(names[1])
                if origin is not None and target is not None:
                    return _interned(origin, target, False)
        if not isinstance(wire, dict):
            raise MoveSyntaxError(f"a move must be an object, got {show_value(wire)}: {_WIRE_HINT}")
        exact_keys(wire, "move", ("from", "to"), MoveSyntaxError)
        squares = []
        for key in ("from", "to"):
            value = wire[key]
            if not isinstance(value, str) or not _SQUARE.match(value):
                raise MoveSyntaxError(f'move "{key}": {show_value(value)} is not a square a1-h8 (lower case)')
            squares.append(square_index(value))
        return BreakthroughMove(squares[0], squares[1])

    def move_to_wire(self, move: BreakthroughMove) -> dict[str, str]:
        """``{"from": "a2", "to": "a3"}``."""
        return {"from": square_name(move.origin), "to": square_name(move.target)}

    def move_to_record(self, move: BreakthroughMove) -> dict[str, str]:
        """``{"from": "b4", "to": "c5", "notation": "b4xc5"}``."""
        origin, target = _SQUARE_NAMES[move.origin], _SQUARE_NAMES[move.target]
        return {"from": origin, "to": target, "notation": origin + ("x" if move.capture else "-") + target}

    def move_from_record(self, turn: Any) -> BreakthroughMove:
        """The move of a record's turn object ``{"from", "to", "notation"}`` (exactly these keys;
        the notation must name the same squares, and its ``x`` marks a capture). Raises
        :class:`MoveSyntaxError` naming the problem."""
        if not isinstance(turn, dict):
            raise MoveSyntaxError(f"a record move must be an object, got {show_value(turn)}")
        exact_keys(turn, "record move", ("from", "to", "notation"), MoveSyntaxError)
        move = self.parse_move({"from": turn["from"], "to": turn["to"]})
        notation = turn["notation"]
        if notation not in (f"{turn['from']}-{turn['to']}", f"{turn['from']}x{turn['to']}"):
            raise MoveSyntaxError(f"record move: notation {show_value(notation)} does not name"
                                  f" {turn['from']} to {turn['to']}")
        return BreakthroughMove(move.origin, move.target, notation[2] == "x")

    def describe_move(self, move: BreakthroughMove) -> str:
        """``a2-a3``, or ``b4xc5`` for a capture."""
        return _SQUARE_NAMES[move.origin] + ("x" if move.capture else "-") + _SQUARE_NAMES[move.target]

    def validate_move(self, state: BreakthroughState, move: BreakthroughMove) -> BreakthroughMove:
        """The legal move equal to ``move`` (with ``capture`` set right); otherwise
        :class:`IllegalMoveError` giving the first rule it breaks, e.g. ``a2-a4: ...``."""
        if type(move) is BreakthroughMove:  # the match's check, every ply: one step's squares
            black_turn = state.turn is _BLACK
            mine, theirs = (state.black, state.white) if black_turn else (state.white, state.black)
            origin, target = move.origin, move.target
            straight = (_BLACK_STEPS if black_turn else _WHITE_STEPS).get(origin << 6 | target)
            # A legal step means the game is not over: a side that has lost has no pieces (then
            # this step has none to move) or has the enemy on its home row, ruled out here.
            if (straight is not None and mine >> origin & 1 and not theirs & (ROW_1 if black_turn else ROW_8)
                    and not ((mine | theirs) if straight else mine) >> target & 1):
                return _interned(origin, target, bool(theirs >> target & 1))
        # Otherwise the rules in order, for the reason they give.
        if not isinstance(move, BreakthroughMove):
            raise IllegalMoveError(f"{cap_text(repr(move))} is not a Breakthrough move")
        name = self.describe_move(move)
        ruled = self.outcome(state)
        if ruled is not None:
            raise IllegalMoveError(f"{name}: the game is over ({ruled.reason})")
        mine, theirs, black = relative(state)
        mover = state.turn.value.capitalize()
        origin, target = move.origin, move.target
        if not mine >> origin & 1:
            if theirs >> origin & 1:
                other = state.turn.other.value.capitalize()
                raise IllegalMoveError(f"{name}: the piece on {square_name(origin)} is {other}'s;"
                                       f" {mover} is to move")
            raise IllegalMoveError(f"{name}: there is no piece on {square_name(origin)}")
        forward = 1 if black else -1
        rows, files = target // 8 - origin // 8, target % 8 - origin % 8
        towards = f"{mover} moves towards row {8 if black else 1}"
        if rows == 0:
            raise IllegalMoveError(f"{name}: a piece never moves sideways; it goes one square forward"
                                   f" or diagonally forward ({towards})")
        if rows * forward < 0:
            raise IllegalMoveError(f"{name}: a piece never moves backwards ({towards})")
        if rows != forward or abs(files) > 1:
            raise IllegalMoveError(f"{name}: a piece moves one square only, forward or diagonally"
                                   f" forward ({towards})")
        here = square_name(target)
        if mine >> target & 1:
            raise IllegalMoveError(f"{name}: {here} is taken by another {mover} piece")
        capture = bool(theirs >> target & 1)
        if capture and files == 0:
            raise IllegalMoveError(f"{name}: a piece moves straight forward only onto an empty square;"
                                   f" {here} holds an enemy piece (captures are diagonal)")
        return BreakthroughMove(origin, target, capture)

    def parse_notation(self, text: str, state: BreakthroughState) -> BreakthroughMove:
        """The legal move ``text`` names: ``a2-a3``, ``b4xc5``, or without the separator (``b4c5``),
        any case, spaces ignored. :class:`MoveSyntaxError` when it is not that notation;
        :class:`IllegalMoveError` with the rules' reason, also for an ``x`` where nothing is taken."""
        if not isinstance(text, str) or not text.strip():
            raise MoveSyntaxError("no move given: write e.g. a2-a3, or b4xc5 for a capture")
        compact = "".join(text.split()).lower()
        found = _NOTATION.match(compact)
        if found is None:
            raise MoveSyntaxError(f"{cap_text(text.strip())!r} is not a move: write the two squares,"
                                  " e.g. a2-a3, or b4xc5 for a capture")
        move = BreakthroughMove(square_index(found[1]), square_index(found[3]), found[2] == "x")
        legal = self.validate_move(state, move)
        if found[2] == "x" and not legal.capture:
            raise IllegalMoveError(f"{compact}: {found[3]} is empty, nothing to capture"
                                   f" (write {self.describe_move(legal)})")
        return legal

    # --- states as JSON, text and pictures ------------------------------------------------------

    def board_json(self, state: BreakthroughState) -> list[str]:
        return board_rows(state)

    def read_board(self, board: Any, turn: Color, turn_number: int) -> BreakthroughState:
        """Strict reading of the JSON form's board (module docstring). Besides the shape, refuses
        what no game can reach: more than 16 pieces a side, the side to move standing on its far
        row, and the side that just moved having no pieces. :class:`StateError` with a one-line
        message."""
        black, white = _parse_board(board)
        _check_position(black, white, turn)
        return BreakthroughState(black, white, turn, turn_number)

    def board_text(self, state: BreakthroughState) -> str:
        """The board with coordinates, row 8 at the top; ``b`` black, ``w`` white, ``.`` empty."""
        edge = "  " + " ".join(FILES)
        lines = [edge]
        for i, row in enumerate(board_rows(state)):
            lines.append(f"{8 - i} {' '.join(row)} {8 - i}")
        lines.append(edge)
        return "\n".join(lines)


# --- SVG ------------------------------------------------------------------------------------------

_CELL = 40
_MARGIN = 20


def board_svg(state: BreakthroughState, last_move: BreakthroughMove | None = None) -> str:
    """A self-contained SVG picture of ``state`` (row 8 at the top), ``last_move``'s squares
    highlighted. Standard library only, no external resources."""
    size = 8 * _CELL + 2 * _MARGIN
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
              f'width="{size}" height="{size}" font-family="sans-serif" font-size="12">'),
             f"<title>Breakthrough, {state.turn.value.capitalize()} to move, ply {state.turn_number}</title>",
             f'<rect width="{size}" height="{size}" fill="#f4f1ea"/>']
    marked = set() if last_move is None else {last_move.origin, last_move.target}
    for index in range(64):
        col, row = index % 8, index // 8
        x, y = _MARGIN + col * _CELL, _MARGIN + (7 - row) * _CELL
        fill = "#b58863" if (col + row) % 2 == 0 else "#f0d9b5"
        parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}"/>')
        if index in marked:
            parts.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="#f6f669" '
                         'fill-opacity="0.6" class="last-move"/>')
        bit = 1 << index
        if (state.black | state.white) & bit:
            black = bool(state.black & bit)
            parts.append(f'<circle cx="{x + _CELL // 2}" cy="{y + _CELL // 2}" r="{_CELL * 0.36:.1f}" '
                         f'fill="{"#222222" if black else "#fafafa"}" stroke="#222222" stroke-width="1.5" '
                         f'class="{"black" if black else "white"}"/>')
    for i in range(8):
        centre = _MARGIN + i * _CELL + _CELL // 2
        for y in (_MARGIN - 6, size - 6):
            parts.append(f'<text x="{centre}" y="{y}" text-anchor="middle">{FILES[i]}</text>')
        for x in (_MARGIN // 2, size - _MARGIN // 2):
            parts.append(f'<text x="{x}" y="{centre + 4}" text-anchor="middle">{8 - i}</text>')
    parts.append("</svg>")
    return "".join(parts)


SPEC = spec_of(BreakthroughGame, "Breakthrough", svg="arena.games.breakthrough.rules:board_svg",
               summary="8x8, two rows each; step forward, capture diagonally; reach the far row to win",
               notation='a2-a3, b4xc5 for a capture (wire: {"from": "a2", "to": "a3"})')

__all__ = [
    "SPEC",
    "BreakthroughGame",
    "BreakthroughMove",
    "BreakthroughState",
    "board_rows",
    "board_svg",
    "count_moves",
    "has_lost",
    "move_masks",
    "raw_moves",
    "relative",
    "square_index",
    "square_name",
]
