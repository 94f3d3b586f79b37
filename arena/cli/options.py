"""Options and exit codes shared by the commands that play games (`arena match`, `arena run`)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: Exit status after a graceful stop: 128 + the signal's number for SIGHUP (129), and 130 for
#: Ctrl-C and SIGTERM alike (the status arena has always used for "interrupted, results flushed").
INTERRUPTED_EXIT_CODE = 130
HANGUP_EXIT_CODE = 129


def interrupted_exit_code(signal_number: int | None) -> int:
    """The exit status for a run stopped by ``signal_number`` (None: a KeyboardInterrupt)."""
    return HANGUP_EXIT_CODE if signal_number == signal.SIGHUP else INTERRUPTED_EXIT_CODE


def isolation_options(from_config: bool) -> Callable[[F], F]:
    """``--ponder/--no-ponder``, ``--sandbox/--no-sandbox`` and ``--inherit-env/--no-inherit-env``;
    each is None when not given: off, or with ``from_config`` the config's key (off when absent)."""

    def default(key: str) -> str:
        return f"the config's '{key}', else off" if from_config else "off"

    def decorate(func: F) -> F:
        func = click.option(
            "--inherit-env/--no-inherit-env", "inherit_env", default=None,
            help="Give bots arena's whole environment instead of a minimal one (PATH, HOME, LANG, "
                 f"TMPDIR and the agent's own 'env'). Default: {default('inheritEnv')}.")(func)
        func = click.option(
            "--sandbox/--no-sandbox", "sandbox", default=None,
            help="Run each bot under bubblewrap: own PID namespace, no network, read-only files "
                 f"except a private scratch folder, logs hidden. Default: {default('sandbox')}.")(func)
        func = click.option(
            "--ponder/--no-ponder", "ponder", default=None,
            help="Let bots run while the opponent thinks. Off: a bot's processes are stopped "
                 f"(SIGSTOP) between its turns. Default: {default('ponder')}.")(func)
        return func

    return decorate
