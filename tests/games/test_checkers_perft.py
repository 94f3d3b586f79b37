"""Perft: arena's fast counter, the plain recursion of Game.perft and the deliberately plain
generator of bench/plain_checkers.py must all give the published figures (docs/rules/checkers.md)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from arena.games import get_game
from arena.games.base import Game
from arena.games.checkers.rules import CheckersGame, CheckersState, count_legal_moves, piece_counts

GAME: CheckersGame = get_game("checkers")  # type: ignore[assignment]
PUBLISHED = [1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_plain() -> ModuleType:
    """bench/plain_checkers.py, loaded by path (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("plain_checkers_under_test", BENCH / "plain_checkers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("depth", range(8))
def test_fast_perft_matches_published_figures(depth: int) -> None:
    assert GAME.perft(GAME.initial_state(), depth) == PUBLISHED[depth]


@pytest.mark.parametrize("depth", range(1, 6))
def test_plain_recursion_matches_published_figures(depth: int) -> None:
    assert Game.perft(GAME, GAME.initial_state(), depth) == PUBLISHED[depth]


@pytest.mark.parametrize("depth", range(1, 6))
def test_bench_plain_generator_matches_published_figures(depth: int) -> None:
    assert load_plain().plain_perft(depth) == PUBLISHED[depth]


def test_divide_is_consistent_with_perft() -> None:
    start = GAME.initial_state()
    divided = GAME.divide(start, 5)
    assert [move for move, _ in divided] == GAME.legal_moves(start)
    assert sum(count for _, count in divided) == PUBLISHED[5]
    for move, count in divided:
        assert count == Game.perft(GAME, GAME.apply(start, move), 4)


def test_negative_depth_is_refused() -> None:
    with pytest.raises(ValueError):
        GAME.perft(GAME.initial_state(), -1)


def king_positions(count: int) -> list[CheckersState]:
    """Mid-game positions with kings on both sides, from seeded random games."""
    rng = random.Random(7)
    found: list[CheckersState] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(160):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
            counts = piece_counts(state)
            if counts.black_kings and counts.white_kings and len(GAME.legal_moves(state)) > 3:
                found.append(state)
                break
    return found


def test_fast_and_plain_counters_agree_on_positions_with_kings() -> None:
    plain = load_plain()
    for state in king_positions(4):
        board = [line.split() for line in GAME.board_lines(state)]
        color = "b" if state.turn.value == "BLACK" else "w"
        for depth in (1, 2, 3):
            expected = plain.perft_from(board, color, depth)
            assert GAME.perft(state, depth) == expected
            assert Game.perft(GAME, state, depth) == expected
        assert count_legal_moves(state) == len(GAME.legal_moves(state))
