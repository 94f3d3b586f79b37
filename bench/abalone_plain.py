"""A deliberately plain second implementation of the Abalone rules, and a long cross-check.

It shares no code with :mod:`arena.games.abalone.board`: cells are cube coordinates ``(x, y, z)``
with ``x + y + z == 0`` and ``max(|x|, |y|, |z|) <= 4`` (E5 is ``(0, 0, 0)``), the board a dict
cell -> ``"b"``/``"w"``, and moves are found by brute force: every set of 1-3 own marbles, kept
when they are collinear and contiguous, tried in each of the six directions against the rules as
the rule book states them. Slow on purpose, simple enough to check by reading.

The only bridge to arena is the cell *name* (``A1`` ... ``I9``), computed here from the cube
coordinates by its own formula, and the JSON board of a state (its 9 row strings).

    .venv/bin/python bench/abalone_plain.py [--depth 3] [--games 200] [--seed 1]

prints the perft table of both implementations with timings, then compares the move sets of every
position met in ``--games`` random playouts (to their end: random games push marbles off).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path
from typing import Any

Cube = tuple[int, int, int]
Board = dict[Cube, str]
#: A move: the moving marbles (frozenset of cubes) and the direction (a unit cube vector).
PlainMove = tuple[frozenset[Cube], Cube]

UNITS: tuple[Cube, ...] = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))
ALL_CELLS: tuple[Cube, ...] = tuple((x, y, -x - y) for x in range(-4, 5) for y in range(-4, 5)
                                    if abs(-x - y) <= 4)


def add(a: Cube, b: Cube, times: int = 1) -> Cube:
    return (a[0] + times * b[0], a[1] + times * b[1], a[2] + times * b[2])


def on_board(cell: Cube) -> bool:
    return max(abs(cell[0]), abs(cell[1]), abs(cell[2])) <= 4


def name(cell: Cube) -> str:
    """The standard name: the row letter counts up from A where ``z = 4`` (the bottom row) to I
    where ``z = -4``; the diagonal number is ``x + 5``, since ``x`` is constant along a
    north-west/south-east diagonal (the NW step is ``(0, 1, -1)``) and E5, the centre, has ``x = 0``."""
    x, _, z = cell
    return "ABCDEFGHI"[4 - z] + str(x + 5)


def board_from_rows(rows: list[str]) -> Board:
    """The dict board of a JSON state's 9 row strings (row I first)."""
    by_name = {name(c): c for c in ALL_CELLS}
    board: Board = {}
    for i, line in enumerate(rows):
        letter = "IHGFEDCBA"[i]
        first = max(1, "ABCDEFGHI".index(letter) - 3)
        for k, char in enumerate(line):
            if char in "bw":
                board[by_name[f"{letter}{first + k}"]] = char
    return board


def start_board() -> Board:
    rows = ["wwwww", "wwwwww", "..www..", "........", ".........", "........", "..bbb..", "bbbbbb", "bbbbb"]
    return board_from_rows(rows)


def lines_of(marbles: list[Cube]) -> list[tuple[Cube, ...]]:
    """Every set of 1-3 of ``marbles`` that is a contiguous straight line (as sorted tuples)."""
    found = []
    for size in (1, 2, 3):
        for group in itertools.combinations(sorted(marbles), size):
            if size == 1 or any(all(add(group[0], unit, k) in group for k in range(size)) for unit in UNITS):
                found.append(group)
    return found


def plain_moves(board: Board, colour: str) -> list[PlainMove]:
    """Every legal move of ``colour`` by the rule book (no game-over test: the caller's)."""
    enemy = "w" if colour == "b" else "b"
    mine = [c for c, v in board.items() if v == colour]
    moves: list[PlainMove] = []
    for line in lines_of(mine):
        for unit in UNITS:
            along = len(line) == 1 or add(line[0], unit) in line or add(line[0], unit, -1) in line
            if not along:  # broadside: every marble onto an empty cell of the board
                if all(on_board(add(c, unit)) and add(c, unit) not in board for c in line):
                    moves.append((frozenset(line), unit))
                continue
            front = max(line, key=lambda c: c[0] * unit[0] + c[1] * unit[1] + c[2] * unit[2])
            ahead = add(front, unit)
            if not on_board(ahead):
                continue  # never walk off
            if ahead not in board:
                moves.append((frozenset(line), unit))
                continue
            if board[ahead] == colour:
                continue
            enemies = 0
            cell = ahead
            while on_board(cell) and board.get(cell) == enemy:
                enemies += 1
                cell = add(cell, unit)
            if enemies < len(line) and (not on_board(cell) or cell not in board):
                moves.append((frozenset(line), unit))
    return moves


def plain_play(board: Board, move: PlainMove) -> Board:
    """The board after a legal move: every marble on the moved line and on the pushed line ahead of
    it shifts one cell; one that lands off the board is gone."""
    marbles, unit = move
    after = dict(board)
    colour = board[next(iter(marbles))]
    shifting = set(marbles)
    front = max(marbles, key=lambda c: c[0] * unit[0] + c[1] * unit[1] + c[2] * unit[2])
    cell = add(front, unit)
    if len(marbles) == 1 or add(front, unit, -1) in marbles:  # inline: collect the pushed marbles
        while cell in board and board[cell] != colour:
            shifting.add(cell)
            cell = add(cell, unit)
    moved = {c: board[c] for c in shifting}
    for c in shifting:
        del after[c]
    for c, v in moved.items():
        target = add(c, unit)
        if on_board(target):
            after[target] = v
    return after


def plain_over(board: Board, colour: str) -> bool:
    return sum(1 for v in board.values() if v == colour) <= 8


def plain_perft(board: Board, colour: str, depth: int) -> int:
    if plain_over(board, colour):
        return 0
    moves = plain_moves(board, colour)
    if depth == 1:
        return len(moves)
    other = "w" if colour == "b" else "b"
    return sum(plain_perft(plain_play(board, m), other, depth - 1) for m in moves)


def as_names(moves: list[PlainMove]) -> set[tuple[frozenset[str], str]]:
    """Moves as (marble names, direction name), the form both implementations can be compared in."""
    direction = dict(zip(UNITS, ("E", "NE", "NW", "W", "SW", "SE"), strict=True))
    return {(frozenset(name(c) for c in marbles), direction[unit]) for marbles, unit in moves}


# --- the comparison with arena ----------------------------------------------------------------------


def arena_names(game: Any, state: Any) -> set[tuple[frozenset[str], str]]:
    out = set()
    for move in game.legal_moves(state):
        wire = game.move_to_wire(move)
        out.add((frozenset(wire["marbles"]), wire["direction"]))
    return out


def compare_playouts(game: Any, games: int, seed: int, max_plies: int = 3000) -> tuple[int, int, int]:
    """Random playouts with arena's rules, comparing at every position the legal move sets and the
    board after the chosen move. Returns (positions, pushes off seen, games won). AssertionError
    naming the position on a disagreement."""
    rng = random.Random(seed)
    positions = pushes_off = wins = 0
    for _ in range(games):
        state = game.initial_state()
        for _ in range(max_plies):
            rows = game.state_to_json(state)["board"]
            board = board_from_rows(rows)
            colour = "b" if state.turn.value == "BLACK" else "w"
            over = game.outcome(state) is not None
            plain = [] if plain_over(board, colour) else plain_moves(board, colour)
            assert over == (not plain), f"game over disagrees at {rows} ({colour})"
            positions += 1
            if over:
                wins += 1
                break
            assert as_names(plain) == arena_names(game, state), f"move sets differ at {rows} ({colour})"
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            wire = game.move_to_wire(move)
            by_name = {name(c): c for c in board}
            unit = dict(zip(("E", "NE", "NW", "W", "SW", "SE"), UNITS, strict=True))[wire["direction"]]
            plain_after = plain_play(board, (frozenset(by_name[n] for n in wire["marbles"]), unit))
            assert plain_after == board_from_rows(game.state_to_json(after)["board"]), f"apply differs at {rows}"
            if len(plain_after) < len(board):
                pushes_off += 1
            state = after
    return positions, pushes_off, wins


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from arena.games.registry import get_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("abalone")
    start = game.initial_state()
    print("depth  arena leaves  arena s   plain leaves  plain s")
    for depth in range(1, args.depth + 1):
        t0 = time.perf_counter()
        fast = game.perft(start, depth)
        t1 = time.perf_counter()
        plain = plain_perft(start_board(), "b", depth)
        t2 = time.perf_counter()
        flag = "" if fast == plain else "  MISMATCH"
        print(f"{depth:5d}  {fast:12,d}  {t1 - t0:7.3f}  {plain:13,d}  {t2 - t1:7.2f}{flag}")
    t0 = time.perf_counter()
    positions, pushes_off, wins = compare_playouts(game, args.games, args.seed)
    print(f"random playouts: {args.games} games, {positions:,} positions, {pushes_off:,} pushes off the board,"
          f" {wins} games won by six: move sets and boards agree ({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
