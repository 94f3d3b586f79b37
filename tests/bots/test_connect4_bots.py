"""The Connect Four bots: the standalone random and greedy bots agree with arena's rules, answer
legal moves over a pipe and exit at end of input; greedy wins and blocks; the search adapter sees a
win in one, blocks a loss in one and scores a full board as a draw."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from arena.agents.eval_connect4 import (
    DEFAULT_WEIGHTS,
    ConnectFourSearch,
    playable_cells,
    window_counts,
    winning_cells,
)
from arena.agents.search import WIN_SCORE, Searcher
from arena.games.base import Color
from arena.games.connect4.rules import ConnectFourGame, ConnectFourState, cell_bit, drop_bit, has_four, state_from_board

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
GAME = ConnectFourGame()
STANDALONE = ["connect4_random.py", "connect4_greedy.py"]
TIMEOUT_S = 60  # a hang backstop only


def load_bot(file_name: str) -> ModuleType:
    path = BOTS / file_name
    spec = importlib.util.spec_from_file_location("bot_" + path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_states(count: int, seed: int) -> list[ConnectFourState]:
    """Live positions met in random playouts."""
    rng = random.Random(seed)
    found: list[ConnectFourState] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, 42)):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
        if GAME.legal_moves(state):
            found.append(state)
    return found


def request_line(state: ConnectFourState) -> str:
    return json.dumps({"type": "game_state", "payload": GAME.state_to_json(state), "timeLeftMs": 10000}) + "\n"


# --- the embedded rules --------------------------------------------------------------------------


WIN = [".......", ".......", ".......", "w......", "w......", "wbbb..."]  # Black wins on e1
MUST_BLOCK = [".......", ".......", ".......", ".......", "..b....", "bwww.b."]  # White threatens e1
# White has e2 f2 g2 and d1 is empty: a Black piece on d1 would let White win on d2.
TRAP = [".......", ".......", ".......", ".......", "....www", "bb..bbw"]


def test_bots_see_the_legal_columns_and_wins_arena_sees() -> None:
    random_bot, greedy_bot = load_bot("connect4_random.py"), load_bot("connect4_greedy.py")
    for state in random_states(200, seed=1):
        board = GAME.state_to_json(state)["board"]
        legal = GAME.legal_moves(state)
        assert random_bot.legal_columns(board) == legal
        grid = [list(row) for row in board]
        assert [c for c in range(7) if greedy_bot.landing_row(grid, c) is not None] == legal
        occupied = state.black | state.white
        for piece, bits in (("b", state.black), ("w", state.white)):
            wins = [c for c in legal if has_four(bits | drop_bit(occupied, c))]
            assert greedy_bot.winning_columns(grid, piece) == wins, (board, piece)


def test_greedy_wins_then_blocks_then_stays_safe() -> None:
    greedy = load_bot("connect4_greedy.py")
    for board in (WIN, MUST_BLOCK, TRAP):
        assert state_from_board(board).turn is Color.BLACK  # real positions, Black to move
    for seed in range(8):
        assert greedy.choose_column(WIN, "BLACK", random.Random(seed)) == 4  # rather than block a4
        assert greedy.choose_column(MUST_BLOCK, "BLACK", random.Random(seed)) == 4
    # Nothing to win or block: the centre-most column that does not fill d1 (c or e, not d).
    assert {greedy.choose_column(TRAP, "BLACK", random.Random(seed)) for seed in range(16)} == {2, 4}
    assert greedy.choose_column(["bwbwbwb"] * 6, "BLACK", random.Random(0)) is None


@pytest.mark.parametrize("bot", STANDALONE)
def test_bot_replies_legal_moves_and_exits_at_eof(bot: str) -> None:
    states = random_states(12, seed=3)
    proc = subprocess.run(
        [sys.executable, str(BOTS / bot), "--seed", "1"],
        input="".join(request_line(s) for s in states),
        capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == len(states)
    for state, reply in zip(states, replies, strict=True):
        assert reply["type"] == "turn" and set(reply) == {"type", "payload"}
        GAME.validate_move(state, GAME.parse_move(reply["payload"]))


def test_bots_play_a_whole_game_over_pipes() -> None:
    """random (Black) against greedy (White), driven by the rules: every move legal, game ends."""
    procs = [subprocess.Popen([sys.executable, str(BOTS / bot), "--seed", "2"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True) for bot in STANDALONE]
    try:
        state = GAME.initial_state()
        while GAME.outcome(state) is None:
            proc = procs[0 if state.turn is Color.BLACK else 1]
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(request_line(state))
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            _, state = GAME.play_wire(state, reply["payload"])
        assert GAME.outcome(state) is not None
    finally:
        for proc in procs:  # end of input: each bot must exit by itself, with status 0
            if proc.stdin is not None:
                proc.stdin.close()
        codes = []
        for proc in procs:
            try:
                codes.append(proc.wait(timeout=TIMEOUT_S))
            except subprocess.TimeoutExpired:
                proc.kill()
                codes.append(proc.wait())
            if proc.stdout is not None:
                proc.stdout.close()
    assert codes == [0, 0]


# --- the search adapter --------------------------------------------------------------------------


def search(state: ConnectFourState, depth: int) -> tuple[int | None, int]:
    adapter = ConnectFourSearch(DEFAULT_WEIGHTS)
    result = Searcher(adapter, max_moves=42, rng=random.Random(1)).search(adapter.from_state(state), max_depth=depth)
    move = None if result.move is None else adapter.to_game_move(result.move)
    return move, result.score


def test_adapter_takes_a_win_in_one() -> None:
    state = state_from_board(WIN)
    for depth in (1, 4):
        move, score = search(state, depth)
        assert move == 4 and score == WIN_SCORE - 1


def test_adapter_blocks_a_loss_in_one() -> None:
    state = state_from_board(MUST_BLOCK)
    for depth in (1, 2, 5):
        move, score = search(state, depth)
        assert move == 4 and abs(score) < WIN_SCORE - 100


def test_adapter_orders_wins_then_blocks() -> None:
    adapter = ConnectFourSearch(DEFAULT_WEIGHTS)
    pos = adapter.from_state(state_from_board(WIN))
    assert adapter.tactical(pos, 4) == 2 and adapter.tactical(pos, 0) == 1 and adapter.tactical(pos, 6) == 0
    assert not adapter.quiet(pos)
    pos = adapter.from_state(state_from_board(TRAP))
    assert adapter.quiet(pos)  # White's d2 is not playable yet
    assert winning_cells(pos[1], pos[0] | pos[1]) == cell_bit(3, 1)
    assert playable_cells(pos[0] | pos[1]) & cell_bit(3, 0)


def plain_windows() -> list[int]:
    """Every line of four cells, listed one by one."""
    lines = []
    for column in range(7):
        for row in range(6):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if 0 <= column + 3 * dc < 7 and 0 <= row + 3 * dr < 6:
                    lines.append(sum(cell_bit(column + k * dc, row + k * dr) for k in range(4)))
    return lines


def test_window_counts_agree_with_a_plain_loop() -> None:
    lines = plain_windows()
    assert len(lines) == 69
    for state in random_states(150, seed=6):
        for me, them in ((state.black, state.white), (state.white, state.black)):
            threes = sum(1 for w in lines if not them & w and (me & w).bit_count() == 3)
            twos = sum(1 for w in lines if not them & w and (me & w).bit_count() == 2)
            assert window_counts(me, them) == (threes, twos)


def test_winning_cells_agree_with_trying_every_cell() -> None:
    for state in random_states(150, seed=7):
        occupied = state.black | state.white
        for bits in (state.black, state.white):
            if has_four(bits):
                continue
            empty = [cell_bit(c, r) for c in range(7) for r in range(6) if not occupied & cell_bit(c, r)]
            assert winning_cells(bits, occupied) == sum(b for b in empty if has_four(bits | b))


def test_adapter_contract() -> None:
    adapter = ConnectFourSearch({})
    assert adapter.weights == DEFAULT_WEIGHTS
    with_weights = ConnectFourSearch({"centre": 99})
    assert with_weights.weights["centre"] == 99 and with_weights.weights["three"] == DEFAULT_WEIGHTS["three"]
    start = adapter.from_state(GAME.initial_state())
    assert adapter.moves(start) == [3, 2, 4, 1, 5, 0, 6]
    assert adapter.terminal_score(start) is None and adapter.quiet(start) and adapter.has_moves(start)
    # A won position: the side to move (White) has lost.
    won = GAME.apply(state_from_board(WIN), 4)
    pos = adapter.from_state(won)
    assert adapter.moves(pos) == [] and not adapter.has_moves(pos) and adapter.terminal_score(pos) == -1
    # A full board without four: a draw, not a loss.
    draw = GAME.initial_state()
    for column in "532315310141250566206042303423260411544566":
        draw = GAME.apply(draw, int(column))
    pos = adapter.from_state(draw)
    assert adapter.moves(pos) == [] and adapter.terminal_score(pos) == 0
    # The engine agrees with the rules on every position of random playouts.
    for state in random_states(80, seed=4):
        pos = adapter.from_state(state)
        assert sorted(adapter.moves(pos)) == GAME.legal_moves(state)
        for move in adapter.moves(pos):
            nxt = GAME.apply(state, adapter.to_game_move(move))
            assert adapter.play(pos, move) == adapter.from_state(nxt)
        assert adapter.key(pos) == pos and adapter.ply(pos) == state.turn_number
        assert abs(adapter.evaluate(pos)) < 100_000


def test_the_search_agent_plays_connect4_over_the_json_protocol(tmp_path: Path) -> None:
    settings = tmp_path / "hyperparameters_connect4.json"
    settings.write_text(json.dumps({"algorithm": "alphabeta", "moveTimeMs": 50, "evaluation": {"centre": 10}}))
    state = state_from_board(WIN)
    proc = subprocess.run(
        [sys.executable, "-m", "arena.agents.search_bot", "--game", "connect4", "--hyperparameters", str(settings),
         "--quiet"],
        input=request_line(state), capture_output=True, text=True, timeout=TIMEOUT_S, cwd=ROOT, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"type": "turn", "payload": 4}
