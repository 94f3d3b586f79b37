#!/usr/bin/env python3
"""A Nim bot for the referee examples/referees/nim.py: any legal move, at random (standard library only).

It speaks arena's N-seat envelope (docs/tables.md): one JSON line per decision, whose payload is its
seat's observation ({"heap", "take", "phase", "to_move", "out", "you"}); it answers
{"type": "turn", "payload": <move>}: stones to take, or fingers to show at the count-off.
"""

import json
import random
import sys

for line in sys.stdin:
    message = json.loads(line)
    seen = message["payload"]
    if seen["phase"] == "count":
        move = random.randint(1, message["players"])
    else:
        move = random.randint(1, min(seen["take"], seen["heap"]))
    print(json.dumps({"type": "turn", "payload": move}), flush=True)
