"""Checkers as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws the 8x8 board with row 0 at the top (where Black starts), as in the
protocol, each dark square numbered 1-32 (PDN), men as discs and kings as discs with a ring. The
last move's squares are outlined and its jumped pieces crossed out where they stood.
"""

from __future__ import annotations

from typing import Any

CELL = 44
MARGIN = 8


def board_svg(state: Any, last_move: Any = None) -> str:
    """A self-contained ``<svg>`` of ``state`` (a :class:`arena.games.checkers.CheckersState`);
    ``last_move`` (a CheckersMove) is marked when given."""
    from arena.games.checkers import square_number

    size = 2 * MARGIN + 8 * CELL
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" '
              f'height="{size}" role="img" aria-label="Checkers board">'),
             f'<rect width="{size}" height="{size}" fill="#3b2a1a"/>']
    path = set(last_move.path) if last_move is not None else set()
    for row in range(8):
        for col in range(8):
            x, y = MARGIN + col * CELL, MARGIN + row * CELL
            dark = (col + row) % 2 == 1
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
                         f'fill="{"#5f8a55" if dark else "#d8cfb0"}"/>')
            if not dark:
                continue
            number = square_number(col, row)
            parts.append(f'<text x="{x + 3}" y="{y + 11}" font-size="9" fill="#e8f0e0">{number}</text>')
            if (col, row) in path:
                parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                             'stroke="#1e64c8" stroke-width="3"/>')
            bit = 1 << (number - 1)
            if state.black & bit or state.white & bit:
                fill, stroke = ("#111111", "#000000") if state.black & bit else ("#fafafa", "#555555")
                cx, cy = x + CELL // 2, y + CELL // 2
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL // 2 - 7}" fill="{fill}" '
                             f'stroke="{stroke}" stroke-width="1.5"/>')
                if state.kings & bit:
                    parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL // 2 - 13}" fill="none" '
                                 'stroke="#d4a017" stroke-width="3"/>')
    if last_move is not None and last_move.captured:
        for number in range(1, 33):
            if last_move.captured & (1 << (number - 1)):
                from arena.games.checkers import square_coords

                col, row = square_coords(number)
                x, y = MARGIN + col * CELL, MARGIN + row * CELL
                parts.append(f'<path d="M{x + 10} {y + 10}L{x + CELL - 10} {y + CELL - 10}M{x + CELL - 10} '
                             f'{y + 10}L{x + 10} {y + CELL - 10}" stroke="#c0392b" stroke-width="4"/>')
    parts.append("</svg>")
    return "".join(parts)
