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

- :func:`counts_table`: the crosstable's dictionaries from counts per ordered couple of agents
  (shared with :func:`arena.stats.pair_games.cross_table`).

The two-player ``crosstable`` and ``termination_counts`` of :mod:`arena.stats.ratings` are these
tables of two-seat games. The pairwise and agent tables are counted with numpy arrays (one
``bincount`` for all games of a size); this module imports numpy only when they, or
:func:`table_standings`, run.
"""

from __future__ import annotations

import functools
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


def _seated(games: Sequence[RankedResult], names: Sequence[str]) -> tuple[Any, Any, Any]:
    """(agent numbers into ``names``, ranks) of every seat of every game, games in order and each
    game's seats in order, and the games' numbers of seats (numpy arrays). KeyError for an agent
    not in ``names``."""
    import numpy as np

    number = {a: i for i, a in enumerate(names)}
    sizes = np.fromiter((len(g.seats) for g in games), dtype=np.intp, count=len(games))
    total = int(sizes.sum())
    agents = np.fromiter((number[a] for g in games for a in g.seats), dtype=np.intp, count=total)
    ranks = np.fromiter((r for g in games for r in g.ranks), dtype=np.int64, count=total)
    return agents, ranks, sizes


def _by_size(sizes: Any) -> Any:
    """(k, entries) per number of seats k: the positions in :func:`_seated`'s arrays of the seats
    of the games of k seats (games x k)."""
    import numpy as np

    starts = np.cumsum(sizes) - sizes
    for k in np.unique(sizes).tolist():
        yield k, starts[sizes == k][:, None] + np.arange(k)


def counts_table(names: Sequence[str], cells: list[list[list[int]]]) -> dict[str, dict[str, dict[str, float]]]:
    """The crosstable of ``cells[a][b]`` = [losses, draws, wins] of agent a against b (numbers
    into ``names``): ``table[a][b]`` a's games, wins, draws, losses, points and LOS over b."""
    los = functools.cache(likelihood_of_superiority)  # few distinct counts: each LOS computed once
    table: dict[str, dict[str, dict[str, float]]] = {}
    for i, a in enumerate(names):
        row = cells[i]
        table[a] = {b: {"games": lost + d + w, "wins": w, "draws": d, "losses": lost, "points": w + 0.5 * d,
                        "los": los(w, lost)}
                    for j, b in enumerate(names) if j != i for lost, d, w in (row[j],)}
    return table


def pairwise_table(results: Iterable[RankedResult], agents: Sequence[str] | None = None
                   ) -> dict[str, dict[str, dict[str, float]]]:
    """``table[a][b]``: a's games, wins, draws, losses and points against b counted over every game
    where both sat (each game is one comparison of the two), and a's LOS over b."""
    import numpy as np

    games = list(results)
    names = agents_of(games, agents)
    n = len(names)
    seated, ranks, sizes = _seated(games, names)
    counts = np.zeros(n * n * 3, dtype=np.int64)
    for k, entries in _by_size(sizes):
        first, second = np.nonzero(~np.eye(k, dtype=bool))  # every ordered two seats
        a, r = seated[entries], ranks[entries]
        outcome = np.sign(r[:, second] - r[:, first]) + 1  # the first's: 2 won, 1 drew, 0 lost
        counts += np.bincount(((a[:, first] * n + a[:, second]) * 3 + outcome).ravel(), minlength=n * n * 3)
    return counts_table(names, counts.reshape(n, n, 3).tolist())


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
    import numpy as np

    games = list(results)
    names = agents_of(games, agents)
    n = len(names)
    size = players if players is not None else max((len(g.seats) for g in games), default=0)
    seated, ranks, sizes = _seated(games, names)
    played = np.bincount(seated, minlength=n).tolist()
    wins = np.bincount(seated[ranks == 1], minlength=n).tolist()
    rank_sums = np.bincount(seated, ranks, minlength=n).tolist()  # whole numbers: exact below 2**53
    comparisons = np.bincount(seated, np.repeat(sizes - 1, sizes), minlength=n).tolist()
    points = np.zeros(n)  # halves: exact in any order
    for _, entries in _by_size(sizes):
        r = ranks[entries]
        beaten = (r[:, :, None] < r[:, None, :]).sum(axis=2) + 0.5 * ((r[:, :, None] == r[:, None, :]).sum(axis=2) - 1)
        points += np.bincount(seated[entries].ravel(), beaten.ravel(), minlength=n)
    # Returns summed per agent in the order of the games, as one float after another.
    with_returns = [g for g in games if g.returns is not None]
    returned, _, _ = _seated(with_returns, names)
    values = np.fromiter((v for g in with_returns for v in g.returns or ()), dtype=np.float64, count=len(returned))
    returns_sum = np.bincount(returned, values, minlength=n).tolist()
    returns_count = np.bincount(returned, minlength=n).tolist()
    top_rank = int(ranks.max()) if len(ranks) else 0
    by_rank = np.bincount(seated * (top_rank + 1) + ranks, minlength=n * (top_rank + 1)).reshape(n, top_rank + 1)
    out = {}
    for a, ranked, total, won, ranked_sum, compared, score, summed, counted in zip(
            names, by_rank.tolist(), played, wins, rank_sums, comparisons, points.tolist(), returns_sum,
            returns_count, strict=True):
        top = max([size, *(r for r, c in enumerate(ranked) if c)])
        out[a] = {"games": total, "wins": won, "avg_rank": _mean(int(ranked_sum), total, 3),
                  "avg_return": _mean(summed, counted, 3),
                  "score_pct": _mean(100.0 * score, compared, 1),
                  "rank_counts": [ranked[r] if r <= top_rank else 0 for r in range(1, top + 1)]}
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
            "name": ("Plackett-Luce, joint maximum likelihood; a shared last place an unordered remainder, "
                     "a shared place above others its orders summed, two-player draws half a win"),
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
