#!/usr/bin/env python3
"""A referee for arena's external rules protocol, version 1 (docs/referees.md): Nim for 2 or 3
players, standard library only.

The heap holds ``heap`` stones (parameter, default 10); each seat in turn takes 1 to ``take`` of them
(parameter, default 3); whoever takes the last stone wins (return 1, the others -1). Who starts is
drawn by chance (each seat alike), or, with ``--param opening=1``, counted off at a simultaneous
node: every seat shows 1 to N fingers at once, and the sum modulo N picks the starting seat. A seat
out after a fault is skipped (``eliminate``); the last seat still playing wins.

Moves are integers (stones taken, fingers shown); a chance outcome names the starting seat ("P0"). The
referee keeps nothing between requests: every request carries its state.

Run ``python3 nim.py --no-observations`` to leave the seats' observations out of the nodes (arena
then asks for them: a round trip more per ply), ``--features board,hash`` to list only those optional
commands.
"""

from __future__ import annotations

import json
import random
import sys

OBSERVATIONS = "--no-observations" not in sys.argv[1:]
#: ``--features a,b``: list only these optional commands (tests of a referee without some).
FEATURES = sys.argv[sys.argv.index("--features") + 1].split(",") if "--features" in sys.argv else None
INFO = {
    "protocol": 1, "name": "nim", "min_players": 2, "max_players": 3, "default_players": 2,
    "parameters": {"heap": {"default": 10, "low": 1, "high": 1000, "help": "stones at the start"},
                   "take": {"default": 3, "low": 1, "high": 10, "help": "most stones taken at once"},
                   "opening": {"default": 0, "low": 0, "high": 1, "help": "1: who starts is counted off"}},
    "default_max_moves": 2000,
    "features": ["hash", "board", "svg", "playout", "eliminate"] if FEATURES is None else FEATURES,
}


class Refused(Exception):
    """A request arena should not have sent (answered with {"error": ...})."""


def new(players: int, params: dict) -> dict:
    if type(players) is not int or not 2 <= players <= 3:
        raise Refused(f"players must be 2 or 3, got {players!r}")
    heap, take, opening = params.get("heap", 10), params.get("take", 3), params.get("opening", 0)
    return {"players": players, "heap": heap, "take": take, "phase": "count" if opening else "draw",
            "to_move": None, "out": [], "winner": None, "ply": 0}


def check(state: object) -> dict:
    if not isinstance(state, dict) or not {"players", "heap", "take", "phase", "to_move", "out", "winner",
                                           "ply"} <= set(state):
        raise Refused("not a nim state")
    if state["phase"] not in ("draw", "count", "play", "over"):
        raise Refused(f"unknown phase {state['phase']!r}")
    return state


def alive(state: dict) -> list[int]:
    return [seat for seat in range(state["players"]) if seat not in state["out"]]


def legal(state: dict) -> dict[str, list[int]]:
    if state["phase"] == "play":
        return {str(state["to_move"]): list(range(1, min(state["take"], state["heap"]) + 1))}
    if state["phase"] == "count":
        return {str(seat): list(range(1, state["players"] + 1)) for seat in alive(state)}
    return {}


def node(state: dict) -> dict:
    phase = state["phase"]
    actor = {"draw": -1, "count": -2, "play": state["to_move"], "over": -4}[phase]
    moves = legal(state)
    out = {"state": state, "actor": actor, "legal": moves, "ply": state["ply"],
           "hash": f"{state['heap']}:{phase}:{state['to_move']}:{state['out']}:{state['winner']}"}
    if phase == "play":
        out["notation"] = {seat: [f"take {n}" for n in ms] for seat, ms in moves.items()}
    if phase == "draw":
        seats = alive(state)
        out["chance"] = [[f"P{seat}", f"1/{len(seats)}"] for seat in seats]
    if phase == "over":
        out["returns"] = [1 if seat == state["winner"] else -1 for seat in range(state["players"])]
    if OBSERVATIONS and moves:
        out["observations"] = {seat: observation(state, int(seat)) for seat in moves}
    return out


def apply(state: dict, move: object) -> dict:
    state = dict(state, ply=state["ply"] + 1)
    if state["phase"] == "draw":
        if move not in [f"P{seat}" for seat in alive(state)]:
            raise Refused(f"{move!r} is not an outcome here")
        return dict(state, phase="play", to_move=int(move[1:]))
    if state["phase"] != "play" or move not in legal(state)[str(state["to_move"])]:
        raise Refused(f"{move!r} is not a legal move here")
    state["heap"] -= move
    if state["heap"] == 0:
        return dict(state, phase="over", winner=state["to_move"])
    return dict(state, to_move=following(state, state["to_move"]))


def apply_joint(state: dict, moves: dict) -> dict:
    seats = alive(state)
    if state["phase"] != "count" or sorted(moves) != sorted(str(s) for s in seats):
        raise Refused("not a count-off, or not one move per seat still playing")
    if any(m not in range(1, state["players"] + 1) for m in moves.values()):
        raise Refused("fingers must be 1 to N")
    return dict(state, phase="play", to_move=seats[sum(moves.values()) % len(seats)], ply=state["ply"] + 1)


def following(state: dict, seat: int) -> int:
    seats = alive(state)
    later = [s for s in seats if s > seat]
    return later[0] if later else seats[0]


def eliminate(state: dict, seat: int) -> dict | None:
    if state["players"] == 2 or seat in state["out"] or state["phase"] == "over":
        return None
    after = dict(state, out=[*state["out"], seat])
    seats = alive(after)
    if len(seats) == 1:
        return dict(after, phase="over", winner=seats[0], to_move=None)
    if state["to_move"] == seat:
        after["to_move"] = following(after, seat)
    return after


def observation(state: dict, seat: int) -> dict:
    return {"heap": state["heap"], "take": state["take"], "phase": state["phase"], "to_move": state["to_move"],
            "out": state["out"], "you": seat}


def board(state: dict) -> dict:
    situation = {"draw": "who starts is drawn", "count": "the seats count off",
                 "play": f"P{state['to_move']} to move", "over": f"P{state['winner']} won"}[state["phase"]]
    text = f"heap {state['heap']}: {'|' * min(state['heap'], 60)}  ({situation})"
    width = 20 + 12 * min(state["heap"], 60)
    sticks = "".join(f'<rect x="{10 + 12 * i}" y="10" width="6" height="40" fill="#a0522d"/>'
                     for i in range(min(state["heap"], 60)))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} 60" width="{width}" height="60">{sticks}</svg>'
    return {"text": text, "svg": svg}


def playout(state: dict, seed: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    results = []
    for _ in range(count):
        s = state
        while s["phase"] != "over":
            if s["phase"] == "draw":
                s = apply(s, f"P{rng.choice(alive(s))}")
            elif s["phase"] == "count":
                s = apply_joint(s, {k: rng.choice(v) for k, v in legal(s).items()})
            else:
                s = apply(s, rng.choice(legal(s)[str(s["to_move"])]))
        results.append([1 if seat == s["winner"] else -1 for seat in range(s["players"])])
    return results


def answer(request: dict) -> dict:
    cmd = request.get("cmd")
    if cmd == "info":
        return INFO
    if cmd not in ("new", "node", "apply", "apply_joint", "observation", "eliminate", "board", "playout"):
        raise Refused(f"unknown command {cmd!r}")
    if cmd == "new":
        return node(new(request.get("players"), request.get("params") or {}))
    state = check(request.get("state"))
    if cmd == "node":
        return node(state)
    if cmd == "apply":
        return node(apply(state, request.get("move")))
    if cmd == "apply_joint":
        return node(apply_joint(state, request.get("moves") or {}))
    if cmd == "observation":
        return {"observation": observation(state, request["seat"])}
    if cmd == "eliminate":
        after = eliminate(state, request["seat"])
        return {"node": None} if after is None else node(after)
    if cmd == "board":
        return board(state)
    return {"returns": playout(state, request["seed"], request["count"])}


def main() -> None:
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line))
        except (Refused, ValueError, KeyError, TypeError) as exc:
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
