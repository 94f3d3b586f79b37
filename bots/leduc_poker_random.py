#!/usr/bin/env python3
"""A Leduc poker bot that plays a uniformly random legal move (any number of players).

This file stands alone: it needs only Python 3 and its standard library. Run it under arena:

    arena match --game leduc_poker --players 3 "python3 bots/leduc_poker_random.py --seed 1" \\
        "python3 bots/leduc_poker_heuristic.py" "python3 bots/leduc_poker_random.py"

Protocol (arena's N-seat JSON protocol): when it is our turn, arena writes one JSON object on one
line, e.g.

    {"type": "game_state", "payload": {"players": 2, "seat": 1, "card": 0, "public": null, "ranks": 3,
     "round": 1, "rounds": [[[0, "raise"]]], "contributions": [3, 1], "pot": 4, "stakes": 3,
     "raises": 1, "toAct": 1, "folded": [], "out": [], "over": false}, "timeLeftMs": 5000,
     "seat": 1, "players": 2, "simultaneous": false}

and we answer with one line, then flush: {"type": "turn", "payload": "call"} ("fold", "call" or
"raise"). The legal moves follow from the payload: "fold" when our contribution is below `stakes`,
"call" always, "raise" while `raises` (this round's) is below 2; a `legalMoves` list, when arena
sends one, is used instead. Debug output goes to stderr only. At the end of input we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys


def legal_moves(message: dict) -> list[str]:
    """The moves we may play: arena's list when sent, else worked out from our observation."""
    if message.get("legalMoves"):
        return list(message["legalMoves"])
    observation = message["payload"]
    moves = ["fold"] if observation["contributions"][observation["seat"]] < observation["stakes"] else []
    moves.append("call")
    if observation["raises"] < 2:
        moves.append("raise")
    return moves


def choose(message: dict, rng: random.Random) -> str:
    """Our move for one `game_state` message: a uniformly random legal move."""
    return rng.choice(legal_moves(message))


def main() -> None:
    parser = argparse.ArgumentParser(description="Leduc poker bot playing uniformly random legal moves.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"leduc_poker_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            print(f"leduc_poker_random: ignoring {line.strip()[:60]!r}", file=sys.stderr)
            continue
        print(json.dumps({"type": "turn", "payload": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
