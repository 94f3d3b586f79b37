"""The league's choice of its next game: pure, from counts and ratings alone.

A league (:mod:`arena.tournament.league`) asks :func:`choose_game` each time a worker is free. It
gives the pair that tells most while keeping the agents' game counts together:

1. **Who plays first.** The agent of the current field with the fewest games (the games that count:
   its current version against the field's, counting games in flight), ties broken by the widest rating interval (a new agent, with
   no games, has none: the widest of all), then by id. So new and uncertain agents play first, and
   an agent that joined late plays in every game it can until it has caught up.
2. **Whom it can meet.** Every agent stays within ``bound`` games of the others: an opponent may
   not be ``bound`` or more games ahead of the least-played opponent, not counting agents still
   catching up (more than ``bound`` behind the most-played agent: they may always be met). From a
   field that starts together, every two agents' counts differ by at most ``bound`` at all times
   (tests/tournament/test_league_schedule.py checks it over random leagues); an agent that joins
   late is within it again once it has caught up, and the others meanwhile stay within it of each
   other.
3. **Which of them.** The pair whose next result is least certain: the variance of the game's
   outcome under the ratings, ``p(1-p)``, times how little is known of the two ratings (the sum of
   their variances, an unrated agent counting as :data:`UNRATED_SIGMA`), divided by one plus the
   games the two have already played (their head-to-head result is known that much better). Ties:
   fewer games together, then ids.
4. **Colours.** Whoever of the two has had black against the other less often plays black (the
   first-chosen agent on a tie), so pairs alternate colours.

With ``rounds``, only pairs that have met fewer than ``rounds`` times are chosen, and there is no
game once every pair has (the league's ``--rounds``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

#: The rating uncertainty (Elo, one standard deviation) of an agent with no rating yet.
UNRATED_SIGMA = 400.0


@dataclass(frozen=True)
class Rating:
    """An agent's rating (Elo) and its standard deviation."""

    elo: float
    sigma: float


@dataclass(frozen=True)
class FieldState:
    """What the chooser sees. ``agents``: the current field's ids. ``games``: each agent's games of
    its current version, games in flight included. ``met``: games between two agents (their
    current versions), by the sorted pair. ``blacks``: games ``(a, b)`` in which ``a`` had black
    against ``b``. ``ratings``: the agents rated so far (the others are unrated)."""

    agents: Sequence[str]
    games: Mapping[str, int]
    met: Mapping[tuple[str, str], int]
    blacks: Mapping[tuple[str, str], int]
    ratings: Mapping[str, Rating]


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The key of the pair ``{a, b}`` in :attr:`FieldState.met`."""
    return (a, b) if a <= b else (b, a)


def choose_game(state: FieldState, bound: int, rounds: int | None = None) -> tuple[str, str] | None:
    """The next game ``(black, white)`` of ``state`` (module docstring), None when there is none:
    fewer than two agents, or every pair has met ``rounds`` times. ``bound`` is at least 1."""
    agents = sorted(set(state.agents))
    if len(agents) < 2:
        return None
    bound = max(1, bound)

    def games(a: str) -> int:
        return state.games.get(a, 0)

    def met(a: str, b: str) -> int:
        return state.met.get(pair_key(a, b), 0)

    def open_pairs(a: str) -> list[str]:
        return [b for b in agents if b != a and (rounds is None or met(a, b) < rounds)]

    def sigma(a: str) -> float:
        rating = state.ratings.get(a)
        return UNRATED_SIGMA if rating is None else rating.sigma

    candidates = [a for a in agents if open_pairs(a)]
    if not candidates:
        return None
    first = min(candidates, key=lambda a: (games(a), -sigma(a), a))
    most = max(games(a) for a in agents)
    catching_up = {a for a in agents if games(a) < most - bound}
    others = [b for b in agents if b != first]
    settled = [games(b) for b in others if b not in catching_up]
    floor = min(settled) if settled else min(games(b) for b in others)
    allowed = [b for b in open_pairs(first) if b in catching_up or games(b) < floor + bound]
    # Under ``rounds`` the open pairs may all be ahead: meet one anyway rather than stall.
    pool = allowed or open_pairs(first)
    second = max(pool, key=lambda b: (_uncertainty(state, first, b, sigma), -met(first, b), _reverse(b)))
    if state.blacks.get((second, first), 0) < state.blacks.get((first, second), 0):
        return second, first
    return first, second


def _uncertainty(state: FieldState, a: str, b: str, sigma: Callable[[str], float]) -> float:
    ra, rb = state.ratings.get(a), state.ratings.get(b)
    diff = (ra.elo if ra else 0.0) - (rb.elo if rb else 0.0)
    p = 1.0 / (1.0 + math.pow(10.0, -diff / 400.0))
    spread = sigma(a) ** 2 + sigma(b) ** 2
    return p * (1.0 - p) * spread / (1 + state.met.get(pair_key(a, b), 0))


def _reverse(text: str) -> tuple[int, ...]:
    """A key that sorts ``text`` last-first, so that ``max`` breaks ties by the smallest id."""
    return tuple(-ord(c) for c in text) + (1,)


__all__ = ["UNRATED_SIGMA", "FieldState", "Rating", "choose_game", "pair_key"]
