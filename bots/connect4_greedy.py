#!/usr/bin/env python3
"""A greedy Connect Four bot: it looks one move ahead.

Preference, best first:
1. a column that makes four in a row at once (we win);
2. a column that takes the cell where the opponent would make four next (we block);
3. a column after which the opponent cannot win at once (we do not play just below its winning
   cell), if there is any;
then, among those, the column nearest the centre (the middle column lies on the most lines), ties
broken at random (`--seed N` makes games reproducible).

This file stands alone: Python 3 and its standard library only. Run it under arena:

    arena match --game connect4 "python3 bots/connect4_greedy.py" "python3 bots/connect4_random.py"

Protocol (arena's generic JSON protocol): arena writes one JSON object per turn, on one line,
    {"type": "game_state",
     "payload": {"board": [".......", ".......", ".......", ".......", ".......", "...b..."],
                 "turn": "WHITE", "turnNumber": 1},
     "timeLeftMs": 29950}
and we answer with one line of JSON and flush:
    {"type": "turn", "payload": 3}
The board is 6 strings of 7 characters, the TOP row first: 'b' black, 'w' white, '.' empty; pieces
fall to the lowest empty cell of a column. `turn` is the colour we play. The reply's payload is a
column number, 0 (left) to 6 (right). Debug output goes to stderr only. We exit at end of input.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

ROWS, COLUMNS = 6, 7
EMPTY = "."
PIECE = {"BLACK": "b", "WHITE": "w"}
# Directions of a line (row step, column step): across, down, and the two diagonals.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

Grid = list[list[str]]  # grid[row][column], row 0 at the top, as in the protocol's board


def landing_row(grid: Grid, column: int) -> int | None:
    """The row a piece dropped into `column` lands on, or None if the column is full."""
    for row in range(ROWS - 1, -1, -1):
        if grid[row][column] == EMPTY:
            return row
    return None


def makes_four(grid: Grid, row: int, column: int, piece: str) -> bool:
    """Would `piece` at (row, column) complete four in a row? (The cell itself is not read.)"""
    for dr, dc in DIRECTIONS:
        count = 1
        for sign in (1, -1):  # walk both ways from the cell
            r, c = row + sign * dr, column + sign * dc
            while 0 <= r < ROWS and 0 <= c < COLUMNS and grid[r][c] == piece:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= 4:
            return True
    return False


def winning_columns(grid: Grid, piece: str) -> list[int]:
    """The columns where `piece` would make four with its next drop."""
    found = []
    for column in range(COLUMNS):
        row = landing_row(grid, column)
        if row is not None and makes_four(grid, row, column, piece):
            found.append(column)
    return found


def choose_column(board: list[str], colour: str, rng: random.Random) -> int | None:
    """The greedy choice (see the module docstring), or None when every column is full."""
    grid = [list(line) for line in board]
    mine = PIECE[colour]
    theirs = PIECE["WHITE" if colour == "BLACK" else "BLACK"]
    legal = [column for column in range(COLUMNS) if landing_row(grid, column) is not None]
    if not legal:
        return None
    candidates = winning_columns(grid, mine) or winning_columns(grid, theirs)
    if not candidates:
        safe = []
        for column in legal:
            row = landing_row(grid, column)
            assert row is not None
            grid[row][column] = mine
            if not winning_columns(grid, theirs):
                safe.append(column)
            grid[row][column] = EMPTY
        candidates = safe or legal
    nearest = min(abs(column - COLUMNS // 2) for column in candidates)
    return rng.choice([column for column in candidates if abs(column - COLUMNS // 2) == nearest])


def turn_message(column: int) -> str:
    """The protocol's reply for a move, as one line of JSON."""
    return json.dumps({"type": "turn", "payload": column})


# --- Reading the protocol -------------------------------------------------------------------------


def json_objects(stream) -> Iterator[dict]:
    """Yield each JSON object read from `stream`, on one line or spread over several.

    Braces are counted outside strings, so pretty-printed input works as well as one object per
    line. Text that is not valid JSON is reported on stderr and skipped.
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
                        print(f"connect4_greedy: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Greedy one-move look-ahead Connect Four bot.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"connect4_greedy: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        column = choose_column(state["board"], state["turn"], rng)
        if column is None:
            print("connect4_greedy: no legal move", file=sys.stderr)  # arena never asks then
            return
        print(turn_message(column), flush=True)


if __name__ == "__main__":
    main()
