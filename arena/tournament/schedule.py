"""Pairing schedules: pure functions from agent ids (and a seed) to a numbered list of games.

A schedule is the whole plan of a tournament. Game indices come from it, so a resumed run knows
exactly which games are missing. Every schedule is made of colour-swapped *pairs*: two consecutive
indices with the same two agents and opposite colours, sharing ``pair`` (and so the same random
opening when ``openingPlies`` is set). With an odd ``gamesPerPair`` the last pair of each couple of
agents has one game.

Schedules are *prefix-stable*: growing ``gamesPerPair`` by an even number, or ``matches``, only
appends games, so an existing tournament can be extended under the same id.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ScheduledGame:
    """One planned game. ``opening_seed`` seeds the random opening (same for both games of a pair)."""

    index: int
    black: str
    white: str
    pair: int
    opening_seed: int


def opening_seed(seed: int, pair: int) -> int:
    """The seed of pair ``pair``'s opening: a pure function of the tournament seed and the pair."""
    # String seeds hash with SHA-512 inside random, independent of PYTHONHASHSEED.
    return random.Random(f"arena-opening/{seed}/{pair}").getrandbits(63)


def round_robin(agent_ids: Sequence[str], games_per_pair: int, seed: int = 0) -> list[ScheduledGame]:
    """Every pair of agents plays ``games_per_pair`` games, colours alternating.

    Order: block by block (each block is one colour-swapped pair of games for every couple of
    agents, couples in config order), so early results cover every couple.
    """
    _check_agents(agent_ids)
    if games_per_pair < 1:
        raise ValueError("games_per_pair must be at least 1")
    couples = list(itertools.combinations(agent_ids, 2))
    return _blocks(couples, games_per_pair, seed)


def gauntlet(agent_ids: Sequence[str], games_per_pair: int, seed: int = 0) -> list[ScheduledGame]:
    """The first agent plays ``games_per_pair`` games against each of the others, colours alternating."""
    _check_agents(agent_ids)
    if games_per_pair < 1:
        raise ValueError("games_per_pair must be at least 1")
    hero = agent_ids[0]
    return _blocks([(hero, other) for other in agent_ids[1:]], games_per_pair, seed)


def _blocks(couples: list[tuple[str, str]], games_per_pair: int, seed: int) -> list[ScheduledGame]:
    games: list[ScheduledGame] = []
    pair = 0
    for block in range((games_per_pair + 1) // 2):
        both = 2 * block + 2 <= games_per_pair
        for a, b in couples:
            osd = opening_seed(seed, pair)
            games.append(ScheduledGame(len(games), a, b, pair, osd))
            if both:
                games.append(ScheduledGame(len(games), b, a, pair, osd))
            pair += 1
    return games


def random_matches(agent_ids: Sequence[str], seed: int, matches: int | None) -> Iterator[ScheduledGame]:
    """Seeded random matches, each a colour-swapped pair of games; endless when ``matches`` is None.

    Couples are drawn in rounds: each round is a random permutation of all couples (with a random
    first mover), so every couple meets about equally often while the order stays random.
    """
    _check_agents(agent_ids)
    rng = random.Random(f"arena-random-matches/{seed}")
    couples = list(itertools.combinations(agent_ids, 2))
    pair = 0
    while True:
        order = couples[:]
        rng.shuffle(order)
        for a, b in order:
            if matches is not None and pair >= matches:
                return
            if rng.random() < 0.5:
                a, b = b, a
            osd = opening_seed(seed, pair)
            yield ScheduledGame(2 * pair, a, b, pair, osd)
            yield ScheduledGame(2 * pair + 1, b, a, pair, osd)
            pair += 1


def build_schedule(
    tournament_type: str,
    agent_ids: Sequence[str],
    *,
    games_per_pair: int = 2,
    matches: int | None = None,
    seed: int = 0,
) -> Iterator[ScheduledGame]:
    """The schedule of ``tournament_type`` as an iterator in index order (endless for open random matches)."""
    if tournament_type == "roundRobin":
        return iter(round_robin(agent_ids, games_per_pair, seed))
    if tournament_type == "gauntlet":
        return iter(gauntlet(agent_ids, games_per_pair, seed))
    if tournament_type == "randomMatches":
        return random_matches(agent_ids, seed, matches)
    raise ValueError(f"unknown tournament type {tournament_type!r}")


def schedule_length(
    tournament_type: str, n_agents: int, *, games_per_pair: int = 2, matches: int | None = None
) -> int | None:
    """How many games the schedule has, or ``None`` for endless random matches."""
    if tournament_type == "roundRobin":
        return n_agents * (n_agents - 1) // 2 * games_per_pair
    if tournament_type == "gauntlet":
        return (n_agents - 1) * games_per_pair
    if tournament_type == "randomMatches":
        return None if matches is None else 2 * matches
    raise ValueError(f"unknown tournament type {tournament_type!r}")


def _check_agents(agent_ids: Sequence[str]) -> None:
    if len(agent_ids) < 2:
        raise ValueError("a schedule needs at least two agents")
    if len(set(agent_ids)) != len(agent_ids):
        raise ValueError("agent ids must be distinct")
