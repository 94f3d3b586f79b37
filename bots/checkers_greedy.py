#!/usr/bin/env python3
"""A greedy checkers (English draughts) bot: it looks one move ahead.

Preference, best first: a move that wins at once (the opponent is left without a legal move), then
the capture taking the most pieces, then a move that crowns a man; ties are broken at random
(`--seed N` makes games reproducible).

This file stands alone: Python 3 and its standard library only. Run it under arena:

    arena match --game checkers "python3 bots/checkers_greedy.py" "python3 bots/checkers_random.py"

Protocol (see arena's checkers.md), one item per line:
  once at the start:   <total time in ms>
                       <black|white>              the colour we play
  then on each turn:   <time left in ms>
                       8 board lines such as ". b . b . b . b"
  we answer:           n c1 r1 c2 r2 ... cn rn    the squares the moving piece visits (col row)

The board is always shown from white's side: row 0 at the top, col 0 at the left; black men move
down (row + 1), white men move up. Symbols: . empty, b/w men, B/W kings. We flush after each reply;
debug output goes to stderr only.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections.abc import Iterator

# --- The rules ------------------------------------------------------------------------------------
# Captures are mandatory (any capture sequence may be chosen), a multi-jump must go on while the
# piece can jump, a piece is never jumped twice, and a man reaching the far row is crowned and its
# move ends there.

Board = list[list[str]]  # board[row][col]
Square = tuple[int, int]  # (col, row), as the protocol writes them
Move = list[Square]  # every square the moving piece visits, start first

FORWARD = {"black": 1, "white": -1}  # row direction of a man's moves
FAR_ROW = {"black": 7, "white": 0}  # where a man is crowned


def owner(piece: str) -> str | None:
    """'black', 'white' or None for an empty square."""
    if piece in ("b", "B"):
        return "black"
    if piece in ("w", "W"):
        return "white"
    return None


def directions(piece: str, colour: str) -> list[tuple[int, int]]:
    """The diagonal (dcol, drow) steps a piece may take: kings all four, men forward only."""
    if piece.isupper():
        return [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    return [(-1, FORWARD[colour]), (1, FORWARD[colour])]


def on_board(col: int, row: int) -> bool:
    return 0 <= col < 8 and 0 <= row < 8


def jumps_from(board: Board, col: int, row: int, colour: str) -> list[Move]:
    """Every complete capture sequence of the piece at (col, row)."""
    piece = board[row][col]
    enemy = "white" if colour == "black" else "black"
    sequences: list[Move] = []
    board[row][col] = "."  # the piece has left its start square: it may land there again

    def extend(path: Move, taken: set[Square]) -> None:
        c, r = path[-1]
        extended = False
        for dc, dr in directions(piece, colour):
            over, land = (c + dc, r + dr), (c + 2 * dc, r + 2 * dr)
            if not on_board(*land) or over in taken:
                continue
            if owner(board[over[1]][over[0]]) != enemy or board[land[1]][land[0]] != ".":
                continue
            extended = True
            if piece.islower() and land[1] == FAR_ROW[colour]:
                sequences.append(path + [land])  # crowning ends the move
            else:
                extend(path + [land], taken | {over})
        if not extended and len(path) > 1:
            sequences.append(path)

    extend([(col, row)], set())
    board[row][col] = piece
    return sequences


def legal_moves(board: Board, colour: str) -> list[Move]:
    """Every legal move for `colour`: the captures if there are any, else the simple steps."""
    mine = [(c, r) for r in range(8) for c in range(8) if owner(board[r][c]) == colour]
    captures = [seq for c, r in mine for seq in jumps_from(board, c, r, colour)]
    if captures:
        return captures
    steps = []
    for c, r in mine:
        for dc, dr in directions(board[r][c], colour):
            if on_board(c + dc, r + dr) and board[r + dr][c + dc] == ".":
                steps.append([(c, r), (c + dc, r + dr)])
    return steps


def apply_move(board: Board, move: Move) -> Board:
    """The board after `move` (which must be legal); `board` itself is not changed."""
    after = [row[:] for row in board]
    (c0, r0), (c1, r1) = move[0], move[-1]
    piece = after[r0][c0]
    after[r0][c0] = "."
    for (ca, ra), (cb, rb) in itertools.pairwise(move):
        if abs(rb - ra) == 2:  # a jump: remove the piece jumped over
            after[(ra + rb) // 2][(ca + cb) // 2] = "."
    colour = owner(piece)
    if piece.islower() and r1 == FAR_ROW[colour]:
        piece = piece.upper()
    after[r1][c1] = piece
    return after


def choose_move(board: Board, colour: str, rng: random.Random) -> Move | None:
    """The greedy choice: a win, then the most pieces taken, then a crowning; random among equals."""
    enemy = "white" if colour == "black" else "black"
    best_score, best = None, []
    for move in legal_moves(board, colour):
        after = apply_move(board, move)
        wins = not legal_moves(after, enemy)
        taken = len(move) - 1 if abs(move[1][1] - move[0][1]) == 2 else 0
        (c0, r0), (c1, r1) = move[0], move[-1]
        crowns = board[r0][c0].islower() and after[r1][c1].isupper()
        score = (wins, taken, crowns)
        if best_score is None or score > best_score:
            best_score, best = score, [move]
        elif score == best_score:
            best.append(move)
    return rng.choice(best) if best else None


def move_line(move: Move) -> str:
    """The protocol's reply: the number of squares, then col row for each."""
    return " ".join([str(len(move))] + [f"{c} {r}" for c, r in move])


# --- Reading the protocol -------------------------------------------------------------------------


def input_lines() -> Iterator[str]:
    """The non-blank lines of stdin, stripped (tolerates \\r\\n and trailing spaces)."""
    for line in sys.stdin:
        line = line.strip()
        if line:
            yield line


def parse_board_line(line: str) -> list[str]:
    """One board row: 8 symbols separated by spaces (also accepted without the spaces)."""
    symbols = line.split()
    if len(symbols) == 1:
        symbols = list(symbols[0])
    if len(symbols) != 8:
        raise ValueError(f"bad board line: {line!r}")
    return symbols


def main() -> None:
    parser = argparse.ArgumentParser(description="Greedy one-move look-ahead checkers bot.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    lines = input_lines()
    try:
        total_time = int(next(lines))
        colour = next(lines).lower()
    except StopIteration:
        return
    print(f"checkers_greedy: playing {colour} with {total_time} ms", file=sys.stderr)

    for _time_left in lines:  # one ply of look-ahead is fast: the clock does not matter
        try:
            board = [parse_board_line(next(lines)) for _ in range(8)]
        except StopIteration:
            return  # arena closed our input: the game is over
        move = choose_move(board, colour, rng)
        if move is None:
            print("checkers_greedy: no legal move", file=sys.stderr)  # arena never asks then
            return
        print(move_line(move), flush=True)


if __name__ == "__main__":
    main()
