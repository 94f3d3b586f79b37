"""One game between two agents: turns, clocks, judging replies, the outcome and the record.

:func:`play_game` is the engine's entry point. It never raises for a bot's misbehaviour: every fault
becomes the record's ``termination`` (see :mod:`arena.records.format`). If the surrounding scope is
cancelled (Ctrl-C, a tournament stopping) both bots are killed, shielded, and ``trio.Cancelled``
propagates: an interrupted game has no record.

Time (arena.md "Time"): each bot has ``time_limit_ms`` for the whole game, charged from the moment a
turn's input is fully written until the reply is read. A reply later than time left + margin (capped
by ``move_time_limit_ms`` if set) loses on time; the margin is never added to the budget. A bot's
first reply gets ``startup_ms`` on top, uncharged. ``increment_ms`` is added after each move.

A game's progress (state, turns, clocks, the players' entries, the outcome) is one object,
:class:`_Progress`, from which the record is built; the turn loop (:class:`_Turns`) moves it on.

Speed: the turn loop runs many turns under one cancel scope whose deadline the
players move (``Player.shares_turn_deadline``): a scope per turn cost ~20 us a ply, ~19% of arena's
CPU per ply against instant bots (``bench/engine_overhead.py --cpu-only``, with the process player's
``shares_turn_deadline`` set to False for comparison). The loop has no other speed tricks.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import trio

from arena.errors import BotError
from arena.games.base import (
    Color,
    Game,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    Termination,
    cap_text,
    random_opening_moves,
)
from arena.limits import DEFAULT_STARTUP_MS, DEFAULT_TIME_LIMIT_MS, DEFAULT_TIME_MARGIN_MS
from arena.match.hints import command_hint, first_crash_hint, reply_hint, stdout_noise_hint, timeout_hint, waiting_hint
from arena.players import make_player
from arena.players.base import ClockView, MoveReply, Player
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.protocols import quote_raw
from arena.records.format import build_record, player_entry, turn_entry, utc_now_iso
from arena.records.types import PlayerEntry

# Past the allowance, the match stops waiting for a player even if the player itself does not.
_BACKSTOP_SLACK_S = 2.0


@dataclass(frozen=True)
class TimeControl:
    """Clock settings, in milliseconds (see the module docstring)."""

    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS
    time_margin_ms: int = DEFAULT_TIME_MARGIN_MS
    startup_ms: int = DEFAULT_STARTUP_MS
    move_time_limit_ms: int | None = None
    increment_ms: int = 0

    def to_json(self) -> dict[str, Any]:
        """The record's ``time_control`` object (config-file spelling)."""
        return {
            "timeLimit": self.time_limit_ms,
            "timeMargin": self.time_margin_ms,
            "startupTime": self.startup_ms,
            "moveTimeLimit": self.move_time_limit_ms,
            "increment": self.increment_ms,
        }


class GameClock:
    """One side's clock. The only place where time is charged."""

    def __init__(self, tc: TimeControl) -> None:
        self.tc = tc
        self.left_ms: float = float(tc.time_limit_ms)
        self.moves = 0

    def _cap_ms(self) -> float:
        cap = self.left_ms
        if self.tc.move_time_limit_ms is not None:
            cap = min(cap, float(self.tc.move_time_limit_ms))
        return cap

    def allowance_ms(self) -> float:
        """How long the next reply may take (margin and, for the first move, start-up included)."""
        allowance = self._cap_ms() + self.tc.time_margin_ms
        if self.moves == 0:
            allowance += self.tc.startup_ms
        return allowance

    def view(self, ply: int, allowance_ms: float | None = None) -> ClockView:
        """What the player sees of this clock; ``allowance_ms`` is :meth:`allowance_ms` when the
        caller has it already."""
        if allowance_ms is None:
            allowance_ms = self.allowance_ms()
        return ClockView(self.tc.time_limit_ms, self.left_ms, allowance_ms / 1000.0, self.moves == 0, ply)

    def thinking_ms(self, elapsed_s: float) -> float:
        """The chargeable part of a reply that took ``elapsed_s`` (start-up allowance removed)."""
        elapsed_ms = max(0.0, elapsed_s * 1000.0)
        if self.moves == 0:
            elapsed_ms -= self.tc.startup_ms
        return max(0.0, elapsed_ms)

    def is_late(self, thinking_ms: float) -> bool:
        """Whether that much thinking exceeds time left (or the move cap) plus the margin."""
        return thinking_ms > self._cap_ms() + self.tc.time_margin_ms

    def charge(self, thinking_ms: float) -> None:
        """Take ``thinking_ms`` off the budget (never below 0: the margin is not credit), add the
        increment."""
        self.moves += 1
        self.left_ms = max(0.0, self.left_ms - thinking_ms) + self.tc.increment_ms


# -- observer events ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    game: Game
    state: Any
    players: dict[Color, AgentSpec]
    game_index: int | None


# Not frozen, with slots: built every ply an observer watches (a tournament's live/ trace), and a
# frozen dataclass's __init__ costs about 3 us more than this one's (bench/live_trace.py).
@dataclass(slots=True)
class MovePlayed:
    game: Game
    ply: int
    color: Color
    agent_id: str
    move_text: str
    state: Any
    charged_ms: float
    clocks_left_ms: dict[Color, float]
    game_index: int | None


@dataclass(frozen=True)
class GameEnded:
    game: Game
    state: Any
    record: dict[str, Any]
    game_index: int | None


Observer = Callable[[Any], None]


def _who(color: Color, spec: AgentSpec) -> str:
    kind = "player" if spec.is_human else "bot"  # a human at the terminal is not a bot
    return f"{color.value} {kind} {spec.id!r}"


def _rules_outcome(ruled: Outcome, to_move: Color, specs: dict[Color, AgentSpec]) -> Outcome:
    """The game's own outcome ``ruled`` with a reason that names the bot."""
    if ruled.termination is Termination.NO_LEGAL_MOVES:
        reason = f"{_who(to_move, specs[to_move])} had no legal move and lost"
    elif ruled.winner is not None:
        reason = f"{_who(ruled.winner, specs[ruled.winner])} won by the rules"
    else:
        reason = "the game ended by the rules"
    if ruled.reason:
        reason += f": {ruled.reason}"
    return Outcome(ruled.termination, ruled.winner, reason)


def _timeout_reason(who: str, clock: GameClock, allowance_ms: float, elapsed_ms: float,
                    partial: bytes | None) -> str:
    """Why a bot lost on time; ``partial`` is what it had sent of its reply (None: it replied, late)."""
    parts = f"{clock.left_ms:.0f} ms left"
    if clock.tc.move_time_limit_ms is not None and clock.tc.move_time_limit_ms < clock.left_ms:
        parts = f"move limit {clock.tc.move_time_limit_ms} ms"
    parts += f" + {clock.tc.time_margin_ms} ms margin"
    if clock.moves == 0:
        parts += f" + {clock.tc.startup_ms} ms start-up"
    reason = f"{who} did not reply within {allowance_ms:.0f} ms ({parts}; waited {elapsed_ms:.0f} ms)"
    return reason + (timeout_hint(partial, clock.moves) if partial is not None else "")


def _stderr_hint(player: Player) -> str:
    """'; its last stderr line: ...' for a crashed bot, so the reason says why it died."""
    text = player.stderr_text()
    if not text:
        return ""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    last = cap_text(lines[-1].strip(), 160)
    return f"; its last stderr line: {last!r}"


def _stderr_path(stderr_dir: Path | None, game_index: int | None, color: Color, agent_id: str) -> Path | None:
    if stderr_dir is None:
        return None
    return Path(stderr_dir) / f"{(game_index or 0):05d}-{color.lower()}-{agent_id}.log"


def fair_thinking_ms(clock: GameClock, player: Player, reply: MoveReply) -> float:
    """The thinking time to charge for ``reply`` (start-up allowance removed). A reply late by the
    wall clock is charged without the time the bot and arena waited for a CPU (the fair clock,
    docs/matches.md "Time"); ``clock.is_late`` of the result says whether it is late even so."""
    charged = clock.thinking_ms(reply.received_at - reply.sent_at)
    if clock.is_late(charged):
        stall = player.turn_stall_s()
        if stall and not clock.is_late(clock.thinking_ms(reply.received_at - reply.sent_at - stall)):
            return clock.thinking_ms(reply.received_at - reply.sent_at - stall)
    return charged


async def _request(player: Player, state: Any, state_json: dict[str, Any], clock: GameClock,
                   ply: int) -> MoveReply:
    view = clock.view(ply)
    if player.enforces_allowance:
        return await player.request_move(state, view, state_json=state_json)
    # A player that does not promise to keep to its allowance gets a backstop (write + read + slack).
    with trio.move_on_after(2 * view.allowance_s + _BACKSTOP_SLACK_S):
        return await player.request_move(state, view, state_json=state_json)
    now = trio.current_time()
    return MoveReply.failed(Termination.TIMEOUT, "did not reply in time", sent_at=now - view.allowance_s,
                            received_at=now)



@dataclass
class _Progress:
    """One game as it goes: the settings it was started with and everything its record is built
    from (:meth:`record`). :func:`play_game` makes it, the turn loop (:class:`_Turns`) moves it on."""

    game: Game
    specs: dict[Color, AgentSpec]
    time_control: TimeControl
    cap: int  # maxMoves
    opening_plies: int
    seed: int | None
    game_index: int | None
    state: Any
    states: list[dict[str, Any]]  # the record's game_states: the start, then after each turn
    clocks: dict[Color, GameClock]
    entries: list[PlayerEntry]  # the record's players, in colour order
    started_at: str
    begun: float  # trio.current_time() at the start
    turns: list[dict[str, Any]] = field(default_factory=list)
    move_times: list[float] = field(default_factory=list)  # charged ms per bot move
    logs: dict[Color, str] = field(default_factory=dict)  # stderr log file per colour
    outcome: Outcome | None = None
    faulted: Color | None = None  # whose fault ended the game

    @classmethod
    def begin(cls, game: Game, specs: dict[Color, AgentSpec], time_control: TimeControl, cap: int,
              start_state: Any, opening_plies: int, seed: int | None, game_index: int | None) -> _Progress:
        """A game at its start: ``start_state``, or the initial state followed by the random
        opening's plies (the record's first turns)."""
        opening: list[Any] = []
        if start_state is None and opening_plies:
            if seed is None:
                raise ValueError("a random opening needs a seed")
            opening = random_opening_moves(game, opening_plies, random.Random(seed))
        state = game.initial_state() if start_state is None else start_state
        progress = cls(
            game=game, specs=specs, time_control=time_control, cap=cap, opening_plies=opening_plies, seed=seed,
            game_index=game_index, state=state, states=[game.state_to_json(state)],
            clocks={c: GameClock(time_control) for c in Color},
            entries=[player_entry(specs[c].id, specs[c].record_kind, specs[c].command or specs[c].path, c)
                     for c in Color],
            started_at=utc_now_iso(), begun=trio.current_time())
        for move in opening:
            progress.play(move, turn_entry(game, move, opening=True))
        return progress

    def play(self, move: Any, turn: dict[str, Any]) -> None:
        """Apply ``move``, recorded as ``turn``."""
        self.state = self.game.apply(self.state, move)
        self.turns.append(turn)
        self.states.append(self.game.state_to_json(self.state))

    def fault(self, color: Color, termination: Termination, reason: str) -> Outcome:
        """The outcome of ``color``'s fault (the other side wins), noted as whose fault it was."""
        self.faulted = color
        return Outcome(termination, color.other, reason)

    def record(self, players: dict[Color, Player], stderr_dir: Path | None) -> dict[str, Any]:
        """The finished game's record; ``players`` are closed (their accounts are final)."""
        assert self.outcome is not None
        for index, color in enumerate(Color):
            cpu = getattr(players.get(color), "cpu_seconds", None)
            if cpu is not None:
                self.entries[index]["cpuMs"] = round(cpu * 1000, 3)
            dropped = getattr(players.get(color), "early_bytes", 0)
            if dropped:  # bytes before their turn's input: dropped, but a bot author wants to know
                self.entries[index]["droppedOutput"] = {"bytes": dropped, "turns": players[color].early_turns,  # type: ignore[attr-defined]
                                                        "start": players[color].early_sample.decode("utf-8", "replace")}  # type: ignore[attr-defined]
        tails: dict[Color, str] = {}
        if self.faulted is not None and stderr_dir is None and self.faulted in players:
            text = players[self.faulted].stderr_text()
            if text:
                tails[self.faulted] = text
        # A Record (arena.records.types) as a plain dict, the type the run loops pass on.
        return cast("dict[str, Any]", build_record(
            game_name=self.game.name,
            outcome=self.outcome,
            players=self.entries,
            turns=self.turns,
            game_states=self.states,
            move_times_ms=self.move_times,
            clocks_left_ms={c: self.clocks[c].left_ms for c in Color},
            time_control=self.time_control.to_json(),
            max_moves=self.cap,
            opening_plies=self.opening_plies,
            seed=self.seed,
            game_index=self.game_index,
            started_at=self.started_at,
            duration_s=trio.current_time() - self.begun,
            stderr_logs=self.logs or None,
            stderr_tail=tails or None,
        ))


async def _start_players(stack: contextlib.AsyncExitStack, progress: _Progress, stderr_dir: Path | None,
                         player_opts: dict[str, Any] | None, isolation: Isolation) -> dict[Color, Player]:
    """Start both players inside ``stack`` (which closes them). A bot that cannot be started ends
    the game (``progress.outcome``) and the players after it are not started."""
    players: dict[Color, Player] = {}
    for index, color in enumerate(Color):
        spec = progress.specs[color]
        path = _stderr_path(stderr_dir, progress.game_index, color, spec.id)
        opts = dict(player_opts or {})
        if path is not None:
            opts["stderr_path"] = path
            opts["logs_dir"] = Path(stderr_dir) if stderr_dir is not None else None
            progress.logs[color] = str(path)
        try:
            player = make_player(spec, progress.game, color, time_limit_ms=progress.time_control.time_limit_ms,
                                 max_moves=progress.cap, isolation=isolation, seed=progress.seed, **opts)
            players[color] = await stack.enter_async_context(player)
        except BotError as exc:
            progress.outcome = progress.fault(color, Termination.CRASH,
                                              f"{_who(color, spec)} could not be started: {exc}")
            break
        if player.command is not None:
            progress.entries[index]["command"] = player.command
    return players


class _Turns:
    """The turn loop of one game: asks, judges and records moves until the game ends.

    Turns run under one cancel scope, replaced when spent (see :meth:`play`).
    """

    def __init__(self, progress: _Progress, players: dict[Color, Player], observer: Observer | None) -> None:
        self.progress = progress
        self.game = progress.game
        self.specs = progress.specs
        self.clocks = progress.clocks
        self.players = players
        self.observer = observer
        self.color = Color.BLACK  # whose turn is being asked
        self.allowance_ms = 0.0

    def _fault(self, color: Color, termination: Termination, reason: str) -> Outcome:
        return self.progress.fault(color, termination, reason + self.players[color].fault_note())

    async def play(self) -> Outcome:
        """Play the game to its end; its outcome."""
        while True:
            # One cancel scope for many turns (see Player.shares_turn_deadline). run() comes back
            # with None when a deadline fired just as a reply arrived: that scope is spent.
            scope = trio.CancelScope()
            with scope:
                outcome = await self.run(scope)
            if scope.cancelled_caught:
                player = self.players[self.color]
                if player.grant_more_time(trio.current_time()):
                    continue  # late by the wall clock only: the same turn waits on, in a new scope
                return self.judge(self.color, player.timed_out_reply(trio.current_time()))
            if outcome is not None:
                return outcome

    async def run(self, scope: trio.CancelScope) -> Outcome | None:
        """Play turns under ``scope`` until the game ends (its outcome) or until ``scope`` was
        cancelled by a deadline although the reply came in time (None: go on in a new scope)."""
        game, progress = self.game, self.progress
        while True:
            state = progress.state
            ruled = game.outcome(state)
            if ruled is not None:
                return _rules_outcome(ruled, game.to_move(state), self.specs)
            ply = game.ply(state)
            if ply >= progress.cap:
                return Outcome(Termination.MAX_MOVES, None,
                               f"draw: the game reached maxMoves ({progress.cap} moves) without a winner")
            color = self.color = game.to_move(state)
            player, clock = self.players[color], self.clocks[color]
            allowance_ms = self.allowance_ms = clock.allowance_ms()
            if player.shares_turn_deadline:
                reply = await player.request_move_under(scope, state, clock.view(ply, allowance_ms),
                                                        state_json=progress.states[-1])
            else:
                scope.deadline = math.inf  # what a deadline-sharing player may have left set
                reply = await _request(player, state, progress.states[-1], clock, ply)
            if reply.fault is not None:
                return self.judge(color, reply)
            charged = fair_thinking_ms(clock, player, reply)
            if clock.is_late(charged):
                return self.judge(color, reply)
            clock.charge(charged)
            try:
                move = game.validate_move(state, game.parse_move(reply.wire))
            except (MoveSyntaxError, IllegalMoveError) as exc:
                return self._bad_move(color, reply, exc)
            turn = turn_entry(game, move, opening=False, charged_ms=charged, clock_left_ms=clock.left_ms)
            progress.play(move, turn)
            progress.move_times.append(charged)
            if self.observer is not None:
                # The turn's notation is game.describe_move(move), made once for the record.
                self.observer(MovePlayed(game, len(progress.turns), color, self.specs[color].id,
                                         turn["notation"], progress.state, charged,
                                         {Color.BLACK: self.clocks[Color.BLACK].left_ms,
                                          Color.WHITE: self.clocks[Color.WHITE].left_ms}, progress.game_index))
            # The deadline may have fired in the scheduler pass that brought a reply just in time:
            # the scope is spent then (the reply stands), so go on in a new one.
            if scope.cancel_called:
                return None

    def judge(self, color: Color, reply: MoveReply) -> Outcome:
        """The outcome of a turn that ended the game: ``reply`` is a fault or came too late."""
        who = _who(color, self.specs[color])
        clock = self.clocks[color]
        elapsed_s = reply.received_at - reply.sent_at
        if reply.fault is None:  # a reply, but late
            charged = clock.thinking_ms(elapsed_s)
            outcome = self._fault(color, Termination.TIMEOUT,
                                  _timeout_reason(who, clock, self.allowance_ms, elapsed_s * 1000, None))
            clock.left_ms = max(0.0, clock.left_ms - charged)
            return outcome
        termination = reply.fault.termination
        if termination is Termination.TIMEOUT:
            reason = (f"{who} {reply.fault.detail}{waiting_hint(self.game.name, self.specs[color].command)}"
                      if reply.fault.waiting else
                      _timeout_reason(who, clock, self.allowance_ms, elapsed_s * 1000, reply.fault.partial))
            outcome = self._fault(color, Termination.TIMEOUT, reason)
            clock.left_ms = max(0.0, clock.left_ms - clock.thinking_ms(elapsed_s))
            return outcome
        if termination is Termination.INTERRUPTED:
            return Outcome(Termination.INTERRUPTED, None, f"{who} {reply.fault.detail}")
        reason = f"{who} {reply.fault.detail}"
        if termination is Termination.CRASH:
            reason += _stderr_hint(self.players[color])
            if self.clocks[color].moves == 0:  # died on its first message: maybe the wrong game
                reason += first_crash_hint(self.game.name, self.specs[color].command)
        elif termination is Termination.MALFORMED_REPLY:  # the reply's bytes are in ``partial``
            reason += (reply_hint(self.game.name, reply.fault.partial)
                       or command_hint(self.game.name, self.specs[color].command)
                       or stdout_noise_hint(self.clocks[color].moves))
        return self._fault(color, termination, reason)

    def _bad_move(self, color: Color, reply: MoveReply, exc: Exception) -> Outcome:
        who = _who(color, self.specs[color])
        if isinstance(exc, MoveSyntaxError):
            hint = (reply_hint(self.game.name, reply.raw) or command_hint(self.game.name, self.specs[color].command)
                    or stdout_noise_hint(self.clocks[color].moves - 1))  # this reply is already charged
            return self._fault(color, Termination.MALFORMED_REPLY,
                               f"{who} sent a malformed move {quote_raw(reply.raw)}: {exc}{hint}")
        return self._fault(color, Termination.ILLEGAL_MOVE,
                           f"{who} played an illegal move {quote_raw(reply.raw)}: {exc}")


async def play_game(
    game: Game,
    black: AgentSpec,
    white: AgentSpec,
    *,
    time_control: TimeControl,
    max_moves: int | None = None,
    start_state: Any = None,
    opening_plies: int = 0,
    seed: int | None = None,
    stderr_dir: Path | None = None,
    game_index: int | None = None,
    observer: Observer | None = None,
    player_opts: dict[str, Any] | None = None,
    isolation: Isolation = DEFAULT_ISOLATION,
) -> dict[str, Any]:
    """Play one game and return its record (see :mod:`arena.records.format`).

    ``start_state`` (default: the start position) is where the record starts (``game_states[0]``);
    ``opening_plies`` is then only recorded (the caller played them). Without a ``start_state``,
    ``opening_plies`` random plies are played from the start with ``random.Random(seed)`` (see
    :func:`arena.games.base.opening_seed`, so the record's ``seed`` replays the opening), and the
    record holds them as its first turns (marked ``opening``) from the game's initial state.
    ``max_moves`` (default ``game.default_max_moves``) caps the state's move counter
    (``turnNumber``); reaching it is a draw, but a win on the capping move counts.
    ``stderr_dir``: each bot's stderr goes to ``<dir>/<game_index:05d>-<colour>-<id>.log`` (capped);
    otherwise a capped tail is kept and put in the record for a bot that faulted. ``observer`` gets
    :class:`GameStarted`, :class:`MovePlayed` and :class:`GameEnded` events. ``player_opts`` are
    extra keyword arguments for :func:`arena.players.make_player` (e.g. ``kill_grace``).
    ``isolation`` is the policy for the bots' processes (:mod:`arena.process.isolation`): pondering, the
    sandbox (``stderr_dir`` is hidden from sandboxed bots) and their environment.

    Raises ConfigError if the sandbox is asked for but not available here (when the first bot is
    started: :func:`arena.process.isolation.require_sandbox`), and ResourceError when arena itself
    fails (out of file descriptors or processes while starting a bot, its stderr log cannot be
    written...): such a game is not a bot's loss and has no record.
    """
    cap = game.default_max_moves if max_moves is None else max_moves
    progress = _Progress.begin(game, {Color.BLACK: black, Color.WHITE: white}, time_control, cap, start_state,
                               opening_plies, seed, game_index)
    async with contextlib.AsyncExitStack() as stack:
        players = await _start_players(stack, progress, stderr_dir, player_opts, isolation)
        if observer is not None:
            observer(GameStarted(game, progress.state, dict(progress.specs), game_index))
        if progress.outcome is None:
            progress.outcome = await _Turns(progress, players, observer).play()
    # Both players are closed (processes killed and reaped) at this point.
    for player in players.values():
        failure = player.arena_failure()
        if failure is not None:
            raise failure
    record = progress.record(players, stderr_dir)
    if observer is not None:
        observer(GameEnded(game, progress.state, record, game_index))
    return record
