"""`arena run` and `arena standings` (placeholders until the tournament work lands)."""

from __future__ import annotations

import click


@click.command("run")
def run_command() -> None:
    """Run a tournament from a JSON config (not built yet)."""
    raise click.ClickException("arena run is not built yet")


@click.command("standings")
def standings_command() -> None:
    """Recompute standings from a tournament's logs (not built yet)."""
    raise click.ClickException("arena standings is not built yet")
