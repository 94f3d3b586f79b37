"""Per-agent figures of N-seat game records (the JSON array ``arena match --out`` writes): games,
mean return with its standard error, games won (the best return, alone), by agent and by seat.

    python bench/mcts_returns.py records.json
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict


def summarize(records: list[dict]) -> dict[str, dict[str, float]]:
    """Agent id -> games, mean return, its standard error, wins and the mean return at each seat."""
    returns: dict[str, list[float]] = defaultdict(list)
    by_seat: dict[tuple[str, int], list[float]] = defaultdict(list)
    wins: dict[str, int] = defaultdict(int)
    for record in records:
        for seat in record["seats"]:
            value = float(record["returns"][seat["seat"]])
            returns[seat["id"]].append(value)
            by_seat[seat["id"], seat["seat"]].append(value)
            if record["ranks"][seat["seat"]] == 1 and record["ranks"].count(1) == 1:
                wins[seat["id"]] += 1
    table = {}
    for agent, values in returns.items():
        n = len(values)
        mean = sum(values) / n
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        table[agent] = {"games": n, "mean": mean, "stderr": spread / math.sqrt(n), "wins": wins[agent],
                        **{f"seat{s}": sum(v) / len(v) for (a, s), v in sorted(by_seat.items()) if a == agent}}
    return table


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        data = json.load(handle)
    for agent, row in summarize(data if isinstance(data, list) else [data]).items():
        seats = "  ".join(f"{k} {v:+.3f}" for k, v in row.items() if k.startswith("seat"))
        print(f"{agent}: {row['games']} games, mean return {row['mean']:+.3f} ± {row['stderr']:.3f}, "
              f"won {row['wins']} ({row['wins'] / row['games']:.1%}); by seat: {seats}")
