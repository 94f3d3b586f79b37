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
- each position's list is stored as an edit of the previous position's (:func:`encode_frame`), a
  string of operations, each one character (``!``, ``)``, ...: :data:`OPS`) followed by a number in
  base 64 (:data:`DIGITS`, as many digits as the operation says), or two digits alone: a piece.
  Decoding walks the previous position from its start: a piece is added and takes the place of the
  previous position's piece there; ``copy n`` adds the next ``n`` pieces of the previous position;
  ``skip n`` / ``back n`` move ``n`` places forward or back in it; ``.`` ends the frame; at the end
  of the string the rest of the previous position is copied (so an unchanged tail costs nothing);
- a game's first position is one operation (``=``, ``@``, ``*``) naming a *start board* of the table
  (:attr:`PieceTable.starts`, each the edit of an empty position): games mostly start from the
  same position, which a table then holds once.

Measured on random Connect Four, checkers and Shobu games: 20-30 bytes of JSON per position (against
5-10 kB of SVG). A game's boards are checked with one :func:`boards_digest` (the CRC of their CRCs).

Self-check: :func:`svg_hash` (CRC-32 of the UTF-8 string) of the renderer's own output for each
position goes into the game's :func:`boards_digest`; the page's self-test hashes what it put into
the DOM at every position and compares (see :mod:`arena.report.viewer`).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Hashable, Sequence
from itertools import compress, repeat
from operator import ne
from typing import Any


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
        self._frames: dict[tuple[Hashable, Hashable], str] = {}
        self._whole: dict[str, int] = {}  # a whole piece, "<" included (numbers)
        #: The first positions of the games, each an :func:`encode_frame` of no previous position.
        self.starts: list[str] = []
        self._starts: dict[tuple[int, ...], int] = {}
        # The games' openings as a tree: (node, frame, move's notation) -> node; each node's first
        # game (node 0: before the first position).
        self._branches: dict[tuple[int, str, str | None], int] = {}
        self._owners: list[int] = [-1]

    def board(self, key: Hashable | None, render: Callable[[], str]) -> tuple[list[int], str]:
        """The piece numbers and :func:`svg_hash` of the picture ``render()`` draws; ``key`` names
        the position (a hashable value the picture is a function of, say ``(game, state,
        last_move)``), and a position already seen is not drawn again. None: always drawn. The
        list returned is shared: not to be modified."""
        found = None if key is None else self._boards.get(key)
        if found is None:
            svg = render()
            found = (self.split(svg), svg_hash(svg))
            if key is not None:
                self._remember(self._boards, key, found)
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
                self._remember(self._boards, key, found)
        return found

    def _remember(self, memory: dict[Any, Any], key: Hashable, value: Any) -> None:
        """``memory[key] = value``, all of ``memory`` forgotten first when it holds :data:`MEMORY`."""
        if len(memory) >= self.MEMORY:
            memory.clear()
        memory[key] = value

    def numbers(self, parts: Sequence[str]) -> list[int]:
        """The piece numbers of ``parts`` (see :meth:`board_of_pieces`; new pieces are added, in the
        order :meth:`split` would add them)."""
        whole = self._whole
        out = list(map(whole.get, parts))
        if None in out:
            for k, part in enumerate(parts):
                if out[k] is None:
                    number = self._tail(part[1:]) if part.startswith("<") else self._lead(part)
                    out[k] = whole[part] = number
        return out  # type: ignore[return-value] # no None left

    def frame(self, keys: tuple[Hashable | None, Hashable | None], previous: Sequence[int] | None,
              current: Sequence[int]) -> str:
        """:func:`encode_frame` ``(previous, current)``, remembered by the two positions' keys (as for
        :meth:`board`; a None among them: not remembered). A game's first position (``previous``
        None) is a start board of the table (:meth:`start`)."""
        if previous is None:
            return self.start(current)
        if keys[0] is None or keys[1] is None:
            return encode_frame(previous, current)
        found = self._frames.get(keys)
        if found is None:
            found = encode_frame(previous, current)
            self._remember(self._frames, keys, found)
        return found

    def start(self, numbers: Sequence[int]) -> str:
        """The frame of a game's first position ``numbers``: one operation naming it among the
        table's :attr:`starts` (added there when new: games mostly start from the same position)."""
        key = tuple(numbers)
        index = self._starts.get(key)
        if index is None:
            index = self._starts[key] = len(self.starts)
            self.starts.append(encode_frame(None, numbers))
        return _number("start", index)

    def shared(self, game: int, frames: Sequence[str], notation: Sequence[str]) -> list[int] | None:
        """``[G, K]`` when game ``game``'s first ``K`` frames and ``K - 1`` moves' notation are an
        earlier game ``G``'s of this table (the longest such start, at least 2 positions), else None;
        the game's frames are remembered for later games. Games of deterministic bots repeat whole
        games, and games share their openings."""
        branches, owners = self._branches, self._owners
        node = depth = last = 0
        for k, frame in enumerate(frames):
            key = (node, frame, notation[k - 1] if k else None)
            found = branches.get(key)
            if found is None:  # from here on the game is its own
                found = branches[key] = len(owners)
                owners.append(game)
            else:  # shared so far (once the game is its own, nothing below is known)
                depth, last = k + 1, found
            node = found
        # The deepest node shared: the first game through it went through every one above it.
        return [owners[last], depth] if depth >= 2 else None

    def split(self, svg: str) -> list[int]:
        """``svg`` as piece numbers (new pieces are added); ``join(split(svg)) == svg``."""
        # str.split is C: the pieces after the first "<" are "<" + each part; a part is looked up
        # without its "<" (``_tails``), the text before the first "<" by itself (``_leads``).
        parts = svg.split("<")
        out = list(map(self._tails.get, parts, repeat(-1, len(parts))))
        lead = parts[0]
        if lead:
            out[0] = self._lead(lead)
        else:
            del out[0]
            del parts[0]
        if -1 in out:
            start = 1 if lead else 0
            for k in range(start, len(out)):
                if out[k] == -1:
                    out[k] = self._tail(parts[k])
        return out

    def _tail(self, tail: str) -> int:
        """The number of the piece ``"<" + tail`` (added when new)."""
        number = self._tails.get(tail)
        if number is None:
            number = self._tails[tail] = len(self.pieces)
            self.pieces.append("<" + tail)
        return number

    def _lead(self, lead: str) -> int:
        """The number of ``lead``, the text before an SVG's first ``<`` (added when new)."""
        number = self._leads.get(lead)
        if number is None:
            number = self._leads[lead] = len(self.pieces)
            self.pieces.append(lead)
        return number

    def join(self, numbers: Sequence[int]) -> str:
        return "".join(self.pieces[n] for n in numbers)


#: The 64 digits of the frame strings (base 64, most significant first); every other character of a
#: frame is an operation. None of them needs escaping in JSON or in a page (no ``"``, ``\``, ``<``).
DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
#: Operation -> (kind, digits that follow). ``copy`` n+1 pieces, ``skip``/``back`` n+1 places,
#: ``piece`` n (a literal beyond two digits), ``start`` from the table's start board n.
OPS = {"!": ("copy", 1), "#": ("copy", 2), "$": ("copy", 3),
       ")": ("skip", 1), "]": ("skip", 2), "}": ("skip", 3),
       "(": ("back", 1), "[": ("back", 2), "{": ("back", 3),
       "~": ("piece", 3), "^": ("piece", 4),
       "=": ("start", 1), "@": ("start", 2), "*": ("start", 3)}
#: The operation that ends a frame without copying the rest of the previous position.
END = "."
_CODE = {(kind, digits): op for op, (kind, digits) in OPS.items()}
_VALUE = {c: k for k, c in enumerate(DIGITS)}
#: ``_PIECE[n]``: piece ``n`` (below 4096) as its two digits.
_PIECE = [a + b for a in DIGITS for b in DIGITS]
_LIMIT = 64 ** 3  # a copy, skip or start number below this (longer copies and skips are split)


def _number(kind: str, value: int) -> str:
    """Operation ``kind`` with the number ``value`` (0 <= value < 64**3; a piece: < 64**4)."""
    digits = 1 if value < 64 else 2 if value < 4096 else 3 if value < _LIMIT else 4
    if kind == "piece" and digits < 3:
        digits = 3
    text = ""
    for _ in range(digits):
        text = DIGITS[value & 63] + text
        value >>= 6
    if value or (kind, digits) not in _CODE:
        raise ValueError(f"a frame's {kind} of {value} is out of range")
    return _CODE[kind, digits] + text


#: The one-digit operations, made once: ``_SHORT[kind][n - 1]`` copies, skips or goes back ``n``
#: (1 to 64).
_SHORT = {kind: [_CODE[kind, 1] + d for d in DIGITS] for kind in ("copy", "skip", "back")}


def _run(out: list[str], kind: str, count: int) -> None:
    """Operation ``kind`` (copy, skip or back) of ``count`` (nothing for 0), split in steps when long."""
    if 0 < count <= 64:
        out.append(_SHORT[kind][count - 1])
        return
    while count > 0:
        step = min(count, _LIMIT)
        out.append(_number(kind, step - 1))
        count -= step


def _copy(out: list[str], count: int) -> None:
    _run(out, "copy", count)


def _skip(out: list[str], places: int) -> None:
    """Move ``places`` forward in the previous position (backward when negative)."""
    _run(out, "skip" if places > 0 else "back", abs(places))


def _piece(out: list[str], number: int) -> None:
    out.append(_PIECE[number] if number < 4096 else _number("piece", number))


def encode_frame(previous: Sequence[int] | None, current: Sequence[int]) -> str:
    """``current`` as an edit of ``previous`` (see the module docstring; None: of no pieces).

    Not a minimal edit, a cheap one (tens of µs for a board of 200 pieces): the common ends are
    copied, a middle of the same length is compared place by place (a move changes pieces in place),
    and a middle of another length, or with more changes (a piece added, taken or moved), is
    walked: a piece that does not continue the copy is looked up with the next two among the previous
    middle's (:func:`_find`), and copied from there when found."""
    previous = previous or ()
    n, m = len(previous), len(current)
    limit = min(n, m)
    # Which places differ, compared in C (map stops at the shorter list): the common ends are the
    # first and last True.
    differ = list(map(ne, previous, current))
    head = _first_true(differ, limit)
    if head == n == m:
        return ""
    tail = _first_true(differ[::-1] if n == m else list(map(ne, reversed(previous), reversed(current))), limit)
    tail = min(tail, limit - head)
    out: list[str] = []
    _copy(out, head)
    old_end, new_end = n - tail, m - tail
    if old_end == new_end and differ.count(True) <= IN_PLACE:
        _same_length(current, differ, head, new_end, out)
        at = new_end
    else:
        at = _walk(previous, current, head, old_end, new_end, out)
    if tail:
        _skip(out, old_end - at)  # then the rest, the common tail, is copied
    elif at < n:
        out.append(END)
    return "".join(out)


#: A middle of the same length with at most this many pieces changed is compared place by place
#: (more: a piece was taken here and added there, shifting those between: walked).
IN_PLACE = 6


def _first_true(flags: list[bool], default: int) -> int:
    try:
        return flags.index(True)
    except ValueError:
        return default


def _same_length(current: Sequence[int], differ: list[bool], start: int, end: int, out: list[str]) -> None:
    """The middle ``start:end`` of two positions of one length; ``differ[k]``: whether place ``k``
    changed (a piece replaces the previous position's there)."""
    at = start
    for k in compress(range(start, end), differ[start:end]):
        if k > at:
            _copy(out, k - at)
        _piece(out, current[k])
        at = k + 1
    if end > at:
        _copy(out, end - at)


def _walk(previous: Sequence[int], current: Sequence[int], i: int, old_end: int, new_end: int,
          out: list[str]) -> int:
    """The middle ``current[i:new_end]`` from ``previous[i:old_end]``; where in ``previous`` it ends."""
    size, length = len(previous), len(current)
    j = first = i
    present: set[int] | None = None  # the previous middle's pieces (made when first needed)
    while j < new_end:
        if i < old_end and previous[i] == current[j]:  # a copy: as long as the two go on alike (in C)
            most = min(old_end - i, new_end - j)
            run = _first_true(list(map(ne, previous[i:i + most], current[j:j + most])), most)
            _copy(out, run)
            i += run
            j += run
            continue
        # A piece replaced in place (the next two go on as before), else the copy of three or more
        # from elsewhere in the previous middle, else a new piece.
        if j + 2 < length and not (i + 2 < size and previous[i + 1] == current[j + 1]
                                   and previous[i + 2] == current[j + 2]):
            if present is None:
                present = set(previous[first:old_end])
            found = _find(previous, current, j, first, old_end) if current[j] in present else None
            if found is not None:
                _skip(out, found - i)
                i = found
                continue
        _piece(out, current[j])
        i += 1
        j += 1
    return i


#: Places of a piece looked at for a copy from elsewhere (a piece drawn many times, say a closing
#: tag, is given up on after this many).
LOOKS = 4


def _find(previous: Sequence[int], current: Sequence[int], j: int, start: int, end: int) -> int | None:
    """The first place in ``previous[start:end]`` where ``current[j:j+3]`` is (within :data:`LOOKS`
    places of ``current[j]``), else None."""
    at = start
    want = list(current[j:j + 3])  # lists, whatever the sequences: a tuple is never equal to a list
    for _ in range(LOOKS):
        try:
            at = previous.index(current[j], at, end)
        except ValueError:
            return None
        if at + 3 <= end and list(previous[at:at + 3]) == want:
            return at
        at += 1
    return None


def decode_frame(previous: Sequence[int] | None, frame: str, starts: Sequence[str] = ()) -> list[int]:
    """The piece numbers :func:`encode_frame` encoded (the page's JavaScript does the same); a
    frame beginning at a start board reads it from ``starts`` (:attr:`PieceTable.starts`)."""
    before: Sequence[int] = previous or ()
    out: list[int] = []
    i = at = 0
    value = _VALUE
    while at < len(frame):
        c = frame[at]
        if c in value:
            out.append(value[c] * 64 + value[frame[at + 1]])
            at += 2
            i += 1
            continue
        if c == END:
            return out
        kind, digits = OPS[c]
        number = 0
        for d in frame[at + 1:at + 1 + digits]:
            number = number * 64 + value[d]
        at += 1 + digits
        if kind == "copy":
            out.extend(before[i:i + number + 1])
            i += number + 1
        elif kind == "skip":
            i += number + 1
        elif kind == "back":
            i -= number + 1
        elif kind == "piece":
            out.append(number)
            i += 1
        else:
            before, i = decode_frame(None, starts[number]), 0
    out.extend(before[i:])
    return out


def boards_digest(hashes: Sequence[str]) -> str:
    """One game's boards' check: :func:`svg_hash` of their :func:`svg_hash` values, in order."""
    return svg_hash("".join(hashes))


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


__all__ = ["PieceTable", "boards_digest", "decode_frame", "encode_frame", "position_key", "svg_hash"]
