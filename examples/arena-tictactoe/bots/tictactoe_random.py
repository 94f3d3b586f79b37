#!/usr/bin/env python3
"""A tic-tac-toe bot that plays a uniformly random empty cell, over arena's generic JSON protocol.

It stands alone (Python 3 and its standard library): copy it to start a bot of your own, in any
language. Run it under arena once the plugin is installed:

    arena match --game tictactoe "python3 bots/tictactoe_random.py --seed 1" "python3 bots/tictactoe_random.py"

Protocol ("json", the generic envelope): when it is our turn, arena writes one line

    {"type": "game_state", "payload": {"board": ["x.o", ".x.", "..."], "turn": "WHITE", "turnNumber": 3},
     "timeLeftMs": 1950}

(``board``: the rows from the top, "x" = Black = first player, "o" = White, "." empty; ``turn``: the
side we play) and we answer one line, then flush:

    {"type": "turn", "payload": 7}

the payload being the cell index 0-8 in reading order (cell i is board[i // 3][i % 3]). The game
ends when arena closes our stdin. Debug output goes to stderr only: stdout is the protocol channel.
"""

from __future__ import annotations

import argparse
import json
import random
import sys


def empty_cells(board: list[str]) -> list[int]:
    """The indices 0-8 of the empty cells of a board given as three row strings."""
    cells = "".join(board)
    return [i for i, mark in enumerate(cells) if mark == "."]


def main() -> None:
    parser = argparse.ArgumentParser(description="Tic-tac-toe bot playing uniformly random legal moves.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    while True:
        line = sys.stdin.readline()
        if not line:
            return  # arena closed our stdin: the game is over
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"tictactoe_random: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            print(f"tictactoe_random: ignoring message {line.strip()[:80]!r}", file=sys.stderr)
            continue
        cells = empty_cells(message["payload"]["board"])
        if not cells:
            print("tictactoe_random: no empty cell", file=sys.stderr)
            return
        print(json.dumps({"type": "turn", "payload": rng.choice(cells)}), flush=True)


if __name__ == "__main__":
    main()
