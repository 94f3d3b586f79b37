"""Monte Carlo tree search over a game's search adapter: MCTS with the game's own heuristic.

Standard library only. Where a two-player game has a search adapter (:class:`arena.agents.search.SearchAdapter`,
the one arena's alpha-beta uses: raw bitboard positions, a move list, an evaluation), MCTS runs
on it instead of on the rules' states (:mod:`arena.agents.mcts`, which stays the player of the
games without one: UCT with random playouts). What it does differently, and why:

- **Raw positions**: the adapter's ``moves``/``play`` work on tuples of integers, several times
  cheaper a ply than the rules' states (no validation, no state objects).
- **The evaluation at the leaf, after a quiescence playout**: from a new node, first
  ``rollout_plies`` moves of an epsilon-greedy policy (the adapter's ``tactical`` rank: with
  probability ``1 - epsilon`` the best-ranked move when one ranks above 0, i.e. a win, a block or a
  capture; otherwise a uniformly random one; 0 plies by default: at 100 ms a move against
  alpha-beta in Breakthrough, 2 such plies scored 0/6 where none scored 2/6), then, while the adapter
  says the position is not quiet (a win in one pending, a capture that decides), up to
  :data:`QUIESCENCE_PLIES` best-ranked moves; the position reached is scored by the evaluation
  turned into a value in 0..1: ``1 / (1 + exp(-evaluate / scale))`` for the side to move,
  ``scale`` the second largest absolute default weight of the adapter's evaluation times
  ``scale_factor`` (so every game's scale comes from its own weights: about a piece's worth, where
  the largest weight is a rarer, decisive term. The median was tried first: in checkers (weights
  2-150) and Abalone (8-1000) it made one piece saturate the curve, and Abalone drew 3 of 6 games
  against a random player at the move cap; with ten and a hundred times that scale it won 4 of 4). A finished game scores 1, 0.5 or 0; the
  match's move cap is a draw.
- **Prior order**: a new node's moves are tried in the order of their ``tactical`` rank (then a
  random order): a win or a block is looked at first.
- **A solver** (MCTS-Solver, Winands et al. 2008): a node whose side to move has lost or drawn is
  proven; a node with a child proven lost for its mover is a proven win, one whose children are all
  proven wins for the opponent a proven loss. A proven win is chosen at once, a proven loss never
  while another move remains.
- **Tree reuse**: :meth:`AdapterMcts.search` keeps the tree; the next search starts from the
  node of the position it is given when that position is in the old tree within two plies (our move
  and the reply), keeping its statistics.

Values are stored negamax-style: a node's ``total`` is the sum of its values for the side that
moved into it. Selection is UCB1, ``mean + exploration * sqrt(ln(parent visits) / visits)``. With a
budget of iterations only, the search is deterministic for a given ``random.Random`` state and
sequence of searches.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from arena.agents.mcts import Budget, SearchResult
from arena.agents.search import Searcher, is_win_score

#: UCB1's constant for this engine: its values come from an evaluation, which asks for less
#: exploration than random playouts do (sqrt(2)).
DEFAULT_EXPLORATION = 0.7
DEFAULT_ROLLOUT_PLIES = 0
#: Plies of best-ranked moves played at most while a leaf is not quiet.
QUIESCENCE_PLIES = 6
DEFAULT_EPSILON = 0.3
DEFAULT_SCALE_FACTOR = 1.0
#: Plies of alpha-beta (arena.agents.search, quiescence included) that score a new leaf; 0: the
#: quiescence playout and the static evaluation.
DEFAULT_LEAF_DEPTH = 0
#: Nodes kept in the tree at most (about 200 bytes each); past it leaves are scored, not expanded.
MAX_NODES = 1_000_000

_UNPROVEN, _WON, _LOST, _DRAWN = 0, 1, 2, 3  # for the side to move at the node


class _Node:
    __slots__ = ("children", "moves", "pos", "proven", "total", "untried", "visits")

    def __init__(self, pos: Any) -> None:
        self.pos = pos
        self.visits = 0
        self.total = 0.0  # the sum of this node's values for the side that moved into it
        self.proven = _UNPROVEN
        self.moves: list[Any] | None = None  # set when the node is expanded
        self.children: list[_Node] = []
        self.untried: list[Any] = []  # moves without a child yet, the next to try last


class AdapterMcts:
    """MCTS over ``adapter`` (a SearchAdapter instance); ``rng`` drives every random choice;
    ``max_ply`` is the match's move cap (a draw there)."""

    def __init__(self, adapter: Any, *, rng: random.Random, exploration: float = DEFAULT_EXPLORATION,
                 max_ply: int | None = None, rollout_plies: int = DEFAULT_ROLLOUT_PLIES,
                 epsilon: float = DEFAULT_EPSILON, scale_factor: float = DEFAULT_SCALE_FACTOR,
                 leaf_depth: int = DEFAULT_LEAF_DEPTH) -> None:
        self.adapter = adapter
        self.rng = rng
        self.exploration = exploration
        self.max_ply = max_ply if max_ply is not None else 1 << 30
        self.rollout_plies = rollout_plies
        self.epsilon = epsilon
        weights = sorted(abs(w) for w in type(adapter).DEFAULT_WEIGHTS.values() if isinstance(w, int) and w)
        self.scale = max(1.0, scale_factor * (weights[-2] if len(weights) > 1 else weights[0] if weights else 100))
        self._terminal = getattr(adapter, "terminal_score", None)
        self.leaf_depth = leaf_depth
        self._searcher = Searcher(adapter, max_moves=self.max_ply, rng=rng) if leaf_depth > 0 else None
        self._root: _Node | None = None
        self._nodes = 0
        self.reused = 0  # visits kept from the previous search at the last root

    # --- the driver ---------------------------------------------------------------------------

    def search(self, pos: Any, budget: Budget) -> SearchResult:
        """The adapter move for the side to move at ``pos`` (which has a legal move), as a
        :class:`arena.agents.mcts.SearchResult` whose visits and means follow ``adapter.moves(pos)``.
        Raises ValueError for an empty budget or a position without a legal move."""
        if budget.iterations is None and budget.deadline is None:
            raise ValueError("a search needs a number of iterations or a deadline")
        started = time.perf_counter()
        legal = self.adapter.moves(pos)
        if not legal:
            raise ValueError("the side to move has no legal move")
        root = self._reroot(pos)
        done = 0
        if len(legal) > 1:
            while root.proven == _UNPROVEN:
                self._iterate(root)
                done += 1
                if budget.iterations is not None and done >= budget.iterations:
                    break
                if budget.deadline is not None and time.perf_counter() >= budget.deadline:
                    break
        by_move = dict(zip(root.moves or (), root.children, strict=False))
        stats = [by_move.get(move) for move in legal]
        visits = tuple(c.visits if c else 0 for c in stats)
        means = tuple(c.total / c.visits if c and c.visits else 0.0 for c in stats)
        best = max(range(len(legal)), key=lambda i: self._rank(stats[i], visits[i], means[i], i))
        return SearchResult(legal[best], done, visits, means, time.perf_counter() - started)

    @staticmethod
    def _rank(child: _Node | None, visits: int, mean: float, index: int) -> tuple[int, int, float, int]:
        # A proven win for us (the child lost for its mover) first, a proven loss last.
        proof = 0 if child is None else {_LOST: 2, _WON: -1}.get(child.proven, 0)
        return (proof, visits, mean, -index)

    def _reroot(self, pos: Any) -> _Node:
        """The node of ``pos`` in the kept tree within two plies of its root, else a new tree."""
        key = self.adapter.key
        wanted = key(pos)
        old = self._root
        found: _Node | None = None
        if old is not None:
            frontier = [old]
            for _ in range(3):
                found = next((n for n in frontier if key(n.pos) == wanted), None)
                if found is not None:
                    break
                frontier = [c for n in frontier for c in n.children]
        if found is None:
            found = _Node(pos)
            self.reused = 0
            self._nodes = 1
        else:
            self.reused = found.visits
            self._nodes = _count(found)
        self._root = found
        return found

    # --- one iteration ------------------------------------------------------------------------

    def _iterate(self, root: _Node) -> None:
        if root.moves is None:
            self._expand(root)
        node = root
        path = [root]
        while True:
            if node.proven != _UNPROVEN or not (node.untried or node.children):
                break
            if node.untried and self._nodes < MAX_NODES:
                move = node.untried.pop()
                child = _Node(self.adapter.play(node.pos, move))
                node.children.append(child)
                self._nodes += 1
                self._expand(child)  # every node in the tree is expanded when it is made
                path.append(child)
                node = child
                break
            if not node.children:
                break
            node = self._select(node)
            path.append(node)
        value = self._leaf_value(node)  # for the side to move at node
        # Its mover gets 1 - value, the mover before that value, and so on up to the root.
        for visited in reversed(path):
            value = 1.0 - value
            visited.visits += 1
            visited.total += value
        for visited in reversed(path[:-1]):
            self._prove(visited)

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        c = self.exploration
        best = node.children[0]
        best_value = -math.inf
        for child in node.children:
            proven = child.proven
            if proven == _LOST:
                return child  # a win for the side to move here
            if proven == _WON:
                value = -1.0  # never, while another move is left
            else:
                value = child.total / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best

    def _expand(self, node: _Node) -> None:
        """Lists ``node``'s moves (its prior order) and proves it when the game is over there."""
        adapter, pos = self.adapter, node.pos
        terminal = self._terminal(pos) if self._terminal is not None else None
        if terminal is not None:
            node.proven = _DRAWN if terminal == 0 else _WON if terminal > 0 else _LOST
            node.moves = []
            return
        if adapter.ply(pos) >= self.max_ply:
            node.proven = _DRAWN
            node.moves = []
            return
        moves = adapter.moves(pos)
        node.moves = []
        if not moves:
            node.proven = _LOST
            return
        self.rng.shuffle(moves)
        tactical = adapter.tactical
        ranked = sorted(moves, key=lambda m: tactical(pos, m))  # stable: the shuffle breaks ties
        node.untried = ranked  # popped from the end: the best rank first
        node.moves = list(reversed(ranked))

    def _prove(self, node: _Node) -> None:
        if node.proven != _UNPROVEN or node.untried or not node.children:
            if node.proven == _UNPROVEN and any(c.proven == _LOST for c in node.children):
                node.proven = _WON
            return
        proofs = [c.proven for c in node.children]
        if _LOST in proofs:
            node.proven = _WON
        elif all(p == _WON for p in proofs):
            node.proven = _LOST
        elif all(p in (_WON, _DRAWN) for p in proofs):
            node.proven = _DRAWN

    # --- leaves -------------------------------------------------------------------------------

    def _leaf_value(self, node: _Node) -> float:
        """The value of ``node`` for its side to move: exact when proven, else a short playout
        scored by the evaluation."""
        proven = node.proven
        if proven != _UNPROVEN:
            return 1.0 if proven == _WON else 0.0 if proven == _LOST else 0.5
        adapter = self.adapter
        tactical, terminal = adapter.tactical, self._terminal
        pos = node.pos
        flip = False  # whether the side to move at pos is node's opponent
        for _ in range(self.rollout_plies):
            moves = adapter.moves(pos)
            if not moves:
                score = terminal(pos) if terminal is not None else None
                value = 0.5 if score == 0 else 0.0
                return 1.0 - value if flip else value
            pos = adapter.play(pos, self.rollout_move(pos, moves))
            flip = not flip
            if adapter.ply(pos) >= self.max_ply:
                return 0.5
        if self._searcher is not None:
            if adapter.ply(pos) >= self.max_ply:
                return 0.5
            score = self._searcher.value(pos, self.leaf_depth)
            if is_win_score(score):
                value = 1.0 if score > 0 else 0.0
            else:
                value = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -score / self.scale))))
            return 1.0 - value if flip else value
        # Where the adapter says a static score would mislead (a win in one, a pending capture),
        # the best-ranked move is played out first, as alpha-beta's quiescence does.
        quiet = adapter.quiet
        for _ in range(QUIESCENCE_PLIES):
            if adapter.ply(pos) >= self.max_ply:
                return 0.5
            moves = adapter.moves(pos)
            if not moves or quiet(pos):
                break
            ranks = [tactical(pos, move) for move in moves]
            pos = adapter.play(pos, moves[ranks.index(max(ranks))])
            flip = not flip
        score = terminal(pos) if terminal is not None else None
        if score is not None:
            value = 0.5 if score == 0 else 1.0 if score > 0 else 0.0
        elif not adapter.has_moves(pos):
            value = 0.0
        else:
            value = 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -adapter.evaluate(pos) / self.scale))))
        return 1.0 - value if flip else value


    def rollout_move(self, pos: Any, moves: list[Any]) -> Any:
        """The playout policy's move at ``pos`` (``moves``: its legal moves, not empty).

        Decisive and anti-decisive moves first (Teytaud and Teytaud 2010; in Breakthrough they
        are what makes playouts say something, Lorentz and Horey 2013): a move that wins at once
        when there is one; else, where the adapter says ``pos`` is not quiet (the opponent may
        threaten to win), the best-ranked move after which the opponent cannot win at once, when
        there is one. Otherwise, with probability ``1 - epsilon``, the best-ranked move of the
        adapter's ``tactical`` order when one ranks above 0 (a capture, a block), else a random
        move. Only moves ranked above 0 are looked at as wins and defences: an adapter ranks those
        above the quiet ones (:class:`arena.agents.search.SearchGame`)."""
        adapter = self.adapter
        tactical = adapter.tactical
        ranked = sorted(((rank, index) for index, move in enumerate(moves)
                         if (rank := tactical(pos, move)) > 0), reverse=True)
        for _, index in ranked:
            if self._lost(adapter.play(pos, moves[index])):
                return moves[index]
        if ranked and not adapter.quiet(pos):
            for _, index in ranked:
                if not self._can_win(adapter.play(pos, moves[index])):
                    return moves[index]
        if ranked and self.rng.random() >= self.epsilon:
            return moves[ranked[0][1]]
        return moves[self.rng.randrange(len(moves))]

    def _lost(self, pos: Any) -> bool:
        """Whether the side to move at ``pos`` has lost (the game is over and not drawn)."""
        score = self._terminal(pos) if self._terminal is not None else None
        if score is not None:
            return score < 0
        return not self.adapter.has_moves(pos)

    def _can_win(self, pos: Any) -> bool:
        """Whether the side to move at ``pos`` has a move that wins at once."""
        adapter = self.adapter
        if self._lost(pos) or not adapter.has_moves(pos):
            return False
        tactical = adapter.tactical
        return any(tactical(pos, move) > 0 and self._lost(adapter.play(pos, move)) for move in adapter.moves(pos))


def _count(node: _Node) -> int:
    """The nodes of the subtree under ``node``, itself included."""
    count, stack = 0, [node]
    while stack:
        current = stack.pop()
        count += 1
        stack.extend(current.children)
    return count


__all__ = ["DEFAULT_EXPLORATION", "AdapterMcts"]
