"""The Shobu JSON protocol (the seed engine's messages).

Arena writes one line per turn: ``{"type": "game_state", "payload": {"board", "turn", "turnNumber"}}``.
The bot replies with one JSON object, on one line or pretty-printed over several (framing
``json_object``): exactly ``{"type": "turn", "payload": {"passive": ..., "aggressive": ...}}``. The
payload's own shape is checked by the game's ``parse_move``; this module checks the envelope.
"""

from __future__ import annotations

from typing import Any, ClassVar

import orjson

from arena.games.base import Game, MoveSyntaxError
from arena.protocols import Framing, Protocol, quote_raw


class ShobuJsonProtocol(Protocol):
    name: ClassVar[str] = "shobu-json"
    framing: ClassVar[Framing] = "json_object"

    def encode_turn(self, game: Game, state: Any, time_left_ms: int,
                    state_json: dict[str, Any] | None = None) -> bytes:
        # The seed's format has no field for the time left.
        payload = state_json if state_json is not None else game.state_to_json(state)
        return orjson.dumps({"type": "game_state", "payload": payload}) + b"\n"

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
        return self.decode_parsed(message, raw)

    def decode_parsed(self, message: Any, raw: bytes) -> Any:
        if type(message) is not dict:
            raise MoveSyntaxError(f"reply is not a JSON object: {quote_raw(raw)}")
        if len(message) != 2 or "type" not in message or "payload" not in message:
            raise MoveSyntaxError(
                f'reply must have exactly the keys "type" and "payload", got {sorted(message)}: {quote_raw(raw)}'
            )
        if message["type"] != "turn":
            raise MoveSyntaxError(f'reply "type" must be "turn", got {message["type"]!r}')
        payload = message["payload"]
        if type(payload) is not dict:
            raise MoveSyntaxError(f'reply "payload" must be an object: {quote_raw(raw)}')
        return payload
