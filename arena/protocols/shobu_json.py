"""The Shobu JSON protocol (the messages of the Shobu engine arena grew from): the generic JSON envelope
(:mod:`arena.protocols.json_envelope`) without a clock field and with an object payload.

Arena writes one line per turn: ``{"type": "game_state", "payload": {"board", "turn", "turnNumber"}}``.
The bot replies with one JSON object, on one line or pretty-printed over several (framing
``json_object``): exactly ``{"type": "turn", "payload": {"passive": ..., "aggressive": ...}}``. The
payload's own shape is checked by the game's ``parse_move``; the envelope is checked here.
"""

from __future__ import annotations

from typing import ClassVar

from arena.protocols.json_envelope import JsonEnvelopeProtocol


class ShobuJsonProtocol(JsonEnvelopeProtocol):
    name: ClassVar[str] = "shobu-json"
    sends_time: ClassVar[bool] = False  # the Shobu engine's format has no field for the time left
    payload_is_object: ClassVar[bool] = True
