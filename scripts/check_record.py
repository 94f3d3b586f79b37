#!/usr/bin/env python3
"""Check game records against the rules: every state follows from the previous one by the recorded
turn, the final position is included, and the winner agrees with how the game ended.

Usage: check_record.py FILE...   (each file holds one record or a JSON array of records)
Exit status 0 when every record checks out, 1 otherwise (one line per problem).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from arena.games import GameError, get_game

FAULTS = {"timeout", "illegal_move", "malformed_reply", "crash"}


def check(record: dict[str, Any]) -> list[str]:
    game = get_game(record["game"])
    problems: list[str] = []
    states, turns = record["game_states"], record["turns"]
    if len(states) != len(turns) + 1:
        problems.append(f"{len(turns)} turns but {len(states)} states (the final state must be included)")
        return problems
    state = game.state_from_json(states[0])
    for i, turn in enumerate(turns):
        try:
            move = game.validate_move(state, game.move_from_record(turn))
        except GameError as error:
            problems.append(f"turn {i}: {error}")
            return problems
        state = game.apply(state, move)
        # Compare normalised forms: checkers board lines may be written with or without spaces.
        if game.state_to_json(state) != game.state_to_json(game.state_from_json(states[i + 1])):
            problems.append(f"state {i + 1} does not follow from turn {i}")
            return problems
    termination, winner = record["termination"], record["winner"]
    outcome = game.outcome(state)
    if termination in ("win", "no_legal_moves", "draw"):
        if outcome is None or outcome.termination.value != termination or outcome.winner_name != winner:
            problems.append(f"recorded {termination}/{winner} but the final position says {outcome}")
    elif outcome is not None:
        problems.append(f"the final position is over by the rules ({outcome}) but the record says {termination}")
    elif termination == "max_moves" and winner != "NONE":
        problems.append(f"a max_moves draw must have winner NONE, not {winner}")
    elif termination in FAULTS and winner not in ("BLACK", "WHITE"):
        problems.append(f"a {termination} forfeit must have a winner")
    elif termination in FAULTS and winner == game.state_to_json(state)["turn"]:
        problems.append(f"the bot to move committed the {termination} but is recorded as the winner")
    return problems


def main(paths: list[str]) -> int:
    failed = 0
    for path in paths:
        with open(path) as file:
            data = json.load(file)
        records = data if isinstance(data, list) else [data]
        for n, record in enumerate(records):
            for problem in check(record):
                failed += 1
                print(f"{path}[{n}]: {problem}", file=sys.stderr)
        if not failed:
            print(f"{path}: {len(records)} record(s) check out "
                  f"({', '.join(r['termination'] + '/' + r['winner'] for r in records)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
