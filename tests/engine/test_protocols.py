"""Wire protocols: pure encode/decode, and the exact bytes against a scripted fake bot."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import orjson
import pytest
import trio
from engine_support import bot_writable

from arena.games import Color, MoveSyntaxError, Termination, get_game
from arena.games.base import GameError
from arena.players.base import ClockView
from arena.players.process_player import ProcessPlayer
from arena.protocols import protocol_for
from arena.protocols.checkers_lines import CheckersLineProtocol
from arena.protocols.shobu_json import ShobuJsonProtocol

START_BOARD = "oooooooo................xxxxxxxxoooooooo................xxxxxxxx"
SHOBU_REPLY = {
    "passive": {"origin": {"x": 0, "y": 7}, "heading": {"x": 0, "y": -1}},
    "aggressive": {"origin": {"x": 4, "y": 3}, "heading": {"x": 0, "y": -1}},
}


def test_protocol_for_each_game() -> None:
    assert isinstance(protocol_for("shobu"), ShobuJsonProtocol)
    assert isinstance(protocol_for("checkers"), CheckersLineProtocol)
    with pytest.raises(GameError, match="unknown game 'chess'"):
        protocol_for("chess")


def test_shobu_game_state_message_is_the_seed_message_on_one_line() -> None:
    game = get_game("shobu")
    data = ShobuJsonProtocol().encode_turn(game, game.initial_state(), 1234)
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert json.loads(data) == {"type": "game_state",
                                "payload": {"board": START_BOARD, "turn": "BLACK", "turnNumber": 0}}
    assert ShobuJsonProtocol().opening(Color.BLACK, 1000) == b""


def test_shobu_reply_envelope() -> None:
    proto = ShobuJsonProtocol()
    pretty = json.dumps({"type": "turn", "payload": SHOBU_REPLY}, indent=4).encode()
    assert proto.decode_reply(pretty) == SHOBU_REPLY


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"hello", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"type": "turn"}', 'exactly the keys "type" and "payload"'),
        (b'{"type": "turn", "payload": {}, "extra": 1}', 'exactly the keys'),
        (b'{"type": "move", "payload": {}}', '"type" must be "turn"'),
        (b'{"type": "turn", "payload": [1]}', '"payload" must be an object'),
        (b'{"type": "turn", "payload": "\xff"}', "not valid UTF-8"),
    ],
)
def test_shobu_malformed_replies(raw: bytes, words: str) -> None:
    with pytest.raises(MoveSyntaxError, match=words):
        ShobuJsonProtocol().decode_reply(raw)


def test_checkers_opening_and_turn_lines() -> None:
    game = get_game("checkers")
    proto = CheckersLineProtocol()
    assert proto.opening(Color.WHITE, 60000) == b"60000\nwhite\n"
    data = proto.encode_turn(game, game.initial_state(), 59458).decode()
    lines = data.split("\n")
    assert lines[0] == "59458" and lines[1] == ". b . b . b . b" and lines[8] == "w . w . w . w ." and lines[9] == ""


def test_checkers_reply_reading_is_tolerant_and_strict_about_bytes() -> None:
    proto = CheckersLineProtocol()
    assert proto.decode_reply(b"  2 3 2   2 3 \r") == "2 3 2 2 3"
    with pytest.raises(MoveSyntaxError, match="empty"):
        proto.decode_reply(b" \r")
    with pytest.raises(MoveSyntaxError, match="UTF-8"):
        proto.decode_reply(b"2 3 \xc3\x28")


# A scripted fake bot: for each turn, read a fixed number of lines into a transcript file, then
# write the scripted reply bytes. argv: transcript path, JSON list of [lines_to_read, reply].
SCRIPTED_BOT = r"""
import json, sys
path, script = sys.argv[1], json.loads(sys.argv[2])
with open(path, "wb") as transcript:
    for lines, reply in script:
        for _ in range(lines):
            transcript.write(sys.stdin.buffer.readline())
        transcript.flush()
        sys.stdout.buffer.write(reply.encode("latin-1"))
        sys.stdout.buffer.flush()
    sys.stdin.buffer.read()
"""


def _scripted(tmp_path: Path, script: list[tuple[int, str]]) -> tuple[list[str], Path]:
    transcript = bot_writable(tmp_path / "bot") / "transcript.txt"
    return [sys.executable, "-u", "-c", SCRIPTED_BOT, str(transcript), json.dumps(script)], transcript


def _clock(left: float, first: bool, ply: int) -> ClockView:
    return ClockView(time_limit_ms=60000, time_left_ms=left, allowance_s=5.0, first_move=first, ply=ply)


async def test_checkers_bot_gets_opening_once_then_clock_and_board(tmp_path: Path) -> None:
    game = get_game("checkers")
    argv, transcript = _scripted(tmp_path, [(11, "2 3 2 2 3\r\n"), (9, "3 1 2 3 4 5 6\n"), (9, "garbage\n")])
    state = game.initial_state()
    async with ProcessPlayer("s", Color.BLACK, game, argv) as player:
        first = await player.request_move(state, _clock(60000, True, 0))
        second = await player.request_move(state, _clock(59458.7, False, 2))
        third = await player.request_move(state, _clock(100, False, 4))
    assert (first.wire, first.raw) == ("2 3 2 2 3", b"2 3 2 2 3\r")
    assert second.wire == "3 1 2 3 4 5 6" and third.wire == "garbage"
    assert first.received_at >= first.sent_at
    board = "".join(line + "\n" for line in game.board_lines(state))
    assert transcript.read_text() == "60000\nblack\n60000\n" + board + "59458\n" + board + "100\n" + board
    assert player.stderr_text() is None


async def test_shobu_bot_gets_seed_messages_and_may_pretty_print(tmp_path: Path) -> None:
    game = get_game("shobu")
    pretty = json.dumps({"type": "turn", "payload": SHOBU_REPLY}, indent=2) + "\n"
    argv, transcript = _scripted(tmp_path, [(1, pretty), (1, "\n\n" + json.dumps({"type": "turn", "payload": SHOBU_REPLY}))])
    state = game.initial_state()
    async with ProcessPlayer("s", Color.BLACK, game, argv) as player:
        first = await player.request_move(state, _clock(60000, True, 0))
        second = await player.request_move(state, _clock(60000, False, 0))
    assert first.fault is None and first.wire == SHOBU_REPLY
    assert second.wire == SHOBU_REPLY
    message = orjson.dumps({"type": "game_state", "payload": game.state_to_json(state)}).decode() + "\n"
    assert transcript.read_text() == message * 2


async def test_fake_bot_faults_become_replies_not_exceptions(tmp_path: Path) -> None:
    game = get_game("shobu")
    argv, _ = _scripted(tmp_path, [(1, '{"type": "turn"}\n'), (1, "x")])
    async with ProcessPlayer("s", Color.WHITE, game, argv) as player:
        malformed = await player.request_move(game.initial_state(), _clock(1000, True, 0))
        quick = ClockView(time_limit_ms=1000, time_left_ms=1000, allowance_s=0.2, first_move=False, ply=1)
        timeout = await player.request_move(game.initial_state(), quick)
    assert malformed.fault is not None and malformed.fault.termination is Termination.MALFORMED_REPLY
    assert timeout.fault is not None and timeout.fault.termination is Termination.TIMEOUT
    assert timeout.fault.partial == b"x"
    assert 0.19 <= timeout.received_at - timeout.sent_at < 1.0


async def test_player_closes_even_when_cancelled(tmp_path: Path) -> None:
    game = get_game("shobu")
    argv, _ = _scripted(tmp_path, [(1, "")])
    with trio.move_on_after(0.3):
        async with ProcessPlayer("s", Color.WHITE, game, argv) as player:
            await player.request_move(game.initial_state(), _clock(60000, True, 0))
    assert player._bot is not None and player._bot.proc.returncode is not None
    assert shlex.split(player.command or "")[0] == sys.executable
