"""Boards for the HTML viewer: every position's SVG from the game registry's renderer, stored small.

A position's picture is exactly the string ``board_svg(state, last_move)`` returns (the game's
``GameSpec.svg``); the page never draws a board itself, it only puts those strings back together.

Why not embed the strings: a board is 5-10 kB of SVG, so 1,000 games of 100 plies would be about a
gigabyte. Consecutive positions differ in a few elements, though, and the elements repeat across
games. So:

- each SVG is cut into *pieces*, one per tag (``<rect .../>``, ``<text ...>12``, ``</text>``): the
  cut points are every ``<``, so joining the pieces gives the string back byte for byte, whatever
  the renderer draws;
- every distinct piece is stored once in the report's :class:`PieceTable` (a few hundred per game
  kind), and a position becomes a list of piece numbers;
- each position's list is stored as an edit of the previous position's (:func:`encode_frame`):
  a flat list of integers where ``n >= 0`` is piece ``n`` and a negative ``-(start + 1)`` followed
  by a ``length`` copies ``length`` pieces of the previous position from ``start``. The first
  position has no previous one and is all pieces.

Measured on real checkers and Shobu games: 60-80 bytes of JSON per position (against 5-10 kB of
SVG), about 0.5 ms of Python per position (rendering and diffing).

Self-check: :func:`svg_hash` (CRC-32 of the UTF-8 string) of the renderer's own output is embedded
for every position; the page's self-test mode hashes what it put into the DOM and compares (see :mod:`arena.report.viewer`).
"""

from __future__ import annotations

import difflib
import zlib
from collections.abc import Callable, Hashable, Sequence
from itertools import compress, repeat
from operator import ne


class PieceTable:
    """The distinct SVG pieces of a report, numbered in order of first use; and the positions
    already drawn with them (:meth:`board`, :meth:`frame`): games share positions (their openings
    above all), and a position is drawn, cut and hashed once per table."""

    #: Positions (and steps between two) remembered; past this many all are forgotten, which bounds
    #: the memory (about 1 kB a position) and keeps the frequent ones, which soon come back.
    MEMORY = 8192

    def __init__(self) -> None:
        self._tails: dict[str, int] = {}  # a piece "<..." by its text after the "<"
        self._leads: dict[str, int] = {}  # text before an SVG's first "<"
        self.pieces: list[str] = []
        self._boards: dict[Hashable, tuple[list[int], str]] = {}
        self._frames: dict[tuple[Hashable, Hashable], list[int]] = {}
        self._whole: dict[str, int] = {}  # a whole piece, "<" included (numbers)

    def board(self, key: Hashable | None, render: Callable[[], str]) -> tuple[list[int], str]:
        """The piece numbers and :func:`svg_hash` of the picture ``render()`` draws; ``key`` names
        the position (a hashable value the picture is a function of, say ``(game, state,
        last_move)``), and a position already seen is not drawn again. None: always drawn. The
        list returned is shared: not to be modified."""
        if key is None:
            svg = render()
            return self.split(svg), svg_hash(svg)
        found = self._boards.get(key)
        if found is None:
            svg = render()
            found = (self.split(svg), svg_hash(svg))
            if len(self._boards) >= self.MEMORY:
                self._boards.clear()
            self._boards[key] = found
        return found

    def board_of_pieces(self, key: Hashable | None, render: Callable[[], list[str]]) -> tuple[list[int], str]:
        """:meth:`board` for a renderer that gives its picture already cut into pieces (each a
        string from a ``<`` up to the next, their join the picture; the first may be a lead
        without ``<``): the same numbers and hash as :meth:`board` of the joined picture, without
        cutting it and hashing every piece anew (a renderer's pieces are strings made once, whose
        hashes Python keeps)."""
        found = None if key is None else self._boards.get(key)
        if found is None:
            parts = render()
            found = (self.numbers(parts), svg_hash("".join(parts)))
            if key is not None:
                if len(self._boards) >= self.MEMORY:
                    self._boards.clear()
                self._boards[key] = found
        return found

    def numbers(self, parts: Sequence[str]) -> list[int]:
        """The piece numbers of ``parts`` (see :meth:`board_of_pieces`; new pieces are added, in the
        order :meth:`split` would add them)."""
        whole = self._whole
        out = list(map(whole.get, parts))
        if None in out:
            for k, part in enumerate(parts):
                if out[k] is None:
                    if part.startswith("<"):
                        number = self._tails.get(part[1:])
                        if number is None:
                            number = self._tails[part[1:]] = len(self.pieces)
                            self.pieces.append(part)
                    else:
                        number = self._leads.get(part)
                        if number is None:
                            number = self._leads[part] = len(self.pieces)
                            self.pieces.append(part)
                    out[k] = whole[part] = number
        return out  # type: ignore[return-value] # no None left

    def frame(self, keys: tuple[Hashable | None, Hashable | None], previous: Sequence[int] | None,
              current: Sequence[int]) -> list[int]:
        """:func:`encode_frame` ``(previous, current)``, remembered by the two positions' keys (as for
        :meth:`board`; a None among them: not remembered). Not to be modified."""
        if keys[0] is None or keys[1] is None:
            return encode_frame(previous, current)
        found = self._frames.get(keys)
        if found is None:
            found = encode_frame(previous, current)
            if len(self._frames) >= self.MEMORY:
                self._frames.clear()
            self._frames[keys] = found
        return found

    def split(self, svg: str) -> list[int]:
        """``svg`` as piece numbers (new pieces are added); ``join(split(svg)) == svg``."""
        # str.split is C: the pieces after the first "<" are "<" + each part; a part is looked up
        # without its "<" (``_tails``), the text before the first "<" by itself (``_leads``).
        parts = svg.split("<")
        tails = self._tails
        out = list(map(tails.get, parts, repeat(-1, len(parts))))
        lead = parts[0]
        if lead:
            number = self._leads.get(lead)
            if number is None:
                number = self._leads[lead] = len(self.pieces)
                self.pieces.append(lead)
            out[0] = number
        else:
            del out[0]
            del parts[0]
        if -1 in out:
            start = 1 if lead else 0
            for k in range(start, len(out)):
                if out[k] == -1:
                    part = parts[k]
                    number = tails.get(part)
                    if number is None:
                        number = tails[part] = len(self.pieces)
                        self.pieces.append("<" + part)
                    out[k] = number
        return out

    def join(self, numbers: Sequence[int]) -> str:
        return "".join(self.pieces[n] for n in numbers)


def encode_frame(previous: Sequence[int] | None, current: Sequence[int]) -> list[int]:
    """``current`` as an edit of ``previous`` (see the module docstring); all pieces when
    ``previous`` is None.

    Not a minimal edit, a cheap one (about 10 µs for a board of 200 pieces): the common ends are
    copied, a middle of the same length is compared place by place (a move changes pieces in place),
    and a short middle of another length by difflib, a long one (a piece added or taken) by resynchronising on the
    next run of :data:`SYNC` equal pieces within :data:`WINDOW` places."""
    if previous is None:
        return list(current)
    n, m = len(previous), len(current)
    limit = min(n, m)
    # Which places differ, compared in C (map stops at the shorter list): the common ends are the
    # first and last True.
    differ = list(map(ne, previous, current))
    head = _first_true(differ, limit)
    if head == n == m:
        return [-1, n] if n else []
    tail = _first_true(differ[::-1] if n == m else list(map(ne, reversed(previous), reversed(current))), limit)
    tail = min(tail, limit - head)
    out: list[int] = [-1, head] if head else []
    old_end, new_end = n - tail, m - tail
    if old_end == new_end:
        _same_length(current, differ, head, new_end, out)
    elif max(old_end, new_end) - head <= SMALL:  # difflib's quadratic part is cheap here, its edit shorter
        _matched(previous, current, head, old_end, new_end, out)
    else:
        _resync(previous, current, head, old_end, new_end, out)
    if tail:
        out += [-(old_end + 1), tail]
    return out


#: A middle of another length up to this many pieces is matched by difflib (a shorter edit).
SMALL = 48
#: Resynchronising after a change: this many equal pieces in a row, at most this far ahead.
SYNC, WINDOW = 3, 24


def _copy_or_pieces(out: list[int], current: Sequence[int], start: int, j: int, length: int) -> None:
    """Copy ``length`` pieces from ``start`` of the previous position (``current[j:j+length]``)."""
    if length > 2:  # a copy costs two numbers: shorter runs go as pieces
        out += [-(start + 1), length]
    else:
        out += current[j:j + length]


def _first_true(flags: list[bool], default: int) -> int:
    try:
        return flags.index(True)
    except ValueError:
        return default


def _same_length(current: Sequence[int], differ: list[bool], start: int, end: int, out: list[int]) -> None:
    """The middle ``start:end`` of two positions of one length; ``differ[k]``: whether place ``k``
    changed."""
    changed = list(compress(range(start, end), differ[start:end]))
    at = start
    for k in changed:
        if k > at:
            _copy_or_pieces(out, current, at, at, k - at)
        out.append(current[k])
        at = k + 1
    if end > at:
        _copy_or_pieces(out, current, at, at, end - at)


def _matched(previous: Sequence[int], current: Sequence[int], head: int, old_end: int, new_end: int,
             out: list[int]) -> None:
    matcher = difflib.SequenceMatcher(None, previous[head:old_end], current[head:new_end], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            _copy_or_pieces(out, current, head + i1, head + j1, i2 - i1)
        elif op != "delete":
            out += current[head + j1:head + j2]


def _resync(previous: Sequence[int], current: Sequence[int], i: int, old_end: int, new_end: int,
            out: list[int]) -> None:
    j = i
    while j < new_end:
        run = 0
        while i + run < old_end and j + run < new_end and previous[i + run] == current[j + run]:
            run += 1
        if run:
            _copy_or_pieces(out, current, i, j, run)
            i += run
            j += run
            continue
        found = _next_sync(previous, current, i, old_end, j, new_end)
        if found is None:
            out += current[j:new_end]
            return
        skip_old, take_new = found
        out += current[j:j + take_new]
        i += skip_old
        j += take_new


def _next_sync(previous: Sequence[int], current: Sequence[int], i: int, old_end: int, j: int,
               new_end: int) -> tuple[int, int] | None:
    """The nearest ``(a, b)`` (smallest ``a + b``, ``a + b > 0``) where ``previous[i+a:]`` and
    ``current[j+b:]`` start with :data:`SYNC` equal pieces (fewer at the ends); None beyond
    :data:`WINDOW`."""
    for total in range(1, 2 * WINDOW + 1):
        for a in range(max(0, total - WINDOW), min(total, WINDOW) + 1):
            b = total - a
            x, y = i + a, j + b
            if x > old_end or y > new_end:
                continue
            span = min(SYNC, old_end - x, new_end - y)
            if span == 0:
                if x == old_end and y < new_end:
                    return None  # the old middle is used up: the rest are new pieces
                if y == new_end:
                    return a, b
                continue
            if all(previous[x + t] == current[y + t] for t in range(span)):
                return a, b
    return None


def decode_frame(previous: Sequence[int] | None, frame: Sequence[int]) -> list[int]:
    """The piece numbers :func:`encode_frame` encoded (the page's JavaScript does the same)."""
    out: list[int] = []
    i = 0
    while i < len(frame):
        value = frame[i]
        if value >= 0:
            out.append(value)
            i += 1
        else:
            if previous is None:
                raise ValueError("a copy in the first frame")
            start = -value - 1
            out.extend(previous[start:start + frame[i + 1]])
            i += 2
    return out


def svg_hash(text: str) -> str:
    """CRC-32 of ``text`` in UTF-8, 8 hex digits (the page computes the same with a table CRC over
    ``TextEncoder`` bytes; zlib's C CRC keeps this off the report's time budget)."""
    return f"{zlib.crc32(text.encode('utf-8')):08x}"


def position_key(*parts: object) -> Hashable | None:
    """``parts`` as a key of :meth:`PieceTable.board`, or None when one of them is not hashable
    (a state or move held in lists: such positions are drawn every time)."""
    try:
        hash(parts)
    except TypeError:
        return None
    return parts


__all__ = ["PieceTable", "decode_frame", "encode_frame", "position_key", "svg_hash"]
