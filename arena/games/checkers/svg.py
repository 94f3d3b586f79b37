"""Checkers as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws the 8x8 board with row 0 at the top (where Black starts), as in the
protocol, each dark square numbered 1-32 (PDN), men as discs and kings as discs with a ring. The
last move's squares are outlined and its jumped pieces crossed out where they stood.
"""

from __future__ import annotations

from typing import Any

CELL = 44
MARGIN = 8


def _pieces(svg: str) -> tuple[str, ...]:
    """``svg``'s tags, each from a ``<`` up to the next (see :func:`board_svg_pieces`)."""
    return tuple("<" + part for part in svg.split("<")[1:])


def _cells() -> tuple[tuple[tuple[str, ...], int, tuple[int, int]], ...]:
    """Per square, row by row: its background pieces (a dark square's number included), its bit
    (0: a light square) and its ``(col, row)``."""
    from arena.games.checkers.rules import square_number

    cells = []
    for row in range(8):
        for col in range(8):
            x, y = MARGIN + col * CELL, MARGIN + row * CELL
            dark = (col + row) % 2 == 1
            svg = f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{"#5f8a55" if dark else "#d8cfb0"}"/>'
            if not dark:
                cells.append((_pieces(svg), 0, (col, row)))
                continue
            number = square_number(col, row)
            svg += f'<text x="{x + 3}" y="{y + 11}" font-size="9" fill="#e8f0e0">{number}</text>'
            cells.append((_pieces(svg), 1 << (number - 1), (col, row)))
    return tuple(cells)


def _marks(number: int) -> tuple[str, str, str, tuple[str, ...], str]:
    """Dark square ``number``'s outline (the last move's), black man, white man, king's ring and
    cross (a piece jumped by the last move)."""
    from arena.games.checkers.rules import square_coords

    col, row = square_coords(number)
    x, y = MARGIN + col * CELL, MARGIN + row * CELL
    cx, cy = x + CELL // 2, y + CELL // 2
    man = '<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{}" stroke-width="1.5"/>'
    return ((f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
            'stroke="#1e64c8" stroke-width="3"/>'),
            man.format(cx, cy, CELL // 2 - 7, "#111111", "#000000"),
            man.format(cx, cy, CELL // 2 - 7, "#fafafa", "#555555"),
            (f'<circle cx="{cx}" cy="{cy}" r="{CELL // 2 - 13}" fill="none" stroke="#d4a017" stroke-width="3"/>',),
            (f'<path d="M{x + 10} {y + 10}L{x + CELL - 10} {y + CELL - 10}M{x + CELL - 10} '
            f'{y + 10}L{x + 10} {y + CELL - 10}" stroke="#c0392b" stroke-width="4"/>'))


_SIZE = 2 * MARGIN + 8 * CELL
_HEAD = ((f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_SIZE} {_SIZE}" width="{_SIZE}" '
         f'height="{_SIZE}" role="img" aria-label="Checkers board">'),
         f'<rect width="{_SIZE}" height="{_SIZE}" fill="#3b2a1a"/>')
_CELLS = _cells()
_MARKS = {1 << (number - 1): _marks(number) for number in range(1, 33)}


def board_svg(state: Any, last_move: Any = None) -> str:
    """A self-contained ``<svg>`` of ``state`` (a :class:`arena.games.checkers.rules.CheckersState`);
    ``last_move`` (a CheckersMove) is marked when given."""
    return "".join(board_svg_pieces(state, last_move))


def board_svg_pieces(state: Any, last_move: Any = None) -> list[str]:
    """:func:`board_svg` as the list of its tags, each from a ``<`` up to the next (their join is
    the picture): strings made once, so the report (:mod:`arena.report.frames`) need not cut and
    look up each position's picture anew."""
    parts = list(_HEAD)
    path = set(last_move.path) if last_move is not None else ()
    black, white, kings = state.black, state.white, state.kings
    for background, bit, square in _CELLS:
        parts += background
        if not bit:
            continue
        outline, black_man, white_man, ring, _ = _MARKS[bit]
        if square in path:
            parts.append(outline)
        if black & bit:
            parts.append(black_man)
        elif white & bit:
            parts.append(white_man)
        else:
            continue
        if kings & bit:
            parts += ring
    captured = last_move.captured if last_move is not None else 0
    while captured:
        bit = captured & -captured
        parts.append(_MARKS[bit][4])
        captured ^= bit
    parts.append("</svg>")
    return parts
