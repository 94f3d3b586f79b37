"""Tables and standings of games of any number of seats, from :class:`RankedResult` values. No I/O.

- :func:`pairwise_table`: every two seats of a game are a two-player result (the better rank wins,
  equal ranks draw), tabulated as the two-player ``crosstable`` is, likelihood of superiority
  included.
- :func:`seat_table`: per seat, games, wins (rank 1, a shared first included), win %, average rank
  and average return.
- :func:`agent_table`: per agent, games, wins, average rank and return, pairwise score % and how
  often it finished 1st, 2nd, ...
- :func:`ranked_termination_counts`: how games ended, and each agent's faults.
- :func:`table_standings`: all of it with the Plackett–Luce ratings, as the N-seat
  ``standings.json`` holds it (the caller adds ``id``, ``game`` and ``seed``).

The two-player ``crosstable`` and ``termination_counts`` of :mod:`arena.stats.ratings` are these
tables of two-seat games. This module imports numpy only when :func:`table_standings` runs.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from arena.stats.results import RankedResult, agents_of


def likelihood_of_superiority(wins: float, losses: float) -> float:
    """Probability that the first player is the stronger, from decisive games only (0.5 with none):
    ``0.5 * (1 + erf((w - l) / sqrt(2 (w + l))))``, as engine-testing tools report it."""
    if wins + losses <= 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def pairwise_table(results: Iterable[RankedResult], agents: Sequence[str] | None = None
                   ) -> dict[str, dict[str, dict[str, float]]]:
    """``table[a][b]``: a's games, wins, draws, losses and points against b counted over every game
    where both sat (each game is one comparison of the two), and a's LOS over b."""
    games = list(results)
    names = agents_of(games, agents)
    table: dict[str, dict[str, dict[str, float]]] = {
        a: {b: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "points": 0.0} for b in names if b != a}
        for a in names
    }
    for g in games:
        for i, a in enumerate(g.seats):
            for j, b in enumerate(g.seats):
                if i == j:
                    continue
                cell = table[a][b]
                cell["games"] += 1
                outcome = "wins" if g.ranks[i] < g.ranks[j] else "losses" if g.ranks[i] > g.ranks[j] else "draws"
                cell[outcome] += 1
                cell["points"] += 1.0 if outcome == "wins" else 0.5 if outcome == "draws" else 0.0
    for a in names:
        for cell in table[a].values():
            cell["los"] = likelihood_of_superiority(cell["wins"], cell["losses"])
    return table


def _mean(total: float, count: float, digits: int) -> float | None:
    return round(total / count, digits) if count else None


def seat_table(results: Iterable[RankedResult], players: int | None = None) -> list[dict[str, Any]]:
    """Per seat (``players`` seats, default the most any game has): games, wins (rank 1, shared
    included), win_pct, avg_rank, avg_return (None where no game of that seat has returns)."""
    games = list(results)
    count = players if players is not None else max((len(g.seats) for g in games), default=0)
    rows = [{"games": 0, "wins": 0, "rank": 0, "returns": 0.0, "with_returns": 0} for _ in range(count)]
    for g in games:
        for seat, rank in enumerate(g.ranks[:count]):
            row = rows[seat]
            row["games"] += 1
            row["wins"] += rank == 1
            row["rank"] += rank
            if g.returns is not None:
                row["returns"] += g.returns[seat]
                row["with_returns"] += 1
    return [{"seat": seat, "games": r["games"], "wins": r["wins"],
             "win_pct": _mean(100.0 * r["wins"], r["games"], 1), "avg_rank": _mean(r["rank"], r["games"], 3),
             "avg_return": _mean(r["returns"], r["with_returns"], 3)} for seat, r in enumerate(rows)]


def agent_table(results: Iterable[RankedResult], agents: Sequence[str] | None = None,
                players: int | None = None) -> dict[str, dict[str, Any]]:
    """Per agent: games, wins (rank 1, shared included), avg_rank, avg_return (None without
    returns), score_pct (pairwise: each other seat beaten 1, tied 0.5, in % of the comparisons),
    rank_counts (games finished 1st, 2nd, ... up to ``players``, default the most seats of a game)."""
    games = list(results)
    names = agents_of(games, agents)
    size = players if players is not None else max((len(g.seats) for g in games), default=0)
    acc: dict[str, dict[str, Any]] = {a: {"games": 0, "wins": 0, "rank": 0, "returns": 0.0, "with_returns": 0,
                                          "points": 0.0, "comparisons": 0, "ranks": Counter()} for a in names}
    for g in games:
        for seat, a in enumerate(g.seats):
            row, rank = acc[a], g.ranks[seat]
            row["games"] += 1
            row["wins"] += rank == 1
            row["rank"] += rank
            row["ranks"][rank] += 1
            row["comparisons"] += len(g.seats) - 1
            row["points"] += sum(1.0 if rank < r else 0.5 for r in g.ranks if r >= rank) - 0.5  # minus itself
            if g.returns is not None:
                row["returns"] += g.returns[seat]
                row["with_returns"] += 1
    out = {}
    for a, row in acc.items():
        top = max([size, *row["ranks"]])
        out[a] = {"games": row["games"], "wins": row["wins"], "avg_rank": _mean(row["rank"], row["games"], 3),
                  "avg_return": _mean(row["returns"], row["with_returns"], 3),
                  "score_pct": _mean(100.0 * row["points"], row["comparisons"], 1),
                  "rank_counts": [row["ranks"][r] for r in range(1, top + 1)]}
    return out


def ranked_termination_counts(results: Iterable[RankedResult]) -> dict[str, Any]:
    """How games ended: ``total`` per termination, and ``faults`` per agent (from each game's
    ``faults``: the seats that lost by one)."""
    total: Counter[str] = Counter()
    faults: dict[str, Counter[str]] = defaultdict(Counter)
    for g in results:
        total[g.termination] += 1
        for seat, termination in g.faults:
            faults[g.seats[seat]][termination] += 1
    return {"total": dict(sorted(total.items())),
            "faults": {a: dict(sorted(c.items())) for a, c in sorted(faults.items())}}


def table_standings(
    results: Sequence[RankedResult], agents: Sequence[str] | None = None, *, players: int,
    bootstrap_samples: int = 200, seed: int = 0, seat_advantage: bool = True, prior_draws: float = 2.0,
    hero: str | None = None, warm: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The N-seat ``standings.json`` content but ``id``, ``game`` and ``seed``; ``standings`` best first.

    ``hero`` (a gauntlet's first agent): ``versus_field`` gives its Elo relative to the mean of the
    other agents, with a 95% interval (:meth:`PlackettLuce.versus_field`).

    ``seat_elo`` has one entry per seat (``players``): Elo relative to the last seat (0.0); all None
    without the seat advantage or when no game has ``players`` seats. Raises ValueError when a game seats
    an agent not in ``agents``.
    """
    from arena.stats.plackett_luce import PlackettLuce  # numpy: only when ratings are asked for

    names = agents_of(results, agents)
    model = PlackettLuce(results, names, seat_advantage=seat_advantage, prior_draws=prior_draws)
    if warm is not None:  # the last refresh's fit starts this one (the stats worker's)
        model.warm_start = warm.get("theta")
        warm["theta"] = model.theta
    fit = model.fit()
    intervals = model.intervals(bootstrap_samples, seed)
    summary = agent_table(results, names, players)
    rows: list[dict[str, Any]] = []
    for a in names:
        rows.append({"id": a, "elo": round(fit.elo[a], 1), "elo_low": round(intervals[a][0], 1),
                     "elo_high": round(intervals[a][1], 1), **summary[a]})
    rows.sort(key=lambda r: (-r["elo"], -(r["score_pct"] or 0.0), r["id"]))
    standings = [{"rank": rank, **row} for rank, row in enumerate(rows, 1)]
    # Relative to the last seat: meaningless when the games do not fill `players` seats.
    seat_elo: list[float | None] = [None] * players
    if fit.seat_elo is not None and len(fit.seat_elo) == players:
        seat_elo = [round(elo, 1) for elo in fit.seat_elo]
    return {
        "games": len(results),
        "players": players,
        "model": {
            "name": "Plackett-Luce, joint maximum likelihood, a tie scored as the mean over the tied agents' orders",
            "elo_centre": "mean of the agents = 0",
            "seat_advantage": seat_advantage,
            "prior_draws": prior_draws,
            "interval": (f"95%: percentile bootstrap over seat-rotation groups ({bootstrap_samples} samples), "
                         "widened where needed to the normal approximation from the fit's curvature"),
        },
        "seat_elo": seat_elo,
        **({"versus_field": _versus_field(model, hero, bootstrap_samples, seed)} if hero is not None
           and len(names) > 1 else {}),
        "standings": standings,
        "pairwise": pairwise_table(results, names),
        "seats": seat_table(results, players),
        "terminations": ranked_termination_counts(results),
    }


def _versus_field(model: Any, hero: str, samples: int, seed: int) -> dict[str, Any]:
    elo, low, high = model.versus_field(hero, samples, seed)
    return {"id": hero, "elo": round(elo, 1), "elo_low": round(low, 1), "elo_high": round(high, 1),
            "field": len(model.names) - 1,
            "meaning": f"{hero}'s Elo minus the mean Elo of the other {len(model.names) - 1} agents, 95% interval"}
