"""The standalone example bots in bots/: their embedded rules agree with arena's, they read the
protocols robustly, and they play complete legal games with both colours under arena's engine."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from arena.games import Color, Termination, get_game
from arena.games.checkers.rules import state_from_board
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec

BOTS = Path(__file__).resolve().parents[2] / "bots"
SHOBU_START = "oooooooo................xxxxxxxxoooooooo................xxxxxxxx"
CHECKERS_START = [
    ". b . b . b . b", "b . b . b . b .", ". b . b . b . b", ". . . . . . . .",
    ". . . . . . . .", "w . w . w . w .", ". w . w . w . w", "w . w . w . w .",
]
STANDALONE = ["shobu_random.py", "shobu_greedy.py", "checkers_random.py", "checkers_greedy.py", "bot1.py", "bot2"]


def load_bot(file_name: str) -> ModuleType:
    """Import a bot file as a module (bot2 has no .py extension)."""
    path = BOTS / file_name
    loader = importlib.machinery.SourceFileLoader("bot_" + path.stem, str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def random_positions(game_name: str, count: int, seed: int) -> list:
    """Positions met in random playouts (terminal ones left out)."""
    game = get_game(game_name)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 60)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
        if game.legal_moves(state):
            found.append(state)
    return found


# --- the embedded rules against arena's ---------------------------------------------------------


def _arena_shobu_turns(state) -> set:
    return {(m.passive_origin, m.heading, m.aggressive_origin) for m in get_game("shobu").legal_moves(state)}


def test_shobu_bots_generate_exactly_arenas_legal_turns() -> None:
    random_bot, greedy_bot = load_bot("shobu_random.py"), load_bot("shobu_greedy.py")
    bot1, bot2 = load_bot("bot1.py"), load_bot("bot2")
    for state in random_positions("shobu", 60, seed=1):
        board, colour = state.board, state.turn.value
        expected = _arena_shobu_turns(state)
        assert set(random_bot.legal_turns(board, colour)) == expected
        assert {turn for turn, _ in greedy_bot.legal_turns(board, colour)} == expected
        assert {((px, py), (hx, hy), (ax, ay)) for px, py, hx, hy, ax, ay in bot1.legal_turns(board, colour)} == expected
        assert {(p, h, a) for p, h, a, _ in bot2.turns_with_results(board, colour)} == expected


def test_shobu_bots_apply_turns_as_arena_does() -> None:
    game = get_game("shobu")
    greedy_bot, bot2 = load_bot("shobu_greedy.py"), load_bot("bot2")
    for state in random_positions("shobu", 25, seed=2):
        board, colour = state.board, state.turn.value
        after = {(m.passive_origin, m.heading, m.aggressive_origin): game.apply(state, m).board
                 for m in game.legal_moves(state)}
        for turn, push in greedy_bot.legal_turns(board, colour):
            assert greedy_bot.apply_turn(board, turn, push) == after[turn]
        for p, h, a, result in bot2.turns_with_results(board, colour):
            assert result == after[(p, h, a)]


def test_checkers_bots_generate_exactly_arenas_legal_moves() -> None:
    game = get_game("checkers")
    random_bot, greedy_bot = load_bot("checkers_random.py"), load_bot("checkers_greedy.py")
    for state in random_positions("checkers", 150, seed=3):
        lines = game.board_lines(state)
        colour = state.turn.value.lower()
        expected = {m.path for m in game.legal_moves(state)}
        for bot in (random_bot, greedy_bot):
            board = [bot.parse_board_line(line) for line in lines]
            assert {tuple(move) for move in bot.legal_moves(board, colour)} == expected
        board = [greedy_bot.parse_board_line(line) for line in lines]
        for move in game.legal_moves(state):
            after = greedy_bot.apply_move(board, list(move.path))
            assert [" ".join(row) for row in after] == game.board_lines(game.apply(state, move))


def test_checkers_crowning_ends_a_jump_in_the_standalone_rules() -> None:
    # A black man jumps onto row 7 and would jump on as a king; the move must stop there.
    lines = [
        ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
        ". . . . . . . .", ". . b . . . . .", ". . . w . w . .", ". . . . . . . .",
    ]
    state = state_from_board(lines, Color.BLACK)
    expected = {m.path for m in get_game("checkers").legal_moves(state)}
    assert expected == {((2, 5), (4, 7))}
    bot = load_bot("checkers_random.py")
    board = [bot.parse_board_line(line) for line in lines]
    assert {tuple(m) for m in bot.legal_moves(board, "black")} == expected


# --- the protocols ------------------------------------------------------------------------------


def run_bot(file_name: str, text: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BOTS / file_name), *args], input=text, capture_output=True,
                          text=True, check=False, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("file_name", ["shobu_random.py", "shobu_greedy.py", "bot1.py", "bot2"])
def test_shobu_bots_read_one_line_and_pretty_printed_states(file_name: str) -> None:
    import json

    def message(turn: str, turn_number: int, indent: int | None) -> str:
        payload = {"board": SHOBU_START, "turn": turn, "turnNumber": turn_number}
        return json.dumps({"type": "game_state", "payload": payload}, indent=indent) + "\n"

    one_line, pretty = message("BLACK", 0, None), message("WHITE", 1, 2)
    game = get_game("shobu")
    replies = run_bot(file_name, one_line + pretty).splitlines()
    assert len(replies) == 2
    for reply, turn in zip(replies, ("BLACK", "WHITE"), strict=True):
        answer = json.loads(reply)
        assert answer["type"] == "turn"
        state = game.state_from_json({"board": SHOBU_START, "turn": turn, "turnNumber": 0})
        game.play_wire(state, answer["payload"])  # raises if malformed or illegal


@pytest.mark.parametrize("file_name", ["checkers_random.py", "checkers_greedy.py"])
def test_checkers_bots_tolerate_crlf_blank_lines_and_unspaced_boards(file_name: str) -> None:
    unspaced = [line.replace(" ", "") for line in CHECKERS_START]
    text = "60000\r\n\r\nwhite  \r\n59000\r\n" + "\r\n".join(line + " " for line in unspaced) + "\r\n"
    reply = run_bot(file_name, text, "--seed", "4").strip()
    game = get_game("checkers")
    game.play_wire(state_from_board(CHECKERS_START, Color.WHITE, 1), reply)


# --- complete games under arena's engine -------------------------------------------------------

_FINISHED = {Termination.WIN.value, Termination.NO_LEGAL_MOVES.value, Termination.MAX_MOVES.value}


def _spec(agent_id: str, command: str) -> AgentSpec:
    return AgentSpec(agent_id, command=command, cwd=str(BOTS))


async def _play_both_colours(game_name: str, first: str, second: str) -> None:
    game = configured_game(game_name)
    a, b = _spec("a", first), _spec("b", second)
    for black, white in ((a, b), (b, a)):
        record = await play_game(game, black, white, time_control=TimeControl(time_limit_ms=30000))
        assert record["termination"] in _FINISHED, record["reason"]


@pytest.mark.slow
async def test_shobu_standalone_bots_play_complete_games() -> None:
    python = sys.executable
    await _play_both_colours("shobu", f"{python} shobu_random.py --seed 1", f"{python} shobu_greedy.py --seed 2")
    await _play_both_colours("shobu", f"{python} bot1.py", "./bot2")


@pytest.mark.slow
async def test_checkers_standalone_bots_play_complete_games() -> None:
    python = sys.executable
    await _play_both_colours("checkers", f"{python} checkers_random.py --seed 1", f"{python} checkers_greedy.py --seed 2")


@pytest.mark.parametrize("file_name", STANDALONE)
def test_standalone_bots_are_executable_and_import_no_arena(file_name: str) -> None:
    path = BOTS / file_name
    assert path.stat().st_mode & 0o111
    text = path.read_text()
    assert text.startswith("#!/usr/bin/env python3\n")
    assert "import arena" not in text and "from arena" not in text
