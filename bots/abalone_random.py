#!/usr/bin/env python3
"""An Abalone bot that plays a uniformly random legal move.

This file stands alone: it needs only Python 3 and its standard library, so you can copy it and
start your own bot from it. Run it under arena:

    arena match --game abalone "python3 bots/abalone_random.py --seed 1" "python3 bots/abalone_greedy.py"

Protocol (arena's generic JSON protocol): every time it is our turn, arena writes one JSON object
on one line,

    {"type": "game_state",
     "payload": {"board": ["wwwww", "wwwwww", "..www..", "........", ".........",
                           "........", "..bbb..", "bbbbbb", "bbbbb"],
                 "turn": "BLACK", "turnNumber": 0},
     "timeLeftMs": 60000}

and we answer with one JSON object on one line, then flush:

    {"type": "turn", "payload": {"marbles": ["C3", "C4", "C5"], "direction": "NW"}}

`turn` is the colour we play; `timeLeftMs` our clock. The board lists the rows from I (top, White's
side at the start) down to A (bottom, Black's side); each row's cells from the lowest diagonal
number up: I5-I9, H4-H9, G3-G9, F2-F9, E1-E9, D1-D8, C1-C7, B1-B6, A1-A5. 'b' black, 'w' white,
'.' empty. Directions: E and W along a row, NE (A1 -> B2), NW (A1 -> B1), SW, SE. We list the 1-3
marbles that move; pushed enemy marbles are not listed. When the game is over arena closes our
stdin: we exit. Debug output goes to stderr only: stdout is the protocol channel.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

# --- The rules ------------------------------------------------------------------------------------
# A cell is (row, diagonal): row 0-8 for A-I, diagonal 1-9. A move shifts a straight line of 1-3
# own marbles one cell. Inline (along the line; a lone marble always): the cell ahead must be empty,
# or hold a shorter enemy line (3 v 2 or 1, 2 v 1) followed by an empty cell or the board's edge
# (a marble pushed over the edge is lost). Broadside (across the line): every destination empty.
# Pushing off six enemy marbles wins.

ROWS = "ABCDEFGHI"
STEPS = {"E": (0, 1), "NE": (1, 1), "NW": (1, 0), "W": (0, -1), "SW": (-1, -1), "SE": (-1, 0)}
PIECE = {"BLACK": "b", "WHITE": "w"}

Cell = tuple[int, int]
Move = tuple[tuple[Cell, ...], str]  # (the moving marbles, direction name)


def on_board(cell: Cell) -> bool:
    row, diagonal = cell
    return 0 <= row <= 8 and max(1, row - 3) <= diagonal <= min(9, row + 5)


def read_board(rows: list[str]) -> dict[Cell, str]:
    """The protocol's 9 strings (row I first) as a dict of occupied cells."""
    board: dict[Cell, str] = {}
    for i, line in enumerate(rows):
        row = 8 - i
        for k, char in enumerate(line):
            if char in "bw":
                board[(row, max(1, row - 3) + k)] = char
    return board


def step(cell: Cell, direction: str, times: int = 1) -> Cell:
    dr, dd = STEPS[direction]
    return (cell[0] + times * dr, cell[1] + times * dd)


def legal_moves(board: dict[Cell, str], colour: str) -> list[Move]:
    """Every legal move of `colour` ("BLACK" or "WHITE")."""
    mine = PIECE[colour]
    moves: list[Move] = []
    for cell, piece in board.items():
        if piece != mine:
            continue
        # Lines starting at `cell` and growing towards each of three axes (E, NE, NW), so each
        # line of 2-3 is found once; a lone marble once.
        lines = [(cell,)]
        for axis in ("E", "NE", "NW"):
            line = [cell]
            for k in (1, 2):
                nxt = step(cell, axis, k)
                if board.get(nxt) != mine:
                    break
                line.append(nxt)
                lines.append(tuple(line))
        for line in lines:
            for direction in STEPS:
                if inline(line, direction):
                    if can_go_inline(board, line, direction, mine):
                        moves.append((line, direction))
                elif all(on_board(step(c, direction)) and step(c, direction) not in board for c in line):
                    moves.append((line, direction))
    return moves


def inline(line: tuple[Cell, ...], direction: str) -> bool:
    """A lone marble, or a line whose axis is the direction's."""
    if len(line) == 1:
        return True
    return step(line[0], direction) in line or step(line[0], direction, -1) in line


def can_go_inline(board: dict[Cell, str], line: tuple[Cell, ...], direction: str, mine: str) -> bool:
    front = next(c for c in line if step(c, direction) not in line)
    ahead = step(front, direction)
    if not on_board(ahead):
        return False  # a marble never walks off the board
    if ahead not in board:
        return True
    enemies = 0
    while on_board(ahead) and ahead in board and board[ahead] != mine:
        enemies += 1
        ahead = step(ahead, direction)
    if enemies == 0 or enemies >= len(line):
        return False  # our own marble ahead, or not outnumbered
    return not (on_board(ahead) and ahead in board)  # beyond: empty or off the board


def cell_name(cell: Cell) -> str:
    return ROWS[cell[0]] + str(cell[1])


def turn_message(move: Move) -> str:
    """The protocol's reply for a move, as one line of JSON."""
    return json.dumps({"type": "turn", "payload": {"marbles": [cell_name(c) for c in move[0]],
                                                   "direction": move[1]}})


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
                        print(f"abalone_random: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Abalone bot playing uniformly random legal moves.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"abalone_random: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        moves = legal_moves(read_board(state["board"]), state["turn"])
        if not moves:
            # Arena ends the game before asking a player without a legal move; nothing to say.
            print("abalone_random: no legal move", file=sys.stderr)
            return
        print(turn_message(rng.choice(moves)), flush=True)


if __name__ == "__main__":
    main()
