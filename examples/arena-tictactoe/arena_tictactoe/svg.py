"""An SVG picture of a tic-tac-toe board (standard library only), for arena's reports.

``board_svg(state, last_move=None)`` is the function :data:`arena_tictactoe.SPEC` names as ``svg``:
a self-contained ``<svg>`` string (a viewBox so it scales, no external resources) with the last
move's square highlighted and the winning line, if any, drawn through.
"""

from __future__ import annotations

from arena_tictactoe.rules import FILES, SIZE, TicTacToeState, winning_line

CELL = 100  # user units per square
MARGIN = 24  # room for the file letters and rank digits
WIDTH = MARGIN + SIZE * CELL + 8


def _centre(cell: int) -> tuple[int, int]:
    return MARGIN + (cell % SIZE) * CELL + CELL // 2, (cell // SIZE) * CELL + CELL // 2 + 8


def board_svg(state: TicTacToeState, last_move: int | None = None) -> str:
    """The board of ``state`` as an SVG document; ``last_move`` (a cell) is highlighted."""
    parts = [
        (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {WIDTH}" '
         f'width="{WIDTH}" height="{WIDTH}" font-family="sans-serif">'),
        f'<rect x="0" y="0" width="{WIDTH}" height="{WIDTH}" fill="#fbf8ef"/>',
    ]
    if last_move is not None:
        x, y = MARGIN + (last_move % SIZE) * CELL, (last_move // SIZE) * CELL + 8
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f3e27a"/>')
    top, bottom, left, right = 8, 8 + SIZE * CELL, MARGIN, MARGIN + SIZE * CELL
    for k in (1, 2):  # the four grid lines
        parts.append(f'<line x1="{left + k * CELL}" y1="{top}" x2="{left + k * CELL}" y2="{bottom}" '
                     'stroke="#333" stroke-width="4"/>')
        parts.append(f'<line x1="{left}" y1="{top + k * CELL}" x2="{right}" y2="{top + k * CELL}" '
                     'stroke="#333" stroke-width="4"/>')
    for i in range(SIZE):  # coordinates: ranks 3..1 on the left, files a..c below
        parts.append(f'<text x="{MARGIN // 2}" y="{top + i * CELL + CELL // 2 + 6}" font-size="16" '
                     f'text-anchor="middle" fill="#555">{SIZE - i}</text>')
        parts.append(f'<text x="{left + i * CELL + CELL // 2}" y="{WIDTH - 2}" font-size="16" '
                     f'text-anchor="middle" fill="#555">{FILES[i]}</text>')
    arm = CELL * 3 // 10
    for cell, mark in enumerate(state.cells):
        cx, cy = _centre(cell)
        if mark == "x":
            parts.append(f'<path d="M{cx - arm},{cy - arm}L{cx + arm},{cy + arm}M{cx + arm},{cy - arm}'
                         f'L{cx - arm},{cy + arm}" stroke="#1b1b1b" stroke-width="10" stroke-linecap="round"/>')
        elif mark == "o":
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{arm + 2}" fill="none" stroke="#c0392b" stroke-width="9"/>')
    line = winning_line(state.cells)
    if line is not None:
        (x1, y1), (x2, y2) = _centre(line[0]), _centre(line[2])
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#2e86de" stroke-width="8" '
                     'stroke-linecap="round" opacity="0.8"/>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["board_svg"]
