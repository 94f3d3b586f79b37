"""`arena report LOGDIR|RECORD [-o report.html]`: every game of a tournament in one HTML file.

The page (:mod:`arena.report.html`) needs no network and no other file: standings with the Elo
plot, the crosstable, how games ended, the game list, and a viewer for each game.
"""

from __future__ import annotations

import sys

import click

#: Where the report goes without ``-o``.
DEFAULT_OUT = "report.html"


@click.command("report", short_help="Write a tournament's games as one HTML file.", epilog="""\b
Examples:
  arena report tournament_logs/my-run -o report.html
  arena report games.json -o match.html        (records from 'arena match --games N --out')

\b
In the page: click a game to watch it; Right/Left step, Home/End, PgUp/PgDn,
Esc back to the report. report.html#game=12 opens game 12 directly.""")
@click.argument("source", metavar="LOGDIR|RECORD")
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False, writable=True), default=DEFAULT_OUT,
              show_default=True, help="The HTML file to write (replaced atomically).")
@click.option("--title", default=None, help="The page's title (default: 'arena report: <source>').")
def report_command(source: str, out: str, title: str | None) -> None:
    """Write one self-contained HTML file (no network, opens from file://) with the standings
    (Elo with 95% intervals, plotted), the crosstable, how games ended and the list of games of a
    tournament's log folder (tournament_logs/<id>/) or a file of records; click a game to replay it
    move by move with the board, the move list, both clocks and the reason it ended."""
    from arena.errors import ArenaError
    from arena.replay import open_source
    from arena.report.html import report_html, write_page

    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show and (done == total or done % 20 == 0):
            click.echo(f"\rdrawing boards: {done}/{total} games", err=True, nl=done == total)

    try:
        found = open_source(source)
        size = write_page(out, report_html(found, title=title, progress=progress))
    except ArenaError as exc:
        click.echo(f"arena: error: {exc}", err=True)
        sys.exit(2)
    games = len(found.entries)
    click.echo(f"wrote {out}: {games} game{'s' if games != 1 else ''}, {size / 1e6:.2f} MB", err=True)
