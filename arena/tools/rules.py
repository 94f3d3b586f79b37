"""The rules tools behind `arena pass-through`, `arena moves` and `arena perft --state -`, one of
each for every game: each reads a game through the one game interface
(:class:`arena.games.model.GeneralGame`) and speaks that game's dialect. The count itself is
:mod:`arena.tools.perft`'s.

Each tool reads a stream of JSON objects (see :mod:`arena.fileio.jsonfiles`) and writes exactly one JSON
line per object, in order, flushed as it goes, so a file of thousands of cases goes through one
process and line counts stay aligned. Malformed input gets a line
``{"error": "malformed_input", "reason": ...}`` on the output and the same one-line message on the
error stream; the tool carries on with the next object. The exit status is 2 if any input was
malformed, else 1 if any move was illegal, else 0.

The dialects (states are the states of records: a two-player game's ``{"board", "turn",
"turnNumber"}``, an N-seat game's omniscient state), chosen by the game (``colour_dialect``):

- the colour dialect (BLACK and WHITE taking turns in plain sight): pass-through reads
  ``{"turn": T, "game_state": S}`` (the side to move plays T); moves prints the array of the side
  to move's legal moves.
- any other game: pass-through reads ``{"game_state": S, "seat": k, "turn": T}`` at a seat's node,
  ``{"game_state": S, "turns": {"0": T0, "2": T2}}`` at a simultaneous node (one move per acting
  seat), ``{"game_state": S, "chance": O}`` at a chance node; moves prints
  ``{"actor": k, "moves": {"k": [...]}}`` (a seat or ``"simultaneous"``, with every acting seat's
  moves), ``{"actor": "chance", "outcomes": [[O, "1/3"], ...]}`` or
  ``{"actor": "terminal", "returns": [...]}``.

Both print the next state for pass-through, and perft's JSON (:meth:`arena.tools.perft.PerftResult.to_json`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

import orjson

from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.base import cap_text
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, apply_step
from arena.protocols.framing import Framer, Junk
from arena.tools.perft import perft

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2
MAX_INPUT_OBJECT = 1 << 20


class MalformedInput(Exception):
    """One input object that cannot be processed; the message is the one-line reason."""


@dataclass
class StreamReport:
    """What a tool run saw: counts that decide the exit status."""

    objects: int = 0
    illegal: int = 0
    malformed: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.malformed or self.objects == 0:
            return EXIT_MALFORMED
        return EXIT_ILLEGAL if self.illegal else EXIT_OK


def decode_object(text: bytes) -> dict[str, Any]:
    """Decode one JSON object (:func:`arena.fileio.jsonfiles.strict_loads`: no key twice, bounded
    nesting); MalformedInput for invalid JSON or UTF-8."""
    try:
        value = strict_loads(text)
    except JsonInputError as exc:
        raise MalformedInput(f"invalid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise MalformedInput(f"expected a JSON object, got {type(value).__name__}")
    return value


def _check_keys(obj: dict[str, Any], required: tuple[str, ...]) -> None:
    missing = [k for k in required if k not in obj]
    if missing:
        raise MalformedInput(f"missing key {missing[0]!r} (expected keys: {', '.join(required)})")
    extra = sorted(k for k in obj if k not in required)
    if extra:
        raise MalformedInput(f"unexpected key {extra[0]!r} (expected keys: {', '.join(required)})")


def _state(game: GeneralGame[Any, Any], obj: Any, where: str) -> Any:
    try:
        return game.state_from_json(obj)
    except StateError as exc:
        # "game_state: missing key 'turn'", not "game_state: game state: missing key 'turn'"
        raise MalformedInput(f"{where}: {str(exc).removeprefix('game state: ')}") from None


def pass_through_one(game: GeneralGame[Any, Any], obj: dict[str, Any]) -> dict[str, Any]:
    """One step in the game's dialect (module docstring) -> the next state's JSON form.

    Raises MalformedInput for a bad shape, IllegalMoveError for a move the rules refuse.
    """
    step = _colour_step if game.colour_dialect else _seat_step
    return game.state_to_json(step(game, obj))


def _over(game: GeneralGame[Any, Any], state: Any) -> IllegalMoveError:
    reason = game.end_reason(state)
    return IllegalMoveError(f"the game is already over{': ' + reason if reason else ''}")


def _colour_step(game: GeneralGame[Any, Any], obj: dict[str, Any]) -> Any:
    """``{"turn": T, "game_state": S}`` -> the next state (the side to move plays T)."""
    _check_keys(obj, ("turn", "game_state"))
    state = _state(game, obj["game_state"], "game_state")
    try:
        move = game.parse_move(obj["turn"])
    except MoveSyntaxError as exc:
        raise MalformedInput(f"turn: {exc}") from None
    if game.is_terminal(state):
        raise _over(game, state)
    return game.apply(state, game.validate_move(state, game.actor(state), move))


def _seat_step(game: GeneralGame[Any, Any], obj: dict[str, Any]) -> Any:
    """A seat's move, a joint move or a chance outcome beside ``game_state`` -> the next state."""
    if "game_state" not in obj:
        raise MalformedInput("missing key 'game_state' (and one of 'turn' with 'seat', 'turns', 'chance')")
    keys = sorted(set(obj) - {"game_state"})
    if keys not in (["seat", "turn"], ["turns"], ["chance"]):
        raise MalformedInput(f"expected 'seat' and 'turn', or 'turns', or 'chance' beside 'game_state', got {keys}")
    state = _state(game, obj["game_state"], "game_state")
    if game.actor(state) == TERMINAL:
        raise _over(game, state)
    if "chance" in obj:
        step: dict[str, Any] = {"kind": "chance", "outcome": obj["chance"]}
    elif "turns" in obj:
        if not isinstance(obj["turns"], dict) or not all(isinstance(k, str) and k.isdigit() for k in obj["turns"]):
            raise MalformedInput('turns: expected an object {"<seat>": <move>, ...}')
        step = {"kind": "joint", "moves": obj["turns"]}
    else:
        if type(obj["seat"]) is not int:
            raise MalformedInput(f"seat: expected an integer, got {obj['seat']!r}")
        step = {"kind": "move", "seat": obj["seat"], "move": obj["turn"]}
    try:
        return apply_step(game, state, step)
    except MoveSyntaxError as exc:  # not a move at all
        raise MalformedInput(f"{'chance' if 'chance' in obj else 'turn'}: {exc}") from None
    except IllegalMoveError:
        raise
    except GameError as exc:  # a step the rules do not take here (not a chance node...)
        raise IllegalMoveError(str(exc)) from None


def moves_one(game: GeneralGame[Any, Any], obj: dict[str, Any]) -> list[Any] | dict[str, Any]:
    """A state's JSON form -> what may be played there, in the game's dialect (module docstring),
    each move in the form a bot sends it."""
    state = _state(game, obj, "state")
    if game.colour_dialect:  # the side to move's moves, as the game lists them (even once it is over)
        return [game.move_to_wire(m) for seat in range(game.players) for m in game.legal_moves(state, seat)]
    actor = game.actor(state)
    if actor == TERMINAL:
        return {"actor": "terminal", "returns": list(game.returns(state))}
    if actor == CHANCE:
        return {"actor": "chance", "outcomes": [[game.move_to_wire(o), str(p)] for o, p in game.chance_outcomes(state)]}
    moves = {str(seat): [game.move_to_wire(m) for m in game.legal_moves(state, seat)]
             for seat in game.acting_seats(state)}
    return {"actor": "simultaneous" if actor == SIMULTANEOUS else actor, "moves": moves}


def perft_one(game: GeneralGame[Any, Any], obj: dict[str, Any], depth: int, divide: bool) -> dict[str, Any]:
    """A state's JSON form -> :func:`arena.tools.perft.perft` of it, as JSON."""
    return perft(game, _state(game, obj, "state"), depth, divide).to_json()


Handler = Callable[[dict[str, Any]], Any]


def iter_chunks(stream: BinaryIO, size: int = 1 << 16) -> Iterable[bytes]:
    """Read what is available, without waiting for a full buffer, so interactive pipes flow."""
    read = getattr(stream, "read1", stream.read)
    while True:
        chunk = read(size)
        if not chunk:
            return
        yield chunk


def run_stream(handler: Handler, chunks: Iterable[bytes], out: BinaryIO, err: TextIO) -> StreamReport:
    """Apply ``handler`` to every JSON object in ``chunks``; one output line per object.

    ``handler`` returns a JSON-ready result, or raises MalformedInput / IllegalMoveError.
    Never raises for bad input.
    """
    report = StreamReport()
    framer = Framer(MAX_INPUT_OBJECT)

    def emit(value: Any) -> None:
        out.write(orjson.dumps(value) + b"\n")
        out.flush()

    def malformed(reason: str) -> None:
        report.malformed += 1
        message = f"object {report.objects}: {reason}"
        report.errors.append(message)
        emit({"error": "malformed_input", "reason": message})
        err.write(f"arena: malformed input: {message}\n")
        err.flush()

    def handle(item: bytes | Junk) -> None:
        report.objects += 1
        if isinstance(item, Junk):
            malformed(item.problem + (f": {_preview(item.data)}" if item.data else ""))
            return
        try:
            emit(handler(decode_object(item)))
        except MalformedInput as exc:
            malformed(str(exc))
        except IllegalMoveError as exc:
            report.illegal += 1
            emit({"error": "illegal_move", "reason": str(exc)})

    for chunk in chunks:
        framer.feed(chunk)
        for item in framer.items():
            handle(item)
    for item in framer.close():
        handle(item)
    if report.objects == 0:
        message = "no input: expected one or more JSON objects on stdin"
        report.errors.append(message)
        err.write(f"arena: {message}\n")
        err.flush()
    return report


def _preview(data: bytes, limit: int = 60) -> str:
    text = data.decode("utf-8", errors="replace").strip()
    return repr(cap_text(text, limit))
