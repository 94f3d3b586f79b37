#!/usr/bin/env python3
"""bot1: the smallest complete Shobu bot, a starting point to copy. It plays random legal turns.

    cd bots && arena match "python bot1.py" "./bot2"

Arena sends one JSON line per turn: {"type": "game_state", "payload": {"board", "turn", "turnNumber"}}.
`turn` is our colour. We reply with one JSON line {"type": "turn", "payload": {"passive": ...,
"aggressive": ...}} and flush. Anything for humans goes to stderr. Make it smarter in choose_turn().
"""

from __future__ import annotations

import json
import random
import sys

STONE = {"BLACK": "x", "WHITE": "o"}
HOME_ROW = {"BLACK": 1, "WHITE": 0}  # Black's home boards are the bottom two (y >= 4)
HEADINGS = [(dx * k, dy * k) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for k in (1, 2) if dx or dy]


def path(x: int, y: int, hx: int, hy: int) -> list[tuple[int, int]] | None:
    """Squares visited moving (x, y) by heading (hx, hy), or None if it leaves its 4x4 board."""
    n = max(abs(hx), abs(hy))
    squares = [(x + hx // n * s, y + hy // n * s) for s in range(1, n + 2)]  # + the square beyond
    inside = [(a, b) for a, b in squares if 0 <= a < 8 and 0 <= b < 8 and (a // 4, b // 4) == (x // 4, y // 4)]
    return inside if len(inside) >= n else None


def legal_turns(board: str, colour: str) -> list[tuple[int, int, int, int, int, int]]:
    """All legal turns as (passive x, y, heading x, y, aggressive x, y)."""
    mine, at = STONE[colour], lambda sq: board[sq[0] + 8 * sq[1]]
    turns = []
    for hx, hy in HEADINGS:
        n = max(abs(hx), abs(hy))
        for px in range(8):
            for py in range(8):
                way = path(px, py, hx, hy) if at((px, py)) == mine and py // 4 == HOME_ROW[colour] else None
                if way is None or any(at(sq) != "." for sq in way[:n]):
                    continue  # passive moves push nothing: the way must be empty
                for ax in range(8):
                    for ay in range(8):
                        aim = path(ax, ay, hx, hy) if at((ax, ay)) == mine and ax // 4 != px // 4 else None
                        if aim is None:
                            continue
                        met = [at(sq) for sq in aim[:n] if at(sq) != "."]  # stones in the way
                        beyond = aim[n:]  # [] when a pushed stone would fall off the board
                        if met and (len(met) > 1 or met[0] == mine):
                            continue  # may push only one stone, never our own
                        if met and beyond and at(beyond[0]) != ".":
                            continue  # the pushed stone has nowhere to go
                        turns.append((px, py, hx, hy, ax, ay))
    return turns


def choose_turn(board: str, colour: str, turns: list) -> tuple:
    """Your strategy goes here. This one picks any legal turn."""
    return random.choice(turns)


def main() -> None:
    buffer = ""
    for line in sys.stdin:
        buffer += line
        try:
            message = json.loads(buffer)
        except ValueError:
            if buffer.count("{") <= buffer.count("}"):
                buffer = ""  # not an unfinished object: junk, drop it
            continue
        buffer = ""
        if not isinstance(message, dict) or message.get("type") != "game_state":
            continue
        state = message["payload"]
        turns = legal_turns(state["board"], state["turn"])
        if not turns:
            return
        px, py, hx, hy, ax, ay = choose_turn(state["board"], state["turn"], turns)
        heading = {"x": hx, "y": hy}
        reply = {"passive": {"origin": {"x": px, "y": py}, "heading": heading},
                 "aggressive": {"origin": {"x": ax, "y": ay}, "heading": heading}}
        print(json.dumps({"type": "turn", "payload": reply}), flush=True)


if __name__ == "__main__":
    main()
