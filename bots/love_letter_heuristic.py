#!/usr/bin/env python3
"""A Love Letter bot that counts cards: it tracks what it has seen, guesses with the counts, and
never throws away the Princess.

This file stands alone (Python 3 and its standard library only); the protocol is the one described
in bots/love_letter_random.py:

    < {"type": "game_state", "payload": {"seat": 1, "hand": ["guard", "king"], ...}, "seat": 1, ...}
    > {"type": "turn", "payload": "guard 2 priest"}

Each legal move gets a score and the best is played:
- the card kept counts (a high card wins the showdown): 1.5 points per value of the kept card;
- a Guard on a seat whose card we know (our Priest or Baron saw it, and nothing since changed it)
  names that card; otherwise it names the card most likely unseen (the deck minus our hand, every
  discard and the cards laid aside), at the seat we know least bad about;
- a Baron is played when what we keep beats what we know or expect of the target;
- a Prince goes to a seat known to hold the Princess, otherwise to another seat, never to ourselves
  when we keep the Princess; a King is worth it only when what we give away is low;
- the Princess is never played while another move exists.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

CARDS = ("guard", "priest", "baron", "handmaid", "prince", "king", "countess", "princess")
VALUE = {card: index + 1 for index, card in enumerate(CARDS)}
COUNTS = {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1, "countess": 1, "princess": 1}


def legal_moves(obs: dict[str, Any]) -> list[str]:
    """Our legal moves, from the observation alone (as in bots/love_letter_random.py)."""
    seat, hand = obs["seat"], obs["hand"]
    cards = sorted(set(hand), key=CARDS.index)
    if "countess" in hand and ("king" in hand or "prince" in hand):
        cards = ["countess"]
    others = [t for t in range(obs["players"]) if t != seat and obs["active"][t] and not obs["protected"][t]]
    moves: list[str] = []
    for card in cards:
        if card == "guard":
            moves += [f"guard {t} {g}" for t in others for g in CARDS[1:]] or ["guard"]
        elif card in ("priest", "baron", "king"):
            moves += [f"{card} {t}" for t in others] or [card]
        elif card == "prince":
            moves += [f"prince {t}" for t in sorted([seat, *others])]
        else:
            moves.append(card)
    return moves


def known_cards(obs: dict[str, Any]) -> dict[int, str]:
    """The cards we know other seats hold now: what we saw, unless a later play changed it."""
    known: dict[int, str] = {}
    plays = obs["plays"]
    for peek in obs["seen"]:
        seat, card = peek["seat"], peek["card"]
        still = obs["active"][seat]
        for play in plays[peek["play"] + 1:]:
            if play["seat"] == seat and play["card"] == card:
                still = False  # it may have played the card we saw
            if play["card"] in ("king", "prince") and seat in (play["seat"], play["target"]):
                still = False
        if still:
            known[seat] = card
        else:
            known.pop(seat, None)
    return known


def unseen(obs: dict[str, Any]) -> Counter[str]:
    """Cards we have not seen this round (in the deck, other hands, or removed face down)."""
    left = Counter(COUNTS)
    left.subtract(obs["hand"])
    for pile in obs["discards"]:
        left.subtract(pile)
    left.subtract(obs["reserve"])
    return +left


def score(move: str, obs: dict[str, Any], known: dict[int, str], left: Counter[str]) -> float:
    words = move.split()
    card = words[0]
    target = int(words[1]) if len(words) > 1 else None
    hand = list(obs["hand"])
    hand.remove(card)
    kept = hand[0]
    value = 1.5 * VALUE[kept]
    if card == "princess":
        return -1000.0
    total = sum(left.values()) or 1
    guards = sum(n for c, n in left.items() if c != "guard") or 1
    if card == "guard":
        if target is None:
            return value
        guess = words[2]
        if target in known:
            return value + (60.0 if known[target] == guess else -20.0)
        return value + 30.0 * left[guess] / guards
    if card == "baron":
        if target is None:
            return value
        if target in known:
            return value + (40.0 if VALUE[known[target]] < VALUE[kept] else -60.0)
        beaten = sum(n for c, n in left.items() if VALUE[c] < VALUE[kept])
        return value + 40.0 * (2 * beaten / total - 1)
    if card == "prince":
        if target == obs["seat"]:
            return value - (100.0 if kept == "princess" else 8.0 - VALUE[kept])
        if target is not None and known.get(target) == "princess":
            return value + 80.0
        return value + 4.0
    if card == "king":
        if target is None:
            return value
        got = known.get(target)
        return 1.5 * (VALUE[got] if got else 4.0) - 2.0 * VALUE[kept] + 2.0
    if card == "handmaid":
        return value + 8.0
    if card == "priest":
        return value + (2.0 if target in known else 6.0)
    return value  # countess


def choose(message: dict[str, Any], rng: object = None) -> str:
    """The move for one game_state message (deterministic: the first of the best scores)."""
    obs = message["payload"]
    moves = message.get("legalMoves") or legal_moves(obs)
    known, left = known_cards(obs), unseen(obs)
    return max(moves, key=lambda move: score(move, obs, known, left))


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"love_letter_heuristic: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if message.get("type") == "game_state":
            print(json.dumps({"type": "turn", "payload": choose(message)}), flush=True)


if __name__ == "__main__":
    main()
