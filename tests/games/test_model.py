"""The general game model (arena.games.model): seats, chance, simultaneous moves, observations,
returns and ranks, and today's games seen through it unchanged."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.games import get_game
from arena.games.base import GameError, IllegalMoveError, StateError
from arena.games.model import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    GeneralGame,
    Parameter,
    as_general,
    check_chance,
    draw_chance,
    joint_moves,
    ranks,
)
from arena.games.registry import game_names


@dataclass(frozen=True)
class DiceState:
    """A toy: each seat in turn rolls a die (chance) then all seats bid 0..2 at once; the highest
    roll plus bid wins."""

    rolls: tuple[int, ...]
    bids: tuple[int, ...] | None


class DiceBid(GeneralGame[DiceState, int]):
    name = "dicebid"
    min_players, max_players, default_players = 2, 4, 3
    parameters: ClassVar[dict[str, Parameter]] = {"faces": Parameter("faces", 3, 2, 6, "faces of the die")}

    def initial_state(self) -> DiceState:
        return DiceState((), None)

    def actor(self, state: DiceState) -> int:
        if len(state.rolls) < self.players:
            return CHANCE
        return SIMULTANEOUS if state.bids is None else TERMINAL

    def legal_moves(self, state: DiceState, seat: int) -> list[int]:
        return [0, 1, 2] if self.actor(state) == SIMULTANEOUS else []

    def chance_outcomes(self, state: DiceState) -> list[tuple[int, Fraction]]:
        faces = self.params["faces"]
        return [(face, Fraction(1, faces)) for face in range(1, faces + 1)]

    def apply(self, state: DiceState, move: int) -> DiceState:
        return replace(state, rolls=(*state.rolls, move))

    def apply_joint(self, state: DiceState, moves: Any) -> DiceState:
        return replace(state, bids=tuple(moves[seat] for seat in range(self.players)))

    def returns(self, state: DiceState) -> tuple[float, ...]:
        if state.bids is None:
            return (0.0,) * self.players
        totals = [r + b for r, b in zip(state.rolls, state.bids, strict=True)]
        return tuple(1.0 if t == max(totals) else -1.0 for t in totals)

    def ply(self, state: DiceState) -> int:
        return len(state.rolls) + (state.bids is not None)

    def hidden_variants(self, state: DiceState, seat: int) -> list[DiceState]:
        """The other seats' rolls changed: this seat never sees them."""
        rolls = [r if i == seat else 1 + r % self.params["faces"] for i, r in enumerate(state.rolls)]
        return [replace(state, rolls=tuple(rolls))] if len(state.rolls) > 1 else []

    def observation(self, state: DiceState, seat: int) -> dict[str, Any]:
        mine = state.rolls[seat] if seat < len(state.rolls) else None
        return {"roll": mine, "bids": None if state.bids is None else list(state.bids)}

    def state_to_json(self, state: DiceState) -> dict[str, Any]:
        return {"rolls": list(state.rolls), "bids": None if state.bids is None else list(state.bids)}

    def state_from_json(self, obj: Any) -> DiceState:
        if not isinstance(obj, dict) or sorted(obj) != ["bids", "rolls"]:
            raise StateError(f"a state is {{\"rolls\", \"bids\"}}, got {obj!r}")
        return DiceState(tuple(obj["rolls"]), None if obj["bids"] is None else tuple(obj["bids"]))

    def parse_move(self, wire: Any) -> int:
        return int(wire)

    def move_to_wire(self, move: int) -> Any:
        return move


def test_players_and_parameters_are_bounded() -> None:
    assert DiceBid().players == 3 and DiceBid().params == {"faces": 3}
    assert DiceBid(4, faces=6).identity() == {"name": "dicebid", "players": 4, "params": {"faces": 6}}
    with pytest.raises(GameError, match="players must be 2 to 4, got 5"):
        DiceBid(5)
    with pytest.raises(GameError, match="faces must be an integer from 2 to 6, got 7"):
        DiceBid(2, faces=7)
    with pytest.raises(GameError, match="unknown parameter 'sides'"):
        DiceBid(2, sides=3)


def test_chance_simultaneous_and_terminal_nodes() -> None:
    game = DiceBid(2, faces=2)
    state = game.initial_state()
    assert game.actor(state) == CHANCE and game.acting_seats(state) == ()
    check_chance(game.chance_outcomes(state))
    state = game.apply(game.apply(state, 2), 1)
    assert game.actor(state) == SIMULTANEOUS and game.acting_seats(state) == (0, 1)
    assert len(joint_moves(game, state)) == 9
    end = game.apply_joint(state, {0: 0, 1: 2})
    assert game.is_terminal(end) and game.returns(end) == (-1.0, 1.0)
    assert game.observation(state, 0) == {"roll": 2, "bids": None}  # seat 0 never sees seat 1's roll


def test_perft_counts_a_chance_outcome_and_a_joint_move_as_one_step_each() -> None:
    game = DiceBid(3, faces=2)
    start = game.initial_state()
    assert [game.perft(start, d) for d in range(5)] == [1, 2, 4, 8, 8 * 27]
    assert game.perft(start, 5) == game.perft(start, 9) == 0  # a game that ended counts nothing below


def test_chance_probabilities_are_checked() -> None:
    check_chance([("a", Fraction(1, 3)), ("b", Fraction(2, 3))])
    for bad in ([], [("a", Fraction(1, 2))], [("a", Fraction(3, 2)), ("b", Fraction(-1, 2))]):
        with pytest.raises(GameError):
            check_chance(bad)


def test_draws_follow_the_probabilities_and_the_seed() -> None:
    outcomes = [("a", Fraction(1, 4)), ("b", Fraction(3, 4))]
    counts = Counter(draw_chance(outcomes, random.Random(seed)) for seed in range(4000))
    assert 800 < counts["a"] < 1200
    assert [draw_chance(outcomes, random.Random(7)) for _ in range(3)] == [draw_chance(outcomes, random.Random(7))] * 3


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=6))
def test_ranks_share_ties_and_skip(returns: list[int]) -> None:
    got = ranks(returns)
    for mine, rank in zip(returns, got, strict=True):
        assert rank == 1 + sum(other > mine for other in returns)
    assert min(got) == 1
    assert ranks([1.0, 1.0, -1.0]) == (1, 1, 3)


@pytest.mark.parametrize("name", game_names())
def test_todays_games_are_the_two_seat_special_case(name: str) -> None:
    game = get_game(name)
    general = as_general(game)
    assert general.players == 2 and general.seat_names == ("BLACK", "WHITE")
    state = general.initial_state()
    rng = random.Random(3)
    while not general.is_terminal(state) and general.ply(state) < 60:
        seat = general.actor(state)
        assert general.acting_seats(state) == (seat,)
        assert general.legal_moves(state, 1 - seat) == []
        assert general.observation(state, 1 - seat) == game.state_to_json(state)
        move = rng.choice(general.legal_moves(state, seat))
        with pytest.raises(IllegalMoveError):
            general.validate_move(state, 1 - seat, move)
        state = general.apply(state, move)
    assert general.perft(general.initial_state(), 2) == game.perft(game.initial_state(), 2)
    assert general.eliminate(state, 0) is None  # a fault ends a two-player game, as today
    assert as_general(general) is general


def test_the_conformance_check_passes_a_sound_game_and_names_a_broken_one() -> None:
    from arena.games.conformance import ConformanceError, check_game

    for players in (2, 3, 4):
        assert check_game(DiceBid(players), games=30).summary().startswith(f"dicebid: ok, 30 random games for each of [{players}]")

    class Leaky(DiceBid):
        def observation(self, state: DiceState, seat: int) -> dict[str, Any]:
            return {"rolls": list(state.rolls)}  # every seat sees every roll

        def hidden_variants(self, state: DiceState, seat: int) -> list[DiceState]:
            others = [i for i in range(len(state.rolls)) if i != seat]
            if not others:
                return []
            rolls = list(state.rolls)
            rolls[others[0]] = 1 + rolls[others[0]] % self.params["faces"]
            return [replace(state, rolls=tuple(rolls))]

    with pytest.raises(ConformanceError, match="observation changes with what it may not see"):
        check_game(Leaky(3), games=5)

    class BadChance(DiceBid):
        def chance_outcomes(self, state: DiceState) -> list[tuple[int, Fraction]]:
            return [(1, Fraction(1, 2)), (2, Fraction(1, 3))]

    with pytest.raises(ConformanceError, match="summing to 1"):
        check_game(BadChance(2), games=1)


def test_parse_notation_reads_what_a_person_types_in_every_game() -> None:
    """An N-seat game reads the wire form (JSON or the bare text) or the notation; a two-player game
    its own notation."""
    from arena.games.base import MoveSyntaxError
    from arena.games.registry import get_table_game

    kuhn = get_table_game("kuhn_poker", 2)
    state = kuhn.initial_state()
    rng = random.Random(1)
    while kuhn.actor(state) == CHANCE:
        state = kuhn.apply(state, draw_chance(kuhn.chance_outcomes(state), rng))
    assert [kuhn.parse_notation(text, state, 0) for text in ("bet", ' "bet" ', "BET")] == ["bet"] * 3
    with pytest.raises(MoveSyntaxError, match="^'raise': a Kuhn poker move is"):
        kuhn.parse_notation("raise", state, 0)
    with pytest.raises(IllegalMoveError):
        kuhn.parse_notation("bet", state, 1)  # seat 1 does not act now
    checkers = as_general(get_game("checkers"))
    start = checkers.initial_state()
    assert checkers.describe_move(checkers.parse_notation("11-15", start, 0)) == "11-15"
