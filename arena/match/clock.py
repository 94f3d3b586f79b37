"""A game's clocks: the time control and one side's clock, the only place where time is charged.

Time (arena.md "Time"): each bot has ``time_limit_ms`` for the whole game, charged from the moment a
turn's input is fully written until the reply is read. A reply later than time left + margin (capped
by ``move_time_limit_ms`` if set) loses on time; the margin is never added to the budget. A bot's
first reply gets ``startup_ms`` on top, uncharged. ``increment_ms`` is added after each move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.limits import DEFAULT_STARTUP_MS, DEFAULT_TIME_LIMIT_MS, DEFAULT_TIME_MARGIN_MS
from arena.match.hints import timeout_hint
from arena.players.base import ClockView, MoveReply, Player


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


def timeout_reason(who: str, clock: GameClock, allowance_ms: float, elapsed_ms: float,
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


__all__ = ["GameClock", "TimeControl", "fair_thinking_ms", "timeout_reason"]
