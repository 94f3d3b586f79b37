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
import re
import zlib
from collections.abc import Sequence

#: A piece starts at every ``<``; text before the first ``<`` (none in practice) is a piece too.
_PIECE = re.compile(r"[^<]+|<[^<]*")


class PieceTable:
    """The distinct SVG pieces of a report, numbered in order of first use."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}
        self.pieces: list[str] = []

    def split(self, svg: str) -> list[int]:
        """``svg`` as piece numbers (new pieces are added); ``join(split(svg)) == svg``."""
        numbers = self._numbers
        out: list[int] = []
        for piece in _PIECE.findall(svg):
            number = numbers.get(piece)
            if number is None:
                number = numbers[piece] = len(self.pieces)
                self.pieces.append(piece)
            out.append(number)
        return out

    def join(self, numbers: Sequence[int]) -> str:
        return "".join(self.pieces[n] for n in numbers)


def encode_frame(previous: Sequence[int] | None, current: Sequence[int]) -> list[int]:
    """``current`` as an edit of ``previous`` (see the module docstring); all pieces when
    ``previous`` is None."""
    if previous is None:
        return list(current)
    out: list[int] = []
    # Trimming the common ends first keeps the matcher's quadratic part to the changed middle.
    head = 0
    limit = min(len(previous), len(current))
    while head < limit and previous[head] == current[head]:
        head += 1
    tail = 0
    while tail < limit - head and previous[-1 - tail] == current[-1 - tail]:
        tail += 1
    if head:
        out += [-1, head]
    old_mid = previous[head:len(previous) - tail]
    new_mid = current[head:len(current) - tail]
    matcher = difflib.SequenceMatcher(None, old_mid, new_mid, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" and i2 - i1 > 2:  # a copy costs two numbers: shorter runs go as pieces
            out += [-(head + i1 + 1), i2 - i1]
        elif op != "delete":
            out += new_mid[j1:j2]
    if tail:
        out += [-(len(previous) - tail + 1), tail]
    return out


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


__all__ = ["PieceTable", "decode_frame", "encode_frame", "svg_hash"]
