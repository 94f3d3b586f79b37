#!/usr/bin/env python3
"""A Kuhn poker bot that passes or bets uniformly at random (any number of players).

This file stands alone: it needs only Python 3 and its standard library. Run it under arena:

    arena match --game kuhn_poker --players 3 "python3 bots/kuhn_poker_random.py --seed 1" \\
        "python3 bots/kuhn_poker_heuristic.py" "python3 bots/kuhn_poker_random.py"

Protocol (arena's N-seat JSON protocol): when it is our turn, arena writes one JSON object on one
line, e.g.

    {"type": "game_state", "payload": {"players": 2, "seat": 1, "card": 0, "deck": 3,
     "history": [[0, "bet"]], "contributions": [2, 1], "pot": 3, "bettor": 0, "toAct": 1,
     "folded": [], "out": [], "over": false}, "timeLeftMs": 5000, "seat": 1, "players": 2,
     "simultaneous": false}

and we answer with one line, then flush: {"type": "turn", "payload": "pass"} or "bet". Both moves
are always legal for the seat to act (facing a bet, "pass" folds and "bet" calls); a `legalMoves`
list, when arena sends one, is used instead. Debug output goes to stderr only. At the end of input
(arena closes our stdin) we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

MOVES = ["pass", "bet"]


def legal_moves(message: dict) -> list[str]:
    """The moves we may play: arena's list when sent, else both (Kuhn poker always allows both)."""
    return list(message.get("legalMoves") or MOVES)


def choose(message: dict, rng: random.Random) -> str:
    """Our move for one `game_state` message: a uniformly random legal move."""
    return rng.choice(legal_moves(message))


def main() -> None:
    parser = argparse.ArgumentParser(description="Kuhn poker bot playing uniformly random moves.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"kuhn_poker_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            print(f"kuhn_poker_random: ignoring {line.strip()[:60]!r}", file=sys.stderr)
            continue
        print(json.dumps({"type": "turn", "payload": choose(message, rng)}), flush=True)


if __name__ == "__main__":
    main()
