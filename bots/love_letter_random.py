#!/usr/bin/env python3
"""A Love Letter bot that plays a uniformly random legal move.

This file stands alone (Python 3 and its standard library only): copy it to start your own bot.
Run it under arena, e.g. with four players:

    arena match --game love_letter --players 4 "python3 bots/love_letter_random.py --seed 1" \
        "python3 bots/love_letter_heuristic.py" "python3 bots/love_letter_random.py" \
        "python3 bots/love_letter_random.py"

Protocol (arena's N-seat JSON envelope): on our turn (we hold two cards) arena writes one line,

    {"type": "game_state", "payload": {"seat": 1, "players": 3, "hand": ["guard", "king"],
     "active": [true, true, true], "protected": [true, false, false], ...},
     "timeLeftMs": 10000, "seat": 1, "players": 3, "simultaneous": false}

and we answer one line, then flush: {"type": "turn", "payload": "guard 2 priest"} -- the card,
the target seat where the card takes one, and for a guard the guessed card. The payload's other
keys (discards, plays, what our priest saw...) are described in arena's love_letter module. When
"legalMoves" is present (the agent opted in) we pick from it. At the end of input we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

CARDS = ("guard", "priest", "baron", "handmaid", "prince", "king", "countess", "princess")


def legal_moves(obs: dict[str, Any]) -> list[str]:
    """Our legal moves, from the observation alone (the rules of arena's love_letter module)."""
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


def choose(message: dict[str, Any], rng: random.Random) -> str:
    return rng.choice(message.get("legalMoves") or legal_moves(message["payload"]))


def main() -> None:
    parser = argparse.ArgumentParser(description="Love Letter bot playing random legal moves.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    rng = random.Random(parser.parse_args().seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"love_letter_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if message.get("type") == "game_state":
            print(json.dumps({"type": "turn", "payload": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
