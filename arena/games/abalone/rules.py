"""Abalone (Michel Lalet and Laurent Lévi, 1987) behind the :class:`~arena.games.base.Game` interface.

Board. 61 cells in a hexagon of side five, named by row ``A`` (bottom) to ``I`` (top) and
north-west/south-east diagonal ``1``-``9``: A1-A5, B1-B6, C1-C7, D1-D8, E1-E9, F2-F9, G3-G9,
H4-H9, I5-I9 (E5 is the centre; see :mod:`arena.games.abalone.board`). Directions: ``E`` and ``W``
along a row, ``NE`` (A1 -> B2), ``NW`` (A1 -> B1), ``SW`` and ``SE`` their opposites.

Start. The standard position: **Black** on A1-A5, B1-B6, C3-C5 and **White** on I5-I9, H4-H9,
G5-G7, 14 marbles each. Black moves first.

Rules. A move shifts a straight line of 1-3 adjacent own marbles one cell in one of the six
directions:

- *inline* (along the line's own axis; a lone marble always moves inline): the cell ahead of the
  front marble must be empty, or hold an enemy line that the move pushes (a *sumito*): the pushing
  line must outnumber it strictly (3 against 2 or 1, 2 against 1), and the cell beyond the enemy
  line must be empty or off the board. An own marble behind the enemy line blocks the push, as does
  an enemy line as long as ours. A marble pushed off the board is lost. A marble never moves itself
  off the board.
- *broadside* (across the axis, 2 or 3 marbles): every destination cell must be empty; broadside
  moves never push.

The side that pushes off six enemy marbles wins (``WIN``). A side to move with no legal move loses
(``NO_LEGAL_MOVES``): practically impossible in Abalone (every marble next to an empty cell can
step there), but defined as in arena's other games. There is no draw by the rules.

Move cap. ``default_max_moves`` is 200 plies (100 moves each); a game stopped by the cap is a draw
(the match's ``max_moves`` termination). Why 200: the decisive games of arena's search agent against
the greedy bot (bench/abalone_strength.py, depth 3) ended after 79-171 plies, and in games played
on to 400 plies the marble count stopped changing after about 160: two cautious players can
shuffle forever (Abalone's known drawing problem), and a longer cap mostly lengthens such draws.
Random games are the exception (about 1,500 plies): they do not need to finish. The search agent's
clock is spread over the moves left before the cap, so a cap far beyond real game lengths would
also starve every move of thinking time.

Forms (all JSON):

- state: ``{"board": [9 strings], "turn": "BLACK"|"WHITE", "turnNumber": n}``; ``board[0]`` is row
  I (5 cells, I5..I9), then H (H4..H9), G, F (F2..F9), E (E1..E9), D (D1..D8), C, B, and
  ``board[8]`` row A (A1..A5): each string lists its row's cells from the lowest diagonal up, ``b``
  black, ``w`` white, ``.`` empty. Marbles pushed off are ``14 - count`` per colour.
- wire move (the turn payload): ``{"marbles": ["C3", "C4", "C5"], "direction": "NW"}``: the 1-3 own
  marbles that move (in any order; upper or lower case) and the direction; pushed enemy marbles
  are not listed (the rules know them).
- notation (human, records): an inline move is its trailing marble and the cell that marble moves
  to: ``A1B2`` moves the line starting at A1 towards B2 (for a lone marble: from A1 to B2). A
  broadside move is the two end marbles of the line and the cell the first one moves to:
  ``C3C5D3`` moves C3, C4, C5 north-west. Written with the lower end first; read with either end
  first, in any case, with or without ``-`` or spaces.
- record move: ``{"marbles": [...], "direction": "NW", "notation": "C3C5D3"}``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from arena.games.abalone import board
from arena.games.abalone.board import (
    DIRECTIONS,
    INDEX,
    LOSING_COUNT,
    NAMES,
    OFFSETS,
    ROWS,
    START_BLACK,
    START_MARBLES,
    START_WHITE,
    bit_index,
    row_span,
)
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

_CELL = re.compile(r"[A-Ia-i][1-9]\Z")
_NOTATION = re.compile(r"([A-I][1-9])([A-I][1-9])([A-I][1-9])?\Z")
_WIRE_HINT = 'expected {"marbles": ["C3", "C4", "C5"], "direction": "NW"}'
_OFFSET_OF = dict(zip(DIRECTIONS, OFFSETS, strict=True))
_DIRECTION_OF = dict(zip(OFFSETS, DIRECTIONS, strict=True))


class AbaloneState(NamedTuple):
    """A position: ``black`` and ``white`` are bit masks (cell bits of :mod:`abalone_board`)."""

    black: int
    white: int
    turn: Color
    turn_number: int


@dataclass(frozen=True, slots=True)
class AbaloneMove:
    """The marbles on ``cells`` (1-3 cell bits, ascending) move one step towards ``direction``
    (an index into :data:`~arena.games.abalone.board.DIRECTIONS`). Whether they form a line, and
    what the move pushes, is the rules' business (:meth:`AbaloneGame.validate_move`)."""

    cells: tuple[int, ...]
    direction: int

    def __post_init__(self) -> None:
        if not (isinstance(self.cells, tuple) and 1 <= len(self.cells) <= 3
                and all(type(c) is int and c in NAMES for c in self.cells)
                and list(self.cells) == sorted(set(self.cells))):
            raise ValueError(f"cells must be 1-3 distinct cell bits in ascending order, got {self.cells!r}")
        if not (type(self.direction) is int and 0 <= self.direction < 6):
            raise ValueError(f"direction must be 0-5, got {self.direction!r}")

    @property
    def offset(self) -> int:
        return OFFSETS[self.direction]

    @property
    def mask(self) -> int:
        return sum(1 << c for c in self.cells)

    @property
    def inline(self) -> bool:
        """A lone marble, or a line moving along its own axis."""
        return len(self.cells) == 1 or (self.cells[1] - self.cells[0]) in (self.offset, -self.offset)


def cell_name(index: int) -> str:
    """``"A1"`` ... ``"I9"`` for a cell bit."""
    return NAMES[index]


def cell_index(name: str) -> int:
    """The bit of a cell name (any case); ValueError when it is not a cell of the board."""
    if not isinstance(name, str) or not _CELL.match(name) or name.upper() not in INDEX:
        raise ValueError(f"{show_value(name)} is not a cell of the board (A1-A5 ... E1-E9 ... I5-I9)")
    return INDEX[name.upper()]


def relative(state: AbaloneState) -> tuple[int, int]:
    """``(mine, theirs)`` for the side to move."""
    return (state.black, state.white) if state.turn is Color.BLACK else (state.white, state.black)


def raw_to_move(raw: tuple[int, int, int]) -> AbaloneMove:
    """The rules' move for a raw move ``(moved, offset, pushed)`` of :mod:`abalone_board`."""
    return AbaloneMove(tuple(board.bits(raw[0])), OFFSETS.index(raw[1]))


def board_rows(state: AbaloneState) -> list[str]:
    """The 9 strings of the JSON board, row I first (module docstring)."""
    rows = []
    for r in range(8, -1, -1):
        cells = []
        for c in row_span(r):
            bit = 1 << bit_index(r, c)
            cells.append("b" if state.black & bit else "w" if state.white & bit else ".")
        rows.append("".join(cells))
    return rows


def _parse_board(rows: Any) -> tuple[int, int]:
    if not isinstance(rows, list) or len(rows) != 9:
        raise StateError(f"board must be a list of 9 strings (row I first), got {show_value(rows)}")
    black = white = 0
    for i, line in enumerate(rows):
        r = 8 - i
        span = row_span(r)
        if not isinstance(line, str) or len(line) != len(span):
            raise StateError(f"board row {ROWS[r]} (board[{i}]) must be a string of {len(span)} cells,"
                             f" got {show_value(line)}")
        for c, char in zip(span, line, strict=True):
            bit = 1 << bit_index(r, c)
            if char == "b":
                black |= bit
            elif char == "w":
                white |= bit
            elif char != ".":
                raise StateError(f"board cell {ROWS[r]}{c}: {show_value(char)} is not one of b w .")
    return black, white


def _check_position(black: int, white: int, turn: Color) -> None:
    """StateError for counts no game reaches: over 14 a side, the side that just moved below 9
    (the game ended when it lost its sixth), the side to move below 8."""
    for colour, mask in ((Color.BLACK, black), (Color.WHITE, white)):
        count = mask.bit_count()
        least = LOSING_COUNT if colour is turn else LOSING_COUNT + 1
        if count > START_MARBLES:
            raise StateError(f"board: {colour.value} has {count} marbles, at most {START_MARBLES}")
        if count < least:
            raise StateError(f"board: {colour.value} has {count} marbles; the game ends when a side"
                             f" is down to {LOSING_COUNT}")


class AbaloneGame(TwoColourGame[AbaloneState, AbaloneMove]):
    """The rules of Abalone; stateless, shared by all matches. See the module docstring."""

    name: ClassVar[str] = "abalone"
    #: 100 moves each; a game stopped there is a draw (module docstring).
    default_max_moves: ClassVar[int] = 200

    # --- the forward model ------------------------------------------------------------------

    def initial_state(self) -> AbaloneState:
        return AbaloneState(START_BLACK, START_WHITE, Color.BLACK, 0)

    def legal_moves(self, state: AbaloneState) -> list[AbaloneMove]:
        """Every legal move, by cells then direction (E, NE, NW, W, SW, SE); empty when over."""
        mine, theirs = relative(state)
        if mine.bit_count() <= LOSING_COUNT:
            return []
        return sorted((raw_to_move(raw) for raw in board.raw_moves(mine, theirs)),
                      key=lambda m: (m.cells, m.direction))

    def apply(self, state: AbaloneState, move: AbaloneMove) -> AbaloneState:
        """The next state; ``move`` must be legal in ``state`` (not checked)."""
        mine, theirs = relative(state)
        mine, theirs = board.play(mine, theirs, (move.mask, move.offset, _pushed(mine, theirs, move)))
        if state.turn is Color.BLACK:
            return AbaloneState(mine, theirs, Color.WHITE, state.turn_number + 1)
        return AbaloneState(theirs, mine, Color.BLACK, state.turn_number + 1)

    def outcome(self, state: AbaloneState) -> Outcome | None:
        """``WIN`` for the side that pushed off six; ``NO_LEGAL_MOVES`` if the side to move cannot
        move (practically never); else None."""
        mine, theirs = relative(state)
        mover = state.turn
        if mine.bit_count() <= LOSING_COUNT:
            return Outcome(Termination.WIN, mover.other,
                           f"{mover.other.value} pushed {START_MARBLES - mine.bit_count()} marbles off")
        if not board.count_moves(mine, theirs):
            return Outcome(Termination.NO_LEGAL_MOVES, mover.other, f"{mover.value} has no legal move")
        return None

    def count_leaves(self, state: AbaloneState, depth: int) -> int:
        """Perft on the masks."""
        return board.perft(*relative(state), depth)

    # --- moves on the wire, in records and for humans -----------------------------------------

    def parse_move(self, wire: Any) -> AbaloneMove:
        """A move from the turn payload ``{"marbles": [1-3 cells], "direction": "NW"}`` (exactly
        these keys). :class:`MoveSyntaxError` naming the problem; legality is validate_move's."""
        if not isinstance(wire, dict):
            raise MoveSyntaxError(f"a move must be an object, got {show_value(wire)}: {_WIRE_HINT}")
        exact_keys(wire, "move", ("marbles", "direction"), MoveSyntaxError)
        marbles, direction = wire["marbles"], wire["direction"]
        if not isinstance(marbles, list) or not 1 <= len(marbles) <= 3:
            raise MoveSyntaxError(f'move "marbles": {show_value(marbles)} must be a list of 1-3 cells')
        cells = []
        for value in marbles:
            try:
                cells.append(cell_index(value))
            except ValueError as error:
                raise MoveSyntaxError(f'move "marbles": {error}') from None
        if len(set(cells)) != len(cells):
            raise MoveSyntaxError(f'move "marbles": {show_value(marbles)} names a cell twice')
        if not isinstance(direction, str) or direction.upper() not in _OFFSET_OF:
            raise MoveSyntaxError(f'move "direction": {show_value(direction)} is not one of {", ".join(DIRECTIONS)}')
        return AbaloneMove(tuple(sorted(cells)), DIRECTIONS.index(direction.upper()))

    def move_to_wire(self, move: AbaloneMove) -> dict[str, Any]:
        """``{"marbles": ["C3", "C4", "C5"], "direction": "NW"}``."""
        return {"marbles": [NAMES[c] for c in move.cells], "direction": DIRECTIONS[move.direction]}

    def move_to_record(self, move: AbaloneMove) -> dict[str, Any]:
        """The wire form plus ``"notation"``."""
        return {**self.move_to_wire(move), "notation": self.describe_move(move)}

    def move_from_record(self, turn: Any) -> AbaloneMove:
        """The move of a record's turn object (exactly ``marbles``, ``direction``, ``notation``;
        the notation must be the move's). :class:`MoveSyntaxError` otherwise."""
        if not isinstance(turn, dict):
            raise MoveSyntaxError(f"a record move must be an object, got {show_value(turn)}")
        exact_keys(turn, "record move", ("marbles", "direction", "notation"), MoveSyntaxError)
        move = self.parse_move({"marbles": turn["marbles"], "direction": turn["direction"]})
        if turn["notation"] != self.describe_move(move):
            raise MoveSyntaxError(f"record move: notation {show_value(turn['notation'])} is not"
                                  f" {self.describe_move(move)}, the move its marbles and direction make")
        return move

    def describe_move(self, move: AbaloneMove) -> str:
        """Inline: trailing marble and its destination (``A1B2``); broadside: the two end marbles
        and the first one's destination (``C3C5D3``)."""
        offset = move.offset
        if not _is_line(move.cells):
            return _cells_text(move)
        if move.inline:
            # The trailing marble is the one the others move away from.
            rear = move.cells[0] if offset > 0 else move.cells[-1]
            if rear + offset in NAMES:
                return f"{NAMES[rear]}{NAMES[rear + offset]}"
            return _cells_text(move)  # a lone marble stepping off the board: no legal move
        low, high = move.cells[0], move.cells[-1]
        if low + offset in NAMES:
            return f"{NAMES[low]}{NAMES[high]}{NAMES[low + offset]}"
        return _cells_text(move)

    def validate_move(self, state: AbaloneState, move: AbaloneMove) -> AbaloneMove:
        """``move`` if legal; otherwise :class:`IllegalMoveError` giving the first rule it breaks."""
        if not isinstance(move, AbaloneMove):
            raise IllegalMoveError(f"{cap_text(repr(move))} is not an Abalone move")
        name = self.describe_move(move)
        ruled = self.outcome(state)
        if ruled is not None:
            raise IllegalMoveError(f"{name}: the game is over ({ruled.reason})")
        mine, theirs = relative(state)
        mover = state.turn.value.capitalize()
        for cell in move.cells:
            if not mine >> cell & 1:
                whose = f"is {state.turn.other.value.capitalize()}'s" if theirs >> cell & 1 else "is empty"
                raise IllegalMoveError(f"{name}: {NAMES[cell]} {whose}; {mover} moves its own marbles")
        if not _is_line(move.cells):
            raise IllegalMoveError(f"{name}: the marbles must stand next to each other in one straight line")
        offset = move.offset
        if not move.inline:
            for cell in move.cells:
                target = cell + offset
                if target not in NAMES:
                    raise IllegalMoveError(f"{name}: {NAMES[cell]} would leave the board")
                if (mine | theirs) >> target & 1:
                    raise IllegalMoveError(f"{name}: {NAMES[target]} is taken; a broadside move needs"
                                           " every destination empty (it never pushes)")
            return move
        head = move.cells[-1] if offset > 0 else move.cells[0]
        ahead = head + offset
        if ahead not in NAMES:
            raise IllegalMoveError(f"{name}: {NAMES[head]} would leave the board (a marble is only"
                                   " ever pushed off)")
        if mine >> ahead & 1:
            raise IllegalMoveError(f"{name}: {NAMES[ahead]} holds a {mover} marble (at most 3 marbles"
                                   " move, and a line never pushes its own)")
        if not theirs >> ahead & 1:
            return move
        enemies, cell = 0, ahead
        while cell in NAMES and theirs >> cell & 1:
            enemies, cell = enemies + 1, cell + offset
        if enemies >= len(move.cells):
            raise IllegalMoveError(f"{name}: {len(move.cells)} marble{'s' if len(move.cells) > 1 else ''}"
                                   f" cannot push {enemies}: a push needs more marbles than it moves")
        if cell in NAMES and mine >> cell & 1:
            raise IllegalMoveError(f"{name}: the push is blocked by the {mover} marble on {NAMES[cell]}")
        return move

    def parse_notation(self, text: str, state: AbaloneState) -> AbaloneMove:
        """The legal move ``text`` names (module docstring: ``A1B2`` inline, ``C3C5D3`` broadside),
        any case, ``-`` and spaces ignored. :class:`MoveSyntaxError` when it is not that notation;
        :class:`IllegalMoveError` with the rules' reason when the move is not legal."""
        if not isinstance(text, str) or not text.strip():
            raise MoveSyntaxError("no move given: write e.g. A1B2 (inline) or C3C5D3 (broadside)")
        compact = "".join(text.replace("-", " ").split()).upper()
        found = _NOTATION.match(compact)
        if found is None:
            raise MoveSyntaxError(f"{cap_text(text.strip())!r} is not a move: write the trailing marble"
                                  " and its destination (A1B2), or both ends and the first one's"
                                  " destination (C3C5D3)")
        try:
            cells = [cell_index(name) for name in found.groups() if name is not None]
        except ValueError as error:
            raise MoveSyntaxError(str(error)) from None
        mine, _ = relative(state)
        if len(cells) == 2:
            rear, dest = cells
            if dest - rear not in OFFSETS:
                raise MoveSyntaxError(f"{compact}: {NAMES[dest]} is not next to {NAMES[rear]}")
            offset = dest - rear
            line, cell = [rear], rear + offset
            while cell in NAMES and mine >> cell & 1 and mine >> rear & 1:
                line.append(cell)
                cell += offset
            if len(line) > 3:
                raise IllegalMoveError(f"{compact}: {len(line)} marbles in a line from {NAMES[rear]}:"
                                       " at most 3 move")
            return self.validate_move(state, AbaloneMove(tuple(sorted(line)), OFFSETS.index(offset)))
        first, other, dest = cells
        if dest - first not in OFFSETS:
            raise MoveSyntaxError(f"{compact}: {NAMES[dest]} is not next to {NAMES[first]}")
        step = _step_between(first, other)
        if step is None:
            raise MoveSyntaxError(f"{compact}: {NAMES[first]} and {NAMES[other]} are not the ends of a"
                                  " line of 2 or 3 cells")
        offset = dest - first
        if offset in (step, -step):
            raise MoveSyntaxError(f"{compact}: that moves along the line; write an inline move as its"
                                  " trailing marble and that marble's destination")
        ends = tuple(sorted({first, first + step, other}))
        return self.validate_move(state, AbaloneMove(ends, OFFSETS.index(offset)))

    # --- states as JSON, text and pictures ------------------------------------------------------

    def board_json(self, state: AbaloneState) -> list[str]:
        return board_rows(state)

    def read_board(self, board: Any, turn: Color, turn_number: int) -> AbaloneState:
        """Strict reading of the JSON form's board (module docstring); also refuses marble counts
        no game reaches. :class:`StateError` with a one-line message."""
        black, white = _parse_board(board)
        _check_position(black, white, turn)
        return AbaloneState(black, white, turn, turn_number)

    def board_text(self, state: AbaloneState) -> str:
        """The hexagon with row letters on the left and diagonal numbers below and on the right
        (as the rules' diagrams draw it); ``b`` black, ``w`` white, ``.`` empty; then the marbles
        each side has pushed off."""
        lines = []
        for i, row in enumerate(board_rows(state)):
            r = 8 - i
            indent = " " * abs(r - 4)
            tail = f" {r + 6}" if r < 4 else ""
            lines.append(f"{indent}{ROWS[r]} {' '.join(row)}{tail}")
        lines.append("       " + " ".join(str(c) for c in range(1, 6)))
        taken_b = START_MARBLES - state.white.bit_count()
        taken_w = START_MARBLES - state.black.bit_count()
        lines.append(f"pushed off: by Black {taken_b}, by White {taken_w} (six wins)")
        return "\n".join(lines)


def _pushed(mine: int, theirs: int, move: AbaloneMove) -> int:
    """The mask of the enemy marbles ``move`` (legal) pushes."""
    if not move.inline:
        return 0
    offset = move.offset
    cell = (move.cells[-1] if offset > 0 else move.cells[0]) + offset
    pushed = 0
    while cell in NAMES and theirs >> cell & 1:
        pushed |= 1 << cell
        cell += offset
    return pushed


def _step_between(first: int, other: int) -> int | None:
    """The direction offset from ``first`` towards ``other`` when they are 1 or 2 steps apart in a
    straight line (both on the board), else None."""
    for offset in OFFSETS:
        if other == first + offset:
            return offset
        if other == first + 2 * offset and first + offset in NAMES:
            return offset
    return None


def _is_line(cells: tuple[int, ...]) -> bool:
    """1-3 ascending cells adjacent in one straight line."""
    if len(cells) == 1:
        return True
    step = cells[1] - cells[0]
    return step in OFFSETS and all(b - a == step for a, b in itertools.pairwise(cells))


def _cells_text(move: AbaloneMove) -> str:
    return f"{'+'.join(NAMES[c] for c in move.cells)} {DIRECTIONS[move.direction]}"


SPEC = spec_of(AbaloneGame, "Abalone", svg="arena.games.abalone.svg:board_svg",
               summary="61-cell hexagon, 14 marbles each; move lines of 1-3, push smaller lines; push off six to win",
               notation='A1B2 inline (trailing marble, its destination), C3C5D3 broadside (ends, first one\'s '
                        'destination); wire: {"marbles": ["C3", "C4", "C5"], "direction": "NW"}')

__all__ = [
    "SPEC",
    "AbaloneGame",
    "AbaloneMove",
    "AbaloneState",
    "board_rows",
    "cell_index",
    "cell_name",
    "raw_to_move",
    "relative",
]
