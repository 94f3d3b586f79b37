"""`arena perft`: one leaf count for every game, two-player or N seats, with one convention.

The convention is chess's: ``perft(state, 0)`` is 1, and below that a finished game contributes
nothing, so ``perft(state, depth)`` counts the step sequences of exactly ``depth`` steps that the
rules allow from ``state``. A step is a seat's move, a chance outcome (each outcome once, whatever
its probability) or a simultaneous node's joint move (one move per acting seat). A game may count
faster in its own way (:meth:`arena.games.model.GeneralGame.perft`: two-player games through their
adapter keep their fast counters); it counts the same tree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import orjson

from arena.games.model import CHANCE, SIMULTANEOUS, GeneralGame, joint_moves


@dataclass(frozen=True)
class PerftResult:
    game: str
    depth: int
    nodes: int
    seconds: float
    divide: list[tuple[str, int]] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "depth": self.depth, "nodes": self.nodes,
                               "seconds": round(self.seconds, 6)}
        if self.divide is not None:
            out["divide"] = {move: count for move, count in self.divide}
        return out


def perft(game: GeneralGame[Any, Any], state: Any, depth: int, divide: bool = False) -> PerftResult:
    """Leaves ``depth`` steps below ``state`` (module docstring), and with ``divide`` the leaves below
    each first step, labelled by its move, outcome or joint move in wire form (none at a finished
    game)."""
    start = time.perf_counter()
    rows: list[tuple[str, int]] | None = [] if divide else None
    if divide and depth >= 1 and not game.is_terminal(state):
        rows = [(label, game.perft(child, depth - 1)) for label, child in first_steps(game, state)]
        nodes = sum(n for _, n in rows)
    else:
        nodes = game.perft(state, depth)
    return PerftResult(game.name, depth, nodes, time.perf_counter() - start, rows)


def first_steps(game: GeneralGame[Any, Any], state: Any) -> list[tuple[str, Any]]:
    """``(label, next state)`` for every step from ``state`` (the order of :meth:`GeneralGame.children`)."""
    actor = game.actor(state)

    def text(wire: Any) -> str:
        return wire if isinstance(wire, str) else orjson.dumps(wire).decode()

    if actor == CHANCE:
        return [(text(game.move_to_wire(o)), game.apply(state, o)) for o, _ in game.chance_outcomes(state)]
    if actor == SIMULTANEOUS:
        return [(text({str(s): game.move_to_wire(m) for s, m in joint.items()}), game.apply_joint(state, joint))
                for joint in joint_moves(game, state)]
    return [(text(game.move_to_wire(m)), game.apply(state, m)) for m in game.legal_moves(state, actor)]


__all__ = ["PerftResult", "first_steps", "perft"]
