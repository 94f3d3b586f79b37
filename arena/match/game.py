"""The one match loop: one game of any game between its agents, its outcome and its record.

:func:`play_game` takes every game as a :class:`arena.games.model.GeneralGame`, as
:func:`arena.games.registry.configured_game` makes it. What the game's wire dialect changes (the
messages, the record format) is chosen once, by :func:`arena.match.progress.progress_for`. It never raises for a bot's misbehaviour: every fault
becomes the record's ``termination``. If the surrounding scope is cancelled (Ctrl-C, a tournament
stopping) every bot is killed, shielded, and ``trio.Cancelled`` propagates: an interrupted game has
no record.

- **Who acts.** At a seat's node that seat's player is asked; at a chance node arena draws the
  outcome from ``random.Random(seed)`` (the seed is recorded, so the record replays exactly); at a
  simultaneous node every acting seat is asked at once, and no seat's move is seen by another
  before all are in.
- **Clocks** (:mod:`arena.match.clock`): one per seat. The start-up allowance, the margin, the
  pondering-off stops and the fair clock (time a bot waited for a CPU is not its thinking) keep
  their meaning per bot; at a simultaneous node the clocks run in parallel, each charged for its
  own reply only.
- **Faults.** A crash, a timeout, garbage or an illegal move takes the seat out
  (:meth:`arena.match.progress.Progress.fault`); in a game of two seats it ends the game.

Speed: consecutive turns run under one cancel scope whose deadline the players move
(``Player.shares_turn_deadline``): a scope per turn cost ~20 us a ply, ~19% of arena's CPU per ply
against instant bots (``bench/engine_overhead.py --cpu-only``, with the process player's
``shares_turn_deadline`` set to False for comparison). The loop has no other speed tricks.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import trio

from arena.errors import BotError
from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError, Termination, cap_text
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, check_chance, draw_chance
from arena.match.clock import GameClock, TimeControl, fair_thinking_ms, timeout_reason
from arena.match.hints import command_hint, first_crash_hint, reply_hint, stdout_noise_hint, waiting_hint
from arena.match.progress import Observer, Progress, progress_for
from arena.players.base import MoveReply, Player
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.protocols import quote_raw

# Past the allowance, the match stops waiting for a player even if the player itself does not.
_BACKSTOP_SLACK_S = 2.0
# judge()'s answer for a reply that was a fault (a move may be any value, None included).
_FAULT = object()


def _stderr_hint(player: Player) -> str:
    """'; its last stderr line: ...' for a crashed bot, so the reason says why it died."""
    text = player.stderr_text()
    if not text:
        return ""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    return f"; its last stderr line: {cap_text(lines[-1].strip(), 160)!r}"


async def _request(player: Player, state: Any, message: dict[str, Any], clock: GameClock, ply: int) -> MoveReply:
    """One turn of a player that keeps its own deadline (a person at the terminal)."""
    view = clock.view(ply)
    if player.enforces_allowance:
        return await player.request_move(state, view, state_json=message)
    # A player that does not promise to keep to its allowance gets a backstop (write + read + slack).
    with trio.move_on_after(2 * view.allowance_s + _BACKSTOP_SLACK_S):
        return await player.request_move(state, view, state_json=message)
    now = trio.current_time()
    return MoveReply.failed(Termination.TIMEOUT, "did not reply in time", sent_at=now - view.allowance_s,
                            received_at=now)


async def _start_players(stack: contextlib.AsyncExitStack, progress: Progress, players: list[Player | None],
                         stderr_dir: Path | None, player_opts: dict[str, Any] | None, isolation: Isolation) -> None:
    """Start every seat's player inside ``stack`` (which closes them). A bot that cannot be started
    ends the game (a game needs all its seats at the start); the seats after it are not started."""
    for seat in range(len(progress.specs)):
        opts = dict(player_opts or {})
        name = progress.log_name(seat) if stderr_dir is not None else None
        if stderr_dir is not None and name is not None:
            opts.update(stderr_path=Path(stderr_dir) / name, logs_dir=Path(stderr_dir))
            progress.logs[seat] = str(Path(stderr_dir) / name)
        try:
            players[seat] = await stack.enter_async_context(progress.make_player(seat, isolation, opts))
        except BotError as exc:
            progress.end_at_fault(seat, Termination.CRASH, f"{progress.who(seat)} could not be started: {exc}")
            return


class _Turns:
    """The loop of one game: asks, judges and records moves until the game ends.

    A seat's turns run under one cancel scope, replaced when spent (see :meth:`play`).
    """

    def __init__(self, progress: Progress, players: list[Player]) -> None:
        self.progress = progress
        self.game = progress.game
        self.players = players
        self.seat = 0  # whose turn is being asked under the shared scope
        self.charged = 0.0  # what judge() charged for the move it returned

    async def play(self) -> None:
        """Play the game to its end."""
        progress = self.progress
        while progress.ended is None and progress.left > 1:
            # One cancel scope for many turns (see Player.shares_turn_deadline). run() comes back
            # when a deadline fired just as a reply arrived: that scope is spent.
            scope = trio.CancelScope()
            with scope:
                over = await self.run(scope)
            if scope.cancelled_caught:
                player = self.players[self.seat]
                if not player.grant_more_time(trio.current_time()):
                    self.judge(self.seat, player.timed_out_reply(trio.current_time()))
                # else: late by the wall clock only: the same turn waits on, in a new scope
            elif over:
                return

    async def run(self, scope: trio.CancelScope) -> bool:
        """Play steps under ``scope`` until the game ends (True) or until ``scope`` was cancelled by
        a deadline although the reply came in time (False: go on in a new scope)."""
        game, progress, players = self.game, self.progress, self.players
        while progress.ended is None and progress.left > 1:
            state = progress.state
            who = game.actor(state)
            if who == TERMINAL:
                return True
            ply = game.ply(state)
            if ply >= progress.cap:
                return True
            if who >= 0:
                self.seat = who
                player, clock = players[who], progress.clocks[who]
                message = progress.message(who, False)
                if player.shares_turn_deadline:
                    reply = await player.request_move_under(scope, state, clock.view(ply), state_json=message)
                else:
                    scope.deadline = math.inf  # what a deadline-sharing player may have left set
                    reply = await _request(player, state, message, clock, ply)
                move = self.judge(who, reply)
                if move is not _FAULT:
                    progress.moved(who, move, ply, self.charged)
                # The deadline may have fired in the scheduler pass that brought a reply just in
                # time: the scope is spent then (the reply stands), so go on in a new one.
                if scope.cancel_called:
                    return False
            elif who == CHANCE:
                outcomes = game.chance_outcomes(state)
                check_chance(outcomes)
                assert progress.rng is not None
                outcome = draw_chance(outcomes, progress.rng)
                probability = next(p for o, p in outcomes if o == outcome)
                progress.advance(game.apply(state, outcome), {"ply": ply, "kind": "chance",
                                                              "outcome": game.move_to_record(outcome),
                                                              "probability": str(Fraction(probability))})
            else:
                scope.deadline = math.inf
                await self.simultaneous(ply)
        return True

    async def simultaneous(self, ply: int) -> None:
        """Ask every acting seat at once; apply the joint move, or take faulting seats out (the
        others' moves then stand only if the same seats still act; else they are asked again)."""
        game, progress = self.game, self.progress
        state = progress.state
        seats = [s for s in game.acting_seats(state) if s not in progress.out]
        replies: dict[int, MoveReply] = {}
        # Built before the tasks start: the rules may fail (an external referee's RefereeError), and
        # an error inside the nursery would reach the caller wrapped in an exception group.
        messages = {seat: progress.message(seat, True) for seat in seats}

        async def one(seat: int) -> None:
            replies[seat] = await self.ask(seat, messages[seat], ply)

        async with trio.open_nursery() as nursery:
            for seat in seats:
                nursery.start_soon(one, seat)
        moves: dict[int, Any] = {}
        charged: dict[int, float] = {}
        for seat in seats:  # judged in seat order: eliminations are recorded in a deterministic order
            move = self.judge(seat, replies[seat])
            if progress.ended is not None:
                return
            if move is not _FAULT:
                moves[seat], charged[seat] = move, self.charged
        if set(game.acting_seats(progress.state)) - set(progress.out) == set(moves) and game.actor(progress.state) == SIMULTANEOUS:
            progress.advance(game.apply_joint(progress.state, moves), {
                "ply": ply, "kind": "joint",
                "moves": {str(s): game.move_to_record(m) for s, m in sorted(moves.items())},
                "charged_ms": {str(s): round(charged[s], 3) for s in sorted(moves)},
                "clock_left_ms": {str(s): round(progress.clocks[s].left_ms, 3) for s in sorted(moves)}})

    async def ask(self, seat: int, message: dict[str, Any], ply: int) -> MoveReply:
        """One seat's reply under a cancel scope of its own (a simultaneous node's seats wait
        together); the deadline is extended for stalls that were not the bot's doing."""
        player, clock = self.players[seat], self.progress.clocks[seat]
        if not player.shares_turn_deadline:  # a person at the terminal keeps its own deadline
            return await _request(player, self.progress.state, message, clock, ply)
        view = clock.view(ply)
        while True:
            with trio.CancelScope() as scope:
                reply = await player.request_move_under(scope, self.progress.state, view, state_json=message)
            if not scope.cancelled_caught:
                return reply
            if not player.grant_more_time(trio.current_time()):
                return player.timed_out_reply(trio.current_time())

    def judge(self, seat: int, reply: MoveReply) -> Any:
        """The legal move of ``seat``'s ``reply`` (its clock charged ``self.charged``), or
        :data:`_FAULT` after taking the seat out (or ending the game) for its fault."""
        progress, game = self.progress, self.game
        player, clock = self.players[seat], progress.clocks[seat]
        if reply.fault is None:
            charged = fair_thinking_ms(clock, player, reply)
            if not clock.is_late(charged):
                clock.charge(charged)
                self.charged = charged
                try:
                    return progress.legal_move(seat, reply.wire)
                except MoveSyntaxError as exc:
                    hint = (reply_hint(game.name, reply.raw) or command_hint(game.name, progress.specs[seat].command)
                            or stdout_noise_hint(clock.moves - 1))  # this reply is already charged
                    termination = Termination.MALFORMED_REPLY
                    reason = f"{progress.who(seat)} sent a malformed move {quote_raw(reply.raw)}: {exc}{hint}"
                except (IllegalMoveError, GameError) as exc:
                    termination = Termination.ILLEGAL_MOVE
                    reason = f"{progress.who(seat)} played an illegal move {quote_raw(reply.raw)}: {exc}"
                progress.fault(seat, termination, reason + player.fault_note())
                return _FAULT
        termination, reason = self._fault_reason(seat, reply)
        if termination is Termination.INTERRUPTED:
            progress.interrupt(reason)
        else:
            progress.fault(seat, termination, reason + player.fault_note())
        return _FAULT

    def _fault_reason(self, seat: int, reply: MoveReply) -> tuple[Termination, str]:
        """Why ``reply`` (a fault, or a reply too late) loses; a timeout's time is taken off the clock."""
        progress, name = self.progress, self.game.name
        who, clock, command = progress.who(seat), progress.clocks[seat], progress.specs[seat].command
        elapsed_s = reply.received_at - reply.sent_at
        allowance_ms = clock.allowance_ms()
        fault = reply.fault
        if fault is None or fault.termination is Termination.TIMEOUT:
            if fault is not None and fault.waiting:
                reason = f"{who} {fault.detail}{waiting_hint(name, command)}"
            else:  # ``partial`` is what it had sent of its reply (None: it replied, late)
                reason = timeout_reason(who, clock, allowance_ms, elapsed_s * 1000, None if fault is None else fault.partial)
            clock.left_ms = max(0.0, clock.left_ms - clock.thinking_ms(elapsed_s))
            return Termination.TIMEOUT, reason
        reason = f"{who} {fault.detail}"
        if fault.termination is Termination.CRASH:
            reason += _stderr_hint(self.players[seat])
            if clock.moves == 0:  # died on its first message: maybe the wrong game
                reason += first_crash_hint(name, command)
        elif fault.termination is Termination.MALFORMED_REPLY:  # the reply's bytes are in ``partial``
            reason += reply_hint(name, fault.partial) or command_hint(name, command) or stdout_noise_hint(clock.moves)
        return fault.termination, reason


async def play_game(
    game: GeneralGame[Any, Any],
    *agents: AgentSpec,
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
    legal_moves_for: Sequence[int] = (),
) -> dict[str, Any]:
    """Play one game of ``game`` between ``agents`` (one per seat, in seat order: BLACK then WHITE
    in a two-player game) and return its record, format 4: with the two colours' fields for a
    two-player game of its own dialect, in seats alone for a game of the N-seat envelope
    (``game.seat_envelope``, :func:`arena.match.progress.progress_for`).

    ``start_state`` (default: the game's start) is where the record starts (``game_states[0]``); in
    a two-player game ``opening_plies`` is then only recorded (the caller played them). Without a
    ``start_state``, ``opening_plies`` random plies of a two-player game are played from the start
    with ``random.Random(seed)`` (see :func:`arena.games.base.opening_seed`, so the record's
    ``seed`` replays the opening), and the record holds them as its first turns (marked
    ``opening``). ``seed`` also seeds every chance draw (default for an N-seat game: drawn and
    recorded). ``max_moves`` (default ``game.default_max_moves``) caps ``game.ply``; reaching it
    ends the game (a draw between two players; a win on the capping move counts).
    ``stderr_dir``: each bot's stderr goes to ``<dir>/<game_index:05d>-<colour or seatN>-<id>.log``
    (capped); otherwise a capped tail is kept and put in the record for a bot that faulted.
    ``observer`` gets the events of :mod:`arena.match.progress`. ``player_opts`` are extra keyword
    arguments for :func:`arena.players.make_player` (e.g. ``kill_grace``). ``isolation`` is the
    policy for the bots' processes (:mod:`arena.process.isolation`): pondering, the sandbox
    (``stderr_dir`` is hidden from sandboxed bots) and their environment. ``legal_moves_for``: the
    seats of an N-seat game whose messages carry their legal moves.

    Raises ValueError when the agents do not fill the seats, ConfigError if the sandbox is asked for
    but not available here (when the first bot is started:
    :func:`arena.process.isolation.require_sandbox`) or a person sits without arena's terminal UI,
    a failing external referee's :class:`arena.referee.client.RefereeError` (never a seat's fault),
    and ResourceError when arena itself fails (out of file descriptors or processes while starting a
    bot, its stderr log cannot be written...): such a game is not a bot's loss and has no record.
    """
    progress = progress_for(game, agents, time_control=time_control, max_moves=max_moves, start_state=start_state,
                            opening_plies=opening_plies, seed=seed, game_index=game_index, observer=observer,
                            legal_moves_for=legal_moves_for)
    players: list[Player | None] = [None] * len(agents)
    async with contextlib.AsyncExitStack() as stack:
        await _start_players(stack, progress, players, stderr_dir, player_opts, isolation)
        progress.started()
        if progress.ended is None:
            await _Turns(progress, players).play()  # type: ignore[arg-type]  # all started
    # Every player is closed (processes killed and reaped) at this point.
    for player in players:
        failure = player.arena_failure() if player is not None else None
        if failure is not None:
            raise failure
    return progress.finish(players, stderr_dir)


__all__ = ["play_game"]
