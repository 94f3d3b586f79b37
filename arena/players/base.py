"""The player contract: one side of one game, whatever is behind it (a process, a human...).

A :class:`Player` is used as ``async with player:``. Entering starts it (``start``; may raise
:class:`arena.errors.BotError` if it cannot start at all); leaving always releases everything —
processes killed and reaped — even under cancellation (``aclose`` must shield itself).

Each turn the match calls :meth:`Player.request_move` with the state and a :class:`ClockView`. The
player writes the turn to its bot (or shows it to its human), waits at most ``clock.allowance_s``
seconds *after the input was delivered*, and returns a :class:`MoveReply`:

- a move: ``wire`` is the bot's wire form (Shobu: the turn payload dict; checkers: the path
  string), ``raw`` what it sent, ``sent_at``/``received_at`` the ``trio.current_time()`` when its
  input was fully delivered and when its reply was read (the match charges the difference);
- or a fault: ``fault`` holds the termination and a phrase that completes "BLACK bot 'x' ..."
  (e.g. ``"exited with code 1 before replying"``). A player never raises for a bot's misbehaviour.

Players do not judge moves (the match parses and validates the wire move) and do not keep clocks
(the match charges time and decides timeouts; it gives the player the allowance to enforce).
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, NamedTuple, Self

from arena.games.base import ArenaError, Color, Termination

if TYPE_CHECKING:
    import trio


class ClockView(NamedTuple):
    """What a player may know about its clock for one move (times in ms unless said otherwise).

    ``allowance_s``: seconds from delivering the input until the reply must be read, margin and (on
    the first move) start-up allowance included; past it the move is a timeout.
    ``time_left_ms``: the budget left, as told to bots (no margin, no start-up allowance).
    (A named tuple rather than a dataclass: one is made every ply and this is cheaper.)
    """

    time_limit_ms: int
    time_left_ms: float
    allowance_s: float
    first_move: bool
    ply: int


@dataclass(frozen=True)
class Fault:
    """A bot misbehaved: it loses with ``termination``; ``detail`` completes "BLACK bot 'x' ..."."""

    termination: Termination
    detail: str
    partial: bytes = b""
    #: A timeout called early: the bot read all its input and sleeps waiting for more, so it could
    #: never reply (:mod:`arena.process.waiting`); the match adds the wrong-game hint.
    waiting: bool = False


class MoveReply(NamedTuple):
    """A player's answer for one turn: a wire move or a fault (see module docstring)."""

    wire: Any = None
    raw: bytes = b""
    fault: Fault | None = None
    sent_at: float = 0.0
    received_at: float = 0.0

    @classmethod
    def failed(cls, termination: Termination, detail: str, *, sent_at: float = 0.0,
               received_at: float = 0.0, partial: bytes = b"", waiting: bool = False) -> MoveReply:
        return cls(None, b"", Fault(termination, detail, partial, waiting), sent_at, received_at)


class Player(abc.ABC):
    """One side of one game. Subclasses implement ``start``, ``request_move`` and ``aclose``."""

    def __init__(self, agent_id: str, color: Color, *, command: str | None = None) -> None:
        self.id = agent_id
        self.color = color
        self.command = command

    @abc.abstractmethod
    async def start(self) -> None:
        """Get ready to play (start the process...). Raise BotError if that is impossible."""

    #: True if ``request_move`` itself never waits past ``clock.allowance_s`` after delivering its
    #: input; otherwise the match adds its own backstop deadline around each request.
    enforces_allowance: bool = False

    @abc.abstractmethod
    async def request_move(self, state: Any, clock: ClockView, *,
                           state_json: dict[str, Any] | None = None) -> MoveReply:
        """One turn: see the module docstring. Never raises for the bot's faults.

        ``state_json`` is ``game.state_to_json(state)``, passed when the match has it already.
        """

    #: True if the player implements :meth:`request_move_under` and :meth:`timed_out_reply`: the
    #: match then runs a game's turns under one cancel scope that the player's deadlines move,
    #: rather than entering a scope per turn (which costs about 20 us a ply, 19% of arena's CPU per
    #: ply against an instant bot: ``bench/engine_overhead.py --cpu-only``).
    shares_turn_deadline: bool = False

    async def request_move_under(self, scope: trio.CancelScope, state: Any, clock: ClockView, *,
                                 state_json: dict[str, Any] | None = None) -> MoveReply:
        """``request_move`` with the deadline kept on the match's ``scope`` (see
        ``shares_turn_deadline``).

        The player sets ``scope.deadline`` to (start of the write + ``clock.allowance_s``) while it
        writes and to (input delivered + ``clock.allowance_s``) while it waits for the reply; once
        the reply is read it sets it to ``math.inf`` before waiting for anything else (it may leave
        it if it returns at once: the match sets a new deadline or clears it before its next wait,
        and a deadline can only fire during a wait). The reply's ``sent_at`` is the one the read
        deadline was reckoned from: the match looks whether the scope was spent only when a reply
        came that late. When the deadline passes,
        ``trio.Cancelled`` leaves this method; the match's scope catches it and the match asks
        :meth:`timed_out_reply` what happened. Otherwise the same contract as ``request_move``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not share the match's turn deadline")

    def timed_out_reply(self, now: float) -> MoveReply:
        """The timeout fault of the turn the match's deadline cut short (``now``: when)."""
        raise NotImplementedError(f"{type(self).__name__} does not share the match's turn deadline")

    @abc.abstractmethod
    async def aclose(self) -> None:
        """Release everything (kill and reap processes); shielded from cancellation; idempotent."""

    def turn_stall_s(self) -> float | None:
        """Time since the current turn's input during which the player could have run but waited
        for a CPU, arena's own waits included (None: not measured)."""
        return None

    def grant_more_time(self, now: float) -> bool:
        """Whether a turn whose deadline passed may go on (the player was late only because the
        machine did not run it); see :class:`arena.players.process_player.ProcessPlayer`."""
        return False

    def fault_note(self) -> str:
        """Something the player did earlier that a fault's reason should mention ('' if nothing)."""
        return ""

    def stderr_text(self) -> str | None:
        """What the player wrote to stderr (capped), for a record when it faulted; None if nothing."""
        return None

    def arena_failure(self) -> ArenaError | None:
        """An error of arena's own (e.g. its stderr log could not be written: disk full) that arose
        while the player played; the match raises it after the game instead of recording the game."""
        return None

    async def __aenter__(self) -> Self:
        try:
            await self.start()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
