"""Abalone for the search engine: a fast adapter over the masks of :mod:`arena.games.abalone.board`,
and the Abalone learning program's linear evaluation over 14 features.

Standard library only. A position is ``(mine, theirs, black_to_move, turn_number)``: the masks of
the side to move and of its opponent; a move is the board's raw move ``(moved, offset, pushed)``.
A side down to 8 marbles (six pushed off) has lost: it has no moves, which the engine scores as a
loss. There is no draw by the rules (the move cap is the engine's draw horizon).

The features (that program's ``State``: seven per side, "ours" for the side to move, "theirs" for the
other; :data:`FEATURE_NAMES`), each a plain count unless said otherwise:

- ``Centre``: marbles at most 2 steps from E5 (the 19 inner cells);
- ``Middle``: marbles on the middle ring, 3 steps from E5 (18 cells);
- ``Border``: marbles on the edge ring, 4 steps from E5 (24 cells), the only cells a marble is
  pushed off from;
- ``Marbles``: marbles on the board (the material; the advantage is ``ours - theirs``, which the
  two weights express);
- ``Flowers``: protection formations: marbles whose six neighbours are all marbles of the same
  side (that program's "flower", a hexagon of seven: nothing can push its centre);
- ``Distance``: 10 x the average distance of the side's marbles to E5 (0-40; times ten so that an
  integer weight has a useful resolution);
- ``Threatened``: the side's marbles the other side could push off the board with one move (for
  "ours", as if the opponent moved now; for "theirs", what the side to move can take at once).

The evaluation is ``round(sum(weights[name] * features[name]))`` with integer weights by name
(:data:`DEFAULT_WEIGHTS`, overridden by a hyperparameters file's ``evaluation``). The contract for
learners (TD(lambda), evolution, SPSA): :data:`FEATURE_NAMES`, :func:`features` on a position and
the weights by the same names; nothing else enters the score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.abalone.board import (
    CELLS,
    DISTANCE,
    EDGE,
    LOSING_COUNT,
    OFFSETS,
    can_step,
    count_moves,
    play,
    push_off_targets,
    raw_moves,
    shift,
)
from arena.games.abalone.rules import AbaloneMove, raw_to_move, relative

Position = tuple[int, int, bool, int]
Move = tuple[int, int, int]

_KINDS = ("Centre", "Middle", "Border", "Marbles", "Flowers", "Distance", "Threatened")
#: The 14 features, in that program's order: ours first, then theirs.
FEATURE_NAMES: tuple[str, ...] = tuple(f"our{k}" for k in _KINDS) + tuple(f"their{k}" for k in _KINDS)

#: Chosen by fixed-depth games against bots/abalone_greedy.py (bench/abalone_strength.py, depth 3,
#: 2-ply random openings, both colours): material dominates; a marble the side to move can push off
#: (theirThreatened) is worth most of a marble, one it must still defend (ourThreatened) a quarter;
#: the rings and the distance keep the marbles together in the middle. Weights of "theirs" mirror
#: "ours" except the threats. With these: 6 wins, 12 draws (by the cap), no loss in 18 games; with
#: ourThreatened -120 and theirThreatened 300: 1-3-0; stronger ring and distance weights: 1-3-0
#: and 0-3-0; flowers 60 or centre 60 (same 8 openings as 2-6-0 here): 1-7-0 each; counting pushes
#: onto the edge as threats: 0-7-0. Draws are games the search leads on marbles but cannot finish.
DEFAULT_WEIGHTS: dict[str, int] = {
    "ourCentre": 30,
    "ourMiddle": 10,
    "ourBorder": -10,
    "ourMarbles": 1000,
    "ourFlowers": 15,
    "ourDistance": -8,
    "ourThreatened": -250,
    "theirCentre": -30,
    "theirMiddle": -10,
    "theirBorder": 10,
    "theirMarbles": -1000,
    "theirFlowers": -15,
    "theirDistance": 8,
    "theirThreatened": 700,
}


#: The side to move's lead as a linear form of the features, for learners (:mod:`arena.train.td`):
#: the marble lead over the six a win takes, -1..1 short of a win. The rules call a game the move
#: cap stops a draw; TD scores it by this lead, and its value is this lead plus a learnt correction
#: (self-play between untrained players nearly always reaches the cap, and a flat draw taught nothing).
LEAD_WEIGHTS: dict[str, float] = {"ourMarbles": 1 / (14 - LOSING_COUNT), "theirMarbles": -1 / (14 - LOSING_COUNT)}

def _ring(low: int, high: int) -> int:
    return sum(1 << c for c in CELLS if low <= DISTANCE[c] <= high)


_CENTRE_MASK = _ring(0, 2)
_MIDDLE_MASK = _ring(3, 3)
_BORDER_MASK = EDGE
_DISTANCE_RINGS = tuple(_ring(d, d) for d in range(5))


def _flowers(side: int) -> int:
    """Marbles of ``side`` whose six neighbours all belong to ``side``."""
    centres = side
    for offset in OFFSETS:
        centres &= shift(side, -offset)
    return centres.bit_count()


def _side_features(side: int, other: int) -> tuple[float, ...]:
    count = side.bit_count()
    total = sum(d * (side & ring).bit_count() for d, ring in enumerate(_DISTANCE_RINGS))
    return ((side & _CENTRE_MASK).bit_count(), (side & _MIDDLE_MASK).bit_count(),
            (side & _BORDER_MASK).bit_count(), count, _flowers(side),
            10.0 * total / count if count else 0.0, push_off_targets(other, side).bit_count())


def feature_vector(mine: int, theirs: int) -> tuple[float, ...]:
    """The 14 feature values in :data:`FEATURE_NAMES` order, ``mine`` being the side to move."""
    return _side_features(mine, theirs) + _side_features(theirs, mine)


def features(position: Any) -> dict[str, float]:
    """The 14 features by name (module docstring), from the side to move's view. ``position`` is
    an adapter position ``(mine, theirs, black, ply)`` or an :class:`arena.games.abalone.rules.AbaloneState`."""
    if hasattr(position, "turn"):
        mine, theirs = relative(position)
    else:
        mine, theirs = position[0], position[1]
    return dict(zip(FEATURE_NAMES, (float(v) for v in feature_vector(mine, theirs)), strict=True))


class AbaloneSearch:
    """The :class:`arena.agents.search.SearchAdapter` for Abalone with evaluation ``weights``."""

    DEFAULT_WEIGHTS = DEFAULT_WEIGHTS
    extend_single_reply = False  # a lone legal move does not happen in practice

    def __init__(self, weights: Mapping[str, int] | None = None) -> None:
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(weights or {})
        self.weights = merged
        self._vector = tuple(merged[name] for name in FEATURE_NAMES)

    # --- bridges to the rules --------------------------------------------------------------------

    def from_state(self, state: Any) -> Position:
        """The position of an :class:`arena.games.abalone.rules.AbaloneState`."""
        mine, theirs = relative(state)
        return (mine, theirs, state.turn.value == "BLACK", state.turn_number)

    def to_game_move(self, move: Move) -> AbaloneMove:
        return raw_to_move(move)

    # --- the engine's interface ------------------------------------------------------------------

    def moves(self, pos: Position) -> list[Move]:
        mine, theirs = pos[0], pos[1]
        if mine.bit_count() <= LOSING_COUNT:
            return []
        return raw_moves(mine, theirs)

    def play(self, pos: Position, move: Move) -> Position:
        mine, theirs = play(pos[0], pos[1], move)
        return (theirs, mine, not pos[2], pos[3] + 1)

    def key(self, pos: Position) -> Position:
        return pos

    def ply(self, pos: Position) -> int:
        return pos[3]

    def has_moves(self, pos: Position) -> bool:
        mine, theirs = pos[0], pos[1]
        if mine.bit_count() <= LOSING_COUNT:
            return False
        # A marble next to an empty cell can step there: the full count is almost never needed.
        return can_step(mine, theirs) or count_moves(mine, theirs) > 0

    def quiet(self, pos: Position) -> bool:
        """Always: the engine's quiescence plays every move of a position that is not quiet, which in
        Abalone (pushes are available most of the time) would be a full-width search; the threat
        features settle pending push-offs statically instead."""
        return True

    def tactical(self, pos: Position, move: Move) -> int:
        """Pushes off the board first (the winning one above all), then other pushes, longer first."""
        pushed = move[2]
        if not pushed:
            return 0
        theirs = pos[1]
        if play(pos[0], theirs, move)[1].bit_count() < theirs.bit_count():
            return 100 if theirs.bit_count() == LOSING_COUNT + 1 else 50
        return 10 + pushed.bit_count()

    def evaluate(self, pos: Position) -> int:
        values = feature_vector(pos[0], pos[1])
        return round(sum(w * v for w, v in zip(self._vector, values, strict=True)))


#: The game's search adapter, as :func:`arena.agents.parts.search_ref` finds it.
ADAPTER = AbaloneSearch

__all__ = ["ADAPTER", "DEFAULT_WEIGHTS", "FEATURE_NAMES", "LEAD_WEIGHTS", "AbaloneSearch", "feature_vector", "features"]
