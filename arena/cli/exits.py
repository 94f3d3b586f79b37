"""Errors to exit statuses, in one place: :data:`EXIT_STATUSES` maps each error class to its status,
and :class:`ArenaCommand` / :class:`ArenaGroup` (every command's click class) apply it, so no
command catches :class:`arena.errors.ArenaError` to choose a status itself.

An error becomes one line on stderr, ``<voice>: error: <message>`` (the voice is ``arena``, or
``arena train``, ``arena tune``, ``arena llr`` for the commands that speak so), and
the exit status of the first row of :data:`EXIT_STATUSES` the error is an instance of. An
:class:`arena.errors.Interrupted` says ``<voice>: <message>`` (no "error": the same command
resumes). What is not an ArenaError (a file that cannot be read, a bug) is left to
:func:`arena.cli.main`.

Kept free of arena's heavy modules: classes are named ``module:name`` and imported only when an
error is mapped, so ``arena --help`` stays fast.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

#: (error class as ``module:name``, exit status, what it means), most specific first; the first row an
#: error is an instance of decides. ``arena --help``'s epilog and docs/README.md show this table;
#: tests/cli/test_exits.py checks both.
EXIT_STATUSES: tuple[tuple[str, int, str], ...] = (
    ("arena.errors:Interrupted", 130, "interrupted (Ctrl-C, SIGTERM; 129 for SIGHUP) after finished work was kept"),
    ("arena.errors:ResourceError", 1, "arena itself failed: out of descriptors, disk, processes or memory; a referee broke"),
    ("arena.backends:ClusterError", 1, "the Ray cluster cannot be reached or failed"),
    ("arena.errors:ArenaError", 2, "bad input: a usage, config, state, move, record, book or log-folder mistake"),
)

#: Commands whose one-line errors name them (``arena train: error: ...``); the others say ``arena``.
VOICES: dict[str, str] = {name: f"arena {name}" for name in ("train", "tune", "llr")}


def _error_class(dotted: str) -> type[BaseException]:
    module, _, name = dotted.partition(":")
    cls = getattr(importlib.import_module(module), name)
    assert isinstance(cls, type) and issubclass(cls, BaseException), dotted
    return cls


def exit_status(error: BaseException) -> int:
    """The exit status of an :class:`arena.errors.ArenaError` by :data:`EXIT_STATUSES`."""
    for dotted, status, _ in EXIT_STATUSES:
        if isinstance(error, _error_class(dotted)):
            return status
    raise TypeError(f"not an arena error: {type(error).__name__}")


def epilog_table() -> str:
    """The exit statuses as ``arena --help``'s epilog shows them (click keeps ``\\b`` blocks as written)."""
    rows = [(0, "done (whatever the games' results)")] + sorted(
        ((status, meaning) for _, status, meaning in EXIT_STATUSES), key=lambda row: row[0])
    return "\b\nExit statuses:\n" + "\n".join(f"  {status:<4} {meaning}" for status, meaning in rows)


def fail(message: str, status: int, voice: str = "arena") -> NoReturn:
    """``<voice>: error: <message>`` on stderr and exit ``status``: for a failure that is not an
    exception (a run that ended with a failed game, an output that cannot be written)."""
    click.echo(f"{voice}: error: {message}", err=True)
    sys.exit(status)


def voice_of(ctx: click.Context) -> str:
    """``arena <command>`` for the commands of :data:`VOICES` (found anywhere up ``ctx``'s chain,
    so ``arena train td`` speaks as ``arena train``), else ``arena``."""
    while ctx is not None:
        if ctx.command.name in VOICES:
            return VOICES[ctx.command.name]
        ctx = ctx.parent  # type: ignore[assignment]
    return "arena"


def _report(ctx: click.Context, error: Exception) -> int:
    from arena.errors import Interrupted

    message = str(error) or type(error).__name__
    voice = voice_of(ctx)
    click.echo(f"{voice}: {message}" if isinstance(error, Interrupted) else f"{voice}: error: {message}", err=True)
    return exit_status(error)


def _invoke_mapping_errors(invoke: Any, ctx: click.Context) -> Any:
    from arena.errors import ArenaError

    try:
        return invoke(ctx)
    except ArenaError as error:
        ctx.exit(_report(ctx, error))


class ArenaCommand(click.Command):
    """A click command whose :class:`arena.errors.ArenaError` becomes one line and its exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        return _invoke_mapping_errors(super().invoke, ctx)


class ArenaGroup(click.Group):
    """A click group that maps errors as :class:`ArenaCommand` does; its subcommands are ArenaCommands."""

    command_class = ArenaCommand

    def invoke(self, ctx: click.Context) -> Any:
        return _invoke_mapping_errors(super().invoke, ctx)
