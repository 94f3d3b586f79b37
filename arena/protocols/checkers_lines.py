"""The checkers line protocol (the checkers system's executable-agent protocol).

Once, at the start: ``<timeLimit>\\n<black|white>\\n``. Each turn: ``<time left ms>\\n`` then the 8 board
lines (8 symbols separated by single spaces, row 0 first, white's perspective). The bot replies with
one line ``n c1 r1 ... cn rn``. Reading is tolerant (``\\r\\n``, extra spaces); the path's shape is
checked by the game's ``parse_move`` and its legality by ``validate_move``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena.games.base import Color, Game, MoveSyntaxError
from arena.games.model import GeneralGame
from arena.protocols import Framing, Protocol, quote_raw


class CheckersLineProtocol(Protocol):
    name: ClassVar[str] = "checkers-lines"
    framing: ClassVar[Framing] = "line"

    def opening(self, color: Color, time_limit_ms: int) -> bytes:
        return f"{int(time_limit_ms)}\n{color.lower()}\n".encode()

    def encode_turn(self, game: Game[Any, Any] | GeneralGame[Any, Any], state: Any, time_left_ms: int,
                    state_json: dict[str, Any] | None = None) -> bytes:
        # The record's state board is the 8 protocol lines.
        lines = (state_json if state_json is not None else game.state_to_json(state))["board"]
        return (f"{max(0, int(time_left_ms))}\n" + "\n".join(lines) + "\n").encode()

    def decode_reply(self, raw: bytes) -> Any:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MoveSyntaxError(f"reply is not valid UTF-8 (byte {exc.start}): {quote_raw(raw)}") from None
        line = " ".join(text.split())
        if not line:
            raise MoveSyntaxError("reply is an empty line")
        return line
