"""Kuhn poker as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws one row per seat: its card (a white rectangle with the card's name, or a
blue back with ``?`` when the picture is one seat's view and the card is another seat's), the chips
it has put in, and its status (bettor, folded, out, to act). The betting history and the pot are
written underneath. :func:`seat_row` and :func:`card` are shared with the Leduc poker picture.
"""

from __future__ import annotations

from html import escape
from typing import Any

from arena.games.kuhn_poker.rules import KuhnPoker, card_name

CARD_W, CARD_H = 36, 50
ROW_H = 62
MARGIN = 16
WIDTH = 360


def card(x: float, y: float, label: str | None, *, hidden: bool = False, colour: str = "#222") -> str:
    """One card at (x, y): its label, a back (``hidden``) or an empty dashed slot (``label`` None)."""
    if label is None:
        return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="none" stroke="#999" '
                f'stroke-dasharray="4 3"/>')
    if hidden:
        return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#35619c" stroke="#1d3557"/>'
                f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 6}" text-anchor="middle" font-size="18" '
                f'fill="#fff">?</text>')
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#fff" stroke="#333"/>'
            f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 7}" text-anchor="middle" font-size="20" '
            f'font-weight="bold" fill="{colour}">{escape(label)}</text>')


def seat_row(y: float, seat: int, card_svg: str, chips: int, status: str, *, mine: bool) -> str:
    """One seat's row: name, card, chips put in and status; ``mine`` highlights the viewing seat."""
    fill = "#fff6d5" if mine else "none"
    return (f'<rect x="{MARGIN / 2}" y="{y - 6}" width="{WIDTH - MARGIN}" height="{ROW_H - 2}" rx="6" fill="{fill}"/>'
            f'<text x="{MARGIN}" y="{y + CARD_H / 2 + 5}" font-size="14" font-weight="bold">P{seat}</text>'
            f"{card_svg}"
            f'<text x="{MARGIN + 100}" y="{y + CARD_H / 2 + 5}" font-size="13">in: {chips}</text>'
            f'<text x="{MARGIN + 160}" y="{y + CARD_H / 2 + 5}" font-size="13" fill="#8a1c1c">{escape(status)}</text>')


def frame(width: float, height: float, title: str, body: list[str]) -> str:
    return "".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
         f'height="{height}" font-family="sans-serif" role="img" aria-label="{escape(title)}">'),
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#2f6b3a" opacity="0.12"/>',
        *body,
        "</svg>",
    ])


def board_svg(state_json: dict[str, Any], seat: int | None = None) -> str:
    """A self-contained ``<svg>`` of a Kuhn poker state (its ``state_to_json`` object): every card
    when ``seat`` is None, else only what ``seat`` sees. Raises StateError on a bad state."""
    players = state_json.get("players") if isinstance(state_json, dict) else None
    game = KuhnPoker(players if type(players) is int and 2 <= players <= KuhnPoker.max_players else None)
    state = game.state_from_json(state_json)
    info = state.info
    body: list[str] = []
    y = float(MARGIN)
    for s in range(game.players):
        dealt = s < len(state.cards)
        label = card_name(state.cards[s], game.players) if dealt else None
        hidden = dealt and seat is not None and seat != s
        status = ("out" if s in info.out else "folded" if s in info.folded
                  else "bet" if s == info.bettor else "called" if info.contributions[s] == 2
                  else "to act" if s == info.actor else "")
        body.append(seat_row(y, s, card(MARGIN + 40, y, label, hidden=hidden), info.contributions[s], status,
                             mine=s == seat))
        y += ROW_H
    history = " ".join(f"P{s}:{a}" for s, a in state.history) or "no bets yet"
    body.append(f'<text x="{MARGIN}" y="{y + 12}" font-size="13">pot {sum(info.contributions)}  |  '
                f"{escape(history)}</text>")
    if seat is None and game.is_terminal(state):
        returns = " ".join(f"{r:+g}" for r in game.returns(state))
        body.append(f'<text x="{MARGIN}" y="{y + 30}" font-size="13">returns {returns}</text>')
    view = "all cards" if seat is None else f"as P{seat} sees it"
    return frame(WIDTH, y + 40, f"Kuhn poker, {game.players} players, {view}", body)
