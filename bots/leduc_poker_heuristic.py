#!/usr/bin/env python3
"""A Leduc poker bot that raises its strong hands and folds its weak ones (any number of players).

This file stands alone: it needs only Python 3 and its standard library. Run it under arena:

    arena match --game leduc_poker "python3 bots/leduc_poker_heuristic.py" "python3 bots/leduc_poker_random.py"

Strategy. Cards have ranks 0 to `ranks` - 1 (a card's rank is card // 2). Before the public card:
raise with the highest rank, call with any other rank but the lowest, and with the lowest call
only when there is nothing to match (fold facing a raise). After it: raise with a pair (our rank is
the public card's); call with the highest rank; otherwise check when there is nothing to match and
fold facing a raise. A raise that is no longer allowed (two this round) becomes a call.

Protocol (arena's N-seat JSON protocol): when it is our turn, arena writes one JSON object on one
line, e.g.

    {"type": "game_state", "payload": {"players": 2, "seat": 0, "card": 4, "public": null, "ranks": 3,
     "round": 1, "rounds": [[]], "contributions": [1, 1], "pot": 2, "stakes": 1, "raises": 0,
     "toAct": 0, "folded": [], "out": [], "over": false}, "timeLeftMs": 5000, "seat": 0,
     "players": 2, "simultaneous": false}

and we answer with one line, then flush: {"type": "turn", "payload": "raise"}. Debug output goes to
stderr only. At the end of input (arena closes our stdin) we exit.
"""

from __future__ import annotations

import json
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


def choose(message: dict) -> str:
    """Our move for one `game_state` message (its payload is our observation)."""
    observation = message["payload"]
    rank, top = observation["card"] // 2, observation["ranks"] - 1
    public = observation["public"]
    legal = legal_moves(message)
    facing = "fold" in legal  # something to match
    if public is None:
        want = "raise" if rank == top else "call" if rank > 0 or not facing else "fold"
    elif rank == public // 2:
        want = "raise"
    else:
        want = "call" if rank == top or not facing else "fold"
    if want == "raise" and want not in legal:
        want = "call"
    return want if want in legal else legal[0]


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"leduc_poker_heuristic: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            print(f"leduc_poker_heuristic: ignoring {line.strip()[:60]!r}", file=sys.stderr)
            continue
        print(json.dumps({"type": "turn", "payload": choose(message)}), flush=True)


if __name__ == "__main__":
    main()
