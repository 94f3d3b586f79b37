"""`arena replay RECORD|LOGDIR [--game N]`: step through a recorded game in the terminal.

On a terminal: a full-screen view (rich, alternate screen) of the board with the last move marked,
the move list with the current move highlighted, both clocks, and the result with its reason at the
last position; keys are read in cbreak mode (see :data:`arena.ui.replay_keys.KEY_ACTIONS`). The terminal's
settings and the main screen are restored on every way out: q, end of input, Ctrl-C (exit 130),
SIGTERM; Ctrl-Z suspends with the terminal restored and redraws on ``fg``.

Piped (or ``--plain``): the header, the numbered move list and the final board as plain text.

N-seat records (``record_format`` 3: :mod:`arena.records.seat_replay`) step through their steps
(chance draws, moves, simultaneous moves, eliminations) the same way, with the same keys; the
picture is the game's ``board_text``. ``--seat K`` shows the game as seat K saw it.

The loading is :mod:`arena.records.replay`, the key logic :mod:`arena.ui.replay_keys` (no terminal needed to test them).
"""

from __future__ import annotations

import os
import select
import signal
import sys
import textwrap
import time
from typing import TYPE_CHECKING, Any

import click

from arena.cli.options import rules_option
from arena.records.replay import DEFAULT_DELAY_S, ReplayError

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.text import Text

    from arena.records.replay import GameEntry, Replay
    from arena.records.seat_replay import SeatReplay
    from arena.ui.replay_keys import Cursor

#: After an Escape byte, how long to wait for the rest of a key's escape sequence (seconds).
ESCAPE_WAIT_S = 0.05
#: The longest the loop sleeps without looking at the terminal's size (a resize redraws).
IDLE_POLL_S = 0.25


@click.command("replay", short_help="Replay a recorded game (terminal or HTML).", epilog="""\b
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
    from arena.fileio.files import output_refusal
    from arena.records.reader import RecordInputError
    from arena.records.replay import Replay, open_source
    from arena.records.seat_replay import SeatReplay
    from arena.records.seats import is_seat_record

    refusal = output_refusal(html_out) if html_out is not None else None
    if refusal is not None:  # before the work: --html /dev/full, a FIFO, a link or a folder
        click.echo(f"arena: error: cannot write {html_out}: {refusal.strerror}", err=True)
        sys.exit(2)
    try:
        found = open_source(source)
        entry = found.pick(game_index)
        if entry is None and html_out is not None:
            click.echo("\n".join(found.listing()))
            click.echo(f"arena: error: {source} holds {len(found.entries)} games; pick one with --game N "
                       f"(or write them all with 'arena report {source} -o FILE')", err=True)
            sys.exit(2)
        if entry is None:
            click.echo("\n".join(found.listing()))
            click.echo(f"arena: {source} holds {len(found.entries)} games; replay one with "
                       f"'arena replay {source} --game N'", err=True)
            return
        record = found.load(entry)
        label = f"{source} game {entry.index}" if len(found.entries) > 1 or found.is_folder else source
        replay: Replay | SeatReplay
        if is_seat_record(record):
            replay = SeatReplay.from_record(record, label=label, seat=seat)
        elif seat is not None:
            raise ReplayError(f"{label}: --seat is for games of N seats; this {record.get('game', '?')} "
                              "game of two players hides nothing (replay it without --seat)")
        else:
            replay = Replay.from_record(record, label=label)
    except (ReplayError, RecordInputError) as exc:
        click.echo(f"arena: error: {exc}", err=True)
        sys.exit(2)
    if html_out is not None:
        if isinstance(replay, SeatReplay):
            _write_seat_html(entry, replay, html_out)
        else:
            _write_html(entry, replay, html_out)
        return
    keys_fd = None if plain else _terminal_input()
    if keys_fd is None:
        _write_plain(replay)
        return
    opened = not (_has_fileno(sys.stdin) and keys_fd == sys.stdin.fileno())  # /dev/tty: ours to close
    try:
        code = run_viewer(replay, keys_fd, autoplay=autoplay, delay=delay)
    finally:
        if opened:
            os.close(keys_fd)
    if code == 130:
        click.echo("arena: interrupted", err=True)
    sys.exit(code)


def _write_html(entry: GameEntry, replay: Replay, path: str) -> None:
    from arena.errors import ArenaError
    from arena.report.html import viewer_html, write_page

    try:
        size = write_page(path, viewer_html(entry, replay))
    except ArenaError as exc:
        click.echo(f"arena: error: {exc}", err=True)
        sys.exit(2)
    click.echo(f"wrote {path}: {replay.title()}, {replay.last} plies, {size / 1e3:.0f} kB", err=True)


def _write_seat_html(entry: GameEntry, replay: SeatReplay, path: str) -> None:
    from arena.errors import ArenaError
    from arena.report.html import write_page
    from arena.report.seat_page import seat_viewer_html

    try:
        size = write_page(path, seat_viewer_html(entry, replay))
    except ArenaError as exc:
        click.echo(f"arena: error: {exc}", err=True)
        sys.exit(2)
    view = "omniscient" if replay.seat is None else f"as seat {replay.seat} saw it"
    click.echo(f"wrote {path}: {replay.title()}, {replay.last} steps, {view}, {size / 1e3:.0f} kB", err=True)


def _write_plain(replay: Replay | SeatReplay) -> None:
    from arena.records.replay import plain_text
    from arena.records.seat_replay import SeatReplay, seat_plain_text

    try:
        sys.stdout.write(seat_plain_text(replay) if isinstance(replay, SeatReplay) else plain_text(replay))
        sys.stdout.flush()
    except BrokenPipeError:
        # `arena replay x | head`: the reader left; say nothing more (and not at exit either).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    return True


def _terminal_input() -> int | None:
    """A descriptor to read keys from when stdout is a terminal: stdin if it is one, else the
    controlling terminal; None (plain output) when stdout is not a terminal or no keys can be read."""
    if not _has_fileno(sys.stdout) or not os.isatty(sys.stdout.fileno()):
        return None
    if os.environ.get("TERM") == "dumb":
        return None
    if _has_fileno(sys.stdin) and os.isatty(sys.stdin.fileno()):
        return sys.stdin.fileno()
    try:
        return os.open("/dev/tty", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


class _Terminated(Exception):
    """SIGTERM while the viewer runs: unwind (restoring the terminal), then exit 143."""


# -- the viewer ------------------------------------------------------------------------------------


def run_viewer(replay: Replay | SeatReplay, fd: int, *, autoplay: bool = False, delay: float = DEFAULT_DELAY_S,
               console: Console | None = None) -> int:
    """Show ``replay`` full-screen and follow the keys read from terminal ``fd`` until q (0), end of
    input (0), Ctrl-C (130) or SIGTERM (143). The terminal's modes and screen are restored on every
    path (``finally``), and around a Ctrl-Z suspension."""
    import termios
    import tty

    from rich.console import Console

    from arena.ui.replay_keys import Cursor

    console = console or Console(highlight=False)
    cursor = Cursor(replay.last, playing=autoplay and replay.last > 0)
    saved = termios.tcgetattr(fd)
    redraw = [True]

    def enter() -> None:
        tty.setcbreak(fd, termios.TCSANOW)
        console.set_alt_screen(True)
        console.show_cursor(False)
        redraw[0] = True

    def leave() -> None:
        console.show_cursor(True)
        console.set_alt_screen(False)
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def on_term(signum: int, frame: Any) -> None:
        raise _Terminated

    def on_suspend(signum: int, frame: Any) -> None:
        # The shell gets its terminal back as it was; `fg` lands after the kill, so set up again.
        leave()
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)
        signal.signal(signal.SIGTSTP, on_suspend)
        enter()

    old_term = signal.signal(signal.SIGTERM, on_term)
    old_tstp = signal.signal(signal.SIGTSTP, on_suspend)
    # Ctrl-C is this screen's documented way out, even for a viewer started with SIGINT ignored
    # (a job a script put in the background, where Python installs no KeyboardInterrupt).
    old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        enter()
        _loop(replay, cursor, fd, console, delay, redraw)
        return 0
    except KeyboardInterrupt:
        return 130
    except _Terminated:
        return 143
    finally:
        signal.signal(signal.SIGINT, old_int)
        signal.signal(signal.SIGTSTP, old_tstp)
        leave()
        signal.signal(signal.SIGTERM, old_term)


def _loop(replay: Replay | SeatReplay, cursor: Cursor, fd: int, console: Console, delay: float, redraw: list[bool]) -> None:
    from arena.ui.replay_keys import decode_keys

    size = console.size
    next_tick = time.monotonic() + delay
    while True:
        if console.size != size:
            size, redraw[0] = console.size, True
        if redraw[0]:
            console.update_screen(_draw(replay, cursor, console.size.width, console.size.height, delay))
            redraw[0] = False
        wait = IDLE_POLL_S
        if cursor.playing:
            wait = min(wait, max(0.0, next_tick - time.monotonic()))
        ready, _, _ = select.select([fd], [], [], wait)
        if ready:
            data = os.read(fd, 256)
            if not data:
                return  # end of input: nothing more can be asked
            keys, partial = decode_keys(data)
            while partial:  # an escape sequence cut between reads, or a lone Escape
                more, _, _ = select.select([fd], [], [], ESCAPE_WAIT_S)
                if not more:
                    keys.append("escape" if partial == b"\x1b" else "")
                    break
                extra, partial = decode_keys(partial + os.read(fd, 256))
                keys += extra
            was_playing = cursor.playing
            for key in keys:
                if not cursor.press(key):
                    return
            if cursor.playing and not was_playing:
                next_tick = time.monotonic() + delay
            redraw[0] = True
        elif cursor.playing and time.monotonic() >= next_tick:
            cursor.tick()
            next_tick += delay
            if next_tick < time.monotonic():  # slow terminal: no burst of catch-up steps
                next_tick = time.monotonic() + delay
            redraw[0] = True


# -- drawing ---------------------------------------------------------------------------------------


def _draw(replay: Replay | SeatReplay, cursor: Cursor, width: int, height: int, delay: float) -> RenderableType:
    from arena.records.seat_replay import SeatReplay

    if isinstance(replay, SeatReplay):
        from arena.ui.seat_replay_view import render_seats

        return render_seats(replay, cursor, width, height, delay)
    return render(replay, cursor, width, height, delay)


def render(replay: Replay, cursor: Cursor, width: int, height: int, delay: float = DEFAULT_DELAY_S) -> RenderableType:
    """The whole screen at ``cursor``'s position for a ``width`` x ``height`` terminal."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from arena.games.base import Color
    from arena.records.replay import format_clock, format_ms
    from arena.ui.replay_keys import KEYS_HELP
    from arena.ui.views import view_for

    i = cursor.position
    state, last_move, previous = replay.position(i)
    view = view_for(replay.game)
    board = view.board(replay.game, state, last_move, previous)
    top: list[Text] = [Text(replay.title(), style="bold", no_wrap=True, overflow="ellipsis")]
    note = replay.opening_note()
    if note:
        top.append(Text(note, style="dim", no_wrap=True, overflow="ellipsis"))

    status = Text(no_wrap=True, overflow="ellipsis")
    if i == 0:
        first = "start position" if replay.starts_at_start() else "first recorded position"
        status.append(f"{first} ({replay.last} moves)", style="bold")
    else:
        step = replay.steps[i - 1]
        status.append(f"{step.label} ", style="bold")
        status.append(f"{step.color.value} ({replay.players[step.color]}) played ")
        status.append(step.notation, style="bold")
        # Not the view's last_move_note: it speaks to a player ("pushing your ○"); the board marks it.
        if step.opening:
            status.append("  (random opening ply)", style="dim")
        elif step.charged_ms is not None:
            status.append(f"  thought {format_ms(step.charged_ms)}", style="dim")
    status.append(f"   ply {i}/{replay.last}", style="dim")
    if cursor.playing:
        status.append(f"   ▶ autoplay {delay:g}s", style="green")

    clocks = Text(no_wrap=True, overflow="ellipsis")
    values = replay.clocks_at(i)
    to_move = replay.game.to_move(state) if i < replay.last else None
    for colour in Color:
        mark = "▸ " if colour is to_move else "  "
        clocks.append(f"{mark}{colour.value} {replay.players[colour]} ", style="bold" if colour is to_move else "")
        clocks.append(format_clock(values[colour]) if values is not None else "--:--", style="cyan")
        clocks.append("    ")
    clocks.rstrip()

    bottom: list[Text] = [Text(""), status, clocks]
    reason_lines = 0
    if i >= replay.last:
        bottom.append(Text(f"result: {replay.result()}", style="bold yellow", no_wrap=True, overflow="ellipsis"))
        if replay.reason:
            bottom.append(Text(replay.reason, style="yellow"))  # wraps (between words)
            reason_lines = len(textwrap.wrap(replay.reason, max(1, width))) - 1
    bottom += [Text(""), Text(KEYS_HELP, style="dim", no_wrap=True, overflow="ellipsis")]

    board_lines = board.plain.count("\n") + 1
    board_width = max((len(line) for line in board.plain.splitlines()), default=0)
    free = height - len(top) - 1 - len(bottom) - reason_lines
    side_by_side = width >= board_width + 3 + 22
    rows = max(3, free if side_by_side else free - board_lines - 1)
    moves = _move_list(replay, i, rows)
    body: RenderableType
    if side_by_side:
        grid = Table.grid(padding=(0, 3))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(board, moves)
        body = grid
    else:
        body = Group(board, Text(""), moves)
    return Group(*top, Text(""), body, *bottom)


def _move_list(replay: Replay, i: int, rows: int) -> Text:
    """The move list around the current move (step ``i - 1``), at most ``rows`` lines."""
    from rich.text import Text

    from arena.games.base import Color

    lines = replay.move_lines()
    text = Text(no_wrap=True, overflow="ellipsis")
    if not lines:
        text.append("(no moves)", style="dim")
        return text
    current = replay.line_of(i - 1) if i > 0 else 0
    start = max(0, min(current - rows // 2, len(lines) - rows))
    window = lines[start:start + rows]
    label_width = max(len(label) for label, _ in lines)
    width = max(len(replay.move_text(k)) for k in range(replay.last))
    for n, (label, indexes) in enumerate(window):
        if n:
            text.append("\n")
        if (n == 0 and start > 0) or (n == len(window) - 1 and start + rows < len(lines)):
            text.append("⋮".rjust(label_width), style="dim")
            continue
        text.append(label.rjust(label_width) + " ", style="dim")
        cells = list(indexes)
        if replay.steps[cells[0]].color is Color.WHITE:
            text.append("...".ljust(width) + "  ", style="dim")
        for n_cell, k in enumerate(cells):
            style = "reverse bold" if k == i - 1 else "dim" if replay.steps[k].opening else ""
            text.append(replay.move_text(k).ljust(width), style=style)
            if n_cell < len(cells) - 1:
                text.append("  ")
    return text
