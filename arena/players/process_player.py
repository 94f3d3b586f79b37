"""A player that is a bot process speaking one of the wire protocols.

Each turn the input is written under a deadline of (start of the write + allowance) and the reply
read under one of (input fully written + allowance); time is charged from the input fully written
(and the bot continued) to the reply read. A write that the pipe takes at once, the usual case,
waits for nothing and needs no deadline: the turn then sets the deadline once. The deadline is the
match's shared cancel scope (``shares_turn_deadline``): entering a scope per turn cost about 20 us a
ply, ~19% of arena's CPU per ply against instant bots (``bench/engine_overhead.py --cpu-only``, with
``shares_turn_deadline = False`` for comparison).

Without pondering (``ponder=False``, the default; :mod:`arena.process.isolation`) the bot's process group is
stopped (SIGSTOP; its cgroup frozen where it has one) from the moment it starts and again as soon
as each reply is read (where it has a cgroup, only if it could run: asleep in the read of its next
input it is left alone, :mod:`arena.process.offturn`), and continued (SIGCONT; thawed) once its next input is in the pipe, or, when
the input does not fit in the pipe, once the pipe took what it could: two calls a turn. A stopped bot
is not waiting on the pipe, so the write does not wake it: it wakes once, at the continue, and finds
its input there (continued first, it woke twice: to wait for input, then at the write). It starts up
inside its own first-move allowance, and neither it nor its children use the CPU while the
opponent's clock runs.
"""

from __future__ import annotations

import contextlib
import math
import os
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import trio

from arena.errors import AGENT_ARENA_FAILURE_EXIT, ResourceError
from arena.games.base import Color, MoveSyntaxError, Termination
from arena.games.model import GeneralGame
from arena.players.base import ClockView, MoveReply, Player
from arena.process.bot import (
    DEFAULT_KILL_GRACE_S,
    DEFAULT_MAX_REPLY_BYTES,
    BotGone,
    BotProcess,
    EndOfOutput,
    ReplyTooLong,
    StderrSink,
    arena_run_delay_s,
    open_bot_process,
)
from arena.process.isolation import BotLimits
from arena.process.view import NO_REACH, Reach
from arena.protocols import Protocol, protocol_for, quote_raw

# How long to wait for an exit status after a bot's stdout closed, so the reason can name it.
EXIT_STATUS_WAIT_S = 0.5
# The fair clock: a turn's deadline moves later by the time the bot and arena waited for a CPU,
# up to twice its allowance plus this; each extension is at least MIN_EXTENSION_S.
WALL_CAP_EXTRA_S = 1.0
MIN_EXTENSION_S = 0.005
# A bot stuck waiting for input (it read all of its message and sleeps reading for more) cannot
# reply before its clock runs out: it is looked at every WAIT_LOOK_S of its turn, and seen so
# twice in a row, with no CPU used in between, it loses then rather than a minute later.
WAIT_LOOK_S = 0.5


class ProcessPlayer(Player):
    """Runs ``argv`` as a bot (own process group, stderr drained to ``stderr_path`` or a memory tail).

    ``command`` is the text shown in records. The process starts in ``start`` and is killed in
    ``aclose`` (SIGTERM to the group, ``kill_grace`` seconds, SIGKILL, reap).
    """

    def __init__(
        self,
        agent_id: str,
        color: Color,
        game: GeneralGame[Any, Any],
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
        sandbox: bool | str = False,
        logs_dir: Path | None = None,
        limits: BotLimits | None = None,
        arena_agent: bool = False,
        reach: Reach = NO_REACH,
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
        self.limits = limits
        # arena's own agent (kind hyperparameters): its exit AGENT_ARENA_FAILURE_EXIT is believed.
        self.arena_agent = arena_agent
        self._agent_failure: ResourceError | None = None
        self.reach = reach
        self.who = f"the {color.value} bot {agent_id!r}"
        self.sink = StderrSink(stderr_path, who=self.who)
        self._stack = contextlib.AsyncExitStack()
        self._bot: BotProcess | None = None
        self._opening_sent = False
        self._json_framing = self.protocol.framing == "json_object"
        #: CPU time all the bot's processes used, read at its end (None: not measured here).
        self.cpu_seconds: float | None = None
        # Bytes that arrived before their turn's input (dropped), and on how many turns.
        self.early_bytes = 0
        self.early_turns = 0
        self.early_sample = b""  # the first of them (blanks removed), for a reason or check-bot
        # Where the current turn stands, for timed_out_reply.
        self._writing = False
        self._begun = 0.0
        self._sent_at = 0.0
        # The fair clock (see grant_more_time): the turn's allowance, the bot's CPU time when its
        # input was written, and where the wait goes on when more time was granted.
        self._allowance_s = 0.0
        self._stall_at_input: float | None = None
        self._cpu_at_input: float | None = None
        self._own_stall_at_input = 0.0
        self._resume_at: float | None = None
        # Looks for a bot stuck waiting for input (see WAIT_LOOK_S): off once they cannot tell.
        self._can_look = True
        self._stuck_ticks: int | None = None  # its CPU ticks when last seen stuck
        self._stuck_for: float | None = None  # set when a turn ends so
        self._now: Callable[[], float] = trio.current_time  # until start() finds the run's clock

    async def start(self) -> None:
        # The run's clock itself, called a few times a turn: the same times as trio.current_time()
        # without its two layers of lookups.
        self._now = trio.lowlevel.current_clock().current_time
        self._bot = await self._stack.enter_async_context(
            open_bot_process(self.argv, cwd=self.cwd, stderr=self.sink, env=self.env, kill_grace=self.kill_grace,
                             stopped=not self.ponder, sandbox=self.sandbox, logs_dir=self.logs_dir, who=self.who,
                             limits=self.limits, reach=self.reach)
        )

    async def aclose(self) -> None:
        # No shield scope of our own here: it would interleave with the process context's nursery.
        # open_bot_process shields its own teardown.
        if self._bot is not None:
            self.cpu_seconds = self._bot.cpu_seconds()  # before teardown gives its cgroup back
        try:
            await self._stack.aclose()
        finally:
            self.sink.close()

    def fault_note(self) -> str:
        if not self.early_turns:
            return ""
        return (f"; it also wrote {self.early_bytes} bytes before its turn's input on {self.early_turns} "
                f"turn{'s' if self.early_turns > 1 else ''} (dropped: a reply cannot precede its question)")

    def stderr_text(self) -> str | None:
        text = self.sink.text()
        return text if text else None

    def arena_failure(self) -> ResourceError | None:
        return self.sink.failure or self._agent_failure

    async def _died(self, what: str, partial: bytes, sent_at: float) -> MoveReply:
        bot = self._bot
        assert bot is not None
        status = await bot.exit_description(EXIT_STATUS_WAIT_S)
        if bot.proc.returncode is not None:
            # It has exited, but what it wrote to stderr last may still be in the pipe: read it to
            # the end, so a crash reason quotes its last line (bounded: a child of it may hold the
            # pipe open).
            with trio.move_on_after(EXIT_STATUS_WAIT_S):
                await bot.drained.wait()
        if self.arena_agent and bot.proc.returncode == AGENT_ARENA_FAILURE_EXIT:
            # It stopped for arena's reasons (its referee copy failed): the game is no one's loss.
            said = [line for line in self.sink.text().splitlines() if "arena_error" in line]
            self._agent_failure = ResourceError(
                f"{self.who} (arena's own agent) stopped for arena's reasons"
                f"{': ' + said[-1].split('arena_error: ', 1)[-1] if said else ''}")
        termination = Termination.CRASH
        detail = f"{status} {what}"
        if bot.memory_exceeded():
            termination = Termination.MEMORY_LIMIT
            detail = self._memory_detail(f"({status} {what})")
        if bot.task_limit_hit():
            limit = self.limits.max_processes if self.limits is not None else None
            detail += f"; it tried to run more processes and threads than its limit{f' ({limit})' if limit else ''}"
        if partial.strip():
            detail += f" (it had sent {quote_raw(partial)})"
        return MoveReply.failed(termination, detail, sent_at=sent_at, received_at=trio.current_time(),
                                partial=partial)

    enforces_allowance = True
    shares_turn_deadline = True

    async def request_move(self, state: Any, clock: ClockView, *,
                           state_json: dict[str, Any] | None = None) -> MoveReply:
        with trio.CancelScope() as scope:
            return await self.request_move_under(scope, state, clock, state_json=state_json)
        return self.timed_out_reply(trio.current_time())

    def _memory_detail(self, what: str) -> str:
        limit = self.limits.memory_mb if self.limits is not None else None
        return f"used more than its memory limit{f' ({limit} MiB)' if limit else ''}: the kernel killed a process of it {what}"

    def turn_stall_s(self) -> float | None:
        """How long, since this turn's input was written, the bot waited for a CPU it was owed,
        plus how long arena itself did (None: not measured here). Not the bot's doing.

        A bot is owed one CPU, and is never charged less than the CPU it used: its cgroup's CPU
        pressure (time some process of it waited for a CPU) and arena's own run delay count only up
        to the CPU it did not get, the turn's time so far less the CPU time all its processes used.
        A bot that runs many busy processes of its own raises its own pressure while using a CPU or
        more: it gains nothing from it. A single process that waits only because the machine is
        busy is credited its whole wait (its time is its CPU time plus the wait). (Pressure alone
        gave a bot of six busy processes 89% of its turn back.)"""
        if self._bot is None or self._stall_at_input is None or self._cpu_at_input is None:
            return None
        stalled, cpu = self._bot.stall_seconds(), self._bot.cpu_seconds()
        if stalled is None or cpu is None:
            return None
        own = max(0.0, arena_run_delay_s() - self._own_stall_at_input)
        waited = max(0.0, stalled - self._stall_at_input) + own
        return max(0.0, min(waited, self._now() - self._begun - (cpu - self._cpu_at_input)))

    def grant_more_time(self, now: float) -> bool:
        """Called when the turn's wall-clock deadline passed: True (and the next
        :meth:`request_move_under` goes on waiting for the same reply) when stalls that were not
        the bot's doing (:meth:`turn_stall_s`) push its deadline later than now, within the
        wall-clock cap (twice the allowance plus a second)."""
        if self._writing:
            return False
        if now < self._sent_at + self._allowance_s:
            return self._look_for_waiting(now)  # a look, not the deadline (see WAIT_LOOK_S)
        stall = self.turn_stall_s()
        if stall is None:
            return False
        cap = self._sent_at + 2 * self._allowance_s + WALL_CAP_EXTRA_S
        deadline = min(cap, self._sent_at + self._allowance_s + stall)
        if deadline <= now:
            return False
        self._resume_at = max(deadline, now + MIN_EXTENSION_S)
        return True

    def _look_for_waiting(self, now: float) -> bool:
        """At a look before the turn's deadline: True (and the wait goes on, to the next look or the
        deadline) unless the bot is stuck waiting for input (then ``_stuck_for`` is set)."""
        bot = self._bot
        if bot is None:
            return False
        deadline = self._sent_at + self._allowance_s
        if not self._can_look:  # a look set before they were found not to tell: wait to the deadline
            self._resume_at = deadline
            return True
        stuck, ticks = bot.waiting_for_input()
        if stuck is None:
            self._can_look = False
        elif stuck and ticks == self._stuck_ticks and not bot.pending():
            self._stuck_for = now - self._sent_at
            return False
        self._stuck_ticks = ticks if stuck else None
        self._resume_at = min(deadline, now + WAIT_LOOK_S) if self._can_look else deadline
        return True

    def timed_out_reply(self, now: float) -> MoveReply:
        if self._stuck_for is not None:
            return MoveReply.failed(Termination.TIMEOUT, f"read all of its input and then waited {self._stuck_for:.1f} s "
                                    "for more, sending nothing: it cannot reply (it was ended then rather than when "
                                    "its clock ran out)", sent_at=self._sent_at, received_at=now, waiting=True)
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
        if self._resume_at is not None:  # the same turn, given more time (see grant_more_time)
            scope.deadline, self._resume_at = self._resume_at, None
            return await self._read_reply(bot, scope, self._sent_at)
        data = self.protocol.encode_turn(self.game, state, int(clock.time_left_ms), state_json)
        if not self._opening_sent:
            self._opening_sent = True
            data = self.protocol.opening(self.color, clock.time_limit_ms) + data
        now = self._now
        allowance = clock.allowance_s
        # The write goes under the same allowance as the read, so a bot that stops reading cannot
        # block us. A stopped bot (no pondering) is continued first: it must be able to drain the pipe.
        # A reply cannot precede its question: what the bot (or anyone) wrote since its last reply
        # is dropped, read while the bot is still stopped so nothing can slip in after this look.
        # A bot left running between its turns must not write early bytes now; its CPU time as
        # read for that (else None) is its CPU time at the input (one read of its cgroup less a ply).
        cpu_now = None if self.ponder else bot.before_input()
        early = bot.reader.discard_early()
        if early:
            self.early_bytes += len(early)
            self.early_turns += 1
            self.early_sample = self.early_sample or early[:60]
        self._writing = True
        begun = self._begun = now()
        self._allowance_s = allowance
        self._stall_at_input = bot.stall_seconds()
        if self._stall_at_input is None:
            self._cpu_at_input = None
        else:
            self._cpu_at_input = cpu_now if cpu_now is not None else bot.cpu_seconds()
        self._own_stall_at_input = arena_run_delay_s()
        try:
            # The input goes into the pipe while the bot is still stopped, then it is continued: a
            # stopped bot is not waiting on the pipe, so it wakes once (at the continue, finding its
            # input there) rather than twice (at the continue, to wait for input, then at the write).
            # The pipe nearly always takes the whole input at once: then nothing waited, so the
            # write needed no deadline (one fires only during a wait), and the turn sets the scope's
            # deadline once, not three times (each set costs a trio deadline-heap update).
            written = bot.send_nowait(data)
            if not self.ponder:
                bot.resume()  # before waiting for room in the pipe: it must be able to drain it
            if written < len(data):
                scope.deadline = begun + allowance
                await bot.send(memoryview(data)[written:])
        except BotGone:
            scope.deadline = math.inf
            self._writing = False
            return await self._died("before reading its input", bot.pending(), now())
        self._writing = False
        sent_at = self._sent_at = now()
        self._stuck_ticks = self._stuck_for = None
        if self._can_look and allowance > 2 * WAIT_LOOK_S:
            scope.deadline = sent_at + WAIT_LOOK_S  # the first look (see grant_more_time)
        else:
            scope.deadline = sent_at + allowance
        return await self._read_reply(bot, scope, sent_at)

    async def _read_reply(self, bot: BotProcess, scope: trio.CancelScope, sent_at: float) -> MoveReply:
        now = self._now
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
                Termination.OUTPUT_LIMIT,
                f"sent a reply longer than {too_long.limit} bytes, starting {quote_raw(too_long.head, 60)}",
                sent_at=sent_at, received_at=now(),
            )
        received_at = now()
        if not self.ponder:
            bot.rest()  # frozen if it could think on the opponent's time; asleep reading, left alone
        if bot.memory_exceeded():
            # One of its processes was killed for memory, even if the one that replied lives on:
            # past its limit is past its limit (a judge's MLE), whatever it replied.
            return MoveReply.failed(Termination.MEMORY_LIMIT, self._memory_detail("(before this reply)"),
                                    sent_at=sent_at, received_at=received_at, partial=raw)
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
