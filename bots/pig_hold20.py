#!/usr/bin/env python3
"""A Pig bot that holds at 20: it rolls until this turn has gathered 20 points (``--hold N``), or
enough to reach the target, then holds. The classic simple strategy (it maximises the expected
points of a turn), deterministic.

This file stands alone (Python 3 and its standard library only). Run it under arena:

    arena match --game pig --players 3 "python3 bots/pig_hold20.py" \\
        "python3 bots/pig_random.py --seed 1" "python3 bots/pig_random.py --seed 2"

Protocol: as bots/pig_random.py's docstring shows; we read "turnTotal", "scores", "seat" and
"target" from the payload and answer {"type": "turn", "payload": "roll"} or "hold".
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def choose(payload: dict[str, Any], hold_at: int) -> str:
    """Hold once the turn total reaches ``hold_at`` or would win; roll otherwise."""
    total = payload["turnTotal"]
    if total > 0 and (total >= hold_at or payload["scores"][payload["seat"]] + total >= payload["target"]):
        return "hold"
    return "roll"


def main() -> None:
    parser = argparse.ArgumentParser(description="Pig bot holding at 20 points a turn.")
    parser.add_argument("--hold", type=int, default=20, help="the turn total at which to hold")
    hold_at = parser.parse_args().hold
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"pig_hold20: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            continue
        print(json.dumps({"type": "turn", "payload": choose(message["payload"], hold_at)}), flush=True)


if __name__ == "__main__":
    main()
