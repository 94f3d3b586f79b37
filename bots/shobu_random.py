#!/usr/bin/env python3
"""A Shobu bot that plays a uniformly random legal turn.

This file stands alone: it needs only Python 3 and its standard library, so you can copy it and
start your own bot from it. Run it under arena:

    arena match "python3 bots/shobu_random.py --seed 1" "python3 bots/shobu_greedy.py"

Protocol (see arena's shobu.md): every time it is our turn, arena writes one JSON object

    {"type": "game_state", "payload": {"board": "<64 chars>", "turn": "BLACK", "turnNumber": 0}}

and we answer with one JSON object on one line, then flush:

    {"type": "turn", "payload": {"passive": {"origin": {"x": 0, "y": 7}, "heading": {"x": 0, "y": -1}},
                                 "aggressive": {"origin": {"x": 4, "y": 3}, "heading": {"x": 0, "y": -1}}}}

`turn` in the game state is the colour we play. Debug output goes to stderr only: stdout is the
protocol channel.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

# --- The rules ------------------------------------------------------------------------------------
# The board is a 64-character string, index = x + 8*y, (0, 0) top-left. 'x' black, 'o' white.
# It is made of four 4x4 sub-boards. Black's home boards are the bottom two (y 4-7), White's the top
# two (y 0-3). The left column of boards (x 0-3) is one colour, the right column (x 4-7) the other.

EMPTY = "."
STONE = {"BLACK": "x", "WHITE": "o"}
HOME_ROW = {"BLACK": 1, "WHITE": 0}  # which row of sub-boards (y // 4) is the player's home

# A heading is a direction times a distance of 1 or 2: 16 headings.
DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
HEADINGS = [(dx * k, dy * k) for (dx, dy) in DIRECTIONS for k in (1, 2)]

Square = tuple[int, int]
Heading = tuple[int, int]
Turn = tuple[Square, Heading, Square]  # passive origin, heading, aggressive origin


def same_sub_board(x0: int, y0: int, x1: int, y1: int) -> bool:
    """True if (x1, y1) is on the board and on the same 4x4 sub-board as (x0, y0)."""
    return 0 <= x1 < 8 and 0 <= y1 < 8 and x0 // 4 == x1 // 4 and y0 // 4 == y1 // 4


def steps(heading: Heading) -> tuple[int, int, int]:
    """Split a heading into its unit direction and its distance (1 or 2)."""
    dx, dy = heading
    distance = max(abs(dx), abs(dy))
    return dx // distance, dy // distance, distance


def passive_ok(board: str, x: int, y: int, heading: Heading) -> bool:
    """Can the stone at (x, y) make this passive move? Every square on the way must be empty."""
    ux, uy, distance = steps(heading)
    for step in range(1, distance + 1):
        nx, ny = x + ux * step, y + uy * step
        if not same_sub_board(x, y, nx, ny) or board[nx + 8 * ny] != EMPTY:
            return False
    return True


def aggressive_ok(board: str, x: int, y: int, heading: Heading, mine: str) -> bool:
    """Can our stone at (x, y) make this aggressive move?

    It may push at most one stone, which must be the opponent's, to the square just beyond where
    our stone lands; that square must be empty or off the sub-board (the pushed stone is removed).
    """
    ux, uy, distance = steps(heading)
    met = 0  # stones met on the way (passed over or on the landing square)
    for step in range(1, distance + 1):
        nx, ny = x + ux * step, y + uy * step
        if not same_sub_board(x, y, nx, ny):
            return False
        square = board[nx + 8 * ny]
        if square == mine:
            return False  # never push your own stone
        if square != EMPTY:
            met += 1
    if met > 1:
        return False  # cannot push two stones
    if met == 1:
        bx, by = x + ux * (distance + 1), y + uy * (distance + 1)
        if same_sub_board(x, y, bx, by) and board[bx + 8 * by] != EMPTY:
            return False  # the pushed stone would land on another stone
    return True


def legal_turns(board: str, colour: str) -> list[Turn]:
    """Every legal turn for `colour`: passive origin, heading, aggressive origin."""
    mine = STONE[colour]
    home = HOME_ROW[colour]
    turns: list[Turn] = []
    for heading in HEADINGS:
        for i in range(64):
            x, y = i % 8, i // 8
            if board[i] != mine or y // 4 != home or not passive_ok(board, x, y, heading):
                continue
            # The aggressive stone must be on a board of the other colour: the other column.
            # It never shares a sub-board with the passive stone, so the passive move cannot
            # change what the aggressive move finds.
            for j in range(64):
                ax, ay = j % 8, j // 8
                if board[j] == mine and ax // 4 != x // 4 and aggressive_ok(board, ax, ay, heading, mine):
                    turns.append(((x, y), heading, (ax, ay)))
    return turns


def turn_message(turn: Turn) -> str:
    """The protocol's reply for a turn, as one line of JSON."""
    (px, py), (hx, hy), (ax, ay) = turn
    heading = {"x": hx, "y": hy}
    payload = {
        "passive": {"origin": {"x": px, "y": py}, "heading": heading},
        "aggressive": {"origin": {"x": ax, "y": ay}, "heading": heading},
    }
    return json.dumps({"type": "turn", "payload": payload})


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
                        print(f"shobu_random: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Shobu bot playing uniformly random legal turns.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"shobu_random: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        turns = legal_turns(state["board"], state["turn"])
        if not turns:
            # Arena ends the game before asking a player without a legal turn; nothing to say.
            print("shobu_random: no legal turn", file=sys.stderr)
            return
        print(turn_message(rng.choice(turns)), flush=True)


if __name__ == "__main__":
    main()
