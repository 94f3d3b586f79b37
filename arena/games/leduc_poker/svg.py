"""Leduc poker as an SVG picture (standard library only): for reports and the HTML viewer.

:func:`board_svg` draws the public card at the top (a dashed slot before it is dealt), then one row
per seat: its private card (a back with ``?`` when the picture is one seat's view and the card is
another seat's), the chips it has put in and its status (folded, out, to act). Hearts are drawn
red. Each round's actions, the pot and the stakes are written underneath.
"""

from __future__ import annotations

from html import escape
from typing import Any

from arena.games.kuhn_poker.svg import CARD_H, MARGIN, ROW_H, WIDTH, card, frame, seat_row
from arena.games.leduc_poker.rules import LeducPoker, card_name


def _card(code: int | None, players: int, x: float, y: float, *, hidden: bool = False) -> str:
    if code is None:
        return card(x, y, None)
    return card(x, y, card_name(code, players), hidden=hidden, colour="#b3261e" if code % 2 else "#222")


def board_svg(state_json: dict[str, Any], seat: int | None = None) -> str:
    """A self-contained ``<svg>`` of a Leduc poker state (its ``state_to_json`` object): every card
    when ``seat`` is None, else only what ``seat`` sees. Raises StateError on a bad state."""
    obj = state_json if isinstance(state_json, dict) else {}
    players, start = obj.get("players"), obj.get("startingPlayer")
    seats = players if type(players) is int and 2 <= players <= LeducPoker.max_players else 2
    game = LeducPoker(seats, starting_player=start if type(start) is int and 0 <= start < seats else 0)
    state = game.state_from_json(state_json)
    info = state.info
    body = [f'<text x="{MARGIN}" y="{MARGIN + CARD_H / 2 + 5}" font-size="14">public card</text>',
            _card(state.public, game.players, MARGIN + 100, MARGIN)]
    y = MARGIN + ROW_H + 8.0
    for s in range(game.players):
        dealt = s < len(state.cards)
        status = "out" if s in info.out else "folded" if s in info.folded else "to act" if s == info.actor else ""
        drawn = _card(state.cards[s] if dealt else None, game.players, MARGIN + 40, y,
                      hidden=dealt and seat is not None and seat != s)
        body.append(seat_row(y, s, drawn, info.contributions[s], status, mine=s == seat))
        y += ROW_H
    body.append(f'<text x="{MARGIN}" y="{y + 12}" font-size="13">pot {sum(info.contributions)}, stakes '
                f"{info.stakes}</text>")
    for number, entries in enumerate(state.rounds):
        y += 18
        actions = " ".join(f"P{s}:{a}" for s, a in entries) or "-"
        body.append(f'<text x="{MARGIN}" y="{y + 12}" font-size="13">round {number + 1}: {escape(actions)}</text>')
    if seat is None and game.is_terminal(state):
        y += 18
        returns = " ".join(f"{r:+.4g}" for r in game.returns(state))
        body.append(f'<text x="{MARGIN}" y="{y + 12}" font-size="13">returns {returns}</text>')
    view = "all cards" if seat is None else f"as P{seat} sees it"
    return frame(WIDTH, y + 30, f"Leduc poker, {game.players} players, {view}", body)
