"""What a tournament shows on the terminal. Every function takes the :class:`rich.console.Console` to
draw on; nothing here creates one or decides where output goes.

- :class:`RichReporter`: a live progress bar (games done / total, ETA, the leaders' W/D/L).
- :class:`PlainReporter`: one line per finished game, for logs and pipes (no terminal).
- :func:`standings_table`, :func:`crosstable_table`, :func:`print_standings`: the final tables,
  from a ``standings.json`` object (so ``arena standings`` prints exactly what a run printed).
- :class:`BoardObserver`: the live board after every move (the config's ``visualize``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column, Table
from rich.text import Text

from arena.stats.ratings import FAULTS
from arena.tournament.config import TournamentConfig
from arena.tournament.schedule import ScheduledGame


def leaders_text(stats: dict[str, dict[str, Any]], room: int | None = None) -> str:
    """``"W/D/L: greedy 12/3/5  random 5/3/12"``, best first, as many agents as fit in ``room``
    characters (all of them when ``room`` is None); the rest are counted: ``"+3 more"``."""
    ranked = sorted(stats.items(), key=lambda kv: (-(kv[1]["wins"] + 0.5 * kv[1]["draws"]), kv[0]))
    parts = [f"{aid} {s['wins']}/{s['draws']}/{s['losses']}" for aid, s in ranked]
    text = "W/D/L: " + "  ".join(parts)
    if room is None or len(text) <= room:
        return text
    for shown in range(len(parts) - 1, -1, -1):
        candidate = "W/D/L: " + "  ".join([*parts[:shown], f"+{len(parts) - shown} more"])
        if len(candidate) <= room:
            return candidate
    return ""


def game_line(row: dict[str, Any], done: int, total: int | None) -> str:
    """One finished game as a plain line."""
    of = f"{done}/{total}" if total is not None else f"{done}"
    plies = row.get("plies")
    duration = row.get("duration_s")
    extra = ", ".join(x for x in (f"{plies} plies" if plies is not None else "",
                                  f"{duration:.1f} s" if isinstance(duration, (int, float)) else "") if x)
    return (f"[{of}] game {row['index']}: {row['black']} (black) - {row['white']} (white) "
            f"{row['result']} by {row['termination']}" + (f" ({extra})" if extra else ""))


class PlainReporter:
    """Plain lines on ``console`` (stderr, not a terminal): the start, each game, a stop."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._total: int | None = None

    def started(self, *, config: TournamentConfig, total: int | None, already_done: int,
                concurrency: int, folder: Path) -> None:
        self._total = total
        left = "until interrupted" if total is None else f"{total - already_done} to play"
        self.console.print(
            f"tournament {config.id}: {config.game} {config.tournament_type}, {len(config.agents)} agents, "
            f"{left}" + (f" ({already_done} already done)" if already_done else "")
            + f", {concurrency} at a time; logs in {folder}", markup=False, highlight=False)

    def game_started(self, game: ScheduledGame) -> None:
        pass

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        self.console.print(game_line(row, done, self._total), markup=False, highlight=False)

    def stopped(self) -> None:
        self.console.print("interrupted: cancelling running games (press Ctrl-C again to stop at once)",
                           markup=False, highlight=False)

    def close(self) -> None:
        pass


class RichReporter:
    """A live progress bar on ``console``; faults and the stop are printed above it."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._running = 0

    def started(self, *, config: TournamentConfig, total: int | None, already_done: int,
                concurrency: int, folder: Path) -> None:
        self.console.print(
            Text(f"{config.id}: {config.game} {config.tournament_type}, {len(config.agents)} agents, "
                 f"{concurrency} games at a time, logs in {folder}"
                 + (f" (resuming: {already_done} games already done)" if already_done else "")))
        # An endless randomMatches run has no total: no bar, no ETA, just the count and how to stop.
        timing = ((BarColumn(bar_width=20), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("eta"),
                   TimeRemainingColumn()) if total is not None
                  else (TextColumn("{task.completed}"), TimeElapsedColumn(), TextColumn("(until Ctrl-C)")))
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("games"),
            *timing,
            TextColumn("{task.fields[running]} running"),
            TextColumn("{task.fields[leaders]}", table_column=Column(no_wrap=True)),
            console=self.console,
            transient=False,
            # Each redraw holds the GIL about 1 ms (measured with 40 agents), time the event loop
            # that reads bot replies may have to wait: 2 a second keep the bar alive at a tenth of
            # rich's default cost. Counts change only when a game ends anyway.
            refresh_per_second=2,
        )
        self._task = self._progress.add_task("games", total=total, completed=already_done, leaders="", running=0)
        self._progress.start()

    def game_started(self, game: ScheduledGame) -> None:
        self._running += 1
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, running=self._running)

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        self._running = max(0, self._running - 1)
        if self._progress is None or self._task is None:
            return
        if row["termination"] in FAULTS:
            self._progress.console.print(Text(f"game {row['index']}: {row['reason']}", style="yellow"))
        # What the bar, clocks and running count leave of the line (about 72 columns).
        leaders = leaders_text(stats, room=max(0, self.console.width - 72))
        self._progress.update(self._task, completed=done, leaders=leaders, running=self._running)

    def stopped(self) -> None:
        self.console.print(Text("interrupted: cancelling running games (Ctrl-C again stops at once)",
                                style="bold yellow"))

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _elo(value: float | None) -> str:
    # round() of a float is an int, so a -0.4 shows as +0 and not as -0.
    return "-" if value is None else f"{round(value):+d}"


def standings_table(standings: dict[str, Any]) -> Table:
    """Rank, agent, Elo with its 95% interval, games, W-D-L, score %, draw %, the seed's rating."""
    table = Table(title=f"Standings after {standings.get('games', 0)} games", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    longest = max((len(row["id"]) for row in standings.get("standings", [])), default=5)
    for name, justify in (("#", "right"), ("agent", "left"), ("Elo", "right"), ("95% CI", "center"),
                          ("games", "right"), ("W-D-L", "center"), ("score", "right"), ("draws", "right"),
                          ("online Elo", "right")):
        table.add_column(name, justify=justify, no_wrap=True,  # type: ignore[arg-type]
                         min_width=longest if name == "agent" else None)
    for row in standings.get("standings", []):
        table.add_row(
            str(row["rank"]), Text(row["id"]), _elo(row["elo"]),
            f"{_elo(row['elo_low'])}..{_elo(row['elo_high'])}",
            str(row["games"]), f"{row['wins']}-{row['draws']}-{row['losses']}",
            "-" if row["score_pct"] is None else f"{row['score_pct']:.1f}%",
            "-" if row["draw_pct"] is None else f"{row['draw_pct']:.1f}%",
            str(row["online_elo"]),
        )
    first = standings.get("first_move_elo")
    table.caption = "Elo: joint Bradley-Terry fit, mean 0" + (
        f", first-move advantage {_elo(first)}" if first is not None else "") + (
        "; online Elo: the seed's rating, start 1000, K=20, in game order")
    table.caption_justify = "left"
    return table


def crosstable_table(standings: dict[str, Any]) -> Table:
    """Points of the row agent against the column agent (``points/games``), and LOS in %."""
    order = [row["id"] for row in standings.get("standings", [])]
    cross = standings.get("crosstable", {})
    table = Table(title="Crosstable", title_justify="left", box=box.SIMPLE_HEAD,
                  caption="row's points/games against the column (likelihood of superiority)",
                  caption_justify="left")
    table.add_column("agent")
    for aid in order:
        table.add_column(aid, justify="center", no_wrap=True)
    for a in order:
        cells: list[str | Text] = [Text(a)]
        for b in order:
            if a == b:
                cells.append("·")
                continue
            cell = cross.get(a, {}).get(b)
            if not cell or not cell["games"]:
                cells.append("")
                continue
            cells.append(f"{_points(cell['points'])}/{cell['games']} ({100 * cell['los']:.0f}%)")
        table.add_row(*cells)
    return table


def _points(value: float) -> str:
    return f"{value:g}"


def terminations_text(standings: dict[str, Any]) -> Text:
    """``"How games ended: win 150, max_moves 40, timeout 2 (random 2)"``."""
    counts = standings.get("terminations", {})
    total = counts.get("total", {})
    faults = counts.get("faults", {})
    parts = []
    for reason, number in total.items():
        who = [f"{aid} {c[reason]}" for aid, c in faults.items() if reason in c]
        parts.append(f"{reason} {number}" + (f" ({', '.join(who)})" if who else ""))
    return Text("How games ended: " + (", ".join(parts) if parts else "no games yet"))


def print_standings(console: Console, standings: dict[str, Any]) -> None:
    """The standings table, the crosstable and the termination counts. Written to a pipe or a file,
    the lines carry no trailing spaces (rich pads every cell to the column's width)."""
    parts: list[Any] = [standings_table(standings)]
    if len(standings.get("standings", [])) > 1:
        parts.append(crosstable_table(standings))
    parts.append(terminations_text(standings))
    if console.is_terminal:
        for part in parts:
            console.print(part)
        return
    with console.capture() as captured:
        for part in parts:
            console.print(part)
    text = "\n".join(line.rstrip() for line in captured.get().splitlines())
    console.file.write(text + "\n")
    console.file.flush()


class BoardObserver:
    """Print the board after every move (``visualize``; only sensible with one game at a time)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def __call__(self, event: Any) -> None:
        from arena.match.game import GameEnded, MovePlayed
        from arena.ui.boards import render_board  # the board view imports both rules modules

        if isinstance(event, MovePlayed):
            self.console.print(Text(f"game {event.game_index}, move {event.ply}: {event.agent_id} "
                                    f"({event.color.value.lower()}) plays {event.move_text}"))
            self.console.print(render_board(event.game, event.state))
        elif isinstance(event, GameEnded):
            self.console.print(Text(f"game {event.game_index}: {event.record.get('reason', '')}"))
