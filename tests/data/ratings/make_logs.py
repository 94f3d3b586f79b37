"""Writes the two-player ``games.jsonl`` logs of this folder and their golden standings.

The logs are seeded simulations of Bradley–Terry tournaments in the row format of
``arena run`` (index, pair, black, white, winner, result, termination): draws, a first-move
advantage, colour-swapped pairs and lone games, faults, and one agent that never loses.
``golden.json`` holds the unrounded Elo, bootstrap and normal intervals and first-move Elo
of each log (those ``compute_standings`` rounds and joins) as computed by the pure-Python
Bradley–Terry fit that ``arena.stats.ratings`` had before the Plackett–Luce fit replaced it
(commit 8ca347f); ``tests/stats/test_two_player_golden.py`` checks today's code against it.
Rerunning ``--golden`` with today's code would overwrite that reference: do it only on purpose.

Usage: ``python tests/data/ratings/make_logs.py [--golden]`` from the repository root.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Bootstrap settings of the golden standings (the runner's defaults are 200 samples).
SAMPLES, SEED = 200, 11
TEXT = {"BLACK": "1-0", "WHITE": "0-1", "NONE": "1/2-1/2"}
FAULTS = ("timeout", "crash", "illegal_move")


def play(rng: random.Random, black: float, white: float, h: float, draw: float) -> str:
    """BLACK, WHITE or NONE: a draw with probability ``draw * exp(-|d|)``, else logistic in d."""
    d = black - white + h
    if rng.random() < draw * math.exp(-abs(d)):
        return "NONE"
    return "BLACK" if rng.random() < 1.0 / (1.0 + math.exp(-d)) else "WHITE"


def row(index: int, pair: int | None, black: str, white: str, winner: str, rng: random.Random) -> dict:
    termination = "draw" if winner == "NONE" else "win"
    if winner != "NONE" and rng.random() < 0.04:
        termination = rng.choice(FAULTS)
    return {"index": index, "pair": pair, "black": black, "white": white, "winner": winner,
            "result": TEXT[winner], "termination": termination}


def round_robin(seed: int, strengths: dict[str, float], pairs_per_couple: int, h: float, draw: float,
                unbeaten: str | None = None) -> list[dict]:
    rng = random.Random(seed)
    names = list(strengths)
    rows: list[dict] = []
    pair = 0
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for _ in range(pairs_per_couple):
                for black, white in ((a, b), (b, a)):
                    winner = play(rng, strengths[black], strengths[white], h, draw)
                    if unbeaten in (black, white) and winner == ("WHITE" if unbeaten == black else "BLACK"):
                        winner = "NONE"  # the unbeaten agent turns its losses into draws
                    rows.append(row(len(rows), pair, black, white, winner, rng))
                pair += 1
    return rows


def random_pairings(seed: int, strengths: dict[str, float], games: int, h: float, draw: float) -> list[dict]:
    """Random couples; every other couple plays a colour-swapped pair, the rest one lone game."""
    rng = random.Random(seed)
    names = list(strengths)
    rows: list[dict] = []
    pair = 0
    while len(rows) < games:
        a, b = rng.sample(names, 2)
        swapped = rng.random() < 0.5
        for black, white in ((a, b), (b, a)) if swapped else ((a, b),):
            winner = play(rng, strengths[black], strengths[white], h, draw)
            rows.append(row(len(rows), pair if swapped else None, black, white, winner, rng))
        pair += swapped
    return rows


def logs() -> dict[str, list[dict]]:
    elo = math.log(10.0) / 400.0
    return {
        "round_robin6": round_robin(
            1, {f"bot{i}": elo * s for i, s in enumerate([-150, -60, 0, 40, 90, 160])}, 6, 60 * elo, 0.35),
        "unbeaten4": round_robin(
            2, {"champion": elo * 500, "mid": 0.0, "low": -elo * 80, "weak": -elo * 200}, 5, 30 * elo, 0.25,
            unbeaten="champion"),
        "random10": random_pairings(
            3, {f"a{i:02d}": elo * (40 * i - 180) for i in range(10)}, 300, 45 * elo, 0.2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", action="store_true", help="also write golden.json with today's code")
    args = parser.parse_args()
    golden = {}
    for name, rows in logs().items():
        (HERE / f"{name}.jsonl").write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in rows))
        if args.golden:
            sys.path.insert(0, str(HERE.parents[2]))
            from arena.stats import ratings

            results = [ratings.result_from_row(r) for r in rows]
            fit = ratings.bradley_terry(results)
            boot = ratings.bootstrap_intervals(results, samples=SAMPLES, seed=SEED)
            normal = ratings.normal_intervals(results)
            golden[name] = {  # unrounded: elo, then the bootstrap's and the normal interval's ends
                "first_move_elo": fit.first_move_elo,
                "agents": {a: [fit.elo[a], *boot[a], *normal[a]] for a in fit.elo},
            }
    if args.golden:
        golden = {"samples": SAMPLES, "seed": SEED, "logs": golden}
        lines = [json.dumps({"samples": SAMPLES, "seed": SEED})[:-1] + ', "logs": {']
        for i, (name, log) in enumerate(golden["logs"].items()):
            lines.append(f' "{name}": {{"first_move_elo": {log["first_move_elo"]!r}, "agents": {{')
            lines += [f'  "{a}": {json.dumps(v)}' + ("," if j < len(log["agents"]) - 1 else "")
                      for j, (a, v) in enumerate(log["agents"].items())]
            lines.append(" }}" + ("," if i < len(golden["logs"]) - 1 else ""))
        (HERE / "golden.json").write_text("\n".join([*lines, "}}"]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
