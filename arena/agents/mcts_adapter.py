"""Monte Carlo tree search over a game's search adapter: MCTS with the game's own heuristic.

Standard library only. Where a two-player game has a search adapter (:class:`arena.agents.search.SearchAdapter`,
the one arena's alpha-beta uses: raw bitboard positions, a move list, an evaluation), MCTS runs
on it instead of on the rules' states (:mod:`arena.agents.mcts`, which stays the player of the
games without one: UCT with random playouts). What it does differently, and why:

- **Raw positions**: the adapter's ``moves``/``play`` work on tuples of integers, several times
  cheaper a ply than the rules' states (no validation, no state objects).
- **Every move of a new node scored at once (node priors)**: when a node is made, each of its
  moves is played and the position reached is given a static value (below); a move's prior
  counts as ``prior_visits`` visits in its mean, the node's own first value is the best of them
  (a one-ply search at the leaf), and selection needs no "each move once" phase: a move that
  hangs a piece or walks into a capture looks bad from its first visit instead of after every
  sibling has been tried (with that phase, ~1,500 iterations a move spread nearly evenly over
  Breakthrough's 25 moves and the means were averages over the replies, not minimax values: 0-0-12
  at 100 ms a move against alpha-beta, whatever the exploration).
- **Static value**: first ``rollout_plies`` moves of the playout policy (:meth:`AdapterMcts.rollout_move`:
  decisive and anti-decisive moves, else epsilon-greedy by the adapter's ``tactical`` rank; 0 plies
  by default: at 100 ms a move against alpha-beta in Breakthrough, 2 such plies scored 0/6 where
  none scored 2/6), then, while the adapter says the position is not quiet (a win in one pending,
  a capture that decides), up to :data:`QUIESCENCE_PLIES` best-ranked moves; the position reached
  is scored by the evaluation turned into a value in 0..1: ``1 / (1 + exp(-evaluate / scale))``
  for the side to move, ``scale`` the second largest absolute default weight of the adapter's
  evaluation times ``scale_factor`` (so every game's scale comes from its own weights: about a
  piece's worth, where the largest weight is a rarer, decisive term. The median was tried first:
  in checkers (weights 2-150) and Abalone (8-1000) it made one piece saturate the curve, and
  Abalone drew 3 of 6 games against a random player at the move cap; with ten and a hundred times
  that scale it won 4 of 4). A finished game scores 1, 0.5 or 0; the match's move cap is a draw.
- **Decisive and anti-decisive moves in the tree**: a node with a win at once keeps only that
  move; one where the adapter says the position is not quiet drops the moves after which the
  opponent wins at once (while another move remains). Only moves that lose at once are left out.
- **A solver** (MCTS-Solver, Winands et al. 2008): a node whose side to move has lost or drawn is
  proven; a node with a child proven lost for its mover is a proven win, one whose children are all
  proven wins for the opponent a proven loss. A proven win is chosen at once, a proven loss never
  while another move remains.
- **Tree reuse**: :meth:`AdapterMcts.search` keeps the tree; the next search starts from the
  node of the position it is given when that position is in the old tree within two plies (our move
  and the reply), keeping its statistics.

Values are stored negamax-style: a node's ``total`` is the sum of its values for the side that
moved into it. Selection is UCB1 with the prior, ``(total + k * prior) / (visits + k) + exploration
* sqrt(ln(parent visits + 1) / (visits + k))``, ``k`` being ``prior_visits``. With a
budget of iterations only, the search is deterministic for a given ``random.Random`` state and
sequence of searches.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from arena.agents.mcts import Budget, SearchResult

#: UCB1's constant for this engine: its values come from an evaluation, which asks for less
#: exploration than random playouts do (sqrt(2)). With node priors, Breakthrough against alpha-beta
#: at 100 ms a move (CPU), 12 games each: 0.7 scored 0-0-12, 0.3 3-0-9.
DEFAULT_EXPLORATION = 0.3
DEFAULT_ROLLOUT_PLIES = 0
#: Plies of best-ranked moves played at most while a leaf is not quiet.
QUIESCENCE_PLIES = 6
DEFAULT_EPSILON = 0.3
DEFAULT_SCALE_FACTOR = 1.0
#: Visits a move's prior (its static value) counts as in its mean. Breakthrough against
#: alpha-beta at 100 ms a move (CPU), exploration 0.3, 12 games each: 1 visit 3-0-9, 4 visits 5-0-7.
DEFAULT_PRIOR_VISITS = 4.0
#: Nodes kept in the tree at most (about 200 bytes each); past it leaves are scored, not expanded.
MAX_NODES = 1_000_000

_UNPROVEN, _WON, _LOST, _DRAWN = 0, 1, 2, 3  # for the side to move at the node


class _Node:
    __slots__ = ("children", "kids", "moves", "pos", "priors", "proven", "total", "visits")

    def __init__(self, pos: Any) -> None:
        self.pos = pos
        self.visits = 0
        self.total = 0.0  # the sum of this node's values for the side that moved into it
        self.proven = _UNPROVEN
        self.moves: list[Any] = []  # the moves searched, set when the node is expanded
        self.priors: list[float] = []  # per move: its static value for the side to move here
        self.kids: list[_Node | None] = []  # per move: its node, once made
        self.children: list[_Node] = []  # the nodes made, in the order they were made


class AdapterMcts:
    """MCTS over ``adapter`` (a SearchAdapter instance); ``rng`` drives every random choice;
    ``max_ply`` is the match's move cap (a draw there)."""

    def __init__(self, adapter: Any, *, rng: random.Random, exploration: float = DEFAULT_EXPLORATION,
                 max_ply: int | None = None, rollout_plies: int = DEFAULT_ROLLOUT_PLIES,
                 epsilon: float = DEFAULT_EPSILON, scale_factor: float = DEFAULT_SCALE_FACTOR,
                 prior_visits: float = DEFAULT_PRIOR_VISITS) -> None:
        self.adapter = adapter
        self.rng = rng
        self.exploration = exploration
        self.max_ply = max_ply if max_ply is not None else 1 << 30
        self.rollout_plies = rollout_plies
        self.epsilon = epsilon
        weights = sorted(abs(w) for w in type(adapter).DEFAULT_WEIGHTS.values() if isinstance(w, int) and w)
        self.scale = max(1.0, scale_factor * (weights[-2] if len(weights) > 1 else weights[0] if weights else 100))
        self._terminal = getattr(adapter, "terminal_score", None)
        self.prior_visits = prior_visits
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
        by_move = {move: kid for move, kid in zip(root.moves, root.kids, strict=True) if kid is not None}
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
        if not root.moves and root.proven == _UNPROVEN:
            self._expand(root)
        node = root
        path = [root]
        value = -1.0
        while node.proven == _UNPROVEN and node.moves:
            index = self._select(node)
            kid = node.kids[index]
            if kid is None:
                if self._nodes >= MAX_NODES:  # no room: the move's static value stands for it
                    value = 1.0 - node.priors[index]
                    break
                kid = node.kids[index] = _Node(self.adapter.play(node.pos, node.moves[index]))
                node.children.append(kid)
                self._nodes += 1
                path.append(kid)
                value = self._expand(kid)
                break
            path.append(kid)
            node = kid
        if value < 0.0:
            value = self._proven_value(node)
        # value is for the side to move at the last node; its mover gets 1 - value, and so on up.
        for visited in reversed(path):
            value = 1.0 - value
            visited.visits += 1
            visited.total += value
        for visited in reversed(path[:-1]):
            self._prove(visited)

    def _select(self, node: _Node) -> int:
        """The index of the move to follow at ``node``: UCB1 over each move's mean, its prior
        counted as ``prior_visits`` visits; a move into a lost node first, one into a won node
        never while another remains."""
        c = self.exploration
        k = self.prior_visits
        log_n = math.log(node.visits + 1)
        best, best_value = 0, -math.inf
        priors = node.priors
        for index, kid in enumerate(node.kids):
            if kid is None:
                value = priors[index] + c * math.sqrt(log_n / k)
            else:
                proven = kid.proven
                if proven == _LOST:
                    return index  # a win for the side to move here
                if proven == _WON:
                    value = -1.0
                else:
                    n = kid.visits + k
                    value = (kid.total + k * priors[index]) / n + c * math.sqrt(log_n / n)
            if value > best_value:
                best, best_value = index, value
        return best

    def _expand(self, node: _Node) -> float:
        """Lists ``node``'s moves (decisive and anti-decisive ones where they decide) with each
        move's static value, proves the node when the game is over there, and returns its value
        for its side to move: exact when proven, else the best of its moves' static values (a
        one-ply search at the leaf)."""
        adapter, pos = self.adapter, node.pos
        terminal = self._terminal(pos) if self._terminal is not None else None
        if terminal is not None:
            node.proven = _DRAWN if terminal == 0 else _WON if terminal > 0 else _LOST
            return self._proven_value(node)
        if adapter.ply(pos) >= self.max_ply:
            node.proven = _DRAWN
            return 0.5
        moves = adapter.moves(pos)
        if not moves:
            node.proven = _LOST
            return 0.0
        self.rng.shuffle(moves)  # equal priors are then tried in a random order
        tactical = adapter.tactical
        ranks = [tactical(pos, move) for move in moves]
        # Decisive and anti-decisive moves in the tree: a win at once is the only move looked at
        # (its node proves this one); where the opponent may threaten one, the moves that leave
        # it a win at once are dropped while another remains. Both only leave out moves that lose.
        children = [adapter.play(pos, move) for move in moves]
        win = next((i for i, rank in enumerate(ranks) if rank > 0 and self._lost(children[i])), None)
        if win is not None:
            node.moves, node.priors, node.kids = [moves[win]], [1.0], [None]
            return 1.0
        if not adapter.quiet(pos):
            safe = [i for i in range(len(moves)) if not self._can_win(children[i])]
            if safe and len(safe) < len(moves):
                moves = [moves[i] for i in safe]
                children = [children[i] for i in safe]
        node.moves = moves
        node.priors = [1.0 - self._position_value(child) for child in children]
        node.kids = [None] * len(moves)
        return max(node.priors)

    def _prove(self, node: _Node) -> None:
        if node.proven != _UNPROVEN:
            return
        if any(c.proven == _LOST for c in node.children):
            node.proven = _WON
            return
        if len(node.children) < len(node.moves):
            return
        proofs = [c.proven for c in node.children]
        if all(p == _WON for p in proofs):
            node.proven = _LOST
        elif all(p in (_WON, _DRAWN) for p in proofs):
            node.proven = _DRAWN

    # --- leaves -------------------------------------------------------------------------------

    @staticmethod
    def _proven_value(node: _Node) -> float:
        return 1.0 if node.proven == _WON else 0.0 if node.proven == _LOST else 0.5

    def _position_value(self, pos: Any) -> float:
        """The static value of ``pos`` for its side to move, 0..1: a short playout (``rollout_plies``
        moves of :meth:`rollout_move`, then best-ranked moves while the position is not quiet)
        scored by the evaluation; exact where the game is over."""
        adapter = self.adapter
        tactical, terminal = adapter.tactical, self._terminal
        flip = False  # whether the side to move at pos is the opponent of the one asked about
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
