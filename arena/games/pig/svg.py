"""Pig as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws one bar per seat, its banked score over the target, the seat on turn's
turn total stacked on it in a lighter colour, and the last throw of the die. Nothing in Pig is
hidden, so a seat's view only marks that seat's row.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

BAR_W, ROW_H, MARGIN, LABEL = 240, 26, 12, 120


def board_svg(state_json: dict[str, Any], seat: int | None = None) -> str:
    """A self-contained ``<svg>`` of a Pig state object (``PigGame.state_to_json``); ``seat`` marks
    that seat's row (what it sees is the same picture)."""
    players, target = int(state_json["players"]), int(state_json["target"])
    scores: list[int] = state_json["scores"]
    turn, total, winner = state_json["turn"], int(state_json["turnTotal"]), state_json["winner"]
    eliminated = set(state_json.get("eliminated", []))
    last = state_json.get("lastRoll")
    width = MARGIN * 2 + LABEL + BAR_W + 40
    height = MARGIN * 2 + 20 + players * ROW_H
    head = f"P{winner} won" if winner is not None else f"P{turn} on turn, {total} this turn"
    head += f"; last throw {last}" if last is not None else ""
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
              f'height="{height}" font-family="sans-serif" font-size="11" role="img" aria-label="Pig">'),
             f"<title>Pig, {players} players, target {target}: {escape(head)}</title>",
             f'<rect width="{width}" height="{height}" fill="#f4efe6"/>',
             f'<text x="{MARGIN}" y="{MARGIN + 12}">{escape(f"target {target}: {head}")}</text>']
    for s in range(players):
        y = MARGIN + 20 + s * ROW_H
        label = f"P{s}: {scores[s]}" + (" (out)" if s in eliminated else "") + (" wins" if s == winner else "")
        weight = ' font-weight="bold"' if s == seat else ""
        parts.append(f'<text x="{MARGIN}" y="{y + 15}"{weight}>{escape(label)}</text>')
        x = MARGIN + LABEL
        banked = min(scores[s], target) / target * BAR_W
        parts.append(f'<rect x="{x}" y="{y + 4}" width="{BAR_W}" height="{ROW_H - 8}" fill="#fff" stroke="#555"/>')
        parts.append(f'<rect x="{x}" y="{y + 4}" width="{banked:.1f}" height="{ROW_H - 8}" fill="#7a9e6b"/>')
        if s == turn and winner is None and total:
            extra = min(total, max(target - scores[s], 0)) / target * BAR_W
            parts.append(f'<rect x="{x + banked:.1f}" y="{y + 4}" width="{extra:.1f}" height="{ROW_H - 8}" '
                         'fill="#cfe3c4"/>')
    parts.append("</svg>")
    return "".join(parts)
