"""English draughts (American checkers) behind the :class:`~arena.games.base.Game` interface.

Rules and coordinates are those of ``docs/rules/checkers.md`` (the line protocol: ``docs/bots.md``): ``board[row][col]``
with row 0 at the top, dark squares where ``(col + row) % 2 == 1``, black men on rows 0-2 moving
down, white men on rows 5-7 moving up, black moves first; symbols ``. b w B W``. Captures are
mandatory but any capture sequence may be chosen; a multi-jump must be completed; a piece is
jumped at most once per move; crowning ends the move; kings step and jump one square in all four
directions.

Public API (all standard library):

- :class:`CheckersGame` -- the rules object (``get_game("checkers")``).
- :class:`CheckersState` -- immutable position: ``black``, ``white``, ``kings`` (32-bit masks over
  the dark squares, bit ``n - 1`` = PDN square ``n``), ``turn`` (:class:`Color`), ``turn_number``.
- :class:`CheckersMove` -- hashable move whose identity is ``path``, the visited squares as
  ``(col, row)`` pairs; ``origin``/``target``/``captured`` are masks derived from the path.
- :func:`piece_counts`, :func:`count_legal_moves`, :func:`relative_masks`,
  :func:`state_from_board`, :func:`square_number`, :func:`square_coords`: helpers for bots,
  tools and tests. The int-level generator is :mod:`arena.games.checkers.board`.

Notation (:meth:`CheckersGame.parse_notation`, for a human at the terminal; documented there):
PDN square numbers 1-32 (square ``n`` is at row ``(n-1)//4``, col ``2*((n-1)%4) + (1 if row is
even else 0)``): ``11-15`` is a step, ``22x15x8`` a capture listing every landing square,
``22x8`` a capture given by its ends (resolved against the position). The protocol form
``2 3 2 2 3`` is accepted too.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
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
from arena.games.checkers.board import (
    BLACK_CROWN,
    BLACK_MAN_STEPS,
    COORDS,
    INDEX_OF,
    KING_STEPS,
    WHITE_CROWN,
    WHITE_MAN_STEPS,
    count_moves_rel,
    has_jump_rel,
    has_step_rel,
    jumps_rel,
    perft_rel,
    steps_rel,
)
from arena.games.checkers.explain import explain_illegal, square_name
from arena.games.registry import spec_of

SYMBOLS = ".bwBW"
_INITIAL_BLACK = sum(1 << i for i in range(12))
_INITIAL_WHITE = sum(1 << i for i in range(20, 32))
_WIRE_HINT = "expected 'n c1 r1 ... cn rn'"


class CheckersState(NamedTuple):
    """A position. Masks have bit ``i`` for the dark square of index ``i`` (PDN ``i + 1``);
    ``kings`` marks the kings of both colours (a subset of ``black | white``)."""

    black: int
    white: int
    kings: int
    turn: Color
    turn_number: int


class CheckersMove(NamedTuple):
    """A move: the squares it visits, start first, as ``(col, row)`` pairs.

    ``origin``, ``target`` (single-bit masks) and ``captured`` (mask of the jumped squares) are a
    pure function of ``path`` (see :meth:`from_path`), so two moves visiting the same squares are
    equal and hash alike. For a path that leaves the dark squares they are all 0.
    """

    path: tuple[tuple[int, int], ...]
    origin: int
    target: int
    captured: int

    @classmethod
    def from_path(cls, path: Any) -> CheckersMove:
        """The move visiting ``path`` (an iterable of ``(col, row)`` pairs of ints); no legality
        check. Raises :class:`MoveSyntaxError` if ``path`` is not such a sequence of 2+ squares."""
        try:
            squares = tuple((col, row) for col, row in path)
        except (TypeError, ValueError):
            raise MoveSyntaxError("a path is a list of [col, row] pairs") from None
        if len(squares) < 2 or not all(
            type(c) is int and type(r) is int for c, r in squares
        ):
            raise MoveSyntaxError("a path is a list of at least 2 [col, row] pairs of integers")
        indices = [INDEX_OF.get(square, -1) for square in squares]
        if min(indices) < 0:
            return cls(squares, 0, 0, 0)
        captured = 0
        for (c1, r1), (c2, r2) in itertools.pairwise(squares):
            if abs(c2 - c1) == 2 and abs(r2 - r1) == 2:
                captured |= 1 << INDEX_OF[((c1 + c2) // 2, (r1 + r2) // 2)]
        return cls(squares, 1 << indices[0], 1 << indices[-1], captured)


class PieceCounts(NamedTuple):
    """Material of a position, per colour and kind."""

    black_men: int
    black_kings: int
    white_men: int
    white_kings: int


def square_number(col: int, row: int) -> int:
    """PDN number (1..32) of the dark square ``(col, row)``; ValueError for any other square."""
    index = INDEX_OF.get((col, row))
    if index is None:
        raise ValueError(f"({col},{row}) is not a dark square of the board")
    return index + 1


def square_coords(number: int) -> tuple[int, int]:
    """``(col, row)`` of PDN square ``number`` (1..32); ValueError outside that range."""
    if not 1 <= number <= 32:
        raise ValueError(f"square number {number} is not in 1-32")
    return COORDS[number - 1]


def piece_counts(state: CheckersState) -> PieceCounts:
    """Men and kings of each colour."""
    black_kings = (state.black & state.kings).bit_count()
    white_kings = (state.white & state.kings).bit_count()
    return PieceCounts(
        state.black.bit_count() - black_kings,
        black_kings,
        state.white.bit_count() - white_kings,
        white_kings,
    )


def relative_masks(state: CheckersState) -> tuple[int, int, int, bool]:
    """``(me, them, kings, black)`` for the side to move: the form the ``*_rel`` functions of
    :mod:`arena.games.checkers.board` take."""
    if state.turn is Color.BLACK:
        return state.black, state.white, state.kings, True
    return state.white, state.black, state.kings, False


def count_legal_moves(state: CheckersState) -> int:
    """Number of legal moves of the side to move, counted without building them (mobility)."""
    return count_moves_rel(*relative_masks(state))


#: Board lines already read: (row, line) -> its (black, white, kings) masks. Positions of a game
#: share most of their lines, so a record's states are read mostly from here (valid lines only).
_ROW_MASKS: dict[tuple[int, str], tuple[int, int, int]] = {}
_ROW_MASKS_MAX = 50_000


def _parse_board(lines: Any) -> tuple[int, int, int]:
    """Masks from 8 board lines (with or without spaces); StateError naming the problem."""
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise StateError("board must be a list of 8 strings")
    if len(lines) != 8:
        raise StateError(f"board has {len(lines)} lines, expected 8")
    black = white = kings = 0
    known = _ROW_MASKS
    for row, line in enumerate(lines):
        masks = known.get((row, line))
        if masks is None:
            masks = _parse_row(row, line)
            if len(known) < _ROW_MASKS_MAX:
                known[(row, line)] = masks
        black |= masks[0]
        white |= masks[1]
        kings |= masks[2]
    return black, white, kings


def _parse_row(row: int, line: str) -> tuple[int, int, int]:
    """The masks of board line ``row`` (0-7); StateError naming the problem."""
    black = white = kings = 0
    text = line.rstrip()
    cells = text.split() if any(ch.isspace() for ch in text) else list(text)
    if len(cells) != 8:
        raise StateError(f"board line {row + 1} has {len(cells)} squares, expected 8")
    for col, cell in enumerate(cells):
        if len(cell) != 1 or cell not in SYMBOLS:
            raise StateError(
                f"board line {row + 1}, column {col}: {cell[:10]!r} is not one of . b w B W"
            )
        if cell == ".":
            continue
        index = INDEX_OF.get((col, row))
        if index is None:
            raise StateError(
                f"board line {row + 1}: piece {cell!r} at ({col},{row}) is on a light square"
            )
        if (cell == "b" and row == 7) or (cell == "w" and row == 0):
            raise StateError(
                f"board line {row + 1}: a man {cell!r} at ({col},{row}) stands on its crowning"
                f" row and should be a king ({cell.upper()!r})"
            )
        bit = 1 << index
        if cell in "bB":
            black |= bit
        else:
            white |= bit
        if cell in "BW":
            kings |= bit
    return black, white, kings


def state_from_board(
    lines: list[str], turn: Color = Color.BLACK, turn_number: int = 0
) -> CheckersState:
    """A state from an 8-line picture (protocol lines, with or without spaces); StateError if the
    picture is not a valid board."""
    black, white, kings = _parse_board(lines)
    return CheckersState(black, white, kings, turn, turn_number)


_PDN_TOKEN = re.compile(r"\s*([-xX])\s*")


class CheckersGame(TwoColourGame[CheckersState, CheckersMove]):
    """The rules of English draughts; stateless, shared by all matches."""

    name: ClassVar[str] = "checkers"
    default_max_moves: ClassVar[int] = 100

    # --- the forward model ------------------------------------------------------------------

    def initial_state(self) -> CheckersState:
        return CheckersState(_INITIAL_BLACK, _INITIAL_WHITE, 0, Color.BLACK, 0)

    def legal_moves(self, state: CheckersState) -> list[CheckersMove]:
        """Captures (by starting square, then direction up-left, up-right, down-left,
        down-right, depth first) if there are any, else steps in the same order."""
        me, them, kings, black = relative_masks(state)
        coords = COORDS
        captures = jumps_rel(me, them, kings, black)
        if captures:
            return [
                CheckersMove(tuple([coords[i] for i in path]), 1 << path[0], 1 << path[-1], captured)
                for path, captured in captures
            ]
        return [
            CheckersMove((coords[a], coords[b]), 1 << a, 1 << b, 0)
            for a, b in steps_rel(me, them, kings, black)
        ]

    def apply(self, state: CheckersState, move: CheckersMove) -> CheckersState:
        """The next state; ``move`` must be legal in ``state`` (not checked)."""
        origin, target, captured = move.origin, move.target, move.captured
        kings = state.kings & ~captured
        if kings & origin:
            kings = (kings ^ origin) | target
        if state.turn is Color.BLACK:
            if not kings & target and target & BLACK_CROWN:
                kings |= target
            return CheckersState(
                (state.black ^ origin) | target,
                state.white & ~captured,
                kings,
                Color.WHITE,
                state.turn_number + 1,
            )
        if not kings & target and target & WHITE_CROWN:
            kings |= target
        return CheckersState(
            state.black & ~captured,
            (state.white ^ origin) | target,
            kings,
            Color.BLACK,
            state.turn_number + 1,
        )

    def outcome(self, state: CheckersState) -> Outcome | None:
        me, them, kings, black = relative_masks(state)
        mover = state.turn
        if not me:
            return Outcome(Termination.WIN, mover.other, f"{mover.value} has no pieces left")
        if has_jump_rel(me, them, kings, black) or has_step_rel(me, them, kings, black):
            return None
        return Outcome(
            Termination.NO_LEGAL_MOVES,
            mover.other,
            f"{mover.value} has no legal move: all its pieces are blocked",
        )

    def count_leaves(self, state: CheckersState, depth: int) -> int:
        """Perft on the masks, bulk-counted at the last ply."""
        return perft_rel(*relative_masks(state), depth)

    # --- moves on the wire, in records and for humans -----------------------------------------

    def parse_move(self, wire: Any) -> CheckersMove:
        """A move from the protocol reply ``n c1 r1 ... cn rn``.

        Tolerant of surrounding/extra whitespace (spaces, tabs, ``\\r``); strict about the shape:
        every field a whole number, ``n >= 2``, exactly ``2n`` coordinates. Raises
        :class:`MoveSyntaxError` naming the problem. Squares off the board are *not* a syntax
        error: :meth:`validate_move` rejects them as illegal.
        """
        if isinstance(wire, bytes):
            try:
                wire = wire.decode("utf-8")
            except UnicodeDecodeError:
                raise MoveSyntaxError("reply is not valid UTF-8") from None
        if not isinstance(wire, str):
            raise MoveSyntaxError(f"expected a text line, got {type(wire).__name__}")
        fields = wire.split()
        if not fields:
            raise MoveSyntaxError(f"empty reply: {_WIRE_HINT}")
        for field in fields:
            if not (field.isascii() and field.isdigit()):
                shown = field if len(field) <= 20 else field[:20] + "..."
                raise MoveSyntaxError(f"{shown!r} is not a non-negative whole number: {_WIRE_HINT}")
        numbers = [int(field) for field in fields]
        count, coords = numbers[0], numbers[1:]
        if count < 2:
            raise MoveSyntaxError(f"the count {count} is too small: a move visits at least 2 squares")
        if len(coords) != 2 * count:
            raise MoveSyntaxError(
                f"the count {count} announces {count} squares ({2 * count} numbers)"
                f" but {len(coords)} numbers follow"
            )
        return CheckersMove.from_path(zip(coords[0::2], coords[1::2], strict=True))

    def move_to_wire(self, move: CheckersMove) -> str:
        """The protocol reply, e.g. ``"2 3 2 2 3"``."""
        return " ".join([str(len(move.path))] + [f"{c} {r}" for c, r in move.path])

    def move_to_record(self, move: CheckersMove) -> dict[str, Any]:
        """``{"path": [[col, row], ...], "pdn": "11-15"}`` (``pdn`` absent for an off-board path)."""
        record: dict[str, Any] = {"path": [[c, r] for c, r in move.path]}
        if all(square in INDEX_OF for square in move.path):
            record["pdn"] = self.describe_move(move)
        return record

    def move_from_record(self, turn: Any) -> CheckersMove:
        """The move of a record's ``{"path": [[col, row], ...]}`` turn."""
        path = turn.get("path") if isinstance(turn, dict) else None
        if not isinstance(path, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in path):
            raise MoveSyntaxError(f"a checkers record turn is {{\"path\": [[col, row], ...]}}, got {show_value(turn)}")
        return self.parse_move(" ".join([str(len(path))] + [f"{c} {r}" for c, r in path]))

    def describe_move(self, move: CheckersMove) -> str:
        """PDN: ``11-15`` for a step, ``22x15x8`` for a capture (``(col,row)`` pairs for squares
        that are not dark squares of the board)."""
        path = move.path
        if len(path) == 2:
            first, second = INDEX_OF.get(path[0]), INDEX_OF.get(path[1])
            if first is not None and second is not None:
                return f"{first + 1}{'x' if abs(path[1][0] - path[0][0]) == 2 else '-'}{second + 1}"
        jump = any(abs(c2 - c1) == 2 for (c1, _), (c2, _) in itertools.pairwise(move.path))
        names = [
            str(INDEX_OF[sq] + 1) if sq in INDEX_OF else f"({sq[0]},{sq[1]})" for sq in move.path
        ]
        return ("x" if jump else "-").join(names)

    def validate_move(self, state: CheckersState, move: CheckersMove) -> CheckersMove:
        """The legal move equal to ``move``; :class:`IllegalMoveError` with the precise reason
        (naming squares as ``(col,row) [PDN n]``) otherwise."""
        # Fast path for a legal step (the common move), without listing every legal move: no
        # capture anywhere (captures are mandatory), our piece on the origin, an empty target one
        # step away in a direction the piece may go, and a path that names exactly those squares.
        # It saves ~11-12 us a ply, 11-12% of arena's CPU per ply (in-process match loop 38.1 ->
        # 49.2 us without it; bench/engine_overhead.py --cpu-only), so it stays; the tests hold it
        # to the legal-move list.
        if type(move) is CheckersMove and not move.captured and len(move.path) == 2:
            me, them, kings, black = relative_masks(state)
            origin, target = move.origin, move.target
            if origin & me and target and not target & (me | them) and not has_jump_rel(me, them, kings, black):
                index = origin.bit_length() - 1
                table = KING_STEPS if kings & origin else BLACK_MAN_STEPS if black else WHITE_MAN_STEPS
                for target_bit, target_index in table[index]:
                    if target_bit == target:
                        if move.path == (COORDS[index], COORDS[target_index]):
                            return move
                        break
        legal = self.legal_moves(state)
        if move in legal:
            return move
        raise IllegalMoveError(explain_illegal(state, move.path, legal, self.describe_move))

    def parse_notation(self, text: str, state: CheckersState | None = None) -> CheckersMove:
        """A move from human notation.

        Accepted forms (spaces around the separators are tolerated, ``X`` as ``x``):

        - ``11-15``: a step from PDN square 11 to 15;
        - ``22x15x8``: a capture, every landing square listed;
        - ``22x8`` or ``1x10x28``: a capture with landing squares left out; only with ``state``,
          where it must match exactly one legal capture (start, end and the listed squares in
          order);
        - ``2 3 2 2 3``: the protocol form (see :meth:`parse_move`).

        Raises :class:`MoveSyntaxError` for text that is not one of these; with ``state``, returns
        the legal move or raises :class:`IllegalMoveError` (also for an ambiguous short form).
        """
        if not isinstance(text, str) or not text.strip():
            raise MoveSyntaxError("empty move: write e.g. 11-15 or 22x15x8")
        stripped = text.strip()
        if all(ch.isdigit() or ch.isspace() for ch in stripped) and any(
            ch.isspace() for ch in stripped
        ):
            move = self.parse_move(stripped)
            return move if state is None else self.validate_move(state, move)
        parts = _PDN_TOKEN.split(stripped)
        numbers, separators = parts[0::2], {sep.lower() for sep in parts[1::2]}
        if len(numbers) < 2 or not all(n.isascii() and n.isdigit() for n in numbers):
            raise MoveSyntaxError(
                f"{stripped[:40]!r} is not a move: write PDN squares 1-32 joined by - or x,"
                " e.g. 11-15 or 22x15x8"
            )
        if len(separators) != 1:
            raise MoveSyntaxError(f"{stripped!r} mixes - and x: use - for a step, x for captures")
        squares: list[int] = []
        for number in numbers:
            value = int(number)
            if not 1 <= value <= 32:
                raise MoveSyntaxError(f"square {value} is not a PDN square number 1-32")
            squares.append(value - 1)
        path = tuple(COORDS[i] for i in squares)
        if separators == {"-"}:
            if len(squares) != 2:
                raise MoveSyntaxError(f"{stripped!r}: a step joins exactly two squares, e.g. 11-15")
            move = CheckersMove.from_path(path)
            return move if state is None else self.validate_move(state, move)
        complete = all(
            abs(c2 - c1) == 2 and abs(r2 - r1) == 2 for (c1, r1), (c2, r2) in itertools.pairwise(path)
        )
        if state is None:
            if not complete:
                raise MoveSyntaxError(
                    f"{stripped!r} leaves out landing squares: list every one (e.g. 22x15x8)"
                    " or give the position to resolve it"
                )
            return CheckersMove.from_path(path)
        legal = self.legal_moves(state)
        literal = CheckersMove.from_path(path)
        if literal in legal:
            return literal
        matches = [m for m in legal if m.captured and _is_subsequence(path, m.path)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = ", ".join(self.describe_move(m) for m in matches)
            raise IllegalMoveError(
                f"{stripped} is ambiguous: it could be {options}; list every landing square"
            )
        if complete:
            self.validate_move(state, literal)  # raises with the precise reason
        raise IllegalMoveError(
            f"no legal capture matches {stripped}"
            + _legal_hint(legal, self.describe_move)
        )

    # --- states as JSON and as protocol lines ---------------------------------------------------

    def board_lines(self, state: CheckersState) -> list[str]:
        """The 8 protocol lines (symbols separated by single spaces), row 0 first."""
        # One table look-up per row (its 4 dark squares as black, white and king nibbles): this
        # runs every ply, for the bot's input and the record.
        black, white, kings = state[0], state[1], state[2]
        lines = []
        for row, table in _ROW_TABLES:
            shift = 4 * row
            key = (black >> shift & 15) << 8 | (white >> shift & 15) << 4 | kings >> shift & 15
            line = table[key]
            if line is None:
                line = table[key] = _row_line(row, key)
            lines.append(line)
        return lines

    board_json = board_lines

    def read_board(self, board: Any, turn: Color, turn_number: int) -> CheckersState:
        """The board of ``{"board": [8 lines], "turn": "BLACK"|"WHITE", "turnNumber": n}``: 8 lines
        of 8 symbols of ``. b w B W``, separated by spaces or not (trailing spaces tolerated);
        pieces only on dark squares, men not on their crowning row. Raises :class:`StateError`
        with a one-line message naming the problem."""
        black, white, kings = _parse_board(board)
        return CheckersState(black, white, kings, turn, turn_number)


def _row_line(row: int, key: int) -> str:
    """Protocol line of ``row`` whose dark squares (left to right) hold the pieces given by ``key``:
    black nibble << 8 | white nibble << 4 | kings nibble (bit ``k`` = the row's ``k``-th dark square)."""
    black, white, kings = key >> 8, key >> 4 & 15, key & 15
    cells = ["."] * 8
    for k in range(4):
        col = COORDS[4 * row + k][0]
        if black >> k & 1:
            cells[col] = "B" if kings >> k & 1 else "b"
        elif white >> k & 1:
            cells[col] = "W" if kings >> k & 1 else "w"
    return " ".join(cells)


# Per row: (row, lazily filled lines by key), for board_lines.
_ROW_TABLES: tuple[tuple[int, list[str | None]], ...] = tuple((row, [None] * 4096) for row in range(8))


def _is_subsequence(short: tuple[tuple[int, int], ...], full: tuple[tuple[int, int], ...]) -> bool:
    """True when ``full`` starts and ends like ``short`` and visits its squares in order."""
    if short[0] != full[0] or short[-1] != full[-1]:
        return False
    remaining = iter(full[1:-1])
    return all(square in remaining for square in short[1:-1])


def _legal_hint(legal: list[CheckersMove], describe: Callable[[CheckersMove], str]) -> str:
    if not legal:
        return " (there is no legal move)"
    shown = ", ".join(describe(m) for m in legal[:8])
    return f" (legal: {shown}{', ...' if len(legal) > 8 else ''})"


__all__ = [
    "SYMBOLS",
    "CheckersGame",
    "CheckersMove",
    "CheckersState",
    "PieceCounts",
    "count_legal_moves",
    "piece_counts",
    "relative_masks",
    "square_coords",
    "square_name",
    "square_number",
    "state_from_board",
]


SPEC = spec_of(CheckersGame, "Checkers", protocol="checkers-lines", svg="arena.games.checkers.svg:board_svg",
               pdn="arena.games.checkers.pdn:record_to_pdn",
               summary="English draughts (American checkers), 8x8, compulsory captures",
               notation="PDN squares 1-32: 11-15, 22x15x8")
