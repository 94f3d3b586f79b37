"""Pig (arena.games.pig.rules): the rules, winner takes all, elimination, the state and wire forms, what a
seat sees, the text and SVG pictures, and the two shipped bots."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.model import CHANCE, TERMINAL, apply_step, ranks
from arena.games.pig.rules import HOLD, ROLL, PigGame, PigState
from arena.games.pig.svg import board_svg
from tests.games.inprocess import BOTS, load_bot, message, play


def turn(game: PigGame, state: PigState, faces: list[int], hold: bool = True) -> PigState:
    """The seat on turn rolls ``faces`` one after another, then holds (unless a 1 ended the turn)."""
    for face in faces:
        state = game.apply(game.apply(state, ROLL), face)
    return game.apply(state, HOLD) if hold and state.turn_total else state


def test_parameters_and_bounds() -> None:
    assert PigGame().identity() == {"name": "pig", "players": 2, "params": {"target": 100}}
    assert PigGame(4, target=30).target == 30
    for players, params in ((1, {}), (5, {}), (2, {"target": 0}), (2, {"sides": 8})):
        with pytest.raises(GameError):
            PigGame(players, **params)


def test_a_turn_gathers_points_holds_them_and_passes_on() -> None:
    game = PigGame(3)
    state = game.initial_state()
    assert game.actor(state) == 0 and game.legal_moves(state, 0) == [ROLL]  # no holding on nothing
    state = game.apply(state, ROLL)
    assert game.actor(state) == CHANCE
    assert game.chance_outcomes(state) == [(face, Fraction(1, 6)) for face in range(1, 7)]
    state = game.apply(state, 4)
    assert (state.turn, state.turn_total, state.last_roll) == (0, 4, 4)
    assert game.legal_moves(state, 0) == [ROLL, HOLD] and game.legal_moves(state, 1) == []
    state = game.apply(game.apply(state, ROLL), 6)
    state = game.apply(state, HOLD)
    assert (state.scores, state.turn, state.turn_total, state.steps) == ((10, 0, 0), 1, 0, 5)
    assert game.ply(state) == 5


def test_a_one_loses_the_turn_total_and_the_last_seat_passes_to_the_first() -> None:
    game = PigGame(3)
    state = turn(game, game.initial_state(), [5])
    state = turn(game, state, [3, 1])  # seat 1 loses its 3
    assert (state.scores, state.turn, state.turn_total, state.last_roll) == ((5, 0, 0), 2, 0, 1)
    state = turn(game, state, [2])
    assert state.turn == 0 and state.scores == (5, 0, 2)


def test_the_first_to_bank_the_target_wins_everything() -> None:
    game = PigGame(3, target=10)
    state = turn(game, game.initial_state(), [6, 3], hold=False)
    assert state.turn_total == 9 and not game.is_terminal(state)  # gathered, not banked: no win yet
    state = game.apply(game.apply(state, ROLL), 2)
    state = game.apply(state, HOLD)
    assert game.actor(state) == TERMINAL and state.winner == 0
    assert game.returns(state) == (1.0, -0.5, -0.5)
    assert ranks(game.returns(state)) == (1, 2, 2)
    assert game.legal_moves(state, 0) == []
    with pytest.raises(IllegalMoveError, match="over"):
        game.apply(state, ROLL)


def test_illegal_moves_and_bad_throws_are_refused() -> None:
    game = PigGame(2)
    state = game.initial_state()
    with pytest.raises(IllegalMoveError, match="hold"):
        game.apply(state, HOLD)
    with pytest.raises(IllegalMoveError):
        game.validate_move(state, 0, HOLD)
    rolling = game.apply(state, ROLL)
    for face in (0, 7, True, "3"):
        with pytest.raises(IllegalMoveError, match="face"):
            game.apply(rolling, face)
    for wire in ("Roll", 1, None, ["roll"]):
        with pytest.raises(MoveSyntaxError, match='"roll" or "hold"'):
            game.parse_move(wire)
    assert game.parse_move("hold") == HOLD and game.move_from_record(5) == 5
    assert game.describe_move(5) == "die 5" and game.describe_move(ROLL) == "roll"


def test_elimination_skips_the_seat_and_the_last_one_left_wins() -> None:
    game = PigGame(3)
    state = turn(game, game.initial_state(), [4, 4], hold=False)  # seat 0 on turn with 8 gathered
    out = game.eliminate(state, 0)
    assert out is not None and (out.turn, out.turn_total, out.eliminated) == (1, 0, (0,))
    out = game.eliminate(out, 2)  # not on turn: seat 1 plays on, and is the last one left
    assert out is not None and out.winner == 1 and game.returns(out) == (-0.5, 1.0, -0.5)
    assert game.eliminate(out, 1) is None  # the game is over
    skipping = game.eliminate(game.initial_state(), 1)
    assert skipping is not None
    assert turn(game, skipping, [3]).turn == 2  # seat 0 passes straight to seat 2
    with pytest.raises(IllegalMoveError):
        game.eliminate(game.initial_state(), 3)


def test_the_state_survives_json_and_bad_states_are_named() -> None:
    game = PigGame(3, target=30)
    rng = random.Random(4)
    state = game.initial_state()
    while not game.is_terminal(state):
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
        state = game.apply(state, rng.choice([m for m, _ in game.chance_outcomes(state)]) if game.actor(state) == CHANCE
                           else rng.choice(game.legal_moves(state, game.actor(state))))
    good = game.state_to_json(state)
    assert game.state_from_json(good) == state
    for change, words in (({"target": 100}, "target is 100"), ({"scores": [1, 2]}, "scores must be 3"),
                          ({"turn": 3}, "turn must be"), ({"winner": None}, "nobody won"),
                          ({"lastRoll": 9}, "lastRoll"), ({"eliminated": [0, 1, 2]}, "eliminated"),
                          ({"rolling": 1}, "rolling"), ({"extra": 1}, "extra")):
        with pytest.raises(StateError, match=words):
            game.state_from_json({**good, **change})


def test_a_seat_sees_the_whole_state_and_a_search_may_rebuild_it() -> None:
    game = PigGame(3)
    state = turn(game, game.initial_state(), [5, 2], hold=False)
    seen = game.observation(state, 2)
    assert seen == {"seat": 2, **game.state_to_json(state)}
    assert game.determinize(seen, 2, random.Random(0)) == state


def test_a_record_of_steps_replays() -> None:
    game = PigGame(2)
    state = game.initial_state()
    for step in ({"kind": "move", "seat": 0, "move": "roll"}, {"kind": "chance", "outcome": 3},
                 {"kind": "move", "seat": 0, "move": "hold"}, {"kind": "elimination", "seat": 0}):
        state = apply_step(game, state, step)
    assert state.winner == 1 and state.scores == (3, 0)


def test_perft_counts_the_roll_the_throw_and_the_choice() -> None:
    game = PigGame(2)
    # roll; 6 faces; after a 1 the other seat rolls, after 2-6 roll (6 faces) or hold (the other seat rolls).
    assert [game.perft(game.initial_state(), d) for d in (1, 2, 3, 4)] == [1, 6, 11, 6 + 5 * (6 + 1)]


def test_board_text_and_svg() -> None:
    game = PigGame(3, target=10)
    state = turn(game, game.initial_state(), [4, 5], hold=False)
    text = game.board_text(state, 0)
    assert text.splitlines()[0] == "Pig, 3 players, target 10: P0 to roll or hold, turn total 9, last throw 5"
    assert "*P0    0  +9 this turn" in text
    won = game.apply(game.apply(game.apply(state, ROLL), 3), HOLD)
    assert "P0 won" in game.board_text(won) and "returns: +1 -0.5 -0.5" in game.board_text(won)
    for shown, seat in ((state, None), (won, 1)):
        svg = board_svg(game.state_to_json(shown), seat)
        assert ET.fromstring(svg).tag.endswith("svg")
    assert "<title>Pig, 3 players, target 10: P0 won; last throw 3</title>" in board_svg(game.state_to_json(won))


# -- the bots ------------------------------------------------------------------------------------


def test_hold_at_20_holds_at_20_or_at_the_target() -> None:
    bot = load_bot("pig_hold20.py")
    game = PigGame(2, target=30)
    state = game.initial_state()
    assert bot.choose(message(game, state, 0, False)["payload"], 20) == ROLL
    state = turn(game, state, [6, 6, 6], hold=False)
    assert bot.choose(message(game, state, 0, False)["payload"], 20) == ROLL  # 18
    state = game.apply(game.apply(state, ROLL), 2)
    assert bot.choose(message(game, state, 0, False)["payload"], 20) == HOLD  # 20
    near = PigState((25, 0), 0, 5)
    assert bot.choose(message(game, near, 0, False)["payload"], 20) == HOLD  # 25 + 5 reaches 30


def test_hold_at_20_beats_random() -> None:
    """300 three-seat games of hold-at-20 against two random bots, its seat rotating: it wins far more
    than its third."""
    game = PigGame(3)
    hold, rand = load_bot("pig_hold20.py"), load_bot("pig_random.py")
    rng = random.Random(5)
    mover = random.Random(6)
    wins = 0
    for g in range(300):
        bots = [(lambda m: hold.choose(m["payload"], 20)) if s == g % 3 else
                (lambda m: rand.choose(m, mover)) for s in range(3)]
        wins += play(game, bots, rng).winner == g % 3
    assert wins > 0.8 * 300, wins


@pytest.mark.parametrize("name", ["pig_random.py", "pig_hold20.py"])
def test_the_bots_stand_alone_and_answer_over_a_pipe(name: str) -> None:
    text = (BOTS / name).read_text()
    assert "import arena" not in text and "from arena" not in text
    game = PigGame(2)
    start = game.initial_state()
    gathered = turn(game, start, [6, 6, 6, 6], hold=False)
    lines = [json.dumps(message(game, start, 0, False)), json.dumps(message(game, gathered, 0, False)),
             json.dumps({**message(game, gathered, 0, False), "legalMoves": [ROLL]})]
    out = subprocess.run([sys.executable, str(BOTS / name)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=60, check=True)
    replies = [json.loads(line)["payload"] for line in out.stdout.splitlines()]
    assert len(replies) == 3 and replies[0] == ROLL and replies[1] in (ROLL, HOLD)
    if name == "pig_random.py":
        assert replies[2] == ROLL  # arena's list is followed
    else:
        assert replies[1] == HOLD
