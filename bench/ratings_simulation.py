"""How well arena's ratings recover known strengths, for every shape of tournament arena plays (issue 34).

Each shape draws tournaments from agents of known strength (Elo, centred on their mean) and rates
them as ``standings.json`` does (:class:`arena.stats.plackett_luce.PlackettLuce`: seat advantage on,
2 prior draws, the union of the bootstrap and normal 95% intervals). Over ``--runs`` tournaments
it reports the worst error (the largest ``|estimate - truth|`` of any agent in any run), the mean
absolute error, the spread (the estimates' range over the truth's, averaged) and the coverage of
the 95% intervals (the share of (agent, run) cases whose interval holds the truth).

How games are drawn. A game's order is Plackett–Luce's: each seat's utility (its agent's strength
plus the seat's advantage) plus standard Gumbel noise, sorted, best first. Then the shape reports
what its game would say:

- ``two-player``: colour-swapped pairs; a game whose winner has probability ``p`` (the logistic of
  the difference, first move +35 Elo) is drawn with probability ``0.4 * 4 p (1 - p)``, the points
  kept at ``p`` (the rest won and lost in proportion): draws at Bradley–Terry's expected score.
- ``full-ranking``: every seat ranked.  ``winner-takes-all``: ranks 1, 2, 2, 2 (one winner, the
  rest share second: Goofspiel's, Pig's and most race games' win/loss returns).
- ``middle-ties``: 4 seats, half the games with 2nd and 3rd sharing a place (1, 2, 2, 4).
- ``eliminations``: 5 seats knocked out from the bottom, a fifth of the knock-outs taking two seats
  at once (a shared place): the Plackett–Luce order read from its end.
- ``eliminations_by_weakness``: the same knock-outs, but the seat out next drawn in proportion to
  ``exp(-utility)`` (the weakest most likely out first): *not* Plackett–Luce's order, a check of
  robustness to a wrong model. Its truth is not what the fit estimates, so beside the coverage of
  the truth the table gives the coverage of the fit's *limit* (its estimate from one tournament of
  ``Shape.limit_groups`` groups: what the intervals should hold if they are honest).
- ``gauntlet``: a hero against each of the others, colour-swapped pairs with draws.
- ``unbalanced``: 3-seat games of agents drawn with weights 1 to 10: some play ten times as often.
- a small field (4 agents) and a large one (64), few and many games.

Games come in seat-rotation groups (the same agents at every rotation of the seats; two players: a
colour-swapped pair), the standings' resampling unit.

    .venv/bin/python bench/ratings_simulation.py [--runs 20] [--samples 100] [--shape NAME ...]

The rating code is the ``arena`` imported first on the path: ``PYTHONPATH=<a checkout of main
before issue 34>`` gives the table's "before" column. ``tests/stats/test_ratings_simulation.py``
loads this module by path and runs small versions of the shapes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH: see the docstring
from arena.stats.plackett_luce import PlackettLuce
from arena.stats.results import ELO_PER_NAT, RankedResult

Ranks = tuple[int, ...]


def places(order: list[int], seats: int) -> list[int]:
    """Ranks 1..k per seat from ``order`` (seats best first)."""
    ranks = [0] * seats
    for place, seat in enumerate(order, 1):
        ranks[seat] = place
    return ranks


def full(utility: np.ndarray, rng: np.random.Generator) -> Ranks:
    """A Plackett–Luce ranking: utilities plus Gumbel noise, sorted."""
    noisy = utility + rng.gumbel(size=len(utility))
    return tuple(places(list(np.argsort(-noisy, kind="stable")), len(utility)))


def winner_takes_all(utility: np.ndarray, rng: np.random.Generator) -> Ranks:
    return tuple(1 if r == 1 else 2 for r in full(utility, rng))


def middle_ties(utility: np.ndarray, rng: np.random.Generator) -> Ranks:
    ranks = full(utility, rng)
    return tuple(2 if r == 3 else r for r in ranks) if rng.random() < 0.5 else ranks


def eliminations(utility: np.ndarray, rng: np.random.Generator) -> Ranks:
    """A Plackett–Luce order read from the bottom, a fifth of the knock-outs taking two seats at once."""
    order = list(np.argsort(-(utility + rng.gumbel(size=len(utility))), kind="stable"))
    ranks = [0] * len(utility)
    left = len(order)
    while left:
        out = 2 if left > 2 and rng.random() < 0.2 else 1
        for seat in order[left - out:left]:
            ranks[seat] = left - out + 1
        left -= out
    return tuple(ranks)


def eliminations_by_weakness(utility: np.ndarray, rng: np.random.Generator) -> Ranks:
    """Knocked out from the bottom, in proportion to exp(-utility); sometimes two at once."""
    left = list(range(len(utility)))
    ranks = [0] * len(utility)
    while left:
        place = len(left)
        weights = np.exp(-(utility[left] - utility[left].max()))
        out = [left[int(rng.choice(len(left), p=weights / weights.sum()))]]
        if len(left) > 2 and rng.random() < 0.2:
            rest = [s for s in left if s != out[0]]
            weights = np.exp(-(utility[rest] - utility[rest].max()))
            out.append(rest[int(rng.choice(len(rest), p=weights / weights.sum()))])
        for seat in out:
            ranks[seat] = place - len(out) + 1
            left.remove(seat)
    return tuple(ranks)


def two_player(utility: np.ndarray, rng: np.random.Generator) -> Ranks:
    """Win, draw or loss at Bradley–Terry's expected score (module docstring)."""
    p = 1.0 / (1.0 + np.exp(-(utility[0] - utility[1])))
    draw = 0.4 * 4.0 * p * (1.0 - p)
    x = rng.random()
    return (1, 2) if x < p - draw / 2 else (2, 1) if x < 1.0 - draw else (1, 1)


@dataclass(frozen=True)
class Shape:
    """A kind of tournament: ``agents`` evenly spread over ``spread_elo``, games of ``seats``
    seats in ``groups`` seat-rotation groups, ranked by ``outcome``; the agents of a group drawn
    uniformly (``weights`` None), in proportion to ``weights``, or a hero with one other
    (``gauntlet``); ``seat_elo`` each seat's advantage (the last seat's 0); ``limit_groups``: when
    the shape is not Plackett–Luce's, the groups of the tournament whose fit stands for the fit's
    limit (0: none, the truth is the limit)."""

    name: str
    agents: int
    seats: int
    groups: int
    outcome: Callable[[np.ndarray, np.random.Generator], Ranks]
    spread_elo: float = 600.0
    seat_elo: tuple[float, ...] | None = None
    weights: tuple[float, ...] | None = None
    gauntlet: bool = False
    limit_groups: int = 0

    @property
    def games(self) -> int:
        return self.groups * self.seats

    def truth(self) -> np.ndarray:
        """The agents' strengths in Elo, centred."""
        return np.linspace(-self.spread_elo / 2, self.spread_elo / 2, self.agents)

    def simulate(self, seed: int) -> list[RankedResult]:
        """The tournament of seed ``seed`` (agents ``a0``, ``a1``, ... in order of strength)."""
        rng = np.random.default_rng(seed)
        strength = self.truth() / ELO_PER_NAT
        seat = np.array(self.seat_elo or (0.0,) * self.seats) / ELO_PER_NAT
        names = [f"a{i}" for i in range(self.agents)]
        p = None if self.weights is None else np.array(self.weights) / sum(self.weights)
        out: list[RankedResult] = []
        for group in range(self.groups):
            if self.gauntlet:
                chosen = [0, 1 + group % (self.agents - 1)]
            else:
                chosen = [int(a) for a in rng.choice(self.agents, self.seats, replace=False, p=p)]
            for turn in range(self.seats):
                seated = chosen[turn:] + chosen[:turn]
                ranks = self.outcome(strength[seated] + seat, rng)
                out.append(RankedResult(len(out), tuple(names[a] for a in seated), ranks, group=group))
        return out


def shapes() -> dict[str, Shape]:
    """Every shape of the table, by name."""
    listed = [
        Shape("two-player, draws, first move", 8, 2, 400, two_player, seat_elo=(35.0, 0.0)),
        Shape("two-player, few games", 8, 2, 40, two_player, seat_elo=(35.0, 0.0)),
        Shape("4 seats, full ranking", 8, 4, 1000, full, seat_elo=(30.0, 15.0, 5.0, 0.0)),
        Shape("4 seats, winner takes all", 8, 4, 1000, winner_takes_all),
        Shape("3 seats, winner takes all (Pig-like)", 6, 3, 300, winner_takes_all, seat_elo=(40.0, 20.0, 0.0)),
        Shape("4 seats, winner takes all, few games", 8, 4, 50, winner_takes_all),
        Shape("4 seats, ties in the middle", 8, 4, 500, middle_ties),
        Shape("5 seats, eliminations", 8, 5, 400, eliminations),
        Shape("5 seats, eliminations by weakness (another model)", 8, 5, 400, eliminations_by_weakness,
              limit_groups=10_000),
        Shape("gauntlet, two players", 8, 2, 280, two_player, seat_elo=(35.0, 0.0), gauntlet=True),
        Shape("3 seats, unbalanced random", 10, 3, 500, full, weights=tuple(range(1, 11))),
        Shape("small field, 4 seats, winner takes all", 4, 4, 100, winner_takes_all),
        Shape("large field (64), 4 seats, winner takes all", 64, 4, 2000, winner_takes_all, spread_elo=800.0),
        Shape("large field (64), two players", 64, 2, 2000, two_player, spread_elo=800.0, seat_elo=(35.0, 0.0)),
    ]
    return {s.name: s for s in listed}


@dataclass(frozen=True)
class Measure:
    """Over the runs of a shape: the worst and mean absolute error (Elo), the estimates' spread over
    the truth's, the coverage of the 95% intervals, their mean width (Elo), and the coverage of the
    fit's limit (None: the shape has none apart from the truth, ``Shape.limit_groups``)."""

    worst: float
    mean_error: float
    spread: float
    coverage: float
    width: float
    limit_coverage: float | None = None


def limit(shape: Shape) -> np.ndarray:
    """The fit's estimates (Elo) from one tournament of ``shape.limit_groups`` groups (seed 10**6):
    what the fit of ``shape``'s games tends to as they grow, whatever the truth."""
    names = [f"a{i}" for i in range(shape.agents)]
    big = PlackettLuce(replace(shape, groups=shape.limit_groups).simulate(10**6), names).fit()
    return np.array([big.elo[a] for a in names])


def measure(shape: Shape, runs: int, samples: int, first_seed: int = 0) -> Measure:
    """Rate ``runs`` tournaments of ``shape`` (seeds ``first_seed``...) with ``samples`` bootstrap
    resamples each (0: the normal intervals alone)."""
    truth = shape.truth()
    target = limit(shape) if shape.limit_groups else None
    names = [f"a{i}" for i in range(shape.agents)]
    errors, spreads, covered, widths, held = [], [], [], [], []
    for run in range(runs):
        results = shape.simulate(first_seed + run)
        model = PlackettLuce(results, names)
        fit = model.fit()
        estimate = np.array([fit.elo[a] for a in names])
        intervals = model.intervals(samples, seed=run)
        errors.append(np.abs(estimate - truth))
        spreads.append(np.ptp(estimate) / np.ptp(truth))
        covered += [intervals[a][0] <= truth[i] <= intervals[a][1] for i, a in enumerate(names)]
        widths += [intervals[a][1] - intervals[a][0] for a in names]
        if target is not None:
            held += [intervals[a][0] <= target[i] <= intervals[a][1] for i, a in enumerate(names)]
    every = np.concatenate(errors)
    return Measure(float(every.max()), float(every.mean()), float(np.mean(spreads)), float(np.mean(covered)),
                   float(np.mean(widths)), float(np.mean(held)) if held else None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="tournaments per shape")
    parser.add_argument("--samples", type=int, default=100, help="bootstrap resamples per tournament")
    parser.add_argument("--shape", action="append", help="a shape's name (default: all)")
    args = parser.parse_args()
    import arena.stats

    rule = "marginal (issue 34)" if (Path(arena.stats.__file__).parent / "ties.py").exists() else "mean over orders"
    print(f"arena from {Path(arena.stats.__file__).parents[1]}; tie rule: {rule}; {args.runs} runs, "
          f"{args.samples} bootstrap resamples")
    print("| shape | agents | games | worst error | mean error | spread | coverage | mean width | coverage of the limit |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    table = shapes()
    for name in args.shape or list(table):
        shape = table[name]
        started = time.perf_counter()
        m = measure(shape, args.runs, args.samples)
        print(f"| {name} | {shape.agents} | {shape.games:,} | {m.worst:.0f} | {m.mean_error:.0f} | "
              f"{100 * m.spread:.0f}% | {100 * m.coverage:.1f}% | {m.width:.0f} | "
              f"{'-' if m.limit_coverage is None else f'{100 * m.limit_coverage:.1f}%'} |", flush=True)
        print(f"  ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["Measure", "Shape", "eliminations", "eliminations_by_weakness", "full", "limit", "measure", "middle_ties",
           "shapes", "two_player", "winner_takes_all"]
