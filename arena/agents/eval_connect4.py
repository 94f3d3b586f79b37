"""Connect Four for the search engine: an adapter over the bitboards of :mod:`arena.games.connect4.rules`
and its evaluation.

Standard library only. A position is ``(me, them, turn_number)``: the bitboards of the side to
move and of the side that just moved (bit ``7 * column + row``, row 0 the bottom) and the number of
moves played (even: Black is to move). A move is a column number 0-6, the rules' move as it is.

Game end (the engine's :class:`arena.agents.search.SearchAdapter` contract): when ``them`` has four
in a row the side to move has lost, ``moves`` is empty and ``terminal_score`` says so (-1); a full
board without four is a draw, for which ``terminal_score`` gives 0 (``moves`` is empty there too,
which without ``terminal_score`` the engine would score as a loss).

The evaluation, from the side to move's view, adds up (weights by name, see :data:`DEFAULT_WEIGHTS`;
each term is ours minus theirs):

- ``three``: windows of four cells (69 on the board) holding three of our pieces and an empty cell;
- ``two``: windows holding two of our pieces and two empty cells;
- ``centre``: pieces in the middle column, which lies on the most windows;
- ``threat``: empty cells that would complete our four but cannot be played yet (the cell below is
  empty): the strategic threats that decide most games;
- ``parityThreat``: such threats on the rows that favour their owner when the board fills up
  (Black's on odd rows 1, 3, 5 counted from the bottom, White's on even rows): the zugzwang rule
  of the solved game, in its simplest form.

A position where either side could win with its next piece is not quiet: the search plays it out
(quiescence), so a static score never overlooks a win or a loss in one. Move ordering
(``tactical``) puts an immediate win first, then a block of the opponent's immediate win.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.connect4.rules import BOARD_MASK, BOTTOM_CELL, COLUMN_MASK, HEIGHT, TOP_CELL, WIDTH, cell_bit, has_four

Position = tuple[int, int, int]
Move = int

DEFAULT_WEIGHTS: dict[str, int] = {
    "three": 40,
    "two": 6,
    "centre": 8,
    "threat": 60,
    "parityThreat": 40,
}

_STRIDE = HEIGHT + 1
_BOTTOM_ROW = sum(BOTTOM_CELL)
_CENTRE = COLUMN_MASK[WIDTH // 2]
# Rows 1, 3, 5 counted from the bottom are row indices 0, 2, 4: Black's good threat rows.
_ODD_ROWS = sum(cell_bit(c, r) for c in range(WIDTH) for r in range(0, HEIGHT, 2))
_EVEN_ROWS = BOARD_MASK ^ _ODD_ROWS
# Centre columns first: they take part in more lines, which makes alpha-beta cut sooner.
_ORDER = tuple(sorted(range(WIDTH), key=lambda c: (abs(c - WIDTH // 2), c)))


def _window_starts(shift: int) -> int:
    """The cells that start a line of four on the board along ``shift`` (the line's other cells
    are ``shift``, ``2 * shift`` and ``3 * shift`` bits up)."""
    return BOARD_MASK & (BOARD_MASK >> shift) & (BOARD_MASK >> (2 * shift)) & (BOARD_MASK >> (3 * shift))


#: (shift, window starts) for the four directions: vertical, horizontal and the two diagonals.
_DIRECTIONS = tuple((shift, _window_starts(shift)) for shift in (1, _STRIDE, _STRIDE - 1, _STRIDE + 1))


def window_counts(me: int, them: int) -> tuple[int, int]:
    """``(threes, twos)``: how many lines of four cells (69 on the board) hold three of ``me``'s
    pieces and an empty cell, and two of ``me``'s and two empty cells.

    Bit-parallel: for each direction, bit ``x`` of ``a, b, c, d`` says whether the window starting
    at ``x`` has our piece on its first, second, third, fourth cell; a half-adder per pair counts
    them (a test checks this against a plain loop over the windows).
    """
    threes = twos = 0
    for shift, starts in _DIRECTIONS:
        a, b, c, d = me, me >> shift, me >> (2 * shift), me >> (3 * shift)
        free = starts & ~(them | (them >> shift) | (them >> (2 * shift)) | (them >> (3 * shift)))
        x1, n1, x2, n2 = a ^ b, a & b, c ^ d, c & d
        threes += (((n1 & x2) | (x1 & n2)) & free).bit_count()
        twos += (((n1 & ~(c | d)) | (n2 & ~(a | b)) | (x1 & x2)) & free).bit_count()
    return threes, twos


def winning_cells(bits: int, occupied: int) -> int:
    """The empty cells where one more piece of ``bits`` would make four in a row (playable now or
    not): three of ours in a line with the cell, on either side of it."""
    # Vertical: only the three pieces right below can complete a column line.
    found = (bits << 1) & (bits << 2) & (bits << 3)
    for shift in (_STRIDE, _STRIDE - 1, _STRIDE + 1):  # horizontal and the two diagonals
        pair = (bits << shift) & (bits << (2 * shift))
        found |= pair & (bits << (3 * shift))  # three on one side
        found |= pair & (bits >> shift)  # two on one side, one on the other
        pair = (bits >> shift) & (bits >> (2 * shift))
        found |= pair & (bits << shift)
        found |= pair & (bits >> (3 * shift))
    return found & (BOARD_MASK ^ occupied)


def playable_cells(occupied: int) -> int:
    """The cell each non-full column would take next."""
    return (occupied + _BOTTOM_ROW) & BOARD_MASK


class ConnectFourSearch:
    """The :class:`arena.agents.search.SearchAdapter` for Connect Four with evaluation ``weights``."""

    DEFAULT_WEIGHTS = DEFAULT_WEIGHTS
    extend_single_reply = False  # one legal move means six full columns: nothing to extend for

    def __init__(self, weights: Mapping[str, int] | None = None) -> None:
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(weights or {})
        self.weights = merged
        self._three, self._two, self._centre = merged["three"], merged["two"], merged["centre"]
        self._threat, self._parity = merged["threat"], merged["parityThreat"]
        self._last_me = self._last_them = -1  # the one-position cache of _winning
        self._last_cells = (0, 0)

    # --- bridges to the rules ---------------------------------------------------------------------

    def from_state(self, state: Any) -> Position:
        """The position of a :class:`arena.games.connect4.rules.ConnectFourState`."""
        if state.turn.value == "BLACK":
            return (state.black, state.white, state.turn_number)
        return (state.white, state.black, state.turn_number)

    def to_game_move(self, move: Move) -> int:
        """The rules' move: the same column number."""
        return move

    # --- the SearchGame protocol ----------------------------------------------------------------

    def terminal_score(self, pos: Position) -> int | None:
        """-1 when the side to move has lost (the opponent has four), 0 for a full board, else None."""
        me, them = pos[0], pos[1]
        if has_four(them):
            return -1
        if (me | them) == BOARD_MASK:
            return 0
        return None

    def moves(self, pos: Position) -> list[Move]:
        """Non-full columns, centre first; empty when the game is over (lost or drawn)."""
        me, them = pos[0], pos[1]
        if has_four(them):
            return []
        occupied = me | them
        return [c for c in _ORDER if not occupied & TOP_CELL[c]]

    def play(self, pos: Position, move: Move) -> Position:
        me, them, turn_number = pos
        occupied = me | them
        return (them, me | ((occupied + BOTTOM_CELL[move]) & COLUMN_MASK[move]), turn_number + 1)

    def key(self, pos: Position) -> Position:
        return pos

    def ply(self, pos: Position) -> int:
        return pos[2]

    def has_moves(self, pos: Position) -> bool:
        me, them = pos[0], pos[1]
        return (me | them) != BOARD_MASK and not has_four(them)

    def _winning(self, me: int, them: int) -> tuple[int, int]:
        """``winning_cells`` of both sides, remembered for the last position asked about: the
        engine asks ``tactical`` for every move of a node in a row, and ``quiet`` then
        ``evaluate`` for the same horizon node (a third of the search's time without it)."""
        if me != self._last_me or them != self._last_them:
            occupied = me | them
            self._last_cells = (winning_cells(me, occupied), winning_cells(them, occupied))
            self._last_me, self._last_them = me, them
        return self._last_cells

    def quiet(self, pos: Position) -> bool:
        """False when either side could make four with its next piece."""
        me, them = pos[0], pos[1]
        mine, theirs = self._winning(me, them)
        return not ((mine | theirs) & playable_cells(me | them))

    def tactical(self, pos: Position, move: Move) -> int:
        """2 for a move that wins at once, 1 for one that blocks the opponent's win, else 0."""
        me, them = pos[0], pos[1]
        occupied = me | them
        bit = (occupied + BOTTOM_CELL[move]) & COLUMN_MASK[move]
        mine, theirs = self._winning(me, them)
        if bit & mine:
            return 2
        if bit & theirs:
            return 1
        return 0

    def evaluate(self, pos: Position) -> int:
        me, them, turn_number = pos
        my_threes, my_twos = window_counts(me, them)
        their_threes, their_twos = window_counts(them, me)
        score = self._three * (my_threes - their_threes) + self._two * (my_twos - their_twos)
        score += self._centre * ((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count())

        playable = playable_cells(me | them)
        mine, theirs = self._winning(me, them)
        my_threats, their_threats = mine & ~playable, theirs & ~playable
        score += self._threat * (my_threats.bit_count() - their_threats.bit_count())
        my_rows, their_rows = (_ODD_ROWS, _EVEN_ROWS) if turn_number % 2 == 0 else (_EVEN_ROWS, _ODD_ROWS)
        score += self._parity * ((my_threats & my_rows).bit_count() - (their_threats & their_rows).bit_count())
        return score


#: The linear-feature contract (:mod:`arena.train`): :meth:`ConnectFourSearch.evaluate` equals
#: ``sum(weights[name] * features(pos)[name] for name in FEATURE_NAMES)`` exactly.
FEATURE_NAMES: tuple[str, ...] = tuple(DEFAULT_WEIGHTS)


def features(pos: Position) -> dict[str, float]:
    """The evaluation's terms for the side to move of ``pos`` (each ours minus theirs), by weight
    name: the evaluation is their dot product with the weights."""
    me, them, turn_number = pos
    my_threes, my_twos = window_counts(me, them)
    their_threes, their_twos = window_counts(them, me)
    occupied = me | them
    playable = playable_cells(occupied)
    my_threats = winning_cells(me, occupied) & ~playable
    their_threats = winning_cells(them, occupied) & ~playable
    my_rows, their_rows = (_ODD_ROWS, _EVEN_ROWS) if turn_number % 2 == 0 else (_EVEN_ROWS, _ODD_ROWS)
    return {
        "three": float(my_threes - their_threes),
        "two": float(my_twos - their_twos),
        "centre": float((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count()),
        "threat": float(my_threats.bit_count() - their_threats.bit_count()),
        "parityThreat": float((my_threats & my_rows).bit_count() - (their_threats & their_rows).bit_count()),
    }


#: The game's search adapter, as :func:`arena.agents.parts.search_ref` finds it.
ADAPTER = ConnectFourSearch

__all__ = ["ADAPTER", "DEFAULT_WEIGHTS", "FEATURE_NAMES", "ConnectFourSearch", "features", "playable_cells", "window_counts",
           "winning_cells"]
