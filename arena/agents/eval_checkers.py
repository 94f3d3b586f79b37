"""Checkers for the search engine: a fast adapter over :mod:`arena.games.checkers.board` and its
evaluation.

Standard library only. A position is ``(me, them, kings, black_to_move, turn_number)`` with the
32-bit masks of :mod:`arena.games.checkers.board` (bit ``i`` = dark square index ``i``) seen from
the side to move; a move is ``(path of square indices, captured mask)`` (0 for a step).

The evaluation, from the side to move's view, adds up (weights by name, see :data:`DEFAULT_WEIGHTS`):

- ``man``, ``king``: material;
- ``advance``: per row a man has advanced towards its crowning row;
- ``backRank``: men still on their own back row, which keep the opponent from crowning there;
- ``centre``: pieces on the eight middle squares (rows 3-4, columns 2-5);
- ``mobility``: the difference in legal moves;
- ``trade``: when ahead in material, per piece already off the board (so trading down is good);
- ``hunt``: when ahead in material, per square of distance between our kings and the nearest enemy
  piece (subtracted: kings go after what is left, so a won ending gets finished before the cap);
- ``manTable``, ``kingTable`` (table weights, :data:`TABLE_WEIGHTS`): piece-square tables of 32
  integers, one per dark square, default all 0. Entry ``k`` is read from White's view, square index
  ``k`` (row ``k // 4`` from the top, dark squares left to right, as
  :func:`arena.games.checkers.board.index_coords`): a white man on square ``i`` scores
  ``manTable[i]``, a black man on ``i`` scores ``manTable[31 - i]`` (the board turned round), and
  the same for kings with ``kingTable``. This is the layout of the checkers system's ``pawn_table`` and
  ``king_table`` (see :mod:`arena.agents.checkers_hyperparameters`).

Captures are never left hanging at the horizon: a position where the side to move must capture is
not quiet, so the search plays the captures out (quiescence). Forced single replies are extended.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.checkers.board import (
    BLACK_CROWN,
    COORDS,
    WHITE_CROWN,
    count_moves_rel,
    has_jump_rel,
    has_step_rel,
    jumps_rel,
    steps_rel,
)

Position = tuple[int, int, int, bool, int]
Move = tuple[tuple[int, ...], int]

DEFAULT_WEIGHTS: dict[str, int] = {
    "man": 100,
    "king": 150,
    "advance": 3,
    "backRank": 10,
    "centre": 4,
    "mobility": 2,
    "trade": 4,
    "hunt": 3,
}

#: Weights whose value is a list of integers, by name: the list's length.
TABLE_WEIGHTS: dict[str, int] = {"manTable": 32, "kingTable": 32}

_ROW_MASKS = tuple(sum(1 << i for i in range(32) if COORDS[i][1] == row) for row in range(8))
_CENTRE = sum(1 << i for i in range(32) if 3 <= COORDS[i][1] <= 4 and 2 <= COORDS[i][0] <= 5)
_BLACK_BACK, _WHITE_BACK = _ROW_MASKS[0], _ROW_MASKS[7]


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


class CheckersSearch:
    """The :class:`arena.agents.search.SearchGame` adapter for checkers with evaluation ``weights``."""

    DEFAULT_WEIGHTS = DEFAULT_WEIGHTS
    TABLE_WEIGHTS = TABLE_WEIGHTS
    extend_single_reply = True

    def __init__(self, weights: Mapping[str, Any] | None = None) -> None:
        """``weights``: integer weights by name (:data:`DEFAULT_WEIGHTS`) and the piece-square
        tables ``manTable``/``kingTable`` (sequences of 32 integers; shorter ones are padded with 0)."""
        given = dict(weights or {})
        tables = {name: tuple(given.pop(name, ())) for name in TABLE_WEIGHTS}
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(given)
        self.weights = merged
        w = merged
        # Per square, the value for a black and for a white piece (black reads the table turned round).
        self._tables: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for name, table in tables.items():
            padded = (tuple(int(v) for v in table) + (0,) * 32)[:32]
            if any(padded):
                self._tables[name] = (padded[::-1], padded)
        self._man, self._king, self._advance = w["man"], w["king"], w["advance"]
        self._back, self._centre, self._mobility = w["backRank"], w["centre"], w["mobility"]
        self._trade, self._hunt = w["trade"], w["hunt"]

    def from_state(self, state: Any) -> Position:
        """The adapter's position of a :class:`arena.games.checkers.rules.CheckersState`."""
        return self.position(state.black, state.white, state.kings, state.turn.value == "BLACK",
                             state.turn_number)

    def to_game_move(self, move: Move) -> Any:
        """The :class:`arena.games.checkers.rules.CheckersMove` of a raw ``(path, captured)``."""
        from arena.games.checkers.rules import CheckersMove

        return CheckersMove.from_path([COORDS[i] for i in move[0]])

    @staticmethod
    def position(black: int, white: int, kings: int, black_to_move: bool, turn_number: int) -> Position:
        """The adapter's position from arena's masks (``CheckersState``'s fields)."""
        if black_to_move:
            return (black, white, kings, True, turn_number)
        return (white, black, kings, False, turn_number)

    def moves(self, pos: Position) -> list[Move]:
        me, them, kings, black = pos[0], pos[1], pos[2], pos[3]
        if has_jump_rel(me, them, kings, black):
            return jumps_rel(me, them, kings, black)
        return [((a, b), 0) for a, b in steps_rel(me, them, kings, black)]

    def play(self, pos: Position, move: Move) -> Position:
        me, them, kings, black, turn_number = pos
        path, captured = move
        origin, target = 1 << path[0], 1 << path[-1]
        kings &= ~captured
        if kings & origin:
            kings = (kings ^ origin) | target
        elif target & (BLACK_CROWN if black else WHITE_CROWN):
            kings |= target
        return (them & ~captured, (me ^ origin) | target, kings, not black, turn_number + 1)

    def key(self, pos: Position) -> Position:
        return pos

    def ply(self, pos: Position) -> int:
        return pos[4]

    def has_moves(self, pos: Position) -> bool:
        me, them, kings, black = pos[0], pos[1], pos[2], pos[3]
        return bool(me) and (has_jump_rel(me, them, kings, black) or has_step_rel(me, them, kings, black))

    def quiet(self, pos: Position) -> bool:
        return not has_jump_rel(pos[0], pos[1], pos[2], pos[3])  # else the capture must be played

    def tactical(self, pos: Position, move: Move) -> int:
        path, captured = move
        rank = 8 * captured.bit_count()
        target = 1 << path[-1]
        if not pos[2] & (1 << path[0]) and target & (BLACK_CROWN if pos[3] else WHITE_CROWN):
            rank += 4  # a man crowns
        return rank

    def evaluate(self, pos: Position) -> int:
        me, them, kings, black = pos[0], pos[1], pos[2], pos[3]
        my_kings, their_kings = me & kings, them & kings
        my_men, their_men = me ^ my_kings, them ^ their_kings
        my_material = self._man * my_men.bit_count() + self._king * my_kings.bit_count()
        their_material = self._man * their_men.bit_count() + self._king * their_kings.bit_count()
        score = my_material - their_material

        rows = _ROW_MASKS
        black_men, white_men = (my_men, their_men) if black else (their_men, my_men)
        # Rows advanced: black men from row 0 downwards, white men from row 7 upwards.
        advance = sum(r * (black_men & rows[r]).bit_count() - (7 - r) * (white_men & rows[r]).bit_count()
                      for r in range(1, 7))
        back = (black_men & _BLACK_BACK).bit_count() - (white_men & _WHITE_BACK).bit_count()
        sign = 1 if black else -1
        score += sign * (self._advance * advance + self._back * back)
        if self._tables:
            score += sign * self._table_score(my_men, their_men, my_kings, their_kings, black)
        score += self._centre * ((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count())
        if self._mobility:
            score += self._mobility * (count_moves_rel(me, them, kings, black)
                                       - count_moves_rel(them, me, kings, not black))

        if my_material != their_material:
            off_board = 24 - (me | them).bit_count()
            ahead = my_material > their_material
            score += (self._trade * off_board) if ahead else -(self._trade * off_board)
            hunters = my_kings if ahead else their_kings
            prey = them if ahead else me
            if hunters and self._hunt:
                distance = 0
                targets = [COORDS[i] for i in _squares(prey)]
                for i in _squares(hunters):
                    col, row = COORDS[i]
                    distance += min(max(abs(col - c), abs(row - r)) for c, r in targets)
                score += -self._hunt * distance if ahead else self._hunt * distance
        return score

    def _table_score(self, my_men: int, their_men: int, my_kings: int, their_kings: int, black: bool) -> int:
        """Black's piece-square total less White's (the caller turns it to the side to move)."""
        if black:
            pieces = {"manTable": (my_men, their_men), "kingTable": (my_kings, their_kings)}
        else:
            pieces = {"manTable": (their_men, my_men), "kingTable": (their_kings, my_kings)}
        total = 0
        for name, (for_black, for_white) in self._tables.items():
            black_mask, white_mask = pieces[name]
            total += sum(for_black[i] for i in _squares(black_mask))
            total -= sum(for_white[i] for i in _squares(white_mask))
        return total


#: The linear-feature contract (:mod:`arena.train`), over the scalar weights: the piece-square
#: tables (``TABLE_WEIGHTS``) are left out, and ``trade``/``hunt`` count for the side that is ahead
#: in material by the *default* ``man``/``king`` values (``evaluate`` uses its own weights there).
#: With zero tables and material judged alike, :meth:`CheckersSearch.evaluate` equals
#: ``sum(weights[n] * features(pos)[n])``.
FEATURE_NAMES: tuple[str, ...] = tuple(DEFAULT_WEIGHTS)


def features(pos: Position) -> dict[str, float]:
    """The evaluation's weighted terms for the side to move of ``pos``, by weight name (ours minus
    theirs; ``trade`` and ``hunt`` signed for the side ahead, as :meth:`CheckersSearch.evaluate`)."""
    me, them, kings, black = pos[0], pos[1], pos[2], pos[3]
    my_kings, their_kings = me & kings, them & kings
    my_men, their_men = me ^ my_kings, them ^ their_kings
    rows = _ROW_MASKS
    black_men, white_men = (my_men, their_men) if black else (their_men, my_men)
    advance = sum(r * (black_men & rows[r]).bit_count() - (7 - r) * (white_men & rows[r]).bit_count()
                  for r in range(1, 7))
    back = (black_men & _BLACK_BACK).bit_count() - (white_men & _WHITE_BACK).bit_count()
    sign = 1 if black else -1
    out = {
        "man": float(my_men.bit_count() - their_men.bit_count()),
        "king": float(my_kings.bit_count() - their_kings.bit_count()),
        "advance": float(sign * advance),
        "backRank": float(sign * back),
        "centre": float((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count()),
        "mobility": float(count_moves_rel(me, them, kings, black) - count_moves_rel(them, me, kings, not black)),
        "trade": 0.0,
        "hunt": 0.0,
    }
    w = DEFAULT_WEIGHTS
    my_material = w["man"] * my_men.bit_count() + w["king"] * my_kings.bit_count()
    their_material = w["man"] * their_men.bit_count() + w["king"] * their_kings.bit_count()
    if my_material != their_material:
        ahead = my_material > their_material
        off_board = 24 - (me | them).bit_count()
        out["trade"] = float(off_board if ahead else -off_board)
        hunters = my_kings if ahead else their_kings
        prey = them if ahead else me
        if hunters and prey:  # no prey: the game is over, nothing to hunt
            targets = [COORDS[i] for i in _squares(prey)]
            distance = 0
            for i in _squares(hunters):
                col, row = COORDS[i]
                distance += min(max(abs(col - c), abs(row - r)) for c, r in targets)
            out["hunt"] = float(-distance if ahead else distance)
    return out


#: The game's search adapter, as :func:`arena.agents.parts.search_ref` finds it.
ADAPTER = CheckersSearch
