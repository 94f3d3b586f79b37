"""Shobu legality with reasons: why a turn is illegal, in words a bot author can act on.

Used by :meth:`arena.games.shobu.rules.ShobuGame.validate_move` and ``outcome``. The fast generator in
:mod:`arena.games.shobu.core` decides the same questions with bit tricks; the tests check that both
agree on every generated and mutated move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.games.base import Color, IllegalMoveError, MoveSyntaxError, Outcome, Termination
from arena.games.shobu import core

if TYPE_CHECKING:
    from arena.games.shobu.rules import ShobuState


def _fmt(pair: tuple[int, int]) -> str:
    return f"({pair[0]},{pair[1]})"


def _is_int_pair(value: Any) -> bool:
    # type() rather than isinstance(): bools (and other int subclasses) are not coordinates.
    return (
        type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int
    )


def _on_board(pair: tuple[int, int]) -> bool:
    return 0 <= pair[0] <= 7 and 0 <= pair[1] <= 7


def _board_name(xy: tuple[int, int]) -> str:
    return core.QUADRANT_NAMES[core.quadrant_of(*xy)] + " board"


def stones_outcome(state: ShobuState) -> Outcome | None:
    """The win of a position where some sub-board lacks a colour, else ``None``.

    If both colours lack a board (possible only in a hand-made position) the player who moved
    last, ``state.turn.other``, wins.
    """
    lacking: dict[Color, int] = {}
    for color, stones in ((Color.BLACK, state.black), (Color.WHITE, state.white)):
        for q in range(4):
            if not stones >> (16 * q) & 0xFFFF:
                lacking[color] = q
                break
    if not lacking:
        return None
    if len(lacking) == 1:
        ((loser, q),) = lacking.items()
        return Outcome(
            Termination.WIN,
            loser.other,
            f"{loser.value} has no stones left on the {core.QUADRANT_NAMES[q]} board",
        )
    winner = state.turn.other
    return Outcome(
        Termination.WIN,
        winner,
        "both colours have a board without stones "
        f"(BLACK: {core.QUADRANT_NAMES[lacking[Color.BLACK]]}, "
        f"WHITE: {core.QUADRANT_NAMES[lacking[Color.WHITE]]}); "
        f"{winner.value}, who moved last, wins",
    )


def check_move(state: ShobuState, move: Any) -> tuple[int, int, int]:
    """``(packed passive origin, packed aggressive origin, heading index)`` of a legal ``move``.

    Raises :class:`MoveSyntaxError` if ``move`` is not a 4-tuple of integer pairs (and ``None``
    for the aggressive heading), :class:`IllegalMoveError` naming the first rule it breaks.
    """
    if not isinstance(move, tuple) or len(move) != 4:
        raise MoveSyntaxError(f"not a Shobu move: {move!r}")
    passive_origin, aggressive_origin, heading, aggressive_heading = move
    for what, pair in (
        ("passive origin", passive_origin),
        ("aggressive origin", aggressive_origin),
        ("heading", heading),
    ):
        if not _is_int_pair(pair):
            raise MoveSyntaxError(f"the {what} must be a pair of integers, got {pair!r}")
    if aggressive_heading is not None and not _is_int_pair(aggressive_heading):
        raise MoveSyntaxError(
            f"the aggressive heading must be a pair of integers, got {aggressive_heading!r}"
        )

    finished = stones_outcome(state)
    if finished is not None:
        raise IllegalMoveError(f"the game is over: {finished.reason}")
    mover = state.turn
    own, opp = (state.black, state.white) if mover is Color.BLACK else (state.white, state.black)

    def stone_at(xy: tuple[int, int]) -> str | None:
        bit = 1 << core.PACKED_OF_XY[xy]
        if own & bit:
            return mover.value
        if opp & bit:
            return mover.other.value
        return None

    def own_stone_origin(xy: tuple[int, int], role: str) -> int:
        if not _on_board(xy):
            raise IllegalMoveError(
                f"the {role} origin {_fmt(xy)} is off the board (x and y go from 0 to 7)"
            )
        holder = stone_at(xy)
        if holder is None:
            raise IllegalMoveError(
                f"the {role} origin {_fmt(xy)} is empty: there is no {mover.value} stone to move"
            )
        if holder != mover.value:
            raise IllegalMoveError(
                f"the {role} origin {_fmt(xy)} holds a {holder} stone; {mover.value} moves only "
                f"{mover.value} stones"
            )
        return core.PACKED_OF_XY[xy]

    if aggressive_heading is not None and aggressive_heading != heading:
        raise IllegalMoveError(
            f"the passive heading {_fmt(heading)} and the aggressive heading "
            f"{_fmt(aggressive_heading)} differ: both moves of a turn use the same heading"
        )
    h = core.HEADING_INDEX.get(heading)
    if h is None:
        raise IllegalMoveError(
            f"heading {_fmt(heading)} is not one of the 16 Shobu headings (x and y each -k, 0 or k "
            "for k = 1 or 2, not both 0)"
        )
    (dx, dy), steps = core.HEADING_DIRECTION[h], core.HEADING_STEPS[h]

    def squares(xy: tuple[int, int]) -> tuple[list[tuple[int, int]], tuple[int, int]]:
        path = [(xy[0] + j * dx, xy[1] + j * dy) for j in range(1, steps + 1)]
        return path, path[-1]

    def stays(xy: tuple[int, int], landing: tuple[int, int], role: str) -> None:
        if not (_on_board(landing) and core.quadrant_of(*landing) == core.quadrant_of(*xy)):
            raise IllegalMoveError(
                f"the {role} move {_fmt(xy)}->{_fmt(landing)} leaves the {_board_name(xy)} "
                "(a stone stays on its own 4x4 board)"
            )

    # The passive move.
    passive = own_stone_origin(passive_origin, "passive")
    passive_quadrant = passive >> 4
    home = core.BLACK_HOME if mover is Color.BLACK else core.WHITE_HOME
    if passive_quadrant not in home:
        raise IllegalMoveError(
            f"the passive origin {_fmt(passive_origin)} is on the {_board_name(passive_origin)}, "
            f"which is not a home board of {mover.value} (its home boards are the "
            f"{'bottom' if mover is Color.BLACK else 'top'} two)"
        )
    path, landing = squares(passive_origin)
    stays(passive_origin, landing, "passive")
    for square in path:
        holder = stone_at(square)
        if holder is not None:
            raise IllegalMoveError(
                f"the passive move {_fmt(passive_origin)}->{_fmt(landing)} is blocked by the "
                f"{holder} stone on {_fmt(square)} (a passive move cannot push)"
            )

    # The aggressive move.
    aggressive = own_stone_origin(aggressive_origin, "aggressive")
    if (aggressive >> 4) & 1 == passive_quadrant & 1:
        column = "left" if passive_quadrant & 1 == 0 else "right"
        other = "right" if column == "left" else "left"
        raise IllegalMoveError(
            f"the aggressive origin {_fmt(aggressive_origin)} is on the "
            f"{_board_name(aggressive_origin)}, the same colour ({column} column) as the passive "
            f"board; the aggressive move must be played on the {other} column"
        )
    path, landing = squares(aggressive_origin)
    stays(aggressive_origin, landing, "aggressive")
    move_text = f"the aggressive move {_fmt(aggressive_origin)}->{_fmt(landing)}"
    occupied = [(square, holder) for square in path if (holder := stone_at(square)) is not None]
    for square, holder in occupied:
        if holder == mover.value:
            raise IllegalMoveError(
                f"{move_text} would push {mover.value}'s own stone on {_fmt(square)}"
            )
    if len(occupied) > 1:
        raise IllegalMoveError(
            f"{move_text} would push two stones, on {_fmt(occupied[0][0])} and "
            f"{_fmt(occupied[1][0])}"
        )
    if occupied:
        pushed = occupied[0][0]
        beyond = (landing[0] + dx, landing[1] + dy)
        if _on_board(beyond) and core.quadrant_of(*beyond) == core.quadrant_of(*landing):
            holder = stone_at(beyond)
            if holder is not None:
                raise IllegalMoveError(
                    f"{move_text} would push the {mover.other.value} stone on {_fmt(pushed)} onto "
                    f"{_fmt(beyond)}, which holds a {holder} stone (a move cannot push two stones)"
                )
    return passive, aggressive, h
