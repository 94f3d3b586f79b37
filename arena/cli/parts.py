"""Options that name a part of a seam (an ``arena.plugins.Seam``: a backend, a rating method...).

Apart from :mod:`arena.cli.options` so that a light command (``arena standings``) pays for click
and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from arena.plugins import Seam


class PartName(click.ParamType):
    """The name of a registered part of a seam (:class:`arena.plugins.Seam`: a backend...).
    ``seam`` gives the seam when called: its entry points are read only when the option is used or
    its help is shown, so ``arena --help`` stays fast."""

    def __init__(self, seam: Callable[[], Seam[Any]], name: str) -> None:
        self.seam = seam
        self.name = name

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str | None:
        return "[" + "|".join(self.seam().names()) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        seam = self.seam()
        if str(value) not in seam.parts():
            self.fail(seam.unknown(str(value)), param, ctx)
        return str(value)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in self.seam().names() if name.startswith(incomplete)]


def backend_seam() -> Seam[Any]:
    """The run backends (``--backend``)."""
    from arena.backends import BACKEND_SEAM

    return BACKEND_SEAM


def rating_seam() -> Seam[Any]:
    """The rating methods (``--rating``)."""
    from arena.stats.methods import RATING_SEAM

    return RATING_SEAM


def sandbox_seam() -> Seam[Any]:
    """The sandbox backends (``--sandbox-backend``)."""
    from arena.process.sandboxes import SANDBOX_SEAM

    return SANDBOX_SEAM
