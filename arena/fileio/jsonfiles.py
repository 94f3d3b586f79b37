"""JSON text in: the one strict decoder of files (:func:`strict_loads`).

Every reader of a config, opening book, record, state, hyperparameters file or log row decodes with
:func:`strict_loads`: nesting, duplicate keys, non-numbers and over-wide integers are refused there
once, with a one-line message, for all of them.

A byte stream is split into JSON objects by :class:`arena.protocols.framing.Framer` (the one
framer), not here.
"""

from __future__ import annotations

import json
import math
import operator
import os
import re
from itertools import accumulate, count
from typing import Any

try:
    import orjson
except ImportError:  # the record checkers in scripts/ run on the standard library alone (-S -I)
    orjson = None  # type: ignore[assignment]

from arena.limits import MAX_JSON_DEPTH

# A JSON string, escapes included (the unrolled form: fast on long texts).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# Brackets to +2 (opening) and 0 (closing), everything else deleted: see nesting_depth.
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[{]}")


def nesting_depth(data: bytes, limit: int) -> int:
    """How deeply arrays and objects nest in the JSON text ``data``, counting at most to ``limit + 1``.

    A cheap scan (brackets outside strings) to run before a recursive parser, which would otherwise
    fail on ``[[[[...`` with a RecursionError. It does not validate the text.
    """
    steps = _STRING.sub(b"", data).translate(_BRACKET_STEPS, _NOT_BRACKETS)
    if not steps:
        return 0
    # After the k-th bracket (k from 1) the depth is (2 * openings so far) - k: all in C iterators,
    # so a 60 kB record costs about a millisecond.
    return min(limit + 1, max(map(operator.sub, accumulate(steps), count(1))))


# Every byte but brackets and the double quote; then opening brackets to "(", closing ones to ")".
_NOT_BRACKETS_OR_QUOTES = bytes(c for c in range(256) if c not in b'[{]}"')
_PARENTHESES = bytes.maketrans(b"[{]}", b"(())")


def _compact_too_deep(data: bytes, limit: int) -> bool | None:
    """Whether a JSON text exactly as ``orjson`` writes it nests more than ``limit`` levels (as
    :func:`nesting_depth` counts), without a regular expression or a loop over every bracket (a
    tenth of the cost); None when this cheap way cannot tell.

    In orjson's output a backslash only ever starts an escape and a quote inside a string is always
    escaped, so once the escaped backslashes and then the escaped quotes are deleted, the quotes left
    are the strings' ends. Deleting every byte but brackets and quotes and then the empty strings
    ``""`` leaves no quote exactly when no string holds a bracket (a string's opening quote goes
    only with its closing one, which must follow it at once): what is left is then the brackets
    outside strings. Each deletion of the empty pairs ``()`` removes the innermost level of every
    array and object, so nesting deeper than ``limit`` is what is left after ``limit`` of them.
    """
    if b"\\" in data:
        data = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = data.translate(None, _NOT_BRACKETS_OR_QUOTES).replace(b'""', b"")
    if b'"' in kept:
        return None
    kept = kept.translate(_PARENTHESES)
    for _ in range(limit):
        if not kept:
            return False
        kept = kept.replace(b"()", b"")
    return bool(kept)


class JsonInputError(ValueError):
    """A JSON text that :func:`strict_loads` refuses; the message is one line saying why.
    ``syntax`` is the decoder's own message when the text is not JSON at all (else None)."""

    def __init__(self, message: str, syntax: str | None = None) -> None:
        super().__init__(message)
        self.syntax = syntax


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _no_constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number")


# The integers arena can write back (orjson's range): a wider one would fail later, mid-run.
_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1
# Only a run of 19 digits or more can be outside that range, and only an exponent of 3 digits can
# make a float infinite (1e400): texts without either (nearly all) skip the walk that checks.
_WIDE_NUMBER = re.compile(rb"\d{19}|[eE]\+?\d{3}")


def strict_loads(data: bytes | str, *, max_depth: int = MAX_JSON_DEPTH, wide_ints: bool = False) -> Any:
    """Decode the JSON text ``data`` as every file reader of arena must (configs, books, records,
    states, log rows): refused, with a :class:`JsonInputError` whose message is one line, are text
    that is not UTF-8 or not JSON, arrays and objects nested more than ``max_depth`` levels (so no
    reader, recursive or not, ever meets a RecursionError), a key given twice in one object (JSON
    leaves it undefined; silently keeping the last would let ``"id"`` be two things), ``NaN`` and
    ``Infinity`` (also as ``1e400``), and integers beyond 64 bits (arena could not write them back)
    unless ``wide_ints`` (a config: every number in it is range-checked by its key, so the message
    can name the key).

    Cost (measured on this project's records): about 7 us for a 350-byte ``games.jsonl`` row and
    1.3 ms for a 60 kB record, against 1 us and 0.2 ms for plain orjson, which cannot see a
    duplicate key.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    value = _compact_loads(raw, max_depth)
    if value is not _NOT_COMPACT:
        return value
    # Fewer brackets than the limit cannot nest deeper than it (a games.jsonl row): no scan then.
    if raw.count(b"[") + raw.count(b"{") > max_depth and nesting_depth(raw, max_depth) > max_depth:
        raise JsonInputError(f"nested more than {max_depth} levels deep")
    try:
        # Decoded here, not by json.loads, which would take a UTF-16 or UTF-32 text for JSON too.
        value = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _DuplicateKey as duplicate:
        raise JsonInputError(f"the key {cap_key(duplicate.args[0])} appears twice in one object") from None
    except UnicodeDecodeError as exc:
        raise JsonInputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except JsonInputError:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonInputError(f"not valid JSON ({exc})", syntax=str(exc)) from None
    if _WIDE_NUMBER.search(raw):
        wide = _wide_number(value, wide_ints)
        if wide is not None:
            raise JsonInputError(wide)
    return value


_NOT_COMPACT = object()


def _compact_loads(raw: bytes, max_depth: int) -> Any:
    """The value of ``raw`` when it is JSON exactly as ``orjson.dumps`` writes it (one newline may
    follow), as :func:`strict_loads` would return it, else ``_NOT_COMPACT`` (the caller's strict
    reading then decides, and says why a text is refused). Raises JsonInputError for a text nested
    too deeply.

    Why this is strict: orjson refuses text that is not UTF-8, NaN, infinities and lone surrogates,
    reads an integer beyond 64 bits as a float and keeps the last of a repeated key, so a value
    that encodes back to the very same bytes had no repeated key and no number :func:`strict_loads`
    refuses; and it is the same value (orjson and ``json`` both round floats correctly). What
    arena writes (records, log rows) is read so at about a tenth of the cost.
    """
    if orjson is None:
        return _NOT_COMPACT
    if raw[-1:] == b"\n":
        body = raw[:-1]
    elif raw[-1:] in (b"}", b"]"):
        body = raw
    else:  # a number, a string, literals, a text with spaces around: the strict reading
        return _NOT_COMPACT
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError:
        return _NOT_COMPACT
    try:
        again = orjson.dumps(value)
    except TypeError:  # nested deeper than orjson writes (its JSONEncodeError): the strict reading says so
        return _NOT_COMPACT
    if again != body:
        return _NOT_COMPACT
    if body.count(b"[") + body.count(b"{") > max_depth:
        too_deep = _compact_too_deep(body, max_depth)
        if nesting_depth(body, max_depth) > max_depth if too_deep is None else too_deep:
            raise JsonInputError(f"nested more than {max_depth} levels deep")
    return value


def read_json_file(path: str | os.PathLike[str], limit: int, *, root: int | str | os.PathLike[str] | None = None) -> Any:
    """The JSON value of the file ``path``: :func:`arena.fileio.files.read_input` (a regular file of at
    most ``limit`` bytes; ``root``: inside arena's own folder, no link followed below it), decoded
    by :func:`strict_loads`. Raises OSError (:class:`arena.fileio.files.UnsafeFileError` for a refused
    file) or :class:`JsonInputError`."""
    from arena.fileio.files import read_input

    return strict_loads(read_input(path, limit, root=root))


def read_json_lines(path: str | os.PathLike[str], limit: int, *, root: int | str | os.PathLike[str]) -> list[Any]:
    """The JSON values of the lines of the file ``path`` in a run's folder ``root`` (read as
    :func:`read_json_file` reads; missing file: none). A line that does not decode is skipped: a
    JSON-lines log's last line may have been cut short by a crash. Raises OSError for a file that
    is refused (:class:`arena.fileio.files.UnsafeFileError`: a FIFO, a link, over ``limit``)."""
    from arena.fileio.files import read_input

    try:
        data = read_input(path, limit, root=root)
    except FileNotFoundError:
        return []
    values = []
    for line in data.splitlines():
        if line.strip():
            try:
                values.append(strict_loads(line))
            except JsonInputError:
                continue
    return values


def cap_key(key: str, limit: int = 40) -> str:
    """``key`` quoted for a one-line message, cut to ``limit`` characters."""
    shown = repr(key)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _wide_number(value: Any, wide_ints: bool) -> str | None:
    """Why a number in ``value`` cannot be kept (None: every one can)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is int:
            if not wide_ints and not _INT_MIN <= item <= _INT_MAX:
                return f"an integer beyond 64 bits (arena keeps integers from {_INT_MIN} to {_INT_MAX})"
        elif type(item) is float:
            if not math.isfinite(item):
                return "a number too large for a float (infinity)"
        elif type(item) is dict:
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)
    return None
