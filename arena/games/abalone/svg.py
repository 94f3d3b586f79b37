"""Abalone as an SVG picture of hexagons (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws the 61 cells as pointy-topped hexagons, row I at the top and row A at the
bottom, each row shifted half a cell as on the real board, with the row letters on the left and
the diagonal numbers along the lower right edges. The last move's marbles are ringed where they
came from and their new cells outlined; the count of marbles pushed off is written below.
"""

from __future__ import annotations

import math
from typing import Any

from arena.games.abalone.board import DIRECTIONS, NAMES, OFFSETS, ROWS, START_MARBLES, bit_index, row_span

CELL = 40  # width of a hexagon (flat side to flat side)
MARGIN = 30
_ROW_HEIGHT = CELL * math.sqrt(3) / 2
_RADIUS = CELL / math.sqrt(3)  # centre to corner


def _centre(row: int, diagonal: int) -> tuple[float, float]:
    """Pixel centre of a cell: row 0 (A) at the bottom, E1 at the left edge."""
    x = MARGIN + CELL / 2 + (diagonal - 1 - (row - 4) / 2) * CELL
    y = MARGIN + _RADIUS + (8 - row) * _ROW_HEIGHT
    return x, y


def _hexagon(x: float, y: float) -> str:
    corners = (f"{x + _RADIUS * math.cos(math.radians(30 + 60 * k)):.1f},"
               f"{y + _RADIUS * math.sin(math.radians(30 + 60 * k)):.1f}" for k in range(6))
    return " ".join(corners)


def board_svg(state: Any, last_move: Any = None) -> str:
    """A self-contained ``<svg>`` of ``state`` (an :class:`arena.games.abalone.rules.AbaloneState`);
    ``last_move`` (an AbaloneMove played to reach it) is marked when given."""
    width = round(2 * MARGIN + 9 * CELL)
    height = round(2 * MARGIN + 2 * _RADIUS + 8 * _ROW_HEIGHT + 24)
    turn = str(getattr(state.turn, "value", state.turn)).capitalize()
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
              f'height="{height}" font-family="sans-serif" font-size="12" role="img" aria-label="Abalone board">'),
             f"<title>Abalone, {turn} to move, ply {state.turn_number}</title>",
             f'<rect width="{width}" height="{height}" fill="#f4ecd8"/>']
    origins: set[int] = set()
    targets: set[int] = set()
    if last_move is not None:
        offset = OFFSETS[last_move.direction]
        targets = {c + offset for c in last_move.cells}
        origins = set(last_move.cells) - targets
    for row in range(9):
        for diagonal in row_span(row):
            index = bit_index(row, diagonal)
            x, y = _centre(row, diagonal)
            parts.append(f'<polygon points="{_hexagon(x, y)}" fill="#c89b64" stroke="#6b4a24" stroke-width="1.5">'
                         f"<title>{NAMES[index]}</title></polygon>")
            bit = 1 << index
            if state.black & bit or state.white & bit:
                black = bool(state.black & bit)
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL * 0.38:.1f}" '
                             f'fill="{"#1a1a1a" if black else "#fafafa"}" stroke="#222222" stroke-width="1.5" '
                             f'class="{"black" if black else "white"}"/>')
            if index in origins:
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL * 0.2:.1f}" fill="none" '
                             'stroke="#1e64c8" stroke-width="2" stroke-dasharray="3 2" class="last-from"/>')
            if index in targets:
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL * 0.45:.1f}" fill="none" '
                             'stroke="#1e64c8" stroke-width="3" class="last-to"/>')
        first = row_span(row)[0]
        x, y = _centre(row, first)
        parts.append(f'<text x="{x - CELL * 0.75:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
                     f'font-weight="bold">{ROWS[row]}</text>')
    # Diagonal numbers below the lower edges: 1-5 under row A, 6-9 down the right of rows B-E.
    for diagonal in range(1, 10):
        row = max(0, diagonal - 5)
        x, y = _centre(row, diagonal)
        parts.append(f'<text x="{x + CELL * 0.3:.1f}" y="{y + _RADIUS + 12:.1f}" text-anchor="middle">'
                     f"{diagonal}</text>")
    by_black = START_MARBLES - state.white.bit_count()
    by_white = START_MARBLES - state.black.bit_count()
    note = f"pushed off: by Black {by_black}, by White {by_white}"
    if last_move is not None:
        note += f"; last move {'+'.join(NAMES[c] for c in last_move.cells)} {DIRECTIONS[last_move.direction]}"
    parts.append(f'<text x="{MARGIN}" y="{height - 10}">{note}</text>')
    parts.append("</svg>")
    return "".join(parts)
