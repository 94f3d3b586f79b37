"""Breakthrough for the search engine: a fast adapter over the masks of
:mod:`arena.games.breakthrough.rules`, and its evaluation.

Standard library only. A position is ``(mine, theirs, black_to_move, turn_number)``: the 64-bit
masks of the side to move and of its opponent (bit ``file + 8 * (row - 1)``); a move is
``(origin, target)``, square indices 0-63. A side that has lost (the opponent stands on its far row,
or it has no pieces) has no moves, which the engine scores as a loss: the game has no draws.

The evaluation, from the side to move's view, adds up (weights by name, see :data:`DEFAULT_WEIGHTS`):

- ``piece``: every piece;
- ``advance``: per row a piece has advanced from its home row;
- ``homeRow``: pieces still on their home row, the last guard against an enemy runner;
- ``defended``: pieces with a friend diagonally behind, which would recapture;
- ``threat``: the side to move attacks an undefended enemy piece: it can take one for nothing;
- ``hanging``: our undefended attacked pieces beyond the first (one can be saved each move);
- ``runner``: a race won by an unstoppable piece, or lost to one (signed). A piece is unstoppable
  when no enemy piece stands in the cone ahead of it (``|file difference| <= rows ahead``): an
  enemy outside that cone can never get diagonally in front of it nor block it, since each move
  changes the file difference by at most one while the row difference shrinks by one. The race
  goes to the side needing fewer moves, the side to move winning a tie.

Races at the horizon. A position where the side to move can win at once scores ``NEAR_WIN``
(100000), and one where the opponent's threat to win cannot be stopped ``-NEAR_WIN``, statically
(the proof is in :func:`_race`); only a single threat that we can take is not quiet, and the search
plays it out. Why not more quiescence: the engine plays *every* move of a position that is not
quiet, with no stand-pat. Marking "a win in one is available" not quiet let the side that could win
shuffle other pieces under a null window it could not reach, ply after ply down to the engine's
ply limit (a depth-3 search had not finished after 700000 nodes; now 1734); and a capture is
available in most Breakthrough middle games, so searching captures out would be a full-width
search. Captures are left to the static ``threat``/``hanging`` terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.breakthrough.rules import (
    FILE_A,
    FILE_H,
    FULL,
    ROW_1,
    ROW_8,
    BreakthroughMove,
    has_lost,
    move_masks,
    relative,
)

Position = tuple[int, int, bool, int]
Move = tuple[int, int]

#: Tuned by fixed-depth games against bots/breakthrough_greedy.py (2-ply openings, both colours):
#: depth 3 won 40/40 with these, 10/16 with advance 5, homeRow 12, defended 8, which emptied its
#: home row for the advance term and let a lone piece walk through.
DEFAULT_WEIGHTS: dict[str, int] = {
    "piece": 100,
    "advance": 3,
    "homeRow": 50,
    "defended": 12,
    "threat": 40,
    "hanging": 30,
    "runner": 500,
}

_ROWS = tuple(0xFF << (8 * r) for r in range(8))
_ROW_2, _ROW_7 = _ROWS[1], _ROWS[6]


def _cone(square: int, up: bool) -> int:
    """Squares ahead of ``square`` (towards row 8 if ``up``) with ``|file difference| <= rows ahead``."""
    col, row = square % 8, square // 8
    mask = 0
    for r in range(8):
        ahead = r - row if up else row - r
        if ahead <= 0:
            continue
        for c in range(max(0, col - ahead), min(7, col + ahead) + 1):
            mask |= 1 << (8 * r + c)
    return mask


_BLACK_CONE = tuple(_cone(sq, True) for sq in range(64))
_WHITE_CONE = tuple(_cone(sq, False) for sq in range(64))


def _attacks(pieces: int, black: bool) -> int:
    """Squares ``pieces`` attack (their diagonal forward squares)."""
    if black:
        return (((pieces & ~FILE_A) << 7) | ((pieces & ~FILE_H) << 9)) & FULL
    return ((pieces & ~FILE_A) >> 9) | ((pieces & ~FILE_H) >> 7)


def _advance(pieces: int, black: bool) -> int:
    """Rows advanced, summed over ``pieces`` (Black from row 1 up, White from row 8 down)."""
    total = 0
    for r in range(1, 8):
        count = (pieces & _ROWS[r]).bit_count()
        total += count * (r if black else 7 - r)
    return total


def _best_runner(pieces: int, enemies: int, black: bool) -> int:
    """Fewest moves an unstoppable piece of ``pieces`` needs to reach its far row (99: none)."""
    cones = _BLACK_CONE if black else _WHITE_CONE
    best = 99
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        square = low.bit_length() - 1
        if not enemies & cones[square]:
            distance = 7 - square // 8 if black else square // 8
            best = min(best, distance)
    return best


#: The score of a position whose winner is known one or two plies ahead (see :func:`_race`): far
#: above any material count, well below the engine's proven wins (arena.agents.search.MATE_BOUND).
NEAR_WIN = 100_000
_CALM, _WON, _LOST, _OPEN = 0, 1, 2, 3


def _race(mine: int, theirs: int, black: bool) -> int:
    """Whether a win is one or two plies away, for the side to move (which has a move):

    - ``_WON``: it can win at once: it has a piece one row from its goal (such a piece always has a
      move onto the goal: the diagonal squares there cannot hold its own pieces, since that would
      have ended the game) or it can take the last enemy piece;
    - ``_LOST``: else, the opponent threatens to win and cannot be stopped: two or more of its
      pieces stand one row from their goal (a move takes at most one), or one does that no piece
      of ours attacks (taking it is the only defence: it has a diagonal move onto its goal);
    - ``_OPEN``: one threatening piece that we can take, or our last piece is attacked: search it;
    - ``_CALM``: no immediate threat either way.
    """
    my_attacks = _attacks(mine, black)
    if mine & (_ROW_7 if black else _ROW_2) or (theirs & my_attacks and theirs.bit_count() == 1):
        return _WON
    threats = theirs & (_ROW_2 if black else _ROW_7)
    if threats:
        if threats.bit_count() > 1 or not threats & my_attacks:
            return _LOST
        return _OPEN
    if mine.bit_count() == 1 and mine & _attacks(theirs, not black):
        return _OPEN
    return _CALM


class BreakthroughSearch:
    """The :class:`arena.agents.search.SearchAdapter` for Breakthrough with evaluation ``weights``."""

    DEFAULT_WEIGHTS = DEFAULT_WEIGHTS
    extend_single_reply = False  # a lone legal move hardly ever happens in Breakthrough

    def __init__(self, weights: Mapping[str, int] | None = None) -> None:
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(weights or {})
        self.weights = merged
        w = merged
        self._piece, self._advance, self._home = w["piece"], w["advance"], w["homeRow"]
        self._defended, self._threat, self._hanging = w["defended"], w["threat"], w["hanging"]
        self._runner = w["runner"]

    # --- bridges to the rules --------------------------------------------------------------------

    def from_state(self, state: Any) -> Position:
        """The position of a :class:`arena.games.breakthrough.rules.BreakthroughState`."""
        mine, theirs, black = relative(state)
        return (mine, theirs, black, state.turn_number)

    def to_game_move(self, move: Move) -> BreakthroughMove:
        """The rules' move (``capture`` left False: ``validate_move`` sets it)."""
        return BreakthroughMove(move[0], move[1])

    # --- the engine's interface ------------------------------------------------------------------

    def moves(self, pos: Position) -> list[Move]:
        mine, theirs, black = pos[0], pos[1], pos[2]
        if has_lost(mine, theirs, black):
            return []
        out: list[Move] = []
        shifts = (8, 7, 9) if black else (-8, -9, -7)
        for mask, shift in zip(move_masks(mine, theirs, black), shifts, strict=True):
            while mask:
                low = mask & -mask
                mask ^= low
                target = low.bit_length() - 1
                out.append((target - shift, target))
        return out

    def play(self, pos: Position, move: Move) -> Position:
        mine, theirs, black, turn_number = pos
        bit = 1 << move[1]
        return (theirs & ~bit, (mine ^ (1 << move[0])) | bit, not black, turn_number + 1)

    def key(self, pos: Position) -> Position:
        return pos

    def ply(self, pos: Position) -> int:
        return pos[3]

    def has_moves(self, pos: Position) -> bool:
        mine, theirs, black = pos[0], pos[1], pos[2]
        if has_lost(mine, theirs, black):
            return False
        straight, side_a, side_h = move_masks(mine, theirs, black)
        return bool(straight | side_a | side_h)

    def quiet(self, pos: Position) -> bool:
        """False only when the opponent threatens to win and the side to move can take the one
        piece that threatens (or its own last piece is attacked): then the search plays it out.
        Every other race is settled statically by :meth:`evaluate` (see the module docstring)."""
        mine, theirs, black = pos[0], pos[1], pos[2]
        return _race(mine, theirs, black) != _OPEN

    def tactical(self, pos: Position, move: Move) -> int:
        """Wins first (far row, last piece), then captures, deeper enemy pieces first."""
        theirs, black = pos[1], pos[2]
        target = move[1]
        if (1 << target) & (ROW_8 if black else ROW_1):
            return 100
        if not theirs >> target & 1:
            return 0
        if theirs.bit_count() == 1:
            return 100
        # The captured piece's progress towards our home row: the most dangerous goes first.
        return 10 + (7 - target // 8 if black else target // 8)

    def evaluate(self, pos: Position) -> int:
        mine, theirs, black = pos[0], pos[1], pos[2]
        race = _race(mine, theirs, black)
        if race == _WON:
            return NEAR_WIN
        if race == _LOST:
            return -NEAR_WIN
        score = self._piece * (mine.bit_count() - theirs.bit_count())
        score += self._advance * (_advance(mine, black) - _advance(theirs, not black))
        my_home, their_home = (ROW_1, ROW_8) if black else (ROW_8, ROW_1)
        score += self._home * ((mine & my_home).bit_count() - (theirs & their_home).bit_count())
        my_attacks, their_attacks = _attacks(mine, black), _attacks(theirs, not black)
        # A piece is defended when a friend attacks its square (it stands diagonally behind).
        score += self._defended * ((mine & my_attacks).bit_count() - (theirs & their_attacks).bit_count())
        if theirs & my_attacks & ~their_attacks:
            score += self._threat
        hanging = (mine & their_attacks & ~my_attacks).bit_count()
        if hanging > 1:
            score -= self._hanging * (hanging - 1)
        if self._runner:
            mine_run = _best_runner(mine, theirs, black)
            theirs_run = _best_runner(theirs, mine, not black)
            if mine_run < 99 or theirs_run < 99:
                # We move first: a tie is ours. The closer the race's end, the surer it is.
                if mine_run <= theirs_run:
                    score += self._runner + 10 * (7 - mine_run)
                else:
                    score -= self._runner + 10 * (7 - theirs_run)
        return score


#: The linear-feature contract (:mod:`arena.train`), over the evaluation's linear part: where
#: :func:`_race` settles a position (a win one or two plies away: ``evaluate`` returns
#: ``+-NEAR_WIN``) and for the runner's distance bonus (``10 * (7 - moves to go)``, not weighted),
#: :meth:`BreakthroughSearch.evaluate` differs from ``sum(weights[n] * features(pos)[n])``;
#: elsewhere it equals it.
FEATURE_NAMES: tuple[str, ...] = tuple(DEFAULT_WEIGHTS)


def features(pos: Position) -> dict[str, float]:
    """The evaluation's weighted terms for the side to move of ``pos``, by weight name: counts of
    ours minus theirs for ``piece``, ``advance``, ``homeRow`` and ``defended``; ``threat`` 1 when
    we attack an undefended piece; ``hanging`` minus our undefended attacked pieces beyond the
    first; ``runner`` +1 when we win the race of unstoppable pieces, -1 when we lose it, else 0."""
    mine, theirs, black = pos[0], pos[1], pos[2]
    my_home, their_home = (ROW_1, ROW_8) if black else (ROW_8, ROW_1)
    my_attacks, their_attacks = _attacks(mine, black), _attacks(theirs, not black)
    hanging = (mine & their_attacks & ~my_attacks).bit_count()
    mine_run = _best_runner(mine, theirs, black)
    theirs_run = _best_runner(theirs, mine, not black)
    runner = 0.0
    if mine_run < 99 or theirs_run < 99:
        runner = 1.0 if mine_run <= theirs_run else -1.0
    return {
        "piece": float(mine.bit_count() - theirs.bit_count()),
        "advance": float(_advance(mine, black) - _advance(theirs, not black)),
        "homeRow": float((mine & my_home).bit_count() - (theirs & their_home).bit_count()),
        "defended": float((mine & my_attacks).bit_count() - (theirs & their_attacks).bit_count()),
        "threat": 1.0 if theirs & my_attacks & ~their_attacks else 0.0,
        "hanging": -float(hanging - 1) if hanging > 1 else 0.0,
        "runner": runner,
    }


#: The game's search adapter, as :func:`arena.agents.parts.search_ref` finds it.
ADAPTER = BreakthroughSearch
