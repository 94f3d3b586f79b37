#!/usr/bin/env python3
"""A Goofspiel bot that bids close to the prize's value.

This file stands alone (Python 3 and its standard library only). Strategy: a prize worth ``p`` is
bid for with the smallest card of ours that is at least ``p`` (spending no more than the prize is
worth); when every such card is gone we throw away our lowest card rather than waste a good one.
When a card of ours beats every card the other seats still hold and is cheaper than that, we bid it
instead (a certain win). The protocol is the one described in bots/goofspiel_random.py:

    < {"type": "game_state", "payload": {"hand": [...], "hands": [[...], ...], "prize": 3,
       "seat": 0, ...}, "seat": 0, "players": 2, "simultaneous": true, "timeLeftMs": 10000}
    > {"type": "turn", "payload": 3}
"""

from __future__ import annotations

import json
import sys
from typing import Any


def choose(message: dict[str, Any], rng: object = None) -> int:
    """The bid for one game_state message (``rng`` is unused: the bot is deterministic)."""
    obs = message["payload"]
    hand = sorted(message.get("legalMoves") or obs["hand"])
    prize = obs["prize"]
    seat = obs["seat"]
    rivals = [h for s, h in enumerate(obs["hands"]) if s != seat and s not in obs["eliminated"] and h]
    best_rival = max((max(h) for h in rivals), default=0)
    # The cheapest card worth the prize, and the cheapest card above all the others still hold
    # (a certain win); bid the cheaper of the two, else throw away our lowest card.
    worth = [card for card in hand if card >= prize][:1]
    certain = [card for card in hand if card > best_rival][:1]
    return min(worth + certain) if worth or certain else hand[0]


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"goofspiel_heuristic: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if message.get("type") != "game_state":
            continue
        print(json.dumps({"type": "turn", "payload": choose(message)}), flush=True)


if __name__ == "__main__":
    main()
