"""Rating methods: the ``arena.ratings`` entry-point group (:data:`RATING_SEAM`) and its contract.

A rating method turns finished games into one number per agent, with a 95% interval when it has
one. The standings always hold arena's own Plackett–Luce Elo (``elo``, ``elo_low``,
``elo_high``: :mod:`arena.stats.plackett_luce`, with bootstrap intervals) and, for two-player
games, the seed's online Elo (``online_elo``); any registered method is computed besides them on
request (``arena standings LOGDIR --rating NAME``), under the standings' ``ratings`` key, and shown
as a column of its own. A method is one module and one entry point (docs/extending.md):

- the entry point names a :class:`RatingMethod` object, or a class arena calls with no arguments;
- its name is the entry point's; ``unit``: one line saying what a number means (``"Elo, mean of
  the agents 0"``);
- ``rate(games, agents)``: every agent of ``agents`` (in that order; an agent without a game too)
  to a :class:`Rating`. ``games`` are :class:`arena.stats.results.RankedResult` (seats in order,
  their ranks, 1 best, equal ranks a tie; two-player games are two seats) in game-index order.
  Pure: no I/O, the same games give the same ratings. Raises ValueError (one line) for games it
  cannot rate (``online-elo`` and games of more than two seats).

arena's own methods: ``plackett-luce`` (the standings' Elo, with normal intervals: the bootstrap's
widening needs the resampling groups) and ``online-elo`` (the seed's: start 1000, K=20, game by game).

May import: the standard library, :mod:`arena.plugins`, numpy inside a method.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from arena.errors import ConfigError
from arena.plugins import Seam, made
from arena.stats.results import RankedResult


@dataclass(frozen=True)
class Rating:
    """One agent's rating: ``rating``, and its 95% interval ``low``-``high`` when the method has one."""

    rating: float
    low: float | None = None
    high: float | None = None


class RatingMethod(Protocol):
    """What an ``arena.ratings`` entry point gives (see the module docstring for the contract; its
    name is the entry point's)."""

    unit: str

    def rate(self, games: Sequence[RankedResult], agents: Sequence[str]) -> dict[str, Rating]:
        """Every agent of ``agents`` to its rating. Raises ValueError for games it cannot rate."""
        ...


def _check_method(obj: Any, where: str) -> RatingMethod:
    obj = made(obj, where)
    if not callable(getattr(obj, "rate", None)) or not isinstance(getattr(obj, "unit", None), str):
        raise ConfigError(f"{where}: not a rating method (it needs rate(games, agents) and a unit)")
    return obj


#: The seam of rating methods: the ``arena.ratings`` entry-point group.
RATING_SEAM: Seam[RatingMethod] = Seam("arena.ratings", "rating", _check_method)


def rating_names() -> tuple[str, ...]:
    """The methods ``--rating`` accepts, arena's own first."""
    return RATING_SEAM.names()


def rate_with(names: Sequence[str], games: Sequence[RankedResult], agents: Sequence[str]) -> dict[str, Any]:
    """The standings' ``ratings`` object: for each method of ``names`` (in that order) its ``unit``
    and every agent's ``rating``, ``low`` and ``high`` (None without an interval), rounded to 0.1.
    Raises ConfigError: a name that is no method, a plugin that cannot load, games a method cannot
    rate (the message names the method)."""
    out: dict[str, Any] = {}
    for name in names:
        method = RATING_SEAM.load(name)
        try:
            rated = method.rate(games, agents)
        except ValueError as exc:
            raise ConfigError(f"rating {name!r}: {exc}") from None
        out[name] = {"unit": method.unit,
                     "ratings": {a: {"rating": _round(rated[a].rating), "low": _round(rated[a].low),
                                     "high": _round(rated[a].high)} for a in agents}}
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 1)


class PlackettLuceElo:
    """``plackett-luce``: the joint maximum-likelihood Plackett–Luce fit the standings' ``elo`` is,
    with a seat advantage, and 95% intervals from the fit's curvature."""

    name = "plackett-luce"
    unit = "Elo, mean of the agents 0 (Plackett-Luce, joint fit; 95% normal interval)"

    def rate(self, games: Sequence[RankedResult], agents: Sequence[str]) -> dict[str, Rating]:
        from arena.stats.plackett_luce import PlackettLuce  # numpy: only when ratings are asked for

        model = PlackettLuce(games, agents)
        elo = model.fit().elo
        intervals = model.normal_intervals()
        return {a: Rating(elo[a], *intervals[a]) for a in agents}


class OnlineElo:
    """``online-elo``: the checkers system's rating (start 1000, K=20, game by game in index
    order), of two-seat games only."""

    name = "online-elo"
    unit = "Elo, start 1000, K=20, game by game (the seed's)"

    def rate(self, games: Sequence[RankedResult], agents: Sequence[str]) -> dict[str, Rating]:
        from arena.stats.ratings import elo_step

        ratings = dict.fromkeys(agents, 1000.0)
        for game in sorted(games, key=lambda g: g.index):
            if len(game.seats) != 2:
                raise ValueError(f"game {game.index} has {len(game.seats)} seats; online Elo rates two-player games")
            score = 0.5 if game.ranks[0] == game.ranks[1] else 1.0 if game.ranks[0] < game.ranks[1] else 0.0
            elo_step(ratings, game.seats[0], game.seats[1], score)
        return {a: Rating(ratings[a]) for a in agents}


__all__ = ["RATING_SEAM", "OnlineElo", "PlackettLuceElo", "Rating", "RatingMethod", "rate_with", "rating_names"]
