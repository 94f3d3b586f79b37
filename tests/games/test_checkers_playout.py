"""Random playouts (fixed seed): every position reached is checked against the rules contract and
against the independent plain generator of bench/plain_checkers.py."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from arena.games import (
    Color,
    IllegalMoveError,
    MoveSyntaxError,
    Termination,
    get_game,
)
from arena.games.checkers.rules import (
    CheckersGame,
    CheckersMove,
    CheckersState,
    count_legal_moves,
    piece_counts,
)

GAME: CheckersGame = get_game("checkers")  # type: ignore[assignment]
GAMES = 300
PLY_CAP = 200


def load_plain() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "plain_checkers.py"
    spec = importlib.util.spec_from_file_location("plain_checkers_playout", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


PLAIN = load_plain()


def mutate(wire: str, rng: random.Random) -> str:
    """A random corruption of a protocol reply."""
    fields = wire.split()
    kind = rng.randrange(7)
    if kind == 0:  # nudge one coordinate
        i = rng.randrange(1, len(fields))
        fields[i] = str(max(0, int(fields[i]) + rng.choice((-2, -1, 1, 2))))
    elif kind == 1:  # drop the last square, count fixed
        if len(fields) > 5:
            fields = [str(int(fields[0]) - 1)] + fields[1:-2]
        else:
            fields.append("7")
    elif kind == 2:  # add a square
        fields = [str(int(fields[0]) + 1)] + fields[1:] + [str(rng.randrange(9)), str(rng.randrange(9))]
    elif kind == 3:  # reverse the path
        pairs = [fields[i : i + 2] for i in range(1, len(fields), 2)]
        fields = [fields[0]] + [x for pair in reversed(pairs) for x in pair]
    elif kind == 4:  # wrong count
        fields[0] = str(int(fields[0]) + rng.choice((-1, 1)))
    elif kind == 5:  # garbage token
        fields[rng.randrange(len(fields))] = rng.choice(("x", "1.5", "-1", "", "٣"))
    else:  # a random path of random length
        n = rng.randrange(2, 5)
        fields = [str(n)] + [str(rng.randrange(8)) for _ in range(2 * n)]
    return " ".join(fields)


def check_position(state: CheckersState, moves: list[CheckersMove], rng: random.Random) -> None:
    # Same moves as the plain generator, no duplicates, consistent counters.
    board = [line.split() for line in GAME.board_lines(state)]
    color = "b" if state.turn is Color.BLACK else "w"
    expected = {tuple(path) for path in PLAIN.legal_paths(board, color)}
    paths = [move.path for move in moves]
    assert len(set(paths)) == len(paths)
    assert set(paths) == expected
    assert count_legal_moves(state) == len(moves) == GAME.perft(state, 1)
    # Outcome exactly when there is no move, with the rules' winner and termination.
    outcome = GAME.outcome(state)
    if moves:
        assert outcome is None
    else:
        assert outcome is not None and outcome.winner is state.turn.other
        no_pieces = (state.black if state.turn is Color.BLACK else state.white) == 0
        assert outcome.termination is (Termination.WIN if no_pieces else Termination.NO_LEGAL_MOVES)
    # JSON round trip.
    assert GAME.state_from_json(GAME.state_to_json(state)) == state
    # Every legal move survives the wire and validation; mutations are rejected or legal.
    legal = set(moves)
    for move in moves:
        wire = GAME.move_to_wire(move)
        assert GAME.validate_move(state, GAME.parse_move(wire)) == move
        assert CheckersMove.from_path(move.path) == move
    if moves:
        bad = mutate(GAME.move_to_wire(rng.choice(moves)), rng)
        try:
            parsed = GAME.validate_move(state, GAME.parse_move(bad))
        except (IllegalMoveError, MoveSyntaxError) as error:
            assert str(error) and "\n" not in str(error)
        else:
            assert parsed in legal


def test_random_playouts() -> None:
    rng = random.Random(12345)
    finished = kings_seen = 0
    for _ in range(GAMES):
        state = GAME.initial_state()
        for ply in range(PLY_CAP):
            moves = GAME.legal_moves(state)
            check_position(state, moves, rng)
            if not moves:
                finished += 1
                break
            before = GAME.state_to_json(state)
            move = rng.choice(moves)
            nxt = GAME.apply(state, move)
            assert GAME.state_to_json(state) == before  # apply never mutates
            assert GAME.ply(nxt) == ply + 1 and GAME.to_move(nxt) is state.turn.other
            counts = piece_counts(nxt)
            kings_seen += counts.black_kings + counts.white_kings > 0
            state = nxt
    # The playouts must have reached the interesting parts of the rules.
    assert finished > GAMES // 4
    assert kings_seen > 1000
