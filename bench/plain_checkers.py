"""A deliberately plain checkers move generator, written only for comparison with arena's.

No bitboards, no tables, nothing shared with ``arena``: the board is a list of 8 lists of 8
one-character strings (``. b w B W``, ``board[row][col]``, row 0 at the top), moves are lists of
``(col, row)`` squares, jumps are found by recursion. Rules as in ``docs/rules/checkers.md``: black men
move down, white men up; captures are mandatory (any sequence may be chosen); a multi-jump goes on
while it can; a piece is jumped once; a man that reaches the far row is crowned and stops.

``plain_perft(depth)`` counts the leaves of the move tree from the start; the tests and
``bench/perft_speed.py`` use it to check and time arena's generator.
"""

from __future__ import annotations

import itertools
import sys

Board = list[list[str]]
Square = tuple[int, int]

START = [
    ". b . b . b . b",
    "b . b . b . b .",
    ". b . b . b . b",
    ". . . . . . . .",
    ". . . . . . . .",
    "w . w . w . w .",
    ". w . w . w . w",
    "w . w . w . w .",
]


def initial_board() -> Board:
    """The start position as a fresh list of lists."""
    return [line.split() for line in START]


def on_board(col: int, row: int) -> bool:
    return 0 <= col < 8 and 0 <= row < 8


def directions_of(piece: str) -> list[tuple[int, int]]:
    """The (dcol, drow) directions a piece may move and capture in."""
    if piece == "b":
        return [(-1, 1), (1, 1)]
    if piece == "w":
        return [(-1, -1), (1, -1)]
    return [(-1, -1), (1, -1), (-1, 1), (1, 1)]


def is_enemy(piece: str, other: str) -> bool:
    if other == ".":
        return False
    return (piece.lower() == "b") != (other.lower() == "b")


def crowns_on(piece: str, row: int) -> bool:
    """True when a man of this kind is crowned on ``row``."""
    return (piece == "b" and row == 7) or (piece == "w" and row == 0)


def jump_paths(board: Board, piece: str, path: list[Square], jumped: list[Square]) -> list[list[Square]]:
    """Every complete jump sequence continuing ``path``. The moving piece has already been lifted
    off its starting square; jumped pieces stay on the board until the move ends."""
    col, row = path[-1]
    found: list[list[Square]] = []
    for dcol, drow in directions_of(piece):
        over_col, over_row = col + dcol, row + drow
        land_col, land_row = col + 2 * dcol, row + 2 * drow
        if not on_board(land_col, land_row):
            continue
        if (over_col, over_row) in jumped:
            continue
        if not is_enemy(piece, board[over_row][over_col]):
            continue
        if board[land_row][land_col] != ".":
            continue
        new_path = path + [(land_col, land_row)]
        if crowns_on(piece, land_row):
            found.append(new_path)
            continue
        longer = jump_paths(board, piece, new_path, jumped + [(over_col, over_row)])
        if longer:
            found.extend(longer)
        else:
            found.append(new_path)
    return found


def legal_paths(board: Board, color: str) -> list[list[Square]]:
    """Every legal move of ``color`` (``"b"`` or ``"w"``) as a list of visited squares."""
    captures: list[list[Square]] = []
    steps: list[list[Square]] = []
    for row in range(8):
        for col in range(8):
            piece = board[row][col]
            if piece.lower() != color:
                continue
            board[row][col] = "."  # lift the piece so it can pass over its own start square
            captures.extend(jump_paths(board, piece, [(col, row)], []))
            board[row][col] = piece
            for dcol, drow in directions_of(piece):
                new_col, new_row = col + dcol, row + drow
                if on_board(new_col, new_row) and board[new_row][new_col] == ".":
                    steps.append([(col, row), (new_col, new_row)])
    return captures if captures else steps


def apply_path(board: Board, path: list[Square]) -> Board:
    """A new board after the move ``path`` (assumed legal)."""
    new_board = [list(line) for line in board]
    start_col, start_row = path[0]
    piece = new_board[start_row][start_col]
    new_board[start_row][start_col] = "."
    for (col1, row1), (col2, row2) in itertools.pairwise(path):
        if abs(col2 - col1) == 2:
            new_board[(row1 + row2) // 2][(col1 + col2) // 2] = "."
    end_col, end_row = path[-1]
    if crowns_on(piece, end_row):
        piece = piece.upper()
    new_board[end_row][end_col] = piece
    return new_board


def perft_from(board: Board, color: str, depth: int) -> int:
    """Leaf count of the move tree of ``depth`` plies from ``board`` with ``color`` to move."""
    if depth == 0:
        return 1
    total = 0
    other = "w" if color == "b" else "b"
    for path in legal_paths(board, color):
        total += perft_from(apply_path(board, path), other, depth - 1)
    return total


def plain_perft(depth: int) -> int:
    """Leaf count of the move tree of ``depth`` plies from the start position (black to move)."""
    return perft_from(initial_board(), "b", depth)


if __name__ == "__main__":
    import time

    requested = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    began = time.perf_counter()
    print(f"plain perft({requested}) = {plain_perft(requested)} in {time.perf_counter() - began:.2f} s")
