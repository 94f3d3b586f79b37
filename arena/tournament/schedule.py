"""Pairing schedules: pure functions from agent ids (and a seed) to a numbered stream of games.

A schedule is the whole plan of a tournament. Game indices come from it, so a resumed run knows
exactly which games are missing. Schedules are *generated lazily* (iterators): memory does not depend
on ``gamesPerPair``, ``games_per_group`` or ``matches`` (groups of agents are never listed), and
:func:`schedule_length` and :func:`table_schedule_length` are arithmetic.

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
they too only append when ``matches`` grows. Two layouts draw them (``random_layout``, recorded in the
log folder like ``pair_blocks``): :data:`RANDOM_LAYOUT_COUPLE_ROUNDS` (shuffled rounds of every couple,
the layout of every folder written before layouts were recorded) and :data:`RANDOM_LAYOUT_BALANCED`
(every agent's number of matches within one of every other's at every point; new tournaments).

Games of N seats (:class:`ScheduledTable`) follow the same plan with *groups* of N agents in place
of couples and *seat rotations* in place of colour swaps: in rotation ``r`` the ``k``-th agent of a
group sits at seat ``(k + r) % N`` (the convention of :meth:`arena.match.series.Series.planned`),
so the N games of a *rotation cycle* seat each agent of the group once at every seat, and share a
``group`` number and a ``seed``. Round ``r`` is one game of every group (groups in config order) in
rotation ``r % N``; rounds ``N * k`` to ``N * k + N - 1`` form rotation group ``k * G + g`` of group
``g`` (``G`` groups); game ``r * G + g`` is group ``g`` in round ``r``.

One schedule family: a pair is a table of 2 seats. The rounds of a two-player round robin or
gauntlet and its balanced random matches *are* the schedules of tables of 2 seats
(:func:`table_round_robin`, :func:`table_gauntlet`, :func:`table_random_matches`; ``pair`` =
``group``, the opening seed = the group's ``seed``), named as pairs (:class:`ScheduledGame`: seat 0
BLACK); only the two layouts of older log folders (``pair_blocks``, the couple-rounds random layout)
are drawn by the pair functions alone.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from arena.games.base import opening_seed
from arena.match.pairs import PairGame, pair_games
from arena.records.field import rotated as field_rotated

#: ``random_layout`` of randomMatches: shuffled rounds of every couple (folders that do not record one).
RANDOM_LAYOUT_COUPLE_ROUNDS = 1
#: ``random_layout`` of randomMatches: match counts balanced at every point (every new tournament).
RANDOM_LAYOUT_BALANCED = 2
RANDOM_LAYOUTS = (RANDOM_LAYOUT_COUPLE_ROUNDS, RANDOM_LAYOUT_BALANCED)


@dataclass(frozen=True)
class ScheduledGame:
    """One planned game. ``opening_seed`` seeds the random opening (same for both games of a pair)."""

    index: int
    black: str
    white: str
    pair: int
    opening_seed: int
    #: The round of its couple, in a folder that keeps results by pairing (:mod:`arena.tournament.field`);
    #: None in a schedule kept by index.
    round: int | None = None


def _scheduled(index: int, pair: int, game: PairGame[str]) -> ScheduledGame:
    assert game.opening.seed is not None  # a tournament always has a seed
    return ScheduledGame(index, game.black, game.white, pair, game.opening.seed)


def _as_pair(game: ScheduledTable) -> ScheduledGame:
    """A planned game of 2 seats as a two-player schedule names it: seat 0 BLACK, its rotation group
    the pair, the group's seed the pair's opening seed (the same :func:`opening_seed`)."""
    black, white = game.seats
    return ScheduledGame(game.index, black, white, game.group, game.seed, game.round)


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
    if index < total:  # the rounds: the schedule of tables of 2 seats
        yield from map(_as_pair, _group_games(couples, count, 2, games_per_pair, seed, index))


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


def balanced_random_matches(agent_ids: Sequence[str], seed: int, matches: int | None, *,
                            start: int = 0) -> Iterator[ScheduledGame]:
    """Seeded random matches of :data:`RANDOM_LAYOUT_BALANCED`, each a colour-swapped pair of games
    (pair ``p`` at indices ``2p`` and ``2p + 1``); endless when ``matches`` is None.

    Guarantee: after every match, any two agents' numbers of matches differ by at most one; so after
    any prefix of the schedule their numbers of games differ by at most two (one match). Couples
    that met least are preferred (:func:`balanced_draws`). ``start``: begin at that index (the
    draws before it are made again, which is cheap; no game before it is built).
    """
    _check_agents(agent_ids)
    return map(_as_pair, table_random_matches(agent_ids, 2, seed, matches, start))


def build_schedule(
    tournament_type: str,
    agent_ids: Sequence[str],
    *,
    games_per_pair: int = 2,
    matches: int | None = None,
    seed: int = 0,
    pair_blocks: int = 0,
    random_layout: int = RANDOM_LAYOUT_COUPLE_ROUNDS,
    start: int = 0,
) -> Iterator[ScheduledGame]:
    """The schedule of ``tournament_type`` as an iterator in index order from ``start`` (endless for
    open random matches). ``pair_blocks`` and ``random_layout``: the log folder's layout (module
    docstring); a new tournament passes ``random_layout=RANDOM_LAYOUT_BALANCED``."""
    if tournament_type == "roundRobin":
        return round_robin(agent_ids, games_per_pair, seed, pair_blocks=pair_blocks, start=start)
    if tournament_type == "gauntlet":
        return gauntlet(agent_ids, games_per_pair, seed, pair_blocks=pair_blocks, start=start)
    if tournament_type == "randomMatches":
        if random_layout == RANDOM_LAYOUT_BALANCED:
            return balanced_random_matches(agent_ids, seed, matches, start=start)
        if random_layout != RANDOM_LAYOUT_COUPLE_ROUNDS:
            raise ValueError(f"unknown random matches layout {random_layout!r}")
        games = random_matches(agent_ids, seed, matches)
        return itertools.islice(games, start, None) if start > 0 else games
    raise ValueError(f"unknown tournament type {tournament_type!r}")


def schedule_length(
    tournament_type: str, n_agents: int, *, games_per_pair: int = 2, matches: int | None = None
) -> int | None:
    """How many games the schedule has, or ``None`` for endless random matches: those of the
    schedule of tables of 2 seats."""
    return table_schedule_length(tournament_type, n_agents, 2, games_per_group=games_per_pair, matches=matches)


def _check_agents(agent_ids: Sequence[str]) -> None:
    if len(agent_ids) < 2:
        raise ValueError("a schedule needs at least two agents")
    if len(set(agent_ids)) != len(agent_ids):
        raise ValueError("agent ids must be distinct")


# -- games of N seats ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduledTable:
    """One planned game of N seats: ``seats`` holds the agent ids in seat order. Games of one
    rotation cycle share ``group`` (the seat-rotation group, as the two games of a colour-swapped
    pair share ``pair``) and ``seed`` (:func:`arena.games.base.opening_seed` of the tournament's
    seed and ``group``), which seeds the game's chance draws."""

    index: int
    seats: tuple[str, ...]
    group: int
    seed: int
    #: The round of its group, in a folder that keeps results by pairing (:mod:`arena.tournament.field`);
    #: None in a schedule kept by index.
    round: int | None = None

    @property
    def players(self) -> list[dict[str, object]]:
        """``[{"id", "seat"}, ...]``: the ``players`` of this game's ``games.jsonl`` row."""
        return [{"id": agent_id, "seat": seat} for seat, agent_id in enumerate(self.seats)]


def table_round_robin(agent_ids: Sequence[str], players: int, games_per_group: int, seed: int,
                      start: int = 0) -> Iterator[ScheduledTable]:
    """Every group of ``players`` agents (combinations in config order) plays ``games_per_group``
    games, played in rounds with the seats rotating (module docstring): a multiple of ``players``
    seats every agent of a group at every seat equally often. Growing ``games_per_group`` only
    appends games. ``start``: begin at that index (nothing before it is generated).

    Raises ValueError for fewer agents than seats, fewer than two seats, repeated ids, or
    ``games_per_group`` < 1.
    """
    _check_table(agent_ids, players, games_per_group)
    return _group_games(lambda: itertools.combinations(agent_ids, players), math.comb(len(agent_ids), players),
                        players, games_per_group, seed, start)


def table_gauntlet(agent_ids: Sequence[str], players: int, games_per_group: int, seed: int,
                   start: int = 0) -> Iterator[ScheduledTable]:
    """The first agent (the hero) and every group of ``players - 1`` of the others (combinations in
    config order) play ``games_per_group`` games, in rounds with the seats rotating as in
    :func:`table_round_robin` (the hero is the first agent of each group). Raises as it does."""
    _check_table(agent_ids, players, games_per_group)
    hero, others = agent_ids[0], agent_ids[1:]
    return _group_games(lambda: ((hero, *rest) for rest in itertools.combinations(others, players - 1)),
                        math.comb(len(others), players - 1), players, games_per_group, seed, start)


def _group_games(groups: Callable[[], Iterator[tuple[str, ...]]], count: int, players: int, games_per_group: int,
                 seed: int, start: int) -> Iterator[ScheduledTable]:
    """The games of ``count`` groups (a fresh lazy iterator of them from ``groups()``), from ``start``."""
    total = games_per_group * count
    index = max(start, 0)
    while index < total:
        round_, offset = divmod(index, count)
        cycle, turn = divmod(round_, players)
        for g, agents in enumerate(itertools.islice(groups(), offset, None), offset):
            group = cycle * count + g
            yield ScheduledTable(index, rotated(agents, turn), group, opening_seed(seed, group))
            index += 1


def table_random_matches(agent_ids: Sequence[str], players: int, seed: int, matches: int | None = None,
                         start: int = 0) -> Iterator[ScheduledTable]:
    """Seeded random matches of ``players`` distinct agents, endless when ``matches`` is None. Match
    ``m`` is the ``players`` seat rotations of its agents, games ``m * players`` to ``m * players +
    players - 1``, all with ``group`` ``m`` and one ``seed``.

    Guarantee: after every match, any two agents' numbers of matches differ by at most one; so after
    any prefix of the schedule their numbers of games differ by at most ``players`` (one match).
    Groups whose agents met least are preferred (:func:`balanced_draws`). Growing ``matches`` only
    appends. ``start``: begin at that index (the draws before it are made again, which is cheap; no
    game before it is built). Raises ValueError as :func:`table_round_robin`.
    """
    _check_table(agent_ids, players, 1)

    def games() -> Iterator[ScheduledTable]:
        first = max(start, 0) // players
        draws = itertools.islice(balanced_draws(agent_ids, players, seed), first, matches)
        for match, agents in enumerate(draws, first):
            game_seed = opening_seed(seed, match)
            for turn in range(players):
                if match * players + turn >= start:
                    yield ScheduledTable(match * players + turn, rotated(agents, turn), match, game_seed)

    return games()


#: How many candidates are weighed for each seat of a random match: bounds a draw's cost, whatever
#: the number of agents, while still choosing among enough of them to spread the meetings out.
SPREAD_CANDIDATES = 16


def balanced_draws(agent_ids: Sequence[str], players: int, seed: int) -> Iterator[tuple[str, ...]]:
    """The endless seeded draw of random matches: ``players`` distinct agents a match, in seat order.

    Every match takes the agents with the fewest matches: all of them when there are no more than
    ``players``, topped up from those with one match more (the only others there are); so after
    every match any two agents' numbers of matches differ by at most one. Among the candidates
    (up to :data:`SPREAD_CANDIDATES` drawn at random for each seat), each next agent is the one
    that met the agents already chosen least often, ties going to the random order; the seat order
    is a random permutation. State: O(agents²) meeting counts, nothing that grows with the schedule.
    """
    n = len(agent_ids)
    rng = random.Random(f"arena-balanced-matches/{seed}")
    met = [0] * (n * n)  # met[a * n + b]: matches agents a and b played together
    low = list(range(n))  # the agents with the fewest matches
    high: list[int] = []  # the agents with one match more
    while True:
        # Whoever has the fewest matches plays now when there are too few of them to fill the
        # table: left out, one would fall two matches behind the agents topped up from ``high``.
        topped = len(low) < players
        chosen = low[:] if topped else []
        pool = high if topped else low
        picked = _spread(pool, chosen, players - len(chosen), met, n, rng)
        chosen += picked
        if topped:
            low, high = [a for a in high if a not in picked] + low, picked
        else:
            low = [a for a in low if a not in picked]
            high += picked
            if not low:
                low, high = high, []
        for i, a in enumerate(chosen):
            for b in chosen[i + 1:]:
                met[a * n + b] += 1
                met[b * n + a] += 1
        rng.shuffle(chosen)
        yield tuple(agent_ids[a] for a in chosen)


def _spread(pool: list[int], chosen: list[int], need: int, met: list[int], n: int,
            rng: random.Random) -> list[int]:
    """``need`` agents of ``pool`` (none of them in ``chosen``), each the one of a random sample that
    met ``chosen`` and those picked before it least (the first of the sample on a tie)."""
    sample = rng.sample(pool, min(len(pool), max(SPREAD_CANDIDATES, need)))
    score = [sum(met[a * n + b] for b in chosen) for a in sample]  # meetings with the table so far
    picked: list[int] = []
    for _ in range(need):
        at = score.index(min(score))
        best = sample.pop(at)
        del score[at]
        score = [s + met[best * n + a] for s, a in zip(score, sample, strict=True)]
        picked.append(best)
    return picked


def rotated(agents: Sequence[str], turn: int) -> tuple[str, ...]:
    """``agents`` in seat order for rotation ``turn``: the ``k``-th agent at seat ``(k + turn) % N``
    (:func:`arena.records.field.rotated`, the one home of the convention)."""
    return field_rotated(tuple(agents), turn)


def build_table_schedule(
    tournament_type: str,
    agent_ids: Sequence[str],
    players: int,
    *,
    games_per_group: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    start: int = 0,
) -> Iterator[ScheduledTable]:
    """The schedule of ``tournament_type`` for games of ``players`` seats, as an iterator in index
    order from ``start`` (endless for open random matches). ``games_per_group`` None: ``players``
    (one rotation cycle). Raises ValueError for an unknown type and as :func:`table_round_robin`."""
    per_group = players if games_per_group is None else games_per_group
    if tournament_type == "roundRobin":
        return table_round_robin(agent_ids, players, per_group, seed, start)
    if tournament_type == "gauntlet":
        return table_gauntlet(agent_ids, players, per_group, seed, start)
    if tournament_type == "randomMatches":
        return table_random_matches(agent_ids, players, seed, matches, start)
    raise ValueError(f"unknown tournament type {tournament_type!r}")


def table_schedule_length(tournament_type: str, n_agents: int, players: int, *, games_per_group: int | None = None,
                          matches: int | None = None) -> int | None:
    """How many games :func:`build_table_schedule` has, or ``None`` for endless random matches."""
    per_group = players if games_per_group is None else games_per_group
    if tournament_type == "roundRobin":
        return math.comb(n_agents, players) * per_group
    if tournament_type == "gauntlet":
        return math.comb(n_agents - 1, players - 1) * per_group
    if tournament_type == "randomMatches":
        return None if matches is None else players * matches
    raise ValueError(f"unknown tournament type {tournament_type!r}")


def _check_table(agent_ids: Sequence[str], players: int, games_per_group: int) -> None:
    if players < 2:
        raise ValueError("a game needs at least two seats")
    if len(agent_ids) < players:
        raise ValueError(f"a schedule of {players}-seat games needs at least {players} agents")
    if len(set(agent_ids)) != len(agent_ids):
        raise ValueError("agent ids must be distinct")
    if games_per_group < 1:
        raise ValueError("games_per_group must be at least 1")
