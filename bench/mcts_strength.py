"""MCTS's speed and strength: iterations a second per game, and a results table against the
alpha-beta agent and a random player at a chosen time a move (issue 36).

    python bench/mcts_strength.py [--move-ms 1000] [--games 100] [--game connect4 ...]
                                  [--opponent alphabeta|random ...] [--engine adapter|generic]

Games are played in this one process, agent against agent, with the same code arena's bots run
(:class:`arena.agents.mcts_bot.MctsAgent`, :class:`arena.agents.search_bot.SearchAgent`): no
process start-up or pipe in the way, both sides given ``--move-ms`` a move (the alpha-beta agent
stops deepening early when the next iteration would not finish, so it tends to use less). Colours
alternate game by game; seeds are the game's number, so a run is repeatable up to timing. The
match's move cap is the game's default (a draw there).

The clock (``--clock``). Both agents measure a move's time with ``time.perf_counter()``; with
``--clock cpu`` (the default) this process replaces it with ``time.process_time()`` before any game,
so every move's budget is CPU time of the process, which is the CPU time of the agent on move: the
two agents take turns in one process, and each game runs in a process of its own (``--jobs``
games at once, 1 by default). On a shared machine a wall-clock budget gives each side whatever share
of a core the other jobs leave it, move by move; the CPU clock gives both the same work a move.
``--clock wall`` keeps the wall clock (what a bot does in a real match).

``--engine generic`` plays the MCTS of the rules' states with random playouts (what the agent did
before it searched on the search adapters), ``adapter`` (default) what it does now. Every
two-player game with a search adapter is played by default; the N-seat games keep the generic
engine (their figures are in bench/mcts_strength.md). The machine's load is printed before each
table row: the figures mean little on a busy machine.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from typing import Any

from arena.agents.hyperparameters import Hyperparameters
from arena.agents.mcts import Budget, Mcts
from arena.agents.mcts_adapter import AdapterMcts
from arena.agents.mcts_bot import MctsAgent
from arena.agents.parts import search_ref
from arena.agents.protocol_io import Request
from arena.agents.search_bot import SearchAgent
from arena.games.registry import GENERAL, all_specs

_NO_CLOCK_MS = 1e12  # the agents' game budget: large, so that --move-ms alone sets each move's time


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} CPUs"


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / n`` (draws counted as half)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def iterations_per_second(spec: Any, seconds: float, engine: str) -> float:
    """Iterations a second of one search from the start of ``spec``'s game."""
    rules = spec.rules_object()
    state = rules.initial_state()
    deadline = time.perf_counter() + seconds
    if engine == "adapter":
        from arena.agents.hyperparameters import search_adapter_class

        adapter = search_adapter_class(spec)(None)
        result = AdapterMcts(adapter, rng=random.Random(1), max_ply=spec.default_max_moves).search(
            adapter.from_state(state), Budget(deadline=deadline))
    else:
        game = spec.table()
        result = Mcts(game, rng=random.Random(1), max_ply=spec.default_max_moves).search(
            game.actor(state), lambda rng: state, Budget(deadline=deadline))
    return result.iterations / result.seconds


class _Random:
    def __init__(self, rules: Any, seed: int) -> None:
        self.rules, self.rng = rules, random.Random(seed)

    def choose(self, request: Request) -> Any:
        return self.rng.choice(self.rules.legal_moves(request.state))


def _player(kind: str, spec: Any, move_ms: int, seed: int, engine: str) -> Any:
    if kind == "mcts":
        agent = MctsAgent(spec.name, Hyperparameters("mcts", move_time_ms=move_ms, seed=seed),
                          time_limit_ms=_NO_CLOCK_MS, verbose=False)
        if engine == "generic":
            agent.fast = None
        return agent
    if kind == "alphabeta":
        return SearchAgent(spec.name, Hyperparameters("alphabeta", move_time_ms=move_ms, seed=seed),
                           time_limit_ms=_NO_CLOCK_MS, verbose=False)
    return _Random(spec.rules_object(), seed)


def play(spec: Any, opponent: str, move_ms: int, seed: int, mcts_first: bool, engine: str) -> float:
    """One game; MCTS's score (1, 0.5 or 0)."""
    rules = spec.rules_object()
    mcts = _player("mcts", spec, move_ms, seed, engine)
    other = _player(opponent, spec, move_ms, seed + 10_000, engine)
    players = (mcts, other) if mcts_first else (other, mcts)
    state = rules.initial_state()
    first_colour = rules.to_move(state)
    for _ in range(spec.default_max_moves):
        outcome = rules.outcome(state)
        if outcome is not None:
            break
        side = 0 if rules.to_move(state) == first_colour else 1
        move = players[side].choose(Request(state, None, None, time.perf_counter()))
        state = rules.apply(state, rules.validate_move(state, move))
    outcome = rules.outcome(state)
    if outcome is None or outcome.winner is None:
        return 0.5
    mcts_colour = first_colour if mcts_first else next(
        c for c in type(first_colour) if c != first_colour)
    return 1.0 if outcome.winner == mcts_colour else 0.0


def _play_one(job: tuple[str, str, int, int, str, str]) -> float:
    """:func:`play` for one game, in a worker process (``job``: game, opponent, move ms, seed,
    engine, clock)."""
    game, opponent, move_ms, seed, engine, clock = job
    use_clock(clock)
    spec = next(s for s in all_specs() if s.name == game)
    return play(spec, opponent, move_ms, seed, seed % 2 == 0, engine)


def use_clock(clock: str) -> None:
    """Make ``time.perf_counter`` this process's CPU time (``"cpu"``) or leave it (``"wall"``)."""
    if clock == "cpu":
        time.perf_counter = time.process_time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--move-ms", type=int, default=1000, help="time a move for both sides (default 1000)")
    parser.add_argument("--games", type=int, default=100, help="games a row (default 100)")
    parser.add_argument("--game", action="append", help="a game (repeatable; default: every two-player game "
                        "with a search adapter)")
    parser.add_argument("--opponent", action="append", choices=("alphabeta", "random"),
                        help="repeatable; default both")
    parser.add_argument("--engine", choices=("adapter", "generic"), default="adapter")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="what a move's time is: this process's CPU time (default) or the wall clock")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, each in its own process")
    parser.add_argument("--speed-seconds", type=float, default=2.0, help="length of the speed search (default 2)")
    args = parser.parse_args(argv)
    specs = [s for s in all_specs() if s.model != GENERAL and search_ref(s) is not None]
    if args.game:
        specs = [s for s in specs if s.name in args.game]
    opponents = args.opponent or ["alphabeta", "random"]
    use_clock(args.clock)
    print(f"MCTS engine {args.engine}; {args.clock} clock; {_load()}")
    print("\niterations a second (one search from the start):")
    for spec in specs:
        generic = iterations_per_second(spec, args.speed_seconds, "generic")
        adapter = iterations_per_second(spec, args.speed_seconds, "adapter")
        print(f"  {spec.name:<14} generic {generic:>9,.0f}   adapter {adapter:>9,.0f}   ({_load()})")
    print(f"\nresults for MCTS, {args.move_ms} ms a move, {args.games} games a row, colours alternating:")
    print(f"  {'game':<14} {'opponent':<10} {'W-D-L':>10} {'score':>7}  95% interval")
    for spec in specs:
        for opponent in opponents:
            started = time.time()
            jobs = [(spec.name, opponent, args.move_ms, seed, args.engine, args.clock) for seed in range(args.games)]
            if args.jobs > 1:
                with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
                    scores = pool.map(_play_one, jobs, chunksize=1)
            else:
                scores = [_play_one(job) for job in jobs]
            wins, draws = scores.count(1.0), scores.count(0.5)
            total = wins + draws / 2
            low, high = wilson(total, len(scores))
            print(f"  {spec.name:<14} {opponent:<10} {f'{wins}-{draws}-{len(scores) - wins - draws}':>10} "
                  f"{total / len(scores):>7.1%}  [{low:.1%}, {high:.1%}]  "
                  f"({time.time() - started:.0f} s wall, {_load()})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
