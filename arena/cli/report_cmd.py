"""`arena report LOGDIR|RECORD [-o report.html]`: every game of a tournament in one HTML file.

The page (:mod:`arena.report.html`) needs no network and no other file: standings with the Elo
plot, the crosstable, how games ended, the game list, and a viewer for each game. A tournament of
N-seat games (:mod:`arena.report.html`) gets rank bars, the seat table, the pairwise table and
the N-seat viewer; hundreds of agents get scrolled tables with sticky headers. The run folder
of a learner (``arena tune spsa``, ``arena train td``) gets its chart first
(:mod:`arena.report.training`), then its games, if it kept any. Above 2,000 games the boards go
in chunk files beside the page, drawn in parallel (:mod:`arena.report.chunks`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena.cli.exits import ArenaCommand
from arena.cli.options import rules_option

#: Where the report goes without ``-o``.
DEFAULT_OUT = "report.html"


@click.command(cls=ArenaCommand, name="report", short_help="Write a tournament's games as one HTML file.", epilog="""\b
Examples:
  arena report tournament_logs/my-run -o report.html
  arena report games.json -o match.html        (records from 'arena match --games N --out')
  arena report training/spsa-c4 -o spsa.html   (an SPSA or TD run: its chart, then any games)

\b
In the page: click a game to watch it; Right/Left step, Home/End, PgUp/PgDn,
Esc back to the report. report.html#game=12 opens game 12 directly.""")
@click.argument("source", metavar="LOGDIR|RECORD|RUN")
@click.option("-o", "--out", "out", type=click.Path(dir_okay=False, writable=True), default=DEFAULT_OUT,
              show_default=True, help="The HTML file to write (replaced atomically).")
@click.option("--title", default=None, help="The page's title (default: 'arena report: <source>').")
@click.option("--jobs", type=click.IntRange(min=1, max=256), default=None,
              help="Processes drawing the boards of a report of more than 2,000 games (default: one per "
                   "processor). Such a report is the page plus its boards in the folder beside it "
                   "(report.html: report_games/), loaded when a game is opened.")
@rules_option()
def report_command(source: str, out: str, title: str | None, jobs: int | None) -> None:
    """Write one self-contained HTML file (no network, opens from file://) with the standings
    (Elo with 95% intervals, plotted; click a header to sort; for games of N seats each agent's
    ranks as a bar and a table per seat), the crosstable (pairwise results for N seats), how games ended and the list of games of a
    tournament's log folder (tournament_logs/<id>/) or a file of records; click a game to replay it
    move by move with the board, the move list, both clocks and the reason it ended. For the run
    folder of 'arena tune spsa' or 'arena train td', the parameter history or learning curve comes
    first, as a chart and a table."""
    from arena.errors import UsageError
    from arena.fileio.files import output_refusal
    from arena.records.sources import Source, open_source
    from arena.report.chunks import write_report
    from arena.report.training import chart_section, run_chart

    refusal = output_refusal(out)  # before the work: -o /dev/full, a FIFO, a link or a folder
    if refusal is not None:
        raise UsageError(f"cannot write {out}: {refusal.strerror}")
    show = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show and (done == total or done % 20 == 0):
            click.echo(f"\rdrawing boards: {done}/{total} games", err=True, nl=done == total)

    folder = Path(source)
    chart = run_chart(folder)
    if chart is not None and not (folder / "games").is_dir():
        found = Source(source, (), is_folder=True)  # a TD run, or an SPSA run without bot games
    else:
        found = open_source(source)
    before = chart_section(chart) if chart is not None else ""
    size = write_report(found, out, title=title, progress=progress, before=before, workers=jobs)
    games = len(found.entries)
    chart_note = f"the {chart.kind.upper()} chart and " if chart is not None else ""
    click.echo(f"wrote {out}: {chart_note}{games} game{'s' if games != 1 else ''}, {size / 1e6:.2f} MB", err=True)

