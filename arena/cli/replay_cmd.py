"""`arena replay RECORD|LOGDIR [--game N]`: step through a recorded game of any kind in the terminal,
print it (piped or ``--plain``) or write its HTML page (``--html FILE``).

The command parses and reports; the game is read by :mod:`arena.records.replay` (every record
format), drawn by :mod:`arena.ui.replay_view` (the full-screen viewer and the plain text) and
:mod:`arena.report.html` (the page).
"""

from __future__ import annotations

import os
import sys

import click

from arena.cli.exits import ArenaCommand
from arena.cli.options import rules_option
from arena.records.replay import DEFAULT_DELAY_S


@click.command(cls=ArenaCommand, name="replay", short_help="Replay a recorded game (terminal or HTML).", epilog="""\b
Examples:
  arena replay record.json
  arena replay tournament_logs/my-run --game 1
  arena replay record.json --autoplay --delay 0.2
  arena replay record.json | less          (plain text: moves and final board)
  arena replay record.json --html game.html (a web page: board, moves, clocks)
  arena replay table.json --seat 1          (an N-seat game as seat 1 saw it)

\b
Keys: Right/n/l next, Left/p/h previous, Home/g first, End/G last,
      PgDn/PgUp 10 moves, space autoplay on/off, q or Esc quit.""")
@click.argument("source", metavar="RECORD|LOGDIR")
@click.option("--game", "game_index", type=click.IntRange(min=0), default=None,
              help="Which game of a log folder (or a file of several records): its index, as in "
                   "games/NNNNN.json (from 0). Without it, a source with several games lists them.")
@click.option("--autoplay", is_flag=True, help="Step forward by itself (keys still work; space pauses).")
@click.option("--delay", type=click.FloatRange(min=0.01, max=3600), default=DEFAULT_DELAY_S, show_default=True,
              help="Seconds between two moves in autoplay.")
@click.option("--plain", is_flag=True, help="Print the plain-text form even on a terminal.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Write the game as one self-contained HTML page (board, moves, clocks; opens from "
                   "file://) to FILE and exit. 'arena report' writes a whole tournament.")
@click.option("--seat", "seat", type=click.IntRange(min=0), default=None, metavar="K",
              help="An N-seat game (Goofspiel, poker...) as seat K saw it: its observation, no other "
                   "seat's hidden cards, moves or chance draws it could not see. Default: everything.")
@rules_option()
def replay_command(source: str, game_index: int | None, autoplay: bool, delay: float, plain: bool,
                   html_out: str | None, seat: int | None) -> None:
    """Replay a recorded game: a record file (from `arena match --out`) or a tournament's log folder
    (tournament_logs/<id>/, with --game N).

    On a terminal it shows the board with the last move marked, the move list in the game's
    notation, both clocks and, at the end, the result and its reason; step with the arrow keys.
    Piped, it prints the players, the result, the numbered move list and the final board.
    A log folder given without --game lists its games (exit 0) unless it holds only one.

    A game of N seats (arena match A B C ...) shows its seats with their returns and ranks, then
    every step (chance draws, moves, simultaneous moves, eliminations) with the position after it;
    --seat K shows it as seat K saw it.
    """
    from arena.errors import UsageError
    from arena.fileio.files import output_refusal
    from arena.records.replay import Replay
    from arena.records.sources import open_source

    refusal = output_refusal(html_out) if html_out is not None else None
    if refusal is not None:  # before the work: --html /dev/full, a FIFO, a link or a folder
        raise UsageError(f"cannot write {html_out}: {refusal.strerror}")
    found = open_source(source)
    entry = found.pick(game_index)
    if entry is None and html_out is not None:
        click.echo("\n".join(found.listing()))
        raise UsageError(f"{source} holds {len(found.entries)} games; pick one with --game N "
                         f"(or write them all with 'arena report {source} -o FILE')")
    if entry is None:
        click.echo("\n".join(found.listing()))
        click.echo(f"arena: {source} holds {len(found.entries)} games; replay one with "
                   f"'arena replay {source} --game N'", err=True)
        return
    label = f"{source} game {entry.index}" if len(found.entries) > 1 or found.is_folder else source
    replay = Replay.from_record(found.load(entry), label=label, seat=seat)
    if html_out is not None:
        from arena.report.html import viewer_html, write_page

        size = write_page(html_out, viewer_html(entry, replay))
        unit = "plies" if replay.paired else "steps"
        view = "" if replay.paired else ", omniscient" if seat is None else f", as seat {seat} saw it"
        click.echo(f"wrote {html_out}: {replay.title()}, {replay.last} {unit}{view}, {size / 1e3:.0f} kB", err=True)
        return
    from arena.ui.replay_view import has_fileno, plain_text, run_viewer, terminal_input

    keys_fd = None if plain else terminal_input()
    if keys_fd is None:
        try:
            sys.stdout.write(plain_text(replay))
            sys.stdout.flush()
        except BrokenPipeError:
            # `arena replay x | head`: the reader left; say nothing more (and not at exit either).
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return
    opened = not (has_fileno(sys.stdin) and keys_fd == sys.stdin.fileno())  # /dev/tty: ours to close
    try:
        code = run_viewer(replay, keys_fd, autoplay=autoplay, delay=delay)
    finally:
        if opened:
            os.close(keys_fd)
    if code == 130:
        click.echo("arena: interrupted", err=True)
    sys.exit(code)
