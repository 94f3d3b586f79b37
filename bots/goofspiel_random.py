#!/usr/bin/env python3
"""A Goofspiel bot that bids a uniformly random card from its hand.

This file stands alone (Python 3 and its standard library only): copy it to start your own bot.
Run it under arena, e.g. with three players:

    arena match --game goofspiel --players 3 "python3 bots/goofspiel_random.py --seed 1" \
        "python3 bots/goofspiel_heuristic.py" "python3 bots/goofspiel_random.py"

Protocol (arena's N-seat JSON envelope): when our bid is wanted, arena writes one line,

    {"type": "game_state", "payload": {"seat": 0, "players": 2, "numCards": 4,
     "hand": [1, 2, 3, 4], "hands": [[1, 2, 3, 4], [1, 2, 3, 4]], "prizes": [3], "prize": 3,
     "bids": [], "winners": [], "points": [0, 0], "eliminated": [], "round": 0, "terminal": false},
     "timeLeftMs": 10000, "seat": 0, "players": 2, "simultaneous": true}

and we answer one line, then flush: {"type": "turn", "payload": 2} (the card's value). All seats
bid at once; the bids are shown in the next observation's "bids". A "legalMoves" list may come too
(when the agent opted in); we use it when present. At the end of input we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any


def choose(message: dict[str, Any], rng: random.Random) -> int:
    """The bid for one game_state message: any card of our hand."""
    legal = message.get("legalMoves") or message["payload"]["hand"]
    return rng.choice(legal)


def main() -> None:
    parser = argparse.ArgumentParser(description="Goofspiel bot bidding random cards.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    rng = random.Random(parser.parse_args().seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"goofspiel_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if message.get("type") != "game_state":
            continue
        print(json.dumps({"type": "turn", "payload": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
