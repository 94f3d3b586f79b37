"""Where the conformance check is, so that every failure is one line saying it (standard library
only; :mod:`arena.games.conformance` and :mod:`arena.games.conformance_search` share it)."""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any, Literal

from arena.games.base import cap_text


class ConformanceError(AssertionError):
    """A game broke the forward-model contract; the message says where and how (one line)."""


class Context:
    """Where the check is (game, step, state), so every failure message can say it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.where = ""
        self.state_json: Any = None

    def fail(self, message: str) -> ConformanceError:
        text = f"{self.name}: {self.where + ': ' if self.where else ''}{message}"
        if self.state_json is not None:
            text += f" (state {show(self.state_json, 300)})"
        return ConformanceError(" ".join(text.split("\n")))

    def step(self, what: str) -> Step:
        """A ``with`` block turning an unexpected exception into a ConformanceError naming ``what``."""
        return Step(self, what)


class Step:
    # A class rather than @contextmanager: it is entered ~20 times per step.
    __slots__ = ("ctx", "what")

    def __init__(self, ctx: Context, what: str) -> None:
        self.ctx, self.what = ctx, what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if exc is None or isinstance(exc, ConformanceError) or not isinstance(exc, Exception):
            return False
        raise self.ctx.fail(f"{self.what} raised {type(exc).__name__}: {cap_text(str(exc), 200)}") from exc


def show(value: Any, limit: int = 120) -> str:
    """``value`` as JSON text (else its repr), capped at ``limit`` characters."""
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return cap_text(text, limit)


def json_trip(value: Any) -> Any:
    """``value`` after a trip through JSON text (what a record file or a bot's pipe does to it)."""
    return json.loads(json.dumps(value))
