"""Wire protocols: how a state is written for a bot and how its reply is read. Pure, no I/O.

A :class:`Protocol` is a dialect over a byte stream. The process transport (:mod:`arena.process.bot`) moves
the bytes, the one framer (:mod:`arena.protocols.framing`) cuts them into replies; the protocol says which framing a reply uses (``"line"`` or ``"json_object"``), what to
write at the start of a game and before each turn, and turns the raw reply into the game's *wire
move* — what :meth:`arena.games.base.Game.parse_move` accepts. ``decode_reply`` raises
:class:`arena.games.base.MoveSyntaxError` (a ``malformed_reply``) with a reason naming the problem.

A game names its protocol in its :class:`arena.games.registry.GameSpec`: one of the dialects arena
implements, by name (:data:`DIALECTS`, this layer's table of them), or a plugin's own class. Most
new games use the generic JSON envelope (:mod:`arena.protocols.json_envelope`) and need no protocol
code.

May import: the standard library, orjson and :mod:`arena.games`; no I/O.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar, Literal

from arena.games.base import Color, Game, cap_text
from arena.games.model import GeneralGame

Framing = Literal["line", "json_object"]


class Protocol(abc.ABC):
    """One wire dialect. Stateless: one instance serves every game and every bot."""

    name: ClassVar[str]
    framing: ClassVar[Framing]

    def opening(self, color: Color, time_limit_ms: int) -> bytes:
        """Bytes sent once, before the first turn's input (default: nothing)."""
        return b""

    @abc.abstractmethod
    def encode_turn(self, game: Game[Any, Any] | GeneralGame[Any, Any], state: Any, time_left_ms: int,
                    state_json: dict[str, Any] | None = None) -> bytes:
        """The input for one turn of the bot to move in ``state``, ending with a newline.

        ``state_json`` is ``game.state_to_json(state)`` when the caller already has it (saves work).
        """

    @abc.abstractmethod
    def decode_reply(self, raw: bytes) -> Any:
        """The wire move in one framed reply; MoveSyntaxError when it is not a reply at all."""


#: arena's side of each wire dialect, by the name a game's spec gives
#: (:data:`arena.games.registry.DIALECTS`), loaded when a game speaking it is played.
DIALECTS: dict[str, str] = {
    "json": "arena.protocols.json_envelope:JsonEnvelopeProtocol",
    "shobu-json": "arena.protocols.shobu_json:ShobuJsonProtocol",
    "checkers-lines": "arena.protocols.checkers_lines:CheckersLineProtocol",
    # Games of the general model (N seats, chance, hidden information).
    "json-seats": "arena.protocols.seats:SeatEnvelopeProtocol",
}


def protocol_for(game_name: str) -> Protocol:
    """The protocol bots speak for the registered game ``game_name`` (a fresh instance): the
    dialect its spec names, or a plugin's own ``"module:Class"``; GameError for an unknown game or
    a protocol that cannot be loaded."""
    from arena.games.base import GameError
    from arena.games.registry import get_spec, load_ref

    spec = get_spec(game_name)
    ref = DIALECTS.get(spec.protocol, spec.protocol)
    cls = load_ref(ref)
    if not (isinstance(cls, type) and issubclass(cls, Protocol)):
        raise GameError(f"game {game_name!r}: {ref} is not an arena.protocols.Protocol class")
    return cls()


def quote_raw(raw: bytes, limit: int = 120) -> str:
    """A short printable quotation of a bot's raw output for a reason (lenient decoding, capped)."""
    return repr(cap_text(raw[: limit * 4].decode("utf-8", "backslashreplace"), limit))


__all__ = ["DIALECTS", "Framing", "Protocol", "protocol_for", "quote_raw"]
