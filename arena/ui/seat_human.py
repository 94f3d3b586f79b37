"""A person at one seat of a game of the general model (N seats, chance, hidden cards), at the
terminal: ``arena match human bot.py bot.py --game kuhn_poker``.

Each time the seat must act the person sees what the seat may see, and nothing else: the game's
``board_text(state, seat)`` (the seat's observation drawn as text), the clock, and the legal moves.
They type a move as a bot would send it (``bet``, ``7``, ``guard 2 priest``; JSON works too);
``?`` lists the legal moves again, ``resign`` gives up (the seat is then out, as after a bot's
fault). A wrong entry is explained and asked again. The end of the input resigns. Input is read by
the same threaded stdin reader as the two-player human (:mod:`arena.ui.human`), so clocks and
Ctrl-C keep working while the person thinks.
"""

from __future__ import annotations

import json
from typing import Any

import trio
from rich.console import Console
from rich.text import Text

from arena.games.base import GameError, Termination
from arena.games.model import GeneralGame
from arena.players import register_seat_human
from arena.players.base import ClockView, MoveReply, Player
from arena.players.spec import AgentSpec
from arena.ui.human import LineSource, format_clock, stdin_is_terminal, stdin_lines


def read_move(text: str) -> Any:
    """A typed move in wire form: JSON when it reads as JSON (``7``, ``"bet"``), else the text."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        return text


class SeatHuman(Player):
    """A person playing ``seat`` of ``game`` at the terminal (module docstring)."""

    enforces_allowance = True

    def __init__(self, spec: AgentSpec, game: GeneralGame[Any, Any], seat: int, *, console: Console | None = None,
                 lines: LineSource | None = None, echo: bool | None = None, **_process_options: Any) -> None:
        from arena.games.base import Color

        super().__init__(spec.id, Color.BLACK, command="(human at the terminal)")
        self.game, self.seat = game, seat
        self.console = console if console is not None else Console(stderr=True)
        self.lines: LineSource = lines if lines is not None else stdin_lines()
        self.echo = bool(echo) if echo is not None else (lines is not None or not stdin_is_terminal())

    async def start(self) -> None:
        self._say(f"{self.id}: you sit at seat {self.seat} ({self.game.seat_names[self.seat]}) of "
                  f"{self.game.players} in {self.game.name}; type a move as shown, ? for the legal moves.", "bold")

    async def aclose(self) -> None:
        """Nothing to release: the stdin reader is shared and outlives a game."""

    def _say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style), highlight=False)

    async def request_move(self, state: Any, clock: ClockView, *,
                           state_json: dict[str, Any] | None = None) -> MoveReply:
        game, seat = self.game, self.seat
        self.console.rule(f"{self.id}: seat {seat} ({game.seat_names[seat]}) of {game.name}, step {clock.ply}")
        self._say(game.board_text(state, seat))
        simultaneous = bool(state_json and state_json.get("rest", {}).get("simultaneous"))
        if simultaneous:
            self._say("the other seats choose at the same time", "dim")
        sent_at = trio.current_time()
        with trio.move_on_at(sent_at + clock.allowance_s):
            return await self._ask(state, clock, sent_at)
        self._say("Time is up: you lose on time.", "bold red")
        return MoveReply.failed(Termination.TIMEOUT, "did not move in time", sent_at=sent_at,
                                received_at=trio.current_time())

    async def _ask(self, state: Any, clock: ClockView, sent_at: float) -> MoveReply:
        game, seat = self.game, self.seat
        legal = [game.move_to_wire(m) for m in game.legal_moves(state, seat)]
        self._say("legal: " + ", ".join(json.dumps(w) if not isinstance(w, str) else w for w in legal), "dim")
        while True:
            left = clock.time_left_ms - (trio.current_time() - sent_at) * 1000
            self.console.print(Text(f"{format_clock(max(0.0, left))} left; your move> ", style="bold yellow"), end="")
            line = await self.lines.readline()
            if line is not None and self.echo:
                self.console.print(Text(line))
            if line is None or line.strip().lower() in ("resign", "quit"):
                why = "resigned at the terminal" if line is not None else "resigned: the input ended"
                return MoveReply.failed(Termination.RESIGN, why, sent_at=sent_at, received_at=trio.current_time())
            if line.strip() in ("?", "moves"):
                self._say("legal: " + ", ".join(map(str, legal)), "dim")
                continue
            wire = read_move(line)
            try:
                game.validate_move(state, seat, game.parse_move(wire))
            except GameError as exc:
                self._say(f"{line.strip()!r}: {exc}", "yellow")
                continue
            return MoveReply(wire, line.strip().encode(), None, sent_at, trio.current_time())


register_seat_human(SeatHuman)
