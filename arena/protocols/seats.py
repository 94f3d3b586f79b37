"""The N-seat JSON envelope: the generic JSON protocol for games of the general model
(:mod:`arena.games.model`: more than two seats, chance, simultaneous moves, hidden information).

Per decision arena writes one line to each seat asked to act::

    {"type": "game_state", "payload": <observation>, "timeLeftMs": <int>, "seat": <int>,
     "players": <N>, "simultaneous": <bool>, "legalMoves": [<wire move>, ...]}

``payload`` is ``game.observation(state, seat)``: all that seat may see, never another seat's hidden
information. ``simultaneous`` is true when other seats are asked for their moves at the same time
(no seat sees the others' moves of that step before its own is in). ``legalMoves`` is there only
for an agent that asked for it (``--legal-moves``, config agent key ``"legalMoves": true``). The
bot replies as in the two-player envelope: one JSON object ``{"type": "turn", "payload": <move>}``.
Nothing is sent before a seat's first decision, and a seat may be sent nothing for several steps
while others act. Two-player games of today keep their own protocols, byte for byte.
"""

from __future__ import annotations

from typing import Any, ClassVar

import orjson

from arena.games.base import Game
from arena.games.model import GeneralGame
from arena.protocols.json_envelope import JsonEnvelopeProtocol


def seat_message(observation: dict[str, Any], seat: int, players: int, simultaneous: bool,
                 legal_moves: list[Any] | None) -> dict[str, Any]:
    """The parts of a decision's message other than the clock, in the order they are written."""
    message: dict[str, Any] = {"seat": seat, "players": players, "simultaneous": simultaneous}
    if legal_moves is not None:
        message["legalMoves"] = legal_moves
    return {"payload": observation, "rest": message}


class SeatEnvelopeProtocol(JsonEnvelopeProtocol):
    """Arena's side of the N-seat envelope. ``encode_turn`` takes the message of
    :func:`seat_message` as its ``state_json`` (the engine builds it per seat)."""

    name: ClassVar[str] = "json-seats"

    def encode_turn(self, game: Game[Any, Any] | GeneralGame[Any, Any], state: Any, time_left_ms: int,
                    state_json: dict[str, Any] | None = None) -> bytes:
        if state_json is None:
            raise ValueError("the N-seat envelope is built by the engine (seat_message)")
        message = {"type": "game_state", "payload": state_json["payload"], "timeLeftMs": max(0, int(time_left_ms)),
                   **state_json["rest"]}
        return orjson.dumps(message) + b"\n"
