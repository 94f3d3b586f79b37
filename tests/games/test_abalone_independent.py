"""Abalone's rules against an independent implementation: bench/abalone_plain.py (cube coordinates,
a dict board, brute force over every set of 1-3 own marbles and the six directions), which shares
no code with arena.games.abalone.board.

Compared here (kept to a few seconds; bench/abalone_plain.py runs the long comparison and perft 3):
perft 1-2 from the start; the move sets, the game-over verdicts and the boards after a move on
positions sampled from random playouts played to their end (so with pushes off the board and
positions one push from the win); and validate_move against the plain rules for every line of
1-3 own marbles in every direction, legal or not."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
from helpers import bench_module

from arena.games.abalone.board import DIRECTIONS
from arena.games.abalone.rules import AbaloneGame, AbaloneMove, AbaloneState, cell_index
from arena.games.base import IllegalMoveError

GAME = AbaloneGame()


@pytest.fixture(scope="module")
def plain() -> ModuleType:
    """bench/abalone_plain.py."""
    return bench_module("abalone_plain")


def sampled_positions(count_per_game: int, games: int, seed: int) -> list[AbaloneState]:
    """Positions of random playouts to the end: every so many plies, plus the last 12 of each game
    (where marbles go off and the sixth push ends it)."""
    rng = random.Random(seed)
    found: list[AbaloneState] = []
    for _ in range(games):
        state = GAME.initial_state()
        history = [state]
        while GAME.outcome(state) is None:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            history.append(state)
        every = max(1, len(history) // count_per_game)
        found += history[::every] + history[-12:]
    return found


def test_perft_agrees(plain: ModuleType) -> None:
    board = plain.start_board()
    start = GAME.initial_state()
    for depth in (1, 2):
        assert plain.plain_perft(board, "b", depth) == GAME.perft(start, depth)
    assert GAME.perft(start, 1) == 44


def test_cell_names_agree(plain: ModuleType) -> None:
    names = {plain.name(c) for c in plain.ALL_CELLS}
    assert len(names) == 61
    for name in names:
        cell_index(name)  # every plain name is one of arena's cells
    assert plain.board_from_rows(GAME.state_to_json(GAME.initial_state())["board"]) == plain.start_board()


def test_move_sets_game_over_and_boards_agree_on_random_playouts(plain: ModuleType) -> None:
    positions = sampled_positions(count_per_game=25, games=4, seed=11)
    rng = random.Random(4)
    pushes_off = ends = 0
    for state in positions:
        rows = GAME.state_to_json(state)["board"]
        board = plain.board_from_rows(rows)
        colour = "b" if state.turn.value == "BLACK" else "w"
        over = GAME.outcome(state) is not None
        moves = [] if plain.plain_over(board, colour) else plain.plain_moves(board, colour)
        assert over == (not moves), rows
        if over:
            ends += 1
            continue
        assert plain.as_names(moves) == plain.arena_names(GAME, state), rows
        # The board after every push, and after a random quiet move, agrees too.
        legal = GAME.legal_moves(state)
        unit = dict(zip(DIRECTIONS, plain.UNITS, strict=True))
        by_name = {plain.name(c): c for c in board}
        for move in [m for m in legal if _pushes(state, m)] + [rng.choice(legal)]:
            wire = GAME.move_to_wire(move)
            after = plain.plain_play(board, (frozenset(by_name[n] for n in wire["marbles"]), unit[wire["direction"]]))
            assert after == plain.board_from_rows(GAME.state_to_json(GAME.apply(state, move))["board"]), rows
            pushes_off += len(after) < len(board)
    assert ends == 4 and pushes_off > 20  # the sample did meet game ends and pushes off the board


def _pushes(state: AbaloneState, move: AbaloneMove) -> bool:
    """Whether ``move`` moves enemy marbles."""
    after = GAME.apply(state, move)
    if state.turn.value == "BLACK":
        return after.white != state.white
    return after.black != state.black


def test_validate_move_agrees_with_the_plain_rules(plain: ModuleType) -> None:
    """Every line of 1-3 own marbles (and some non-lines) in every direction: validate_move accepts
    exactly the plain rules' moves, and says why for the others."""
    for state in sampled_positions(count_per_game=6, games=2, seed=3):
        if GAME.outcome(state) is not None:
            continue
        board = plain.board_from_rows(GAME.state_to_json(state)["board"])
        colour = "b" if state.turn.value == "BLACK" else "w"
        legal = plain.as_names(plain.plain_moves(board, colour))
        mine = [c for c, v in board.items() if v == colour]
        groups = plain.lines_of(mine) + [tuple(mine[:2]), tuple(mine[-3:])]
        for group in groups:
            cells = tuple(sorted(cell_index(plain.name(c)) for c in group))
            for direction in range(6):
                move = AbaloneMove(cells, direction)
                key = (frozenset(plain.name(c) for c in group), DIRECTIONS[direction])
                try:
                    GAME.validate_move(state, move)
                    accepted = True
                except IllegalMoveError as error:
                    accepted = False
                    assert str(error).strip()
                assert accepted == (key in legal), (GAME.describe_move(move), GAME.state_to_json(state))


def test_the_stuck_position_has_no_plain_moves_either(plain: ModuleType) -> None:
    """The position of test_abalone.py's no-legal-move test, by the plain rules."""
    black = ["A1", "A2", "A4", "A5", "B1", "B6", "C7", "D8", "E9"]
    white = ["A3", "B2", "B3", "B4", "B5", "C1", "C2", "C6", "D1", "D7", "E8", "F4", "F9", "H8"]
    stuck = AbaloneState(sum(1 << cell_index(n) for n in black), sum(1 << cell_index(n) for n in white),
                         GAME.initial_state().turn, 30)
    board = plain.board_from_rows(GAME.state_to_json(stuck)["board"])
    assert plain.plain_moves(board, "b") == [] and GAME.legal_moves(stuck) == []
