#!/usr/bin/env python3
"""A tiny Connect Four bot whose strength is an option, for the SPSA command-agent tests.

``--skill N`` (0 to 10): each move is, with probability N/10, a sensible one (win at once, else
block the opponent's four, else the column nearest the centre), otherwise a random legal column.
A negative skill makes the bot exit at once without a move (a crash, for the fault tests).
Standard library only; arena's generic JSON protocol, one object a line.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

ROWS, COLUMNS = 6, 7


def drop(board: list[str], column: int, piece: str) -> list[str] | None:
    """The board after ``piece`` falls into ``column`` (None when the column is full)."""
    for row in range(ROWS - 1, -1, -1):
        if board[row][column] == ".":
            line = board[row]
            return board[:row] + [line[:column] + piece + line[column + 1:]] + board[row + 1:]
    return None


def four(board: list[str], piece: str) -> bool:
    for row in range(ROWS):
        for column in range(COLUMNS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + i * dr, column + i * dc) for i in range(4)]
                if all(0 <= r < ROWS and 0 <= c < COLUMNS and board[r][c] == piece for r, c in cells):
                    return True
    return False


def choose(board: list[str], me: str, skill: int, rng: random.Random) -> int:
    legal = [c for c in range(COLUMNS) if board[0][c] == "."]
    if rng.random() >= skill / 10:
        return rng.choice(legal)
    them = "w" if me == "b" else "b"
    for piece in (me, them):
        for column in legal:
            after = drop(board, column, piece)
            if after is not None and four(after, piece):
                return column
    return min(legal, key=lambda c: abs(c - 3))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skill", type=int, required=True)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    if args.skill < 0:
        print("skill_bot: negative skill, giving up", file=sys.stderr)
        return 3
    rng = random.Random(args.seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") != "game_state":
            continue
        state = message["payload"]
        me = "b" if state["turn"] == "BLACK" else "w"
        print(json.dumps({"type": "turn", "payload": choose(state["board"], me, args.skill, rng)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
