"""Pairing schedules: pure functions from agent ids (and a seed) to a numbered stream of games.

A schedule is the whole plan of a tournament. Game indices come from it, so a resumed run knows
exactly which games are missing. Schedules are *generated lazily* (iterators): memory does not depend
on ``gamesPerPair`` or ``matches``, and :func:`schedule_length` is arithmetic.

Games come in colour-swapped *pairs*: two games with the same two agents and opposite colours,
sharing ``pair`` (and so the same random opening when ``openingPlies`` is set).

Round robin and gauntlet are played in *rounds*: round ``r`` is one game of every couple of agents
(couples in config order), the first agent of the couple black in even rounds and white in odd ones;
rounds ``2k`` and ``2k+1`` form pair ``k * C + c`` of couple ``c`` (``C`` couples). Game ``r * C + c``
is couple ``c`` in round ``r``. So the first ``gamesPerPair * C`` games are exactly the tournament
for *any* ``gamesPerPair``: growing it, odd or even, only appends games (prefix-stable), and early
results cover every couple.

Log folders written before rounds existed put the two games of a pair next to each other (blocks of
``2 * C`` games: couple 0 both colours, couple 1 both colours, ...). ``pair_blocks`` keeps them
resumable: the first ``pair_blocks`` blocks have that old layout, the rounds follow (round ``2 *
pair_blocks`` onwards). With ``pair_blocks = gamesPerPair // 2`` this is exactly the old schedule of
every count, odd ones included, and it grows by appending too. New tournaments use 0.

Random matches are colour-swapped pairs at consecutive indices, endless unless ``matches`` is given;
they too only append when ``matches`` grows.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from arena.match.pairs import PairGame, pair_games


@dataclass(frozen=True)
class ScheduledGame:
    """One planned game. ``opening_seed`` seeds the random opening (same for both games of a pair)."""

    index: int
    black: str
    white: str
    pair: int
    opening_seed: int


def _scheduled(index: int, pair: int, game: PairGame[str]) -> ScheduledGame:
    assert game.opening.seed is not None  # a tournament always has a seed
    return ScheduledGame(index, game.black, game.white, pair, game.opening.seed)


def round_robin(agent_ids: Sequence[str], games_per_pair: int, seed: int = 0, *, pair_blocks: int = 0,
                start: int = 0) -> Iterator[ScheduledGame]:
    """Every couple of agents plays ``games_per_pair`` games, colours alternating (module docstring).

    ``start``: begin at that index (the games before it are skipped without being generated).
    """
    _check_agents(agent_ids)
    if games_per_pair < 1:
        raise ValueError("games_per_pair must be at least 1")
    count = len(agent_ids) * (len(agent_ids) - 1) // 2
    return _couple_games(lambda: itertools.combinations(agent_ids, 2), count, games_per_pair, seed,
                         pair_blocks, start)


def gauntlet(agent_ids: Sequence[str], games_per_pair: int, seed: int = 0, *, pair_blocks: int = 0,
             start: int = 0) -> Iterator[ScheduledGame]:
    """The first agent plays ``games_per_pair`` games against each of the others, colours alternating."""
    _check_agents(agent_ids)
    if games_per_pair < 1:
        raise ValueError("games_per_pair must be at least 1")
    hero = agent_ids[0]
    return _couple_games(lambda: ((hero, other) for other in agent_ids[1:]), len(agent_ids) - 1,
                         games_per_pair, seed, pair_blocks, start)


def _couple_games(couples: Callable[[], Iterator[tuple[str, str]]], count: int, games_per_pair: int,
                  seed: int, pair_blocks: int, start: int) -> Iterator[ScheduledGame]:
    """The games of ``count`` couples (a fresh iterator of them from ``couples()``), from ``start``."""
    total = games_per_pair * count
    # The old layout can only hold whole pairs: never more blocks than gamesPerPair has pairs.
    blocks_end = 2 * count * min(max(pair_blocks, 0), games_per_pair // 2)
    index = max(start, 0)
    while index < min(blocks_end, total):
        block, offset = divmod(index, 2 * count)
        for c, (a, b) in enumerate(itertools.islice(couples(), offset // 2, None), offset // 2):
            pair = block * count + c
            first, second = pair_games(a, b, pair, seed, always_record_seed=True)
            if index == 2 * pair:
                yield _scheduled(index, pair, first)
                index += 1
            yield _scheduled(index, pair, second)
            index += 1
    while index < total:
        round_, offset = divmod(index, count)
        for c, (a, b) in enumerate(itertools.islice(couples(), offset, None), offset):
            pair = (round_ // 2) * count + c
            yield _scheduled(index, pair, pair_games(a, b, pair, seed, always_record_seed=True)[round_ % 2])
            index += 1


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
            first, second = pair_games(a, b, pair, seed, always_record_seed=True)
            yield _scheduled(2 * pair, pair, first)
            yield _scheduled(2 * pair + 1, pair, second)
            pair += 1


def build_schedule(
    tournament_type: str,
    agent_ids: Sequence[str],
    *,
    games_per_pair: int = 2,
    matches: int | None = None,
    seed: int = 0,
    pair_blocks: int = 0,
    start: int = 0,
) -> Iterator[ScheduledGame]:
    """The schedule of ``tournament_type`` as an iterator in index order from ``start`` (endless for
    open random matches). ``pair_blocks``: the log folder's layout (module docstring)."""
    if tournament_type == "roundRobin":
        return round_robin(agent_ids, games_per_pair, seed, pair_blocks=pair_blocks, start=start)
    if tournament_type == "gauntlet":
        return gauntlet(agent_ids, games_per_pair, seed, pair_blocks=pair_blocks, start=start)
    if tournament_type == "randomMatches":
        games = random_matches(agent_ids, seed, matches)
        return itertools.islice(games, start, None) if start > 0 else games
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
