"""Plackett–Luce ratings: one joint maximum-likelihood fit of every game's ranking. No I/O.

The model. Agent ``a`` at seat ``s`` has utility ``u = theta_a + delta_s`` (``delta`` the optional
per-seat advantage; the last seat's is fixed at 0, so for two players ``delta_0`` is the first-move
advantage). A strict ranking ``o_1 > o_2 > ... > o_k`` of a game has probability
``prod_j exp(u_{o_j}) / sum_{i >= j} exp(u_{o_i})``: the winner is drawn from all seats in
proportion to ``exp(u)``, the second from the rest, and so on.

Ties (:mod:`arena.stats.ties`). A game says what it ranked and nothing more: a place held by one
seat is that seat's choice among itself and the seats below; a last place shared by several seats
is an unordered remainder (nothing); a shared place above other seats is the marginal over its
orders (the tied seats chosen before the seats below, in any order); for two players a draw is
half a win and half a loss, and the whole model is then the Bradley–Terry model of
:mod:`arena.stats.ratings` (with ``h = delta_0``).

The prior. ``prior_draws`` virtual two-player draws of every agent against an opponent rated 0 and
of every seat advantage against 0 keep unbeaten agents finite and the fit unique (the
log-posterior is then strictly concave). The fit is Newton's method with the analytic gradient and
Hessian (dense in the parameters, vectorised over games with numpy, one block per number of seats)
and step halving. Elo = ``400/ln(10) * theta``, centred so that the agents' mean is 0.

Intervals (95% by default): :meth:`PlackettLuce.normal_intervals` from the inverse observed
information of each agent's rating minus the mean rating; :meth:`PlackettLuce.bootstrap_intervals`
by the percentile bootstrap over resampling units (the games sharing a ``group``; a game without
one is its own unit), each resample a refit with integer game weights started from the fit of all
games. A resample is one draw of all its units with replacement (numpy's generator seeded
with the bootstrap's seed; units numbered in order of their first game), so drawing costs nothing
beside the refits. The refits are done a batch of resamples at a time (:mod:`arena.stats.resample`:
two-seat games on counts per ordered couple of agents, others per distinct game). (Before issue 24 the draws were ``random.Random(seed)``
calls, one per unit: the intervals of the same seed differ since by bootstrap noise, the fits not at all.)
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import numpy as np
from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]  # no type information shipped

from arena.stats.results import ELO_PER_NAT, agents_of
from arena.stats.ties import TiedStage, tie_terms

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from arena.stats.results import RankedResult

    Floats = NDArray[np.float64]
    Ints = NDArray[np.intp]

#: The N-seat Hessian is counted over couples of (agent, seat) pairs while they are at most this
#: many (32 MB of floats), else per couple of parameters (:meth:`_Block.add_derivatives`).
PAIR_CELLS_MAX = 1 << 22

_P = ParamSpec("_P")
_R = TypeVar("_R")


def one_blas_thread(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function`` run with the BLAS library on one thread. Its matrices are small (agents x
    agents, agents x a batch of resamples): BLAS's threads gain nothing there and, on a busy
    machine, spin waiting for each other (the standings of a 500-agent round robin took 1.5 times
    the CPU time with them, issue 24)."""

    @functools.wraps(function)
    def limited(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with threadpool_limits(1, user_api="blas"):
            return function(*args, **kwargs)

    return limited


@dataclass(frozen=True)
class PLFit:
    """A fit: ``elo`` per agent (mean 0); ``seat_elo`` per seat relative to the last seat (whose
    entry is 0.0), None without a seat advantage; ``theta`` the raw parameters (agents, then seats)."""

    elo: dict[str, float]
    seat_elo: tuple[float, ...] | None
    iterations: int
    theta: tuple[float, ...]


def _unique_rows(table: Ints) -> tuple[Ints, Ints]:
    """``np.unique(table, axis=0, return_inverse=True)``, through one integer key per row when the
    values allow (sorting a million keys is many times faster than sorting rows)."""
    if table.size and table.min() >= 0:
        base = int(table.max()) + 1
        if base ** table.shape[1] < 2**62:
            key = np.zeros(len(table), dtype=np.int64)
            for column in range(table.shape[1]):
                key = key * base + table[:, column]
            keys, inverse = np.unique(key, return_inverse=True)
            rows = np.empty((len(keys), table.shape[1]), dtype=table.dtype)
            for column in range(table.shape[1] - 1, -1, -1):
                keys, rows[:, column] = np.divmod(keys, base)
            return rows, inverse.reshape(-1)
    rows, inverse = np.unique(table, axis=0, return_inverse=True)
    return rows, inverse.reshape(-1)


class _Block:
    """The games of one number of seats ``k`` as arrays, one row per distinct game (G rows): agent and
    seat-parameter numbers (G x k),
    linear coefficients (G x k), the log-sum-exp terms (their game, log-multipliers, weight) and the
    shared places above others (:class:`arena.stats.ties.TiedStage`, per pattern of ranks)."""

    def __init__(self, agents: Ints, ranks: Ints, positions: Ints, seat_param: Ints) -> None:
        k = agents.shape[1]
        # Identical games (the same agents in the same seats, ranked alike) are one row weighted by
        # their number: exact, and a two-player league has far fewer such rows than games.
        rows, inverse = _unique_rows(np.concatenate([agents, ranks], axis=1))
        self.row_of, self.positions = inverse.reshape(-1), positions
        agents, ranks = rows[:, :k], rows[:, k:]
        g = len(rows)
        self.k, self.agents, self.ranks = k, agents, ranks
        self.seats = np.broadcast_to(seat_param[:k], (g, k))
        self._pair_cells: tuple[int, Ints] | None = None  # add_derivatives' keys, for one dim
        patterns, inverse = np.unique(ranks, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        self.linear = np.empty((g, k))
        games, logs, weights = [], [], []
        #: Per pattern of ranks with terms: its rows and number of terms (its rows' terms are
        #: consecutive, in order of row, each row's together).
        self.term_chunks: list[tuple[Ints, int]] = []
        #: Per pattern of ranks with a shared place above others: its rows and its stages.
        self.stage_chunks: list[tuple[Ints, list[TiedStage]]] = []
        for p, pattern in enumerate(patterns):
            linear, terms, stages = tie_terms(pattern.tolist())
            members = np.flatnonzero(inverse == p)
            self.linear[members] = linear
            if stages:
                self.stage_chunks.append((members, stages))
            if terms:
                self.term_chunks.append((members, len(terms)))
                with np.errstate(divide="ignore"):
                    log_mult = np.log(np.array([t[0] for t in terms]))
                games.append(np.repeat(members, len(terms)))
                logs.append(np.tile(log_mult, (len(members), 1)))
                weights.append(np.tile([t[1] for t in terms], len(members)))
        self.term_game = np.concatenate(games) if games else np.zeros(0, dtype=np.intp)
        self.term_log = np.concatenate(logs) if logs else np.zeros((0, k))
        self.term_weight = np.concatenate(weights) if weights else np.zeros(0)
        if k == 2:
            # Two seats: a row is a game between an ordered couple of agents, scored s = 1, 1/2 or 0
            # for seat 0, with log-likelihood s log sigmoid(d) + (1 - s) log sigmoid(-d), d the
            # difference of the seats' utilities (the tie terms above say the same). Rows of one
            # couple add up to games W and points S: the derivatives cost one pass over couples.
            self.row_score = 0.5 + 0.5 * np.sign(ranks[:, 1] - ranks[:, 0])
            couples, couple_of_row = _unique_rows(agents)
            self.couple_of_row = couple_of_row.reshape(-1)
            self.couple = (couples[:, 0], couples[:, 1])
            self.seat_pair = (int(seat_param[0]), int(seat_param[1]))

    def utilities(self, ext: Floats) -> Floats:
        return ext[self.agents] + ext[self.seats]

    def row_weights(self, weights: Floats) -> Floats:
        """The weight of each row: the summed weights of its games."""
        # Float already (weights are given); astype without a copy only tells mypy so.
        return np.bincount(self.row_of, weights[self.positions], minlength=len(self.agents)).astype(np.float64, copy=False)

    def softmax(self, u: Floats) -> tuple[Floats, Floats]:
        """Each term's log-sum-exp and its softmax over the game's seats (0 outside the term)."""
        x = u[self.term_game] + self.term_log
        top = x.max(axis=1, keepdims=True)
        e = np.exp(x - top)
        total = e.sum(axis=1, keepdims=True)
        return (top + np.log(total))[:, 0], e / total

    def couple_totals(self, weights: Floats) -> tuple[Floats, Floats]:
        """Two seats: the weighted games ``W`` and seat-0 points ``S`` of each couple."""
        rows = self.row_weights(weights)
        couples = len(self.couple[0])
        games = np.bincount(self.couple_of_row, rows, minlength=couples).astype(np.float64, copy=False)
        points = np.bincount(self.couple_of_row, rows * self.row_score, minlength=couples).astype(np.float64, copy=False)
        return games, points

    def couple_difference(self, ext: Floats) -> Floats:
        first, second = self.couple
        return ext[first] - ext[second] + (ext[self.seat_pair[0]] - ext[self.seat_pair[1]])

    def log_likelihood(self, ext: Floats, weights: Floats) -> float:
        if self.k == 2:
            games, points = self.couple_totals(weights)
            d = self.couple_difference(ext)
            return -float(points @ np.logaddexp(0.0, -d) + (games - points) @ np.logaddexp(0.0, d))
        u = self.utilities(ext)
        lse, _ = self.softmax(u)
        w = self.row_weights(weights)
        staged = sum(float(w[members] @ stage.parts(u[members], hessian=False)[0])
                     for members, stages in self.stage_chunks for stage in stages)
        return float(w @ (self.linear * u).sum(axis=1) - (w[self.term_game] * self.term_weight) @ lse) - staged

    def add_derivatives(self, ext: Floats, weights: Floats, grad: Floats, hess: Floats | None) -> None:
        """Add the gradient and the negated Hessian (unless ``hess`` is None) in the (extended)
        parameters."""
        if self.k == 2:
            self._add_couple_derivatives(ext, weights, grad, hess)
            return
        g, k = self.agents.shape
        dim = len(ext)
        u = self.utilities(ext)
        _, p = self.softmax(u)
        w = self.row_weights(weights)
        tw = w[self.term_game] * self.term_weight
        wp = tw[:, None] * p
        grad_u = w[:, None] * self.linear - np.bincount(
            (self.term_game[:, None] * k + np.arange(k)).ravel(), wp.ravel(), minlength=g * k).reshape(g, k)
        staged = [(members, w[members], stage.parts(u[members], hessian=hess is not None))
                  for members, stages in self.stage_chunks for stage in stages]
        for members, wm, (_, slope, _) in staged:
            grad_u[members] -= wm[:, None] * slope
        for params in (self.agents, self.seats):
            grad += np.bincount(params.ravel(), grad_u.ravel(), minlength=dim)
        if hess is None:
            return
        # Each term's negated Hessian in u is tw * (diag(p) - p p^T); summed per game first, a
        # pattern at a time (its rows' terms are consecutive): a stack of small matrix products.
        per_game = np.zeros((g, k, k))
        start = 0
        for members, count in self.term_chunks:
            stop = start + len(members) * count
            wp_rows = wp[start:stop].reshape(len(members), count, k)
            chunk = -np.matmul(wp_rows.transpose(0, 2, 1), p[start:stop].reshape(len(members), count, k))
            chunk[:, np.arange(k), np.arange(k)] += wp_rows.sum(axis=1)
            per_game[members] = chunk
            start = stop
        for members, wm, (_, _, curve) in staged:
            if curve is not None:
                per_game[members] += wm[:, None, None] * curve
        n = int(self.seats[0, 0]) if g else 0  # the first seat's parameter: the number of agents
        seat_count = dim - n  # seat parameters, the one held at 0 included
        if (n * seat_count) ** 2 > PAIR_CELLS_MAX:  # many agents: a bincount per couple of kinds
            for rows in (self.agents, self.seats):
                for cols in (self.agents, self.seats):
                    flat = rows[:, :, None] * dim + cols[:, None, :]
                    hess += np.bincount(flat.ravel(), per_game.ravel(), minlength=dim * dim).reshape(dim, dim)
            return
        # One bincount over couples of (agent, seat parameter) pairs, by keys computed once, then
        # summed over seats (the agents' block) and over agents (the seats').
        if self._pair_cells is None or self._pair_cells[0] != dim:
            pair = self.agents * seat_count + (self.seats - n)
            self._pair_cells = (dim, (pair[:, :, None] * (n * seat_count) + pair[:, None, :]).ravel())
        square = np.bincount(self._pair_cells[1], per_game.ravel(), minlength=(n * seat_count) ** 2)
        square = square.reshape(n, seat_count, n, seat_count)
        hess[:n, :n] += square.sum(axis=(1, 3))
        by_seats = square.sum(axis=2)  # agent x seat x the other's seat (the other agent summed over)
        agent_seat = by_seats.sum(axis=1)  # the agents' rows of the seat columns (symmetric)
        hess[:n, n:] += agent_seat
        hess[n:, :n] += agent_seat.T
        hess[n:, n:] += by_seats.sum(axis=0)


    def _add_couple_derivatives(self, ext: Floats, weights: Floats, grad: Floats, hess: Floats | None) -> None:
        """Two seats: each couple's game adds ``slope * x`` to the gradient and ``curve * x x^T``
        to the negated Hessian, ``x`` = e(first) - e(second) + e(seat 0) - e(seat 1)."""
        games, points = self.couple_totals(weights)
        p = 1.0 / (1.0 + np.exp(-self.couple_difference(ext)))
        slope, curve = points - games * p, games * p * (1.0 - p)
        dim = len(ext)
        (first, second), (s0, s1) = self.couple, self.seat_pair
        by_first = np.bincount(first, slope, minlength=dim) - np.bincount(second, slope, minlength=dim)
        grad += by_first
        grad[s0] += slope.sum()
        grad[s1] -= slope.sum()
        if hess is None:
            return
        square = np.bincount(first * dim + second, curve, minlength=dim * dim).reshape(dim, dim)
        hess -= square + square.T
        hess[np.diag_indices(dim)] += square.sum(axis=1) + square.sum(axis=0)
        seat = square.sum(axis=1) - square.sum(axis=0)  # the agents' rows of the seat-0 column
        total = curve.sum()
        for column, sign in ((s0, 1.0), (s1, -1.0)):
            hess[:, column] += sign * seat
            hess[column, :] += sign * seat
            hess[column, s0] += sign * total
            hess[column, s1] -= sign * total


class PlackettLuce:
    """The Plackett–Luce model of ``results`` (see the module docstring), built once and fitted
    with any game weights.

    ``agents`` defaults to every agent of ``results``; an agent with no game is rated by the prior
    alone (0). Raises ValueError when a game seats an agent not in ``agents``.
    """

    def __init__(self, results: Sequence[RankedResult], agents: Sequence[str] | None = None, *,
                 seat_advantage: bool = True, prior_draws: float = 2.0) -> None:
        results = list(results)
        names = agents_of(results, agents)
        number = {a: i for i, a in enumerate(names)}
        by_size: dict[int, list[int]] = {}
        for position, r in enumerate(results):
            missing = [a for a in r.seats if a not in number]
            if missing:
                raise ValueError(f"game {r.index} seats {missing[0]!r}, who is not among the agents rated")
            by_size.setdefault(len(r.seats), []).append(position)
        label: dict[tuple[str, int], int] = {}
        units = np.array([label.setdefault(("group", r.group) if r.group is not None else ("game", r.index), len(label))
                          for r in results], dtype=np.int64)
        blocks = [(np.array([[number[a] for a in results[i].seats] for i in positions], dtype=np.intp),
                   np.array([results[i].ranks for i in positions], dtype=np.intp),
                   np.array(positions, dtype=np.intp)) for _, positions in sorted(by_size.items())]
        self._setup(names, blocks, units, seat_advantage, prior_draws)

    @classmethod
    def from_arrays(cls, names: Sequence[str], seats: Ints, ranks: Ints, units: NDArray[np.int64], *,
                    seat_advantage: bool = True, prior_draws: float = 2.0) -> PlackettLuce:
        """The model of games that all have ``seats.shape[1]`` seats, given as arrays (one row per
        game): ``seats`` the agent numbers (indices into ``names``), ``ranks`` their ranks and
        ``units`` a label of each game's resampling unit (games of one unit share it; any
        integers). The same model as the constructor's for the same games in the same order,
        without an object per game."""
        model = cls.__new__(cls)
        positions = np.arange(len(seats), dtype=np.intp)
        model._setup(list(names), [(np.asarray(seats, dtype=np.intp), np.asarray(ranks, dtype=np.intp), positions)]
                     if len(seats) else [], np.asarray(units, dtype=np.int64), seat_advantage, prior_draws)
        return model

    def _setup(self, names: list[str], blocks: list[tuple[Ints, Ints, Ints]], units: NDArray[np.int64],
               seat_advantage: bool, prior_draws: float) -> None:
        self.names = names
        self.prior = prior_draws
        self.games = len(units)
        n = len(self.names)
        seats = max((agents.shape[1] for agents, _, _ in blocks), default=0)
        self.seat_count = seats if seat_advantage else 0
        self.dim = n + max(self.seat_count - 1, 0)
        # Seat s's advantage is parameter n + s; the last seat's (and every seat's without the
        # advantage) is the extra parameter `dim`, held at 0.
        seat_param = np.array([n + s if s < self.seat_count - 1 else self.dim for s in range(seats)], dtype=np.intp)
        self.blocks = [_Block(agents, ranks, positions, seat_param) for agents, ranks, positions in blocks]
        # The resampling units numbered in order of their first game: unit_of[game] is its unit's.
        labels, first, unit_of = np.unique(units, return_index=True, return_inverse=True)
        renumber = np.empty(len(labels), dtype=np.intp)
        renumber[np.argsort(first, kind="stable")] = np.arange(len(labels))
        self.unit_of = renumber[unit_of.reshape(-1)]
        self.units = len(labels)
        self._theta: Floats | None = None
        self._iterations = 0
        #: Where the fit of all games starts (None: at 0), e.g. the last fit of a growing log: the
        #: same maximum (the log-posterior is strictly concave), reached in fewer Newton steps.
        self.warm_start: Floats | None = None
        self._draws: dict[tuple[int, int], Floats] = {}
        self._information: Floats | None = None  # at the fit of all games, for the normal intervals

    # --- the fit ------------------------------------------------------------------------------------

    def objective(self, theta: Floats, weights: Floats) -> float:
        """The log-posterior at ``theta`` with game ``weights``."""
        ext = np.append(theta, 0.0)
        total = sum(b.log_likelihood(ext, weights) for b in self.blocks)
        # `prior` virtual draws against 0: prior * 0.5 * (log sigmoid(t) + log sigmoid(-t)).
        return total - self.prior * 0.5 * float(np.sum(np.logaddexp(0.0, -theta) + np.logaddexp(0.0, theta)))

    def derivatives(self, theta: Floats, weights: Floats) -> tuple[Floats, Floats]:
        """The gradient of the log-posterior and its *negated* Hessian (positive definite)."""
        ext = np.append(theta, 0.0)
        grad = np.zeros(self.dim + 1)
        hess = np.zeros((self.dim + 1, self.dim + 1))
        for b in self.blocks:
            b.add_derivatives(ext, weights, grad, hess)
        sig = 1.0 / (1.0 + np.exp(-theta))
        grad = grad[:-1] + self.prior * (0.5 - sig)
        hess = hess[:-1, :-1]
        hess[np.diag_indices(self.dim)] += self.prior * sig * (1.0 - sig)
        return grad, hess

    def gradient(self, theta: Floats, weights: Floats) -> Floats:
        """The gradient of the log-posterior alone (no Hessian: a fraction of the cost)."""
        ext = np.append(theta, 0.0)
        grad = np.zeros(self.dim + 1)
        for b in self.blocks:
            b.add_derivatives(ext, weights, grad, None)
        return grad[:-1] + self.prior * (0.5 - 1.0 / (1.0 + np.exp(-theta)))

    @one_blas_thread
    def solve(self, weights: Floats | None = None, start: Floats | None = None, tolerance: float = 1e-10,
              max_iterations: int = 100) -> tuple[Floats, int]:
        """The maximum of the log-posterior and the Newton iterations it took."""
        w = np.ones(self.games) if weights is None else weights
        theta = np.zeros(self.dim) if start is None else np.array(start, dtype=float)
        current = self.objective(theta, w)
        for iteration in range(1, max_iterations + 1):
            grad, hess = self.derivatives(theta, w)
            step = np.linalg.solve(hess, grad) if self.dim else grad
            scale = 1.0
            while True:
                trial = theta + scale * step
                value = self.objective(trial, w)
                if value >= current - 1e-12:
                    break
                scale *= 0.5
                if scale < 1e-9:  # no ascent left along Newton's direction: numerically at the optimum
                    return theta, iteration
            theta, current = trial, value
            if not self.dim or float(np.max(np.abs(scale * step))) < tolerance:
                return theta, iteration
        return theta, max_iterations

    @property
    def theta(self) -> Floats:
        """The fit of all games (computed once)."""
        if self._theta is None:
            start = self.warm_start
            self._theta, self._iterations = self.solve(
                start=start if start is not None and np.shape(start) == (self.dim,) else None)
        return self._theta

    @property
    def information(self) -> Floats:
        """The observed information (negated Hessian of the log-posterior, prior included) at the
        fit of all games (computed once)."""
        if self._information is None:
            _, self._information = self.derivatives(self.theta, np.ones(self.games))
        return self._information

    def fit(self) -> PLFit:
        """Elo per agent and per seat from the fit of all games."""
        theta = self.theta
        n = len(self.names)
        seat_elo = None
        if self.seat_count:
            seat_elo = tuple(ELO_PER_NAT * float(d) for d in theta[n:]) + (0.0,)
        return PLFit(self.centred(theta), seat_elo, self._iterations, tuple(float(t) for t in theta))

    def centred(self, theta: Floats) -> dict[str, float]:
        """Elo per agent, centred on the agents' mean."""
        n = len(self.names)
        mean = float(np.mean(theta[:n])) if n else 0.0
        return {a: ELO_PER_NAT * (float(theta[i]) - mean) for i, a in enumerate(self.names)}

    # --- intervals ----------------------------------------------------------------------------------

    @one_blas_thread
    def _normal_half_widths(self, contrasts: Floats, level: float) -> Floats:
        """z·SE in Elo of each contrast (a column of ``contrasts``) of the parameters at the fit, the
        SE from the inverse observed information (prior included), computed once per model."""
        variance = np.einsum("ij,ij->j", contrasts, np.linalg.solve(self.information, contrasts))
        z = statistics.NormalDist().inv_cdf(0.5 + level / 2.0)
        return z * ELO_PER_NAT * np.sqrt(np.maximum(variance, 0.0))

    def normal_intervals(self, level: float = 0.95) -> dict[str, tuple[float, float]]:
        """Elo ± z·SE per agent, the SE from the inverse observed information at the fit (prior
        included) of the agent's rating minus the mean rating."""
        n = len(self.names)
        if n == 0:
            return {}
        contrast = np.zeros((self.dim, n))
        contrast[:n] = np.eye(n) - 1.0 / n
        half = self._normal_half_widths(contrast, level)
        centred = self.centred(self.theta)
        return {a: (centred[a] - float(half[i]), centred[a] + float(half[i])) for i, a in enumerate(self.names)}

    def bootstrap_draws(self, samples: int = 200, seed: int = 0) -> Floats:
        """Centred Elo of every agent (columns) in each of ``samples`` resamples (rows); computed
        once per ``(samples, seed)`` (the intervals of the agents and of a hero share them)."""
        key = (samples, seed)
        if key not in self._draws:
            self._draws[key] = self._bootstrap_draws(samples, seed)
        return self._draws[key]

    def resample_counts(self, samples: int, seed: int) -> Iterator[NDArray[np.int32]]:
        """How often each unit is drawn in each of ``samples`` resamples (one array per resample):
        ``units`` draws with replacement, all of a resample's in one call to numpy's generator
        seeded with ``seed`` (a multinomial count per unit; drawing the units and counting them is
        ten times faster than numpy's multinomial over as many categories)."""
        rng = np.random.default_rng(seed)
        for _ in range(samples):
            yield np.bincount(rng.integers(0, self.units, size=self.units), minlength=self.units).astype(np.int32)

    @one_blas_thread
    def _bootstrap_draws(self, samples: int, seed: int) -> Floats:
        n = len(self.names)
        if not self.units or samples < 1:
            return np.zeros((0, n))
        base = self.theta
        out = np.empty((samples, n))
        counts = self.resample_counts(samples, seed)
        if not self.dim:
            return np.zeros((samples, n))
        from arena.stats.resample import PairResampler, TableResampler

        pairs = len(self.blocks) == 1 and self.blocks[0].k == 2
        resampler = PairResampler(self) if pairs else TableResampler(self)
        row = 0
        while row < samples:  # a batch of resamples at once
            thetas = resampler.solve([next(counts) for _ in range(min(resampler.batch, samples - row))], base)
            for theta in thetas:
                out[row] = theta[:n] - np.mean(theta[:n])
                row += 1
        return out * ELO_PER_NAT

    def bootstrap_intervals(self, samples: int = 200, seed: int = 0,
                            level: float = 0.95) -> dict[str, tuple[float, float]]:
        """Percentile bootstrap intervals of each agent's Elo ((0, 0) without games or samples)."""
        draws = self.bootstrap_draws(samples, seed)
        if len(draws) == 0:
            return {a: (0.0, 0.0) for a in self.names}
        tail = (1.0 - level) / 2.0
        low, high = np.quantile(draws, [tail, 1.0 - tail], axis=0)
        return {a: (float(low[i]), float(high[i])) for i, a in enumerate(self.names)}

    def versus_field(self, hero: str, samples: int = 200, seed: int = 0,
                     level: float = 0.95) -> tuple[float, float, float]:
        """``hero``'s Elo minus the mean Elo of the other agents (the field), with a 95% interval:
        the union of the normal one from the fit's curvature and the percentile bootstrap's, as
        :meth:`intervals`. KeyError for an unknown ``hero``; needs at least two agents."""
        n = len(self.names)
        h = self.names.index(hero)
        contrast = np.zeros(self.dim)
        contrast[:n] = -1.0 / (n - 1)
        contrast[h] = 1.0
        centre = ELO_PER_NAT * float(contrast @ self.theta)
        half = float(self._normal_half_widths(contrast[:, None], level)[0])
        low, high = centre - half, centre + half
        draws = self.bootstrap_draws(samples, seed) if self.games else np.zeros((0, n))
        if len(draws):
            differences = draws @ contrast[:n]  # centring cancels: the contrast sums to 0
            tail = (1.0 - level) / 2.0
            low = min(low, float(np.quantile(differences, tail)))
            high = max(high, float(np.quantile(differences, 1.0 - tail)))
        return centre, low, high

    def intervals(self, samples: int = 200, seed: int = 0, level: float = 0.95) -> dict[str, tuple[float, float]]:
        """The union of the bootstrap and normal intervals (the normal one alone without samples).

        The bootstrap is blind when every resample is alike (one group, a 100% score): never report
        an interval narrower than the normal approximation from the fit's curvature.
        """
        normal = self.normal_intervals(level)
        if samples < 1 or not self.games:
            return normal
        boot = self.bootstrap_intervals(samples, seed, level)
        return {a: (min(boot[a][0], normal[a][0]), max(boot[a][1], normal[a][1])) for a in self.names}
