"""The Abalone bots and search adapter: the standalone random and greedy bots agree with arena's
rules, answer a legal move to each game_state over a pipe (one flushed reply per request) and exit
at end of input; greedy pushes off when it can and does not leave a marble to be pushed off; the
search adapter's moves and positions follow the rules, its features are the documented 14 and the
evaluation is exactly their weighted sum; a short round robin through the CLI finishes."""

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
from click.testing import CliRunner

from arena.agents.eval_abalone import DEFAULT_WEIGHTS, FEATURE_NAMES, AbaloneSearch, features
from arena.agents.hyperparameters import load_hyperparameters
from arena.agents.search import Searcher
from arena.games.abalone.rules import AbaloneGame, AbaloneMove, AbaloneState, cell_index
from arena.games.base import Color

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
GAME = AbaloneGame()
STANDALONE = ["abalone_random.py", "abalone_greedy.py"]
TIMEOUT_S = 120  # a hang backstop only
FILL_BLACK = "A1 A2 A3 A4 A5 B1 B2"
FILL_WHITE = "I5 I6 I7 I8 I9 H4 H5"


def load_bot(file_name: str) -> ModuleType:
    path = BOTS / file_name
    spec = importlib.util.spec_from_file_location("bot_" + path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_states(count: int, seed: int, max_plies: int = 400) -> list[AbaloneState]:
    """Live positions met in random playouts."""
    rng = random.Random(seed)
    found: list[AbaloneState] = []
    while len(found) < count:
        state = GAME.initial_state()
        for _ in range(rng.randrange(0, max_plies)):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))
        if GAME.legal_moves(state):
            found.append(state)
    return found


def position(black: str, white: str, turn: Color = Color.BLACK) -> AbaloneState:
    mask = lambda names: sum(1 << cell_index(n) for n in names.split())  # noqa: E731
    return AbaloneState(mask(black), mask(white), turn, 20)


def request_line(state: AbaloneState) -> str:
    return json.dumps({"type": "game_state", "payload": GAME.state_to_json(state), "timeLeftMs": 10000}) + "\n"


def wire_set(moves: list[AbaloneMove]) -> set[tuple[frozenset[str], str]]:
    out = set()
    for move in moves:
        wire = GAME.move_to_wire(move)
        out.add((frozenset(wire["marbles"]), wire["direction"]))
    return out


def bot_choice(module: ModuleType, state: AbaloneState, seed: int = 1) -> AbaloneMove:
    board = module.read_board(GAME.state_to_json(state)["board"])
    line, direction = module.choose_move(board, state.turn.value, random.Random(seed))
    return GAME.validate_move(state, GAME.parse_move({"marbles": [module.cell_name(c) for c in line],
                                                      "direction": direction}))


# --- the embedded rules ---------------------------------------------------------------------------


def test_standalone_rules_agree_with_arena() -> None:
    bots = [load_bot(name) for name in STANDALONE]
    for state in random_states(25, seed=3, max_plies=250):
        rows = GAME.state_to_json(state)["board"]
        legal = wire_set(GAME.legal_moves(state))
        for bot in bots:
            found = {(frozenset(bot.cell_name(c) for c in line), d)
                     for line, d in bot.legal_moves(bot.read_board(rows), state.turn.value)}
            assert found == legal


def test_greedy_pushes_off_and_keeps_its_marbles_safe() -> None:
    greedy = load_bot("abalone_greedy.py")
    # Black can push White's E9 off with E7 E8.
    take = position("E7 E8 " + FILL_BLACK, "E9 " + FILL_WHITE + " H6")
    move = bot_choice(greedy, take)
    after = GAME.apply(take, move)
    assert after.white.bit_count() == take.white.bit_count() - 1
    # White's E7 E8 threaten to push Black's lone E9 off: greedy never leaves a marble exposed.
    danger = position("E9 " + FILL_BLACK + " C3", "E7 E8 " + FILL_WHITE)
    for seed in range(5):
        after = GAME.apply(danger, bot_choice(greedy, danger, seed))
        assert greedy.exposed(greedy.read_board(GAME.state_to_json(after)["board"]), "BLACK") == 0


# --- over a pipe ----------------------------------------------------------------------------------


@pytest.mark.parametrize("file_name", STANDALONE)
def test_bots_answer_legal_moves_and_exit_at_end_of_input(file_name: str) -> None:
    states = [GAME.initial_state(), *random_states(6, seed=8)]
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
    proc = subprocess.Popen([sys.executable, str(BOTS / file_name)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    backstop = threading.Timer(TIMEOUT_S, proc.kill)
    backstop.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        state = GAME.initial_state()
        for _ in range(4):
            proc.stdin.write(json.dumps({"type": "game_state", "payload": GAME.state_to_json(state),
                                         "timeLeftMs": 5000}, indent=2) + "\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            state = GAME.apply(state, GAME.validate_move(state, GAME.parse_move(reply["payload"])))
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
    state = position("E7 E8 " + FILL_BLACK, "E9 " + FILL_WHITE + " H6")  # pushing E9 off wins
    proc = subprocess.run([sys.executable, str(BOTS / "abalone_alphabeta.py"), "--move-time", "100", "--quiet"],
                          check=False, text=True, input=request_line(state), capture_output=True,
                          timeout=TIMEOUT_S, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    move = GAME.validate_move(state, GAME.parse_move(json.loads(proc.stdout)["payload"]))
    assert GAME.outcome(GAME.apply(state, move)) is not None  # it takes the win


# --- the search adapter and its features ----------------------------------------------------------


def test_adapter_moves_and_positions_follow_the_rules() -> None:
    adapter = AbaloneSearch({})
    for state in random_states(20, seed=12, max_plies=250):
        pos = adapter.from_state(state)
        raw = adapter.moves(pos)
        assert len(raw) == len(set(raw))
        assert {adapter.to_game_move(m) for m in raw} == set(GAME.legal_moves(state))
        for move in raw[:6]:
            after = GAME.apply(state, GAME.validate_move(state, adapter.to_game_move(move)))
            assert adapter.play(pos, move) == adapter.from_state(after)


def test_features_are_the_documented_fourteen() -> None:
    assert len(FEATURE_NAMES) == 14 and set(DEFAULT_WEIGHTS) == set(FEATURE_NAMES)
    start = features(GAME.initial_state())
    assert list(start) == list(FEATURE_NAMES)
    # Black: A1-A5, B1 and B6 on the border (ring 4), B2-B5 on ring 3, C3-C5 on ring 2.
    assert start["ourMarbles"] == start["theirMarbles"] == 14
    assert (start["ourCentre"], start["ourMiddle"], start["ourBorder"]) == (3, 4, 7)
    assert start["ourCentre"] + start["ourMiddle"] + start["ourBorder"] == 14
    assert start["ourThreatened"] == start["theirThreatened"] == 0
    assert start["ourFlowers"] == start["theirFlowers"] == 2  # B3 and B4 (H5 and H6): all six neighbours own
    assert start["ourDistance"] == pytest.approx(10 * (3 * 2 + 4 * 3 + 7 * 4) / 14)
    for name in FEATURE_NAMES:
        assert start[name] == start[name.replace("our", "their") if name.startswith("our")
                                    else name.replace("their", "our")]
    # A flower: D4 with its six neighbours, all White; Black's E7 E8 can push White's E9 off, and
    # White's E5 D4 C3 can push Black's B2 A1 south-west (3 against 2), A1 off the board.
    flower = position("E7 E8 " + FILL_BLACK, "D4 D3 D5 C3 C4 E4 E5 E9 I9")
    values = features(flower)
    assert values["theirFlowers"] == 1 and values["ourFlowers"] == 0
    assert values["theirThreatened"] == 1 and values["ourThreatened"] == 1
    assert features(AbaloneSearch().from_state(flower)) == values


def test_evaluation_is_the_weighted_sum_of_the_features() -> None:
    weights = {name: (i * 37) % 201 - 100 for i, name in enumerate(FEATURE_NAMES)}
    adapter = AbaloneSearch(weights)
    for state in random_states(20, seed=5, max_plies=200):
        values = features(state)
        expected = round(sum(weights[n] * values[n] for n in FEATURE_NAMES))
        assert adapter.evaluate(adapter.from_state(state)) == expected
    assert AbaloneSearch().evaluate(AbaloneSearch().from_state(GAME.initial_state())) == 0


def test_search_pushes_off_for_the_win_and_a_lost_side_has_no_moves() -> None:
    # White has nine marbles: pushing E9 off wins.
    state = position("E7 E8 " + FILL_BLACK, "E9 " + FILL_WHITE + " H6")
    adapter = AbaloneSearch()
    result = Searcher(adapter, rng=random.Random(0)).search(adapter.from_state(state), max_depth=2)
    move = GAME.validate_move(state, adapter.to_game_move(result.move))
    assert GAME.outcome(GAME.apply(state, move)) is not None and result.score > 0
    lost = GAME.apply(state, move)
    assert adapter.moves(adapter.from_state(lost)) == [] and not adapter.has_moves(adapter.from_state(lost))


def test_hyperparameters_file_names_every_feature() -> None:
    hp = load_hyperparameters(str(ROOT / "configs" / "hyperparameters_abalone.json"), "abalone")
    assert set(hp.evaluation) == set(FEATURE_NAMES)
    assert hp.evaluation == DEFAULT_WEIGHTS


def test_round_robin_of_the_shipped_bots_through_the_cli(tmp_path: Path) -> None:
    """Random against greedy, two games, through `arena run` (the shipped config's agents)."""
    from arena.cli import cli

    config = json.loads((ROOT / "configs" / "abalone_round_robin.json").read_text())
    config["agents"] = [
        {"type": "executable", "id": a["id"], "path": a["path"].replace("python3 ../bots", f"{sys.executable} {BOTS}")}
        for a in config["agents"] if a["type"] == "executable"
    ]
    config.update(gamesPerPair=2, maxMoves=40, id="abalone_rr_test")
    path = tmp_path / "rr.json"
    path.write_text(json.dumps(config))
    result = CliRunner().invoke(cli, ["run", str(path), "--logs", str(tmp_path / "logs")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "random" in result.output
