"""The search adapter for tic-tac-toe: lets arena's own search agent (``hyperparameters``) play it.

It follows :class:`arena.agents.search.SearchAdapter` by shape (a Protocol: nothing to inherit, no
arena import needed). A position is the 9-character cell string of
:class:`arena_tictactoe.rules.TicTacToeState`; a move is the cell index, the same as the rules'.

The engine scores "side to move has no legal move" as a loss for it, which is right for a won
position (the previous player completed a line). A full board without a line is a draw instead:
:meth:`TicTacToeSearch.terminal_score` says 0 there, and the engine asks it first.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from arena_tictactoe.rules import CELLS, EMPTY, LINES, winning_line

Position = str


class TicTacToeSearch:
    """Evaluation: ``line`` per mark in a line the opponent has not blocked (for the side to move,
    minus the same for the opponent), ``centre`` for holding b2."""

    DEFAULT_WEIGHTS: ClassVar[dict[str, int]] = {"line": 10, "centre": 4}
    extend_single_reply = False

    def __init__(self, weights: Mapping[str, int] | None = None) -> None:
        merged = dict(self.DEFAULT_WEIGHTS)
        merged.update(weights or {})
        self.weights = merged
        self._line, self._centre = merged["line"], merged["centre"]

    # -- the bridges to the rules ----------------------------------------------------------------

    def from_state(self, state: Any) -> Position:
        return str(state.cells)

    def to_game_move(self, move: int) -> int:
        return move

    # -- the SearchGame protocol -------------------------------------------------------------------

    @staticmethod
    def _mine(pos: Position) -> tuple[str, str]:
        """(mark of the side to move, the opponent's)."""
        return ("x", "o") if pos.count(EMPTY) % 2 == 1 else ("o", "x")

    def moves(self, pos: Position) -> list[int]:
        if winning_line(pos) is not None:
            return []  # the previous player won: the side to move has lost
        return [i for i in range(CELLS) if pos[i] == EMPTY]

    def terminal_score(self, pos: Position) -> int | None:
        """0 for a full board without a line (a draw); None otherwise (a win shows as no moves)."""
        return 0 if EMPTY not in pos and winning_line(pos) is None else None

    def play(self, pos: Position, move: int) -> Position:
        return pos[:move] + self._mine(pos)[0] + pos[move + 1:]

    def key(self, pos: Position) -> Hashable:
        return pos

    def ply(self, pos: Position) -> int:
        return CELLS - pos.count(EMPTY)

    def has_moves(self, pos: Position) -> bool:
        return EMPTY in pos and winning_line(pos) is None

    def quiet(self, pos: Position) -> bool:
        return True  # no captures: the static score never misleads more than one ply

    def tactical(self, pos: Position, move: int) -> int:
        """2 for a move completing our line, 1 for one blocking theirs, 0 otherwise."""
        me, them = self._mine(pos)
        rank = 0
        for line in LINES:
            if move in line:
                others = [pos[i] for i in line if i != move]
                if others == [me, me]:
                    return 2
                if others == [them, them]:
                    rank = 1
        return rank

    def evaluate(self, pos: Position) -> int:
        me, them = self._mine(pos)
        score = 0
        for line in LINES:
            marks = [pos[i] for i in line]
            if them not in marks:
                score += self._line * marks.count(me)
            if me not in marks:
                score -= self._line * marks.count(them)
        if pos[4] == me:
            score += self._centre
        elif pos[4] == them:
            score -= self._centre
        return score


__all__ = ["TicTacToeSearch"]
