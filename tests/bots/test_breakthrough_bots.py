"""The Breakthrough bots: the standalone random and greedy bots agree with arena's rules, answer a
legal move to each game_state over a pipe (one reply per request, flushed) and exit at end of
input; greedy wins when it can and does not allow a win in one; the search adapter finds a win,
stops a runner, sees a lost position as having no moves, and its evaluation is colour-symmetric."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
import threading
from pathlib import Path
from types import ModuleType

import pytest

from arena.agents.eval_breakthrough import DEFAULT_WEIGHTS, NEAR_WIN, BreakthroughSearch
from arena.agents.search import Searcher, is_win_score
from arena.games.base import Color
from arena.games.breakthrough.rules import BreakthroughGame, BreakthroughMove, BreakthroughState, square_index

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
GAME = BreakthroughGame()
STANDALONE = ["breakthrough_random.py", "breakthrough_greedy.py"]
TIMEOUT_S = 60  # a hang backstop only


def load_bot(file_name: str) -> ModuleType:
    path = BOTS / file_name
    spec = importlib.util.spec_from_file_location("bot_" + path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_states(count: int, seed: int) -> list[BreakthroughState]:
    """Live positions met in random playouts."""
    rng = random.Random(seed)
    found: list[BreakthroughState] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 80)):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
        if GAME.legal_moves(state):
            found.append(state)
    return found


def position(rows: list[str], turn: str = "BLACK") -> BreakthroughState:
    return GAME.state_from_json({"board": rows, "turn": turn, "turnNumber": 20})


def request_line(state: BreakthroughState) -> str:
    return json.dumps({"type": "game_state", "payload": GAME.state_to_json(state), "timeLeftMs": 10000}) + "\n"


def bot_move(module: ModuleType, state: BreakthroughState) -> BreakthroughMove:
    """The standalone greedy bot's choice, as arena's move."""
    board = module.read_board(GAME.state_to_json(state)["board"])
    (f0, r0), (f1, r1) = module.choose_move(board, state.turn.value, random.Random(1))
    return BreakthroughMove(f0 + 8 * (r0 - 1), f1 + 8 * (r1 - 1))


# Black to move: c7 can step onto c8 (or take b8/d8), a win in one.
WIN = ["ww.wwwww", "w.b.wwww", "........", "........", "........", "........", "bbbbbbb.", "bbbbbb.."]
# White threatens to win: its piece on e2 takes d1/f1 or steps to e1 unless taken. Only d1xe2 and
# f1xe2 save Black.
THREAT = ["wwwwwwww", "wwww.ww.", "........", "........", "........", "b.......", "bbb.w.bb", "bbbb.bbb"]


# --- the embedded rules ---------------------------------------------------------------------------


def test_standalone_rules_agree_with_arena() -> None:
    random_bot, greedy_bot = load_bot("breakthrough_random.py"), load_bot("breakthrough_greedy.py")
    for state in random_states(150, seed=3):
        rows = GAME.state_to_json(state)["board"]
        colour = state.turn.value
        legal = {(GAME.move_to_wire(m)["from"], GAME.move_to_wire(m)["to"]) for m in GAME.legal_moves(state)}
        as_names = {(random_bot.square_name(a), random_bot.square_name(b))
                    for a, b in random_bot.legal_moves(rows, colour)}
        assert as_names == legal
        board = greedy_bot.read_board(rows)
        assert {(greedy_bot.square_name(a), greedy_bot.square_name(b))
                for a, b in greedy_bot.legal_moves(board, colour)} == legal
        for move in GAME.legal_moves(state):
            a, b = move.origin, move.target
            bot = ((a % 8, a // 8 + 1), (b % 8, b // 8 + 1))
            after = GAME.apply(state, move)
            assert greedy_bot.wins(board, bot, colour) == (GAME.outcome(after) is not None)


def test_greedy_takes_a_win_and_stops_a_threat() -> None:
    greedy_bot = load_bot("breakthrough_greedy.py")
    win = position(WIN)
    assert GAME.outcome(GAME.apply(win, GAME.validate_move(win, bot_move(greedy_bot, win)))) is not None
    threat = position(THREAT)
    saving = {square_index("d1") * 64 + square_index("e2"), square_index("f1") * 64 + square_index("e2")}
    for seed in range(10):
        board = greedy_bot.read_board(THREAT)
        (f0, r0), (f1, r1) = greedy_bot.choose_move(board, "BLACK", random.Random(seed))
        assert (f0 + 8 * (r0 - 1)) * 64 + f1 + 8 * (r1 - 1) in saving
    assert GAME.validate_move(threat, bot_move(greedy_bot, threat)).capture


# --- over a pipe ----------------------------------------------------------------------------------


@pytest.mark.parametrize("file_name", STANDALONE)
def test_bots_answer_legal_moves_and_exit_at_end_of_input(file_name: str) -> None:
    states = [GAME.initial_state(), *random_states(12, seed=8)]
    proc = subprocess.run([sys.executable, str(BOTS / file_name), "--seed", "5"], check=False, text=True,
                          input="".join(request_line(s) for s in states), capture_output=True,
                          timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    replies = proc.stdout.splitlines()
    assert len(replies) == len(states)
    for state, line in zip(states, replies, strict=True):
        reply = json.loads(line)
        assert set(reply) == {"type", "payload"} and reply["type"] == "turn"
        assert GAME.validate_move(state, GAME.parse_move(reply["payload"])) in GAME.legal_moves(state)


@pytest.mark.parametrize("file_name", STANDALONE)
def test_bots_reply_to_each_request_before_the_next(file_name: str) -> None:
    # One request, one flushed reply, then the next: a bot that buffered its output would hang
    # here (the timer kills it, and the test fails instead of hanging).
    proc = subprocess.Popen([sys.executable, str(BOTS / file_name)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    backstop = threading.Timer(TIMEOUT_S, proc.kill)
    backstop.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        state = GAME.initial_state()
        for _ in range(6):
            # Pretty-printed input spread over several lines is read as one object.
            proc.stdin.write(json.dumps({"type": "game_state", "payload": GAME.state_to_json(state),
                                         "timeLeftMs": 5000}, indent=2) + "\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            move = GAME.validate_move(state, GAME.parse_move(reply["payload"]))
            state = GAME.apply(state, move)
        proc.stdin.close()
        assert proc.wait(timeout=TIMEOUT_S) == 0
    finally:
        backstop.cancel()
        if proc.poll() is None:
            proc.kill()
        proc.wait()


@pytest.mark.parametrize("file_name", STANDALONE)
def test_standalone_bots_import_no_arena(file_name: str) -> None:
    path = BOTS / file_name
    assert path.stat().st_mode & 0o111
    text = path.read_text()
    assert text.startswith("#!/usr/bin/env python3\n")
    assert "import arena" not in text and "from arena" not in text


def test_alphabeta_bot_answers_over_a_pipe() -> None:
    state = position(WIN)
    proc = subprocess.run([sys.executable, str(BOTS / "breakthrough_alphabeta.py"), "--move-time", "50", "--quiet"],
                          check=False, text=True, input=request_line(state), capture_output=True, timeout=TIMEOUT_S, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    move = GAME.validate_move(state, GAME.parse_move(json.loads(proc.stdout)["payload"]))
    assert GAME.outcome(GAME.apply(state, move)) is not None  # it takes the win


# --- the search adapter ---------------------------------------------------------------------------


def search(state: BreakthroughState, depth: int = 3) -> BreakthroughMove:
    adapter = BreakthroughSearch(DEFAULT_WEIGHTS)
    result = Searcher(adapter, rng=random.Random(0)).search(adapter.from_state(state), max_depth=depth)
    assert result.move is not None
    return GAME.validate_move(state, adapter.to_game_move(result.move))


def test_adapter_moves_match_the_rules() -> None:
    adapter = BreakthroughSearch({})
    for state in random_states(80, seed=12):
        pos = adapter.from_state(state)
        raw = adapter.moves(pos)
        assert len(raw) == len(set(raw))
        assert {adapter.to_game_move(m) for m in raw} == set(GAME.legal_moves(state))
        for move in raw[:5]:
            after = GAME.apply(state, GAME.validate_move(state, adapter.to_game_move(move)))
            assert adapter.play(pos, move) == adapter.from_state(after)
            assert adapter.has_moves(adapter.play(pos, move)) == (GAME.outcome(after) is None)
            assert adapter.moves(adapter.play(pos, move)) == [] or GAME.outcome(after) is None


def test_adapter_searches_to_a_legal_move() -> None:
    for state in random_states(6, seed=21):
        assert search(state, depth=2) in GAME.legal_moves(state)


def test_adapter_takes_a_win_in_one_and_ranks_it_first() -> None:
    state = position(WIN)
    move = search(state)
    assert GAME.outcome(GAME.apply(state, move)) is not None
    adapter = BreakthroughSearch({})
    pos = adapter.from_state(state)
    best = max(adapter.moves(pos), key=lambda m: adapter.tactical(pos, m))
    assert GAME.outcome(GAME.apply(state, GAME.validate_move(state, adapter.to_game_move(best)))) is not None
    # At the horizon it is settled statically, not searched.
    assert adapter.quiet(pos) and adapter.evaluate(pos) == NEAR_WIN


def test_adapter_stops_a_threat_and_sees_the_loss_otherwise() -> None:
    state = position(THREAT)
    move = search(state, depth=2)
    assert move.capture and move.target == square_index("e2")
    adapter = BreakthroughSearch({})
    lost = GAME.apply(state, GAME.validate_move(state, BreakthroughMove(square_index("a3"), square_index("a4"))))
    pos = adapter.from_state(lost)
    assert adapter.quiet(pos) and adapter.evaluate(pos) == NEAR_WIN  # White to move wins at once
    result = Searcher(adapter).search(pos, max_depth=2)
    assert is_win_score(result.score) and result.score > 0
    # Before: one threat that Black can take is searched, not scored.
    assert not adapter.quiet(adapter.from_state(state))
    # Two threats (e2 and b2): a move takes one at most, so Black is lost.
    double = position(["wwwwwwww", "ww.w.ww.", "........", "........", "........", "b.......",
                       "bwb.w.bb", "bbbb.bbb"])
    assert adapter.quiet(adapter.from_state(double))
    assert adapter.evaluate(adapter.from_state(double)) == -NEAR_WIN


def test_a_lost_position_has_no_moves() -> None:
    adapter = BreakthroughSearch({})
    reached = position(["...b....", "wwww.www", "........", "........", "........", "........",
                        "bbb.bbbb", "bbbbbbbb"], "WHITE")
    assert adapter.moves(adapter.from_state(reached)) == []
    assert not adapter.has_moves(adapter.from_state(reached))
    wiped = position(["........", "........", "....b...", "........", "........", "........",
                      "bbbbbbbb", "bbbbbbb."], "WHITE")
    assert adapter.moves(adapter.from_state(wiped)) == []


def mirrored(state: BreakthroughState) -> BreakthroughState:
    """The same position with colours swapped and the board turned upside down."""
    rows = GAME.state_to_json(state)["board"]
    swap = str.maketrans("bw", "wb")
    turn = "WHITE" if state.turn is Color.BLACK else "BLACK"
    return GAME.state_from_json({"board": [row.translate(swap) for row in reversed(rows)],
                                 "turn": turn, "turnNumber": state.turn_number})


def test_evaluation_is_colour_symmetric_and_runners_count() -> None:
    adapter = BreakthroughSearch({})
    assert adapter.evaluate(adapter.from_state(GAME.initial_state())) == 0
    for state in random_states(60, seed=33):
        pos, mirror = adapter.from_state(state), adapter.from_state(mirrored(state))
        assert adapter.evaluate(pos) == adapter.evaluate(mirror)
        assert adapter.quiet(pos) == adapter.quiet(mirror)
    # Black's b5 has no White piece in the cone ahead of it: a race Black wins.
    runner = position([".....www", ".....www", "........", ".b......", "........", "........",
                       "bbbbbbbb", "bbbbbbb."])
    without = BreakthroughSearch({"runner": 0})
    assert adapter.evaluate(adapter.from_state(runner)) >= without.evaluate(without.from_state(runner)) + 500
