#!/usr/bin/env python3
"""A bot that plays any game uniformly at random from the legal moves arena sends it: every
OpenSpiel game (``--game spiel:NAME``, whose observations list the legal actions), and any game of
the general model played with ``--legal-moves`` (config key ``"legalMoves": true``), such as an
external referee's game.

This file stands alone: it needs only Python 3 and its standard library. Run it under arena:

    arena match --game spiel:liars_dice "python3 bots/legal_random.py --seed 1" \\
        "python3 bots/liars_dice_bidder.py"

Protocol (arena's N-seat JSON protocol): when our seat must act, arena writes one JSON object on
one line, e.g. (Liar's Dice, seat 1, holding a 6, after seat 0 bid one 3)

    {"type": "game_state", "payload": {"game": "liars_dice", "legalActions": [3, 4, ..., 12],
     "legalNames": ["1-4", "1-5", ..., "Liar"], "textOf": "information_state", "text": "6 1-3",
     "tensorOf": "observation", "tensor": [0.0, 1.0, ...], "shape": [21]},
     "timeLeftMs": 5000, "seat": 1, "players": 2, "simultaneous": false}

and we answer with one line, then flush: {"type": "turn", "payload": "Liar"}. A move is an
action's name (``legalNames``) or its integer id (``legalActions``); we send the name. Otherwise
we choose from the ``legalMoves`` list arena sends with ``--legal-moves``. Debug output goes to
stderr only. At the end of input (arena closes our stdin) we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys


def legal_moves(message: dict) -> list:
    """The moves we may play: the payload's action names (every spiel: game sends them)."""
    payload = message.get("payload")
    names = payload.get("legalNames") if isinstance(payload, dict) else None
    return list(names or message.get("legalMoves") or [])


def main() -> None:
    parser = argparse.ArgumentParser(description="Plays any game under arena uniformly at random from the legal moves it is sent.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"legal_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            print(f"legal_random: ignoring {line.strip()[:60]!r}", file=sys.stderr)
            continue
        moves = legal_moves(message)
        if not moves:
            print("legal_random: no legal moves in the message: play with --legal-moves (config: legalMoves true)",
                  file=sys.stderr)
            sys.exit(1)
        print(json.dumps({"type": "turn", "payload": rng.choice(moves)}), flush=True)


if __name__ == "__main__":
    main()
