"""Deep checkers perft from the start, checked against the published figures (run by hand).

    .venv/bin/python scripts/checkers_perft_deep.py [DEPTH ...]     (default: 8 9 10)

Prints one line per depth: depth, nodes, seconds, and whether it matches the published count
(docs/rules/checkers.md). Exits 1 on any mismatch, 2 on a depth without a published figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from arena.games import get_game

PUBLISHED = {
    1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740,
    8: 845931, 9: 3963680, 10: 18391564,
}


def main() -> int:
    parser = argparse.ArgumentParser(description="Deep checkers perft against the published counts.")
    parser.add_argument("depths", type=int, nargs="*", default=[8, 9, 10], help="depths (1-10)")
    args = parser.parse_args()
    unknown = [d for d in args.depths if d not in PUBLISHED]
    if unknown:
        print(f"no published figure for depth {unknown[0]}: choose 1-10", file=sys.stderr)
        return 2
    game = get_game("checkers")
    start = game.initial_state()
    mismatches = 0
    print(f"{'depth':>5} {'nodes':>12} {'seconds':>9}  match")
    for depth in args.depths:
        began = time.perf_counter()
        nodes = game.perft(start, depth)
        seconds = time.perf_counter() - began
        match = nodes == PUBLISHED[depth]
        mismatches += not match
        print(f"{depth:>5} {nodes:>12} {seconds:>9.2f}  {'yes' if match else 'NO (expected ' + str(PUBLISHED[depth]) + ')'}",
              flush=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
