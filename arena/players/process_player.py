"""A player that is a bot process speaking one of the wire protocols."""

from __future__ import annotations

import contextlib
import shlex
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import trio

from arena.games.base import Color, Game, MoveSyntaxError, Termination
from arena.players.base import ClockView, MoveReply, Player
from arena.process import (
    DEFAULT_KILL_GRACE_S,
    DEFAULT_MAX_REPLY_BYTES,
    BotGone,
    BotProcess,
    EndOfOutput,
    ReplyTooLong,
    StderrSink,
    open_bot_process,
)
from arena.protocols import Protocol, protocol_for, quote_raw

# How long to wait for an exit status after a bot's stdout closed, so the reason can name it.
EXIT_STATUS_WAIT_S = 0.5


class ProcessPlayer(Player):
    """Runs ``argv`` as a bot (own process group, stderr drained to ``stderr_path`` or a memory tail).

    ``command`` is the text shown in records. The process starts in ``start`` and is killed in
    ``aclose`` (SIGTERM to the group, ``kill_grace`` seconds, SIGKILL, reap).
    """

    def __init__(
        self,
        agent_id: str,
        color: Color,
        game: Game,
        argv: Sequence[str],
        *,
        command: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        stderr_path: Path | None = None,
        protocol: Protocol | None = None,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
        kill_grace: float = DEFAULT_KILL_GRACE_S,
        env: dict[str, str] | None = None,
    ) -> None:
        super().__init__(agent_id, color, command=command if command is not None else shlex.join(argv))
        self.game = game
        self.argv = list(argv)
        self.cwd = cwd
        self.protocol = protocol if protocol is not None else protocol_for(game.name)
        self.max_reply_bytes = max_reply_bytes
        self.kill_grace = kill_grace
        self.env = env
        self.sink = StderrSink(stderr_path)
        self._stack = contextlib.AsyncExitStack()
        self._bot: BotProcess | None = None
        self._opening_sent = False
        self._json_framing = self.protocol.framing == "json_object"

    async def start(self) -> None:
        self._bot = await self._stack.enter_async_context(
            open_bot_process(self.argv, cwd=self.cwd, stderr=self.sink, env=self.env, kill_grace=self.kill_grace)
        )

    async def aclose(self) -> None:
        # No shield scope of our own here: it would interleave with the process context's nursery.
        # open_bot_process shields its own teardown.
        try:
            await self._stack.aclose()
        finally:
            self.sink.close()

    def stderr_text(self) -> str | None:
        text = self.sink.text()
        return text if text else None

    async def _died(self, what: str, partial: bytes, sent_at: float) -> MoveReply:
        assert self._bot is not None
        status = await self._bot.exit_description(EXIT_STATUS_WAIT_S)
        detail = f"{status} {what}"
        if partial.strip():
            detail += f" (it had sent {quote_raw(partial)})"
        return MoveReply.failed(Termination.CRASH, detail, sent_at=sent_at, received_at=trio.current_time(),
                                partial=partial)

    enforces_allowance = True

    async def request_move(self, state: Any, clock: ClockView, *,
                           state_json: dict[str, Any] | None = None) -> MoveReply:
        bot = self._bot
        if bot is None:
            raise RuntimeError("request_move before start")
        data = self.protocol.encode_turn(self.game, state, int(clock.time_left_ms), state_json)
        if not self._opening_sent:
            self._opening_sent = True
            data = self.protocol.opening(self.color, clock.time_limit_ms) + data
        begun = trio.current_time()
        sent_at = begun
        writing = True
        # One cancel scope for the turn (they cost real time at thousands of plies per second). The
        # write gets the same allowance as the read, so a bot that stops reading cannot block us;
        # once the input is delivered the deadline moves to sent_at + allowance.
        with trio.move_on_at(begun + clock.allowance_s) as scope:
            try:
                await bot.send(data)
            except BotGone:
                return await self._died("before reading its input", bot.pending(), begun)
            writing = False
            sent_at = trio.current_time()
            scope.deadline = sent_at + clock.allowance_s
            try:
                if self._json_framing:
                    raw = await bot.read_json_object(self.max_reply_bytes)
                else:
                    raw = await bot.read_line(self.max_reply_bytes)
            except EndOfOutput as eof:
                return await self._died("before replying", eof.partial, sent_at)
            except ReplyTooLong as too_long:
                return MoveReply.failed(
                    Termination.MALFORMED_REPLY,
                    f"sent a reply longer than {too_long.limit} bytes, starting {quote_raw(too_long.head, 60)}",
                    sent_at=sent_at, received_at=trio.current_time(),
                )
            received_at = trio.current_time()
            try:
                wire = self.protocol.decode_reply(raw)
            except MoveSyntaxError as exc:
                return MoveReply.failed(Termination.MALFORMED_REPLY, f"sent a malformed reply: {exc}",
                                        sent_at=sent_at, received_at=received_at)
            return MoveReply(wire=wire, raw=raw, sent_at=sent_at, received_at=received_at)
        now = trio.current_time()
        if writing:
            return MoveReply.failed(Termination.TIMEOUT, "did not read its input in time", sent_at=begun,
                                    received_at=now)
        return MoveReply.failed(Termination.TIMEOUT, "did not reply in time", sent_at=sent_at,
                                received_at=now, partial=bot.pending())
