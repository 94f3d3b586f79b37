"""The one framer of bot output and JSON streams: bytes in, frames out, no I/O (h11's shape).

A :class:`Framer` is fed bytes (:meth:`Framer.feed`) by whoever owns the pipe or file, and is asked
for the next frame; it answers with the frame, or :data:`NEED_DATA` when the bytes it holds do not
complete one yet. Feeding the same bytes in any chunking gives the same frames (a property test
pins it). Memory stays bounded by about the size bound plus one fed chunk, whatever the peer sends.

Two framings share the one brace matcher (a ``{`` … matching ``}`` outside strings, escapes
respected; blanks before an object skipped, so an object may be one line or pretty-printed):

- **Replies** (the process layer's reader, one frame per question): :meth:`Framer.next_line` (a
  line without its ``\\n``) and :meth:`Framer.next_json_object` (an object's bytes; when the next
  non-blank byte is not ``{``, the rest of that line is handed back as it is, for the protocol to
  call malformed, instead of waiting for a brace that may never come). A reply longer than the
  bound gives :class:`TooLong` (with the reply's head) and the buffered bytes are dropped.
- **Streams** (the rules tools and arena's own bots, which go on after a bad item):
  :meth:`Framer.next_item` / :meth:`Framer.items` give object bytes or :class:`Junk`: a line that
  does not start an object ("not a JSON object"), or an object over the bound (skipped to its
  end); :meth:`Framer.close` reports a cut-off object or trailing junk at end of input.

Decoding a frame is the caller's (one bad object never stops a stream).

May import: the standard library and orjson.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

import orjson

DEFAULT_MAX_REPLY_BYTES = 1 << 20  # 1 MiB: far above any real reply, far below trouble
HEAD_BYTES = 200  # how much of an over-long reply or a junk line is kept to show


class NeedData:
    """The type of :data:`NEED_DATA` (one instance)."""

    def __repr__(self) -> str:
        return "NEED_DATA"


#: The answer when the bytes held do not complete a frame yet: feed more (or end the input).
NEED_DATA: Final = NeedData()


@dataclass(frozen=True)
class TooLong:
    """A reply grew past ``limit`` bytes before it ended; ``head`` is its start (for the reason)."""

    limit: int
    head: bytes


@dataclass(frozen=True)
class Junk:
    """Stream framing: bytes that cannot start a JSON object, or an object cut off or over the bound."""

    data: bytes
    problem: str


# Outside strings the interesting bytes are braces and quotes; inside a string, quotes and backslashes.
_OUTSIDE = re.compile(rb'[{}"]')
_INSIDE = re.compile(rb'["\\]')
_NON_BLANK = re.compile(rb"[^ \t\r\n]")
_OPEN = 0x7B  # "{"


class Framer:
    """Frames a byte stream: feed bytes, take lines, JSON objects or (stream framing) junk.

    ``max_bytes`` bounds a frame: the default limit of the reply calls and the bound of the stream
    framing. Use one framing per framer: a reply framer, or a stream framer.
    """

    def __init__(self, max_bytes: int = DEFAULT_MAX_REPLY_BYTES) -> None:
        self.max_bytes = max_bytes
        self._buffer = bytearray()
        self._scanned = 0  # a line's end was looked for in _buffer[:_scanned] already
        # The brace matcher, resumable across feeds: _depth > 0 while inside an object at _buffer[0].
        self._pos = 0
        self._depth = 0
        self._in_string = False
        # Stream framing: inside a junk line / inside an object over the bound (dropping its bytes).
        self._junk = False
        self._oversize = False

    # -- the bytes -------------------------------------------------------------------------------

    def feed(self, data: bytes | bytearray) -> None:
        """Add ``data`` (any chunk of the stream) after the bytes held."""
        self._buffer += data

    @property
    def buffered(self) -> int:
        """How many bytes are held (received, not framed yet)."""
        return len(self._buffer)

    def pending(self) -> bytes:
        """The bytes held: half a reply at a timeout, or an unfinished reply at end of output."""
        return bytes(self._buffer)

    def take(self) -> bytes:
        """Remove and return every byte held; framing starts afresh with the next byte fed."""
        taken = bytes(self._buffer)
        self._consume(len(self._buffer))
        return taken

    def _consume(self, count: int) -> None:
        del self._buffer[:count]
        self._scanned = self._pos = self._depth = 0
        self._in_string = False

    # -- reply framing ---------------------------------------------------------------------------

    def next_line(self, limit: int | None = None) -> bytes | TooLong | NeedData:
        """The next line without its ``\\n``; TooLong past ``limit`` bytes (default ``max_bytes``)."""
        limit = self.max_bytes if limit is None else limit
        buffer = self._buffer
        self._pos = self._depth = 0  # a line is never inside an object
        self._in_string = False
        index = buffer.find(b"\n", self._scanned)
        if index >= 0:
            if index > limit:
                return self._too_long(limit)
            line = bytes(buffer[:index])
            self._consume(index + 1)
            return line
        self._scanned = len(buffer)
        if len(buffer) > limit:
            return self._too_long(limit)
        return NEED_DATA

    def next_json_object(self, limit: int | None = None) -> bytes | TooLong | NeedData:
        """The next JSON object's bytes, or the rest of a line that does not start with ``{``;
        TooLong past ``limit`` bytes (default ``max_bytes``)."""
        limit = self.max_bytes if limit is None else limit
        buffer = self._buffer
        if self._depth == 0:
            if not buffer:
                return NEED_DATA
            # Fast path for the common reply, one object on one line arriving at once: a first line
            # that parses as a whole JSON object is exactly the object brace matching would find.
            # Brace matching in Python costs 16-22 us on a Shobu reply, 15-21% of arena's CPU per
            # ply (bench/engine_overhead.py --cpu-only, with and without this block).
            if buffer[0] == _OPEN:
                newline = buffer.find(b"\n")
                if 0 < newline <= limit:
                    line = bytes(buffer[:newline])
                    try:
                        parsed = orjson.loads(line)
                    except orjson.JSONDecodeError:
                        parsed = None
                    if type(parsed) is dict:
                        self._consume(newline + 1)
                        return line.rstrip()
            if not self._skip_blanks():
                return NEED_DATA
            if buffer[0] != _OPEN:  # not "{": hand back the line
                return self.next_line(limit)
        end = self._match_braces()
        if end is None:
            if len(buffer) > limit:
                return self._too_long(limit)
            return NEED_DATA
        if end > limit:
            return self._too_long(limit)
        frame = bytes(buffer[:end])
        self._consume(end)
        return frame

    def _too_long(self, limit: int) -> TooLong:
        head = bytes(self._buffer[:HEAD_BYTES])
        # The rest of the over-long reply is junk; the game is over for this bot anyway.
        self._consume(len(self._buffer))
        return TooLong(limit, head)

    # -- stream framing --------------------------------------------------------------------------

    def next_item(self) -> bytes | Junk | NeedData:
        """Stream framing: the next object's bytes, or Junk (a line that does not start an object,
        an object over ``max_bytes``, skipped to its end)."""
        buffer = self._buffer
        limit = self.max_bytes
        while True:
            if self._junk:
                end = buffer.find(b"\n", self._scanned)
                if end < 0:
                    if len(buffer) > limit:  # keep memory bounded on a huge junk line
                        del buffer[HEAD_BYTES:]
                    self._scanned = len(buffer)
                    return NEED_DATA
                junk = Junk(bytes(buffer[: min(end, HEAD_BYTES)]), "not a JSON object")
                self._consume(end + 1)
                self._junk = False
                return junk
            if self._depth == 0 and not self._oversize:
                if not self._skip_blanks():
                    return NEED_DATA
                if buffer[0] != _OPEN:  # anything but "{" is junk up to the end of the line
                    self._junk = True
                    continue
            close = self._match_braces()
            if close is None:
                if len(buffer) > limit:
                    # Drop what was scanned, but keep the matcher's state to find the object's end.
                    self._oversize = True
                    del buffer[: self._pos]
                    self._pos = 0
                return NEED_DATA
            if self._oversize or close > limit:
                self._oversize = False
                self._consume(close)
                return Junk(b"", f"object over the size limit of {limit} bytes")
            item = bytes(buffer[:close])
            self._consume(close)
            return item

    def items(self) -> list[bytes | Junk]:
        """Stream framing: every item the bytes held complete, in stream order."""
        found: list[bytes | Junk] = []
        while not isinstance(item := self.next_item(), NeedData):
            found.append(item)
        return found

    def close(self) -> list[bytes | Junk]:
        """Stream framing at end of input: the items left, then a cut-off object or trailing junk.
        The framer is empty afterwards."""
        found = self.items()
        if self._oversize:
            found.append(Junk(b"", f"object over the size limit of {self.max_bytes} bytes (cut off at end of input)"))
        elif self._depth > 0:
            found.append(Junk(bytes(self._buffer[:HEAD_BYTES]), "truncated JSON object at end of input"))
        elif self._junk and self._buffer:
            found.append(Junk(bytes(self._buffer[:HEAD_BYTES]), "not a JSON object"))
        self._consume(len(self._buffer))
        self._junk = self._oversize = False
        return found

    # -- the one brace matcher -------------------------------------------------------------------

    def _skip_blanks(self) -> bool:
        """Drop the blanks at the front; False when nothing else is held."""
        match = _NON_BLANK.search(self._buffer)
        if match is None:
            self._consume(len(self._buffer))
            return False
        if match.start():
            self._consume(match.start())
        return True

    def _match_braces(self) -> int | None:
        """Scan on through the object at the front; the offset just past its closing brace, or None
        when the bytes held end first (the scan resumes there on the next call)."""
        buffer = self._buffer
        pos, depth, in_string = self._pos, self._depth, self._in_string
        while True:
            if in_string:
                found = _INSIDE.search(buffer, pos)
                if found is None:
                    break
                pos = found.end()
                if found.group() == b"\\":
                    if pos >= len(buffer):
                        pos -= 1  # the escaped byte has not arrived yet: rescan from the backslash
                        break
                    pos += 1
                else:
                    in_string = False
            else:
                found = _OUTSIDE.search(buffer, pos)
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
                        return pos
        self._pos, self._depth, self._in_string = min(pos, len(buffer)), depth, in_string
        return None
