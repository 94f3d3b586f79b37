"""Typed readers of the fields of a config object: the one set every config loader uses
(tournament configs and their ``sprt`` object, SPSA configs and their command agents,
hyperparameters files, evolve's settings).

Each reader takes the decoded JSON object, a key and where the object sits in its file
(``where``: ``""`` for the top level, ``"agents[1]"``, ``"sprt"``), and returns the checked value,
or ``default`` when the key is absent or ``null``. A mistake raises :class:`arena.errors.ConfigError`
with one line in one format, ``<where>.<key>: <problem>``::

    timeLimit: must be a positive integer, got 12.5
    timeLimit: at most 604,800,000 allowed, got 100000000000000000000
    agents[1].env.FOO: must be a string, got 5
    sprt.colour: unknown key (known keys: elo0, elo1, alpha, beta, model, maxPairs)

The same value is read alike everywhere: an integer may be written as a float with an integral
value (``2000.0`` is 2000; ``2000.5`` is refused), ``true`` is never a number, an ``env`` map holds
at most :data:`arena.limits.MAX_ENV_VARS` variables of at most :data:`arena.limits.MAX_ENV_VALUE`
characters. Loaders whose messages name their file first wrap the readers in :func:`prefixed`.

May import: the standard library, orjson, :mod:`arena.limits` and :mod:`arena.errors`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import orjson

from arena.errors import ConfigError, ConfigProblems
from arena.games.base import cap_text
from arena.limits import MAX_ENV_VALUE, MAX_ENV_VARS

__all__ = [  # noqa: RUF022 (grouped as the module reads: helpers, then readers)
    "ENV_NAME", "show", "short_key", "name", "fail", "prefixed", "Problems", "check_keys", "unknown_keys", "required",
    "integer", "number", "boolean", "string", "string_list", "one_of", "env_map",
]  # fmt: skip

#: An environment variable's name (letters, digits and ``_``, not starting with a digit).
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def show(value: Any) -> str:
    """``value`` as a message shows it: JSON (a string quoted as Python does), at most 60
    characters, an integer of more than 30 digits as its number of digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value) if len(str(value)) <= 30 else f"an integer of {len(str(abs(value)))} digits"
    else:
        try:
            text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
        except (TypeError, orjson.JSONEncodeError):  # beyond 64-bit integers nested in a value
            text = repr(value)
    return cap_text(text, 60)


def short_key(key: str) -> str:
    """A key from the file, printable and cut short, for a message."""
    return cap_text(repr(key)[1:-1])


def name(where: str, key: str) -> str:
    """The dotted name of ``key`` inside the object at ``where``."""
    return f"{where}.{key}" if where else key


def fail(where: str, key: str, problem: str) -> NoReturn:
    """Raise the ConfigError ``<where>.<key>: <problem>``."""
    raise ConfigError(f"{name(where, key)}: {problem}")


@contextmanager
def prefixed(prefix: str) -> Iterator[None]:
    """Within the block, every ConfigError's message is put after ``<prefix>: `` (the file it came
    from, for a loader whose messages name their file); an empty ``prefix`` adds nothing."""
    if not prefix:
        yield
        return
    try:
        yield
    except ConfigError as exc:
        raise ConfigError(f"{prefix}: {exc}") from None


T = TypeVar("T")


class Problems:
    """Every mistake of a config at once: :meth:`read` runs one reader and keeps its mistake (a
    reader that raises :class:`ConfigProblems` gives all of its lines), :meth:`check` raises them
    as one error."""

    def __init__(self, lines: Collection[str] = ()) -> None:
        self.lines: list[str] = list(lines)

    def read(self, reader: Callable[[], T], default: T) -> T:
        """What ``reader()`` returns; ``default`` after keeping its ConfigError."""
        try:
            return reader()
        except ConfigProblems as exc:
            self.lines.extend(exc.problems)
        except ConfigError as exc:
            self.lines.append(str(exc))
        return default

    def error(self) -> ConfigError | None:
        """The mistakes kept so far as one error (None: none): one as its own line (the message a
        config with one mistake always had), several as :class:`ConfigProblems` (a count line, then
        one each)."""
        if not self.lines:
            return None
        return ConfigError(self.lines[0]) if len(self.lines) == 1 else ConfigProblems(self.lines)

    def check(self) -> None:
        """Raise :meth:`error`, if any."""
        error = self.error()
        if error is not None:
            raise error


def unknown_keys(obj: Mapping[str, Any], known: Collection[str], where: str = "") -> list[str]:
    """One line per key of ``obj`` not in ``known`` (the message of :func:`check_keys`)."""
    return [f"{name(where, short_key(key))}: unknown key (known keys: {', '.join(known)})"
            for key in obj if key not in known]


def check_keys(obj: Mapping[str, Any], known: Collection[str], where: str = "") -> None:
    """ConfigError ``<where>.<key>: unknown key (known keys: ...)`` for the first key of ``obj``
    not in ``known``."""
    for key in obj:
        if key not in known:
            fail(where, short_key(key), f"unknown key (known keys: {', '.join(known)})")


def required(obj: Mapping[str, Any], key: str, where: str = "") -> Any:
    """``obj[key]``; ConfigError ``<key>: missing (required)`` when it is absent."""
    if key not in obj:
        fail(where, key, "missing (required)")
    return obj[key]


def _given(obj: Mapping[str, Any], key: str, where: str, need: bool) -> bool:
    """Whether ``obj`` gives ``key`` a value to check: absent is missing when ``need`` (else the
    default), null is the default unless ``need`` (then it is checked, and refused, as a value)."""
    if key not in obj:
        if need:
            fail(where, key, "missing (required)")
        return False
    return need or obj[key] is not None


def integer(obj: Mapping[str, Any], key: str, *, low: int, high: int, default: Any = None, where: str = "",
            need: bool = False) -> Any:
    """``obj[key]`` as an integer in ``low..high`` (a float with an integral value counts: 2000.0 is
    2000), ``default`` when absent or null (``need``: then it is an error)."""
    if not _given(obj, key, where, need):
        return default
    value = raw = obj[key]
    # 2000.0 is accepted as 2000; 2000.5 is not a count of milliseconds. (Integers beyond 64 bits
    # never come here from a file: strict_loads refuses them; 1e20 written as a float is refused by
    # the maximum.)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    what = ("a positive integer" if low == 1 else "a non-negative integer" if low == 0
            else f"an integer of at least {low:,}")
    if not isinstance(value, int) or isinstance(value, bool):
        fail(where, key, f"must be {what}, got {show(raw)}")
    if value < low:
        fail(where, key, f"must be {what}, got {value}")
    if value > high:
        fail(where, key, f"at most {high:,} allowed, got {show(value)}")
    return value


def number(obj: Mapping[str, Any], key: str, *, default: Any = None, where: str = "", need: bool = False,
           low: float | None = None, high: float | None = None) -> Any:
    """``obj[key]`` as a finite float (an integer counts), within ``low..high`` when given;
    ``default`` when absent or null."""
    if not _given(obj, key, where, need):
        return default
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        fail(where, key, f"must be a number, got {show(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = (f"from {low:g} to {high:g}" if low is not None and high is not None
                else f"at least {low:g}" if low is not None else f"at most {high:g}")
        fail(where, key, f"must be a number {span}, got {show(value)}")
    return float(value)


def boolean(obj: Mapping[str, Any], key: str, *, default: Any = None, where: str = "") -> Any:
    """``obj[key]``, ``true`` or ``false``; ``default`` when absent or null."""
    if not _given(obj, key, where, False):
        return default
    value = obj[key]
    if not isinstance(value, bool):
        fail(where, key, f"must be true or false, got {show(value)}")
    return value


def string(obj: Mapping[str, Any], key: str, *, default: Any = None, where: str = "", need: bool = False,
           what: str = "a string", nul: bool = False) -> Any:
    """``obj[key]``, a string (``what`` names the kind in the message) without a NUL character
    (unless ``nul``); ``default`` when absent or null."""
    if not _given(obj, key, where, need):
        return default
    value = obj[key]
    if not isinstance(value, str):
        fail(where, key, f"must be {what}, got {show(value)}")
    if not nul and "\0" in value:
        fail(where, key, "contains a NUL character")
    return value


def string_list(obj: Mapping[str, Any], key: str, *, default: Any = None, where: str = "",
                need: bool = False) -> Any:
    """``obj[key]``, a list of strings (as a tuple); ``default`` when absent or null."""
    if not _given(obj, key, where, need):
        return default
    value = obj[key]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        fail(where, key, f"must be a list of strings, got {show(value)}")
    for index, item in enumerate(value):
        if "\0" in item:
            fail(where, f"{key}[{index}]", "contains a NUL character")
    return tuple(value)


def one_of(obj: Mapping[str, Any], key: str, choices: Collection[str], *, default: Any = None,
           where: str = "") -> Any:
    """``obj[key]``, one of the strings ``choices``; ``default`` when absent or null."""
    value = string(obj, key, default=None, where=where)
    if value is None:
        return default
    if value not in choices:
        fail(where, key, f"{value!r} is not one of {', '.join(choices)}")
    return value


def env_map(obj: Mapping[str, Any], key: str, *, where: str = "") -> tuple[tuple[str, str], ...]:
    """``obj[key]``, an object of environment variable names to string values (at most
    :data:`MAX_ENV_VARS` of them, each value at most :data:`MAX_ENV_VALUE` characters, no NUL), as
    ``(name, value)`` pairs sorted by name; ``()`` when absent or null."""
    if not _given(obj, key, where, False):
        return ()
    raw = obj[key]
    at = name(where, key)
    if not isinstance(raw, dict):
        fail(where, key, f'must be an object of names to strings, like {{"DEPTH": "4"}}, got {show(raw)}')
    if len(raw) > MAX_ENV_VARS:
        fail(where, key, f"at most {MAX_ENV_VARS} variables allowed, got {len(raw)}")
    out = []
    for variable, value in raw.items():
        if not ENV_NAME.fullmatch(variable):
            fail(at, short_key(variable), "not a valid environment variable name "
                 "(letters, digits and '_', not starting with a digit)")
        if not isinstance(value, str):
            fail(at, variable, f"must be a string, got {show(value)}")
        if "\0" in value:
            fail(at, variable, "contains a NUL character")
        if len(value) > MAX_ENV_VALUE:
            fail(at, variable, f"at most {MAX_ENV_VALUE} characters allowed, got {len(value)}")
        out.append((variable, value))
    return tuple(sorted(out))
