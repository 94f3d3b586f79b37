"""ExternalGame: the general model answered by a referee (Nim, examples/referees/nim.py), its cost
in round trips, and its registration."""

from __future__ import annotations

import random
import sys
from fractions import Fraction

import pytest
from referee_support import NIM, hostile_argv

from arena.games.base import GameError, StateError
from arena.games.conformance import check_spec
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, draw_chance
from arena.games.registry import GENERAL, get_spec, get_table_game
from arena.referee.client import RefereeError
from arena.referee.game import ExternalGame
from arena.referee.registration import register_command, register_referee, rules_command


def test_a_referee_registers_its_game_under_its_name(nim_argv: list[str]) -> None:
    spec = register_referee(nim_argv)
    assert (spec.name, spec.model, spec.protocol, spec.default_max_moves) == ("nim", GENERAL, "json-seats", 2000)
    assert get_spec("nim") is spec and spec.player_bounds() == (2, 3)
    assert register_referee(nim_argv) is spec  # the same command: nothing asked again
    game = get_table_game("nim", 3, {"heap": 7})
    assert isinstance(game, ExternalGame)
    assert game.identity() == {"name": "nim", "players": 3, "params": {"heap": 7, "take": 3, "opening": 0},
                               "rules": f"{sys.executable} {NIM}"}
    assert rules_command("nim") == f"{sys.executable} {NIM}" and rules_command("shobu") is None
    with pytest.raises(GameError, match="players must be 2 to 3, got 4"):
        spec.table(4)
    with pytest.raises(GameError, match="heap must be an integer from 1 to 1000"):
        spec.table(2, {"heap": 0})


def test_two_referees_of_one_name_are_refused(nim_argv: list[str]) -> None:
    register_referee(nim_argv)
    with pytest.raises(GameError, match="two rules programs give the game 'nim'"):
        register_referee([*nim_argv, "--no-observations"])


def test_the_forward_model(nim_argv: list[str]) -> None:
    game = register_referee(nim_argv).table(3)
    start = game.initial_state()
    assert game.actor(start) == CHANCE and game.ply(start) == 0 and not game.is_terminal(start)
    assert game.chance_outcomes(start) == [("P0", Fraction(1, 3)), ("P1", Fraction(1, 3)), ("P2", Fraction(1, 3))]
    state = game.apply(start, "P2")
    assert game.actor(state) == 2 and game.acting_seats(state) == (2,)
    assert game.legal_moves(state, 2) == [1, 2, 3] and game.legal_moves(state, 0) == []
    assert game.describe_move(2) == "take 2" and game.describe_move("P2") == "P2"
    with pytest.raises(GameError, match="not a chance node"):
        game.chance_outcomes(state)
    assert game.observation(state, 2)["you"] == 2
    assert game.observation(state, 0) == {**game.observation(state, 2), "you": 0}  # asked: not in the node
    assert game.board_text(state) == "heap 10: ||||||||||  (P2 to move)"
    out = game.eliminate(state, 2)
    assert out is not None and game.actor(out) == 0
    last = game.eliminate(out, 1)
    assert last is not None and game.is_terminal(last) and game.returns(last) == (1.0, -1.0, -1.0)
    assert game.actor(last) == TERMINAL and game.legal_moves(last, 0) == []
    two = get_table_game("nim", 2)
    assert two.eliminate(two.apply(two.initial_state(), "P0"), 0) is None  # {"node": null}: the fault ends it


def test_states_go_to_json_and_back(nim_argv: list[str]) -> None:
    game = register_referee(nim_argv).table(2)
    state = game.apply(game.initial_state(), "P0")
    assert game.state_from_json(game.state_to_json(state)) == state
    assert hash(game.state_from_json(game.state_to_json(state))) == hash(state)
    with pytest.raises(StateError, match="nim: the referee refuses this state: .*not a nim state"):
        game.state_from_json({"board": []})


def test_a_state_read_before_costs_no_round_trip(nim_argv: list[str]) -> None:
    # Replaying many records (arena report) reads the same states again, in new game objects.
    spec = register_referee(nim_argv)
    game = spec.table(2)
    text = game.state_to_json(game.apply(game.initial_state(), "P0"))
    first = game.state_from_json(text)
    trips = game.client.round_trips
    again = spec.table(2).state_from_json(dict(text))  # another game object, an equal JSON value
    assert game.client.round_trips == trips and again == first and again.node is first.node
    spec.table(3).state_from_json(text)  # the players change how a node reads: asked again
    assert game.client.round_trips == trips + 1
    with pytest.raises(StateError, match="refuses"):  # a refusal is not remembered: refused again
        game.state_from_json({"board": []})
    with pytest.raises(StateError, match="refuses"):
        game.state_from_json({"board": []})
    assert game.client.round_trips == trips + 3


def test_perft_counts_through_the_referee(nim_argv: list[str]) -> None:
    game = register_referee(nim_argv).table(2, {"heap": 4})
    # Chance (2 starters), then 3 moves, then from heaps 3, 2, 1: 3 + 2 + 1 moves.
    assert [game.perft(game.initial_state(), d) for d in range(4)] == [1, 2, 6, 12]


def test_a_simultaneous_count_off(nim_argv: list[str]) -> None:
    game = register_referee(nim_argv).table(3, {"opening": 1})
    start = game.initial_state()
    assert game.actor(start) == SIMULTANEOUS and game.acting_seats(start) == (0, 1, 2)
    state = game.apply_joint(start, {0: 3, 1: 1, 2: 1})
    assert game.actor(state) == 5 % 3


def test_playout_is_one_round_trip(nim_argv: list[str]) -> None:
    game = register_referee(nim_argv).table(2)
    state = game.apply(game.initial_state(), "P1")
    before = game.client.round_trips
    results = game.playout(state, seed=7, count=50)
    assert game.client.round_trips == before + 1
    assert len(results) == 50 and all(sorted(r) == [-1.0, 1.0] for r in results)
    assert game.playout(state, seed=7, count=50) == results  # seeded


def test_playout_without_the_feature_is_a_clear_error() -> None:
    spec = register_referee([sys.executable, str(NIM), "--features", "board"])
    game = spec.table(2)
    with pytest.raises(GameError, match="has no 'playout' command \\(its features: board\\)"):
        game.playout(game.initial_state(), 1, 1)
    assert spec.svg is None and game.eliminate(game.initial_state(), 0) is None


@pytest.mark.parametrize(("argv_extra", "per_step"), [((), 1), (("--no-observations",), 2)])
def test_a_ply_costs_at_most_two_round_trips(argv_extra: tuple[str, ...], per_step: int) -> None:
    """As the N-seat engine asks: the next state, and the acting seat's observation and legal moves."""
    game = register_referee([sys.executable, str(NIM), *argv_extra]).table(3, {"heap": 30})
    rng, state = random.Random(3), game.initial_state()
    trips, steps = game.client.round_trips, 0
    while not game.is_terminal(state):
        who = game.actor(state)
        if who == CHANCE:
            state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
        else:
            game.observation(state, who)
            state = game.apply(state, rng.choice(game.legal_moves(state, who)))
            game.state_to_json(state)
        game.returns(state), game.ply(state)
        steps += 1
    cost = game.client.round_trips - trips
    # The chance draw asks for no observation: one round trip fewer.
    assert cost == per_step * steps - (per_step - 1)
    assert cost / steps <= 2


def test_a_wrong_node_is_the_referees_failure() -> None:
    game = register_referee(hostile_argv("wrong", 4)).table(2)
    state = game.apply(game.initial_state(), "P0")  # requests 1 (info), 2 (new), 3 (apply)
    with pytest.raises(RefereeError, match="rules program .*hostile.py wrong 4 --nim [^']*': apply: node: actor must be a seat"):
        game.apply(state, 1)


def test_a_failing_referee_cannot_be_registered() -> None:
    with pytest.raises(RefereeError, match="info: the reply is not JSON"):
        register_referee(hostile_argv("garbage", 1))
    with pytest.raises(RefereeError, match="cannot start it"):
        register_command("/no/such/referee --x")


def test_the_conformance_check_passes(nim_argv: list[str]) -> None:
    assert check_spec(register_referee(nim_argv), games=10).summary().startswith("nim: ok, 10 random games")


def test_a_package_registers_a_referee_through_an_entry_point(nim_argv: list[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """As docs/referees.md shows: an ``arena.games`` entry point whose object is a callable that
    returns ``register_referee(argv)``."""
    from arena.games import registry

    class Entry:
        name, value, dist = "nim", "nim_package:spec", None

        def load(self) -> object:
            return lambda: register_referee(nim_argv)

    monkeypatch.setattr(registry, "_entry_points", lambda: [Entry()])
    registry.reload()
    try:
        assert "nim" in registry.all_game_names() and registry.problems() == {}
        assert registry.get_spec("nim").origin == "nim_package:spec"
        assert registry.get_table_game("nim", 2).initial_state().node.actor == CHANCE
    finally:
        monkeypatch.undo()
        registry.reload()
