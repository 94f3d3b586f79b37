#!/usr/bin/env python3
"""A Pig bot that rolls or holds uniformly at random (any number of players).

This file stands alone (Python 3 and its standard library only): copy it to start your own bot.
Run it under arena, e.g. with three players:

    arena match --game pig --players 3 "python3 bots/pig_random.py --seed 1" \\
        "python3 bots/pig_hold20.py" "python3 bots/pig_random.py"

Protocol (arena's N-seat JSON envelope): when it is our turn, arena writes one line,

    {"type": "game_state", "payload": {"seat": 1, "players": 3, "target": 100,
     "scores": [34, 20, 51], "turn": 1, "turnTotal": 12, "rolling": false, "lastRoll": 5,
     "eliminated": [], "winner": null, "steps": 41}, "timeLeftMs": 5000, "seat": 1,
     "players": 3, "simultaneous": false}

and we answer one line, then flush: {"type": "turn", "payload": "roll"} or "hold". Holding needs
points gathered this turn ("turnTotal" above 0); a "legalMoves" list, when arena sends one, is used
instead. At the end of input we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any


def legal_moves(message: dict[str, Any]) -> list[str]:
    """arena's list when sent; else "roll", and "hold" once the turn has gathered points."""
    if message.get("legalMoves"):
        return list(message["legalMoves"])
    return ["roll", "hold"] if message["payload"]["turnTotal"] > 0 else ["roll"]


def choose(message: dict[str, Any], rng: random.Random) -> str:
    """Our move for one game_state message: a uniformly random legal move."""
    return rng.choice(legal_moves(message))


def main() -> None:
    parser = argparse.ArgumentParser(description="Pig bot rolling or holding at random.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    rng = random.Random(parser.parse_args().seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"pig_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            continue
        print(json.dumps({"type": "turn", "payload": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
