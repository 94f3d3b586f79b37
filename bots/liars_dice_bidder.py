#!/usr/bin/env python3
"""A Liar's Dice bot for OpenSpiel's ``liars_dice`` under arena (``--game spiel:liars_dice``): it
bids and calls by the odds its own dice give.

This file stands alone: it needs only Python 3 and its standard library. Run it under arena:

    arena match --game spiel:liars_dice "python3 bots/liars_dice_bidder.py" \\
        "python3 bots/legal_random.py --seed 1"

The game (OpenSpiel's defaults): two players, one six-sided die each, rolled in secret. Players
bid in turn, each bid higher than the last: ``"q-f"`` claims at least q dice among all show face
f, and 6 is wild (it counts as every face). Instead of bidding, a player calls ``"Liar"`` on the
last bid: if the bid holds, the bidder wins (+1, the caller -1), otherwise the caller wins.

What we see (the payload arena sends, OpenSpiel's information state as text): our dice, then the
bids so far, e.g. ``"6 1-3"`` (we rolled a 6; seat 0 bid one 3), and ``legalNames``, the moves we
may play (``"1-4"`` ... ``"2-6"``, ``"Liar"``). A move is its name; we answer one line, then flush:
{"type": "turn", "payload": "Liar"}.

Strategy: the chance that a bid "q-f" holds given our dice: each unseen die shows f or a 6 with
probability 2/6 (1/6 for f = 6). We find the legal bid most likely to hold (the lowest on ties)
and call "Liar" instead when the last bid is more likely false than that bid is true (a call wins
when the bid is false; a raise, if called, wins when it holds).
"""

from __future__ import annotations

import argparse
import json
import sys
from math import comb

SIDES = 6


def parse(text: str) -> tuple[list[int], list[str]]:
    """Our dice and the bids so far from the information state ``"46 1-3 2-5"``."""
    words = text.split()
    return [int(c) for c in words[0]] if words else [], words[1:]


def holds(bid: str, dice: list[int], unseen: int) -> float:
    """The probability that ``bid`` ("q-f") holds, given our ``dice`` and ``unseen`` other dice."""
    quantity, face = (int(x) for x in bid.split("-"))
    mine = sum(1 for d in dice if d == face or d == SIDES)
    need = quantity - mine
    if need <= 0:
        return 1.0
    p = (1 if face == SIDES else 2) / SIDES
    return sum(comb(unseen, k) * p**k * (1 - p) ** (unseen - k) for k in range(need, unseen + 1))


def choose(payload: dict, players: int) -> str:
    """Our move for one observation."""
    legal = list(payload["legalNames"])
    dice, bids = parse(str(payload.get("text", "")))
    unseen = len(dice) * (players - 1)  # every player rolls as many dice as we do (OpenSpiel's numdice)
    bidding = [m for m in legal if m != "Liar"]
    if not bidding:
        return "Liar"
    best = max(bidding, key=lambda m: (holds(m, dice, unseen), -bidding.index(m)))
    if "Liar" in legal and bids and 1 - holds(bids[-1], dice, unseen) > holds(best, dice, unseen):
        return "Liar"
    return best


def main() -> None:
    argparse.ArgumentParser(description="Liar's Dice (spiel:liars_dice) by the odds of its own dice.").parse_args()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as error:
            print(f"liars_dice_bidder: ignoring bad JSON: {error}", file=sys.stderr)
            continue
        if not isinstance(message, dict) or message.get("type") != "game_state":
            continue
        move = choose(message["payload"], int(message.get("players", 2)))
        print(json.dumps({"type": "turn", "payload": move}), flush=True)


if __name__ == "__main__":
    main()
