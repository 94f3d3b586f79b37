"""The frames between the local backend's driver and its worker processes (:mod:`arena.backends.pool`,
:mod:`arena.backends.worker`): a 4-byte big-endian length, then a pickled tuple.

Pickle, not JSON: a :class:`arena.backends.GameJob` and the observer events carry game objects and
states (Ray pickles the same jobs). Both ends are this program on this machine, started by the
driver with pipes no one else holds, so the bytes are never another program's.

Driver to worker: ``("play", job_id, job, stderr_dir, send_events)``, ``("cancel", job_id)``.
Worker to driver: ``("event", job_id, shared, pickled_event)``, ``("done", job_id, record)``,
``("raise", job_id, kind, message)`` (kind ``resource``, ``os`` or the exception's class name) and
``("cancelled", job_id)`` (the game was cancelled and its bots are gone).
"""

from __future__ import annotations

import io
import pickle
import struct
from typing import Any

import trio

#: A frame's length prefix.
HEADER = struct.Struct(">I")
#: The largest frame either end accepts (a record of a very long game is a few MB).
MAX_FRAME = 1 << 30


def frame(message: tuple[Any, ...]) -> bytes:
    """``message`` as one frame. Raises what pickle raises for an object it cannot pickle."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


class FrameReader:
    """Frames from a byte stream: :meth:`next` returns the next message, None at a clean end of
    the stream. Raises EOFError when the stream ends inside a frame, ValueError for a frame
    longer than :data:`MAX_FRAME`."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self.stream = stream
        self.buffer = bytearray()

    async def _fill(self, size: int) -> bool:
        while len(self.buffer) < size:
            chunk = await self.stream.receive_some(1 << 16)
            if not chunk:
                if self.buffer:
                    raise EOFError(f"the stream ended {len(self.buffer)} bytes into a frame")
                return False
            self.buffer += chunk
        return True

    async def next(self) -> Any:
        if not await self._fill(HEADER.size):
            return None
        (size,) = HEADER.unpack_from(self.buffer)
        if size > MAX_FRAME:
            raise ValueError(f"a frame of {size} bytes is over the limit of {MAX_FRAME}")
        if not await self._fill(HEADER.size + size):
            raise EOFError("the stream ended inside a frame")
        body = bytes(self.buffer[HEADER.size:HEADER.size + size])
        del self.buffer[:HEADER.size + size]
        return pickle.loads(body)


class EventPickler:
    """One game's observer events, pickled with the objects every event of the game repeats (the
    game, the players) sent once: an event refers to them by number. A Breakthrough StepPlayed
    then unpickles in 12.7 us instead of 31.9 (load 18; the game and the players were two thirds)."""

    def __init__(self) -> None:
        self.shared: list[Any] = []

    def dumps(self, event: Any) -> tuple[list[Any], bytes]:
        """``event`` pickled, and the shared objects first seen in it (to send before it). Raises
        what pickle raises when the event or one of those objects cannot be pickled (a plugin's game
        holding a handle; a referee's game pickles as its command): nothing is then counted as
        shared, so no later event of the game refers to an object the driver never received."""
        fresh = [o for o in (getattr(event, "game", None), getattr(event, "players", None))
                 if o is not None and not any(o is known for known in self.shared)]
        shared = self.shared + fresh
        if fresh:
            pickle.dumps(fresh, protocol=pickle.HIGHEST_PROTOCOL)  # sent by the frame: fail here first
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = lambda obj: next((i for i, o in enumerate(shared) if o is obj), None)  # type: ignore[method-assign]
        pickler.dump(event)
        self.shared = shared
        return fresh, buffer.getvalue()


class EventUnpickler:
    """The driver's side of :class:`EventPickler` for one game."""

    def __init__(self) -> None:
        self.shared: list[Any] = []

    def loads(self, fresh: list[Any], data: bytes) -> Any:
        self.shared.extend(fresh)
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = self.shared.__getitem__  # type: ignore[method-assign]
        return unpickler.load()
