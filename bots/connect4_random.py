#!/usr/bin/env python3
"""A Connect Four bot that drops its piece into a uniformly random column that is not full.

This file stands alone: it needs only Python 3 and its standard library, so you can copy it and
start your own bot from it. Run it under arena:

    arena match --game connect4 "python3 bots/connect4_random.py --seed 1" "python3 bots/connect4_greedy.py"

Protocol (arena's generic JSON protocol): every time it is our turn, arena writes one JSON object
on one line,

    {"type": "game_state",
     "payload": {"board": [".......", ".......", ".......", ".......", ".......", "...b..."],
                 "turn": "WHITE", "turnNumber": 1},
     "timeLeftMs": 29950}

and we answer with one JSON object on one line, then flush:

    {"type": "turn", "payload": 3}

The board is 6 strings of 7 characters, the TOP row first: 'b' a black piece, 'w' a white piece,
'.' an empty cell. Pieces fall to the lowest empty cell of their column. `turn` is the colour we
play (Black moves first). The payload of our reply is the column number, 0 (left) to 6 (right), as
a JSON integer. Debug output goes to stderr only: stdout is the protocol channel. At the end of
input (arena closes our stdin) we exit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

EMPTY = "."


def legal_columns(board: list[str]) -> list[int]:
    """The columns that are not full: those whose top cell (board[0]) is empty."""
    return [column for column, cell in enumerate(board[0]) if cell == EMPTY]


def turn_message(column: int) -> str:
    """The protocol's reply for a move, as one line of JSON."""
    return json.dumps({"type": "turn", "payload": column})


# --- Reading the protocol -------------------------------------------------------------------------


def json_objects(stream) -> Iterator[dict]:
    """Yield each JSON object read from `stream`, whether it sits on one line or spans several.

    Arena sends one object per line; counting braces (outside strings) also copes with
    pretty-printed input. Text that is not valid JSON is reported on stderr and skipped.
    """
    buffer, depth, in_string, escaped = "", 0, False, False
    for line in stream:
        for char in line:
            if depth == 0 and char != "{":
                continue  # whitespace (or junk) between objects
            buffer += char
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    try:
                        yield json.loads(buffer)
                    except ValueError as error:
                        print(f"connect4_random: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Connect Four bot playing uniformly random columns.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"connect4_random: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        columns = legal_columns(message["payload"]["board"])
        if not columns:
            # Arena ends the game before asking a player without a legal move; nothing to say.
            print("connect4_random: no legal move", file=sys.stderr)
            return
        print(turn_message(rng.choice(columns)), flush=True)


if __name__ == "__main__":
    main()
