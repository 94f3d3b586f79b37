"""The league's choice of its next game: pure, from counts and ratings alone.

A league (:mod:`arena.tournament.league`) asks :func:`choose_game` each time a worker is free. It
gives the game of ``seats`` agents (two for a two-player game; N for a game of N seats) that tells
most while keeping the agents' game counts together:

1. **Who plays first.** The agent of the current field with the fewest games (the games that count:
   its current version against the field's, counting games in flight), ties broken by the widest rating interval (a new agent, with
   no games, has none: the widest of all), then by id. So new and uncertain agents play first, and
   an agent that joined late plays in every game it can until it has caught up.
2. **Whom it can meet.** Every agent stays within ``bound`` games of the others: an opponent may
   not be ``bound`` or more games ahead of the least-played opponent, not counting agents still
   catching up (more than ``bound`` behind the most-played agent: they may always be met). From a
   field that starts together, every two agents' counts differ by at most ``bound`` at all times,
   for two seats and for N (tests/tournament/test_league_schedule.py checks both over random
   leagues; when too few agents are within the bound to fill a table of N, the least-played of the
   others complete it); an agent that joins
   late is within it again once it has caught up, and the others meanwhile stay within it of each
   other.
3. **Which of them.** The group whose next result is least certain: summed over its pairs, the
   variance of the pair's outcome under the ratings, ``p(1-p)``, times how little is known of the
   two ratings (the sum of their variances, an unrated agent counting as :data:`UNRATED_SIGMA`),
   divided by one plus the games the two have already played together (their head-to-head result
   is known that much better). Ties: the group with fewer games, then the smallest ids. For N seats
   the groups weighed are those of the :data:`GROUP_CANDIDATES` most uncertain opponents' first
   combinations, so that a large field costs a bounded time per game.
4. **Seats.** Of the rotations of the group (its ids sorted), the one whose agents have sat at
   their seats in this group least often (on a tie, the one that seats the first-chosen agent
   first): for two seats, whoever has had black against the other less often plays black, so pairs
   alternate colours; for N seats every agent of a group takes every seat in turn.

With ``rounds``, only groups that have played fewer than ``rounds`` games are chosen (for two seats:
pairs that have met fewer than ``rounds`` times), and there is no game once every group has (the
league's ``--rounds``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    its current version, games in flight included. ``met``: games in which two agents (their
    current versions) both played, by the sorted pair. ``seatings``: games by their agents in seat
    order (for two seats ``(a, b)``: ``a`` had black against ``b``). ``ratings``: the agents rated
    so far (the others are unrated). ``groups``: games by their sorted group of agents; None for
    two seats, where a group is a pair (``met``)."""

    agents: Sequence[str]
    games: Mapping[str, int]
    met: Mapping[tuple[str, str], int]
    seatings: Mapping[tuple[str, ...], int]
    ratings: Mapping[str, Rating]
    groups: Mapping[tuple[str, ...], int] | None = None

    def group_games(self, group: tuple[str, ...]) -> int:
        """Games of the sorted ``group``."""
        if self.groups is None:
            return self.met.get((group[0], group[1]), 0) if len(group) == 2 else 0
        return self.groups.get(group, 0)


#: For N seats, the combinations of opponents weighed per game are those of at most this many
#: candidates (the most uncertain against the first agent): ``comb(12, 3)`` is 220 groups of four.
GROUP_CANDIDATES = 12


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The key of the pair ``{a, b}`` in :attr:`FieldState.met`."""
    return (a, b) if a <= b else (b, a)


def choose_game(state: FieldState, bound: int, rounds: int | None = None, seats: int = 2) -> tuple[str, ...] | None:
    """The next game of ``state`` (module docstring): ``seats`` agent ids in seat order (two:
    ``(black, white)``), None when there is none: fewer agents than seats, or every group has
    played ``rounds`` games. ``bound`` is at least 1, ``seats`` at least 2."""
    agents = sorted(set(state.agents))
    if len(agents) < max(2, seats):
        return None
    bound = max(1, bound)

    def games(a: str) -> int:
        return state.games.get(a, 0)

    def met(a: str, b: str) -> int:
        return state.met.get(pair_key(a, b), 0)

    def sigma(a: str) -> float:
        rating = state.ratings.get(a)
        return UNRATED_SIGMA if rating is None else rating.sigma

    def is_open(group: tuple[str, ...]) -> bool:
        return rounds is None or state.group_games(group) < rounds

    def has_open_group(a: str) -> bool:
        if rounds is None:
            return True
        # Closed groups holding ``a`` are counted, not enumerated: a field has many groups.
        closed = sum(1 for group, n in _group_counts(state) if n >= rounds and a in group)
        return closed < math.comb(len(agents) - 1, seats - 1)

    candidates = [a for a in agents if has_open_group(a)]
    if not candidates:
        return None
    first = min(candidates, key=lambda a: (games(a), -sigma(a), a))
    most = max(games(a) for a in agents)
    catching_up = {a for a in agents if games(a) < most - bound}
    others = [b for b in agents if b != first]
    settled = [games(b) for b in others if b not in catching_up]
    floor = min(settled) if settled else min(games(b) for b in others)
    allowed = [b for b in others if b in catching_up or games(b) < floor + bound]
    if len(allowed) < seats - 1:  # too few to fill a table: the least-played of the others complete it
        allowed += sorted((b for b in others if b not in allowed), key=lambda b: (games(b), b))[:seats - 1 - len(allowed)]

    def best(pool: list[str]) -> tuple[str, ...] | None:
        ranked = sorted(pool, key=lambda b: (-_uncertainty(state, first, b, sigma), met(first, b), b))
        if seats > 2:
            ranked = ranked[:max(GROUP_CANDIDATES, seats - 1)]
        scored = []
        for rest in itertools.combinations(ranked, seats - 1):
            group = tuple(sorted((first, *rest)))
            if not is_open(group):
                continue
            members = (first, *rest)
            spread = sum(_uncertainty(state, a, b, sigma) for a, b in itertools.combinations(members, 2))
            scored.append((-spread, state.group_games(group), group, (first, *sorted(rest))))
        return min(scored)[3] if scored else None

    # Under ``rounds`` the open groups may all be ahead: meet one anyway rather than stall.
    chosen = best(allowed) or best(others)
    if chosen is None:  # the open groups of ``first`` lie beyond the candidates weighed: take one
        chosen = next((first, *rest) for rest in itertools.combinations(others, seats - 1)
                       if is_open(tuple(sorted((first, *rest)))))
    return _seated(state, chosen[0], tuple(sorted(chosen)))


def _group_counts(state: FieldState) -> Iterable[tuple[tuple[str, ...], int]]:
    """Games of every group that played: (sorted group, games)."""
    return state.met.items() if state.groups is None else state.groups.items()


def _seated(state: FieldState, first: str, group: tuple[str, ...]) -> tuple[str, ...]:
    """The rotation of the sorted ``group`` whose agents sat at their seats in this group least
    often (on a tie, the one that seats ``first`` first): seats alternate within a group (module
    docstring); one cyclic order per group, so N rotations seat every agent at every seat once."""
    n = len(group)
    members = set(group)
    sat: dict[tuple[str, int], int] = {}
    for seating, games in state.seatings.items():
        if len(seating) == n and set(seating) == members:
            for seat, agent in enumerate(seating):
                sat[(agent, seat)] = sat.get((agent, seat), 0) + games
    rotations = [tuple(group[(seat - turn) % n] for seat in range(n)) for turn in range(n)]
    return min(rotations, key=lambda seating: (sum(sat.get((a, seat), 0) for seat, a in enumerate(seating)),
                                               seating[0] != first))


def _uncertainty(state: FieldState, a: str, b: str, sigma: Callable[[str], float]) -> float:
    ra, rb = state.ratings.get(a), state.ratings.get(b)
    diff = (ra.elo if ra else 0.0) - (rb.elo if rb else 0.0)
    p = 1.0 / (1.0 + math.pow(10.0, -diff / 400.0))
    spread = sigma(a) ** 2 + sigma(b) ** 2
    return p * (1.0 - p) * spread / (1 + state.met.get(pair_key(a, b), 0))


__all__ = ["GROUP_CANDIDATES", "UNRATED_SIGMA", "FieldState", "Rating", "choose_game", "pair_key"]
