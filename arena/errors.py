"""The one exception hierarchy of arena.

Every error arena raises on purpose derives from :class:`ArenaError`. Only the CLI maps them to
messages and exit codes. Rules errors (:class:`MoveSyntaxError`, :class:`IllegalMoveError`,
:class:`StateError`) are defined in :mod:`arena.games.base`, because the rules package may import
only the standard library; :class:`ArenaError` itself is defined there too and re-exported here.
"""

from __future__ import annotations

from typing import Any

# The root class lives in games.base so that the rules package stands alone on the standard library.
from arena.games.base import (
    ArenaError,
    GameError,
    IllegalMoveError,
    MoveSyntaxError,
    StateError,
)

__all__ = [
    "AGENT_ARENA_FAILURE_EXIT",
    "ArenaError",
    "ArenaWarning",
    "BotError",
    "ConfigError",
    "ConfigProblems",
    "GameError",
    "IllegalMoveError",
    "InputError",
    "Interrupted",
    "MoveSyntaxError",
    "ResourceError",
    "StateError",
    "UsageError",
    "show_arena_warnings",
]


class UsageError(ArenaError):
    """A bad command-line argument. Exit status 2."""


class ConfigError(ArenaError):
    """A tournament or agent config mistake; the message names the key. Exit status 2."""


class ConfigProblems(ConfigError):
    """Several config mistakes found at once: ``problems`` holds them, one line each; the message
    is a count line, then one indented line per problem. Exit status 2."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(f"{len(problems)} problems in the config:\n" + "\n".join(f"  {p}" for p in problems))


class InputError(ArenaError):
    """Malformed input on stdin to a rules tool. Exit status 2."""


class ArenaWarning(UserWarning):
    """Something arena carried on past, said as a :mod:`warnings` warning by code that has no
    console (the log folder store); the CLI shows each as one line, ``arena: warning: ...``."""


def show_arena_warnings() -> None:
    """Show every :class:`ArenaWarning` as one line on stderr, ``arena: warning: ...`` (Python's own
    format would add the file, the line and the source); other warnings as Python shows them. For
    the CLI and the scripts that run without it. Idempotent."""
    import sys
    import warnings

    shown = warnings.showwarning
    if getattr(shown, "arena", False):
        return

    def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
             file: Any = None, line: str | None = None) -> None:
        if issubclass(category, ArenaWarning):
            sys.stderr.write(f"arena: warning: {message}\n")
        else:
            shown(message, category, filename, lineno, file, line)

    show.arena = True  # type: ignore[attr-defined]
    warnings.showwarning = show


class BotError(ArenaError):
    """A bot could not be started at all (e.g. its executable does not exist)."""


class Interrupted(ArenaError):
    """The user interrupted the run (Ctrl-C / SIGTERM). Exit status 130."""


class ResourceError(ArenaError):
    """Arena itself ran out of something (file descriptors, disk space, processes, memory) or its
    machinery failed. Never a bot's fault: the run stops with one line naming the cause, and the
    game in flight is not recorded (a resumed run plays it again). Exit status 1."""


#: The exit status by which arena's own agents (``python -m arena.agents.search_bot``) say that
#: they stopped for arena's reasons, not their own: a ResourceError in them, such as a failure of
#: the referee copy an MCTS agent starts for its search. Arena believes it of its own agents only
#: (a user's bot could exit so to undo a loss): the game is then an ``arena_error``, not a crash.
AGENT_ARENA_FAILURE_EXIT = 75
