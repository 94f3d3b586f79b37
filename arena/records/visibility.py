"""What a seat could tell of a step from its observation right after it, decided from the rules
for any game: the step is redone with each alternative (every other chance outcome; every other
legal move of the seat that moved, the rest of a joint move kept), and the outcome or move counts
as seen when every alternative that leaves the seat the same observation reads the same
(``describe_move``). A node of more than :data:`MAX_ALTERNATIVES` alternatives is not enumerated:
what happened there is hidden. :mod:`arena.records.replay` tells each seat its steps by it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.model import GeneralGame

#: The most alternatives tried to tell whether a seat could see a chance outcome or a move.
MAX_ALTERNATIVES = 2000


def chance_seen(game: GeneralGame[Any, Any], state: Any, outcome: Any, seat: int) -> bool:
    """Whether ``seat`` could tell ``outcome`` from its observation after it (see the module docstring)."""
    outcomes = game.chance_outcomes(state)
    if len(outcomes) > MAX_ALTERNATIVES:
        return False
    seen = game.observation(game.apply(state, outcome), seat)
    text = game.describe_move(outcome)
    return all(game.describe_move(other) == text for other, _ in outcomes
               if other != outcome and game.observation(game.apply(state, other), seat) == seen)


def move_seen(game: GeneralGame[Any, Any], state: Any, moves: Mapping[int, Any], mover: int, seat: int) -> bool:
    """Whether ``seat`` could tell ``mover``'s move (one of ``moves``: a seat's move, or a joint
    move) from its observation after the step, the other seats' moves kept."""
    legal = game.legal_moves(state, mover)
    if len(legal) > MAX_ALTERNATIVES:
        return False

    def after(move: Any) -> dict[str, Any]:
        if len(moves) == 1 and game.actor(state) == mover:
            return game.observation(game.apply(state, move), seat)
        return game.observation(game.apply_joint(state, {**moves, mover: move}), seat)

    seen = after(moves[mover])
    text = game.describe_move(moves[mover])
    return all(game.describe_move(other) == text for other in legal
               if other != moves[mover] and after(other) == seen)


__all__ = ["MAX_ALTERNATIVES", "chance_seen", "move_seen"]
