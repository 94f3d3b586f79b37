"""Why a checkers path is not a legal move: one precise, human sentence.

Standard library only. Legality itself is decided by membership in the legal move list; this
module only finds the first rule a rejected path breaks, by replaying it hop by hop, so that a bot
author (or a human at the terminal) learns what was wrong. Squares are named ``(col,row) [PDN n]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from arena.games.base import Color
from arena.games.checkers.board import (
    BLACK_CROWN,
    BLACK_MAN_JUMPS,
    FULL,
    INDEX_OF,
    KING_JUMPS,
    WHITE_CROWN,
    WHITE_MAN_JUMPS,
)


class _Position(Protocol):  # read-only, as a CheckersState (a NamedTuple) has them
    @property
    def black(self) -> int: ...
    @property
    def white(self) -> int: ...
    @property
    def kings(self) -> int: ...
    @property
    def turn(self) -> Color: ...


def square_name(square: tuple[int, int]) -> str:
    """``"(3,2) [PDN 10]"`` for a dark square, ``"(c,r)"`` for any other."""
    index = INDEX_OF.get(square)
    if index is None:
        return f"({square[0]},{square[1]})"
    return f"({square[0]},{square[1]}) [PDN {index + 1}]"


def _bit(square: tuple[int, int]) -> int:
    return 1 << INDEX_OF[square]


def explain_illegal(
    state: _Position,
    path: Sequence[tuple[int, int]],
    legal: Sequence[Any],
    describe: Callable[[Any], str],
) -> str:
    """The reason ``path`` is not among ``legal`` (the legal moves of ``state``, each with
    ``.path`` and ``.captured``); ``describe`` names a legal move in PDN for suggestions."""
    for col, row in path:
        if not (0 <= col < 8 and 0 <= row < 8):
            return f"square ({col},{row}) is off the board (columns and rows run 0-7)"
    for square in path:
        if square not in INDEX_OF:
            return (
                f"square {square_name(square)} is a light square: pieces stand on dark squares"
                " only, where col+row is odd"
            )
    mover = state.turn
    black = mover is Color.BLACK
    me, them = (state.black, state.white) if black else (state.white, state.black)
    start = path[0]
    start_bit = _bit(start)
    if not (me | them) & start_bit:
        return f"there is no piece on {square_name(start)}"
    if them & start_bit:
        return f"the piece on {square_name(start)} is {mover.other.value}'s; {mover.value} is to move"
    if not legal:
        return f"{mover.value} has no legal move"
    king = bool(state.kings & start_bit)
    hops = list(itertools.pairwise(path))
    for a, b in hops:
        dc, dr = b[0] - a[0], b[1] - a[1]
        if abs(dc) != abs(dr) or abs(dc) not in (1, 2):
            return (
                f"{square_name(a)} to {square_name(b)} is neither a diagonal step nor a jump"
                " (no flying kings: one square, or two when jumping)"
            )

    def backwards(a: tuple[int, int], b: tuple[int, int]) -> str | None:
        if king or (b[1] > a[1]) == black:
            return None
        direction = "down (row+1)" if black else "up (row-1)"
        return (
            f"{square_name(a)} to {square_name(b)} goes backwards: a {mover.value} man moves"
            f" and captures forward only, {direction}"
        )

    captures = [m for m in legal if m.captured]
    empty = FULL ^ (state.black | state.white) | start_bit
    if any(abs(b[0] - a[0]) == 1 for a, b in hops):
        if len(path) > 2:
            return "a step moves one square and ends the move: only jumps can be chained"
        target = path[1]
        wrong_way = backwards(start, target)
        if wrong_way:
            return wrong_way
        if not empty & _bit(target):
            return f"{square_name(target)} is occupied"
        if captures:
            return f"capturing is mandatory: {mover.value} must capture ({_list(captures, describe)})"
        return f"{describe_path(path)} is not a legal move"
    # A jump sequence: replay it.
    table = KING_JUMPS if king else (BLACK_MAN_JUMPS if black else WHITE_MAN_JUMPS)
    crown = 0 if king else (BLACK_CROWN if black else WHITE_CROWN)
    remaining = them
    jumped = 0
    for number, (a, b) in enumerate(hops):
        over = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        over_bit, land_bit = _bit(over), _bit(b)
        wrong_way = backwards(a, b)
        if wrong_way:
            return wrong_way
        if jumped & over_bit:
            return (
                f"the piece on {square_name(over)} was already jumped in this move: a piece is"
                " jumped at most once"
            )
        if not remaining & over_bit:
            owner = f"a {mover.value} piece" if me & over_bit else "an empty square"
            return f"{square_name(a)} to {square_name(b)} jumps over {owner} on {square_name(over)}"
        if not empty & land_bit:
            return f"the landing square {square_name(b)} is occupied"
        empty = (empty | _bit(a)) ^ land_bit
        remaining ^= over_bit
        jumped |= over_bit
        if land_bit & crown and number < len(hops) - 1:
            return (
                f"the man is crowned on {square_name(b)} and crowning ends the move: it cannot"
                " jump on"
            )
    end = path[-1]
    end_bit = _bit(end)
    if not end_bit & crown:
        for over_bit, land_bit, _ in table[INDEX_OF[end]]:
            if remaining & over_bit and empty & land_bit:
                return (
                    f"the multi-jump must be completed: the piece on {square_name(end)} can still"
                    f" jump ({_list([m for m in captures if _extends(m.path, path)], describe)})"
                )
    return f"{describe_path(path)} is not a legal move"


def describe_path(path: Sequence[tuple[int, int]]) -> str:
    """The squares of ``path`` joined by ``-``, by PDN number where they have one."""
    return "-".join(str(INDEX_OF[sq] + 1) if sq in INDEX_OF else f"({sq[0]},{sq[1]})" for sq in path)


def _extends(full: Sequence[tuple[int, int]], prefix: Sequence[tuple[int, int]]) -> bool:
    return len(full) > len(prefix) and tuple(full[: len(prefix)]) == tuple(prefix)


def _list(moves: Sequence[Any], describe: Callable[[Any], str]) -> str:
    shown = ", ".join(describe(m) for m in moves[:6])
    return shown + (", ..." if len(moves) > 6 else "")
