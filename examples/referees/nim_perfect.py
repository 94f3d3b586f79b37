#!/usr/bin/env python3
"""A Nim bot for the referee examples/referees/nim.py that plays the two-player winning strategy: leave
the opponent a heap that is a multiple of take + 1 (standard library only; the envelope as in
nim_random.py). Against one opponent it wins every game it can win."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    seen = message["payload"]
    if seen["phase"] == "count":
        move = 1
    else:
        move = seen["heap"] % (seen["take"] + 1) or 1
    print(json.dumps({"type": "turn", "payload": move}), flush=True)
