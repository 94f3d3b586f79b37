"""One game as it goes, and the record it becomes: the one place where a game's kind is chosen.

The match loop (:mod:`arena.match.game`) sees every game as a
:class:`arena.games.model.GeneralGame` and moves a :class:`Progress` on: a seat's move, a chance
draw, a joint move, a fault. What the seats are told, and which record format the game is written
in depend on the game's wire dialect (``game.seat_envelope``, set where the game was configured:
:func:`arena.games.registry.configured_game`), chosen once by :func:`progress_for`:

- a two-player game speaking its own dialect (seats BLACK and WHITE; the Shobu JSON, the checkers
  lines, the generic JSON): :class:`ColourProgress`, its record format 4 with the two colours' fields (:mod:`arena.records.format`);
- a game speaking the N-seat envelope (:mod:`arena.protocols.seats`): :class:`SeatProgress`, its
  record format 4 (:mod:`arena.records.seats`).

Observers hear the same events of every game, made in one place (:meth:`Progress.started`,
:meth:`Progress.stepped`, :meth:`Progress.finish`): :class:`GameStarted`, a :class:`StepPlayed` per
step (the step as the record holds it, in a two-player game too) and :class:`GameEnded`.

Faults: a seat that faults is taken out (``game.eliminate``) and ranks below the seats still
playing, the later out above the earlier; a game whose ``eliminate`` gives None, and every game of
two seats, ends at the first fault.
"""

from __future__ import annotations

import contextlib
import gc
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import trio

from arena.games.base import Color, Game, Outcome, Termination, random_opening_moves
from arena.games.model import GeneralGame, TwoPlayerGame, color_of, ranks, seat_of
from arena.match.clock import GameClock, TimeControl
from arena.players import make_player
from arena.players.base import Player
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation
from arena.protocols.seats import SeatEnvelopeProtocol, seat_message
from arena.records.format import build_record, colour_step, player_entry, turn_entry, utc_now_iso
from arena.records.seats import build_seat_record, seat_entry
from arena.records.types import Elimination, GameIdentity, PlayerEntry, SeatEntry, TimeControlJson

Observer = Callable[[Any], None]


def runs_anywhere(observer: Observer | None) -> bool:
    """Whether ``observer`` may be called in the process that plays the game instead of the one
    that asked for it: it says so (``runs_anywhere = True``), pickles as what reopens it there, and
    writes only to files (a game's live trace). A worker process then calls it itself and no event
    crosses a pipe; any other observer hears the events the worker forwards."""
    return getattr(observer, "runs_anywhere", False) is True


# -- observer events: one vocabulary for every game, made only by Progress (started, stepped, finish)


@dataclass(frozen=True)
class GameStarted:
    """A game began: its players are started (or one failed to start). ``players`` in seat order."""

    game: GeneralGame[Any, Any]
    state: Any
    players: Sequence[AgentSpec]
    game_index: int | None


# Not frozen, with slots: built every step an observer watches (a tournament's live/ trace), and a
# frozen dataclass's __init__ costs about 3 us more than this one's (bench/live_trace.py).
@dataclass(slots=True)
class StepPlayed:
    """A step of a game, ``state`` the state after it.

    ``step`` is the step as a record's ``steps`` hold it (:mod:`arena.records.seats`):
    ``kind`` ``move`` (``seat``, ``move`` in its record form, ``charged_ms``, ``clock_left_ms``),
    ``chance``, ``joint`` or ``elimination``, and ``ply``, the game's ply before the step.
    ``notation`` is the step's move(s) as text (:func:`step_notation`). ``clocks_left_ms`` are
    every seat's clocks after it, ``players`` the agents in seat order."""

    game: GeneralGame[Any, Any]
    step: dict[str, Any]
    notation: str
    state: Any
    clocks_left_ms: tuple[float, ...]
    players: Sequence[AgentSpec]
    game_index: int | None


@dataclass(frozen=True)
class GameEnded:
    """A game ended with ``record`` (format 4)."""

    game: GeneralGame[Any, Any]
    state: Any
    record: dict[str, Any]
    game_index: int | None


def step_notation(game: GeneralGame[Any, Any], step: dict[str, Any]) -> str:
    """``step``'s move(s) as text: a move's or a chance outcome's notation (``game.describe_move``),
    a joint move's as ``SEAT: move; ...`` (seat names), an elimination's ``out (termination)``."""
    kind = step["kind"]
    if kind == "move":
        return game.describe_move(game.move_from_record(step["move"]))
    if kind == "chance":
        return game.describe_move(game.move_from_record(step["outcome"]))
    if kind == "joint":
        return "; ".join(f"{game.seat_names[int(s)]}: {game.describe_move(game.move_from_record(m))}"
                         for s, m in step["moves"].items())
    return f"out ({step['termination']})"


# -- progress -----------------------------------------------------------------------------------


@dataclass
class Progress:
    """What every game keeps as it goes; the subclasses keep what their record format needs."""

    game: GeneralGame[Any, Any]
    specs: list[AgentSpec]
    time_control: TimeControl
    cap: int  # maxMoves: a game whose ``ply`` reaches it ends
    seed: int | None
    game_index: int | None
    observer: Observer | None
    state: Any = None
    states: list[dict[str, Any]] = field(default_factory=list)  # the start, then after each step
    clocks: list[GameClock] = field(default_factory=list)
    rng: random.Random | None = None  # chance draws
    started_at: str = ""  # set by progress_for, as begun (trio.current_time() at the start)
    begun: float = 0.0
    logs: dict[int, str] = field(default_factory=dict)  # stderr log file per seat
    out: list[int] = field(default_factory=list)  # seats taken out, in order
    faulted: list[int] = field(default_factory=list)  # seats whose fault took them out
    left: int = 0  # seats still playing
    ended: tuple[Termination, str] | None = None  # a fault or an interruption ended the game

    def __post_init__(self) -> None:
        self.clocks = [GameClock(self.time_control) for _ in self.specs]
        self.left = len(self.specs)

    def start_at(self, state: Any) -> None:
        self.state = state
        self.states.append(self.game.state_to_json(state))

    # -- what the kinds of game differ in -------------------------------------------------------

    def who(self, seat: int) -> str:
        """The seat in a reason: ``BLACK bot 'x'``, ``seat 0 (P0) bot 'x'``."""
        raise NotImplementedError

    def log_name(self, seat: int) -> str | None:
        """The stderr log file's name for ``seat``'s bot; None: it has none."""
        raise NotImplementedError

    def make_player(self, seat: int, isolation: Isolation, opts: dict[str, Any]) -> Player:
        """``seat``'s player, speaking this kind's wire dialect."""
        raise NotImplementedError

    def message(self, seat: int, simultaneous: bool) -> dict[str, Any]:
        """What ``seat``'s player is told of the state (its ``state_json``)."""
        raise NotImplementedError

    def legal_move(self, seat: int, wire: Any) -> Any:
        """``seat``'s move ``wire`` (a reply's wire form), parsed and checked: MoveSyntaxError,
        IllegalMoveError (GameError) when it is not a legal move now."""
        return self.game.validate_move(self.state, seat, self.game.parse_move(wire))

    def moved(self, seat: int, move: Any, ply: int, charged_ms: float) -> None:
        """Apply ``seat``'s legal ``move``, its clock charged ``charged_ms``."""
        raise NotImplementedError

    def advance(self, state: Any, step: dict[str, Any]) -> None:
        """Go on to ``state`` after ``step`` (a chance draw, a joint move, an elimination)."""
        raise NotImplementedError(f"{self.game.name}: a two-player game has no {step['kind']} steps")

    def record(self, players: Sequence[Player | None], stderr_dir: Path | None) -> dict[str, Any]:
        """The finished game's record; ``players`` are closed (their accounts are final)."""
        raise NotImplementedError

    # -- what observers hear: the only places the events are made ---------------------------

    def started(self) -> None:
        """The players are started (or one failed to start)."""
        if self.observer is not None:
            self.observer(GameStarted(self.game, self.state, self.specs, self.game_index))

    def stepped(self, step: dict[str, Any], notation: str | None = None) -> None:
        """``step`` was played (``self.state`` is the state after it); ``notation``: its text when
        known (else :func:`step_notation`). Call only when ``self.observer`` is set."""
        assert self.observer is not None
        self.observer(StepPlayed(self.game, step, step_notation(self.game, step) if notation is None else notation,
                                 self.state, tuple(c.left_ms for c in self.clocks), self.specs, self.game_index))

    def finish(self, players: Sequence[Player | None], stderr_dir: Path | None) -> dict[str, Any]:
        """The finished game's :meth:`record`, which observers are told of."""
        result = self.record(players, stderr_dir)
        if self.observer is not None:
            self.observer(GameEnded(self.game, self.state, result, self.game_index))
        return result

    # -- faults ---------------------------------------------------------------------------------

    def end_at_fault(self, seat: int, termination: Termination, reason: str) -> None:
        """``seat``'s fault ends the game."""
        self.faulted.append(seat)
        self.out.append(seat)
        self.left -= 1
        self.ended = (termination, reason)

    def fault(self, seat: int, termination: Termination, reason: str) -> None:
        """Take ``seat`` out for a fault (module docstring)."""
        self.end_at_fault(seat, termination, reason)

    def interrupt(self, reason: str) -> None:
        self.ended = (Termination.INTERRUPTED, reason)

    def tails(self, players: Sequence[Player | None], stderr_dir: Path | None) -> dict[int, str]:
        """The stderr of the seats that faulted, kept in the record when no log files are written."""
        tails: dict[int, str] = {}
        if stderr_dir is None:
            for seat in self.faulted:
                player = players[seat]
                text = player.stderr_text() if player is not None else None
                if text:
                    tails[seat] = text
        return tails


# A ply of a two-player game as kept until its record is built, when no observer watches: (move,
# seat, ply, opening, charged_ms, clock_left_ms). Kept so, the game's record costs the cyclic
# collector nothing while the game goes on: such a tuple holds no container (a move is the game's
# immutable value), and the collector stops tracking it at its first pass, whereas a turn and a step
# are three to five dicts it walks at every full pass, again and again as a long game's record
# grows (and with the collector paused while the record is built, it walks none of it). The match
# loop without pipes, Shobu, 20,000 plies (bench/engine_overhead.py's in_process_loop, medians of 6
# interleaved runs at load 24): 37.6 us a ply with a turn and a step kept a ply, 32.4 so, 33.7
# before format 4; collector passes 289 -> 57. An observer hears each step as it is played: its
# game's turns and steps are made at once (and a tuple beside them would only add to the walks).
_Ply = tuple[Any, int, int, bool, "float | None", "float | None"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic pass of the cyclic collector in the block (a record being built: thousands of
    new dicts, all kept, none in a cycle, which would make it walk the whole heap again); as it was
    after. The block must not await (other tasks would run with the collector paused)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _who(color: Color, spec: AgentSpec) -> str:
    kind = "player" if spec.is_human else "bot"  # a human at the terminal is not a bot
    return f"{color.value} {kind} {spec.id!r}"


@dataclass
class ColourProgress(Progress):
    """A two-player game: the record's two colours, the game's own wire dialect (module docstring)."""

    opening_plies: int = 0
    plies: list[_Ply] = field(default_factory=list)  # every ply from the start, unless observed
    turns: list[dict[str, Any]] = field(default_factory=list)  # every ply's turn, when observed
    steps: list[dict[str, Any]] = field(default_factory=list)  # the turns as steps, when observed
    move_times: list[float] = field(default_factory=list)  # charged ms per bot move
    entries: list[PlayerEntry] = field(default_factory=list)
    rules: Game = field(init=False)  # the two-player game itself (``game`` wraps it)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.rules = cast("TwoPlayerGame[Any, Any]", self.game).game

    def begin(self, start_state: Any) -> None:
        """Start at ``start_state``, or at the initial state followed by the random opening's plies
        (the record's first turns)."""
        opening: list[Any] = []
        if start_state is None and self.opening_plies:
            if self.seed is None:
                raise ValueError("a random opening needs a seed")
            opening = random_opening_moves(self.rules, self.opening_plies, random.Random(self.seed))
        self.start_at(self.rules.initial_state() if start_state is None else start_state)
        self.entries = [player_entry(s.id, s.record_kind, s.command or s.path, color_of(i))
                        for i, s in enumerate(self.specs)]
        for move in opening:
            self._play(move, seat_of(self.rules.to_move(self.state)), self.rules.ply(self.state), True, None, None)

    def _play(self, move: Any, seat: int, ply: int, opening: bool, charged_ms: float | None,
              clock_left_ms: float | None) -> None:
        """Apply ``move``, kept for the record as a :data:`_Ply`, or, when an observer watches, as
        its turn and step (:meth:`_turn_and_step`)."""
        if self.observer is None:
            self.plies.append((move, seat, ply, opening, charged_ms, clock_left_ms))
        else:
            turn, step = self._turn_and_step(move, seat, ply, opening, charged_ms, clock_left_ms)
            self.turns.append(turn)
            self.steps.append(step)
        self.state = self.rules.apply(self.state, move)
        self.states.append(self.rules.state_to_json(self.state))

    def _turn_and_step(self, move: Any, seat: int, ply: int, opening: bool, charged_ms: float | None,
                       clock_left_ms: float | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A ply's turn and step for the record, sharing the move's record form (made once)."""
        form = self.rules.move_to_record(move)
        turn = turn_entry(self.rules, move, opening=opening, charged_ms=charged_ms, clock_left_ms=clock_left_ms,
                          form=form)
        return turn, colour_step(self.rules, move, seat, ply, turn, form)

    def who(self, seat: int) -> str:
        return _who(color_of(seat), self.specs[seat])

    def log_name(self, seat: int) -> str | None:
        return f"{(self.game_index or 0):05d}-{color_of(seat).lower()}-{self.specs[seat].id}.log"

    def make_player(self, seat: int, isolation: Isolation, opts: dict[str, Any]) -> Player:
        return make_player(self.specs[seat], self.game, color_of(seat), time_limit_ms=self.time_control.time_limit_ms,
                           max_moves=self.cap, isolation=isolation, seed=self.seed, **opts)

    def message(self, seat: int, simultaneous: bool) -> dict[str, Any]:
        return self.states[-1]

    def legal_move(self, seat: int, wire: Any) -> Any:
        # The game's own check (the loop asks only the seat to move): the wrapper's would test
        # the outcome again, every ply.
        return self.rules.validate_move(self.state, self.rules.parse_move(wire))

    def moved(self, seat: int, move: Any, ply: int, charged_ms: float) -> None:
        self._play(move, seat, ply, False, charged_ms, self.clocks[seat].left_ms)
        self.move_times.append(charged_ms)
        if self.observer is not None:
            # The record's step of this ply (a copy: observers keep theirs); the turn's notation.
            self.stepped(dict(self.steps[-1]), self.turns[-1]["notation"])

    def outcome(self) -> Outcome:
        """How the game ended, with a reason that names the bot."""
        if self.ended is not None:
            termination, reason = self.ended
            if termination is Termination.INTERRUPTED:
                return Outcome(termination, None, reason)
            return Outcome(termination, color_of(self.faulted[-1]).other, reason)
        ruled = self.rules.outcome(self.state)
        if ruled is None:
            return Outcome(Termination.MAX_MOVES, None,
                           f"draw: the game reached maxMoves ({self.cap} moves) without a winner")
        if ruled.termination is Termination.NO_LEGAL_MOVES:
            loser = seat_of(self.rules.to_move(self.state))
            reason = f"{self.who(loser)} had no legal move and lost"
        elif ruled.winner is not None:
            reason = f"{self.who(seat_of(ruled.winner))} won by the rules"
        else:
            reason = "the game ended by the rules"
        if ruled.reason:
            reason += f": {ruled.reason}"
        return Outcome(ruled.termination, ruled.winner, reason)

    def record(self, players: Sequence[Player | None], stderr_dir: Path | None) -> dict[str, Any]:
        for seat, player in enumerate(players):
            entry = self.entries[seat]
            if player is None:
                continue
            if player.command is not None:
                entry["command"] = player.command
            cpu = getattr(player, "cpu_seconds", None)
            if cpu is not None:
                entry["cpuMs"] = round(cpu * 1000, 3)
            dropped = getattr(player, "early_bytes", 0)
            if dropped:  # bytes before their turn's input: dropped, but a bot author wants to know
                entry["droppedOutput"] = {"bytes": dropped, "turns": player.early_turns,  # type: ignore[attr-defined]
                                          "start": player.early_sample.decode("utf-8", "replace")}  # type: ignore[attr-defined]
        tails = self.tails(players, stderr_dir)
        with collector_paused():
            turns, steps = self.turns, self.steps
            if self.plies:  # no observer watched: the turns and steps are made now
                turns, steps = [], []
                for ply in self.plies:
                    turn, step = self._turn_and_step(*ply)
                    turns.append(turn)
                    steps.append(step)
            record = build_record(
                game_name=self.rules.name, outcome=self.outcome(), players=self.entries, turns=turns,
                steps=steps, game_states=self.states, move_times_ms=self.move_times,
                clocks_left_ms={color_of(s): c.left_ms for s, c in enumerate(self.clocks)},
                time_control=self.time_control.to_json(), max_moves=self.cap, opening_plies=self.opening_plies,
                seed=self.seed, game_index=self.game_index, started_at=self.started_at,
                duration_s=trio.current_time() - self.begun,
                stderr_logs={color_of(s): p for s, p in self.logs.items()} or None,
                stderr_tail={color_of(s): t for s, t in tails.items()} or None)
        # A Record (arena.records.types) as a plain dict, the type the run loops pass on.
        return cast("dict[str, Any]", record)


@dataclass
class SeatProgress(Progress):
    """A game of N seats: the N-seat envelope (module docstring)."""

    legal_moves_for: frozenset[int] = frozenset()
    steps: list[dict[str, Any]] = field(default_factory=list)
    eliminations: list[Elimination] = field(default_factory=list)

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.game.seat_names[seat]}) bot {self.specs[seat].id!r}"

    def log_name(self, seat: int) -> str | None:
        if self.specs[seat].is_human:
            return None
        return f"{(self.game_index or 0):05d}-seat{seat}-{self.specs[seat].id}.log"

    def make_player(self, seat: int, isolation: Isolation, opts: dict[str, Any]) -> Player:
        spec = self.specs[seat]
        # The colour is only a label for two-player protocols; the seat envelope sends none.
        player = make_player(spec, self.game, Color.BLACK, seat=seat, isolation=isolation,
                             seed=self.seed, protocol=SeatEnvelopeProtocol(), **opts)
        player.who = f"the {self.who(seat)}"  # type: ignore[attr-defined]
        return player

    def message(self, seat: int, simultaneous: bool) -> dict[str, Any]:
        game = self.game
        legal = None
        if seat in self.legal_moves_for:
            legal = [game.move_to_wire(m) for m in game.legal_moves(self.state, seat)]
        return seat_message(game.observation(self.state, seat), seat, game.players, simultaneous, legal)

    def advance(self, state: Any, step: dict[str, Any]) -> None:
        self.state = state
        self.steps.append(step)
        self.states.append(self.game.state_to_json(state))
        if self.observer is not None:
            self.stepped(step)

    def moved(self, seat: int, move: Any, ply: int, charged_ms: float) -> None:
        self.advance(self.game.apply(self.state, move), {
            "ply": ply, "kind": "move", "seat": seat, "move": self.game.move_to_record(move),
            "charged_ms": round(charged_ms, 3), "clock_left_ms": round(self.clocks[seat].left_ms, 3)})

    def fault(self, seat: int, termination: Termination, reason: str) -> None:
        ply = self.game.ply(self.state)
        self.eliminations.append({"seat": seat, "ply": ply, "termination": termination.value, "reason": reason})
        after = self.game.eliminate(self.state, seat) if self.game.players > 2 else None
        if after is None:
            self.end_at_fault(seat, termination, reason)
            return
        self.faulted.append(seat)
        self.out.append(seat)
        self.left -= 1
        self.advance(after, {"ply": ply, "kind": "elimination", "seat": seat, "termination": termination.value,
                             "reason": reason})

    def final(self) -> tuple[list[float], list[int], str, str]:
        """Returns, ranks, termination and reason of the finished game."""
        game, n = self.game, self.game.players
        returns = list(game.returns(self.state)) if game.is_terminal(self.state) else [0.0] * n
        alive = [seat for seat in range(n) if seat not in self.out]
        rank = [0] * n
        for seat, r in zip(alive, ranks([returns[s] for s in alive]), strict=True):
            rank[seat] = r
        for place, seat in enumerate(reversed(self.out)):
            rank[seat] = len(alive) + 1 + place
        if self.ended is not None:
            return returns, rank, self.ended[0].value, self.ended[1]
        if game.is_terminal(self.state):
            best = [s for s in alive if rank[s] == 1]
            if len(best) == 1:
                return returns, rank, Termination.WIN.value, f"{self.who(best[0])} won by the rules"
            return returns, rank, Termination.DRAW.value, f"seats {', '.join(map(str, best))} share first place by the rules"
        if len(alive) == 1:
            return returns, rank, Termination.WIN.value, f"{self.who(alive[0])} is the last seat still playing"
        return returns, rank, Termination.MAX_MOVES.value, f"the game reached maxMoves ({self.cap} steps) before its end"

    def record(self, players: Sequence[Player | None], stderr_dir: Path | None) -> dict[str, Any]:
        game = self.game
        returns, rank, termination, reason = self.final()
        seats: list[SeatEntry] = []
        for seat, spec in enumerate(self.specs):
            entry = seat_entry(seat, game.seat_names[seat], spec.id, spec.record_kind, spec.command or spec.path)
            player = players[seat]
            cpu = getattr(player, "cpu_seconds", None)
            if cpu is not None:
                entry["cpuMs"] = round(cpu * 1000, 3)
            if player is not None and player.command is not None:
                entry["command"] = player.command
            seats.append(entry)
        tails = self.tails(players, stderr_dir)
        # A SeatRecord (arena.records.types) as a plain dict, the type the run loops pass on.
        return cast("dict[str, Any]", build_seat_record(
            identity=cast("GameIdentity", game.identity()), seats=seats, steps=self.steps, states=self.states,
            returns=returns, ranks=rank, termination=termination, reason=reason, eliminations=self.eliminations,
            clocks_left_ms=[c.left_ms for c in self.clocks],
            time_control=cast("TimeControlJson", self.time_control.to_json()), max_moves=self.cap,
            seed=cast("int", self.seed), game_index=self.game_index, started_at=self.started_at,  # drawn if not given
            duration_s=trio.current_time() - self.begun,
            stderr_logs={str(s): p for s, p in self.logs.items()} or None,
            stderr_tail={str(s): t for s, t in tails.items()} or None))


def progress_for(game: GeneralGame[Any, Any], specs: Sequence[AgentSpec], *, time_control: TimeControl,
                 max_moves: int | None, start_state: Any, opening_plies: int, seed: int | None,
                 game_index: int | None, observer: Observer | None, legal_moves_for: Sequence[int]) -> Progress:
    """The progress of a game of ``game`` at its start: the one choice of a wire dialect (module
    docstring). ValueError when the agents do not fill the seats, or for a random opening of a game
    that has none."""
    if len(specs) != game.players:
        raise ValueError(f"{game.name} is set for {game.players} players, got {len(specs)} agents")
    cap = game.default_max_moves if max_moves is None else max_moves
    started_at, begun = utc_now_iso(), trio.current_time()
    if not game.seat_envelope:
        colour = ColourProgress(game, list(specs), time_control, cap, seed, game_index, observer,
                                opening_plies=opening_plies, started_at=started_at,
                                begun=begun)
        colour.begin(start_state)
        return colour
    if opening_plies:
        raise ValueError(f"{game.name}: random openings are played in two-player games only")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    seats = SeatProgress(game, list(specs), time_control, cap, seed, game_index, observer,
                         rng=random.Random(seed), legal_moves_for=frozenset(legal_moves_for), started_at=started_at,
                         begun=begun)
    seats.start_at(game.initial_state() if start_state is None else start_state)
    return seats


__all__ = ["ColourProgress", "GameEnded", "GameStarted", "Observer", "Progress", "SeatProgress", "StepPlayed",
           "progress_for", "runs_anywhere", "step_notation"]
