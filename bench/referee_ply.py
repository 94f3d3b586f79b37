"""A ply's cost: the C Breakthrough referee over its pipes against arena's in-process Breakthrough.

Plays the same seeded random games both ways. Over the pipes a ply is one ``apply`` round trip
(the reply is the next node: its legal moves, notation, hash and the mover's observation), timed
from writing the request to holding the parsed reply; in process it is ``apply`` plus
``legal_moves``. Also the fused simulation MCTS uses: one ``playout`` request of many random
games against the same games played in process. Prints microseconds per ply, round trips per ply,
and microseconds per playout. Then perft 1..``--perft`` from the start by round trips alone
(tests/referees/driver.perft) beside arena's own perft: the whole perft 5 is too slow for the test
suite, which checks perft 1-4 and a sample of perft 5.

    .venv/bin/python bench/referee_ply.py [--games 300] [--playouts 2000] [--perft 5]

Builds the referee first (examples/referees/breakthrough-c, into build/referees/; needs cc and make).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from arena.games.breakthrough.rules import BreakthroughGame
from tests.referees.driver import Referee, build, perft

GAME = BreakthroughGame()


def referee_plies(referee: Referee, games: int) -> tuple[int, int, float]:
    """``(plies, round trips, seconds)`` of ``games`` seeded random games over the pipes."""
    plies, trips_before, seconds = 0, referee.round_trips, 0.0
    start = referee.ask({"cmd": "new", "players": 2, "params": {}})
    trips_before = referee.round_trips
    for seed in range(games):
        rng, node = random.Random(seed), start
        while node["actor"] >= 0:
            move = rng.choice(node["legal"][str(node["actor"])])
            began = time.perf_counter()
            node = referee.ask({"cmd": "apply", "state": node["state"], "move": move})
            seconds += time.perf_counter() - began
            plies += 1
    return plies, referee.round_trips - trips_before, seconds


def inprocess_plies(games: int) -> tuple[int, float]:
    """``(plies, seconds)`` of the same games in process: ``apply`` and ``legal_moves`` per ply."""
    plies, seconds = 0, 0.0
    for seed in range(games):
        rng, state = random.Random(seed), GAME.initial_state()
        legal = GAME.legal_moves(state)
        while legal:
            move = rng.choice(legal)
            began = time.perf_counter()
            state = GAME.apply(state, move)
            legal = GAME.legal_moves(state)
            seconds += time.perf_counter() - began
            plies += 1
    return plies, seconds


def inprocess_playouts(count: int) -> float:
    """Seconds for ``count`` random games from the start in process."""
    rng = random.Random(1)
    began = time.perf_counter()
    for _ in range(count):
        state = GAME.initial_state()
        while legal := GAME.legal_moves(state):
            state = GAME.apply(state, rng.choice(legal))
    return time.perf_counter() - began


def measure(command: list[str], games: int, playouts: int) -> dict[str, Any]:
    """The figures :func:`main` prints, as a dict."""
    with Referee(command) as referee:
        plies, trips, seconds = referee_plies(referee, games)
        start = referee.ask({"cmd": "new", "players": 2, "params": {}})["state"]
        began = time.perf_counter()
        returns = referee.ask({"cmd": "playout", "state": start, "seed": 1, "count": playouts})["returns"]
        fused = time.perf_counter() - began
    local_plies, local_seconds = inprocess_plies(games)
    assert local_plies == plies, "the same seeded games must have the same length both ways"
    local_playouts = inprocess_playouts(playouts)
    return {"plies": plies, "round_trips_per_ply": trips / plies, "referee_us_per_ply": 1e6 * seconds / plies,
            "inprocess_us_per_ply": 1e6 * local_seconds / plies, "playouts": len(returns),
            "referee_us_per_playout": 1e6 * fused / playouts,
            "inprocess_us_per_playout": 1e6 * local_playouts / playouts}


def perft_table(command: list[str], depth: int) -> bool:
    """Print perft 1..depth from the start, the referee's beside arena's; whether all agree."""
    agree = True
    with Referee(command) as referee:
        start = referee.ask({"cmd": "new", "players": 2, "params": {}})
        for d in range(1, depth + 1):
            trips, began = referee.round_trips, time.perf_counter()
            theirs = perft(referee, start, d)
            seconds = time.perf_counter() - began
            ours = GAME.perft(GAME.initial_state(), d)
            agree &= theirs == ours
            print(f"  perft {d}: referee {theirs:>10,} ({referee.round_trips - trips:,} round trips, {seconds:.2f} s),"
                  f" arena {ours:>10,}  {'same' if theirs == ours else 'DIFFERENT'}")
    return agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--playouts", type=int, default=2000)
    parser.add_argument("--perft", type=int, default=5, help="perft depths 1..N from the start (0: none)")
    args = parser.parse_args()
    binary = build("breakthrough-c", ("cc",)) / "breakthrough-referee"
    figures = measure([str(binary)], args.games, args.playouts)
    print(f"Breakthrough, {args.games} seeded random games, {figures['plies']:,} plies")
    print(f"  C referee over pipes: {figures['referee_us_per_ply']:8.1f} us/ply,"
          f" {figures['round_trips_per_ply']:.2f} round trips/ply (apply; the reply carries the legal moves)")
    print(f"  arena in process:     {figures['inprocess_us_per_ply']:8.1f} us/ply, 0 round trips (apply + legal_moves)")
    print(f"  referee / in process: {figures['referee_us_per_ply'] / figures['inprocess_us_per_ply']:.2f}")
    print(f"Fused random playouts from the start, {args.playouts:,} games")
    print(f"  C referee, one round trip: {figures['referee_us_per_playout']:8.1f} us/playout")
    print(f"  arena in process:          {figures['inprocess_us_per_playout']:8.1f} us/playout")
    print(f"  ratio: {figures['inprocess_us_per_playout'] / figures['referee_us_per_playout']:.0f}x faster over the pipe")
    if args.perft > 0:
        print("perft from the start")
        if not perft_table([str(binary)], args.perft):
            sys.exit(1)


if __name__ == "__main__":
    main()
