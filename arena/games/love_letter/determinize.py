"""Love Letter from one seat's view: a state drawn from those the seat cannot tell apart
(:meth:`arena.games.love_letter.rules.LoveLetterGame.determinize`). Standard library only.

What the seat does not see: the other seats' hands, the order and content of the deck, the card
removed face down, and what the other seats learnt with a Priest or a Baron. The cards it cannot
see (the deck, less its own hand, every discard and the face-up reserve) are dealt at random to
those places, except that a card it saw in a seat's hand (its Priest or Baron) and that the seat
cannot have given up since stays there. The other seats' private knowledge is left out of the
sample (it is not in the seat's observation). The steps of earlier rounds are not in the
observation either: ``steps`` (the move counter) counts :data:`ESTIMATED_ROUND_STEPS` for each.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from arena.games.base import StateError

if TYPE_CHECKING:
    from arena.games.love_letter.rules import LoveLetterGame, LoveLetterState

#: The move counter's guess for each finished round (16 cards dealt, a dozen plays).
ESTIMATED_ROUND_STEPS = 28


def known_hands(observation: dict[str, Any]) -> dict[int, str]:
    """Cards the observing seat knows another seat still holds: the last it saw there (Priest,
    Baron), unless that seat has since played a card of that name, or a King or Prince moved it."""
    last: dict[int, tuple[str, int]] = {entry["seat"]: (entry["card"], entry["play"]) for entry in observation["seen"]}
    known: dict[int, str] = {}
    for holder, (card, index) in last.items():
        if not observation["active"][holder]:
            continue
        later = observation["plays"][index + 1:]
        if not any((play["seat"] == holder and play["card"] in (card, "king"))
                   or (play["card"] in ("king", "prince") and play["target"] == holder) for play in later):
            known[holder] = card
    return known


def determinize(game: LoveLetterGame, observation: dict[str, Any], seat: int, rng: random.Random) -> LoveLetterState:
    """A state at a seat's turn (the seat to play holds two cards) that ``seat`` cannot tell from
    the real one. StateError for an observation of another moment (a deal or the end) or one no
    state gives."""
    from arena.games.love_letter.rules import LoveLetterState, full_deck

    n = game.players
    turn, sizes = observation["turn"], observation["handSizes"]
    if observation["terminal"] or turn is None or sizes[turn] != 2:
        raise StateError("love_letter: a state can be drawn from an observation at a seat's turn only")
    own = tuple(observation["hand"])
    pool = Counter(full_deck()) - Counter(own) - Counter(observation["reserve"])
    for discards in observation["discards"]:
        pool -= Counter(discards)
    others = [s for s in range(n) if s != seat]
    hidden = observation["deckSize"] + sum(sizes[s] for s in others)
    removed_there = sum(pool.values()) - hidden
    if removed_there not in (0, 1):
        raise StateError(f"love_letter: {sum(pool.values())} unseen cards do not fill {hidden} places and the removed card")
    hands: dict[int, list[str]] = {seat: list(own)}
    for holder, card in known_hands(observation).items():
        if holder != seat and sizes[holder] and pool[card] > 0:
            hands[holder] = [card]
            pool[card] -= 1
    unseen = sorted(pool.elements(), key=full_deck().index)
    rng.shuffle(unseen)
    for holder in others:
        hand = hands.setdefault(holder, [])
        while len(hand) < sizes[holder]:
            hand.append(unseen.pop())
    removed = unseen.pop() if removed_there else None
    deck = tuple(sorted(unseen, key=full_deck().index))
    return LoveLetterState(
        tokens=tuple(observation["tokens"]), round=observation["round"], turn=turn, deck=deck, to_deal=(),
        removed=removed, reserve=tuple(observation["reserve"]), hands=tuple(tuple(hands[s]) for s in range(n)),
        discards=tuple(tuple(d) for d in observation["discards"]), active=tuple(observation["active"]),
        protected=tuple(observation["protected"]), out=tuple(observation["out"]),
        plays=tuple(dict(p, knockedOut=list(p["knockedOut"])) for p in observation["plays"]),
        seen=tuple((seat, e["seat"], e["card"], e["play"]) for e in observation["seen"]),
        last_round=observation["lastRound"],
        steps=observation["round"] * ESTIMATED_ROUND_STEPS + len(full_deck()) - len(deck) + len(observation["plays"]))
