"""Options shared by the commands that play games (`arena match`, `arena run`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


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
