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


_BACKGROUND = _background()
_STONES = _stones()


def board_svg(state: Any, last_move: Any = None) -> str:
    """A self-contained ``<svg>`` of ``state`` (a :class:`arena.games.shobu.ShobuState`);
    ``last_move`` (a ShobuMove) is marked when given."""
    board: str = state.board
    parts = [_BACKGROUND]
    if last_move is not None:
        heading = last_move.heading
        for origin in (last_move.passive_origin, last_move.aggressive_origin):
            px, py = _origin(*origin)
            parts.append(f'<circle cx="{px + CELL // 2}" cy="{py + CELL // 2}" r="{CELL // 2 - 4}" fill="none" '
                         'stroke="#1e64c8" stroke-width="2" stroke-dasharray="4 3"/>')
            tx, ty = origin[0] + heading[0], origin[1] + heading[1]
            if 0 <= tx < 8 and 0 <= ty < 8:
                px, py = _origin(tx, ty)
                parts.append(f'<rect x="{px + 2}" y="{py + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                             'stroke="#1e64c8" stroke-width="3"/>')
    stones = _STONES
    parts += [stones[cell][index] for index, cell in enumerate(board) if cell in "xo"]
    parts.append("</svg>")
    return "".join(parts)
