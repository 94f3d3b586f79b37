"""Schedules are pure: every pair, colours swapped, seeded, prefix-stable for every growth, lazy."""

from __future__ import annotations

import dataclasses
import itertools
import tracemalloc
from collections import Counter
from typing import Any

import pytest

from arena.games.base import opening_seed
from arena.tournament.schedule import (
    ScheduledGame,
    build_schedule,
    gauntlet,
    random_matches,
    round_robin,
    schedule_length,
)

AGENTS = ["a", "b", "c", "d"]


def pairs_of(games: list[ScheduledGame]) -> dict[int, list[ScheduledGame]]:
    out: dict[int, list[ScheduledGame]] = {}
    for g in games:
        out.setdefault(g.pair, []).append(g)
    return out


def test_round_robin_every_pair_colours_swapped() -> None:
    games = list(round_robin(AGENTS, 4, seed=1))
    assert [g.index for g in games] == list(range(len(games))) == list(range(6 * 4))
    per_couple = Counter(frozenset((g.black, g.white)) for g in games)
    assert set(per_couple) == {frozenset(c) for c in itertools.combinations(AGENTS, 2)}
    assert set(per_couple.values()) == {4}
    as_black = Counter((g.black, g.white) for g in games)
    assert all(as_black[(x, y)] == 2 for x, y in itertools.permutations(AGENTS, 2))
    pairs = pairs_of(games)
    assert len(pairs) == 12 and len({g.opening_seed for g in games}) == 12
    for first, second in pairs.values():
        # the two games of a pair: same couple, colours swapped, one opening
        assert (first.black, first.white) == (second.white, second.black)
        assert first.opening_seed == second.opening_seed
    # rounds: the first 6 games are every couple once, with the first agent of the couple black
    assert [(g.black, g.white) for g in games[:6]] == list(itertools.combinations(AGENTS, 2))


def test_round_robin_odd_games_per_pair() -> None:
    games = list(round_robin(["a", "b", "c"], 3))
    assert len(games) == schedule_length("roundRobin", 3, games_per_pair=3) == 9
    assert Counter(frozenset((g.black, g.white)) for g in games) == {
        frozenset("ab"): 3, frozenset("ac"): 3, frozenset("bc"): 3}


def as_tuples(games: Any) -> list[tuple[Any, ...]]:
    return [dataclasses.astuple(g)[:5] for g in games]  # a ScheduledGame's round is None here


@pytest.mark.parametrize("kind", [round_robin, gauntlet])
@pytest.mark.parametrize("pair_blocks", [0, 1, 2])
def test_every_growth_only_appends(kind: Any, pair_blocks: int) -> None:
    # any count to any larger count, odd or even (1 -> 2 and 3 -> 5 included), for the new layout
    # and for folders of the old one (pair_blocks at most what the smaller count has pairs for)
    for small in range(1, 8):
        if pair_blocks > small // 2:
            continue
        games = as_tuples(kind(AGENTS, small, 5, pair_blocks=pair_blocks))
        for big in range(small, 9):
            assert as_tuples(kind(AGENTS, big, 5, pair_blocks=pair_blocks))[: len(games)] == games, (small, big)


def test_old_folders_keep_their_schedule() -> None:
    # The schedule before rounds (pairs at consecutive indices, blocks of every couple, an odd count
    # ending with one game per couple) is the layout with pair_blocks = gamesPerPair // 2.
    def old(agent_ids: list[str], per_pair: int, seed: int) -> list[tuple[Any, ...]]:
        couples, games, pair = list(itertools.combinations(agent_ids, 2)), [], 0
        for block in range((per_pair + 1) // 2):
            for a, b in couples:
                osd = opening_seed(seed, pair)
                games.append((len(games), a, b, pair, osd))
                if 2 * block + 2 <= per_pair:
                    games.append((len(games), b, a, pair, osd))
                pair += 1
        return games

    for per_pair in range(1, 7):
        assert as_tuples(round_robin(AGENTS, per_pair, 3, pair_blocks=per_pair // 2)) == old(AGENTS, per_pair, 3)


@pytest.mark.parametrize("kind", [round_robin, gauntlet])
def test_a_schedule_can_start_anywhere(kind: Any) -> None:
    for pair_blocks in (0, 2):
        games = as_tuples(kind(AGENTS, 5, 2, pair_blocks=pair_blocks))
        for start in range(len(games) + 2):
            assert as_tuples(kind(AGENTS, 5, 2, pair_blocks=pair_blocks, start=start)) == games[start:]
    matches = list(build_schedule("randomMatches", AGENTS, matches=5, seed=1))
    assert list(build_schedule("randomMatches", AGENTS, matches=5, seed=1, start=3)) == matches[3:]


def test_schedules_are_lazy_and_their_length_is_arithmetic() -> None:
    huge = 10**9
    assert schedule_length("roundRobin", 40, games_per_pair=huge) == 780 * huge
    tracemalloc.start()
    try:
        games = round_robin([f"a{i}" for i in range(40)], huge, seed=1)
        first = list(itertools.islice(games, 2000))
        late = next(round_robin([f"a{i}" for i in range(40)], huge, seed=1, start=780 * huge - 1))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(first) == 2000 and late.index == 780 * huge - 1
    assert peak < 5_000_000  # a list of 7.8e11 games would not fit in any memory


def test_gauntlet_is_the_first_agent_against_each_other() -> None:
    games = list(gauntlet(AGENTS, 2))
    assert len(games) == schedule_length("gauntlet", 4, games_per_pair=2) == 6
    assert all("a" in (g.black, g.white) for g in games)
    assert Counter(g.black for g in games)["a"] == 3
    assert {frozenset((g.black, g.white)) for g in games} == {frozenset("ab"), frozenset("ac"), frozenset("ad")}


def test_random_matches_are_seeded_pairs_and_stop_after_matches() -> None:
    games = list(random_matches(AGENTS, seed=3, matches=10))
    assert len(games) == 20 == schedule_length("randomMatches", 4, matches=10)
    assert games == list(random_matches(AGENTS, seed=3, matches=10))
    assert games != list(random_matches(AGENTS, seed=4, matches=10))
    for first, second in zip(games[::2], games[1::2], strict=True):
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
    assert next(round_robin(AGENTS, 2, seed=9)).opening_seed == opening_seed(9, 0)


def test_build_schedule_dispatch_and_errors() -> None:
    assert list(build_schedule("roundRobin", AGENTS, games_per_pair=2)) == list(round_robin(AGENTS, 2))
    assert list(build_schedule("gauntlet", AGENTS)) == list(gauntlet(AGENTS, 2))
    assert len(list(build_schedule("randomMatches", AGENTS, matches=2))) == 4
    with pytest.raises(ValueError):
        build_schedule("swiss", AGENTS)
    with pytest.raises(ValueError):
        round_robin(["a"], 2)
    with pytest.raises(ValueError):
        round_robin(["a", "a"], 2)


def test_a_two_player_round_robin_keeps_its_game_order() -> None:
    # The pair schedules are the schedules of tables of 2 seats: this order (and every log folder
    # written in it) must not change.
    games = list(round_robin(["a", "b", "c"], 4, seed=5))
    assert [(g.index, g.black, g.white, g.pair) for g in games] == [
        (0, "a", "b", 0), (1, "a", "c", 1), (2, "b", "c", 2), (3, "b", "a", 0), (4, "c", "a", 1), (5, "c", "b", 2),
        (6, "a", "b", 3), (7, "a", "c", 4), (8, "b", "c", 5), (9, "b", "a", 3), (10, "c", "a", 4), (11, "c", "b", 5)]
    assert [g.opening_seed for g in games] == [opening_seed(5, g.pair) for g in games]
    assert games[0].opening_seed == 8801444313337782734
