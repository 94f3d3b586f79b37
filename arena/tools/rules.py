"""The rules tools behind `arena pass-through`, `arena moves` and `arena perft --state -` (the count
itself is :mod:`arena.tools.perft`'s, one for every game).

Each tool reads a stream of JSON objects (see :mod:`arena.fileio.jsonfiles`) and writes exactly one JSON
line per object, in order, flushed as it goes, so a file of thousands of cases goes through one
process and line counts stay aligned. Malformed input gets a line
``{"error": "malformed_input", "reason": ...}`` on the output and the same one-line message on the
error stream; the tool carries on with the next object. The exit status is 2 if any input was
malformed, else 1 if any move was illegal, else 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

import orjson

from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games import Game, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.base import cap_text
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


def _load_state(game: Game, obj: Any, where: str) -> Any:
    try:
        return game.state_from_json(obj)
    except StateError as exc:
        # "game_state: missing key 'turn'", not "game_state: game state: missing key 'turn'"
        raise MalformedInput(f"{where}: {str(exc).removeprefix('game state: ')}") from None


def pass_through_one(game: Game, obj: dict[str, Any]) -> dict[str, Any]:
    """``{"turn": T, "game_state": S}`` -> the next state's JSON form.

    Raises MalformedInput for a bad shape, IllegalMoveError for a move the rules refuse.
    """
    _check_keys(obj, ("turn", "game_state"))
    state = _load_state(game, obj["game_state"], "game_state")
    try:
        move = game.parse_move(obj["turn"])
    except MoveSyntaxError as exc:
        raise MalformedInput(f"turn: {exc}") from None
    outcome = game.outcome(state)
    if outcome is not None:
        raise IllegalMoveError(f"the game is already over: {outcome.reason or outcome.termination.value}")
    move = game.validate_move(state, move)
    return game.state_to_json(game.apply(state, move))


def moves_one(game: Game, obj: dict[str, Any]) -> list[Any]:
    """A state's JSON form -> every legal move in the form a bot sends it."""
    state = _load_state(game, obj, "state")
    return [game.move_to_wire(m) for m in game.legal_moves(state)]


def perft_one(game: Game, obj: dict[str, Any], depth: int, divide: bool) -> dict[str, Any]:
    """A state's JSON form -> :func:`arena.tools.perft.perft` of it, as JSON."""
    state = _load_state(game, obj, "state")
    return perft(game, state, depth, divide).to_json()


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
