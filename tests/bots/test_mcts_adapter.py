"""MCTS over a search adapter (:mod:`arena.agents.mcts_adapter`): it takes a win in one and blocks
one, proves a won root and stops, is the same for the same seed, keeps its tree between moves,
and the MCTS agent uses it exactly for the two-player games with an adapter. Budgets of
iterations only: nothing here depends on the machine's speed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.agents.eval_breakthrough import BreakthroughSearch
from arena.agents.eval_connect4 import ConnectFourSearch
from arena.agents.hyperparameters import Hyperparameters
from arena.agents.mcts import Budget
from arena.agents.mcts_adapter import AdapterMcts
from arena.agents.mcts_bot import MctsAgent
from arena.agents.protocol_io import Request
from arena.games.registry import get_spec


def connect4(columns: str) -> tuple[ConnectFourSearch, Any]:
    adapter = ConnectFourSearch()
    pos = adapter.from_state(get_spec("connect4").rules_object().initial_state())
    for column in columns:
        pos = adapter.play(pos, int(column))
    return adapter, pos


def engine(adapter: Any, seed: int = 1, **options: Any) -> AdapterMcts:
    return AdapterMcts(adapter, rng=random.Random(seed), max_ply=42, **options)


@pytest.mark.parametrize(("columns", "expected"), [("001122", 3), ("6061625", 3)])
def test_a_win_in_one_is_proven_and_played_at_once(columns: str, expected: int) -> None:
    adapter, pos = connect4(columns)
    result = engine(adapter).search(pos, Budget(iterations=5000))
    assert result.move == expected
    assert result.iterations < 5000  # the root was proven a win: the search stopped


def test_a_win_in_one_of_the_opponent_is_blocked() -> None:
    adapter, pos = connect4("00112")  # Black threatens 3 on the bottom row; White to move
    assert engine(adapter, rollout_plies=0).search(pos, Budget(iterations=3000)).move == 3


def test_the_same_seed_and_iterations_give_the_same_search() -> None:
    adapter = BreakthroughSearch()
    pos = adapter.from_state(get_spec("breakthrough").rules_object().initial_state())
    first = engine(adapter, seed=4).search(pos, Budget(iterations=400))
    second = engine(adapter, seed=4).search(pos, Budget(iterations=400))
    assert (first.move, first.visits, first.means) == (second.move, second.visits, second.means)
    assert first.iterations == 400 and sum(first.visits) == 400


def test_the_tree_of_the_move_played_and_the_reply_is_kept() -> None:
    adapter, pos = connect4("")
    mcts = engine(adapter)
    first = mcts.search(pos, Budget(iterations=2000))
    assert mcts.reused == 0
    after = adapter.play(adapter.play(pos, first.move), 3)
    mcts.search(after, Budget(iterations=10))
    assert mcts.reused > 0
    mcts.search(adapter.play(pos, 0 if first.move != 0 else 1), Budget(iterations=10))  # not in the tree
    assert mcts.reused == 0


def test_the_agent_searches_on_the_adapter_only_where_a_game_has_one() -> None:
    assert MctsAgent("connect4", Hyperparameters("mcts", iterations=50, seed=1), verbose=False).fast is not None
    assert MctsAgent("kuhn_poker", Hyperparameters("mcts", iterations=50, seed=1), verbose=False).fast is None


@pytest.mark.parametrize("game", ["connect4", "breakthrough", "checkers", "shobu", "abalone"])
def test_the_agent_plays_legal_moves_and_is_repeatable(game: str) -> None:
    rules = get_spec(game).rules_object()
    played: list[list[Any]] = []
    for _ in range(2):
        agent = MctsAgent(game, Hyperparameters("mcts", iterations=30, seed=7), verbose=False)
        state, moves = rules.initial_state(), []
        for _ply in range(6):
            if rules.outcome(state) is not None:
                break
            move = agent.choose(Request(state, None, None, 0.0))
            moves.append(rules.move_to_wire(move))
            state = rules.apply(state, rules.validate_move(state, move))
        played.append(moves)
    assert played[0] == played[1] and played[0]


def square(name: str) -> int:
    """A Breakthrough square index from its name (``"c2"``)."""
    return ord(name[0]) - ord("a") + 8 * (int(name[1]) - 1)


def breakthrough(black: str, white: str) -> tuple[BreakthroughSearch, Any]:
    """Black to move with pieces on ``black`` and White's on ``white`` (space-separated names)."""
    mine = sum(1 << square(n) for n in black.split())
    theirs = sum(1 << square(n) for n in white.split())
    return BreakthroughSearch(), (mine, theirs, True, 20)


# epsilon=1: apart from the decisive and anti-decisive rules the playout policy moves at random, so
# only those rules can make every seed choose the same move.
@pytest.mark.parametrize(("black", "white", "expected"), [
    ("a1 d4 a7", "e5 h8", {("a7", "a8"), ("a7", "b8")}),  # a7 reaches the last row; d4xe5 is only a capture
    ("b1 d4 g6", "c2 e5 h8", {("b1", "c2")}),  # c2 would reach row 1: only taking it saves the game
    ("b1 a7 d4", "c2 e5 h8", {("a7", "a8"), ("a7", "b8")}),  # a win of ours goes before the defence
])
def test_the_breakthrough_playout_takes_a_win_and_else_stops_one(black: str, white: str,
                                                                 expected: set[tuple[str, str]]) -> None:
    adapter, pos = breakthrough(black, white)
    wanted = {(square(a), square(b)) for a, b in expected}
    for seed in range(20):
        mcts = engine(adapter, seed=seed, epsilon=1.0)
        assert mcts.rollout_move(pos, adapter.moves(pos)) in wanted


@pytest.mark.parametrize(("columns", "expected"), [
    ("001122", 3),  # Black wins on the bottom row
    ("00112", 3),  # White blocks Black's bottom row
    ("061626", 3),  # Black wins at 3 rather than block White's column 6
])
def test_the_connect4_playout_takes_a_win_and_else_blocks_one(columns: str, expected: int) -> None:
    adapter, pos = connect4(columns)
    for seed in range(20):
        assert engine(adapter, seed=seed, epsilon=1.0).rollout_move(pos, adapter.moves(pos)) == expected


def test_a_quiet_playout_move_is_random_or_greedy_by_epsilon() -> None:
    adapter, pos = breakthrough("a1 d4 g5", "e5 h8")  # one capture (d4xe5), no race
    capture = (square("d4"), square("e5"))
    greedy = {engine(adapter, seed=seed, epsilon=0.0).rollout_move(pos, adapter.moves(pos)) for seed in range(20)}
    assert greedy == {capture}
    noisy = {engine(adapter, seed=seed, epsilon=1.0).rollout_move(pos, adapter.moves(pos)) for seed in range(20)}
    assert len(noisy) > 1


def test_every_move_of_a_new_node_is_scored_and_a_hanging_piece_scores_lowest() -> None:
    adapter, pos = breakthrough("c3 d4", "e6 a8 b8 h8")  # d4-d5 walks into e6xd5
    mcts = engine(adapter, seed=3)
    mcts.search(pos, Budget(iterations=1))
    root = mcts._root
    assert root is not None and sorted(root.moves) == sorted(adapter.moves(pos))
    assert len(root.priors) == len(root.moves) and all(0.0 < p < 1.0 for p in root.priors)
    lowest = root.moves[root.priors.index(min(root.priors))]
    assert lowest == (square("d4"), square("d5"))
