"""Split a byte stream into JSON objects, the way the Shobu seed's engine reads them.

Objects may be pretty-printed over several lines or several may share a line; whitespace between
objects is ignored. The splitter only finds where each top-level ``{...}`` ends (matching braces,
respecting strings and escapes); decoding is left to the caller, so one bad object never stops the
stream: the caller reports it and goes on with the next one.

Anything between objects that is not whitespace (garbage, a bare number, an array) is reported as a
:class:`Junk` item covering the rest of its line, then splitting resumes on the next line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WHITESPACE = b" \t\r\n"
_OPEN, _CLOSE, _QUOTE, _BACKSLASH, _NEWLINE = ord("{"), ord("}"), ord('"'), ord("\\"), ord("\n")


@dataclass(frozen=True)
class Junk:
    """Bytes that cannot start a JSON object, or an object cut off or over the size limit."""

    data: bytes
    problem: str


class JsonObjectSplitter:
    """Incremental splitter: ``feed`` chunks, get complete object texts (bytes) or :class:`Junk`.

    ``max_object_bytes`` bounds the memory one object may take; a longer object is reported as
    Junk ("over the size limit") and skipped up to its end.
    """

    def __init__(self, max_object_bytes: int = 1 << 20) -> None:
        self._max = max_object_bytes
        self._buf = bytearray()
        self._pos = 0  # scan position inside _buf
        self._depth = 0
        self._in_string = False
        self._escaped = False
        self._skipping_junk = False
        self._oversize = False  # inside an object that exceeded the limit: dropping its bytes
        self._oversize_len = 0

    def feed(self, data: bytes) -> list[bytes | Junk]:
        """Add ``data``; return every item completed by it, in stream order."""
        self._buf += data
        return self._scan()

    def close(self) -> list[bytes | Junk]:
        """End of stream: report a cut-off object or trailing junk, if any."""
        items = self._scan()
        if self._oversize:
            items.append(Junk(b"", f"object over the size limit of {self._max} bytes (cut off at end of input)"))
        elif self._depth > 0:
            items.append(Junk(bytes(self._buf[:200]), "truncated JSON object at end of input"))
        elif self._skipping_junk and self._buf:
            items.append(Junk(bytes(self._buf[:200]), "not a JSON object"))
        self._buf.clear()
        self._pos = self._depth = 0
        return items

    def _scan(self) -> list[bytes | Junk]:
        items: list[bytes | Junk] = []
        buf = self._buf
        while self._pos < len(buf):
            if self._skipping_junk:
                end = buf.find(b"\n", self._pos)
                if end < 0:
                    self._pos = len(buf)
                    if len(buf) > self._max:  # keep memory bounded on a huge junk line
                        del buf[200:]
                        self._pos = len(buf)
                    break
                items.append(Junk(bytes(buf[: min(end, 200)]), "not a JSON object"))
                del buf[: end + 1]
                self._pos = 0
                self._skipping_junk = False
                continue
            if self._depth == 0:
                # Between objects: skip whitespace; anything but '{' is junk up to the end of the line.
                while self._pos < len(buf) and buf[self._pos] in _WHITESPACE:
                    self._pos += 1
                del buf[: self._pos]
                self._pos = 0
                if not buf:
                    break
                if buf[0] != _OPEN:
                    self._skipping_junk = True
                    continue
            done = self._scan_object(buf)
            if done is None:
                if self._depth > 0 and len(buf) > self._max:
                    self._oversize = True
                    self._oversize_len += len(buf)
                    # Drop what we have but keep scanning state so we find the object's end.
                    del buf[:]
                    self._pos = 0
                break
            end = done
            if self._oversize:
                items.append(Junk(b"", f"object over the size limit of {self._max} bytes"))
                self._oversize = False
                self._oversize_len = 0
            elif end > self._max:
                items.append(Junk(b"", f"object over the size limit of {self._max} bytes"))
            else:
                items.append(bytes(buf[:end]))
            del buf[:end]
            self._pos = 0
        return items

    def _scan_object(self, buf: bytearray) -> int | None:
        """Advance through an object; return the end offset when its closing brace is found."""
        pos = self._pos
        n = len(buf)
        depth, in_string, escaped = self._depth, self._in_string, self._escaped
        while pos < n:
            c = buf[pos]
            pos += 1
            if in_string:
                if escaped:
                    escaped = False
                elif c == _BACKSLASH:
                    escaped = True
                elif c == _QUOTE:
                    in_string = False
            elif c == _QUOTE:
                in_string = True
            elif c == _OPEN:
                depth += 1
            elif c == _CLOSE:
                depth -= 1
                if depth == 0:
                    self._depth, self._in_string, self._escaped = 0, False, False
                    self._pos = pos
                    return pos
        self._depth, self._in_string, self._escaped = depth, in_string, escaped
        self._pos = pos
        return None


_STRUCTURE = re.compile(rb'["\\\[\]{}]')


def nesting_depth(data: bytes, limit: int) -> int:
    """How deeply arrays and objects nest in the JSON text ``data``, counting at most to ``limit + 1``.

    A cheap scan (brackets outside strings) to run before a recursive parser, which would otherwise
    fail on ``[[[[...`` with a RecursionError. It does not validate the text.
    """
    depth = deepest = 0
    in_string = False
    pos = 0
    while True:
        found = _STRUCTURE.search(data, pos)
        if found is None:
            return deepest
        pos = found.end()
        byte = found.group()
        if in_string:
            if byte == b"\\":
                pos += 1
            elif byte == b'"':
                in_string = False
        elif byte == b'"':
            in_string = True
        elif byte in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif byte in (b"]", b"}"):
            depth -= 1
