"""The one builder of a colour-swapped pair's games (arena.match.pairs), property-tested.

Each caller's former formula is written out below as it was before the builder existed (the
tournament schedule and runner, the SPRT runner, SPSA's command-agent games, ``arena match``), and
the builder must give the same opening, plies and recorded seed, so record bytes stay the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from arena.games.base import opening_seed
from arena.match.pairs import Openings, PairOpening, pair_games, pair_opening
from arena.openings.book import Book, Opening

seeds = st.integers(min_value=0, max_value=2**63 - 1)
pairs = st.integers(min_value=0, max_value=10**6)
plies = st.integers(min_value=0, max_value=20)
orders = st.sampled_from(["random", "sequential"])


@st.composite
def books(draw: Any) -> Book:
    size = draw(st.integers(min_value=1, max_value=8))
    return Book(Path("book.jsonl"), tuple(Opening({"position": i}, i + 1) for i in range(size)), "0" * 64)


@st.composite
def openings(draw: Any) -> Openings:
    if draw(st.booleans()):
        return Openings(0, draw(books()), draw(orders))
    return Openings(draw(plies))


@given(seeds | st.none(), pairs, openings(), st.booleans())
def test_colours_swap_and_both_games_share_the_opening(seed: int | None, pair: int, source: Openings,
                                                        always: bool) -> None:
    first, second = pair_games("a", "b", pair, seed, source, always_record_seed=always)
    assert (first.black, first.white) == ("a", "b")
    assert (second.black, second.white) == ("b", "a")
    assert first.opening == second.opening


@given(seeds | st.none(), pairs, openings(), st.booleans())
def test_a_pure_function_of_its_arguments(seed: int | None, pair: int, source: Openings, always: bool) -> None:
    assert pair_games("a", "b", pair, seed, source, always_record_seed=always) == \
        pair_games("a", "b", pair, seed, source, always_record_seed=always)


@given(seeds, pairs, st.integers(min_value=1, max_value=20))
def test_random_plies_are_seeded_by_the_run_seed_and_the_pair(seed: int, pair: int, n: int) -> None:
    opening = pair_opening(pair, seed, Openings(n))
    assert opening == PairOpening(None, n, opening_seed(seed, pair), None)
    assert pair_opening(pair + 1, seed, Openings(n)).seed != opening.seed


# -- each caller's formula before the builder -----------------------------------------------------


def _tournament(pair: int, seed: int, source: Openings) -> tuple[Any, int, int | None, int | None]:
    """runner._play_games and _persist: the book's pick, the config's plies, the schedule's seed."""
    book = source.book
    start = book.pick(pair, source.order, seed).state if book else None
    line = book.pick(pair, source.order, seed).line if book else None
    return start, source.plies, opening_seed(seed, pair), line


def _sprt(pair: int, seed: int | None, source: Openings) -> tuple[Any, int, int | None]:
    """SprtRun._play_game."""
    if source.book is not None:
        return source.book.pick(pair, source.order, seed or 0).state, 0, None
    return None, source.plies, opening_seed(seed, pair) if seed is not None and source.plies else None


def _spsa(pair: int, seed: int, source: Openings) -> tuple[Any, int, int | None]:
    """spsa_play.iteration_jobs."""
    if source.book is not None:
        return source.book.pick(pair, source.order, seed).state, 0, None
    return None, source.plies, opening_seed(seed, pair) if source.plies else None


def _match(pair: int, seed: int | None, source: Openings) -> tuple[Any, int, int | None]:
    """match_command's run_all (a book always came with a seed, drawn when not given)."""
    start = source.book.pick(pair, source.order, seed).state if source.book is not None and seed is not None else None
    return start, source.plies, opening_seed(seed, pair) if seed is not None else None


@given(seeds, pairs, openings())
def test_the_tournaments_openings_and_seeds(seed: int, pair: int, source: Openings) -> None:
    o = pair_opening(pair, seed, source, always_record_seed=True)
    assert (o.start_state, o.plies, o.seed, o.line) == _tournament(pair, seed, source)


@given(seeds | st.none(), pairs, openings())
def test_the_sprt_runs_openings_and_seeds(seed: int | None, pair: int, source: Openings) -> None:
    o = pair_opening(pair, seed, source)
    assert (o.start_state, o.plies, o.seed) == _sprt(pair, seed, source)


@given(seeds, pairs, openings())
def test_spsas_openings_and_seeds(seed: int, pair: int, source: Openings) -> None:
    o = pair_opening(pair, seed, source)
    assert (o.start_state, o.plies, o.seed) == _spsa(pair, seed, source)


@given(seeds, pairs, openings())
def test_arena_matchs_openings_and_seeds(seed: int, pair: int, source: Openings) -> None:
    o = pair_opening(pair, seed, source, always_record_seed=True)
    assert (o.start_state, o.plies, o.seed) == _match(pair, seed, source)


def test_a_match_without_openings_or_seed_records_none() -> None:
    assert pair_opening(0, None, Openings(), always_record_seed=True) == PairOpening(None, 0, None, None)
