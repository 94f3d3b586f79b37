#!/usr/bin/env python3
"""A greedy Shobu bot: it looks one turn ahead and takes the most damaging turn.

Preference, best first: a turn that wins at once (a sub-board left without enemy stones), then a
turn that pushes an enemy stone off its board, then any push, then a quiet turn. Ties are broken at
random (`--seed N` makes games reproducible).

This file stands alone: Python 3 and its standard library only. Run it under arena:

    arena match "python3 bots/shobu_greedy.py" "python3 bots/shobu_random.py"

Protocol (see arena's shobu.md): arena writes a JSON object per turn,
    {"type": "game_state", "payload": {"board": "<64 chars>", "turn": "WHITE", "turnNumber": 1}}
and we answer with one line of JSON and flush:
    {"type": "turn", "payload": {"passive": {"origin": {...}, "heading": {...}},
                                 "aggressive": {"origin": {...}, "heading": {...}}}}
`turn` is the colour we play. Debug output goes to stderr only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

# --- The rules ------------------------------------------------------------------------------------
# Board: 64 characters, index = x + 8*y, (0, 0) top-left; 'x' black, 'o' white, '.' empty.
# Four 4x4 sub-boards. Black's home boards are the bottom two (y 4-7), White's the top two.
# The passive move is made on a home board; the aggressive move on a board of the other column.

EMPTY = "."
STONE = {"BLACK": "x", "WHITE": "o"}
HOME_ROW = {"BLACK": 1, "WHITE": 0}  # the row of sub-boards (y // 4) holding a player's home boards

DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
HEADINGS = [(dx * k, dy * k) for (dx, dy) in DIRECTIONS for k in (1, 2)]  # 16 headings

Square = tuple[int, int]
Heading = tuple[int, int]
Turn = tuple[Square, Heading, Square]  # passive origin, heading, aggressive origin
Push = tuple[Square, Square | None]  # where the pushed stone was, where it goes (None: removed)


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


def aggressive_push(board: str, x: int, y: int, heading: Heading, mine: str):
    """Check our aggressive move from (x, y).

    Returns False if it is illegal, None if it is legal and pushes nothing, or the Push it makes:
    at most one enemy stone on the way, moved to the square just beyond our landing square, and
    removed when that square is off the sub-board. The move is illegal if that square is occupied.
    """
    ux, uy, distance = steps(heading)
    pushed: Square | None = None
    for step in range(1, distance + 1):
        nx, ny = x + ux * step, y + uy * step
        if not same_sub_board(x, y, nx, ny):
            return False
        square = board[nx + 8 * ny]
        if square == mine:
            return False  # never push your own stone
        if square != EMPTY:
            if pushed is not None:
                return False  # cannot push two stones
            pushed = (nx, ny)
    if pushed is None:
        return None
    bx, by = x + ux * (distance + 1), y + uy * (distance + 1)
    if not same_sub_board(x, y, bx, by):
        return (pushed, None)  # pushed off the board
    if board[bx + 8 * by] != EMPTY:
        return False
    return (pushed, (bx, by))


def legal_turns(board: str, colour: str) -> list[tuple[Turn, Push | None]]:
    """Every legal turn for `colour`, each with the push it makes (None for no push)."""
    mine = STONE[colour]
    home = HOME_ROW[colour]
    turns = []
    for heading in HEADINGS:
        for i in range(64):
            x, y = i % 8, i // 8
            if board[i] != mine or y // 4 != home or not passive_ok(board, x, y, heading):
                continue
            for j in range(64):
                ax, ay = j % 8, j // 8
                if board[j] != mine or ax // 4 == x // 4:
                    continue  # the aggressive stone must be on the other column of boards
                push = aggressive_push(board, ax, ay, heading, mine)
                if push is not False:
                    turns.append((((x, y), heading, (ax, ay)), push))
    return turns


def apply_turn(board: str, turn: Turn, push: Push | None) -> str:
    """The board after `turn` (which must be legal; `push` is what legal_turns said it pushes)."""
    cells = list(board)
    (px, py), (hx, hy), (ax, ay) = turn
    if push is not None:
        (sx, sy), target = push
        stone = cells[sx + 8 * sy]
        cells[sx + 8 * sy] = EMPTY
        if target is not None:
            cells[target[0] + 8 * target[1]] = stone
    for ox, oy in ((px, py), (ax, ay)):
        cells[ox + hx + 8 * (oy + hy)] = cells[ox + 8 * oy]
        cells[ox + 8 * oy] = EMPTY
    return "".join(cells)


def wins(board: str, colour: str) -> bool:
    """True if some sub-board of `board` has no stones of `colour`'s opponent."""
    enemy = STONE["WHITE" if colour == "BLACK" else "BLACK"]
    for qx in (0, 4):
        for qy in (0, 4):
            if not any(board[x + 8 * y] == enemy for x in range(qx, qx + 4) for y in range(qy, qy + 4)):
                return True
    return False


def choose_turn(board: str, colour: str, rng: random.Random) -> Turn | None:
    """The greedy choice: win > push off > push > anything, random among equals."""
    best_score, best = -1, []
    for turn, push in legal_turns(board, colour):
        if push is None:
            score = 0
        elif push[1] is not None:
            score = 1
        else:
            score = 3 if wins(apply_turn(board, turn, push), colour) else 2
        if score > best_score:
            best_score, best = score, [turn]
        elif score == best_score:
            best.append(turn)
    return rng.choice(best) if best else None


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
                        print(f"shobu_greedy: ignoring bad JSON: {error}", file=sys.stderr)
                    buffer = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Greedy one-turn look-ahead Shobu bot.")
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible games")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    for message in json_objects(sys.stdin):
        if message.get("type") != "game_state":
            print(f"shobu_greedy: ignoring message {message.get('type')!r}", file=sys.stderr)
            continue
        state = message["payload"]
        turn = choose_turn(state["board"], state["turn"], rng)
        if turn is None:
            print("shobu_greedy: no legal turn", file=sys.stderr)  # arena never asks then
            return
        print(turn_message(turn), flush=True)


if __name__ == "__main__":
    main()
