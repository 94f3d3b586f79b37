"""Monte Carlo tree search over the forward model alone: a player for every game.

Standard library and :mod:`arena.games.model` only. :class:`Mcts` searches any
:class:`arena.games.model.GeneralGame` (two-player games through their two-seat adapter)
with no evaluation function and no search adapter:

- **UCT**: at a seat's node the move maximizing UCB1, ``q + c * sqrt(ln(available) / visits)``,
  after every move has been tried once (the untried ones in a random order). ``q`` is the move's
  mean return for the seat that chooses it, scaled to 0..1 by the smallest and largest returns seen
  in this search (games score on different scales: +-1, chips, tokens); ``c`` is ``exploration``.
- **Random playouts**: from the first new node, uniformly random moves (and chance outcomes by their
  probabilities) to the end of the game or to ``max_ply``; the returns there are the result. A game
  object with a ``playout(state, seed, count)`` method (an external referee's fused playout: one
  round trip, ``count`` return vectors) is asked for it instead of being stepped ply by ply.
- **max^n**: every node keeps, per acting seat and move, the visits and the sum of that seat's own
  return; each seat chooses by its own component (with two zero-sum players this is UCT's minimax).
- **Chance nodes**: an outcome is drawn with its probability (:func:`arena.games.model.draw_chance`)
  and has a child of its own; no statistics are kept there.
- **Simultaneous nodes**: decoupled UCT: each acting seat picks its move by its own statistics;
  the joint move leads to the child.
- **Hidden information**: information-set MCTS (single observer): each iteration starts from a
  root state drawn by the caller's ``sample(rng)`` (for a bot: ``game.determinize(observation,
  seat, rng)``); nodes are keyed by the moves taken, not by states, and a move's ``available``
  count (how often it was legal when its node was visited) replaces the parent's visits in UCB1.

The move chosen is the root seat's most visited (then the best mean, then the first legal). With
a budget of iterations only, the search is deterministic for a given ``random.Random`` state.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, draw_chance, random_step

#: UCB1's exploration constant for returns scaled to 0..1 (the classic sqrt(2)).
DEFAULT_EXPLORATION = math.sqrt(2)


@dataclass(frozen=True)
class Budget:
    """When a search stops: after ``iterations``, at ``deadline`` (a ``time.perf_counter()``
    value), or at whichever comes first; at least one iteration either way. Both None is an error."""

    iterations: int | None = None
    deadline: float | None = None


@dataclass(frozen=True)
class SearchResult:
    """The move chosen, the iterations run, the root seat's visits and mean return per move (in the
    order of its legal moves) and the time taken."""

    move: Any
    iterations: int
    visits: tuple[int, ...]
    means: tuple[float, ...]
    seconds: float


class _Edge:
    """One seat's statistics for one move at one node."""

    __slots__ = ("available", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0  # the sum of the choosing seat's returns
        self.available = 0


class _Node:
    __slots__ = ("children", "edges")

    def __init__(self) -> None:
        self.edges: dict[int, dict[Hashable, _Edge]] = {}
        self.children: dict[Hashable, _Node] = {}


class Mcts:
    """A search over ``game`` (a GeneralGame). ``rng`` drives every random choice; ``max_ply``
    ends playouts (and the tree) at that ply as if the game ended there, scored by
    ``game.returns`` (None: play to the end)."""

    def __init__(self, game: GeneralGame[Any, Any], *, rng: random.Random,
                 exploration: float = DEFAULT_EXPLORATION, max_ply: int | None = None) -> None:
        self.game = game
        self.rng = rng
        self.exploration = exploration
        self.max_ply = max_ply
        self._playout_hook: Callable[..., Any] | None = getattr(game, "playout", None)
        self._low = math.inf
        self._high = -math.inf

    def search(self, seat: int, sample: Callable[[random.Random], Any], budget: Budget) -> SearchResult:
        """The move for ``seat`` at the root states ``sample(rng)`` draws (the same state each time
        for a game of perfect information); ``seat`` must act at every one of them, with the same
        legal moves. Raises ValueError for an empty budget or a root where ``seat`` has no move."""
        if budget.iterations is None and budget.deadline is None:
            raise ValueError("a search needs a number of iterations or a deadline")
        started = time.perf_counter()
        first = sample(self.rng)
        legal = self.game.legal_moves(first, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal move at the root")
        root = _Node()
        self._low, self._high = math.inf, -math.inf
        done = 0
        if len(legal) > 1:
            state = first
            while True:
                self._iterate(root, state)
                done += 1
                if budget.iterations is not None and done >= budget.iterations:
                    break
                if budget.deadline is not None and time.perf_counter() >= budget.deadline:
                    break
                state = sample(self.rng)
        edges = root.edges.get(seat, {})
        stats = [edges.get(_key(move)) for move in legal]
        visits = tuple(e.visits if e else 0 for e in stats)
        means = tuple(e.total / e.visits if e and e.visits else 0.0 for e in stats)
        best = max(range(len(legal)), key=lambda i: (visits[i], means[i], -i))
        return SearchResult(legal[best], done, visits, means, time.perf_counter() - started)

    # --- one iteration ------------------------------------------------------------------------

    def _iterate(self, root: _Node, state: Any) -> None:
        game = self.game
        node = root
        path: list[tuple[_Node, dict[int, Hashable]]] = []
        while True:
            who = game.actor(state)
            if who == TERMINAL or self._capped(state):
                returns = self._returns(state)
                break
            if who == CHANCE:
                outcome = draw_chance(game.chance_outcomes(state), self.rng)
                state = game.apply(state, outcome)
                key: Hashable = ("chance", _key(outcome))
            else:
                seats = (who,) if who >= 0 else game.acting_seats(state)
                chosen = {seat: self._select(node, seat, game.legal_moves(state, seat)) for seat in seats}
                path.append((node, {seat: k for seat, (_, k) in chosen.items()}))
                if who >= 0:
                    state = game.apply(state, chosen[who][0])
                    key = chosen[who][1]
                else:
                    assert who == SIMULTANEOUS
                    state = game.apply_joint(state, {seat: move for seat, (move, _) in chosen.items()})
                    key = tuple(chosen[seat][1] for seat in seats)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                returns = self._simulate(state)
                break
            node = child
        for low_or_high in returns:
            self._low = min(self._low, low_or_high)
            self._high = max(self._high, low_or_high)
        for visited, keys in path:
            for seat, k in keys.items():
                edge = visited.edges[seat][k]
                edge.visits += 1
                edge.total += returns[seat]

    def _select(self, node: _Node, seat: int, legal: Sequence[Any]) -> tuple[Any, Hashable]:
        """``seat``'s move at ``node`` by UCB1 over its own statistics (an untried move first)."""
        edges = node.edges.setdefault(seat, {})
        untried: list[tuple[Any, Hashable]] = []
        scored: list[tuple[Any, Hashable, _Edge]] = []
        for move in legal:
            k = _key(move)
            edge = edges.get(k)
            if edge is None:
                edge = edges[k] = _Edge()
            edge.available += 1
            if edge.visits == 0:
                untried.append((move, k))
            else:
                scored.append((move, k, edge))
        if untried:
            return untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        span = self._high - self._low
        best: tuple[Any, Hashable] = (scored[0][0], scored[0][1])
        best_value = -math.inf
        for move, k, edge in scored:
            mean = edge.total / edge.visits
            q = (mean - self._low) / span if span > 0 else 0.5
            value = q + self.exploration * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best_value:
                best, best_value = (move, k), value
        return best

    # --- playouts -----------------------------------------------------------------------------

    def _capped(self, state: Any) -> bool:
        return self.max_ply is not None and self.game.ply(state) >= self.max_ply

    def _returns(self, state: Any) -> tuple[float, ...]:
        return tuple(float(r) for r in self.game.returns(state))

    def _simulate(self, state: Any) -> tuple[float, ...]:
        """The returns at the end of one random playout from ``state``."""
        game, rng = self.game, self.rng
        if self._playout_hook is not None and game.actor(state) != TERMINAL:
            results = self._playout_hook(state, rng.getrandbits(63), 1)
            return tuple(float(r) for r in results[0])
        while game.actor(state) != TERMINAL and not self._capped(state):
            state = random_step(game, state, rng)
        return self._returns(state)


def _key(move: Any) -> Hashable:
    """A move as a dictionary key: itself when hashable (moves are values, equal across
    determinizations), else its ``repr``."""
    try:
        hash(move)
    except TypeError:
        return repr(move)
    return move


__all__ = ["DEFAULT_EXPLORATION", "Budget", "Mcts", "SearchResult"]
