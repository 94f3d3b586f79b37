"""Strength of arena's Abalone search agent against bots/abalone_greedy.py, in one process.

Plays colour-swapped pairs of games from random 2-ply openings between the search engine
(:mod:`arena.agents.eval_abalone` with the default weights, or a hyperparameters file's
``evaluation``) at a fixed depth and the standalone greedy bot's ``choose_move``; prints each
game and the score. No subprocesses and no clock: depth, not time, limits the search, so the
figures do not depend on how busy the machine is.

    .venv/bin/python bench/abalone_strength.py [--pairs 4] [--depth 2] [--max-moves 200]
        [--hyperparameters configs/hyperparameters_abalone.json] [--seed 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.agents.eval_abalone import AbaloneSearch  # noqa: E402
from arena.agents.search import Searcher  # noqa: E402
from arena.games.base import Color, random_opening  # noqa: E402
from arena.games.registry import get_game  # noqa: E402


def load_greedy() -> ModuleType:
    path = ROOT / "bots" / "abalone_greedy.py"
    spec = importlib.util.spec_from_file_location("abalone_greedy_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_game(weights: dict[str, int], search_colour: Color, depth: int, max_moves: int, seed: int,
              greedy: ModuleType) -> tuple[str, int, int]:
    """One game; returns (result for the search side: win/draw/loss, plies, marbles pushed off by
    the search side minus those it lost)."""
    game = get_game("abalone")
    state = random_opening(game, 2, random.Random(seed))
    adapter = AbaloneSearch(weights)
    searcher = Searcher(adapter, max_moves=max_moves, rng=random.Random(seed))
    rng = random.Random(seed + 1)
    while game.outcome(state) is None and game.ply(state) < max_moves:
        if state.turn is search_colour:
            result = searcher.search(adapter.from_state(state), max_depth=depth)
            move = game.validate_move(state, adapter.to_game_move(result.move))
        else:
            rows = game.state_to_json(state)["board"]
            line, direction = greedy.choose_move(greedy.read_board(rows), state.turn.value, rng)
            wire = {"marbles": [greedy.cell_name(c) for c in line], "direction": direction}
            move = game.validate_move(state, game.parse_move(wire))
        state = game.apply(state, move)
    mine, theirs = (state.black, state.white) if search_colour is Color.BLACK else (state.white, state.black)
    balance = mine.bit_count() - theirs.bit_count()
    outcome = game.outcome(state)
    if outcome is None:
        return "draw", game.ply(state), balance
    return ("win" if outcome.winner is search_colour else "loss"), game.ply(state), balance


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--max-moves", type=int, default=200)
    parser.add_argument("--hyperparameters", default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    weights: dict[str, int] = {}
    if args.hyperparameters:
        weights = json.loads(Path(args.hyperparameters).read_text()).get("evaluation", {})
    greedy = load_greedy()
    tally = {"win": 0, "draw": 0, "loss": 0}
    started = time.perf_counter()
    for pair in range(args.pairs):
        for colour in (Color.BLACK, Color.WHITE):
            result, plies, balance = play_game(weights, colour, args.depth, args.max_moves,
                                               args.seed * 1000 + pair, greedy)
            tally[result] += 1
            print(f"pair {pair} search {colour.value:5s}: {result:4s} after {plies:3d} plies,"
                  f" marble balance {balance:+d}", flush=True)
    games = sum(tally.values())
    points = tally["win"] + tally["draw"] / 2
    print(f"search depth {args.depth} vs greedy: {points:g}/{games} (W-D-L {tally['win']}-{tally['draw']}-"
          f"{tally['loss']}) in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
