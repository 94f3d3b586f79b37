"""Shobu as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws the four 4x4 boards (dark on the left, light on the right, a gap between
them), x 0-7 across and y 0-7 down as in the protocol, with the coordinates labelled. The last move's
origins are ringed and its landing squares outlined.
"""

from __future__ import annotations

from typing import Any

CELL = 40
GAP = 16
MARGIN = 24


def _origin(x: int, y: int) -> tuple[int, int]:
    """Top-left pixel of square (x, y)."""
    return MARGIN + x * CELL + (GAP if x >= 4 else 0), MARGIN + y * CELL + (GAP if y >= 4 else 0)


def _background() -> str:
    """The picture's start, the same for every position: the frame, the 64 squares, the labels."""
    size = 2 * MARGIN + 8 * CELL + GAP
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" '
              f'height="{size}" role="img" aria-label="Shobu board">'),
             f'<rect width="{size}" height="{size}" fill="#f4ecd8"/>']
    for y in range(8):
        for x in range(8):
            px, py = _origin(x, y)
            fill = "#8b5a2b" if x < 4 else "#c89b64"
            parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{fill}" '
                         'stroke="#4a2f14" stroke-width="1"/>')
    for i in range(8):
        px, _ = _origin(i, 0)
        _, py = _origin(0, i)
        parts.append(f'<text x="{px + CELL // 2}" y="{MARGIN - 8}" font-size="12" text-anchor="middle">{i}</text>')
        parts.append(f'<text x="{MARGIN - 10}" y="{py + CELL // 2 + 4}" font-size="12" text-anchor="middle">{i}</text>')
    return "".join(parts)


def _stones() -> dict[str, list[str]]:
    """Each square's stone, by the board character ``x`` (black) or ``o`` (white)."""
    out: dict[str, list[str]] = {}
    for cell, fill, stroke in (("x", "#111111", "#000000"), ("o", "#fafafa", "#555555")):
        out[cell] = []
        for index in range(64):
            px, py = _origin(index % 8, index // 8)
            out[cell].append(f'<circle cx="{px + CELL // 2}" cy="{py + CELL // 2}" r="{CELL // 2 - 7}" '
                             f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>')
    return out


def _ring(x: int, y: int) -> str:
    """The last move's mark on an origin square."""
    px, py = _origin(x, y)
    return (f'<circle cx="{px + CELL // 2}" cy="{py + CELL // 2}" r="{CELL // 2 - 4}" fill="none" '
            'stroke="#1e64c8" stroke-width="2" stroke-dasharray="4 3"/>')


def _outline(x: int, y: int) -> str:
    """The last move's mark on a landing square."""
    px, py = _origin(x, y)
    return (f'<rect x="{px + 2}" y="{py + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
            'stroke="#1e64c8" stroke-width="3"/>')


def _stone_rows() -> tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]:
    """Per half row of the board (x 0-3 or 4-7 of one y, top row first): where its 4 squares sit in
    the packed masks (:mod:`arena.games.shobu.core`), and by ``black4 << 4 | white4`` its stones in
    order (black where both hold a square, as the board string says)."""
    stones = _stones()
    rows = []
    for y in range(8):
        for half in (0, 1):
            shift = 16 * (2 * (y >> 2) + half) + 4 * (y & 3)
            index = 8 * y + 4 * half
            rows.append((shift, tuple(
                tuple(stones["x" if key >> (4 + i) & 1 else "o"][index + i] for i in range(4)
                      if key >> (4 + i) & 1 or key >> i & 1)
                for key in range(256))))
    return tuple(rows)


_BACKGROUND = _background()
# The picture as its tags ("pieces", each from a "<" to the next): what the HTML report stores.
_BACKGROUND_PIECES = tuple("<" + part for part in _BACKGROUND.split("<")[1:])
_RINGS = [_ring(index % 8, index // 8) for index in range(64)]
_OUTLINES = [_outline(index % 8, index // 8) for index in range(64)]
_STONE_ROWS = _stone_rows()


def board_svg(state: Any, last_move: Any = None) -> str:
    """A self-contained ``<svg>`` of ``state`` (a :class:`arena.games.shobu.rules.ShobuState`);
    ``last_move`` (a ShobuMove) is marked when given."""
    return "".join(board_svg_pieces(state, last_move))


def board_svg_pieces(state: Any, last_move: Any = None) -> list[str]:
    """:func:`board_svg` as the list of its tags, each from a ``<`` up to the next (their join is
    the picture): strings made once, so the report (:mod:`arena.report.frames`) need not cut and
    look up each position's picture anew."""
    parts = list(_BACKGROUND_PIECES)
    if last_move is not None:
        hx, hy = last_move.heading
        for x, y in (last_move.passive_origin, last_move.aggressive_origin):
            on_board = 0 <= x < 8 and 0 <= y < 8
            parts.append(_RINGS[x + 8 * y] if on_board else _ring(x, y))
            tx, ty = x + hx, y + hy
            if 0 <= tx < 8 and 0 <= ty < 8:
                parts.append(_OUTLINES[tx + 8 * ty])
    black, white = state.black, state.white
    for shift, stones in _STONE_ROWS:  # 16 look-ups, not 64 squares
        parts += stones[(black >> shift & 15) << 4 | white >> shift & 15]
    parts.append("</svg>")
    return parts
