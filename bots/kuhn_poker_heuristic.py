#!/usr/bin/env python3
"""A Kuhn poker bot that bets its strong cards and folds its weak ones (any number of players).

This file stands alone: it needs only Python 3 and its standard library. Run it under arena:

    arena match --game kuhn_poker "python3 bots/kuhn_poker_heuristic.py" "python3 bots/kuhn_poker_random.py"

Strategy. The deck holds `deck` cards, 0 (lowest) to deck-1 (highest); a strong card is one of the
two highest. Nobody has bet yet: bet with a strong card, pass otherwise. Facing a bet: call ("bet")
with a strong card, fold ("pass") otherwise.

Protocol (arena's N-seat JSON protocol): when it is our turn, arena writes one JSON object on one
line, e.g.

    {"type": "game_state", "payload": {"players": 2, "seat": 0, "card": 2, "deck": 3, "history": [],
     "contributions": [1, 1], "pot": 2, "bettor": null, "toAct": 0, "folded": [], "out": [],
     "over": false}, "timeLeftMs": 5000, "seat": 0, "players": 2, "simultaneous": false}

and we answer with one line, then flush: {"type": "turn", "payload": "bet"}. `card` is our card,
`bettor` the seat that bet (null: nobody yet). Debug output goes to stderr only. At the end of
input (arena closes our stdin) we exit.
"""

from __future__ import annotations

import json
import sys

MOVES = ["pass", "bet"]


def choose(message: dict) -> str:
    """Our move for one `game_state` message (its payload is our observation)."""
    observation = message["payload"]
    card, top = observation["card"], observation["deck"] - 1
    move = "bet" if card >= top - 1 else "pass"  # the same rule opens and answers a bet
    legal = message.get("legalMoves") or MOVES
    return move if move in legal else legal[0]


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"kuhn_poker_heuristic: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            print(f"kuhn_poker_heuristic: ignoring {line.strip()[:60]!r}", file=sys.stderr)
            continue
        print(json.dumps({"type": "turn", "payload": choose(message)}), flush=True)


if __name__ == "__main__":
    main()
