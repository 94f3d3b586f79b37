"""One random-playout conformance check run against every game (OpenSpiel's habit).

Thousands of random games per game: every move applied comes from legal_moves and passes
validate_move; apply never changes its input; a state survives a round trip through its JSON form;
a state is terminal exactly when it has no legal moves (won, or the mover is stuck); the wire form of
every move parses back to the same move.
"""

from __future__ import annotations

import random

import pytest

from arena.games import GAME_NAMES, Color, Termination, get_game

GAMES_PER_RUN = 1000
PLY_CAP = {"shobu": 60, "checkers": 100}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_playouts_are_consistent(name: str) -> None:
    game = get_game(name)
    rng = random.Random(20261121)
    endings: dict[Termination, int] = {}
    for _ in range(GAMES_PER_RUN):
        state = game.initial_state()
        assert game.to_move(state) is Color.BLACK
        for ply in range(PLY_CAP[name]):
            assert game.ply(state) == ply
            outcome = game.outcome(state)
            moves = game.legal_moves(state)
            if outcome is not None:
                endings[outcome.termination] = endings.get(outcome.termination, 0) + 1
                assert outcome.winner is game.to_move(state).other
                assert outcome.termination in (Termination.WIN, Termination.NO_LEGAL_MOVES)
                assert moves == [], "a finished game has no legal moves"
                break
            assert moves, "a state with no legal moves must be terminal"
            assert len(set(moves)) == len(moves), "legal_moves must not repeat a move"
            snapshot = game.state_to_json(state)
            assert game.state_to_json(game.state_from_json(snapshot)) == snapshot
            assert game.state_from_json(snapshot) == state
            move = rng.choice(moves)
            assert game.parse_move(game.move_to_wire(move)) == move
            assert game.validate_move(state, move) == move
            nxt = game.apply(state, move)
            assert game.state_to_json(state) == snapshot, "apply must not modify its input"
            assert game.to_move(nxt) is game.to_move(state).other
            state = nxt
    assert endings, "random games should sometimes end by the rules"
