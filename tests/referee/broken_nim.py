#!/usr/bin/env python3
"""Nim (examples/referees/nim.py) with one deliberate flaw, for the conformance check's tests.

    broken_nim.py MODE

MODE: ``shuffled`` (legal moves, and their notation, in a fresh random order in every node),
``constant-hash`` (the same ``hash`` for every position), ``playout`` (``playout`` returns the
negated returns: wrong at the end of the game), ``determinize`` (declares ``determinize`` and
answers it with the start of a new game, where the seat sees something else), ``board`` (the
board's text is blank). Standard library only.
"""

from __future__ import annotations

import json
import os
import random
import sys

# Where nim.py is: named on the command line (``--nim FOLDER``), because a confined referee sees only
# the paths its command names, not the checkout around its own folder.
_NIM = (sys.argv[sys.argv.index("--nim") + 1] if "--nim" in sys.argv
        else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "referees"))
sys.path.insert(0, _NIM)

import nim  # noqa: E402

MODE = sys.argv[1]
if MODE == "determinize":
    nim.INFO = {**nim.INFO, "features": [*nim.INFO["features"], "determinize"]}
shuffle = random.Random(os.urandom(8)).shuffle


def answer(request: dict) -> dict:
    if MODE == "determinize" and request.get("cmd") == "determinize":
        return nim.node(nim.new(2, {}))
    reply = nim.answer(request)
    if MODE == "shuffled" and "legal" in reply:
        for seat, moves in reply["legal"].items():
            order = list(range(len(moves)))
            shuffle(order)
            reply["legal"][seat] = [moves[i] for i in order]
            if seat in reply.get("notation", {}):
                reply["notation"][seat] = [reply["notation"][seat][i] for i in order]
    elif MODE == "constant-hash" and "hash" in reply:
        reply["hash"] = "same"
    elif MODE == "playout" and "returns" in reply and request.get("cmd") == "playout":
        reply["returns"] = [[-r for r in vector] for vector in reply["returns"]]
    elif MODE == "board" and "text" in reply:
        reply["text"] = " "
    return reply


for line in sys.stdin:
    try:
        out = answer(json.loads(line))
    except (nim.Refused, ValueError, KeyError, TypeError) as exc:
        out = {"error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    sys.stdout.flush()
