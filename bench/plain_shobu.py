"""A deliberately plain Shobu move generator, written only to compare against arena's fast one.

Lists of lists, loops over every square and heading, a fresh board copy per turn: no bitboards,
no tables, no caching, and nothing shared with the ``arena`` package. It follows
``docs/rules/shobu.md`` directly, so agreeing perft numbers are evidence that both are right.

Run it to print perft(1) and perft(2) from the start with timings::

    .venv/bin/python bench/plain_shobu.py [depth]
"""

from __future__ import annotations

import sys
import time

START = "oooooooo................xxxxxxxxoooooooo................xxxxxxxx"
HEADINGS = [
    (dx * k, dy * k)
    for k in (1, 2)
    for dx, dy in [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
]


def board_from_string(text: str) -> list[list[str]]:
    """board[y][x] is 'x', 'o' or '.'."""
    return [[text[x + 8 * y] for x in range(8)] for y in range(8)]


def sub_board(x: int, y: int) -> int:
    """0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right."""
    return x // 4 + 2 * (y // 4)


def on_same_sub_board(x: int, y: int, other_x: int, other_y: int) -> bool:
    if other_x < 0 or other_x > 7 or other_y < 0 or other_y > 7:
        return False
    return sub_board(x, y) == sub_board(other_x, other_y)


def passive_ok(board: list[list[str]], x: int, y: int, heading: tuple[int, int]) -> bool:
    dx, dy = heading
    steps = max(abs(dx), abs(dy))
    ux, uy = dx // steps, dy // steps
    if not on_same_sub_board(x, y, x + dx, y + dy):
        return False
    for step in range(1, steps + 1):
        if board[y + uy * step][x + ux * step] != ".":
            return False
    return True


def aggressive_ok(
    board: list[list[str]], x: int, y: int, heading: tuple[int, int], me: str
) -> bool:
    dx, dy = heading
    steps = max(abs(dx), abs(dy))
    ux, uy = dx // steps, dy // steps
    if not on_same_sub_board(x, y, x + dx, y + dy):
        return False
    stones_in_way = 0
    for step in range(1, steps + 1):
        square = board[y + uy * step][x + ux * step]
        if square == me:
            return False
        if square != ".":
            stones_in_way += 1
    if stones_in_way > 1:
        return False
    if stones_in_way == 1:
        beyond_x, beyond_y = x + dx + ux, y + dy + uy
        if on_same_sub_board(x, y, beyond_x, beyond_y) and board[beyond_y][beyond_x] != ".":
            return False
    return True


def game_over(board: list[list[str]]) -> bool:
    for q in range(4):
        has_black = False
        has_white = False
        for y in range(8):
            for x in range(8):
                if sub_board(x, y) == q:
                    if board[y][x] == "x":
                        has_black = True
                    if board[y][x] == "o":
                        has_white = True
        if not has_black or not has_white:
            return True
    return False


def legal_turns(board: list[list[str]], me: str) -> list[tuple]:
    """Every legal turn as ((px, py), (ax, ay), heading)."""
    if game_over(board):
        return []
    home_boards = [2, 3] if me == "x" else [0, 1]
    turns = []
    for heading in HEADINGS:
        for py in range(8):
            for px in range(8):
                if board[py][px] != me or sub_board(px, py) not in home_boards:
                    continue
                if not passive_ok(board, px, py, heading):
                    continue
                for ay in range(8):
                    for ax in range(8):
                        if board[ay][ax] != me:
                            continue
                        # The aggressive board must be in the other column (other colour).
                        if ax // 4 == px // 4:
                            continue
                        if aggressive_ok(board, ax, ay, heading, me):
                            turns.append(((px, py), (ax, ay), heading))
    return turns


def apply_turn(board: list[list[str]], turn: tuple, me: str) -> list[list[str]]:
    new_board = [row[:] for row in board]
    (px, py), (ax, ay), (dx, dy) = turn
    steps = max(abs(dx), abs(dy))
    ux, uy = dx // steps, dy // steps
    new_board[py][px] = "."
    new_board[py + dy][px + dx] = me
    pushed = None
    for step in range(1, steps + 1):
        square_x, square_y = ax + ux * step, ay + uy * step
        if new_board[square_y][square_x] != ".":
            pushed = new_board[square_y][square_x]
            new_board[square_y][square_x] = "."
    new_board[ay][ax] = "."
    new_board[ay + dy][ax + dx] = me
    if pushed is not None:
        beyond_x, beyond_y = ax + dx + ux, ay + dy + uy
        if on_same_sub_board(ax, ay, beyond_x, beyond_y):
            new_board[beyond_y][beyond_x] = pushed
    return new_board


def perft_from(board: list[list[str]], me: str, depth: int) -> int:
    if depth == 0:
        return 1
    turns = legal_turns(board, me)
    if depth == 1:
        return len(turns)
    other = "o" if me == "x" else "x"
    total = 0
    for turn in turns:
        total += perft_from(apply_turn(board, turn, me), other, depth - 1)
    return total


def plain_perft(depth: int) -> int:
    """perft(depth) from the start position, Black to move."""
    return perft_from(board_from_string(START), "x", depth)


def main() -> None:
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    for depth in range(1, max_depth + 1):
        started = time.perf_counter()
        leaves = plain_perft(depth)
        seconds = time.perf_counter() - started
        print(f"plain perft({depth}) = {leaves}  {seconds:.3f} s  {leaves / seconds:,.0f} leaves/s")


if __name__ == "__main__":
    main()
