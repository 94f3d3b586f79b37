"""Rich renderables of the Shobu and checkers boards, drawn by their views (:mod:`arena.ui.views`).

Nothing here creates a :class:`rich.console.Console` or prints: the functions return
:class:`rich.text.Text` objects that a caller prints on the console it owns. Every mark is made of
characters as well as colours, so the boards read the same on a console without colour (tests,
``NO_COLOR``, a log file): colours only make them nicer.

Shobu (:func:`shobu_board`): x 0-7 across, y 0-7 down, as in the protocol; the four sub-boards are
drawn as four framed 4x4 boxes, the left (dark) ones and the right (light) ones on differently
coloured backgrounds, White's home boards on top and Black's below, each pair labelled. ``●`` is a
black stone, ``○`` a white one.

Checkers (:func:`checkers_board`): columns 0-7 across and rows 0-7 down, as in the protocol (row 0
at the top, where black starts); each dark square shows its PDN number (1-32) next to its piece,
so a move can be typed straight off the board. ``●``/``○`` are black/white men, ``◉``/``◎`` kings.

Last move (both games, optional): the squares a move left are marked ``◌`` (Shobu) or ``·``
(checkers), the squares it landed on are bracketed ``[●]``, a Shobu stone pushed by it is braced
``{○}`` (or, pushed off the board, an ``×`` where it stood), a jumped checker is an ``×``. The
:func:`legend` line explains the marks.
"""

from __future__ import annotations

import itertools
from typing import Any

from rich.text import Text

from arena.games.base import Game
from arena.games.checkers.rules import CheckersMove, CheckersState, square_number
from arena.games.model import GeneralGame
from arena.games.shobu.rules import ShobuMove, ShobuState

# Backgrounds are mid-tones (WCAG contrast >= 3.3 against both the black and the white pieces), so
# both colours of stone stay readable on every square; the highlights use another hue (blue).
SHOBU_DARK_BOARD = "on #8b5a2b"
SHOBU_LIGHT_BOARD = "on #b08050"
CHECKERS_DARK_SQUARE = "on #5f8a55"
CHECKERS_LIGHT_SQUARE = "on #d8cfb0"
BLACK_PIECE = "bold #0a0a0a"
WHITE_PIECE = "bold #fafafa"
EMPTY_POINT = "#d0b890"
SQUARE_NUMBER = "#e4eedd"
# The last move: where it went (strong) and where it came from or what it removed (soft).
LANDED = "on #2f7fa8"
LEFT = "on #44607a"
REMOVED = "bold #ff5f5f"
FRAME = "dim"
LABEL = "cyan"

SHOBU_STONES = {"x": "●", "o": "○", ".": "·"}
CHECKERS_PIECES = {"b": "●", "w": "○", "B": "◉", "W": "◎"}


def shobu_push(
    previous: ShobuState, state: ShobuState
) -> tuple[tuple[int, int], tuple[int, int] | None] | None:
    """The stone the last turn pushed, from the states before and after it: ``(from, to)``,
    ``to`` being ``None`` when it was pushed off the board; ``None`` when nothing was pushed."""
    victim = "o" if previous.turn.value == "BLACK" else "x"
    before = {(i % 8, i // 8) for i, c in enumerate(previous.board) if c == victim}
    after = {(i % 8, i // 8) for i, c in enumerate(state.board) if c == victim}
    gone, arrived = sorted(before - after), sorted(after - before)
    if not gone:
        return None
    return gone[0], (arrived[0] if arrived else None)


def _shobu_marks(
    state: ShobuState, move: ShobuMove | None, previous: ShobuState | None
) -> dict[tuple[int, int], str]:
    """Square -> ``"landed" | "left" | "pushed" | "removed"`` for the last move's squares."""
    marks: dict[tuple[int, int], str] = {}
    if move is None:
        return marks
    dx, dy = move.heading
    for ox, oy in (move.passive_origin, move.aggressive_origin):
        marks[(ox, oy)] = "left"
    for ox, oy in (move.passive_origin, move.aggressive_origin):
        marks[(ox + dx, oy + dy)] = "landed"
    push = shobu_push(previous, state) if previous is not None else None
    if push is not None:
        source, target = push
        if target is not None:
            marks[target] = "pushed"
        elif source not in marks:
            # Pushed off from a square the aggressor passed over; from its landing square the
            # caller's text has to say it (the aggressor stands there now).
            marks[source] = "removed"
    return marks


def _index(square: tuple[int, int]) -> int:
    return square[0] + 8 * square[1]


def shobu_board(
    state: ShobuState, last_move: ShobuMove | None = None, previous: ShobuState | None = None
) -> Text:
    """The Shobu board of ``state``; ``last_move`` (played from ``previous``, when known) marked.

    ``previous`` lets the view find a stone the move pushed (or pushed off); without it only the
    two moving stones are marked.
    """
    board = state.board
    marks = _shobu_marks(state, last_move, previous)
    text = Text(no_wrap=True, overflow="ignore")
    text.append("      " + "  ".join(str(x) for x in range(4)), style=LABEL)
    text.append("      ")
    text.append("  ".join(str(x) for x in range(4, 8)), style=LABEL)
    text.append("   x\n", style=LABEL)
    for half, (owner, colour_note) in enumerate((("WHITE", "top"), ("BLACK", "bottom"))):
        text.append("    ┌─── dark ───┐  ┌── light ───┐\n", style=FRAME)
        for local_y in range(4):
            y = 4 * half + local_y
            text.append(f"  {y} ", style=LABEL)
            for side in range(2):
                text.append("│", style=FRAME)
                background = SHOBU_DARK_BOARD if side == 0 else SHOBU_LIGHT_BOARD
                for local_x in range(4):
                    x = 4 * side + local_x
                    text.append_text(_shobu_cell(board[x + 8 * y], marks.get((x, y)), background))
                text.append("│", style=FRAME)
                if side == 0:
                    text.append("  ")
            text.append(f" {y}", style=LABEL)
            if local_y == 1:
                text.append(f"   {owner}'s home boards", style="bold")
            elif local_y == 2:
                text.append(f"   ({colour_note} half)", style="dim")
            text.append("\n")
        text.append("    └────────────┘  └────────────┘\n", style=FRAME)
    text.append("  y", style=LABEL)
    text.rstrip()
    return text


def _shobu_cell(symbol: str, mark: str | None, background: str) -> Text:
    glyph = SHOBU_STONES[symbol]
    colour = BLACK_PIECE if symbol == "x" else WHITE_PIECE if symbol == "o" else EMPTY_POINT
    if mark == "landed":
        return Text.assemble(("[", f"bold {LANDED}"), (glyph, f"{colour} {LANDED}"), ("]", f"bold {LANDED}"))
    if mark == "pushed":
        return Text.assemble(("{", f"bold {LEFT}"), (glyph, f"{colour} {LEFT}"), ("}", f"bold {LEFT}"))
    if mark == "left":
        return Text(" ◌ ", style=f"{EMPTY_POINT} {LEFT}")
    if mark == "removed":
        return Text(" × ", style=f"{REMOVED} {background}")
    return Text(f" {glyph} ", style=f"{colour} {background}")


def _checkers_marks(move: CheckersMove | None) -> dict[tuple[int, int], str]:
    marks: dict[tuple[int, int], str] = {}
    if move is None:
        return marks
    for (c1, r1), (c2, r2) in itertools.pairwise(move.path):
        if abs(c2 - c1) == 2:
            marks[((c1 + c2) // 2, (r1 + r2) // 2)] = "removed"
    for square in move.path[1:-1]:
        marks[square] = "via"
    marks[move.path[0]] = "left"
    marks[move.path[-1]] = "landed"
    return marks


def checkers_board(
    state: CheckersState, last_move: CheckersMove | None = None, *, numbers: bool = True
) -> Text:
    """The checkers board of ``state`` with ``last_move`` marked; ``numbers`` shows the PDN number
    of every dark square (on by default: it is what the human types)."""
    pieces: dict[tuple[int, int], str] = {}
    for col in range(8):
        for row in range(8):
            if (col + row) % 2 == 1:
                bit = 1 << (square_number(col, row) - 1)
                if state.black & bit:
                    pieces[(col, row)] = "B" if state.kings & bit else "b"
                elif state.white & bit:
                    pieces[(col, row)] = "W" if state.kings & bit else "w"
    marks = _checkers_marks(last_move)
    text = Text(no_wrap=True, overflow="ignore")
    text.append("     " + "".join(f"  {c}  " for c in range(8)) + "  col\n", style=LABEL)
    text.append("    ┌" + "─" * 40 + "┐\n", style=FRAME)
    for row in range(8):
        text.append(f"  {row} ", style=LABEL)
        text.append("│", style=FRAME)
        for col in range(8):
            if (col + row) % 2 == 0:
                text.append("     ", style=CHECKERS_LIGHT_SQUARE)
                continue
            text.append_text(
                _checkers_cell(pieces.get((col, row)), square_number(col, row), marks.get((col, row)), numbers)
            )
        text.append("│", style=FRAME)
        first = 4 * row + 1
        text.append(f" {row}", style=LABEL)
        if numbers:
            text.append(f"   squares {first}-{first + 3}", style="dim")
        text.append("\n")
    text.append("    └" + "─" * 40 + "┘\n", style=FRAME)
    text.append("  row", style=LABEL)
    return text


def _checkers_cell(piece: str | None, number: int, mark: str | None, numbers: bool) -> Text:
    """Five characters: a marker or space, the piece (or a blank), the number, a marker or space."""
    background = LANDED if mark == "landed" else LEFT if mark in ("left", "via") else CHECKERS_DARK_SQUARE
    if piece is not None:
        glyph, glyph_style = CHECKERS_PIECES[piece], BLACK_PIECE if piece in "bB" else WHITE_PIECE
    elif mark == "removed":
        glyph, glyph_style = "×", REMOVED
    elif mark in ("left", "via"):
        glyph, glyph_style = "·", "bold"
    else:
        glyph, glyph_style = " ", ""
    opening, closing = ("[", "]") if mark == "landed" else (" ", " ")
    label = f"{number:>2}" if numbers else "  "
    return Text.assemble(
        (opening, f"bold {background}"),
        (glyph, f"{glyph_style} {background}"),
        (label, f"{SQUARE_NUMBER} {background}"),
        (closing, f"bold {background}"),
    )


def legend(game_name: str) -> Text:
    """One line explaining the symbols of the registered game ``game_name``'s board."""
    from arena.games.registry import get_game
    from arena.ui.views import view_for

    return view_for(get_game(game_name)).legend(get_game(game_name))


def render_board(game: Game[Any, Any] | GeneralGame[Any, Any], state: Any, last_move: Any = None, previous: Any = None) -> Text:
    """The board of ``state`` for ``game`` as its view draws it (:func:`arena.ui.views.view_for`),
    ``last_move`` marked; ``previous`` is the state before ``last_move`` (Shobu shows a push)."""
    from arena.ui.views import view_for

    return view_for(game).board(game, state, last_move, previous)


__all__ = ["checkers_board", "legend", "render_board", "shobu_board", "shobu_push"]
