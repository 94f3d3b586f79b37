"""Schedules are pure: every pair, colours swapped, seeded, prefix-stable."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from arena.tournament.schedule import (
    build_schedule,
    gauntlet,
    opening_seed,
    random_matches,
    round_robin,
    schedule_length,
)

AGENTS = ["a", "b", "c", "d"]


def test_round_robin_every_pair_colours_swapped() -> None:
    games = round_robin(AGENTS, 4, seed=1)
    assert [g.index for g in games] == list(range(len(games))) == list(range(6 * 4))
    per_couple = Counter(frozenset((g.black, g.white)) for g in games)
    assert set(per_couple) == {frozenset(c) for c in itertools.combinations(AGENTS, 2)}
    assert set(per_couple.values()) == {4}
    as_black = Counter((g.black, g.white) for g in games)
    assert all(as_black[(x, y)] == 2 for x, y in itertools.permutations(AGENTS, 2))
    for first, second in zip(games[::2], games[1::2]):
        # consecutive games form a colour-swapped pair with one opening
        assert (first.black, first.white) == (second.white, second.black)
        assert first.pair == second.pair and first.opening_seed == second.opening_seed
    assert len({g.pair for g in games}) == 12
    assert len({g.opening_seed for g in games}) == 12


def test_round_robin_odd_games_per_pair() -> None:
    games = round_robin(["a", "b", "c"], 3)
    assert len(games) == schedule_length("roundRobin", 3, games_per_pair=3) == 9
    assert Counter(frozenset((g.black, g.white)) for g in games) == {
        frozenset("ab"): 3, frozenset("ac"): 3, frozenset("bc"): 3}


def test_round_robin_grows_by_appending() -> None:
    small = round_robin(AGENTS, 2, seed=5)
    big = round_robin(AGENTS, 6, seed=5)
    assert big[: len(small)] == small


def test_gauntlet_is_the_first_agent_against_each_other() -> None:
    games = gauntlet(AGENTS, 2)
    assert len(games) == schedule_length("gauntlet", 4, games_per_pair=2) == 6
    assert all("a" in (g.black, g.white) for g in games)
    assert Counter(g.black for g in games)["a"] == 3
    assert {frozenset((g.black, g.white)) for g in games} == {frozenset("ab"), frozenset("ac"), frozenset("ad")}


def test_random_matches_are_seeded_pairs_and_stop_after_matches() -> None:
    games = list(random_matches(AGENTS, seed=3, matches=10))
    assert len(games) == 20 == schedule_length("randomMatches", 4, matches=10)
    assert games == list(random_matches(AGENTS, seed=3, matches=10))
    assert games != list(random_matches(AGENTS, seed=4, matches=10))
    for first, second in zip(games[::2], games[1::2]):
        assert (first.black, first.white) == (second.white, second.black)
        assert first.black != first.white
    # rounds are permutations of all couples: the first 6 matches cover every couple once
    assert {frozenset((g.black, g.white)) for g in games[:12]} == {
        frozenset(c) for c in itertools.combinations(AGENTS, 2)}


def test_random_matches_without_a_count_never_end_and_are_prefix_stable() -> None:
    endless = random_matches(AGENTS, seed=3, matches=None)
    first = list(itertools.islice(endless, 1000))
    assert [g.index for g in first] == list(range(1000))
    assert first[:20] == list(random_matches(AGENTS, seed=3, matches=10))
    assert schedule_length("randomMatches", 4) is None
    # first mover is random, not always the first of the couple in config order
    assert Counter(g.black for g in first[::2])["d"] > 0


def test_openings_depend_on_seed_and_pair_only() -> None:
    assert opening_seed(1, 2) == opening_seed(1, 2)
    assert len({opening_seed(1, p) for p in range(100)}) == 100
    assert opening_seed(1, 0) != opening_seed(2, 0)
    assert round_robin(AGENTS, 2, seed=9)[0].opening_seed == opening_seed(9, 0)


def test_build_schedule_dispatch_and_errors() -> None:
    assert list(build_schedule("roundRobin", AGENTS, games_per_pair=2)) == round_robin(AGENTS, 2)
    assert list(build_schedule("gauntlet", AGENTS)) == gauntlet(AGENTS, 2)
    assert len(list(build_schedule("randomMatches", AGENTS, matches=2))) == 4
    with pytest.raises(ValueError):
        build_schedule("swiss", AGENTS)
    with pytest.raises(ValueError):
        round_robin(["a"], 2)
    with pytest.raises(ValueError):
        round_robin(["a", "a"], 2)
