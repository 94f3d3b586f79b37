"""Perft speed of arena's move generators against deliberately plain ones, in one run.

For checkers: ``get_game("checkers").perft`` against ``plain_perft`` of bench/plain_checkers.py;
for Shobu: ``get_game("shobu").perft`` against ``plain_perft`` of bench/plain_shobu.py. Prints, per
game and generator, the leaf count, seconds and leaves per second, then the speed-up and whether the
goal is met (fast >= 4x plain, and checkers perft(8) under 2 s when depth 8 is measured).

    .venv/bin/python bench/perft_speed.py [--depth-checkers 8] [--depth-shobu 2]

A missing module (for instance a game not written yet) is reported on one line and skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

SPEEDUP_GOAL = 4.0
CHECKERS_PERFT8_GOAL_S = 2.0


def load_bench_module(filename: str) -> ModuleType | None:
    """A sibling file of this script as a module, or None (with a one-line message) if absent."""
    path = HERE / filename
    if not path.exists():
        print(f"  (skipped: {path.name} is missing)")
        return None
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        print(f"  (skipped: cannot load {path.name})")
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # noqa: BLE001 - a broken sibling must not hide the other figures
        print(f"  (skipped: {path.name} failed to load: {type(error).__name__}: {error})")
        return None
    return module


def timed(label: str, count: Callable[[], int]) -> tuple[int, float]:
    """Run ``count`` once; print and return the leaves and seconds."""
    began = time.perf_counter()
    leaves = count()
    seconds = time.perf_counter() - began
    rate = leaves / seconds if seconds > 0 else float("inf")
    print(f"  {label:<6} {leaves:>12,} leaves  {seconds:8.3f} s  {rate:>12,.0f} leaves/s")
    return leaves, seconds


def measure(game_name: str, depth: int, plain_file: str) -> bool:
    """Time one game's fast and plain perft; print the comparison; True if the goal is met."""
    print(f"{game_name} perft({depth})")
    try:
        from arena.games import get_game

        game = get_game(game_name)
    except ImportError as error:
        print(f"  (skipped: arena's {game_name} rules are missing: {error})")
        return False
    fast_leaves, fast_s = timed("fast", lambda: game.perft(game.initial_state(), depth))
    plain = load_bench_module(plain_file)
    if plain is None:
        return False
    plain_leaves, plain_s = timed("plain", lambda: plain.plain_perft(depth))
    if plain_leaves != fast_leaves:
        print(f"  MISMATCH: fast {fast_leaves} != plain {plain_leaves}")
        return False
    speedup = plain_s / fast_s if fast_s > 0 else float("inf")
    met = speedup >= SPEEDUP_GOAL
    goal = f"fast >= {SPEEDUP_GOAL:g}x plain"
    if game_name == "checkers" and depth == 8:
        met = met and fast_s < CHECKERS_PERFT8_GOAL_S
        goal += f" and perft(8) < {CHECKERS_PERFT8_GOAL_S:g} s"
    print(f"  speed-up {speedup:.1f}x  goal ({goal}): {'met' if met else 'NOT met'}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth-checkers", type=int, default=8, help="checkers perft depth (8)")
    parser.add_argument("--depth-shobu", type=int, default=2, help="Shobu perft depth (2)")
    args = parser.parse_args()
    results = [
        measure("checkers", args.depth_checkers, "plain_checkers.py"),
        measure("shobu", args.depth_shobu, "plain_shobu.py"),
    ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
