"""The turn path: the reader on a raw descriptor, writes under the caller's deadline, the JSON
reader's one-line fast path, the yield for bots that answer ahead, and the match's shared deadline
scope."""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import trio
import trio.lowlevel
import trio.testing

from arena.games import Color, Termination, get_game
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.base import ClockView, MoveReply, Player
from arena.players.process_player import ProcessPlayer
from arena.players.spec import AgentSpec
from arena.process.bot import EndOfOutput, ReplyReader, ReplyTooLong, open_bot_process
from arena.protocols.shobu_json import ShobuJsonProtocol


class _Pipe:
    """The write end of a pipe whose read end a reader in descriptor mode watches."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    async def feed(self, chunks: list[bytes], close: bool = True) -> None:
        for chunk in chunks:
            os.write(self.fd, chunk)
            await trio.sleep(0.002)  # let the reader see each chunk on its own
        if close:
            self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


@asynccontextmanager
async def _fd_reader() -> AsyncIterator[tuple[_Pipe, ReplyReader]]:
    """A reader in descriptor mode on a fresh pipe, and the pipe's write end."""
    read_fd, write_fd = os.pipe()
    stream = trio.lowlevel.FdStream(read_fd)  # owns read_fd and makes it non-blocking
    pipe = _Pipe(write_fd)
    try:
        yield pipe, ReplyReader(stream, stream.fileno())
    finally:
        pipe.close()
        await stream.aclose()


async def test_fd_reader_lines_split_across_chunks_and_several_in_one() -> None:
    async with _fd_reader() as (pipe, reader), trio.open_nursery() as nursery:
        nursery.start_soon(pipe.feed, [b"2 3 2", b" 2 3\nsecond\nthird", b" line\r\n", b"last"])
        lines = [await reader.read_line() for _ in range(3)]
        with pytest.raises(EndOfOutput) as info:
            await reader.read_line()
    assert lines == [b"2 3 2 2 3", b"second", b"third line\r"]
    assert info.value.partial == b"last"
    assert reader.waits >= 3  # it waited for the split chunks rather than spinning


async def test_fd_reader_json_objects_split_or_together() -> None:
    one = b'{"type": "turn", "payload": {"a": 1}}'
    pretty = b'{\n  "type": "turn",\n  "payload": {"s": "}\\"{"}\n}'
    stream = one + b"\n" + one + b"\n  " + pretty + b"\n" + one[:10]
    async with _fd_reader() as (pipe, reader), trio.open_nursery() as nursery:
        nursery.start_soon(pipe.feed, [stream[:50], stream[50:51], stream[51:]])
        first = await reader.read_json_object()
        second = await reader.read_json_object()
        third = await reader.read_json_object()
        with pytest.raises(EndOfOutput) as info:
            await reader.read_json_object()
    assert (first, second, third) == (one, one, pretty)
    assert info.value.partial == one[:10]


async def test_fd_reader_oversize_reply_is_an_error_and_memory_stays_bounded() -> None:
    async with _fd_reader() as (pipe, reader), trio.open_nursery() as nursery:
        nursery.start_soon(pipe.feed, [b"y" * 30_000, b"y" * 30_000], False)
        with pytest.raises(ReplyTooLong) as info:
            await reader.read_line(5000)
        nursery.cancel_scope.cancel()
    assert info.value.limit == 5000 and reader.pending() == b""


async def test_fd_reader_line_over_the_limit_in_one_chunk_with_its_newline() -> None:
    async with _fd_reader() as (pipe, reader):
        os.write(pipe.fd, b'{"a": "' + b"z" * 3000 + b'"}\nok\n')
        with pytest.raises(ReplyTooLong):
            await reader.read_json_object(1000)


def _py(code: str) -> list[str]:
    return [sys.executable, "-u", "-c", code]


async def test_send_nowait_takes_what_fits_and_send_waits_under_the_callers_deadline() -> None:
    async with open_bot_process(_py("import time; time.sleep(30)"), kill_grace=0.05) as bot:
        written = bot.send_nowait(b"x" * 1_000_000)
        assert 0 < written < 1_000_000  # the pipe took part of it, without waiting
        with trio.move_on_after(0.2) as scope:
            await bot.send(b"x" * 1_000_000)
        assert scope.cancelled_caught


def _scripted_ahead(replies: int) -> list[str]:
    """A Shobu bot that writes ``replies`` replies at once, before reading anything, then sleeps."""
    line = json.dumps({"type": "turn", "payload": {"passive": {}, "aggressive": {}}}) + "\n"
    return _py(f"import sys, time\nsys.stdout.write({line * replies!r})\nsys.stdout.flush()\ntime.sleep(30)\n")


async def test_replies_written_ahead_of_their_turn_are_dropped_and_noted() -> None:
    # A reply cannot precede its question: a bot that writes many replies at once gets the first
    # read, and the rest are dropped at its next turn (which then waits for a real reply).
    game = get_game("shobu")
    view = ClockView(time_limit_ms=60000, time_left_ms=60000, allowance_s=0.3, first_move=False, ply=0)
    async with ProcessPlayer("ahead", Color.BLACK, game, _scripted_ahead(200), kill_grace=0.05) as player:
        first = await player.request_move(game.initial_state(), view)
        assert first.fault is None
        second = await player.request_move(game.initial_state(), view)
        assert second.fault is not None and second.fault.termination is Termination.TIMEOUT
        assert player.early_turns == 1 and player.early_bytes > 100
        assert "before its turn's input on 1 turn (dropped" in player.fault_note()


# -- the match's shared deadline scope ------------------------------------------------------------

SHOBU = get_game("shobu")


class _TablePlayer(Player):
    """In-process player answering the first legal move; ``mode`` picks how it treats the deadline."""

    enforces_allowance = True

    def __init__(self, agent_id: str, color: Color, mode: str) -> None:
        super().__init__(agent_id, color)
        self.mode = mode
        self.shares_turn_deadline = mode != "own"
        self.turns = 0

    async def start(self) -> None:
        pass

    async def aclose(self) -> None:
        pass

    def _reply(self, state: Any) -> MoveReply:
        now = trio.current_time()
        wire = SHOBU.move_to_wire(SHOBU.legal_moves(state)[0])
        return MoveReply(wire=wire, raw=b"x", sent_at=now, received_at=now)

    async def request_move(self, state: Any, clock: ClockView, *, state_json: Any = None) -> MoveReply:
        await trio.sleep(0.05)  # longer than the deadline the other side left behind
        return self._reply(state)

    async def request_move_under(self, scope: trio.CancelScope, state: Any, clock: ClockView, *,
                                 state_json: Any = None) -> MoveReply:
        self.turns += 1
        if self.mode == "stale":
            # As if the deadline had fired in the same scheduler pass as the reply, which came just
            # within the allowance: the scope is cancelled but nothing was raised.
            scope.deadline = trio.current_time() + 1.0
            await trio.lowlevel.checkpoint()  # the wait for the reply
            reply = self._reply(state)
            if self.turns == 2:
                scope.cancel()
                return reply._replace(sent_at=reply.received_at - clock.allowance_s + 0.0005)
            return reply
        if self.mode == "short" or self.turns < 3:
            scope.deadline = trio.current_time() + 0.01  # left set on return, as allowed
            await trio.lowlevel.checkpoint()
            return self._reply(state)
        scope.deadline = trio.current_time() + 0.05
        await trio.sleep(10)  # "silent": the match's scope must cut this short
        raise AssertionError("not reached")

    def timed_out_reply(self, now: float) -> MoveReply:
        return MoveReply.failed(Termination.TIMEOUT, "did not reply in time (table player)", sent_at=now - 0.05,
                                received_at=now)


async def _play(monkeypatch: pytest.MonkeyPatch, modes: dict[Color, str], max_moves: int) -> dict[str, Any]:
    """A game of two in-process players; the tests run it on trio's mock clock (``autojump_clock``),
    so the players' 10-50 ms deadlines are never overrun by a busy machine."""
    import arena.match.progress as match_module

    monkeypatch.setattr(match_module, "make_player",
                        lambda spec, game, color, **_: _TablePlayer(spec.id, color, modes[color]))
    tc = TimeControl(time_limit_ms=60000, time_margin_ms=50, startup_ms=0)
    return await play_game(configured_game("shobu"), AgentSpec("b"), AgentSpec("w"), time_control=tc, max_moves=max_moves)


async def test_stale_scope_after_a_good_reply_is_replaced_not_a_timeout(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock,
) -> None:
    record = await _play(monkeypatch, {Color.BLACK: "stale", Color.WHITE: "stale"}, 8)
    assert record["termination"] == "max_moves", record["reason"]


async def test_deadline_left_by_a_sharing_player_does_not_cut_the_other_player(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock,
) -> None:
    record = await _play(monkeypatch, {Color.BLACK: "short", Color.WHITE: "own"}, 6)
    assert record["termination"] == "max_moves", record["reason"]


async def test_shared_deadline_timeout_is_judged_for_the_player_whose_turn_it_was(
    monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock,
) -> None:
    # On trio's mock clock: time moves only when every task waits, so the 10 ms deadline a player
    # leaves behind is never overrun by a busy machine between its setting and the reply (it was,
    # once in CI, beside a busy loop: white timed out on its first, not its third, turn).
    with trio.fail_after(5):
        record = await _play(monkeypatch, {Color.BLACK: "short", Color.WHITE: "silent"}, 20)
    assert record["termination"] == "timeout" and record["winner"] == "BLACK", record["reason"]
    assert "WHITE bot 'w' did not reply within" in record["reason"]
    assert record["plies"] == 5  # white's third turn was the silent one
    assert not math.isinf(record["clocks_left_ms"][1])


class _HugeTurnProtocol(ShobuJsonProtocol):
    """Shobu, but each turn's input is far bigger than a pipe holds."""

    def encode_turn(self, game: Any, state: Any, time_left_ms: int, state_json: Any = None) -> bytes:
        return b" " * 2_000_000 + super().encode_turn(game, state, time_left_ms, state_json)


async def test_a_bot_that_stops_reading_times_out_on_the_write_then_on_the_read() -> None:
    game = get_game("shobu")
    # Reads nothing for 0.6 s, then reads everything but never answers.
    argv = _py("import sys, time\ntime.sleep(0.6)\nwhile sys.stdin.buffer.read(65536): pass\ntime.sleep(30)\n")
    view = ClockView(time_limit_ms=1000, time_left_ms=1000, allowance_s=0.2, first_move=False, ply=0)
    player = ProcessPlayer("deaf", Color.BLACK, game, argv, protocol=_HugeTurnProtocol(), kill_grace=0.05)
    async with player:
        begun = trio.current_time()
        blocked = await player.request_move(game.initial_state(), view)
        assert blocked.fault is not None and blocked.fault.termination is Termination.TIMEOUT
        assert blocked.fault.detail == "did not read its input in time"
        assert 0.19 <= trio.current_time() - begun < 0.5
        await trio.sleep(0.6)
        silent = await player.request_move(game.initial_state(), view._replace(allowance_s=0.5))
    assert silent.fault is not None and silent.fault.detail == "did not reply in time"
    assert 0.49 <= silent.received_at - silent.sent_at < 1.0
