"""Heuristic against random bots in the N-seat games, through the real engine (issue 20).

For each game and player count, ``arena match`` plays GAMES games of ``bots/<game>_heuristic.py``
against ``bots/<game>_random.py`` in every other seat (the seats rotate game by game), and this
prints the heuristic's mean return, its share of first places and the random seats' figures.

    python bench/table_bots.py                 # 200 games each, 2 and 3 players
    python bench/table_bots.py --games 50 --players 4
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"goofspiel": ["--param", "num_cards=13"], "kuhn_poker": [], "leduc_poker": [], "love_letter": []}


def play(game: str, players: int, games: int, seed: int) -> dict[str, float]:
    heuristic = f"{sys.executable} {ROOT / 'bots' / f'{game}_heuristic.py'}"
    randoms = [f"{sys.executable} {ROOT / 'bots' / f'{game}_random.py'} --seed {i}" for i in range(1, players)]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "records.json"
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "arena", "match", heuristic, *randoms, "--game", game, *GAMES[game],
                        "--games", str(games), "--seed", str(seed), "--quiet", "--out", str(out)],
                       check=True, cwd=ROOT, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        records = json.loads(out.read_text())
    mine = [(r["returns"][s], r["ranks"][s]) for r in records for s, e in enumerate(r["seats"])
            if e["id"] == f"{game}_heuristic"]
    others = [(r["returns"][s], r["ranks"][s]) for r in records for s, e in enumerate(r["seats"])
              if e["id"] != f"{game}_heuristic"]
    faults = sum(len(r["eliminations"]) for r in records)
    return {"games": len(records), "seconds": seconds, "faults": faults,
            "heuristic_return": sum(v for v, _ in mine) / len(mine), "heuristic_first": sum(r == 1 for _, r in mine) / len(mine),
            "random_return": sum(v for v, _ in others) / len(others), "random_first": sum(r == 1 for _, r in others) / len(others)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| game | players | games | heuristic mean return | heuristic first | random mean return | random first | faults | s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game in GAMES:
        for players in args.players:
            r = play(game, players, args.games, args.seed)
            print(f"| {game} | {players} | {r['games']:.0f} | {r['heuristic_return']:+.3f} | {r['heuristic_first']:.0%} | "
                  f"{r['random_return']:+.3f} | {r['random_first']:.0%} | {r['faults']:.0f} | {r['seconds']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
