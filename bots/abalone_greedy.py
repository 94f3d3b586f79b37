#!/usr/bin/env python3
"""A greedy Abalone bot: it looks one move ahead, and at the pushes off the board the reply could make.

Each legal move is scored on the position it leads to: 1000 per enemy marble pushed off (a move
that wins, by pushing off the sixth, scores above everything), minus 400 per own marble the
opponent could then push off with one move, plus 5 per own marble pushing against the centre
(minus the marbles' total distance to E5), plus 2 per pair of own marbles side by side (a compact
group is hard to push). The best score is played; ties are broken at random (`--seed N` makes
games reproducible).

This file stands alone: Python 3 and its standard library only. Run it under arena:

    arena match --game abalone "python3 bots/abalone_greedy.py" "python3 bots/abalone_random.py"

Protocol (arena's generic JSON protocol): arena writes a JSON object per turn, on one line,
    {"type": "game_state",
     "payload": {"board": [9 strings, row I first], "turn": "WHITE", "turnNumber": 1},
     "timeLeftMs": 59950}
and we answer with one line of JSON and flush:
    {"type": "turn", "payload": {"marbles": ["G5", "G6", "G7"], "direction": "SE"}}
`turn` is the colour we play. The board lists rows I (top) to A (bottom); each row's cells from
the lowest diagonal number up (I5-I9, H4-H9, G3-G9, F2-F9, E1-E9, D1-D8, C1-C7, B1-B6, A1-A5);
'b' black, 'w' white, '.' empty. Directions: E, W along a row; NE (A1 -> B2), NW (A1 -> B1), SW,
SE. We exit when arena closes stdin. Debug output goes to stderr only.
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



# --- The greedy choice ----------------------------------------------------------------------------

OTHER = {"BLACK": "WHITE", "WHITE": "BLACK"}


def play(board: dict[Cell, str], move: Move) -> dict[Cell, str]:
    """The board after a legal `move`: the line and any marbles it pushes shift one cell; a marble
    shifted off the board is gone."""
    line, direction = move
    mine = board[line[0]]
    shifting = list(line)
    if inline(line, direction):
        front = next(c for c in line if step(c, direction) not in line)
        ahead = step(front, direction)
        while ahead in board and board[ahead] != mine:
            shifting.append(ahead)
            ahead = step(ahead, direction)
    after = dict(board)
    pieces = [(c, after.pop(c)) for c in shifting]
    for cell, piece in pieces:
        target = step(cell, direction)
        if on_board(target):
            after[target] = piece
    return after


def distance_to_centre(cell: Cell) -> int:
    dr, dd = cell[0] - 4, cell[1] - 5
    return max(abs(dr), abs(dd), abs(dr - dd))


def exposed(board: dict[Cell, str], colour: str) -> int:
    """How many marbles of `colour` the opponent could push off with one move: the front marble of
    a pushed line whose next cell is off the board."""
    mine = PIECE[colour]
    lost = set()
    for line, direction in legal_moves(board, OTHER[colour]):
        if not inline(line, direction):
            continue
        front = next(c for c in line if step(c, direction) not in line)
        cell = step(front, direction)
        if board.get(cell) != mine:
            continue
        while board.get(step(cell, direction)) == mine:
            cell = step(cell, direction)
        if not on_board(step(cell, direction)):
            lost.add(cell)
    return len(lost)


def score(board: dict[Cell, str], after: dict[Cell, str], colour: str) -> int:
    mine, theirs = PIECE[colour], PIECE[OTHER[colour]]
    taken = sum(1 for p in board.values() if p == theirs) - sum(1 for p in after.values() if p == theirs)
    if sum(1 for p in after.values() if p == theirs) <= 8:
        return 1_000_000  # six pushed off: the game is won
    own = [c for c, p in after.items() if p == mine]
    centre = -sum(distance_to_centre(c) for c in own)
    pairs = sum(1 for c in own for d in ("E", "NE", "NW") if after.get(step(c, d)) == mine)
    return 1000 * taken - 400 * exposed(after, colour) + 5 * centre + 2 * pairs


def choose_move(board: dict[Cell, str], colour: str, rng: random.Random) -> Move | None:
    """The greedy choice described in the module docstring; None if there is no legal move."""
    best: list[Move] = []
    best_score = None
    for move in legal_moves(board, colour):
        value = score(board, play(board, move), colour)
        if best_score is None or value > best_score:
            best_score, best = value, [move]
        elif value == best_score:
            best.append(move)
    return rng.choice(best) if best else None


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
                        print(f"abalone_greedy: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Greedy one-move look-ahead Abalone bot.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"abalone_greedy: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        move = choose_move(read_board(state["board"]), state["turn"], rng)
        if move is None:
            print("abalone_greedy: no legal move", file=sys.stderr)  # arena never asks then
            return
        print(turn_message(move), flush=True)


if __name__ == "__main__":
    main()
