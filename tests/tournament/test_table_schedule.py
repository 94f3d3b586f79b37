"""Schedules of N-seat games and balanced random matches: every group at every seat, prefix-stable,
resumable, lazy, and random matches that keep every agent within one match of every other."""

from __future__ import annotations

import dataclasses
import itertools
import math
import tracemalloc
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.base import opening_seed
from arena.tournament.schedule import (
    RANDOM_LAYOUT_BALANCED,
    RANDOM_LAYOUT_COUPLE_ROUNDS,
    ScheduledGame,
    ScheduledTable,
    balanced_draws,
    balanced_random_matches,
    build_schedule,
    build_table_schedule,
    gauntlet,
    random_matches,
    rotated,
    round_robin,
    schedule_length,
    table_gauntlet,
    table_random_matches,
    table_round_robin,
    table_schedule_length,
)

AGENTS = ["a", "b", "c", "d", "e"]
MANY = [f"a{i}" for i in range(60)]


def as_tuples(games: Iterable[Any]) -> list[tuple[Any, ...]]:
    return [dataclasses.astuple(g)[:-1] for g in games]  # without the round (None: schedules kept by index)


def by_group(games: Iterable[ScheduledTable]) -> dict[int, list[ScheduledTable]]:
    out: dict[int, list[ScheduledTable]] = {}
    for g in games:
        out.setdefault(g.group, []).append(g)
    return out


def check_rotation_cycles(games: list[ScheduledTable], players: int) -> None:
    """Every whole rotation cycle seats each of its agents once at every seat, with one seed."""
    for group, cycle in by_group(games).items():
        assert len({g.seed for g in cycle}) == 1 and cycle[0].seed == opening_seed(7, group)
        assert len({frozenset(g.seats) for g in cycle}) == 1  # one group of agents
        if len(cycle) == players:
            for seat in range(players):
                assert sorted(g.seats[seat] for g in cycle) == sorted(cycle[0].seats)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_robin_every_group_at_every_seat(players: int) -> None:
    count = math.comb(len(AGENTS), players)
    games = list(table_round_robin(AGENTS, players, 2 * players, seed=7))
    assert [g.index for g in games] == list(range(2 * players * count))
    assert len(games) == table_schedule_length("roundRobin", 5, players, games_per_group=2 * players)
    per_group = Counter(frozenset(g.seats) for g in games)
    assert set(per_group) == {frozenset(c) for c in itertools.combinations(AGENTS, players)}
    assert set(per_group.values()) == {2 * players}
    assert len(by_group(games)) == 2 * count  # two rotation cycles of every group
    check_rotation_cycles(games, players)
    # each agent sits at each seat equally often over the whole schedule
    seat_counts = Counter((agent, seat) for g in games for seat, agent in enumerate(g.seats))
    assert len(set(seat_counts.values())) == 1 and len(seat_counts) == len(AGENTS) * players
    # rounds: the first round is every group once, in config order, unrotated
    assert [g.seats for g in games[:count]] == list(itertools.combinations(AGENTS, players))
    # rotation r seats the k-th agent of the group at seat (k + r) % N
    first = games[0].seats
    assert [games[r * count].seats for r in range(players)] == [rotated(first, r) for r in range(players)]
    assert rotated(("x", "y", "z"), 1) == ("z", "x", "y")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gauntlet_is_the_hero_against_every_group_of_the_others(players: int) -> None:
    games = list(table_gauntlet(AGENTS, players, players, seed=7))
    count = math.comb(len(AGENTS) - 1, players - 1)
    assert len(games) == count * players == table_schedule_length("gauntlet", 5, players, games_per_group=players)
    assert all("a" in g.seats for g in games)
    assert {frozenset(g.seats) for g in games} == {
        frozenset(("a", *c)) for c in itertools.combinations(AGENTS[1:], players - 1)}
    check_rotation_cycles(games, players)
    assert Counter(g.seats.index("a") for g in games) == {seat: count for seat in range(players)}


def test_two_seats_are_the_two_player_schedules() -> None:
    # The N-seat plan with N = 2 is exactly today's round robin and gauntlet of a new tournament.
    for per_group in (1, 2, 5):
        two = [(g.index, (g.black, g.white), g.pair, g.opening_seed) for g in round_robin(AGENTS, per_group, 7)]
        assert as_tuples(table_round_robin(AGENTS, 2, per_group, 7)) == two
        two = [(g.index, (g.black, g.white), g.pair, g.opening_seed) for g in gauntlet(AGENTS, per_group, 7)]
        assert as_tuples(table_gauntlet(AGENTS, 2, per_group, 7)) == two


@pytest.mark.parametrize("kind", [table_round_robin, table_gauntlet])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_growth_only_appends(kind: Any, players: int) -> None:
    for small in range(1, 8):
        games = as_tuples(kind(AGENTS, players, small, 5))
        for big in range(small, 10):
            assert as_tuples(kind(AGENTS, players, big, 5))[: len(games)] == games, (small, big)


@pytest.mark.parametrize("tournament_type", ["roundRobin", "gauntlet", "randomMatches"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_schedule_can_start_anywhere(tournament_type: str, players: int) -> None:
    def schedule(start: int = 0) -> list[tuple[Any, ...]]:
        return as_tuples(build_table_schedule(tournament_type, AGENTS, players, games_per_group=players + 1,
                                              matches=7, seed=2, start=start))

    games = schedule()
    assert len(games) == table_schedule_length(tournament_type, 5, players, games_per_group=players + 1, matches=7)
    for start in range(len(games) + 2):
        assert schedule(start) == games[start:], start


def test_schedules_are_deterministic_and_depend_on_the_seed() -> None:
    for kind in ("roundRobin", "gauntlet", "randomMatches"):
        games = list(build_table_schedule(kind, AGENTS, 3, matches=20, seed=4))
        assert games == list(build_table_schedule(kind, AGENTS, 3, matches=20, seed=4))
        assert games != list(build_table_schedule(kind, AGENTS, 3, matches=20, seed=5))


def test_big_schedules_are_lazy() -> None:
    # 60 agents in groups of 4: 487,635 groups; nothing may hold them all.
    groups = math.comb(60, 4)
    assert table_schedule_length("roundRobin", 60, 4, games_per_group=10**9) == groups * 10**9
    tracemalloc.start()
    try:
        first = list(itertools.islice(table_round_robin(MANY, 4, 10**9, seed=1), 1000))
        last = next(table_round_robin(MANY, 4, 10**9, seed=1, start=groups * 10**9 - 1))
        hero = list(itertools.islice(table_gauntlet(MANY, 4, 10**9, seed=1, start=10**12), 1000))
        endless = list(itertools.islice(table_random_matches(MANY, 4, seed=1), 1000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [g.index for g in first] == list(range(1000))
    assert last.index == groups * 10**9 - 1 and last.seats == rotated(("a56", "a57", "a58", "a59"), 3)
    assert hero[0].index == 10**12 and all("a0" in g.seats for g in hero)
    assert len(endless) == 1000
    assert peak < 5_000_000


def check_balanced(games: Sequence[ScheduledTable | ScheduledGame], agent_ids: Sequence[str], players: int) -> None:
    """The guarantee of balanced random matches, after every game: game counts within one match
    (``players`` games), and match counts within one at every match's end."""
    seats = [g.seats if isinstance(g, ScheduledTable) else (g.black, g.white) for g in games]
    groups = [g.group if isinstance(g, ScheduledTable) else g.pair for g in games]
    assert [g.index for g in games] == list(range(len(games)))
    played = dict.fromkeys(agent_ids, 0)
    for index, (agents, group) in enumerate(zip(seats, groups, strict=True)):
        assert len(set(agents)) == players and group == index // players
        for agent in agents:
            played[agent] += 1
        assert max(played.values()) - min(played.values()) <= players, index
        if index % players == players - 1:
            matches = [count // players for count in played.values()]
            assert max(matches) - min(matches) <= 1, index
            assert all(count % players == 0 for count in played.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_keep_sixty_agents_within_one_match(players: int) -> None:
    games = list(table_random_matches(MANY, players, seed=11, matches=400))
    assert len(games) == table_schedule_length("randomMatches", 60, players, matches=400)
    check_balanced(games, MANY, players)
    for match in by_group(games).values():
        # one match: the N rotations of its agents, one seed
        assert [g.seats for g in match] == [rotated(match[0].seats, r) for r in range(players)]
        assert {g.seed for g in match} == {opening_seed(11, match[0].group)}


def test_random_matches_when_the_agents_do_not_fill_whole_tables() -> None:
    seven = list("abcdefg")
    games = list(table_random_matches(seven, 3, seed=1, matches=70))
    check_balanced(games, seven, 3)
    # pairings spread out: every couple meets, all about equally often (a draw that ignored past
    # meetings ranges from about 6 to 15 meetings a couple here)
    met = Counter(frozenset(c) for g in games[::3] for c in itertools.combinations(g.seats, 2))
    assert len(met) == 21 and max(met.values()) - min(met.values()) <= 2


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 13), st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 60))
def test_random_matches_stay_balanced_for_any_size(agents: int, players: int, seed: int, matches: int) -> None:
    players = min(players, agents)
    ids = [f"x{i}" for i in range(agents)]
    games = list(table_random_matches(ids, players, seed, matches))
    assert len(games) == players * matches
    check_balanced(games, ids, players)


def test_random_matches_grow_by_appending_and_never_end_without_a_count() -> None:
    short = list(table_random_matches(AGENTS, 3, seed=3, matches=10))
    assert list(table_random_matches(AGENTS, 3, seed=3, matches=25))[:30] == short
    assert list(itertools.islice(table_random_matches(AGENTS, 3, seed=3), 30)) == short
    assert table_schedule_length("randomMatches", 5, 3) is None


def test_balanced_two_player_random_matches() -> None:
    games = list(balanced_random_matches(MANY, seed=3, matches=3540))
    assert len(games) == schedule_length("randomMatches", 60, matches=3540)
    check_balanced(games, MANY, 2)
    for first, second in zip(games[::2], games[1::2], strict=True):
        # a colour-swapped pair sharing its opening, as in every two-player schedule
        assert (first.black, first.white) == (second.white, second.black)
        assert first.opening_seed == second.opening_seed == opening_seed(3, first.pair)
    # two meetings a couple on average: every couple has met (a draw that ignored past meetings
    # leaves about 1 couple in 7 unmet)
    met = Counter(frozenset((g.black, g.white)) for g in games[::2])
    assert len(met) == 60 * 59 // 2 and max(met.values()) <= 4
    assert Counter(g.black for g in games[::2])["a59"] > 0  # the first mover is random
    for start in (0, 1, 2, 7, 100):
        assert list(balanced_random_matches(MANY, 3, 60, start=start)) == games[start:120]
    # the same draw as the N-seat random matches with two seats
    assert as_tuples(table_random_matches(MANY, 2, 3, 60)) == [
        (g.index, (g.black, g.white), g.pair, g.opening_seed) for g in games[:120]]


def test_the_random_matches_layout_is_chosen_explicitly() -> None:
    today = list(random_matches(AGENTS, seed=3, matches=10))
    assert list(build_schedule("randomMatches", AGENTS, matches=10, seed=3)) == today
    assert list(build_schedule("randomMatches", AGENTS, matches=10, seed=3,
                               random_layout=RANDOM_LAYOUT_COUPLE_ROUNDS)) == today
    balanced = list(build_schedule("randomMatches", AGENTS, matches=10, seed=3, random_layout=RANDOM_LAYOUT_BALANCED))
    assert balanced == list(balanced_random_matches(AGENTS, 3, 10)) != today
    assert list(build_schedule("randomMatches", AGENTS, matches=10, seed=3, random_layout=RANDOM_LAYOUT_BALANCED,
                               start=5)) == balanced[5:]
    # the layout is for random matches only: the other schedules ignore it
    assert list(build_schedule("roundRobin", AGENTS, random_layout=RANDOM_LAYOUT_BALANCED)) == list(round_robin(AGENTS, 2))
    with pytest.raises(ValueError, match="layout"):
        build_schedule("randomMatches", AGENTS, random_layout=3)


def test_draws_are_distinct_agents_in_random_seat_order() -> None:
    draws = list(itertools.islice(balanced_draws(AGENTS, 5, seed=1), 50))
    assert all(sorted(d) == AGENTS for d in draws) and len(set(draws)) > 10


@pytest.mark.parametrize(("agents", "players", "per_group"), [
    (["a", "b"], 3, 1), (["a", "b", "c"], 1, 1), (["a", "a", "b"], 2, 1), (AGENTS, 3, 0)])
def test_impossible_schedules_are_refused(agents: list[str], players: int, per_group: int) -> None:
    for kind in (table_round_robin, table_gauntlet):
        with pytest.raises(ValueError):
            kind(agents, players, per_group, 0)
    if per_group:
        with pytest.raises(ValueError):
            table_random_matches(agents, players, 0, 3)
    with pytest.raises(ValueError, match="unknown tournament type"):
        build_table_schedule("swiss", AGENTS, 3)
    with pytest.raises(ValueError, match="unknown tournament type"):
        table_schedule_length("swiss", 5, 3)
