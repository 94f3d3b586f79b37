"""Goofspiel as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws the prize cards turned up so far (the current one outlined), then one row
per seat: its points and its hand as small cards, and under each finished round its bid. Nothing
in Goofspiel is hidden once a round is over (OpenSpiel's default ``imp_info=False``), so a seat's
view differs from the omniscient one only by marking that seat's row.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

CARD_W, CARD_H, GAP, MARGIN, LABEL = 22, 30, 4, 12, 110


def _card(x: float, y: float, text: str, fill: str, stroke: str = "#555") -> str:
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="3" fill="{fill}" stroke="{stroke}"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 4}" text-anchor="middle">{escape(text)}</text>')


def board_svg(state_json: dict[str, Any], seat: int | None = None) -> str:
    """A self-contained ``<svg>`` of a Goofspiel state object (``GoofspielGame.state_to_json``);
    ``seat`` marks that seat's row (what it sees is the same picture)."""
    n = int(state_json["numCards"])
    players = int(state_json["players"])
    prizes: list[int] = state_json["prizes"]
    bids: list[list[int]] = state_json["bids"]
    hands: list[list[int]] = state_json["hands"]
    points: list[int] = state_json["points"]
    eliminated = set(state_json.get("eliminated", []))
    step = CARD_W + GAP
    width = MARGIN * 2 + LABEL + max(n, 1) * step
    row_h = CARD_H * 2 + 3 * GAP
    height = MARGIN * 2 + 20 + CARD_H + GAP * 3 + players * row_h
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
              f'height="{height}" font-family="sans-serif" font-size="11" role="img" aria-label="Goofspiel">'),
             f"<title>Goofspiel, {players} players, {n} cards, {len(bids)} rounds played</title>",
             f'<rect width="{width}" height="{height}" fill="#eef3ea"/>',
             f'<text x="{MARGIN}" y="{MARGIN + 12}">Prizes</text>']
    y = MARGIN + 20
    current = len(prizes) > len(bids)
    for index, prize in enumerate(prizes):
        is_current = current and index == len(prizes) - 1
        parts.append(_card(MARGIN + LABEL + index * step, y, str(prize), "#ffe9a8",
                           "#c00" if is_current else "#555"))
    y += CARD_H + GAP * 3
    for s in range(players):
        label = f"P{s}: {points[s]} pts" + (" (out)" if s in eliminated else "")
        weight = ' font-weight="bold"' if s == seat else ""
        parts.append(f'<text x="{MARGIN}" y="{y + 14}"{weight}>{escape(label)}</text>')
        for index, row in enumerate(bids):
            bid = row[s]
            top = max(row)
            won = bid == top and row.count(top) == 1
            parts.append(_card(MARGIN + LABEL + index * step, y, str(bid) if bid else "-",
                               "#b8e0b0" if won else "#ffffff"))
        for index, card in enumerate(hands[s]):
            parts.append(_card(MARGIN + LABEL + index * step, y + CARD_H + GAP, str(card), "#dde6f5"))
        y += row_h
    parts.append("</svg>")
    return "".join(parts)
