"""Random Shobu games (fixed seed) checking the fast generator against the reasoned validator.

In every position reached: each applied move comes from legal_moves; apply leaves its input alone;
the JSON form round-trips; the outcome is a WIN exactly when a sub-board lacks a colour;
validate_move accepts every generated move it is shown and answers random mutations either with
acceptance (only if the mutant is in legal_moves) or with IllegalMoveError / MoveSyntaxError,
never another exception. In a sample of positions, every conceivable turn is put to
validate_move and the accepted set must be exactly legal_moves.
"""

from __future__ import annotations

import random
from typing import Any

from arena.games import Color, IllegalMoveError, MoveSyntaxError, Termination
from arena.games.shobu.core import HEADINGS
from arena.games.shobu.rules import ShobuGame, ShobuMove, ShobuState, count_legal_turns, stone_counts

GAME = ShobuGame()
GAMES = 300
TURN_CAP = 60
ODD_VALUES: list[Any] = [1.5, "3", True, None, [1], {"x": 1}, -1, 8, 10**12]
ODD_HEADINGS = [(1, 2), (0, -3), (0, 0), (3, 3), (-2, 1)]


def accepted_or_rejected(state: ShobuState, move: Any, legal: set[ShobuMove]) -> None:
    try:
        canonical = GAME.validate_move(state, move)
    except (IllegalMoveError, MoveSyntaxError) as error:
        assert str(error) and "\n" not in str(error)
        assert move not in legal
    else:
        assert canonical in legal


def mutate_move(move: ShobuMove, rng: random.Random) -> Any:
    field = rng.randrange(5)
    if field == 4:
        return move._replace(aggressive_heading=rng.choice(HEADINGS + tuple(ODD_HEADINGS)))
    pair = move[field] if field < 3 else move.heading
    choice = rng.randrange(3)
    if choice == 0:
        new_pair: Any = (pair[0] + rng.choice((-2, -1, 1, 2)), pair[1])
    elif choice == 1:
        new_pair = (rng.randrange(-1, 9), rng.randrange(-1, 9))
    else:
        new_pair = rng.choice(HEADINGS + tuple(ODD_HEADINGS)) if field == 2 else (pair[0], 1.5)
    return move._replace(**{move._fields[min(field, 2)]: new_pair})


def mutate_wire(move: ShobuMove, rng: random.Random) -> Any:
    mutant = GAME.move_to_wire(move)  # a fresh dict each call
    part = mutant[rng.choice(("passive", "aggressive"))]
    pair = part[rng.choice(("origin", "heading"))]
    action = rng.randrange(4)
    key = rng.choice(("x", "y"))
    if action == 0:
        pair[key] = rng.choice(ODD_VALUES)
    elif action == 1:
        pair[key] += rng.choice((-1, 1))
    elif action == 2:
        del pair[key]
    else:
        part["extra"] = 0
    return mutant


def every_candidate(state: ShobuState) -> list[ShobuMove]:
    mine = "x" if state.turn is Color.BLACK else "o"
    squares = [(i % 8, i // 8) for i, char in enumerate(state.board) if char == mine]
    squares.append((8, 8))
    return [ShobuMove(p, a, h) for p in squares for a in squares for h in HEADINGS]


def test_random_games_agree_with_the_validator() -> None:
    rng = random.Random(20250611)
    positions = 0
    endings: dict[Termination, int] = {}
    for game_index in range(GAMES):
        state = GAME.initial_state()
        for _ in range(TURN_CAP):
            positions += 1
            moves = GAME.legal_moves(state)
            legal = set(moves)
            assert len(legal) == len(moves) == count_legal_turns(state)
            outcome = GAME.outcome(state)
            lacks_a_colour = any(0 in counts for counts in stone_counts(state))
            won = outcome is not None and outcome.termination is Termination.WIN
            assert won == lacks_a_colour
            snapshot = GAME.state_to_json(state)
            assert GAME.state_from_json(snapshot) == state
            if positions % 401 == 0:
                accepted = set()
                for candidate in every_candidate(state):
                    try:
                        accepted.add(GAME.validate_move(state, candidate))
                    except IllegalMoveError:
                        pass
                assert accepted == legal
            if outcome is not None:
                endings[outcome.termination] = endings.get(outcome.termination, 0) + 1
                assert moves == []
                break
            assert moves
            move = rng.choice(moves)
            assert GAME.validate_move(state, move) == move
            if game_index < 3:
                for other in moves:
                    assert GAME.validate_move(state, other) == other
            accepted_or_rejected(state, mutate_move(move, rng), legal)
            try:
                mutant = GAME.parse_move(mutate_wire(move, rng))
            except MoveSyntaxError:
                pass
            else:
                accepted_or_rejected(state, mutant, legal)
            nxt = GAME.apply(state, move)
            assert GAME.state_to_json(state) == snapshot, "apply must not modify its input"
            assert (nxt.turn, nxt.turn_number) == (state.turn.other, state.turn_number + 1)
            state = nxt
    assert endings.get(Termination.WIN, 0) > 0
