#!/usr/bin/env python3
"""A Breakthrough bot that plays a uniformly random legal move.

This file stands alone: it needs only Python 3 and its standard library, so you can copy it and
start your own bot from it. Run it under arena:

    arena match --game breakthrough "python3 bots/breakthrough_random.py --seed 1" \
        "python3 bots/breakthrough_greedy.py"

Protocol (arena's generic JSON protocol): every time it is our turn, arena writes one JSON object
on one line,

    {"type": "game_state",
     "payload": {"board": ["wwwwwwww", "wwwwwwww", "........", "........",
                           "........", "........", "bbbbbbbb", "bbbbbbbb"],
                 "turn": "BLACK", "turnNumber": 0},
     "timeLeftMs": 60000}

and we answer with one JSON object on one line, then flush:

    {"type": "turn", "payload": {"from": "a2", "to": "a3"}}

`turn` in the game state is the colour we play; `timeLeftMs` our clock. The board lists row 8
first and row 1 last; in each row, files a to h left to right; 'b' black, 'w' white, '.' empty.
Black starts on rows 1-2 and moves up (towards row 8), White on rows 7-8 moving down. A capture is
sent like any move. When the game is over arena closes our stdin: we exit. Debug output goes to
stderr only: stdout is the protocol channel.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

# --- The rules ------------------------------------------------------------------------------------
# A square is (file, row): file 0-7 for a-h, row 1-8. A piece moves one square straight forward
# onto an empty square, or one square diagonally forward onto an empty square or an enemy piece,
# which it captures. Reaching the far row, or taking the last enemy piece, wins.

PIECE = {"BLACK": "b", "WHITE": "w"}
FORWARD = {"BLACK": 1, "WHITE": -1}  # Black moves towards row 8, White towards row 1

Square = tuple[int, int]
Move = tuple[Square, Square]


def piece_at(board: list[str], file: int, row: int) -> str:
    """'b', 'w' or '.' on (file, row); board[0] is row 8."""
    return board[8 - row][file]


def legal_moves(board: list[str], colour: str) -> list[Move]:
    """Every legal move of `colour`, as (from, to) squares."""
    mine, step = PIECE[colour], FORWARD[colour]
    moves: list[Move] = []
    for row in range(1, 9):
        for file in range(8):
            if piece_at(board, file, row) != mine:
                continue
            to_row = row + step
            if not 1 <= to_row <= 8:
                continue
            for to_file in (file - 1, file, file + 1):
                if not 0 <= to_file < 8:
                    continue
                there = piece_at(board, to_file, to_row)
                if there == ".":
                    moves.append(((file, row), (to_file, to_row)))
                elif there != mine and to_file != file:
                    moves.append(((file, row), (to_file, to_row)))  # a diagonal capture
    return moves


def square_name(square: Square) -> str:
    file, row = square
    return "abcdefgh"[file] + str(row)


def turn_message(move: Move) -> str:
    """The protocol's reply for a move, as one line of JSON."""
    return json.dumps({"type": "turn", "payload": {"from": square_name(move[0]), "to": square_name(move[1])}})


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
                        print(f"breakthrough_random: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Breakthrough bot playing uniformly random legal moves.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"breakthrough_random: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        moves = legal_moves(state["board"], state["turn"])
        if not moves:
            # Arena ends the game before asking a player without a legal move; nothing to say.
            print("breakthrough_random: no legal move", file=sys.stderr)
            return
        print(turn_message(rng.choice(moves)), flush=True)


if __name__ == "__main__":
    main()
