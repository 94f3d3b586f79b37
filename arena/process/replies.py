"""Bounded framing of a bot's replies: lines, or JSON objects found by brace matching.

:class:`ReplyReader` never holds much more than its byte limit, whatever the peer sends: an
over-long reply raises :class:`ReplyTooLong` rather than growing a buffer; end of output raises
:class:`EndOfOutput` with the partial reply. It reads a trio receive stream, or a non-blocking file
descriptor directly (what the process layer uses: it is how :attr:`ReplyReader.gone` can take what
is already in the pipe).

When the bot's leader process has exited (:attr:`ReplyReader.gone`, set by the process layer,
which also wakes a waiting read), the reader stops waiting for more output: a child that inherited
the bot's stdout could hold it open for ever. It takes what is already in the pipe, and a reply
that is complete there is still returned; otherwise the read ends with EndOfOutput.
"""

from __future__ import annotations

import os
import re

import orjson
import trio

from arena.errors import ArenaError

DEFAULT_MAX_REPLY_BYTES = 1 << 20  # 1 MiB: far above any real reply, far below trouble
RECEIVE_CHUNK = 65536


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


# Scanners for the JSON-object reader: outside strings the interesting bytes are braces and quotes;
# inside a string, quotes and backslashes.
_OUTSIDE = re.compile(rb'[{}"]')
_INSIDE = re.compile(rb'["\\]')
_NON_SPACE = re.compile(rb"[^ \t\r\n]")


class ReplyReader:
    """Bounded framing over a receive stream: lines, or JSON objects found by brace matching.

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
        self._buffer = bytearray()
        self._eof = False
        self.waits = 0
        #: Set when the bot's leader process has exited: read only what is already there.
        self.gone = False

    def pending(self) -> bytes:
        """Bytes received but not consumed yet (e.g. half a reply at a timeout)."""
        return bytes(self._buffer)

    def discard_early(self, limit: int = 1 << 20) -> bytes:
        """Drop what arrived before a turn's question: the buffer and what the pipe holds now (at
        most ``limit`` bytes are read). Returns them without blanks (spaces, tabs, line ends): a
        reply cannot precede its question, so such bytes are a bot writing ahead, debug output on
        stdout, or someone else's injection. Needs the descriptor (``fd`` mode); never waits."""
        dropped = self._buffer
        self._buffer = bytearray()
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
            raise EndOfOutput(bytes(self._buffer))
        # Never ask for more than the limit allows, so memory stays bounded by ~limit + one chunk.
        want = max(1, min(RECEIVE_CHUNK, limit + 1 - len(self._buffer)))
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
            raise EndOfOutput(bytes(self._buffer))
        self._buffer += chunk

    def _too_long(self, limit: int) -> ReplyTooLong:
        head = bytes(self._buffer[:200])
        # The rest of the over-long line is junk; the game is over for this bot anyway.
        self._buffer.clear()
        return ReplyTooLong(limit, head)

    async def read_line(self, limit: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """The next line without its ``\\n``. ReplyTooLong past ``limit`` bytes; EndOfOutput at EOF."""
        scanned = 0
        while True:
            index = self._buffer.find(b"\n", scanned)
            if index >= 0:
                if index > limit:
                    raise self._too_long(limit)
                line = bytes(self._buffer[:index])
                del self._buffer[: index + 1]
                return line
            scanned = len(self._buffer)
            if scanned > limit:
                raise self._too_long(limit)
            await self._fill(limit)

    async def read_json_object(self, limit: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """The next JSON object's bytes, found by matching braces outside strings.

        Whitespace before the object is skipped, so an object may be one line or pretty-printed
        over many. If the next non-blank byte is not ``{``, the rest of that line is returned as it
        is (the caller's parser then calls it malformed) instead of waiting for a brace that may
        never come. Raises ReplyTooLong past ``limit`` bytes, EndOfOutput at EOF.
        """
        buffer = self._buffer
        if not buffer:
            await self._fill(limit)
        # Fast path for the common reply, one object on one line arriving at once: a first line
        # that parses as a whole JSON object is exactly the object brace matching would find.
        # Brace matching in Python costs 16-22 us on a Shobu reply, 15-21% of arena's CPU per ply
        # (bench/engine_overhead.py --cpu-only, with and without this block).
        if buffer[0] == 0x7B:
            newline = buffer.find(b"\n")
            if 0 < newline <= limit:
                line = bytes(buffer[:newline])
                try:
                    parsed = orjson.loads(line)
                except orjson.JSONDecodeError:
                    parsed = None
                if type(parsed) is dict:
                    del buffer[: newline + 1]
                    return line.rstrip()
        while True:
            match = _NON_SPACE.search(self._buffer)
            if match is not None:
                del self._buffer[: match.start()]
                break
            self._buffer.clear()
            await self._fill(limit)
        if self._buffer[0] != 0x7B:  # not "{": hand back the line
            return await self.read_line(limit)
        depth = 0
        in_string = False
        pos = 0
        while True:
            while True:
                if in_string:
                    found = _INSIDE.search(self._buffer, pos)
                    if found is None:
                        break
                    pos = found.end()
                    if found.group() == b"\\":
                        if pos >= len(self._buffer):
                            pos -= 1  # the escaped byte has not arrived yet: rescan later
                            break
                        pos += 1
                    else:
                        in_string = False
                else:
                    found = _OUTSIDE.search(self._buffer, pos)
                    if found is None:
                        break
                    pos = found.end()
                    byte = found.group()
                    if byte == b'"':
                        in_string = True
                    elif byte == b"{":
                        depth += 1
                    else:
                        depth -= 1
                        if depth == 0:
                            if pos > limit:
                                raise self._too_long(limit)
                            obj = bytes(self._buffer[:pos])
                            del self._buffer[:pos]
                            return obj
            if len(self._buffer) > limit:
                raise self._too_long(limit)
            pos = max(0, min(pos, len(self._buffer)))
            await self._fill(limit)


def _read_what_is_there(fd: int, want: int) -> bytes:
    """One non-blocking read: the bytes already in the pipe, or b"" if none (or at EOF)."""
    try:
        return os.read(fd, want)
    except OSError:  # BlockingIOError (nothing there) included
        return b""
