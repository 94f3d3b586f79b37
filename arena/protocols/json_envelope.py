"""The generic JSON protocol: the Shobu envelope around any game's state and move.

Arena writes one line per turn::

    {"type": "game_state", "payload": <the game's state object>, "timeLeftMs": <int>}

where the payload is ``game.state_to_json(state)`` (``{"board", "turn", "turnNumber"}``) and
``timeLeftMs`` the mover's clock. The bot replies with one JSON object, on one line or spread over
several (framing ``json_object``): exactly ``{"type": "turn", "payload": <move>}``, the move in the
game's wire form (``game.parse_move`` reads it: any JSON value the game chooses). Nothing is sent
before the first turn; the game ends when arena closes the bot's stdin.

:class:`JsonEnvelopeProtocol` is the arena side; :func:`arena.agents.protocol_io.serve_json` the bot
side of arena's own agents. The Shobu protocol is this one without ``timeLeftMs`` (the Shobu
engine sends none) and with an object payload.
"""

from __future__ import annotations

from typing import Any, ClassVar

import orjson

from arena.games.base import Game, MoveSyntaxError
from arena.games.model import GeneralGame
from arena.protocols import Framing, Protocol, quote_raw


class JsonEnvelopeProtocol(Protocol):
    name: ClassVar[str] = "json"
    framing: ClassVar[Framing] = "json_object"
    #: Whether each turn's message carries ``timeLeftMs``.
    sends_time: ClassVar[bool] = True
    #: Whether the reply's payload must be a JSON object (else any JSON value).
    payload_is_object: ClassVar[bool] = False

    def encode_turn(self, game: Game[Any, Any] | GeneralGame[Any, Any], state: Any, time_left_ms: int,
                    state_json: dict[str, Any] | None = None) -> bytes:
        payload = state_json if state_json is not None else game.state_to_json(state)
        if self.sends_time:
            message = {"type": "game_state", "payload": payload, "timeLeftMs": max(0, int(time_left_ms))}
        else:
            message = {"type": "game_state", "payload": payload}
        return orjson.dumps(message) + b"\n"

    def decode_reply(self, raw: bytes) -> Any:
        try:
            message = orjson.loads(raw)
        except orjson.JSONDecodeError:
            # orjson refuses bad UTF-8 too: say which of the two it is.
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise MoveSyntaxError(f"reply is not valid UTF-8 (byte {exc.start}): {quote_raw(raw)}") from None
            raise MoveSyntaxError(f"reply is not JSON: {quote_raw(raw)}") from None
        if type(message) is not dict:
            raise MoveSyntaxError(f"reply is not a JSON object: {quote_raw(raw)}")
        if len(message) != 2 or "type" not in message or "payload" not in message:
            raise MoveSyntaxError(
                f'reply must have exactly the keys "type" and "payload", got {sorted(message)}: {quote_raw(raw)}'
            )
        if message["type"] != "turn":
            raise MoveSyntaxError(f'reply "type" must be "turn", got {quote_raw(orjson.dumps(message["type"]), 40)}')
        payload = message["payload"]
        if self.payload_is_object and type(payload) is not dict:
            raise MoveSyntaxError(f'reply "payload" must be an object: {quote_raw(raw)}')
        return payload
