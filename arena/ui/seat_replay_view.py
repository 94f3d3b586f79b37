"""The full-screen replay of an N-seat record (:class:`arena.records.seat_replay.SeatReplay`): the
position drawn by the game's ``board_text`` (omniscient or one seat's view), the step list with the
current step highlighted, the seats (who acts, clocks, who is out, returns and ranks at the end),
and the result with its reason at the last position. ``arena replay`` (:mod:`arena.cli.replay_cmd`)
runs the keys and the screen, the same for records of both kinds."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from arena.records.replay import DEFAULT_DELAY_S, format_clock
from arena.records.seat_replay import SeatReplay
from arena.ui.replay_keys import KEYS_HELP, Cursor

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.text import Text


def render_seats(replay: SeatReplay, cursor: Cursor, width: int, height: int,
                 delay: float = DEFAULT_DELAY_S) -> RenderableType:
    """The whole screen at ``cursor``'s position for a ``width`` x ``height`` terminal."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    i = cursor.position
    board = Text(replay.board(i), no_wrap=True)
    top = [Text(replay.title(), style="bold", no_wrap=True, overflow="ellipsis"),
           Text(replay.view_text(), style="dim", no_wrap=True, overflow="ellipsis")]

    status = Text(no_wrap=True, overflow="ellipsis")
    if i == 0:
        status.append(f"start ({replay.last} steps)", style="bold")
    else:
        status.append(f"{i}. ", style="bold")
        status.append(replay.step_text(i - 1), style="bold")
        detail = replay.step_detail(i - 1)
        if detail:
            status.append(f"  {detail}", style="dim")
    status.append(f"   step {i}/{replay.last}", style="dim")
    if cursor.playing:
        status.append(f"   ▶ autoplay {delay:g}s", style="green")

    bottom: list[Text] = [Text(""), status, *_seat_lines(replay, i)]
    reason_lines = 0
    if i >= replay.last:
        bottom.append(Text(f"result: {replay.result()}", style="bold yellow", no_wrap=True, overflow="ellipsis"))
        if replay.reason:
            bottom.append(Text(replay.reason, style="yellow"))
            reason_lines = len(textwrap.wrap(replay.reason, max(1, width))) - 1
    bottom += [Text(""), Text(KEYS_HELP.replace("10 moves", "10 steps"), style="dim", no_wrap=True,
                              overflow="ellipsis")]

    board_lines = board.plain.count("\n") + 1
    board_width = max((len(line) for line in board.plain.splitlines()), default=0)
    free = height - len(top) - 1 - len(bottom) - reason_lines
    side_by_side = width >= board_width + 3 + 30
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


def _seat_lines(replay: SeatReplay, i: int) -> list[Text]:
    """One line per seat: ``▸`` when it acts now, its id, its clock, out or not; at the end its
    return and rank."""
    from rich.text import Text

    acting = replay.acting(i)
    clocks = replay.clocks_at(i)
    out = {s.actors[0] for s in replay.steps[:i] if s.kind == "elimination"}
    lines = []
    width = max(len(replay.seat_label(seat)) for seat in range(replay.players))
    for seat in range(replay.players):
        line = Text(no_wrap=True, overflow="ellipsis")
        mark = "▸ " if seat in acting else "  "
        line.append(f"{mark}{replay.seat_label(seat).ljust(width)}", style="bold" if seat in acting else "")
        if clocks is not None and seat in clocks:
            line.append("  ")
            line.append(format_clock(clocks[seat]), style="cyan")
        if seat in out:
            line.append("  out", style="red")
        if i >= replay.last:
            row = replay.seat_rows()[seat]
            line.append(f"  {row[2]}  {row[3]}", style="yellow")
        lines.append(line)
    return lines


def _step_list(replay: SeatReplay, i: int, rows: int) -> Text:
    """The steps around the current one (step ``i``), at most ``rows`` lines."""
    from rich.text import Text

    text = Text(no_wrap=True, overflow="ellipsis")
    if not replay.steps:
        text.append("(no steps)", style="dim")
        return text
    current = max(0, i - 1)
    start = max(0, min(current - rows // 2, replay.last - rows))
    window = range(start, min(replay.last, start + rows))
    label_width = len(str(replay.last)) + 1
    for n, k in enumerate(window):
        if n:
            text.append("\n")
        if (n == 0 and start > 0) or (n == len(window) - 1 and start + rows < replay.last):
            text.append("⋮".rjust(label_width), style="dim")
            continue
        text.append(f"{k + 1}.".rjust(label_width) + " ", style="dim")
        kind = replay.steps[k].kind
        style = "reverse bold" if k == i - 1 else "dim" if kind == "chance" else "red" if kind == "elimination" else ""
        text.append(replay.step_text(k), style=style)
    return text


__all__ = ["render_seats"]
