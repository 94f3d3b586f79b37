"""Ratings and statistics: pure functions over finished games. No I/O, no trio.

Input is a list of :class:`GameResult` (built from ``games.jsonl`` rows or full game records with
:func:`result_from_row`). Everything here is deterministic: the bootstrap takes a seed.

- :func:`online_elo`: the checkers system's rating: start 1000, K=20, the usual logistic expectation,
  applied game by game in index order (so a rerun gives the same numbers, whatever order games
  finished in).
- :func:`bradley_terry`: a joint maximum-likelihood fit of *all* games. A game between black ``b`` and
  white ``w`` scores 1, 1/2 or 0 for black with probability ``p = sigmoid(r_b - r_w + h)``; a draw
  counts as half a win and half a loss. ``h`` is the optional first-mover advantage. A weak prior
  (``prior_draws`` virtual draws of every agent against an average opponent, and of ``h`` against 0)
  keeps 100% and 0% scorers finite and the fit unique. Solved by Newton's method with step halving
  (the log-likelihood is strictly concave). Elo = ``400/ln(10) * r``, centred so the agents' mean is 0.
- :func:`bootstrap_intervals`: 95% intervals by resampling colour-swapped game pairs with replacement
  and refitting (percentile method); :func:`normal_intervals`: Elo ± 1.96 standard errors from the
  observed information. Standings report the union of the two, because the bootstrap sees no
  uncertainty when all resamples are alike (a single pair, a 100% score).
- :func:`likelihood_of_superiority`: ``0.5 * (1 + erf((w - l) / sqrt(2 (w + l))))`` over the
  decisive games of a couple, as engine-testing tools report it.
- :func:`crosstable`, :func:`termination_counts`, and :func:`compute_standings` that puts them all into
  the ``standings.json`` object.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ELO_PER_NAT = 400.0 / math.log(10.0)
FAULTS = ("timeout", "illegal_move", "malformed_reply", "crash", "memory_limit", "output_limit")


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``score`` is black's points (1, 0.5 or 0); ``pair`` groups colour-swapped games."""

    index: int
    black: str
    white: str
    score: float
    termination: str = "win"
    pair: int | None = None


def result_from_row(row: Mapping[str, Any]) -> GameResult:
    """A :class:`GameResult` from a ``games.jsonl`` row or a full record (``players`` with colours).

    Raises ValueError (one line saying what is wrong) for anything else: not an object, agents that
    are not strings or are the same, a winner other than BLACK, WHITE or NONE, an index that is not an
    integer from 0 to :data:`MAX_INDEX` (``true`` is not 1).
    """
    if not isinstance(row, Mapping):
        raise ValueError(f"a game must be a JSON object, got {_kind(row)}")  # noqa: TRY004 - the contract
    black, white = row.get("black"), row.get("white")
    if black is None or white is None:
        if "players" not in row:
            raise ValueError('a game needs "black" and "white" (or "players" with their colours)')
        players = row["players"]
        if not isinstance(players, list):
            raise ValueError(f'"players" must be a list, got {_kind(players)}')
        for player in players:
            if not isinstance(player, Mapping):
                raise ValueError(f'each of "players" must be an object, got {_kind(player)}')  # noqa: TRY004
            colour = str(player.get("colour", player.get("color", ""))).upper()
            if colour == "BLACK":
                black = player.get("id")
            elif colour == "WHITE":
                white = player.get("id")
    winner = row.get("winner")
    winner = winner.upper() if isinstance(winner, str) else winner
    scores = {"BLACK": 1.0, "WHITE": 0.0, "NONE": 0.5}
    if black is None or white is None or winner not in scores:
        raise ValueError("a game needs black, white and a winner of BLACK, WHITE or NONE")
    if not isinstance(black, str) or not isinstance(white, str) or black == white:
        raise ValueError("black and white must be the ids of two different agents")
    index = row.get("index", row.get("game_index"))
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= MAX_INDEX:
        raise ValueError(f"a game needs an index from 0 to {MAX_INDEX}, got {_kind(index)}")
    pair = row.get("pair")
    termination = row.get("termination", "win")
    return GameResult(
        index=index,
        black=black,
        white=white,
        score=scores[winner],
        termination=termination if isinstance(termination, str) else "win",
        pair=pair if isinstance(pair, int) and not isinstance(pair, bool) else None,
    )


#: The largest game index a row may carry (far beyond any real tournament; keeps arithmetic sane).
MAX_INDEX = 2**53


def _kind(value: Any) -> str:
    """A short description of a JSON value for a one-line message."""
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**20 else "a huge integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else repr(value[:27] + "...")
    return {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)


def _agents_of(results: Iterable[GameResult], agents: Sequence[str] | None) -> list[str]:
    if agents is not None:
        return list(agents)
    seen: dict[str, None] = {}
    for g in results:
        seen.setdefault(g.black)
        seen.setdefault(g.white)
    return list(seen)


# --- the checkers system's legacy online Elo ---------------------------------------------------------


def elo_expectation(rating: float, opponent: float) -> float:
    """Expected score of ``rating`` against ``opponent`` on the Elo logistic curve."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_update(ratings: dict[str, float], game: GameResult, k: float = 20.0) -> None:
    """Apply one game to ``ratings`` in place (both players move by the same amount)."""
    rb, rw = ratings[game.black], ratings[game.white]
    delta = k * (game.score - elo_expectation(rb, rw))
    ratings[game.black] = rb + delta
    ratings[game.white] = rw - delta


def online_elo(
    results: Iterable[GameResult], agents: Sequence[str] | None = None, *, start: float = 1000.0,
    k: float = 20.0,
) -> dict[str, float]:
    """The checkers system's legacy ratings after every game, applied in index order (unrounded)."""
    games = sorted(results, key=lambda g: g.index)
    ratings = {a: start for a in _agents_of(games, agents)}
    for g in games:
        elo_update(ratings, g, k)
    return ratings


# --- Bradley-Terry by maximum likelihood -------------------------------------------------------------


@dataclass(frozen=True)
class BTFit:
    """A Bradley–Terry fit: ``elo`` per agent (mean 0); ``first_move_elo`` is ``h`` in Elo (or None)."""

    elo: dict[str, float]
    first_move_elo: float | None
    iterations: int


Cells = dict[tuple[int, int], list[float]]  # (black, white) agent numbers -> [games, black's points]


def _cells(results: Iterable[GameResult], number: Mapping[str, int]) -> Cells:
    cells: Cells = defaultdict(lambda: [0.0, 0.0])
    for g in results:
        cell = cells[number[g.black], number[g.white]]
        cell[0] += 1.0
        cell[1] += g.score
    return cells


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _objective(theta: list[float], cells: Cells, n: int, colour: bool, prior: float) -> float:
    h = theta[n] if colour else 0.0
    total = 0.0
    for (b, w), (games, points) in cells.items():
        x = theta[b] - theta[w] + h
        total += points * _log_sigmoid(x) + (games - points) * _log_sigmoid(-x)
    for i in range(n + (1 if colour else 0)):
        # `prior` virtual draws against an opponent rated 0 (for h: a first-mover edge of 0).
        total += prior * 0.5 * (_log_sigmoid(theta[i]) + _log_sigmoid(-theta[i]))
    return total


def _fit_cells(
    cells: Cells, n: int, colour: bool, prior: float, start: list[float] | None = None,
    tolerance: float = 1e-10, max_iterations: int = 100,
) -> tuple[list[float], int]:
    dim = n + (1 if colour else 0)
    theta = list(start) if start is not None else [0.0] * dim
    current = _objective(theta, cells, n, colour, prior)
    for iteration in range(1, max_iterations + 1):
        grad, hess = _derivatives(theta, cells, n, colour, prior)
        step = _solve(hess, grad)
        scale = 1.0
        while True:
            trial = [t + scale * s for t, s in zip(theta, step, strict=True)]
            value = _objective(trial, cells, n, colour, prior)
            if value >= current - 1e-12:
                break
            scale *= 0.5
            if scale < 1e-9:  # no ascent left along Newton's direction: numerically at the optimum
                return theta, iteration
        theta, current = trial, value
        if max(abs(scale * s) for s in step) < tolerance:
            return theta, iteration
    return theta, max_iterations


def _derivatives(
    theta: list[float], cells: Cells, n: int, colour: bool, prior: float
) -> tuple[list[float], list[list[float]]]:
    """The gradient of the log-posterior and its *negated* Hessian (positive definite)."""
    dim = n + (1 if colour else 0)
    grad = [0.0] * dim
    hess = [[0.0] * dim for _ in range(dim)]
    h = theta[n] if colour else 0.0
    for (b, w), (games, points) in cells.items():
        p = _sigmoid(theta[b] - theta[w] + h)
        g = points - games * p
        c = games * p * (1.0 - p)
        grad[b] += g
        grad[w] -= g
        hess[b][b] += c
        hess[w][w] += c
        hess[b][w] -= c
        hess[w][b] -= c
        if colour:
            grad[n] += g
            hess[n][n] += c
            hess[n][b] += c
            hess[b][n] += c
            hess[n][w] -= c
            hess[w][n] -= c
    for i in range(dim):
        p = _sigmoid(theta[i])
        grad[i] += prior * (0.5 - p)
        hess[i][i] += prior * p * (1.0 - p)
    return grad, hess


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Solve ``matrix @ x = rhs`` by Gaussian elimination with partial pivoting (small, dense)."""
    dim = len(rhs)
    a = [row[:] + [rhs[i]] for i, row in enumerate(matrix)]
    for col in range(dim):
        pivot = max(range(col, dim), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        if lead == 0.0:
            continue  # cannot happen with a positive prior; leave that coordinate unmoved
        for r in range(col + 1, dim):
            factor = a[r][col] / lead
            if factor:
                row, top = a[r], a[col]
                for c in range(col, dim + 1):
                    row[c] -= factor * top[c]
    x = [0.0] * dim
    for r in range(dim - 1, -1, -1):
        lead = a[r][r]
        if lead == 0.0:
            continue
        x[r] = (a[r][dim] - sum(a[r][c] * x[c] for c in range(r + 1, dim))) / lead
    return x


def bradley_terry(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *,
    colour_advantage: bool = True, prior_draws: float = 2.0,
) -> BTFit:
    """Joint maximum-likelihood Bradley–Terry fit of ``results`` (see the module docstring).

    ``prior_draws`` must be positive for the fit to be finite when someone scores 100% or 0%.
    """
    names = _agents_of(results, agents)
    number = {a: i for i, a in enumerate(names)}
    theta, iterations = _fit_cells(_cells(results, number), len(names), colour_advantage, prior_draws)
    return BTFit(_centred(theta, names), ELO_PER_NAT * theta[-1] if colour_advantage else None, iterations)


def _centred(theta: list[float], names: list[str]) -> dict[str, float]:
    mean = sum(theta[: len(names)]) / len(names) if names else 0.0
    return {a: ELO_PER_NAT * (theta[i] - mean) for i, a in enumerate(names)}


def bootstrap_intervals(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *, samples: int = 200,
    seed: int = 0, level: float = 0.95, colour_advantage: bool = True, prior_draws: float = 2.0,
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of each agent's Bradley–Terry Elo.

    The unit of resampling is a colour-swapped pair of games (games sharing ``pair``; a game without
    one is its own unit), because the two games of a pair are not independent.
    """
    names = _agents_of(results, agents)
    number = {a: i for i, a in enumerate(names)}
    groups: dict[Any, list[GameResult]] = defaultdict(list)
    for g in results:
        groups[("pair", g.pair) if g.pair is not None else ("game", g.index)].append(g)
    units = [groups[key] for key in sorted(groups, key=repr)]
    if not units or samples < 1:
        return {a: (0.0, 0.0) for a in names}
    base, _ = _fit_cells(_cells(results, number), len(names), colour_advantage, prior_draws)
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {a: [] for a in names}
    for _ in range(samples):
        chosen = (units[rng.randrange(len(units))] for _ in range(len(units)))
        cells = _cells((g for unit in chosen for g in unit), number)
        theta, _ = _fit_cells(cells, len(names), colour_advantage, prior_draws, start=base,
                              tolerance=1e-7)
        for a, elo in _centred(theta, names).items():
            draws[a].append(elo)
    tail = (1.0 - level) / 2.0
    return {a: (_quantile(v, tail), _quantile(v, 1.0 - tail)) for a, v in draws.items()}


def normal_intervals(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *, level: float = 0.95,
    colour_advantage: bool = True, prior_draws: float = 2.0,
) -> dict[str, tuple[float, float]]:
    """Elo ± z·SE of each agent, the standard error from the inverse observed information at the
    fit (prior included) of the agent's rating minus the mean rating."""
    names = _agents_of(results, agents)
    n = len(names)
    if n == 0:
        return {}
    number = {a: i for i, a in enumerate(names)}
    cells = _cells(results, number)
    theta, _ = _fit_cells(cells, n, colour_advantage, prior_draws)
    _, information = _derivatives(theta, cells, n, colour_advantage, prior_draws)
    z = statistics.NormalDist().inv_cdf(0.5 + level / 2.0)
    centred = _centred(theta, names)
    out = {}
    for i, a in enumerate(names):
        contrast = [(1.0 if j == i else 0.0) - 1.0 / n for j in range(n)] + [0.0] * (len(theta) - n)
        variance = sum(c * x for c, x in zip(contrast, _solve(information, contrast), strict=True))
        half = z * ELO_PER_NAT * math.sqrt(max(variance, 0.0))
        out[a] = (centred[a] - half, centred[a] + half)
    return out


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# --- tables ------------------------------------------------------------------------------------------


def likelihood_of_superiority(wins: float, losses: float) -> float:
    """Probability that the first player is the stronger, from decisive games only (0.5 with none)."""
    if wins + losses <= 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def wdl(results: Iterable[GameResult], agents: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
    """Per agent: games, wins, draws, losses."""
    games = list(results)
    table = {a: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for a in _agents_of(games, agents)}
    for g in games:
        for me, my_score in ((g.black, g.score), (g.white, 1.0 - g.score)):
            row = table.setdefault(me, {"games": 0, "wins": 0, "draws": 0, "losses": 0})
            row["games"] += 1
            row["wins" if my_score == 1.0 else "losses" if my_score == 0.0 else "draws"] += 1
    return table


def crosstable(
    results: Iterable[GameResult], agents: Sequence[str] | None = None
) -> dict[str, dict[str, dict[str, float]]]:
    """``table[a][b]``: a's games, wins, draws, losses, points against b, and a's LOS over b."""
    games = list(results)
    names = _agents_of(games, agents)
    table: dict[str, dict[str, dict[str, float]]] = {
        a: {b: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "points": 0.0} for b in names if b != a}
        for a in names
    }
    for g in games:
        for me, other, my_score in ((g.black, g.white, g.score), (g.white, g.black, 1.0 - g.score)):
            cell = table[me][other]
            cell["games"] += 1
            cell["points"] += my_score
            cell["wins" if my_score == 1.0 else "losses" if my_score == 0.0 else "draws"] += 1
    for a in names:
        for cell in table[a].values():
            cell["los"] = likelihood_of_superiority(cell["wins"], cell["losses"])
    return table


def termination_counts(results: Iterable[GameResult]) -> dict[str, Any]:
    """How games ended: ``total`` per termination, and ``faults`` per agent that lost by one."""
    total: Counter[str] = Counter()
    faults: dict[str, Counter[str]] = defaultdict(Counter)
    for g in results:
        total[g.termination] += 1
        if g.termination in FAULTS and g.score != 0.5:
            loser = g.white if g.score == 1.0 else g.black
            faults[loser][g.termination] += 1
    return {"total": dict(sorted(total.items())), "faults": {a: dict(sorted(c.items())) for a, c in
                                                              sorted(faults.items())}}


def compute_standings(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *,
    bootstrap_samples: int = 200, seed: int = 0, colour_advantage: bool = True,
    prior_draws: float = 2.0,
) -> dict[str, Any]:
    """Everything ``standings.json`` holds; ``standings`` is sorted best first."""
    names = _agents_of(results, agents)
    fit = bradley_terry(results, names, colour_advantage=colour_advantage, prior_draws=prior_draws)
    boot = bootstrap_intervals(results, names, samples=bootstrap_samples, seed=seed,
                               colour_advantage=colour_advantage, prior_draws=prior_draws)
    normal = normal_intervals(results, names, colour_advantage=colour_advantage, prior_draws=prior_draws)
    # The bootstrap is blind when every resample is alike (one pair, a 100% score): never report an
    # interval narrower than the normal approximation from the fit's curvature.
    intervals = normal if bootstrap_samples < 1 or not results else {
        a: (min(boot[a][0], normal[a][0]), max(boot[a][1], normal[a][1])) for a in names}
    seed_elo = online_elo(results, names)
    counts = wdl(results, names)
    rows: list[dict[str, Any]] = []
    for a in names:
        c = counts[a]
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
        "games": len(results),
        "model": {
            "name": "Bradley-Terry, joint maximum likelihood, draws as half points",
            "elo_centre": "mean of the agents = 0",
            "first_move_advantage": colour_advantage,
            "prior_draws": prior_draws,
            "interval": (f"95%: percentile bootstrap over colour-swapped pairs ({bootstrap_samples} samples), "
                         "widened where needed to the normal approximation from the fit's curvature"),
        },
        "first_move_elo": None if fit.first_move_elo is None else round(fit.first_move_elo, 1),
        "standings": rows,
        "crosstable": crosstable(results, names),
        "terminations": termination_counts(results),
    }
