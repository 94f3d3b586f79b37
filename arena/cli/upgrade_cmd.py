"""`arena upgrade-records`: rewrite record files an earlier arena wrote (formats 1 to 3) as record
format 4, in place. Thin: the behaviour (output lines, exit status) is
:func:`arena.records.migrate.run_upgrade_records`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena.cli.exits import ArenaCommand


@click.command(
    "upgrade-records",
    cls=ArenaCommand,
    short_help="Rewrite old game records as record format 4.",
    epilog="""\b
Examples:
  arena upgrade-records game.json
  arena upgrade-records tournament_logs/*/games/*.json""",
)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def upgrade_records_command(files: tuple[Path, ...]) -> None:
    """Rewrite each FILE of game records (one record, a JSON array or JSON lines, as an earlier
    arena wrote them: formats 1, 2 and 3) as record format 4, in place and atomically. A file
    already in format 4 is left as it is, byte for byte; only regular files are rewritten, each
    keeping its shape and layout. docs/records.md maps every old field to its new place.

    Every file is read and checked before any is written. Exit status: 0 done, 1 a write failed,
    2 a file that is not records or cannot be upgraded (nothing written)."""
    from arena.records.migrate import run_upgrade_records

    sys.exit(run_upgrade_records(files, sys.stdout, sys.stderr))
