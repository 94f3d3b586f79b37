"""Love Letter as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws one row per seat: its affection tokens, its hand, its discards in order
(the Handmaid's protection and a knock-out marked), then the deck's size, the cards laid aside face
up (2 players) and the face-down removed card. Given ``seat``, it draws what that seat sees: the
other hands and the removed card face down.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

CARD_W, CARD_H, GAP, MARGIN, LABEL = 58, 26, 4, 12, 150
COLOURS = {"guard": "#e8e8e8", "priest": "#dbe9f7", "baron": "#e6dcf5", "handmaid": "#d9f2e0",
           "prince": "#fbe3c7", "king": "#f7d4d4", "countess": "#f3d1ec", "princess": "#fff0a8"}


def _card(x: float, y: float, card: str | None) -> str:
    fill = COLOURS.get(card or "", "#7a5c8a")
    text = escape(card) if card else "?"
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="3" fill="{fill}" stroke="#555"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 4}" text-anchor="middle">{text}</text>')


def board_svg(state_json: dict[str, Any], seat: int | None = None) -> str:
    """A self-contained ``<svg>`` of a Love Letter state object (``LoveLetterGame.state_to_json``),
    omniscient, or as ``seat`` sees it (other hands and the removed card face down)."""
    hands: list[list[str]] = state_json["hands"]
    discards: list[list[str]] = state_json["discards"]
    players = len(hands)
    step = CARD_W + GAP
    widest = max([len(d) for d in discards] + [4])
    width = MARGIN * 2 + LABEL + (2 + widest) * step + GAP * 4
    row_h = CARD_H + 3 * GAP
    height = MARGIN * 2 + (players + 1) * row_h + 20
    who = "all" if seat is None else f"P{seat}"
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
              f'height="{height}" font-family="sans-serif" font-size="11" role="img" aria-label="Love Letter">'),
             f"<title>Love Letter, round {state_json['round'] + 1}, seen by {who}</title>",
             f'<rect width="{width}" height="{height}" fill="#f6efe4"/>']
    y = MARGIN
    for s in range(players):
        status = ("out" if s in state_json["out"] else "") or ("" if state_json["active"][s] else "knocked out")
        label = f"P{s}: {state_json['tokens'][s]} tokens" + (f" ({status})" if status else "")
        label += " [protected]" if state_json["protected"][s] else ""
        bold = ' font-weight="bold"' if s == state_json["turn"] and not state_json["over"] else ""
        parts.append(f'<text x="{MARGIN}" y="{y + 16}"{bold}>{escape(label)}</text>')
        for index, card in enumerate(hands[s]):
            shown = card if seat is None or seat == s else None
            parts.append(_card(MARGIN + LABEL + index * step, y, shown))
        for index, card in enumerate(discards[s]):
            parts.append(_card(MARGIN + LABEL + (2 + index) * step + GAP * 4, y, card))
        y += row_h
    removed = state_json["removed"]
    text = f"Deck: {len(state_json['deck'])} cards"
    parts.append(f'<text x="{MARGIN}" y="{y + 16}">{escape(text)}</text>')
    x = MARGIN + LABEL
    if removed is not None:
        parts.append(_card(x, y, removed if seat is None else None))
        x += step + GAP * 4
    for card in state_json["reserve"]:
        parts.append(_card(x, y, card))
        x += step
    parts.append("</svg>")
    return "".join(parts)
