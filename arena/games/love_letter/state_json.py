"""Reading a Love Letter state object (``LoveLetterGame.state_to_json``) back, checking it.

Every key is checked for its type and shape, and the cards of the round must add up to the deck
(16 cards: those not dealt, the removed one, those laid aside, in hands and in discards), so that a
hand-edited record fails with a message naming the key instead of later, in play.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from arena.games.base import StateError

if TYPE_CHECKING:
    from arena.games.love_letter.rules import LoveLetterGame, LoveLetterState

KEYS = ("tokens", "round", "turn", "deck", "toDeal", "removed", "reserve", "hands", "discards", "active",
        "protected", "out", "plays", "seen", "lastRound", "princeDraw", "steps", "over")


def _cards(value: Any, where: str) -> tuple[str, ...]:
    from arena.games.love_letter.rules import CARDS

    if not isinstance(value, list) or any(card not in CARDS for card in value):
        raise StateError(f"love_letter state: {where} must be a list of card names, got {value!r}")
    return tuple(value)


def _per_seat(obj: dict[str, Any], key: str, players: int) -> list[Any]:
    value = obj[key]
    if not isinstance(value, list) or len(value) != players:
        raise StateError(f"love_letter state: {key} must list {players} seats, got {value!r}")
    return value


def _flags(obj: dict[str, Any], key: str, players: int) -> tuple[bool, ...]:
    value = _per_seat(obj, key, players)
    if any(type(v) is not bool for v in value):
        raise StateError(f"love_letter state: {key} must hold true or false per seat, got {value!r}")
    return tuple(value)


def _int(obj: dict[str, Any], key: str, low: int, high: int) -> int:
    value = obj[key]
    if type(value) is not int or not low <= value <= high:
        raise StateError(f"love_letter state: {key} must be an integer from {low} to {high}, got {value!r}")
    return value


def read_state(game: LoveLetterGame, obj: Any) -> LoveLetterState:
    """The state ``obj`` describes, or StateError naming the first problem."""
    from arena.games.love_letter.rules import REMOVED, RESERVE, LoveLetterState, full_deck

    n = game.players
    if not isinstance(obj, dict):
        raise StateError(f"love_letter state: expected an object, got {type(obj).__name__}")
    missing = [key for key in KEYS if key not in obj]
    if missing:
        raise StateError(f"love_letter state: missing key {missing[0]!r}")
    if obj.get("players", n) != n:
        raise StateError(f"love_letter state: players is {obj['players']!r}, this game has {n}")
    tokens = _per_seat(obj, "tokens", n)
    if any(type(t) is not int or t < 0 for t in tokens):
        raise StateError(f"love_letter state: tokens must be counts, got {tokens!r}")
    hands = tuple(_cards(h, f"hands[{i}]") for i, h in enumerate(_per_seat(obj, "hands", n)))
    discards = tuple(_cards(d, f"discards[{i}]") for i, d in enumerate(_per_seat(obj, "discards", n)))
    if any(len(h) > 2 for h in hands):
        raise StateError("love_letter state: a hand holds at most 2 cards")
    deck, reserve = _cards(obj["deck"], "deck"), _cards(obj["reserve"], "reserve")
    removed = obj["removed"]
    if removed is not None:
        _cards([removed], "removed")
    to_deal = obj["toDeal"]
    if not isinstance(to_deal, list) or any(type(t) is not int or not RESERVE <= t < n for t in to_deal):
        raise StateError(f"love_letter state: toDeal must list seats, {REMOVED} or {RESERVE}, got {to_deal!r}")
    out = obj["out"]
    if not isinstance(out, list) or any(type(s) is not int or not 0 <= s < n for s in out) or len(set(out)) < len(out):
        raise StateError(f"love_letter state: out must list distinct seats, got {out!r}")
    counted = Counter(deck) + Counter(reserve) + Counter([removed] if removed else [])
    for cards in (*hands, *discards):
        counted += Counter(cards)
    if sorted(counted.elements()) != sorted(full_deck()):
        missing_cards = Counter(full_deck()) - counted
        extra = counted - Counter(full_deck())
        raise StateError(f"love_letter state: the cards do not make the deck (missing {sorted(missing_cards.elements())}, "
                         f"extra {sorted(extra.elements())})")
    seen = obj["seen"]
    if not isinstance(seen, list) or any(not isinstance(v, list) or len(v) != 4 for v in seen):
        raise StateError(f"love_letter state: seen must list [viewer, seat, card, play] entries, got {seen!r}")
    plays = obj["plays"]
    if not isinstance(plays, list) or any(not isinstance(p, dict) for p in plays):
        raise StateError("love_letter state: plays must be a list of objects")
    for key in ("princeDraw", "over"):
        if type(obj[key]) is not bool:
            raise StateError(f"love_letter state: {key} must be true or false")
    if obj["lastRound"] is not None and not isinstance(obj["lastRound"], dict):
        raise StateError("love_letter state: lastRound must be an object or null")
    return LoveLetterState(
        tokens=tuple(tokens), round=_int(obj, "round", 0, 10_000), turn=_int(obj, "turn", 0, n - 1),
        deck=tuple(sorted(deck, key=full_deck().index)), to_deal=tuple(to_deal), removed=removed,
        reserve=reserve, hands=hands, discards=discards, active=_flags(obj, "active", n),
        protected=_flags(obj, "protected", n), out=tuple(out),
        plays=tuple(dict(p) for p in plays), seen=tuple((v[0], v[1], v[2], v[3]) for v in seen),
        last_round=obj["lastRound"], prince_draw=obj["princeDraw"], steps=_int(obj, "steps", 0, 10**9),
        over=obj["over"])
