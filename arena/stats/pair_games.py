"""Two-player games as columns (numpy arrays, one entry per game), and the standings computed from
them: what :func:`arena.stats.ratings.compute_standings` returns, without an object per game, so a
log of a million games fits in memory and is rated in seconds. No I/O.

:class:`PairGames` is built from :class:`~arena.stats.ratings.GameResult` values
(:meth:`PairGames.from_results`) or straight from ``games.jsonl`` rows (:class:`PairColumns`, which
takes rows in batches and keeps only the columns). :func:`pair_standings` gives exactly the
figures of the per-game code it replaces: the same counts and crosstable, the same legacy online
Elo (the same floating-point operations in the same order), the same Plackett–Luce model and fit
(:meth:`arena.stats.plackett_luce.PlackettLuce.from_arrays`).

Imports numpy; :mod:`arena.stats.ratings` imports this module only when standings are computed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.stats.results import FAULTS
from arena.stats.tables import counts_table

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from arena.stats.plackett_luce import PlackettLuce
    from arena.stats.ratings import GameResult, PlainColumns

@dataclass(frozen=True)
class PairGames:
    """Two-player games in order: ``black``/``white`` agent numbers (into ``names``), ``points``
    black's points doubled (2, 1, 0), ``index`` the game's index, ``unit`` a label of its
    resampling unit (games of one colour-swapped pair share it) and ``termination`` the number of
    its termination in ``terminations``."""

    names: list[str]
    black: NDArray[np.intp]
    white: NDArray[np.intp]
    points: NDArray[np.int8]
    index: NDArray[np.int64]
    unit: NDArray[np.int64]
    termination: NDArray[np.intp]
    terminations: list[str]

    @classmethod
    def from_results(cls, results: Sequence[GameResult], names: Sequence[str]) -> PairGames:
        """The games ``results`` of the agents ``names``. Raises ValueError when a game has an
        agent not in ``names``."""
        known = set(names)
        for g in results:
            for a in (g.black, g.white):
                if a not in known:
                    raise ValueError(f"game {g.index} seats {a!r}, who is not among the agents rated")
        columns = PairColumns(names)
        columns.add_results(results)
        return columns.games()

    def __len__(self) -> int:
        return len(self.index)

    def sorted_by_index(self) -> PairGames:
        order = np.argsort(self.index, kind="stable")
        if np.all(order[1:] > order[:-1]):
            return self
        return PairGames(self.names, self.black[order], self.white[order], self.points[order], self.index[order],
                         self.unit[order], self.termination[order], self.terminations)


    def listing(self, listed: Sequence[str]) -> PairGames:
        """The same games with the agents renamed to ``listed`` (ids) followed by every other agent
        in order of first appearance (black before white in each game, games in their order)."""
        seen = np.empty(2 * len(self), dtype=np.intp)
        seen[0::2], seen[1::2] = self.black, self.white
        agents, first = np.unique(seen, return_index=True)
        appearing = [self.names[a] for a in agents[np.argsort(first, kind="stable")].tolist()]
        names = list(dict.fromkeys([*listed, *appearing]))
        number = {a: i for i, a in enumerate(names)}
        renumber = np.array([number[a] for a in self.names], dtype=np.intp) if self.names else np.zeros(0, np.intp)
        return PairGames(names, renumber[self.black], renumber[self.white], self.points, self.index, self.unit,
                         self.termination, self.terminations)


class PairColumns:
    """Collects games into :class:`PairGames`, a batch at a time as arrays (no object per game is
    kept); agents not in ``names`` are added in order of first appearance."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.number = {a: i for i, a in enumerate(names)}
        self._units: dict[Any, int] = {}
        self._terminations: dict[str, int] = {}
        self._batches: list[tuple[NDArray[Any], ...]] = []

    def _numbers(self, values: list[Any], numbers: dict[Any, int]) -> NDArray[np.intp]:
        return np.array([numbers[v] if v in numbers else numbers.setdefault(v, len(numbers)) for v in values],
                        dtype=np.intp)

    def _add(self, black: list[str], white: list[str], points: list[int], index: list[int], pairs: list[Any],
             terminations: list[str]) -> None:
        units = self._units
        unit = np.array([units.setdefault(p, len(units)) if p is not None else units.setdefault(("game", i), len(units))
                         for p, i in zip(pairs, index, strict=True)], dtype=np.int64)
        self._batches.append((self._numbers(black, self.number), self._numbers(white, self.number),
                              np.array(points, dtype=np.int8), np.array(index, dtype=np.int64), unit,
                              self._numbers(terminations, self._terminations)))

    def add_results(self, results: Iterable[GameResult]) -> None:
        games = list(results)
        self._add([g.black for g in games], [g.white for g in games], [int(2 * g.score) for g in games],
                  [g.index for g in games], [g.pair for g in games], [g.termination for g in games])

    def add_columns(self, columns: PlainColumns) -> None:
        """Add the games of plain two-player rows (:func:`arena.stats.ratings.plain_pair_columns`)."""
        self._add(columns.black, columns.white, columns.points, columns.index, columns.pair, columns.termination)

    @property
    def names(self) -> list[str]:
        return list(self.number)

    def games(self) -> PairGames:
        kinds = (np.intp, np.intp, np.int8, np.int64, np.int64, np.intp)
        black, white, points, index, unit, termination = (
            np.concatenate([batch[k] for batch in self._batches]) if self._batches else np.zeros(0, dtype=kind)
            for k, kind in enumerate(kinds))
        return PairGames(self.names, black, white, points, index, unit, termination, list(self._terminations))


def _counts(games: PairGames) -> NDArray[np.int64]:
    """``counts[a, b, o]``: games of a against b (either colour) that a won (o = 2), drew (1), lost (0)."""
    n = len(games.names)
    cell = np.concatenate([(games.black * n + games.white) * 3 + games.points,
                           (games.white * n + games.black) * 3 + (2 - games.points)])
    return np.bincount(cell, minlength=n * n * 3).reshape(n, n, 3)


def wdl_table(games: PairGames, counts: NDArray[np.int64] | None = None) -> dict[str, dict[str, int]]:
    """Per agent: games, wins, draws, losses (as :func:`arena.stats.ratings.wdl`)."""
    per_agent = (_counts(games) if counts is None else counts).sum(axis=1).tolist()
    return {a: {"games": w + d + lost, "wins": w, "draws": d, "losses": lost}
            for a, (lost, d, w) in zip(games.names, per_agent, strict=True)}


def cross_table(games: PairGames, counts: NDArray[np.int64] | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """As :func:`arena.stats.ratings.crosstable`."""
    return counts_table(games.names, (_counts(games) if counts is None else counts).tolist())


def termination_table(games: PairGames) -> dict[str, Any]:
    """As :func:`arena.stats.ratings.termination_counts`."""
    per_kind = np.bincount(games.termination, minlength=len(games.terminations)).tolist()
    total = Counter({kind: count for kind, count in zip(games.terminations, per_kind, strict=True) if count})
    faults: dict[str, Counter[str]] = {}
    for code, kind in enumerate(games.terminations):
        if kind not in FAULTS:
            continue
        which = np.flatnonzero((games.termination == code) & (games.points != 1))
        losers = np.where(games.points[which] == 2, games.white[which], games.black[which])
        for agent, count in zip(*np.unique(losers, return_counts=True), strict=True):
            faults.setdefault(games.names[agent], Counter())[kind] += int(count)
    return {"total": dict(sorted(total.items())),
            "faults": {a: dict(sorted(c.items())) for a, c in sorted(faults.items())}}


def online_elo_of(games: PairGames, *, start: float = 1000.0, k: float = 20.0) -> dict[str, float]:
    """As :func:`arena.stats.ratings.online_elo` (the same arithmetic in the same order)."""
    ordered = games.sorted_by_index()
    ratings = [start] * len(games.names)
    for b, w, p in zip(ordered.black.tolist(), ordered.white.tolist(), ordered.points.tolist(), strict=True):
        rb, rw = ratings[b], ratings[w]
        delta = k * (p / 2 - 1.0 / (1.0 + 10.0 ** ((rw - rb) / 400.0)))
        ratings[b] = rb + delta
        ratings[w] = rw - delta
    return dict(zip(games.names, ratings, strict=True))


def pair_model(games: PairGames, colour_advantage: bool, prior_draws: float) -> PlackettLuce:
    """The Plackett–Luce model of the games (black at seat 0), as :func:`arena.stats.ratings._model`."""
    from arena.stats.plackett_luce import PlackettLuce

    seats = np.stack([games.black, games.white], axis=1)
    # Black's ranks: (1, 2) for a win, (1, 1) for a draw, (2, 1) for a loss.
    ranks = np.stack([np.where(games.points == 0, 2, 1), np.where(games.points == 2, 2, 1)], axis=1)
    return PlackettLuce.from_arrays(games.names, seats, ranks, games.unit, seat_advantage=colour_advantage,
                                    prior_draws=prior_draws)


def pair_standings(games: PairGames, *, bootstrap_samples: int = 200, seed: int = 0, colour_advantage: bool = True,
                   prior_draws: float = 2.0, warm: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything ``standings.json`` holds (see :func:`arena.stats.ratings.compute_standings`).
    ``warm``: the fit starts from its ``theta`` (the last refresh's) and leaves its own there."""
    names = games.names
    model = pair_model(games, colour_advantage, prior_draws)
    if warm is not None:
        model.warm_start = warm.get("theta")
        warm["theta"] = model.theta
    fit = model.fit()
    first_move = fit.seat_elo[0] if fit.seat_elo else None
    intervals = model.intervals(bootstrap_samples, seed)  # the bootstrap widened to the normal one
    seed_elo = online_elo_of(games)
    counts = _counts(games)
    per_agent = wdl_table(games, counts)
    rows: list[dict[str, Any]] = []
    for a in names:
        c = per_agent[a]
        points = c["wins"] + 0.5 * c["draws"]
        rows.append({
            "id": a,
            "elo": round(fit.elo[a], 1),
            "elo_low": round(intervals[a][0], 1),
            "elo_high": round(intervals[a][1], 1),
            "games": c["games"], "wins": c["wins"], "draws": c["draws"], "losses": c["losses"],
            "points": points,
            "score_pct": round(100.0 * points / c["games"], 1) if c["games"] else None,
            "draw_pct": round(100.0 * c["draws"] / c["games"], 1) if c["games"] else None,
            "online_elo": round(seed_elo[a]),
        })
    rows.sort(key=lambda r: (-r["elo"], -r["points"], r["id"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return {
        "games": len(games),
        "model": {
            "name": "Bradley-Terry, joint maximum likelihood, draws as half points",
            "elo_centre": "mean of the agents = 0",
            "first_move_advantage": colour_advantage,
            "prior_draws": prior_draws,
            "interval": (f"95%: percentile bootstrap over colour-swapped pairs ({bootstrap_samples} samples), "
                         "widened where needed to the normal approximation from the fit's curvature"),
        },
        "first_move_elo": None if first_move is None else round(first_move, 1),
        "standings": rows,
        "crosstable": cross_table(games, counts),
        "terminations": termination_table(games),
    }
