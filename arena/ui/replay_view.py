"""``arena replay`` in the terminal, for every game (:class:`arena.records.replay.Replay`).

Piped (or ``--plain``): :func:`plain_text`. On a terminal: :func:`run_viewer`, a full-screen view
(rich, alternate screen) of the position (a two-colour game's board with the last move marked, any
other game's ``board_text`` as the viewer sees it), the step list with the current step
highlighted, one line per seat (who acts, its clock, who is out, returns and ranks at the end) and
the result with its reason at the last position. Keys are read in cbreak mode (the pure key logic
is :mod:`arena.ui.replay_keys`). The terminal's settings and the main screen are restored on every
way out: q, end of input, Ctrl-C (exit 130), SIGTERM (143); Ctrl-Z suspends with the terminal
restored and redraws on ``fg``.

rich is imported only by the full-screen view, so the piped form starts fast.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import textwrap
import time
from typing import TYPE_CHECKING, Any

from arena.records.replay import DEFAULT_DELAY_S, Replay, format_clock

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.text import Text

    from arena.ui.replay_keys import Cursor

#: After an Escape byte, how long to wait for the rest of a key's escape sequence (seconds).
ESCAPE_WAIT_S = 0.05
#: The longest the loop sleeps without looking at the terminal's size (a resize redraws).
IDLE_POLL_S = 0.25


# -- plain text (piped output) -------------------------------------------------------------------------


def plain_text(replay: Replay) -> str:
    """The piped form, no trailing spaces. A two-colour game: header, numbered move list, final
    board and clocks. Any other: the game, the view, the seats with returns and ranks, how it
    ended and the eliminations, then every step with the position after it."""
    return (_paired_text(replay) if replay.paired else _steps_text(replay)) + "\n"


def _paired_text(replay: Replay) -> str:
    out = [replay.title(), f"result: {replay.result()} after {replay.last} plies"]
    if replay.reason:
        out.append(f"reason: {replay.reason}")
    if replay.opening_note():
        out.append(f"opening: {replay.opening_note()}")
    out.append("")
    lines = replay.move_lines()
    if lines:
        width = max(len(replay.move_text(i)) for i in range(replay.last))
        label_width = max(len(label) for label, _ in lines)
        for label, indexes in lines:
            cells = [replay.move_text(i).ljust(width) for i in indexes]
            if replay.steps[indexes[0]].seat == 1:
                cells.insert(0, "...".ljust(width))
            out.append(f"{label.rjust(label_width)} {'  '.join(cells)}".rstrip())
    else:
        out.append("(no moves)")
    out.append("")
    out.extend(line.rstrip() for line in replay.board(replay.last).splitlines())
    clocks = replay.clocks_at(replay.last)
    if clocks is not None:
        out += ["", "clocks: " + "  ".join(f"{replay.game.seat_names[s]} {format_clock(ms)}"
                                           for s, ms in sorted(clocks.items()))]
    return "\n".join(out)


def _steps_text(replay: Replay) -> str:
    out = [replay.title(), replay.view_text(), f"seed: {replay.record.get('seed')}", "", "seats:"]
    rows = replay.seat_rows()
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    out += [f"  {r[0].ljust(widths[0])}  {r[1].ljust(widths[1])}  {r[2].ljust(widths[2])}  {r[3]}" for r in rows]
    out.append(f"result: {replay.result()} after {replay.last} steps")
    if replay.reason:
        out.append(f"reason: {replay.reason}")
    eliminations = replay.elimination_lines()
    out.append("eliminations: " + ("none" if not eliminations else eliminations[0]))
    out += [f"  {line}" for line in eliminations[1:]]
    out += ["", "start:", *_indented(replay.board(0))]
    for i in range(replay.last):
        detail = replay.step_detail(i)
        out += ["", f"{i + 1}. {replay.step_text(i)}" + (f"   [{detail}]" if detail else "")]
        out += _indented(replay.board(i + 1))
    clocks = replay.clocks_at(replay.last)
    if clocks:
        out += ["", "clocks: " + "  ".join(f"{replay.game.seat_names[s]} {format_clock(ms)}"
                                           for s, ms in sorted(clocks.items()))]
    return "\n".join(out)


def _indented(text: str) -> list[str]:
    return [f"  {line}".rstrip() for line in text.splitlines()]


# -- the screen ----------------------------------------------------------------------------------------


def render(replay: Replay, cursor: Cursor, width: int, height: int, delay: float = DEFAULT_DELAY_S) -> RenderableType:
    """The whole screen at ``cursor``'s position for a ``width`` x ``height`` terminal."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from arena.ui.replay_keys import KEYS_HELP

    i = cursor.position
    top: list[Text] = [Text(replay.title(), style="bold", no_wrap=True, overflow="ellipsis")]
    if replay.note():
        top.append(Text(replay.note(), style="dim", no_wrap=True, overflow="ellipsis"))

    status = Text(no_wrap=True, overflow="ellipsis")
    if i == 0:
        status.append(f"{replay.first_text()} ({replay.last} {'moves' if replay.paired else 'steps'})", style="bold")
    else:
        status.append(f"{replay.steps[i - 1].label} {replay.step_text(i - 1)}", style="bold")
        detail = replay.step_detail(i - 1)
        if detail:
            status.append(f"  {detail}", style="dim")
    status.append(f"   {'ply' if replay.paired else 'step'} {i}/{replay.last}", style="dim")
    if cursor.playing:
        status.append(f"   ▶ autoplay {delay:g}s", style="green")

    bottom: list[Text] = [Text(""), status, *_seat_lines(replay, i)]
    reason_lines = 0
    if i >= replay.last:
        bottom.append(Text(f"result: {replay.result()}", style="bold yellow", no_wrap=True, overflow="ellipsis"))
        if replay.reason:
            bottom.append(Text(replay.reason, style="yellow"))  # wraps (between words)
            reason_lines = len(textwrap.wrap(replay.reason, max(1, width))) - 1
    keys = KEYS_HELP if replay.paired else KEYS_HELP.replace("10 moves", "10 steps")
    bottom += [Text(""), Text(keys, style="dim", no_wrap=True, overflow="ellipsis")]

    board = _board(replay, i)
    board_lines = board.plain.count("\n") + 1
    board_width = max((len(line) for line in board.plain.splitlines()), default=0)
    free = height - len(top) - 1 - len(bottom) - reason_lines
    side_by_side = width >= board_width + 3 + (22 if replay.paired else 30)
    rows = max(3, free if side_by_side else free - board_lines - 1)
    steps = _step_list(replay, i, rows)
    body: RenderableType
    if side_by_side:
        grid = Table.grid(padding=(0, 3))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(board, steps)
        body = grid
    else:
        body = Group(board, Text(""), steps)
    return Group(*top, Text(""), body, *bottom)


def _board(replay: Replay, i: int) -> Text:
    """A two-colour game's board with the last move marked (its view); any other game's
    ``board_text`` for the viewer."""
    from rich.text import Text

    if not replay.marks_last_move:
        return Text(replay.board(i), no_wrap=True)
    from arena.ui.views import view_for

    state, last_move, previous = replay.position(i)
    return view_for(replay.game).board(replay.game, state, last_move, previous)


def _seat_lines(replay: Replay, i: int) -> list[Text]:
    """One line per seat: ``▸`` when it acts now, its id, its clock, out or not; at the end its
    return and rank."""
    from rich.text import Text

    acting = replay.acting(i)
    clocks = replay.clocks_at(i)
    out = {s.actors[0] for s in replay.steps[:i] if s.kind == "elimination"}
    width = max(len(replay.seat_label(seat)) for seat in range(replay.players))
    rows = replay.seat_rows() if i >= replay.last else None
    lines = []
    for seat in range(replay.players):
        line = Text(no_wrap=True, overflow="ellipsis")
        mark = "▸ " if seat in acting else "  "
        line.append(f"{mark}{replay.seat_label(seat).ljust(width)}", style="bold" if seat in acting else "")
        if clocks is not None and seat in clocks:
            line.append("  ")
            line.append(format_clock(clocks[seat]), style="cyan")
        if seat in out:
            line.append("  out", style="red")
        if rows is not None:
            line.append(f"  {rows[seat][2]}  {rows[seat][3]}", style="yellow")
        lines.append(line)
    return lines


def _step_list(replay: Replay, i: int, rows: int) -> Text:
    """The step list around the current step (step ``i - 1``), at most ``rows`` lines."""
    from rich.text import Text

    lines = replay.move_lines()
    text = Text(no_wrap=True, overflow="ellipsis")
    if not lines:
        text.append("(no moves)" if replay.paired else "(no steps)", style="dim")
        return text
    current = replay.line_of(i - 1) if i > 0 else 0
    start = max(0, min(current - rows // 2, len(lines) - rows))
    window = lines[start:start + rows]
    label_width = max(len(label) for label, _ in lines)
    width = max(len(replay.move_text(k)) for k in range(replay.last)) if replay.paired else 0
    for n, (label, indexes) in enumerate(window):
        if n:
            text.append("\n")
        if (n == 0 and start > 0) or (n == len(window) - 1 and start + rows < len(lines)):
            text.append("⋮".rjust(label_width), style="dim")
            continue
        text.append(label.rjust(label_width) + " ", style="dim")
        if replay.paired and replay.steps[indexes[0]].seat == 1:
            text.append("...".ljust(width) + "  ", style="dim")
        for n_cell, k in enumerate(indexes):
            step = replay.steps[k]
            style = "reverse bold" if k == i - 1 else "dim" if step.opening or step.kind == "chance" \
                else "red" if step.kind == "elimination" else ""
            text.append(replay.move_text(k).ljust(width), style=style)
            if n_cell < len(indexes) - 1:
                text.append("  ")
    return text


# -- the terminal --------------------------------------------------------------------------------------


def has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    return True


def terminal_input() -> int | None:
    """A descriptor to read keys from when stdout is a terminal: stdin if it is one, else the
    controlling terminal; None (plain output) when stdout is not a terminal or no keys can be read."""
    if not has_fileno(sys.stdout) or not os.isatty(sys.stdout.fileno()):
        return None
    if os.environ.get("TERM") == "dumb":
        return None
    if has_fileno(sys.stdin) and os.isatty(sys.stdin.fileno()):
        return sys.stdin.fileno()
    try:
        return os.open("/dev/tty", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


class _Terminated(Exception):
    """SIGTERM while the viewer runs: unwind (restoring the terminal), then exit 143."""


def run_viewer(replay: Replay, fd: int, *, autoplay: bool = False, delay: float = DEFAULT_DELAY_S,
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


def _loop(replay: Replay, cursor: Cursor, fd: int, console: Console, delay: float, redraw: list[bool]) -> None:
    from arena.ui.replay_keys import decode_keys

    size = console.size
    next_tick = time.monotonic() + delay
    while True:
        if console.size != size:
            size, redraw[0] = console.size, True
        if redraw[0]:
            console.update_screen(render(replay, cursor, console.size.width, console.size.height, delay))
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


__all__ = ["plain_text", "render", "run_viewer", "terminal_input"]
