"""What a tournament shows on the terminal. Every function takes the :class:`rich.console.Console` to
draw on; nothing here creates one or decides where output goes.

- :class:`RichReporter`: a live progress bar (games done / total, ETA, the leaders' W/D/L).
- :class:`PlainReporter`: one line per finished game, for logs and pipes (no terminal).
- :func:`print_standings` (:mod:`arena.ui.tables`): the final tables, from a ``standings.json``
  object (so ``arena standings`` prints exactly what a run printed), at any size.

Finished games come as ``games.jsonl`` rows of either shape: two-player (``black``, ``white``,
``result``) or N-seat (``seats``, ``ranks``).
- :class:`BoardObserver`: the live board after every move (the config's ``visualize``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
from rich.table import Column
from rich.text import Text

from arena.records.reader import finishing_order
from arena.stats.ratings import FAULTS
from arena.tournament.config import TournamentConfig
from arena.tournament.schedule import ScheduledGame, ScheduledTable
from arena.ui.tables import crosstable_table, print_standings, standings_table, terminations_text

__all__ = ["BoardObserver", "PlainReporter", "RichReporter", "crosstable_table", "game_line", "leaders_text",
           "print_standings", "standings_table", "terminations_text"]


def leaders_text(stats: dict[str, dict[str, Any]], room: int | None = None) -> str:
    """``"W/D/L: greedy 12/3/5  random 5/3/12"``, best first, as many agents as fit in ``room``
    characters (all of them when ``room`` is None); the rest are counted: ``"+3 more"``. Agents
    counted without draws and losses (N-seat games: ``wins`` and ``games``) show ``wins/games``."""
    def points(s: dict[str, Any]) -> float:
        return float(s.get("wins", 0) + 0.5 * s.get("draws", 0))

    ranked = sorted(stats.items(), key=lambda kv: (-points(kv[1]), kv[0]))
    wdl = all("losses" in s for s in stats.values())
    head = "W/D/L: " if wdl else "wins/games: "
    parts = [f"{aid} {s['wins']}/{s['draws']}/{s['losses']}" if wdl else f"{aid} {s.get('wins', 0)}/{s.get('games', 0)}"
             for aid, s in ranked]
    text = head + "  ".join(parts)
    if room is None or len(text) <= room:
        return text
    for shown in range(len(parts) - 1, -1, -1):
        candidate = head + "  ".join([*parts[:shown], f"+{len(parts) - shown} more"])
        if len(candidate) <= room:
            return candidate
    return ""


def game_line(row: dict[str, Any], done: int, total: int | None) -> str:
    """One finished game as a plain line: ``[4/40] game 3: a (black) - b (white) 0-1 by timeout
    (7 plies, 1.2 s)``, or for an N-seat row (``seats``, ``ranks``) the finishing order:
    ``[3/40] game 2: a 1st, c 2nd, b 3rd by win``."""
    of = f"{done}/{total}" if total is not None else f"{done}"
    plies = row.get("plies")
    duration = row.get("duration_s")
    extra = ", ".join(x for x in (f"{plies} plies" if plies is not None else "",
                                  f"{duration:.1f} s" if isinstance(duration, (int, float)) else "") if x)
    if "seats" in row and "black" not in row:
        who = finishing_order(row["seats"], row.get("ranks"))
    else:
        who = f"{row['black']} (black) - {row['white']} (white) {row['result']}"
    return f"[{of}] game {row['index']}: {who} by {row['termination']}" + (f" ({extra})" if extra else "")


class PlainReporter:
    """Plain lines on ``console`` (stderr, not a terminal): the start, each game, a stop."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._total: int | None = None
        #: What a run without a total of games plays until (a league's ``for 2 rounds``).
        self.open_end = "until interrupted"

    def started(self, *, config: TournamentConfig, total: int | None, already_done: int,
                concurrency: int, folder: Path) -> None:
        self._total = total
        left = self.open_end if total is None else f"{total - already_done} to play"
        self.console.print(
            f"tournament {config.id}: {config.game} {config.tournament_type}, {len(config.agents)} agents, "
            f"{left}" + (f" ({already_done} already done)" if already_done else "")
            + f", {concurrency} at a time; logs in {folder}", markup=False, highlight=False)

    def game_started(self, game: ScheduledGame | ScheduledTable) -> None:
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
        #: What a run without a total of games plays until (a league's ``for 2 rounds``).
        self.open_end = "until Ctrl-C"

    def started(self, *, config: TournamentConfig, total: int | None, already_done: int,
                concurrency: int, folder: Path) -> None:
        self.console.print(
            Text(f"{config.id}: {config.game} {config.tournament_type}, {len(config.agents)} agents, "
                 f"{concurrency} games at a time, logs in {folder}"
                 + (f" (resuming: {already_done} games already done)" if already_done else "")))
        # An endless randomMatches run has no total: no bar, no ETA, just the count and how to stop.
        timing = ((BarColumn(bar_width=20), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("eta"),
                   TimeRemainingColumn()) if total is not None
                  else (TextColumn("{task.completed}"), TimeElapsedColumn(), TextColumn(f"({self.open_end})")))
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

    def game_started(self, game: ScheduledGame | ScheduledTable) -> None:
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


class BoardObserver:
    """Print the board after every move (``visualize``; only sensible with one game at a time)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def __call__(self, event: Any) -> None:
        from arena.match.progress import GameEnded, StepPlayed
        from arena.ui.boards import render_board  # the board view imports both rules modules

        if isinstance(event, StepPlayed):
            step = event.step
            if step["kind"] == "move":
                seat = step["seat"]
                self.console.print(Text(f"game {event.game_index}, move {step['ply'] + 1}: {event.players[seat].id} "
                                        f"({event.game.seat_names[seat].lower()}) plays {event.notation}"))
            else:
                self.console.print(Text(f"game {event.game_index}, {step['kind']}: {event.notation}"))
            self.console.print(render_board(event.game, event.state))
        elif isinstance(event, GameEnded):
            self.console.print(Text(f"game {event.game_index}: {event.record.get('reason', '')}"))
