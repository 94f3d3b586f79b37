"""The bootstrap's refits, many resamples at once (for :meth:`PlackettLuce.bootstrap_draws
<arena.stats.plackett_luce.PlackettLuce.bootstrap_draws>`). No I/O.

A resample is the games' units drawn with replacement: integer game weights. Its fit is the
maximum of the log-posterior with those weights, found from the fit of all games by the chord
method: Newton steps with the information matrix of the fit of all games (inverted once) instead
of the resample's own Hessian, for a batch of resamples (the columns of every array here) in a few
array operations and one matrix product per step. A resample's Hessian is close to the full one,
so each step cuts the error by a large factor (about 4 in a 500-agent round robin); Anderson's
acceleration (:func:`_anderson`) combines the last steps into a better next point (8 steps
instead of 10 there). Every point is judged by its own chord step: a resample is done when that
step is under :data:`TOLERANCE`. A resample the chord does not settle within
:attr:`max_iterations`, or that leaves the finite numbers, is solved by the model's Newton's
method on its own, so every draw is the resample's maximum to :data:`TOLERANCE`.

The gradient needs ``exp`` of each seat's utility relative to the others; written as products of
per-agent and per-seat exponentials (``exp(t_a + d_s) = exp(t_a) exp(d_s)``), a step costs
``exp`` of the parameters alone, then products and sums over games:

- :class:`PairResampler`: two seats. Games reduce to counts per ordered couple of agents (``W``
  games and ``S`` points of the first seat; a draw is half a win and half a loss), whatever the
  number of games; a resample's counts are one ``bincount`` of its units' draws. When most couples
  met (a round robin) the couples are a dense agents x agents x resamples array.
- :class:`TableResampler`: any number of seats. Each distinct game's seats are put in order of
  rank, so that the games of one pattern of ranks (few: strict, or with a tie here or there)
  share the terms of their likelihood (:func:`arena.stats.plackett_luce.tie_terms`): a pass per
  seat over a pattern's games, then one ``bincount`` per resample into (agent, seat) pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from arena.stats.plackett_luce import PlackettLuce, _Block
    from arena.stats.ties import TiedStage

    Floats = NDArray[np.float64]
    Ints = NDArray[np.intp]

#: Largest parameter change of the last step, in nats (1e-6 nats is 0.0002 Elo).
TOLERANCE = 1e-6


def _summing(key: Ints) -> tuple[Ints, Ints, Ints]:
    """(order, starts, keys): summing rows in ``order`` from each start gives each key's total
    (``np.add.reduceat``), for the keys that occur."""
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(key) else np.zeros(0, dtype=np.intp)
    return order, starts, ordered[starts]


def _sum_by(summing: tuple[Ints, Ints, Ints], values: Floats, size: int) -> Floats:
    """Rows of ``values`` summed per key (``size`` keys; 0 where a key does not occur)."""
    order, starts, keys = summing
    out = np.zeros((size, *values.shape[1:]))
    if len(starts):
        out[keys] = np.add.reduceat(values[order], starts, axis=0)
    return out


def _suffix_starts(terms: list[tuple[float, list[tuple[int, float]]]], seats: int) -> list[tuple[int, float]] | None:
    """(j, weight) of each term when every term is the plain sum of the seats from j on (a
    ranking without ties, the seats in rank order), else None."""
    starts = []
    for weight, members in terms:
        j = members[0][0]
        if [s for s, _ in members] != list(range(j, seats)) or any(m != 1.0 for _, m in members):
            return None
        starts.append((j, weight))
    return starts


def _stage_slopes(stages: list[TiedStage], x: Floats) -> Floats:
    """The gradient of the stages' ``N`` (resamples x seats x games) at ``x = exp(u)`` (the same
    shape; any common factor of a resample's column cancels)."""
    out = np.zeros_like(x)
    with np.errstate(divide="ignore"):
        u = np.log(x)
    for b in range(len(x)):
        for stage in stages:
            out[b] += stage.parts(np.ascontiguousarray(u[b].T), hessian=False)[1].T
    return out


def _anderson(history: list[tuple[Floats, Floats]]) -> Floats:
    """The next point of Anderson's acceleration of the chord steps, per column: from the last
    (step f, point g = theta + f) pairs, g_k - dG gamma with gamma the least-squares fit of
    f_k by the differences dF of the steps (plain g_k with one pair, or where that fit is not a
    number). The steps' differences sample how the chord's error is carried from step to step:
    their combination cancels much of it once the steps are small (where the chord is nearly
    linear): 104 steps instead of 134 for rr500's 200 resamples, 7 instead of 7.75 a batch for
    seat4's (bench/standings_scale.py)."""
    step, point = history[-1]
    if len(history) < 2:
        return point
    d_steps = np.stack([b[0] - a[0] for a, b in itertools.pairwise(history)], axis=0)  # m x dim x resamples
    d_points = np.stack([b[1] - a[1] for a, b in itertools.pairwise(history)], axis=0)
    normal = np.einsum("idb,jdb->bij", d_steps, d_steps)  # resamples x m x m
    m = normal.shape[1]
    ridge = 1e-12 * np.trace(normal, axis1=1, axis2=2)[:, None, None] * np.eye(m) + 1e-300 * np.eye(m)
    try:
        with np.errstate(all="ignore"):
            gamma = np.linalg.solve(normal + ridge, np.einsum("idb,db->bi", d_steps, step)[:, :, None])[:, :, 0]
    except np.linalg.LinAlgError:  # steps that no longer change (a column at its maximum)
        return point
    gamma[~np.isfinite(gamma).all(axis=1)] = 0.0
    return point - np.einsum("idb,bi->db", d_points, gamma)


class _Chord:
    """The chord iteration shared by both resamplers: :meth:`gradient` is the log-likelihood's
    (prior excluded) in the extended parameters (the model's, then the one held at 0), a column
    per resample, of the batch :meth:`prepare` set up."""

    max_iterations = 100
    #: Earlier chord steps that Anderson's acceleration combines (:func:`_anderson`).
    memory = 3
    #: Elements of the largest per-batch array (32 MB of floats): a batch's unit weights (resamples
    #: x units) count too, so a log of a million games in as many units takes a few resamples a batch.
    batch_elements = 4_000_000
    batch = 1

    def __init__(self, model: PlackettLuce) -> None:
        self.model = model
        self.inverse = np.linalg.inv(model.information)

    def prepare(self, weights: Floats) -> None:
        """Set up the batch of unit ``weights`` (resamples x units)."""
        raise NotImplementedError

    def gradient(self, ext: Floats) -> Floats:
        raise NotImplementedError

    def solve(self, counts: Sequence[NDArray[np.int32]], base: Floats) -> list[Floats]:
        """The maximum of the log-posterior for each resample of ``counts`` (how often each unit is
        drawn), from ``base``."""
        model = self.model
        unit_weights = np.stack(counts).astype(np.float64)  # resamples x units
        self.prepare(unit_weights)
        theta = np.repeat(base[:, None], len(counts), axis=1)
        ext = np.zeros((model.dim + 1, len(counts)))
        done = np.zeros(len(counts), dtype=bool)
        result = theta
        history: list[tuple[Floats, Floats]] = []  # (chord step, theta + step) of the last steps
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            for _ in range(self.max_iterations):
                ext[:-1] = theta
                prior = model.prior * (0.5 - 1.0 / (1.0 + np.exp(-theta)))
                step = self.inverse @ (self.gradient(ext)[:-1] + prior)
                result = theta + step
                done = np.max(np.abs(step), axis=0) < TOLERANCE
                if done.all() or not np.all(np.isfinite(result)):
                    break
                history = [*history[-self.memory:], (step, result)]
                theta = _anderson(history)
        out = []
        for column, count in enumerate(counts):
            if done[column] and np.all(np.isfinite(result[:, column])):
                out.append(result[:, column])
            else:
                out.append(model.solve(count.astype(float)[model.unit_of], start=base, tolerance=TOLERANCE)[0])
        return out


class PairResampler(_Chord):
    """Two-seat games (one block of two seats): the chord steps on counts per ordered couple."""

    def __init__(self, model: PlackettLuce) -> None:
        super().__init__(model)
        (block,) = model.blocks
        n = len(model.names)
        first, second = block.couple
        self.n, self.first, self.second = n, first, second
        self.seat_first, self.seat_second = block.seat_pair
        couple_of_game = np.empty(model.games, dtype=np.intp)
        couple_of_game[block.positions] = block.couple_of_row[block.row_of]
        score_of_game = np.empty(model.games)
        score_of_game[block.positions] = block.row_score[block.row_of]
        self.dense = n * n <= 2 * len(first)
        self.cells = n * n if self.dense else len(first)
        cell_of_game = first[couple_of_game] * n + second[couple_of_game] if self.dense else couple_of_game
        # The distinct (cell, unit) of the games, with their games and points: a resample's
        # totals per cell are then one bincount of its units' draws.
        key = cell_of_game.astype(np.int64) * model.units + model.unit_of
        keys, inverse = np.unique(key, return_inverse=True)
        cell, self.unit = np.divmod(keys, model.units)
        self.cell = cell.astype(np.intp)  # in order (the keys are sorted)
        self.starts = np.flatnonzero(np.r_[True, self.cell[1:] != self.cell[:-1]])
        self.one_each = len(self.starts) == len(self.cell)
        inverse = inverse.reshape(-1)
        self.games_of = np.bincount(inverse, minlength=len(keys)).astype(np.float64)
        self.points_of = np.bincount(inverse, score_of_game, minlength=len(keys)).astype(np.float64, copy=False)
        if not self.dense:
            self.sums = (_summing(first), _summing(second))
        if self.one_each:  # a cell's games are of one unit (a round robin's pair): one gather per batch
            self.unit_of_cell = np.full(self.cells, model.units, dtype=np.intp)  # no unit: a column of 0
            self.unit_of_cell[self.cell] = self.unit
            self.games_of_cell, self.points_of_cell = np.zeros(self.cells), np.zeros(self.cells)
            self.games_of_cell[self.cell], self.points_of_cell[self.cell] = self.games_of, self.points_of
        self.batch = int(max(1, min(32, self.batch_elements // max(self.cells, model.units, 1))))

    def prepare(self, unit_weights: Floats) -> None:
        """Games ``W`` and points ``S`` per cell and resample, and the parts of the gradient that
        depend on ``S`` alone (the same at every step)."""
        b = len(unit_weights)
        if self.one_each:
            padded = np.zeros((b, self.model.units + 1))
            padded[:, :-1] = unit_weights
            points = np.take(padded, self.unit_of_cell, axis=1)
            games = points * self.games_of_cell
            points *= self.points_of_cell
        else:
            # One resample at a time: a (resamples x (cell, unit)s) array would be 32 times the
            # games' size (a million games with a unit each: about a gigabyte).
            games, points = np.empty((b, self.cells)), np.empty((b, self.cells))
            for r in range(b):
                drawn = unit_weights[r, self.unit]  # per (cell, unit), in order of cell
                games[r] = np.bincount(self.cell, drawn * self.games_of, minlength=self.cells)
                points[r] = np.bincount(self.cell, drawn * self.points_of, minlength=self.cells)
        n = self.n
        if self.dense:  # resamples x first seat x second seat: sums over a row are matrix products
            self.games = games.reshape(b, n, n)
            square = points.reshape(b, n, n)
            ones = np.ones(n)
            self.points_net = (square @ ones - ones @ square).T
        else:
            self.games = np.ascontiguousarray(games.T)
            points = np.ascontiguousarray(points.T)
            self.points_net = _sum_by(self.sums[0], points, n) - _sum_by(self.sums[1], points, n)
        self.points_total = points.sum(axis=1 if self.dense else 0)

    def gradient(self, ext: Floats) -> Floats:
        # First seat i against j: W p with p = c_i / (c_i + e_j), c = exp(t + h), e = exp(t)
        # (shifted by the agents' mean, which cancels).
        n = self.n
        t = ext[:n] - ext[:n].mean(axis=0)
        e = np.exp(t)
        c = np.exp(t + (ext[self.seat_first] - ext[self.seat_second]))
        if self.dense:
            ct, et = np.ascontiguousarray(c.T), np.ascontiguousarray(e.T)  # resamples x agents
            x = np.add(ct[:, :, None], et[:, None, :])
            np.divide(self.games, x, out=x)  # W / (c_i + e_j), resamples x i x j
            wins = c * (x @ np.ones(n)).T  # expected points of i in the first seat
            losses = np.matmul(ct[:, None, :], x)[:, 0, :].T  # ... of the first seats against j
        else:
            x = self.games / (c[self.first] + e[self.second])
            wins = c * _sum_by(self.sums[0], x, n)
            losses = _sum_by(self.sums[1], c[self.first] * x, n)
        grad = np.zeros_like(ext)
        grad[:n] = self.points_net - wins + losses
        total = self.points_total - wins.sum(axis=0)
        grad[self.seat_first] += total
        grad[self.seat_second] -= total
        return grad


class TableResampler(_Chord):
    """Games of any number of seats: the chord steps on each distinct game, seats in rank order.

    An agent at a seat has ``exp(u) = exp(theta_a) exp(delta_s)``: one table of these per step
    (agents x seat parameters, a few hundred entries), gathered once per (seat, game) by the
    pair's number ``a * seat_params + s``; the gradient's sums per pair are one ``bincount`` per
    resample, then summed over seats (the agents') and over agents (the seats')."""

    def __init__(self, model: PlackettLuce) -> None:
        from arena.stats.ties import tie_terms

        super().__init__(model)
        self.n = n = len(model.names)
        #: Seat parameters: the model's (n, n + 1, ...) and the one held at 0 (dim), as 0, 1, ...
        self.seat_params = model.dim + 1 - n
        #: Per pattern of ranks: its block, its rows, the (agent, seat parameter) pair of each of
        #: their seats (seats x rows, in rank order), the linear coefficients and the terms
        #: (weight, [(seat, multiplier)]) of :func:`tie_terms`; its shared places above others (stages).
        self.patterns: list[tuple[_Block, Ints, Ints, list[float], list[tuple[float, list[tuple[int, float]]]]]] = []
        self.stages: list[list[TiedStage]] = []
        rows = 0
        for block in model.blocks:
            rows += len(block.agents) * block.k
            order = np.argsort(block.ranks, axis=1, kind="stable")
            ranks = np.take_along_axis(block.ranks, order, axis=1)
            agents = np.take_along_axis(block.agents, order, axis=1)
            seats = np.take_along_axis(np.asarray(block.seats), order, axis=1)
            pairs = agents * self.seat_params + (seats - n)
            # Dense ranks from 0: the pattern of ties is all that the terms depend on.
            dense = np.zeros_like(ranks)
            dense[:, 1:] = np.cumsum(ranks[:, 1:] != ranks[:, :-1], axis=1)
            shapes, shape_of = np.unique(dense, axis=0, return_inverse=True)
            for p, shape in enumerate(shapes):
                members = np.flatnonzero(shape_of.reshape(-1) == p)
                linear, terms, stages = tie_terms(shape.tolist())
                sparse = [(w, [(s, m) for s, m in enumerate(mult) if m]) for mult, w in terms]
                self.patterns.append((block, members, np.ascontiguousarray(pairs[members].T), linear, sparse))
                self.stages.append(stages)
        self.batch = int(max(1, min(32, self.batch_elements // max(rows, model.units, 1))))
        #: Per pattern, the unit of each row's game when every row of its block is one game (a
        #: resample's row weights are then a gather), else None.
        self.units_of_rows: list[Ints | None] = []
        for block, members, *_ in self.patterns:
            if len(block.row_of) == len(block.agents):
                game_of_row = np.empty(len(block.agents), dtype=np.intp)
                game_of_row[block.row_of] = block.positions
                self.units_of_rows.append(model.unit_of[game_of_row[members]])
            else:
                self.units_of_rows.append(None)

    def prepare(self, unit_weights: Floats) -> None:
        """Each pattern's games' weights (resamples x games), and the gradient's linear part (the
        same at every step)."""
        b = len(unit_weights)
        self.row_weights: list[Floats] = []
        n, params = self.n, self.seat_params
        per_pair = np.zeros((b, n * params))
        for (block, members, pairs, linear, _), units in zip(self.patterns, self.units_of_rows, strict=True):
            if units is not None:  # one game a row: its unit's weight
                w = np.take(unit_weights, units, axis=1)
            else:
                game_weights = unit_weights[:, self.model.unit_of[block.positions]]  # resamples x block's games
                rows = len(block.agents)
                at = (np.arange(b)[:, None] * rows + block.row_of).ravel()
                per_row = np.bincount(at, game_weights.ravel(), minlength=rows * b).reshape(b, rows)
                w = per_row[:, members].astype(np.float64, copy=False)
            self.row_weights.append(w)
            for column, weights in enumerate(w):  # seat by seat: no resamples x seats x games array
                for j, coefficient in enumerate(linear):
                    if coefficient:
                        per_pair[column] += coefficient * np.bincount(pairs[j], weights, minlength=n * params)
        self.linear_part = self._by_pair(per_pair)

    def _by_parameter(self, parts: list[tuple[Ints, Floats]]) -> Floats:
        """The sums per parameter (a column per resample) of values per (seat, game) (resamples x
        seats x games) of the patterns' pairs."""
        n, params = self.n, self.seat_params
        per_pair = np.zeros((len(parts[0][1]) if parts else 0, n * params))
        for pairs, values in parts:
            flat = values.reshape(len(values), -1)
            for column, row in enumerate(flat):
                per_pair[column] += np.bincount(pairs.ravel(), row, minlength=n * params)
        return self._by_pair(per_pair)

    def _by_pair(self, per_pair: Floats) -> Floats:
        """Sums per (agent, seat parameter) pair (a row per resample) as sums per parameter (a
        column per resample): over seats for the agents, over agents for the seats."""
        square = per_pair.reshape(-1, self.n, self.seat_params)
        return np.concatenate([square.sum(axis=2), square.sum(axis=1)], axis=1).T

    def gradient(self, ext: Floats) -> Floats:
        # Each (seat, game) adds w * (linear - x * share), x = exp(u) and share its terms' sum of
        # weight / (the term's sum of x): the linear part is the same at every step (prepare's).
        n = self.n
        agents = np.exp(ext[:n].T - ext[:n].max(axis=0)[:, None])  # shifted by the best agent's: cancels
        table = (agents[:, :, None] * np.exp(ext[n:].T)[:, None, :]).reshape(len(agents), -1)  # resamples x pairs
        parts = []
        for (_, _, pairs, _, terms), stages, w in zip(self.patterns, self.stages, self.row_weights, strict=True):
            x = np.take(table, pairs, axis=1)  # resamples x seats x games: exp(u) in rank order
            k = x.shape[1]
            staged = _stage_slopes(stages, x) if stages else None  # before x is reused below
            suffix = _suffix_starts(terms, k)
            if suffix is not None:  # no tie but among the last seats: each term a sum from seat j on
                weight_from = dict(suffix)
                tail = x[:, k - 1].copy()
                inverses: list[Floats | None] = [None] * k
                for j in range(k - 1, -1, -1):  # seat by seat: a cumulative sum along a short axis is slow
                    if j < k - 1:
                        tail += x[:, j]
                    if j in weight_from:
                        inverses[j] = weight_from[j] / tail
                running: Floats | None = None
                for j, inverse in enumerate(inverses):
                    if inverse is not None:
                        running = inverse if running is None else running + inverse
                    if running is None:
                        x[:, j] = 0.0
                    else:
                        x[:, j] *= running
                share = x
            else:
                share = np.zeros_like(x)
                for weight, members in terms:  # each term adds weight * x_s / sum(m x) to seat s's share
                    (first, m_first), *others = members
                    total = m_first * x[:, first]
                    for s, m in others:
                        total += x[:, s] if m == 1.0 else m * x[:, s]
                    np.divide(weight, total, out=total)
                    for s, m in members:
                        share[:, s] += total if m == 1.0 else m * total
                share *= x
            if staged is not None:
                share += staged
            share *= w[:, None, :]
            parts.append((pairs, share))
        return self.linear_part - self._by_parameter(parts)
