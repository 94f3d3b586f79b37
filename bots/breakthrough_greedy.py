#!/usr/bin/env python3
"""A greedy Breakthrough bot: it looks one move ahead (and at the reply that would lose at once).

Preference, best first: a move that wins at once (a piece reaches the far row, or the last enemy
piece is taken); then, among moves after which the opponent cannot win on its next move (when
there is such a move): a capture, the most advanced enemy piece first; then a step onto a square no
enemy piece attacks; then any move. Ties are broken at random (`--seed N` makes games
reproducible).

This file stands alone: Python 3 and its standard library only. Run it under arena:

    arena match --game breakthrough "python3 bots/breakthrough_greedy.py" \
        "python3 bots/breakthrough_random.py"

Protocol (arena's generic JSON protocol): arena writes a JSON object per turn, on one line,
    {"type": "game_state",
     "payload": {"board": [8 strings, row 8 first], "turn": "WHITE", "turnNumber": 1},
     "timeLeftMs": 59950}
and we answer with one line of JSON and flush:
    {"type": "turn", "payload": {"from": "a7", "to": "a6"}}
`turn` is the colour we play. In the board, row 8 comes first; in a row, files a to h; 'b' black,
'w' white, '.' empty. Black starts on rows 1-2 and moves towards row 8, White the other way.
We exit when arena closes stdin. Debug output goes to stderr only.
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
FORWARD = {"BLACK": 1, "WHITE": -1}
FAR_ROW = {"BLACK": 8, "WHITE": 1}
OTHER = {"BLACK": "WHITE", "WHITE": "BLACK"}

Square = tuple[int, int]
Move = tuple[Square, Square]
Board = dict[Square, str]  # only the occupied squares: (file, row) -> 'b' or 'w'


def read_board(rows: list[str]) -> Board:
    """The protocol's 8 strings (row 8 first) as a dict of occupied squares."""
    board: Board = {}
    for i, line in enumerate(rows):
        for file, cell in enumerate(line):
            if cell in "bw":
                board[(file, 8 - i)] = cell
    return board


def legal_moves(board: Board, colour: str) -> list[Move]:
    """Every legal move of `colour`, as (from, to) squares."""
    mine, step = PIECE[colour], FORWARD[colour]
    moves: list[Move] = []
    for (file, row), piece in board.items():
        if piece != mine or not 1 <= row + step <= 8:
            continue
        for to_file in (file - 1, file, file + 1):
            if not 0 <= to_file < 8:
                continue
            there = board.get((to_file, row + step))
            if there is None or (there != mine and to_file != file):
                moves.append(((file, row), (to_file, row + step)))
    return moves


def play(board: Board, move: Move) -> Board:
    """The board after `move` (a capture removes whatever stood on the target)."""
    after = dict(board)
    after[move[1]] = after.pop(move[0])
    return after


def wins(board: Board, move: Move, colour: str) -> bool:
    """Does `move` win at once: the far row reached, or the last enemy piece taken?"""
    if move[1][1] == FAR_ROW[colour]:
        return True
    enemy = PIECE[OTHER[colour]]
    return board.get(move[1]) == enemy and sum(1 for p in board.values() if p == enemy) == 1


def can_win_next(board: Board, colour: str) -> bool:
    """Could `colour` win with one of its moves in this position?"""
    return any(wins(board, move, colour) for move in legal_moves(board, colour))


def attacked(board: Board, square: Square, by: str) -> bool:
    """Is `square` attacked by a piece of colour `by` (which captures diagonally forward)?"""
    file, row = square
    from_row = row - FORWARD[by]
    return any(board.get((f, from_row)) == PIECE[by] for f in (file - 1, file + 1))


def choose_move(board: Board, colour: str, rng: random.Random) -> Move | None:
    """The greedy choice described in the module docstring; None if there is no legal move."""
    moves = legal_moves(board, colour)
    if not moves:
        return None
    winning = [m for m in moves if wins(board, m, colour)]
    if winning:
        return rng.choice(winning)
    enemy = OTHER[colour]
    safe = [m for m in moves if not can_win_next(play(board, m), enemy)]
    candidates = safe or moves  # every move loses: play one anyway
    best: list[Move] = []
    best_score = -1
    for move in candidates:
        if move[1] in board:  # a capture: the closer the taken piece was to our home, the better
            advanced = move[1][1] - 1 if colour == "BLACK" else 8 - move[1][1]
            score = 20 + (7 - advanced)
        elif not attacked(play(board, move), move[1], enemy):
            score = 1
        else:
            score = 0
        if score > best_score:
            best_score, best = score, [move]
        elif score == best_score:
            best.append(move)
    return rng.choice(best)


def square_name(square: Square) -> str:
    file, row = square
    return "abcdefgh"[file] + str(row)


def turn_message(move: Move) -> str:
    """The protocol's reply for a move, as one line of JSON."""
    return json.dumps({"type": "turn", "payload": {"from": square_name(move[0]), "to": square_name(move[1])}})


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
                        print(f"breakthrough_greedy: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Greedy one-move look-ahead Breakthrough bot.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"breakthrough_greedy: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        move = choose_move(read_board(state["board"]), state["turn"], rng)
        if move is None:
            print("breakthrough_greedy: no legal move", file=sys.stderr)  # arena never asks then
            return
        print(turn_message(move), flush=True)


if __name__ == "__main__":
    main()
