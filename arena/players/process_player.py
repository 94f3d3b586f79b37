"""A player that is a bot process speaking one of the wire protocols.

Each turn the input is written under a deadline of (start of the write + allowance) and the reply
read under one of (input fully written + allowance); time is charged from the input fully written
to the reply read. The deadline is the match's shared cancel scope (``shares_turn_deadline``):
entering a scope per turn cost about 20 us a ply, ~19% of arena's CPU per ply against instant bots
(``bench/engine_overhead.py --cpu-only``, with ``shares_turn_deadline = False`` for comparison).

Without pondering (``ponder=False``, the default; :mod:`arena.isolation`) the bot's process group is
stopped (SIGSTOP) from the moment it starts and again as soon as each reply is read, and continued
(SIGCONT) just before its next input is written: two ``killpg`` calls a turn. So it starts up
inside its own first-move allowance, and neither it nor its children use the CPU while the
opponent's clock runs.
"""

from __future__ import annotations

import contextlib
import math
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import trio

from arena.errors import ResourceError
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
        ponder: bool = False,
        sandbox: bool = False,
        logs_dir: Path | None = None,
    ) -> None:
        super().__init__(agent_id, color, command=command if command is not None else shlex.join(argv))
        self.game = game
        self.argv = list(argv)
        self.cwd = cwd
        self.protocol = protocol if protocol is not None else protocol_for(game.name)
        self.max_reply_bytes = max_reply_bytes
        self.kill_grace = kill_grace
        self.env = env
        self.ponder = ponder
        self.sandbox = sandbox
        self.logs_dir = logs_dir
        self.who = f"the {color.value} bot {agent_id!r}"
        self.sink = StderrSink(stderr_path, who=self.who)
        self._stack = contextlib.AsyncExitStack()
        self._bot: BotProcess | None = None
        self._opening_sent = False
        self._json_framing = self.protocol.framing == "json_object"
        # Where the current turn stands, for timed_out_reply.
        self._writing = False
        self._begun = 0.0
        self._sent_at = 0.0

    async def start(self) -> None:
        self._bot = await self._stack.enter_async_context(
            open_bot_process(self.argv, cwd=self.cwd, stderr=self.sink, env=self.env, kill_grace=self.kill_grace,
                             stopped=not self.ponder, sandbox=self.sandbox, logs_dir=self.logs_dir, who=self.who)
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

    def arena_failure(self) -> ResourceError | None:
        return self.sink.failure

    async def _died(self, what: str, partial: bytes, sent_at: float) -> MoveReply:
        assert self._bot is not None
        status = await self._bot.exit_description(EXIT_STATUS_WAIT_S)
        detail = f"{status} {what}"
        if partial.strip():
            detail += f" (it had sent {quote_raw(partial)})"
        return MoveReply.failed(Termination.CRASH, detail, sent_at=sent_at, received_at=trio.current_time(),
                                partial=partial)

    enforces_allowance = True
    shares_turn_deadline = True

    async def request_move(self, state: Any, clock: ClockView, *,
                           state_json: dict[str, Any] | None = None) -> MoveReply:
        with trio.CancelScope() as scope:
            return await self.request_move_under(scope, state, clock, state_json=state_json)
        return self.timed_out_reply(trio.current_time())

    def timed_out_reply(self, now: float) -> MoveReply:
        if self._writing:
            return MoveReply.failed(Termination.TIMEOUT, "did not read its input in time", sent_at=self._begun,
                                    received_at=now)
        assert self._bot is not None
        return MoveReply.failed(Termination.TIMEOUT, "did not reply in time", sent_at=self._sent_at,
                                received_at=now, partial=self._bot.pending())

    async def request_move_under(self, scope: trio.CancelScope, state: Any, clock: ClockView, *,
                                 state_json: dict[str, Any] | None = None) -> MoveReply:
        bot = self._bot
        if bot is None:
            raise RuntimeError("request_move before start")
        data = self.protocol.encode_turn(self.game, state, int(clock.time_left_ms), state_json)
        if not self._opening_sent:
            self._opening_sent = True
            data = self.protocol.opening(self.color, clock.time_limit_ms) + data
        now = trio.current_time
        allowance = clock.allowance_s
        # The write goes under the same allowance as the read, so a bot that stops reading cannot
        # block us. A stopped bot (no pondering) is continued first: it must be able to drain the pipe.
        self._writing = True
        begun = self._begun = now()
        scope.deadline = begun + allowance
        try:
            if not self.ponder:
                bot.resume()
            await bot.send(data)
        except BotGone:
            scope.deadline = math.inf
            self._writing = False
            return await self._died("before reading its input", bot.pending(), now())
        self._writing = False
        sent_at = self._sent_at = now()
        scope.deadline = sent_at + allowance
        reader = bot.reader
        waits = reader.waits
        try:
            if self._json_framing:
                raw = await reader.read_json_object(self.max_reply_bytes)
            else:
                raw = await reader.read_line(self.max_reply_bytes)
        except EndOfOutput as eof:
            scope.deadline = math.inf
            return await self._died("before replying", eof.partial, sent_at)
        except ReplyTooLong as too_long:
            scope.deadline = math.inf
            return MoveReply.failed(
                Termination.MALFORMED_REPLY,
                f"sent a reply longer than {too_long.limit} bytes, starting {quote_raw(too_long.head, 60)}",
                sent_at=sent_at, received_at=now(),
            )
        received_at = now()
        if not self.ponder:
            bot.stop()
        # The deadline stays as it is: nothing waits before the next turn sets a new one, and a
        # deadline can only fire while we wait.
        if reader.waits == waits:
            # The reply was already there (the bot answered ahead of its input), so this turn gave
            # no other task a turn: yield, so such a bot cannot keep the rest of the run (other
            # games, Ctrl-C) waiting.
            scope.deadline = math.inf  # a reply read in time must not turn into a timeout here
            await trio.lowlevel.checkpoint()
        try:
            wire = self.protocol.decode_reply(raw)
        except MoveSyntaxError as exc:
            return MoveReply.failed(Termination.MALFORMED_REPLY, f"sent a malformed reply: {exc}",
                                    sent_at=sent_at, received_at=received_at, partial=raw)
        return MoveReply(wire, raw, None, sent_at, received_at)
