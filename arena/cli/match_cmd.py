"""`arena match` (placeholder until the engine lands; owned by the engine work)."""

from __future__ import annotations

import click


@click.command("match")
def match_command() -> None:
    """Play games between two bot commands (not built yet)."""
    raise click.ClickException("arena match is not built yet")
