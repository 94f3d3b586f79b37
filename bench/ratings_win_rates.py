"""A winner-takes-all log folder's win rates beside its ratings, and the wins the fit expects (issue 34).

For games with one winner and the other seats sharing a place (Goofspiel's and Pig's win/loss
returns), Plackett–Luce's maximum likelihood expects each agent to win as many games as it did
(its score equation), so ratings that say what the win rates say show ``observed / expected`` wins
close to equal; a rule that squeezes the ratings together expects the weak to win far more often.
Also, over all games and per group of agents that met, the Elo gap between the best and each other agent that the
group's win counts imply (a winner-takes-all game is won in proportion to ``exp(strength)``) beside
the fit's.

    .venv/bin/python bench/ratings_win_rates.py tournament_logs/<id>/games.jsonl

The rating code is the ``arena`` imported first on the path (``PYTHONPATH=<another checkout>``
rates with that one's rules).
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH: see the docstring
from arena.stats.plackett_luce import PlackettLuce
from arena.stats.results import ELO_PER_NAT, RankedResult, ranked_from_row


def sole_winner(game: RankedResult) -> str | None:
    """The agent ranked first alone, if any."""
    first = [a for a, r in zip(game.seats, game.ranks, strict=True) if r == 1]
    return first[0] if len(first) == 1 else None


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    games = [ranked_from_row(json.loads(line)) for line in Path(sys.argv[1]).read_text().splitlines() if line]
    names = sorted({a for g in games for a in g.seats})
    played = Counter(a for g in games for a in g.seats)
    won = Counter(sole_winner(g) for g in games)
    model = PlackettLuce(games, names)
    fit = model.fit()
    intervals = model.intervals(200, 0)
    seat = fit.seat_elo or (0.0,) * max(len(g.seats) for g in games)
    expected: dict[str, float] = dict.fromkeys(names, 0.0)
    for g in games:
        weight = [math.exp((fit.elo[a] + seat[s]) / ELO_PER_NAT) for s, a in enumerate(g.seats)]
        for a, x in zip(g.seats, weight, strict=True):
            expected[a] += x / sum(weight)
    print("| agent | games | win % | Elo | 95% interval | wins observed / expected |")
    print("|---|---:|---:|---:|---|---|")
    for a in sorted(names, key=lambda a: -fit.elo[a]):
        print(f"| {a} | {played[a]} | {100 * won[a] / played[a]:.1f} | {fit.elo[a]:+.0f} | "
              f"[{intervals[a][0]:+.0f}, {intervals[a][1]:+.0f}] | {won[a]} / {expected[a]:.1f} |")
    best = max(names, key=lambda a: fit.elo[a])
    print(f"over all games (a round robin: every agent met the same fields but itself), {best} - each by the win "
          "counts' ratio (the gap a winner-takes-all game implies: wins in proportion to exp(strength)), by the fit: "
          + "; ".join(f"{a} {ELO_PER_NAT * math.log(won[best] / won[a]):+.0f}, {fit.elo[best] - fit.elo[a]:+.0f}"
                      for a in sorted(names, key=lambda a: -fit.elo[a]) if a != best and won[a]))
    groups: dict[tuple[str, ...], Counter[str | None]] = {}
    for g in games:
        groups.setdefault(tuple(sorted(g.seats)), Counter())[sole_winner(g)] += 1
    for group, wins in groups.items():
        best = max(group, key=lambda a: fit.elo[a])
        gaps = [f"{best} - {a}: {ELO_PER_NAT * math.log(wins[best] / wins[a]):+.0f} by the wins, "
                f"{fit.elo[best] - fit.elo[a]:+.0f} by the fit" for a in group if a != best and wins[a] and wins[best]]
        print(f"{'/'.join(group)} ({sum(wins.values())} games; wins {', '.join(f'{a} {wins[a]}' for a in group)}): "
              + ("; ".join(gaps) or "no gap measurable (a side never won)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
