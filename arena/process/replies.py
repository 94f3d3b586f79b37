"""Reading a bot's replies: the reads and the waits around the one framer.

:class:`ReplyReader` reads a bot's stdout into a :class:`arena.protocols.framing.Framer` (which
finds the lines or JSON objects, with the size bound) until it has a reply. It never holds much
more than its byte limit, whatever the peer sends: an over-long reply raises
:class:`ReplyTooLong` rather than growing a buffer; end of output raises :class:`EndOfOutput` with
the partial reply. It reads a trio receive stream, or a non-blocking file
descriptor directly (what the process layer uses: it is how :attr:`ReplyReader.gone` can take what
is already in the pipe).

When the bot's leader process has exited (:attr:`ReplyReader.gone`, set by the process layer,
which also wakes a waiting read), the reader stops waiting for more output: a child that inherited
the bot's stdout could hold it open for ever. It takes what is already in the pipe, and a reply
that is complete there is still returned; otherwise the read ends with EndOfOutput.
"""

from __future__ import annotations

import fcntl
import os
import termios
from collections.abc import Callable

import trio

from arena.errors import ArenaError
from arena.protocols.framing import DEFAULT_MAX_REPLY_BYTES, Framer, NeedData, TooLong

__all__ = ["DEFAULT_MAX_REPLY_BYTES", "RECEIVE_CHUNK", "BotGone", "EndOfOutput", "ReplyReader", "ReplyTooLong",
           "TransportError"]

RECEIVE_CHUNK = 65536
_NO_BYTES = bytes(4)  # FIONREAD's answer (a C int) when a pipe holds nothing


class TransportError(ArenaError):
    """A bot's pipes failed us: it closed stdout, died, or sent too much."""


class EndOfOutput(TransportError):
    """The bot's stdout reached end of file. ``partial`` is what it sent of an unfinished reply."""

    def __init__(self, partial: bytes) -> None:
        super().__init__("the bot closed its stdout")
        self.partial = partial


class ReplyTooLong(TransportError):
    """A reply grew past the byte limit before it ended. ``head`` is its start (for the reason)."""

    def __init__(self, limit: int, head: bytes) -> None:
        super().__init__(f"reply longer than {limit} bytes")
        self.limit = limit
        self.head = head


class BotGone(TransportError):
    """Writing to the bot failed: its stdin is closed (usually because it exited)."""


class ReplyReader:
    """Replies read from a receive stream and framed by a :class:`~arena.protocols.framing.Framer`.

    Memory stays bounded by about ``limit`` plus one receive chunk, whatever the peer sends.

    With ``fd`` (the stream's non-blocking file descriptor) the reader waits with
    ``trio.lowlevel.wait_readable`` and calls ``os.read`` itself, and honours :attr:`gone`. (It is
    not faster than ``receive_some``: a game read through a ``trio.lowlevel.FdStream`` cost the
    same or less CPU per ply in ``bench/engine_overhead.py --cpu-only``.) ``waits`` counts the
    waits (in either mode), so a caller can tell whether a read gave other tasks a turn: a reply
    already in the buffer is returned without one.
    """

    def __init__(self, stream: trio.abc.ReceiveStream | None, fd: int | None = None) -> None:
        if stream is None and fd is None:
            raise ValueError("ReplyReader needs a stream or a file descriptor")
        self._stream = stream
        self._fd = fd
        self.framer = Framer()
        self._eof = False
        self.waits = 0
        #: Set when the bot's leader process has exited: read only what is already there.
        self.gone = False

    def pending(self) -> bytes:
        """Bytes received but not consumed yet (e.g. half a reply at a timeout)."""
        return self.framer.pending()

    def discard_early(self, limit: int = 1 << 20) -> bytes:
        """Drop what arrived before a turn's question: the buffer and what the pipe holds now (at
        most ``limit`` bytes are read). Returns them without blanks (spaces, tabs, line ends): a
        reply cannot precede its question, so such bytes are a bot writing ahead, debug output on
        stdout, or someone else's injection. Needs the descriptor (``fd`` mode); never waits."""
        fd = self._fd
        if fd is not None and fd >= 0 and not self._eof and not self.framer.buffered:
            # The usual case, nothing there: FIONREAD tells without the exception of a failed read
            # (an end of output found later rather than here comes out the same at the next read).
            try:
                if fcntl.ioctl(fd, termios.FIONREAD, _NO_BYTES) == _NO_BYTES:
                    return b""
            except OSError:
                pass
        dropped = bytearray(self.framer.take())
        if self._fd is not None and self._fd >= 0 and not self._eof:
            while len(dropped) < limit:
                try:
                    chunk = os.read(self._fd, RECEIVE_CHUNK)
                except OSError:  # BlockingIOError: nothing more there
                    break
                if not chunk:
                    self._eof = True
                    break
                dropped += chunk
        return bytes(dropped.translate(None, b" \t\r\n"))

    async def _fill(self, limit: int) -> None:
        """Receive one more chunk into the buffer; EndOfOutput at EOF (or once :attr:`gone` and
        the pipe holds nothing more)."""
        if self._eof:
            raise EndOfOutput(self.framer.pending())
        # Never ask for more than the limit allows, so memory stays bounded by ~limit + one chunk.
        want = max(1, min(RECEIVE_CHUNK, limit + 1 - self.framer.buffered))
        fd = self._fd
        chunk: bytes | bytearray
        if fd is not None:
            # Wait first: we come here right after writing a turn's input, when the reply is
            # almost never there yet, and a read that fails with EAGAIN costs an exception.
            while True:
                if self.gone:
                    chunk = _read_what_is_there(fd, want)
                    break
                self.waits += 1
                try:
                    await trio.lowlevel.wait_readable(fd)
                    chunk = os.read(fd, want)
                    break
                except BlockingIOError:
                    continue
                except trio.ClosedResourceError:
                    if self.gone:
                        continue  # woken because the leader exited: take what is there
                    chunk = b""
                    break
                except OSError:
                    # EBADF (closed under us) or EIO: as good as end of output.
                    chunk = b""
                    break
        else:
            self.waits += 1
            assert self._stream is not None
            try:
                chunk = await self._stream.receive_some(want)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                chunk = b""
        if not chunk:
            self._eof = True
            raise EndOfOutput(self.framer.pending())
        self.framer.feed(chunk)

    async def read_line(self, limit: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """The next line without its ``\\n``. ReplyTooLong past ``limit`` bytes; EndOfOutput at EOF."""
        return await self._read(self.framer.next_line, limit)

    async def read_json_object(self, limit: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """The next JSON object's bytes (:meth:`arena.protocols.framing.Framer.next_json_object`:
        or the rest of a line that does not start one). ReplyTooLong past ``limit`` bytes,
        EndOfOutput at EOF."""
        return await self._read(self.framer.next_json_object, limit)

    async def _read(self, next_frame: Callable[[int], bytes | TooLong | NeedData], limit: int) -> bytes:
        while True:
            frame = next_frame(limit)
            if isinstance(frame, bytes):
                return frame
            if isinstance(frame, TooLong):
                raise ReplyTooLong(frame.limit, frame.head)
            await self._fill(limit)


def _read_what_is_there(fd: int, want: int) -> bytes:
    """One non-blocking read: the bytes already in the pipe, or b"" if none (or at EOF)."""
    try:
        return os.read(fd, want)
    except OSError:  # BlockingIOError (nothing there) included
        return b""
