"""One game of the general model between N bot processes: :func:`play_table`.

The N-seat counterpart of :func:`arena.match.game.play_game` (which still plays every two-player
game of today, byte for byte). It never raises for a bot's misbehaviour; an interrupted game has no
record (``trio.Cancelled`` propagates, the bots are killed).

- **Who acts.** At a seat's node that seat's bot is asked; at a chance node arena draws the outcome
  from ``random.Random(seed)`` (the seed is recorded, so the record replays exactly); at a
  simultaneous node every acting seat is asked at once, and no seat's move is seen by another before
  all are in.
- **What a bot sees.** Only ``game.observation(state, seat)``, in the N-seat envelope
  (:mod:`arena.protocols.seats`), with the legal moves for agents that asked for them.
- **Clocks.** One :class:`arena.match.game.GameClock` per seat with the match's time control; at a
  simultaneous node the clocks run in parallel and each is charged for its own reply only. The
  start-up allowance, the margin, the pondering-off stops and the fair clock (time a bot waited for
  a CPU is not its thinking) keep their meaning per bot.
- **Faults.** A crash, a timeout, garbage or an illegal move takes the seat out
  (``game.eliminate``): it ranks below every seat still playing, the later out above the earlier,
  and the game goes on for the others, until one seat is left (it ranks first) or the game ends by
  its rules. A game whose ``eliminate`` gives None ends at the first fault (the faulting seat last,
  the others by their returns). In a two-seat game a fault always ends the game.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import trio

from arena.errors import BotError
from arena.games.base import Color, Game, GameError, IllegalMoveError, MoveSyntaxError, Termination
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, check_chance, draw_chance, ranks
from arena.match.game import GameClock, TimeControl, _request, _stderr_hint, _timeout_reason, fair_thinking_ms
from arena.match.hints import waiting_hint
from arena.players import make_player, make_seat_human
from arena.players.base import MoveReply, Player
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.protocols import quote_raw
from arena.protocols.seats import SeatEnvelopeProtocol, seat_message
from arena.records.format import utc_now_iso
from arena.records.seats import build_seat_record, seat_entry
from arena.records.types import Elimination, GameIdentity, SeatEntry, SeatRecord, TimeControlJson

Observer = Callable[[Any], None]


@dataclass(frozen=True)
class StepPlayed:
    """Observer event: one step (a chance draw, a move, a joint move or an elimination)."""

    game: GeneralGame[Any, Any]
    step: dict[str, Any]
    state: Any


@dataclass
class _Table:
    """One N-seat game as it goes; the record is built from it."""

    game: GeneralGame[Any, Any]
    specs: list[AgentSpec]
    time_control: TimeControl
    cap: int
    seed: int
    rng: random.Random
    state: Any
    clocks: list[GameClock]
    legal_moves_for: frozenset[int]
    game_index: int | None
    started_at: str
    begun: float
    steps: list[dict[str, Any]] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    out: list[int] = field(default_factory=list)  # eliminated seats, in order
    eliminations: list[Elimination] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)
    ended: tuple[str, str] | None = None  # (termination, reason) when a fault or an interruption ended it
    faulted: list[int] = field(default_factory=list)

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.game.seat_names[seat]}) bot {self.specs[seat].id!r}"

    def advance(self, state: Any, step: dict[str, Any]) -> None:
        self.state = state
        self.steps.append(step)
        self.states.append(self.game.state_to_json(state))

    def playing(self) -> list[int]:
        return [seat for seat in range(self.game.players) if seat not in self.out]

    def message(self, seat: int, simultaneous: bool) -> dict[str, Any]:
        legal = None
        if seat in self.legal_moves_for:
            legal = [self.game.move_to_wire(m) for m in self.game.legal_moves(self.state, seat)]
        return seat_message(self.game.observation(self.state, seat), seat, self.game.players, simultaneous, legal)

    def eliminate(self, seat: int, termination: Termination, reason: str) -> bool:
        """Take ``seat`` out for a fault; False when the game cannot go on without it (it ends)."""
        self.faulted.append(seat)
        after = self.game.eliminate(self.state, seat) if self.game.players > 2 else None
        self.out.append(seat)
        entry: Elimination = {"seat": seat, "ply": self.game.ply(self.state), "termination": termination.value,
                              "reason": reason}
        self.eliminations.append(entry)
        if after is None:
            self.ended = (termination.value, reason)
            return False
        self.advance(after, {"ply": self.game.ply(self.state), "kind": "elimination", "seat": seat,
                             "termination": termination.value, "reason": reason})
        return len(self.playing()) > 1

    def final(self) -> tuple[list[float], list[int], str, str]:
        """Returns, ranks, termination and reason of the finished game."""
        game, n = self.game, self.game.players
        returns = list(game.returns(self.state)) if game.is_terminal(self.state) else [0.0] * n
        alive = self.playing()
        alive_ranks = ranks([returns[s] for s in alive])
        rank = [0] * n
        for seat, r in zip(alive, alive_ranks, strict=True):
            rank[seat] = r
        for place, seat in enumerate(reversed(self.out)):
            rank[seat] = len(alive) + 1 + place
        if self.ended is not None:
            termination, reason = self.ended
        elif game.is_terminal(self.state):
            best = [s for s in alive if rank[s] == 1]
            if len(best) == 1:
                termination, reason = Termination.WIN.value, f"{self.who(best[0])} won by the rules"
            else:
                termination = Termination.DRAW.value
                reason = f"seats {', '.join(map(str, best))} share first place by the rules"
        elif len(alive) == 1:
            termination, reason = Termination.WIN.value, f"{self.who(alive[0])} is the last seat still playing"
        else:
            termination = Termination.MAX_MOVES.value
            reason = f"the game reached maxMoves ({self.cap} steps) before its end"
        return returns, rank, termination, reason


async def play_table(
    game: GeneralGame[Any, Any],
    agents: Sequence[AgentSpec],
    *,
    time_control: TimeControl,
    max_moves: int | None = None,
    seed: int | None = None,
    stderr_dir: Path | None = None,
    game_index: int | None = None,
    observer: Observer | None = None,
    legal_moves_for: Sequence[int] = (),
    isolation: Isolation = DEFAULT_ISOLATION,
    player_opts: dict[str, Any] | None = None,
    start_state: Any = None,
) -> dict[str, Any]:
    """Play one game of ``game`` (configured with its players) between ``agents`` (one per seat, in
    seat order) and return its record (:mod:`arena.records.seats`). ``seed`` (default: drawn and
    recorded) seeds every chance draw; ``max_moves`` (default ``game.default_max_moves``) caps the
    steps (counted by ``game.ply``); ``legal_moves_for`` lists the seats whose messages carry their
    legal moves. ``start_state`` (default: the game's start) is where play begins: ``arena
    check-bot``'s probes; such a record is not a whole game (check-record refuses its first state).

    Raises ValueError when the agents do not fill the seats, ConfigError when the sandbox is asked
    for but unavailable (or a person sits without arena's terminal UI), ResourceError when arena itself fails (no record then), a failing external referee among them
    (:class:`arena.referee.client.RefereeError`: never a seat's fault)."""
    if len(agents) != game.players:
        raise ValueError(f"{game.name} is set for {game.players} players, got {len(agents)} agents")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    state = game.initial_state() if start_state is None else start_state
    table = _Table(game=game, specs=list(agents), time_control=time_control,
                   cap=game.default_max_moves if max_moves is None else max_moves, seed=seed,
                   rng=random.Random(seed), state=state, clocks=[GameClock(time_control) for _ in agents],
                   legal_moves_for=frozenset(legal_moves_for), game_index=game_index, started_at=utc_now_iso(),
                   begun=trio.current_time(), states=[game.state_to_json(state)])
    players: list[Player | None] = [None] * game.players
    async with contextlib.AsyncExitStack() as stack:
        started = await _start_players(stack, table, players, stderr_dir, player_opts, isolation)
        if started:
            await _play(table, cast("list[Player]", players), observer)
    for player in players:
        failure = player.arena_failure() if player is not None else None
        if failure is not None:
            raise failure
    # A SeatRecord (arena.records.types) as a plain dict, the type the run loops pass on.
    return cast("dict[str, Any]", _record(table, players, stderr_dir))


async def _start_players(stack: contextlib.AsyncExitStack, table: _Table, players: list[Player | None],
                         stderr_dir: Path | None, player_opts: dict[str, Any] | None, isolation: Isolation) -> bool:
    """Start every seat's bot; False (the game ended as the first failing seat's crash) when one
    cannot be started: a game of N needs all N at the start."""
    for seat, spec in enumerate(table.specs):
        if spec.is_human:
            players[seat] = await stack.enter_async_context(make_seat_human(spec, table.game, seat))
            continue
        opts = dict(player_opts or {})
        if stderr_dir is not None:
            path = Path(stderr_dir) / f"{(table.game_index or 0):05d}-seat{seat}-{spec.id}.log"
            opts.update(stderr_path=path, logs_dir=Path(stderr_dir))
            table.logs[str(seat)] = str(path)
        try:
            # The colour is only a label for two-player protocols; the seat envelope sends none.
            player = make_player(spec, cast("Game[Any, Any]", table.game), Color.BLACK, isolation=isolation,
                                 seed=table.seed, protocol=SeatEnvelopeProtocol(), **opts)
            player.who = f"the {table.who(seat)}"  # type: ignore[attr-defined]
            players[seat] = await stack.enter_async_context(player)
        except BotError as exc:
            table.faulted.append(seat)
            table.out.append(seat)
            table.ended = (Termination.CRASH.value, f"{table.who(seat)} could not be started: {exc}")
            return False
    return True


async def _play(table: _Table, players: list[Player], observer: Observer | None) -> None:
    game = table.game
    while table.ended is None and len(table.playing()) > 1:
        state = table.state
        who = game.actor(state)
        if who == TERMINAL:
            return
        ply = game.ply(state)
        if ply >= table.cap:
            return
        if who == CHANCE:
            outcomes = game.chance_outcomes(state)
            check_chance(outcomes)
            outcome = draw_chance(outcomes, table.rng)
            probability = next(p for o, p in outcomes if o == outcome)
            table.advance(game.apply(state, outcome), {"ply": ply, "kind": "chance",
                                                       "outcome": game.move_to_record(outcome),
                                                       "probability": str(Fraction(probability))})
        elif who == SIMULTANEOUS:
            await _simultaneous(table, players, ply)
        else:
            reply = await _ask(players[who], table, who, table.message(who, False), ply)
            move = _judge(table, players, who, reply)
            if move is not None:
                clock = table.clocks[who]
                table.advance(game.apply(state, move), {
                    "ply": ply, "kind": "move", "seat": who, "move": game.move_to_record(move),
                    "charged_ms": round(reply[1], 3), "clock_left_ms": round(clock.left_ms, 3)})
        if observer is not None and table.steps:
            observer(StepPlayed(game, table.steps[-1], table.state))


async def _simultaneous(table: _Table, players: list[Player], ply: int) -> None:
    """Ask every acting seat at once; apply the joint move, or take faulting seats out (the others'
    moves then stand only if the same seats still act; else they are asked again)."""
    game, state = table.game, table.state
    seats = [s for s in game.acting_seats(state) if s not in table.out]
    replies: dict[int, tuple[MoveReply, float]] = {}
    # Built before the tasks start: the rules may fail (an external referee's RefereeError), and an
    # error inside the nursery would reach the caller wrapped in an exception group.
    messages = {seat: table.message(seat, True) for seat in seats}

    async def one(seat: int) -> None:
        replies[seat] = await _ask(players[seat], table, seat, messages[seat], ply)

    async with trio.open_nursery() as nursery:
        for seat in seats:
            nursery.start_soon(one, seat)
    moves: dict[int, Any] = {}
    for seat in seats:  # judged in seat order: eliminations are recorded in a deterministic order
        move = _judge(table, players, seat, replies[seat])
        if table.ended is not None:
            return
        if move is not None:
            moves[seat] = move
    if set(game.acting_seats(table.state)) - set(table.out) == set(moves) and game.actor(table.state) == SIMULTANEOUS:
        table.advance(game.apply_joint(table.state, moves), {
            "ply": ply, "kind": "joint",
            "moves": {str(s): game.move_to_record(m) for s, m in sorted(moves.items())},
            "charged_ms": {str(s): round(replies[s][1], 3) for s in sorted(moves)},
            "clock_left_ms": {str(s): round(table.clocks[s].left_ms, 3) for s in sorted(moves)}})


async def _ask(player: Player, table: _Table, seat: int, message: dict[str, Any], ply: int) -> tuple[MoveReply, float]:
    """One seat's reply and the thinking time it is charged (0 for a fault). The wall-clock deadline
    is extended for stalls that were not the bot's doing, as in two-player games."""
    clock = table.clocks[seat]
    if not player.shares_turn_deadline:  # a person at the terminal keeps its own deadline
        reply = await _request(player, table.state, message, clock, ply)
    view = clock.view(ply)
    while player.shares_turn_deadline:
        with trio.CancelScope() as scope:
            reply = await player.request_move_under(scope, table.state, view, state_json=message)
        if scope.cancelled_caught:
            if player.grant_more_time(trio.current_time()):
                continue
            reply = player.timed_out_reply(trio.current_time())
        break
    if reply.fault is not None:
        return reply, 0.0
    return reply, fair_thinking_ms(clock, player, reply)


def _judge(table: _Table, players: list[Player], seat: int, answer: tuple[MoveReply, float]) -> Any:
    """The legal move of ``seat``'s reply (its clock charged), or None after taking the seat out
    (or ending the game) for its fault."""
    reply, charged = answer
    game, clock, who = table.game, table.clocks[seat], table.who(seat)
    allowance_ms = clock.allowance_ms()
    elapsed_ms = (reply.received_at - reply.sent_at) * 1000
    if reply.fault is None and clock.is_late(charged):
        table.eliminate(seat, Termination.TIMEOUT, _timeout_reason(who, clock, allowance_ms, elapsed_ms, None))
        return None
    if reply.fault is not None:
        termination = reply.fault.termination
        if termination is Termination.INTERRUPTED:
            table.ended = (termination.value, f"{who} {reply.fault.detail}")
            return None
        if termination is Termination.TIMEOUT and reply.fault.waiting:
            reason = f"{who} {reply.fault.detail}{waiting_hint(game.name, players[seat].command)}"
        elif termination is Termination.TIMEOUT:
            reason = _timeout_reason(who, clock, allowance_ms, elapsed_ms, reply.fault.partial)
        else:
            reason = f"{who} {reply.fault.detail}"
            if termination is Termination.CRASH:
                reason += _stderr_hint(players[seat])
        table.eliminate(seat, termination, reason + players[seat].fault_note())
        return None
    clock.charge(charged)
    try:
        return game.validate_move(table.state, seat, game.parse_move(reply.wire))
    except MoveSyntaxError as exc:
        table.eliminate(seat, Termination.MALFORMED_REPLY, f"{who} sent a malformed move {quote_raw(reply.raw)}: {exc}")
    except (IllegalMoveError, GameError) as exc:
        table.eliminate(seat, Termination.ILLEGAL_MOVE, f"{who} played an illegal move {quote_raw(reply.raw)}: {exc}")
    return None


def _record(table: _Table, players: list[Player | None], stderr_dir: Path | None) -> SeatRecord:
    game = table.game
    returns, rank, termination, reason = table.final()
    seats: list[SeatEntry] = []
    for seat, spec in enumerate(table.specs):
        entry = seat_entry(seat, game.seat_names[seat], spec.id, spec.record_kind, spec.command or spec.path)
        player = players[seat]
        cpu = getattr(player, "cpu_seconds", None)
        if cpu is not None:
            entry["cpuMs"] = round(cpu * 1000, 3)
        if player is not None and player.command is not None:
            entry["command"] = player.command
        seats.append(entry)
    tails = {}
    if stderr_dir is None:
        for seat in table.faulted:
            player = players[seat]
            text = player.stderr_text() if player is not None else None
            if text:
                tails[str(seat)] = text
    return build_seat_record(
        identity=cast("GameIdentity", game.identity()), seats=seats, steps=table.steps, states=table.states, returns=returns,
        ranks=rank, termination=termination, reason=reason, eliminations=table.eliminations,
        clocks_left_ms=[c.left_ms for c in table.clocks],
        time_control=cast("TimeControlJson", table.time_control.to_json()),
        max_moves=table.cap, seed=table.seed, game_index=table.game_index, started_at=table.started_at,
        duration_s=trio.current_time() - table.begun, stderr_logs=table.logs or None, stderr_tail=tails or None)


__all__ = ["StepPlayed", "play_table"]
