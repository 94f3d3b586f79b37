"""The bot side of the wire protocols, for arena's own bots (the search bots): read what arena
sends, hand a rules state to a chooser, write the move back and flush. A game's registry entry
names its dialect, and :data:`arena.agents.parts.BOT_SIDES` which of these plays it.

Standard library only. The standalone example bots in ``bots/`` do not use this module on purpose:
each of them shows the protocol in full.

- The JSON envelope (:func:`serve_json`; the generic protocol and Shobu's): objects
  ``{"type": "game_state", "payload": {board, turn, turnNumber}, "timeLeftMs": n}``, one per line or
  spread over lines; the reply is one line ``{"type": "turn", "payload": ...}``. Shobu sends no
  clock, so :attr:`Request.time_left_ms` is then ``None``.
- The N-seat envelope of games of more than two players (:func:`serve_seats`): the seat's
  observation, ``seat``, ``players``, ``simultaneous`` and, when sent, ``legalMoves``; the reply is
  ``{"type": "turn", "payload": <move>}``.
- Checkers (``checkers.md``): the total time and our colour once, then per turn the time left and 8
  board lines; the reply is the path line. Blank lines and stray spaces are tolerated.

A state arena sends that is not valid (which arena never does) stops the bot with a one-line
message on stderr and exit status 1, rather than a wrong reply.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from arena.games import Color, Game, StateError
from arena.protocols.framing import Framer, Junk


@dataclass(frozen=True)
class Request:
    """One turn to play: the rules ``state`` (``ShobuState`` or ``CheckersState``), the clock as
    far as the protocol tells it, and when the request was read (``time.perf_counter()``)."""

    state: Any
    time_left_ms: float | None
    total_time_ms: float | None
    received_at: float


Chooser = Callable[[Request], Any]  # returns a legal move of the game (ShobuMove / CheckersMove)


def _say(name: str, message: str) -> None:
    print(f"{name}: {message}", file=sys.stderr, flush=True)


def serve_json(game: Game[Any, Any], choose: Chooser, *, name: str = "bot", stdin: BinaryIO | None = None,
               stdout: TextIO | None = None) -> int:
    """The JSON envelope protocols (the generic ``json`` one and Shobu's): answer every
    ``game_state`` on ``stdin`` with a ``turn`` until it closes; returns the exit status."""
    sink = stdout if stdout is not None else sys.stdout
    for message, received in _game_states(stdin if stdin is not None else sys.stdin.buffer, name):
        try:
            state = game.state_from_json(message.get("payload"))
        except StateError as error:
            _say(name, f"bad game state from arena: {error}")
            return 1
        if game.is_terminal(state):
            _say(name, "asked to move in a finished game")
            return 1
        move = choose(Request(state, _time_left(message), None, received))
        sink.write(json.dumps({"type": "turn", "payload": game.move_to_wire(move)}) + "\n")
        sink.flush()
    return 0


def _game_states(source: BinaryIO, name: str) -> Iterator[tuple[dict[str, Any], float]]:
    """``(message, when it was read)`` for every ``game_state`` object on ``source``; anything
    else is reported on stderr and skipped."""
    framer = Framer()
    for line in source:
        framer.feed(line)
        for item in framer.items():
            if isinstance(item, Junk):
                _say(name, f"ignoring input that is not a JSON object ({item.problem})")
                continue
            received = time.perf_counter()
            try:
                message = json.loads(item)
            except ValueError as error:
                _say(name, f"ignoring bad JSON: {error}")
                continue
            if not isinstance(message, dict) or message.get("type") != "game_state":
                _say(name, "ignoring a message that is not a game_state")
                continue
            yield message, received


def _time_left(message: dict[str, Any]) -> float | None:
    left = message.get("timeLeftMs")
    return float(left) if isinstance(left, int | float) and not isinstance(left, bool) and left >= 0 else None


@dataclass(frozen=True)
class SeatRequest:
    """One decision in a game of more than two players (the N-seat envelope,
    :mod:`arena.protocols.seats`): the seat's ``observation`` (all it may see), its ``seat`` and
    the number of ``players``, whether other seats choose at the same time (``simultaneous``), its
    ``legal_moves`` when arena sent them (``--legal-moves``; else None), the clock, and when the
    request was read (``time.perf_counter()``)."""

    observation: dict[str, Any]
    seat: int
    players: int
    simultaneous: bool
    legal_moves: list[Any] | None
    time_left_ms: float | None
    received_at: float


def serve_seats(choose: Callable[[SeatRequest], Any], *, name: str = "bot", stdin: BinaryIO | None = None,
                stdout: TextIO | None = None) -> int:
    """The bot side of the N-seat envelope: answer every ``game_state`` on ``stdin`` with
    ``{"type": "turn", "payload": choose(request)}`` (the move in wire form) until it closes;
    returns the exit status. For bot authors: a bot is ``sys.exit(serve_seats(my_choice))``."""
    sink = stdout if stdout is not None else sys.stdout
    for message, received in _game_states(stdin if stdin is not None else sys.stdin.buffer, name):
        observation, seat, players = message.get("payload"), message.get("seat"), message.get("players")
        if not isinstance(observation, dict) or type(seat) is not int or type(players) is not int:
            _say(name, "a game_state without an observation, a seat and the players: not the N-seat envelope")
            return 1
        legal = message.get("legalMoves")
        request = SeatRequest(observation, seat, players, bool(message.get("simultaneous")),
                              legal if isinstance(legal, list) else None, _time_left(message), received)
        sink.write(json.dumps({"type": "turn", "payload": choose(request)}) + "\n")
        sink.flush()
    return 0


def _content_lines(source: TextIO) -> Iterator[str]:
    for line in source:
        line = line.strip()
        if line:
            yield line


def serve_checkers(game: Game[Any, Any], choose: Chooser, *, name: str = "bot", stdin: TextIO | None = None,
                   stdout: TextIO | None = None) -> int:
    """Play the checkers line protocol on ``stdin``/``stdout``; returns the exit status.

    The protocol does not send the move counter: it is estimated from the number of requests
    (both sides alternate from the start), which only matters near the draw cap.
    """
    from arena.games.checkers.rules import state_from_board

    lines = _content_lines(stdin if stdin is not None else sys.stdin)
    sink = stdout if stdout is not None else sys.stdout
    try:
        total = float(next(lines))
        colour_word = next(lines).lower()
    except StopIteration:
        return 0
    except ValueError:
        _say(name, "the first line must be the total time in ms")
        return 1
    if colour_word not in ("black", "white"):
        _say(name, f"the second line must be black or white, got {colour_word[:20]!r}")
        return 1
    colour = Color.BLACK if colour_word == "black" else Color.WHITE
    for asked, time_line in enumerate(lines):
        received = time.perf_counter()
        try:
            time_left = float(time_line)
            board = [next(lines) for _ in range(8)]
        except StopIteration:
            return 0
        except ValueError:
            _say(name, f"expected the time left, got {time_line[:40]!r}")
            return 1
        turn_number = 2 * asked + (0 if colour is Color.BLACK else 1)
        try:
            state = state_from_board(board, colour, turn_number)
        except StateError as error:
            _say(name, f"bad board from arena: {error}")
            return 1
        if game.is_terminal(state):
            _say(name, "asked to move without a legal move")
            return 1
        move = choose(Request(state, time_left, total, received))
        sink.write(game.move_to_wire(move) + "\n")
        sink.flush()
    return 0
