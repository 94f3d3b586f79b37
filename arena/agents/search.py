"""A game-independent search engine: negamax with alpha-beta, iterative deepening and a clock.

Standard library only (like :mod:`arena.games`), so the search bots run with any Python >= 3.11.

The engine works on a :class:`SearchGame`, a small adapter that a game provides for speed (raw
positions instead of :class:`arena.games.base.Game` states): :mod:`arena.agents.eval_shobu` and
:mod:`arena.agents.eval_checkers`. Scores are integers from the point of view of the side to move;
a side to move with no legal move has lost (true of both shipped games), which the engine scores as
``-(WIN_SCORE - ply)`` so that quicker wins and slower losses are preferred. A position whose move
counter has reached the match's move cap is a draw (0), unless the side to move has already lost:
a win on the capping move counts, as in arena's rules.

:class:`Searcher` implements:

- ``alphabeta``: principal-variation negamax (fail-soft) with a transposition table (optional),
  move ordering (table move, then tactical moves as the adapter ranks them, then two killer moves
  per ply, then the history heuristic), quiescence where the adapter says a position is not quiet,
  and a one-ply extension for forced moves where the adapter asks for it;
- ``minimax``: plain negamax over the fixed-depth tree: no pruning, no quiescence, no extensions
  (for comparison and teaching);

both under iterative deepening with a deadline. An iteration cut short by the clock still counts
when its first root move was fully searched: every later root move was then only kept if it proved
better.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

WIN_SCORE = 1_000_000
MAX_PLY = 96  # deepest search ply, quiescence and extensions included
MATE_BOUND = WIN_SCORE - 1000  # scores beyond this are "a win/loss in N plies"
_INFINITY = WIN_SCORE + 1
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CHECK_EVERY = 32  # nodes between two looks at the clock
_TABLE_LIMIT = 400_000  # transposition-table entries kept before it is cleared wholesale

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)


class SearchGame(Protocol[P, M]):
    """What the engine needs from a game, on raw positions ``P`` and hashable moves ``M``."""

    #: Whether a node with exactly one legal move is searched one ply deeper.
    extend_single_reply: bool

    def moves(self, pos: P) -> list[M]:
        """Every legal move of the side to move; empty when it has lost (won game or no move)."""
        ...

    def play(self, pos: P, move: M) -> P:
        """The position after the legal ``move``."""
        ...

    def key(self, pos: P) -> Hashable:
        """A transposition-table key: equal for equal positions (side to move and counter included)."""
        ...

    def ply(self, pos: P) -> int:
        """The game's move counter (for the draw cap)."""
        ...

    def has_moves(self, pos: P) -> bool:
        """Whether the side to move has a legal move (cheaper than listing them)."""
        ...

    def evaluate(self, pos: P) -> int:
        """Static score for the side to move, which has a legal move; well inside +-MATE_BOUND."""
        ...

    def quiet(self, pos: P) -> bool:
        """False where a static score would mislead (e.g. a capture is pending): quiescence goes on."""
        ...

    def tactical(self, pos: P, move: M) -> int:
        """A positive ordering rank for captures/pushes (bigger first), 0 for a quiet move."""
        ...


class SearchAdapter(SearchGame[P, M], Protocol):
    """A :class:`SearchGame` as a game's registry entry names it (``GameSpec.search``), which lets
    the ``hyperparameters`` agent (:mod:`arena.agents.search_bot`) play the game.

    The class has ``DEFAULT_WEIGHTS`` (evaluation weights by name: a hyperparameters file's
    ``evaluation`` overrides them by name, and only those names are accepted) and is built as
    ``Adapter(weights)``. It may also have ``TABLE_WEIGHTS`` (name -> length): weights that are lists
    of integers (piece-square tables), accepted in ``evaluation`` beside the scalar ones (checkers:
    ``manTable``, ``kingTable``, which the checkers system's files use). Optionally it has
    ``terminal_score(pos) -> int | None``: the engine asks
    it first at every node; None means "not over" (or over only because the side to move has no
    move, a loss, which ``moves`` says by being empty), 0 a draw by the rules, a positive number a
    win and a negative one a loss for the side to move (the engine turns both into scores that
    prefer quick wins).
    """

    DEFAULT_WEIGHTS: dict[str, int]

    def from_state(self, state: Any) -> P:
        """The raw position of a rules state (:meth:`arena.games.base.Game.initial_state`'s kind)."""
        ...

    def to_game_move(self, move: M) -> Any:
        """The rules' move for a raw move (checked by the caller with ``validate_move``)."""
        ...


class OutOfTime(Exception):
    """Raised inside the tree when the deadline passes; never escapes :meth:`Searcher.search`."""


@dataclass
class SearchResult(Generic[M]):
    """What a search found: ``move`` (None only if there was no legal move), its ``score`` for the
    side to move, the deepest fully or usefully searched ``depth``, ``nodes`` visited and
    ``seconds`` spent."""

    move: M | None
    score: int
    depth: int
    nodes: int
    seconds: float


def is_win_score(score: int) -> bool:
    return abs(score) >= MATE_BOUND


class Searcher(Generic[P, M]):
    """Iterative-deepening search over one :class:`SearchGame`; keeps its tables between moves.

    ``algorithm`` is ``"alphabeta"`` or ``"minimax"``; ``max_moves`` is the match's move cap (the
    draw horizon); ``rng`` shuffles root moves before ordering so that equal moves vary.
    """

    def __init__(
        self,
        game: SearchGame[P, M],
        *,
        algorithm: str = "alphabeta",
        use_table: bool = True,
        max_moves: int | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if algorithm not in ("alphabeta", "minimax"):
            raise ValueError(f"unknown search algorithm {algorithm!r}")
        self.game = game
        self.algorithm = algorithm
        self.use_table = use_table
        self.max_moves = max_moves if max_moves is not None else 1 << 30
        self.rng = rng or random.Random()
        self.table: dict[Hashable, tuple[int, int, int, Any]] = {}
        self.history: dict[Any, int] = {}
        self.killers: list[list[Any]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self._deadline = float("inf")
        self._terminal = getattr(game, "terminal_score", None)

    # --- the driver ---------------------------------------------------------------------------

    def search(self, pos: P, *, time_ms: float | None = None, max_depth: int = 64) -> SearchResult[M]:
        """The best move found for ``pos`` within ``time_ms`` (None: no clock) and ``max_depth``.

        Depth 1 is always completed when the clock allows at all; deeper iterations stop at the
        deadline. A forced win or loss found ends the deepening early. A lone legal move is
        returned at once, unsearched (depth 0, score 0).
        """
        started = time.perf_counter()
        self._deadline = float("inf") if time_ms is None else started + max(0.0, time_ms) / 1000.0
        self.nodes = 0
        self.killers = [[None, None] for _ in range(MAX_PLY + 2)]
        self._age_history()
        if len(self.table) > _TABLE_LIMIT:
            self.table.clear()

        moves = self.game.moves(pos)
        if not moves:
            return SearchResult(None, -WIN_SCORE, 0, 0, time.perf_counter() - started)
        if len(moves) == 1:
            return SearchResult(moves[0], 0, 0, 0, time.perf_counter() - started)
        self.rng.shuffle(moves)  # equal moves are then tried (and kept) in a random order
        root_order = self._ordered(pos, moves, self._table_move(pos), 0)
        best_move, best_score, reached = root_order[0], -_INFINITY, 0
        for depth in range(1, max(1, max_depth) + 1):
            try:
                score, move, root_order = self._root(pos, root_order, depth)
            except OutOfTime as partial:
                found = partial.args[0] if partial.args else None
                if found is not None:  # the first root move was finished: the result is sound
                    best_score, best_move = found
                    reached = depth
                break
            best_score, best_move, reached = score, move, depth
            elapsed = time.perf_counter() - started
            if is_win_score(score) and WIN_SCORE - abs(score) <= depth:
                break  # a forced result within the searched depth: deeper cannot change it
            if time_ms is not None and elapsed * 1000.0 > time_ms * 0.5:
                break  # the next iteration would almost surely not finish
        return SearchResult(best_move, best_score, reached, self.nodes, time.perf_counter() - started)

    def _root(self, pos: P, moves: list[M], depth: int) -> tuple[int, M, list[M]]:
        """One iteration over the root moves (previous best first). Returns the score, the best
        move and the order for the next iteration. On timeout raises OutOfTime carrying
        ``(score, move)`` if at least the first move was finished, else nothing."""
        alpha, beta = -_INFINITY, _INFINITY
        best_move, best_score = moves[0], -_INFINITY
        scored: list[tuple[int, int, M]] = []
        for index, move in enumerate(moves):
            child = self.game.play(pos, move)
            try:
                if self.algorithm == "minimax":
                    score = -self._minimax(child, depth - 1, 1)
                elif index == 0:
                    score = -self._alphabeta(child, depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._alphabeta(child, depth - 1, -alpha - 1, -alpha, 1)
                    if alpha < score < beta:
                        score = -self._alphabeta(child, depth - 1, -beta, -score, 1)
            except OutOfTime:
                raise OutOfTime((best_score, best_move) if index > 0 else None) from None
            scored.append((score, -index, move))
            if score > best_score:
                best_score, best_move = score, move
                if self.algorithm == "alphabeta":
                    alpha = max(alpha, score)
        scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
        if self.use_table:
            self._store(pos, depth, best_score, _EXACT, best_move, 0)
        return best_score, best_move, [move for _, _, move in scored]

    # --- the tree -----------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0 and time.perf_counter() > self._deadline:
            raise OutOfTime()

    def _over(self, pos: P, ply: int) -> int | None:
        """The score of a position the adapter's ``terminal_score`` says is over, else None."""
        assert self._terminal is not None
        value = self._terminal(pos)
        if value is None:
            return None
        return 0 if value == 0 else (WIN_SCORE - ply if value > 0 else ply - WIN_SCORE)

    def _alphabeta(self, pos: P, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        game = self.game
        if self._terminal is not None:
            over = self._over(pos, ply)
            if over is not None:
                return over
        if depth <= 0 or ply >= MAX_PLY:
            # A horizon node: settle it without listing its moves when it is quiet.
            if not game.has_moves(pos):
                return ply - WIN_SCORE
            if game.ply(pos) >= self.max_moves:
                return 0
            if ply >= MAX_PLY or game.quiet(pos):
                return game.evaluate(pos)
            depth = 0  # quiescence: keep playing the pending tactical moves
            moves = game.moves(pos)
        else:
            moves = game.moves(pos)
            if not moves:
                return ply - WIN_SCORE
            if game.ply(pos) >= self.max_moves:
                return 0
            if len(moves) == 1 and game.extend_single_reply:
                depth += 1

        tt_move = None
        key = None
        if self.use_table:
            key = game.key(pos)
            entry = self.table.get(key)
            if entry is not None:
                e_depth, e_flag, e_score, tt_move = entry
                if e_depth >= depth:
                    e_score = _from_table(e_score, ply)
                    if e_flag == _EXACT:
                        return e_score
                    if e_flag == _LOWER and e_score >= beta:
                        return e_score
                    if e_flag == _UPPER and e_score <= alpha:
                        return e_score

        original_alpha = alpha
        best_score, best_move = -_INFINITY, None
        for index, move in enumerate(self._ordered(pos, moves, tt_move, ply)):
            child = game.play(pos, move)
            if index == 0:
                score = -self._alphabeta(child, depth - 1, -beta, -alpha, ply + 1)
            else:
                score = -self._alphabeta(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._alphabeta(child, depth - 1, -beta, -score, ply + 1)
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._reward(pos, move, depth, ply)
                        break

        if key is not None:
            flag = _LOWER if best_score >= beta else _UPPER if best_score <= original_alpha else _EXACT
            self._store(pos, depth, best_score, flag, best_move, ply, key)
        return best_score

    def _minimax(self, pos: P, depth: int, ply: int) -> int:
        """Plain negamax: every move of every node, no pruning (the table only stores exact values)."""
        self._tick()
        game = self.game
        if self._terminal is not None:
            over = self._over(pos, ply)
            if over is not None:
                return over
        if depth <= 0 or ply >= MAX_PLY:
            if not game.has_moves(pos):
                return ply - WIN_SCORE
            return 0 if game.ply(pos) >= self.max_moves else game.evaluate(pos)
        moves = game.moves(pos)
        if not moves:
            return ply - WIN_SCORE
        if game.ply(pos) >= self.max_moves:
            return 0
        key = game.key(pos) if self.use_table else None
        if key is not None:
            entry = self.table.get(key)
            if entry is not None and entry[0] >= depth:
                return _from_table(entry[2], ply)
        best = -_INFINITY
        for move in moves:
            best = max(best, -self._minimax(game.play(pos, move), depth - 1, ply + 1))
        if key is not None:
            self._store(pos, depth, best, _EXACT, None, ply, key)
        return best

    # --- tables and ordering ------------------------------------------------------------------

    def _table_move(self, pos: P) -> M | None:
        if not self.use_table:
            return None
        entry = self.table.get(self.game.key(pos))
        return entry[3] if entry is not None else None

    def _store(self, pos: P, depth: int, score: int, flag: int, move: Any, ply: int,
               key: Hashable | None = None) -> None:
        self.table[self.game.key(pos) if key is None else key] = (depth, flag, _to_table(score, ply), move)

    def _ordered(self, pos: P, moves: list[M], tt_move: M | None, ply: int) -> list[M]:
        """Table move, then tactical moves (by rank), then killers, then by history score."""
        killer1, killer2 = self.killers[ply]
        history = self.history
        tactical = self.game.tactical

        def rank(move: M) -> int:
            if move == tt_move:
                return 1 << 62
            value = tactical(pos, move)
            if value:
                return (1 << 50) + value
            if move == killer1:
                return 1 << 49
            if move == killer2:
                return (1 << 49) - 1
            return history.get(move, 0)

        return sorted(moves, key=rank, reverse=True)

    def _reward(self, pos: P, move: M, depth: int, ply: int) -> None:
        """A quiet move caused a cut-off: remember it as a killer and in the history table."""
        if self.game.tactical(pos, move):
            return
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1] = killers[0]
            killers[0] = move
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _age_history(self) -> None:
        """Halve history scores between searches so old cut-offs fade."""
        if len(self.history) > 50_000:
            self.history.clear()
        else:
            for move in list(self.history):
                self.history[move] >>= 1


def _to_table(score: int, ply: int) -> int:
    """Win/loss scores are stored relative to the node, not the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score
