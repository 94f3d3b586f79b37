"""MCTS (:mod:`arena.agents.mcts`): UCT takes a win in one, max^n lets each of three seats choose by
its own return, chance outcomes are drawn by their probabilities, decoupled UCT at a simultaneous
node, a referee's fused playout replaces stepping, and a search with a number of iterations is
the same for the same seed. Small budgets and no clock: nothing here depends on the machine's speed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from arena.agents.mcts import Budget, Mcts
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, as_general
from arena.games.registry import get_spec


class Toy(GeneralGame[tuple[Any, ...], str]):
    """A game tree written out: a state is the moves so far; ``TREE`` maps it to who acts and the
    moves (a seat, CHANCE with probabilities, SIMULTANEOUS with each seat's moves), ``LEAVES`` to
    the returns."""

    name = "toy"
    TREE: ClassVar[dict[tuple[Any, ...], tuple[int, Any]]] = {}
    LEAVES: ClassVar[dict[tuple[Any, ...], tuple[float, ...]]] = {}

    def initial_state(self) -> tuple[Any, ...]:
        return ()

    def actor(self, state: tuple[Any, ...]) -> int:
        return self.TREE[state][0] if state in self.TREE else TERMINAL

    def acting_seats(self, state: tuple[Any, ...]) -> tuple[int, ...]:
        who, moves = self.TREE.get(state, (TERMINAL, None))
        return tuple(sorted(moves)) if who == SIMULTANEOUS else (who,) if who >= 0 else ()

    def legal_moves(self, state: tuple[Any, ...], seat: int) -> list[str]:
        who, moves = self.TREE.get(state, (TERMINAL, None))
        if who == SIMULTANEOUS:
            return list(moves.get(seat, []))
        return list(moves) if who == seat else []

    def chance_outcomes(self, state: tuple[Any, ...]) -> list[tuple[str, Fraction]]:
        return list(self.TREE[state][1])

    def apply(self, state: tuple[Any, ...], move: str) -> tuple[Any, ...]:
        return (*state, move)

    def apply_joint(self, state: tuple[Any, ...], moves: Mapping[int, str]) -> tuple[Any, ...]:
        return (*state, tuple(sorted(moves.items())))

    def returns(self, state: tuple[Any, ...]) -> tuple[float, ...]:
        return self.LEAVES.get(state, (0.0,) * self.players)

    def ply(self, state: tuple[Any, ...]) -> int:
        return len(state)

    def observation(self, state: tuple[Any, ...], seat: int) -> dict[str, Any]:
        return {"moves": list(state)}

    def state_to_json(self, state: tuple[Any, ...]) -> dict[str, Any]:
        return {"moves": list(state)}

    def state_from_json(self, obj: Any) -> tuple[Any, ...]:
        return tuple(obj["moves"])

    def parse_move(self, wire: Any) -> str:
        return str(wire)

    def move_to_wire(self, move: str) -> Any:
        return move


class ThreeSeats(Toy):
    """Seat 0 picks L or R, seat 1 then x or y, seat 2 then p or q (q always gives seat 2 one
    more and seat 0 one less). Seat 1 picks y after L (1 > 0) and x after R (1 > 0), so max^n
    gives seat 0 -1 for L and 1 for R. Seat 0 choosing on its hopes (L holds its best leaf, 5) or
    on averages over the others' moves (L 1.5 against R 0.75 - 0.5) would pick L."""

    min_players = max_players = default_players = 3
    TREE: ClassVar[dict[tuple[Any, ...], tuple[int, Any]]] = {
        (): (0, ["L", "R"]),
        **{(a,): (1, ["x", "y"]) for a in "LR"},
        **{(a, b): (2, ["p", "q"]) for a in "LR" for b in "xy"},
    }
    BASE: ClassVar[dict[tuple[str, str], tuple[float, float, float]]] = {
        ("L", "x"): (6, 0, 0), ("L", "y"): (0, 1, 0), ("R", "x"): (2, 1, 0), ("R", "y"): (-2, 0, 0)}
    LEAVES: ClassVar[dict[tuple[Any, ...], tuple[float, ...]]] = {
        (a, b, c): (v[0] - (c == "q"), v[1], v[2] + (c == "q")) for (a, b), v in BASE.items() for c in "pq"}


def search(game: GeneralGame[Any, Any], state: Any, seat: int, iterations: int, seed: int = 1, **kw: Any) -> Any:
    return Mcts(game, rng=random.Random(seed), **kw).search(seat, lambda rng: state, Budget(iterations=iterations))


def test_max_n_each_of_three_seats_chooses_by_its_own_return() -> None:
    game = ThreeSeats(3)
    result = search(game, (), 0, 3000)
    assert result.move == "R"
    assert result.means[1] > result.means[0]  # towards 1 and -1 (exploration keeps sampling the rest)
    assert search(game, ("L",), 1, 500).move == "y"
    assert search(game, ("R",), 1, 500).move == "x"
    assert search(game, ("R", "x"), 2, 200).move == "q"


def connect4(moves: str) -> tuple[GeneralGame[Any, Any], Any]:
    game = as_general(get_spec("connect4").rules_object())
    state = game.initial_state()
    for column in moves:
        state = game.apply(state, game.parse_move(int(column)))
    return game, state


@pytest.mark.parametrize(("moves", "winning"), [("001126", 3), ("6001125", 3)])
def test_uct_takes_a_win_in_one_for_either_seat(moves: str, winning: int) -> None:
    game, state = connect4(moves)
    seat = game.actor(state)
    result = search(game, state, seat, 400)
    assert game.move_to_wire(result.move) == winning
    assert result.means[game.legal_moves(state, seat).index(result.move)] == 1.0


class Lottery(Toy):
    """Seat 0 passes (0.5) or plays a lottery that pays 1 with probability 1/4."""

    TREE: ClassVar[dict[tuple[Any, ...], tuple[int, Any]]] = {
        (): (0, ["pass", "play"]), ("play",): (CHANCE, [("win", Fraction(1, 4)), ("lose", Fraction(3, 4))])}
    LEAVES: ClassVar[dict[tuple[Any, ...], tuple[float, ...]]] = {
        ("pass",): (0.5, -0.5), ("play", "win"): (1.0, -1.0), ("play", "lose"): (0.0, 0.0)}


def test_chance_outcomes_are_drawn_by_their_probabilities() -> None:
    game = Lottery(2)
    drawn: list[str] = []
    apply = game.apply

    def counting_apply(state: tuple[Any, ...], move: str) -> tuple[Any, ...]:
        if game.actor(state) == CHANCE:
            drawn.append(move)
        return apply(state, move)

    game.apply = counting_apply  # type: ignore[method-assign]
    result = search(game, (), 0, 4000, seed=7, exploration=10.0)  # explore a lot: many lottery draws
    plays = result.visits[1]
    assert len(drawn) == plays > 1000
    assert drawn.count("win") / plays == pytest.approx(0.25, abs=0.03)
    assert result.means[1] == pytest.approx(0.25, abs=0.03)
    assert search(Lottery(2), (), 0, 2000).move == "pass"


class Simultaneous(Toy):
    """Both seats bid at once; seat 0 always does better with A, seat 1 with D."""

    TREE: ClassVar[dict[tuple[Any, ...], tuple[int, Any]]] = {(): (SIMULTANEOUS, {0: ["B", "A"], 1: ["C", "D"]})}
    LEAVES: ClassVar[dict[tuple[Any, ...], tuple[float, ...]]] = {
        (((0, a), (1, b)),): (float(a == "A") + 0.5 * (b == "C"), float(b == "D") - 0.5 * (a == "A"))
        for a in "AB" for b in "CD"}


def test_decoupled_uct_at_a_simultaneous_node() -> None:
    game = Simultaneous(2)
    assert search(game, (), 0, 500).move == "A"
    assert search(game, (), 1, 500).move == "D"


def test_the_same_seed_and_iterations_give_the_same_search() -> None:
    game, state = connect4("33")
    first, second = search(game, state, 0, 300, seed=11), search(game, state, 0, 300, seed=11)
    assert (first.move, first.visits, first.means) == (second.move, second.visits, second.means)
    assert first.iterations == 300 and sum(first.visits) == 300


def test_a_deadline_already_past_still_runs_one_iteration() -> None:
    game, state = connect4("")
    result = Mcts(game, rng=random.Random(1)).search(0, lambda rng: state, Budget(deadline=0.0))
    assert result.iterations == 1 and result.move in game.legal_moves(state, 0)
    with pytest.raises(ValueError, match="iterations or a deadline"):
        Mcts(game, rng=random.Random(1)).search(0, lambda rng: state, Budget())


def test_a_single_legal_move_needs_no_search() -> None:
    class Forced(Toy):
        TREE: ClassVar[dict[tuple[Any, ...], tuple[int, Any]]] = {(): (0, ["only"])}

    result = search(Forced(2), (), 0, 100)
    assert result.move == "only" and result.iterations == 0


def test_a_game_with_a_fused_playout_is_asked_for_it_instead_of_stepping() -> None:
    """The hook an external referee's game offers: ``playout(state, seed, count)``."""
    inner, state = connect4("")

    class Fused(type(inner)):  # type: ignore[misc]
        calls: ClassVar[list[tuple[Any, int, int]]] = []
        applied = 0

        def playout(self, state: Any, seed: int, count: int) -> list[list[float]]:
            self.calls.append((state, seed, count))
            return [[1.0, -1.0]] * count  # BLACK always wins the playouts

        def apply(self, state: Any, move: Any) -> Any:
            Fused.applied += 1
            return super().apply(state, move)

    game = Fused(inner.game)  # type: ignore[attr-defined]
    result = search(game, state, 0, 60)
    assert len(Fused.calls) == 60  # one per iteration: every iteration here reaches a new node
    assert all(type(seed) is int and count == 1 for _, seed, count in Fused.calls)
    assert Fused.applied < 2 * 60  # the tree's own steps only, no random plies
    assert set(result.means) == {1.0}  # BLACK won every playout
