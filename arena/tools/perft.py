"""`arena perft`: one leaf count for every game, two-player or N seats, with one convention.

The convention is chess's: ``perft(state, 0)`` is 1, and below that a finished game contributes
nothing, so ``perft(state, depth)`` counts the step sequences of exactly ``depth`` steps that the
rules allow from ``state``. A step is a seat's move, a chance outcome (each outcome once, whatever
its probability) or a simultaneous node's joint move (one move per acting seat). Two-player games
keep their own fast counters (:meth:`arena.games.base.Game.perft`), reached through the general
model's two-seat adapter; they count the same tree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import orjson

from arena.games import Game
from arena.games.model import CHANCE, SIMULTANEOUS, GeneralGame, as_general, joint_moves


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


def perft(game: Game[Any, Any] | GeneralGame[Any, Any], state: Any, depth: int, divide: bool = False) -> PerftResult:
    """Leaves ``depth`` steps below ``state`` (module docstring), and with ``divide`` the leaves below
    each first step, labelled by its move, outcome or joint move in wire form (none at a finished
    game)."""
    general = as_general(game)
    start = time.perf_counter()
    rows: list[tuple[str, int]] | None = [] if divide else None
    if divide and depth >= 1 and not general.is_terminal(state):
        rows = [(label, general.perft(child, depth - 1)) for label, child in first_steps(general, state)]
        nodes = sum(n for _, n in rows)
    else:
        nodes = general.perft(state, depth)
    return PerftResult(general.name, depth, nodes, time.perf_counter() - start, rows)


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
