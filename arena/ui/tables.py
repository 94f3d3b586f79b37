"""The final tables of a tournament on the terminal, from a ``standings.json`` object (so ``arena
standings`` prints exactly what a run printed), at any number of agents and any console width.

Two shapes of standings are read: two-player (``crosstable``, W-D-L, draws, online Elo) and N-seat
(``players`` present: ``pairwise`` instead of ``crosstable``, wins, average rank and return,
``seats`` and ``seat_elo``). The keys read are listed in :func:`print_standings`.

Tables have no edges (so no blank lines above and below them). Width is computed, never guessed: each column's width is its longest cell (:func:`table_width` is
rich's own sum for these tables), columns are dropped in a stated order until the standings fit
(the caption names those left out), and the crosstable is printed only when all of it fits. When it
does not, a short table of the top agents' head-to-head results with the next agent takes its place,
with one line naming the commands that show the whole crosstable.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

#: How many of the best agents the "top pairs" table follows (each against the next: one line less).
TOP_PAIRS = 10
#: The narrowest an agent's name is cut to (with "…") when the console is narrower than the table.
MIN_NAME = 8


@dataclass(frozen=True)
class Col:
    """One column: header, cells (text), alignment, and ``drop``: columns with the highest number
    go first when the table is too wide (0: never dropped)."""

    name: str
    cells: list[str]
    justify: str = "right"
    drop: int = 0

    @property
    def width(self) -> int:
        return max([cell_len(self.name), *(cell_len(c) for c in self.cells)])


def table_width(widths: Sequence[int], pad_edge: bool = False) -> int:
    """The width rich gives a ``box.SIMPLE_HEAD`` table without edges (padding 1) whose columns'
    contents are ``widths`` wide: contents, two padding columns each (none at the outer edges
    without ``pad_edge``) and a divider between columns."""
    n = len(widths)
    return sum(widths) + 2 * n - (0 if pad_edge else 2) + (n - 1) if n else 0


def fit_columns(columns: list[Col], width: int, *, name: str = "agent") -> tuple[list[Col], list[str], int | None]:
    """``(kept columns, names of the dropped ones, the width the name column is cut to or None)``:
    the columns with the highest ``drop`` go first while the table is wider than ``width``; if it
    still is, the ``name`` column is cut (never below :data:`MIN_NAME`)."""
    kept = list(columns)
    dropped: list[str] = []
    while table_width([c.width for c in kept]) > width:
        worst = max(kept, key=lambda c: c.drop)
        if worst.drop == 0:
            break
        kept.remove(worst)
        dropped.append(worst.name)
    cut = None
    excess = table_width([c.width for c in kept]) - width
    names = next((c for c in kept if c.name == name), None)
    if excess > 0 and names is not None:
        cut = max(MIN_NAME, names.width - excess)
    return kept, dropped, cut


def shorten(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters: its start and its end around a "…" (names of one
    field often share their start, so the end is what tells them apart)."""
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    return name[:head] + "…" + name[len(name) - (width - 1 - head):]


def _render(title: str, columns: list[Col], width: int, caption: str = "") -> Table:
    kept, dropped, cut = fit_columns(columns, width)
    if cut is not None:
        kept = [Col(c.name, [shorten(x, cut) for x in c.cells], c.justify, c.drop) if c.name == "agent" else c
                for c in kept]
    if dropped:
        caption += ("; " if caption else "") + f"not shown at this width: {', '.join(dropped)} (all in --json)"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                  caption=caption or None, caption_justify="left")
    for col in kept:
        cut_here = cut if col.name == "agent" else None
        table.add_column(col.name, justify=col.justify, no_wrap=True, overflow="ellipsis",  # type: ignore[arg-type]
                         min_width=cut_here or col.width, max_width=cut_here or col.width)
    for i in range(len(columns[0].cells)):
        table.add_row(*(Text(c.cells[i]) for c in kept))
    return table


def is_seat_standings(standings: dict[str, Any]) -> bool:
    """N-seat standings (``players`` present, ``pairwise`` instead of ``crosstable``)."""
    return "players" in standings or "pairwise" in standings


def elo_text(value: float | None) -> str:
    # round() of a float is an int, so a -0.4 shows as +0 and not as -0.
    return "-" if value is None else f"{round(value):+d}"


def _num(value: Any, fmt: str, suffix: str = "") -> str:
    if not isinstance(value, (int, float)):
        return "-"
    text = f"{value:{fmt}}"
    if text.startswith("-") and not text.strip("-0.,%"):
        text = text[1:]  # -0.001 is shown as 0.00, never -0.00
    return text + suffix


def standings_columns(standings: dict[str, Any]) -> list[Col]:
    """The standings table's columns. Two-player rows: ``rank, id, elo, elo_low, elo_high, games,
    wins, draws, losses, score_pct, draw_pct, online_elo``; N-seat rows: ``rank, id, elo, elo_low,
    elo_high, games, wins, avg_rank, avg_return, score_pct``."""
    rows = standings.get("standings", [])

    def col(name: str, f: Any, justify: str = "right", drop: int = 0) -> Col:
        return Col(name, [f(r) for r in rows], justify, drop)

    head = [col("#", lambda r: str(r["rank"])), col("agent", lambda r: str(r["id"]), "left"),
            col("Elo", lambda r: elo_text(r.get("elo"))),
            col("95% CI", lambda r: f"{elo_text(r.get('elo_low'))}..{elo_text(r.get('elo_high'))}", "center", 3)]
    if is_seat_standings(standings):
        return [*head, col("games", lambda r: str(r.get("games", "-")), drop=2),
                col("wins", lambda r: str(r.get("wins", "-")), drop=4),
                col("avg rank", lambda r: _num(r.get("avg_rank"), ".2f")),
                col("avg return", lambda r: _num(r.get("avg_return"), ".2f"), drop=5),
                col("score", lambda r: _num(r.get("score_pct"), ".1f", "%")), *_rating_columns(standings, col)]
    return [*head, col("games", lambda r: str(r["games"]), drop=2),
            col("W-D-L", lambda r: f"{r['wins']}-{r['draws']}-{r['losses']}", "center", 4),
            col("score", lambda r: _num(r.get("score_pct"), ".1f", "%")),
            col("draws", lambda r: _num(r.get("draw_pct"), ".1f", "%"), drop=5),
            col("online Elo", lambda r: str(r.get("online_elo", "-")), drop=6), *_rating_columns(standings, col)]


def _rating_columns(standings: dict[str, Any], col: Any) -> list[Col]:
    """One column per rating method of the standings' ``ratings`` (``arena standings --rating``):
    the rating, and its 95% interval when the method gives one."""
    ratings = standings.get("ratings")
    columns: list[Col] = []
    for name, block in (ratings.items() if isinstance(ratings, dict) else ()):
        by_agent = block.get("ratings", {}) if isinstance(block, dict) else {}

        def shown(row: dict[str, Any], by_agent: dict[str, Any] = by_agent) -> str:
            cell = by_agent.get(row["id"])
            if not isinstance(cell, dict) or not isinstance(cell.get("rating"), (int, float)):
                return "-"
            text = f"{cell['rating']:.1f}"
            if isinstance(cell.get("low"), (int, float)) and isinstance(cell.get("high"), (int, float)):
                text += f" ({cell['low']:.1f}..{cell['high']:.1f})"
            return text

        columns.append(col(name, shown, drop=7))
    return columns


def standings_table(standings: dict[str, Any], width: int = 200) -> Table:
    """Rank, agent, Elo with its 95% interval, games, then W-D-L, score %, draw %, the seed's rating
    (two players) or wins, average rank, average return, pairwise score % (N seats), fitted to
    ``width`` columns."""
    seated = is_seat_standings(standings)
    columns = standings_columns(standings)
    if seated:
        model = standings.get("model")
        name = model.get("name") if isinstance(model, dict) else None
        caption = f"Elo: {name}" if name else "Elo: joint fit over every game's ranking"
        caption += "; score: pairwise, each other seat beaten 1, tied 1/2"
    else:
        first = standings.get("first_move_elo")
        caption = "Elo: joint Bradley-Terry fit, mean 0" + (
            f", first-move advantage {elo_text(first)}" if first is not None else "")
        caption += "; online Elo: the seed's rating, start 1000, K=20, in game order"
    ratings = standings.get("ratings")
    for name, block in (ratings.items() if isinstance(ratings, dict) else ()):
        caption += f"; {name}: {block.get('unit', '') if isinstance(block, dict) else ''}"
    return _render(f"Standings after {standings.get('games', 0)} games", columns, width, caption)


def cross_of(standings: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The head-to-head cells: ``crosstable`` (two players) or ``pairwise`` (N seats)."""
    cross = standings.get("pairwise" if is_seat_standings(standings) else "crosstable")
    return cross if isinstance(cross, dict) else {}


def _cell(cell: dict[str, Any] | None) -> str:
    if not cell or not cell.get("games"):
        return ""
    los = cell.get("los")
    return f"{cell['points']:g}/{cell['games']}" + (f" ({100 * los:.0f}%)" if isinstance(los, (int, float)) else "")


def crosstable_width(standings: dict[str, Any]) -> int:
    """The width the whole crosstable needs: a name column and one column per agent, each as wide
    as its longest cell."""
    order = [str(row["id"]) for row in standings.get("standings", [])]
    cross = cross_of(standings)
    widths = [max((cell_len(a) for a in order), default=5)]
    for b in order:
        widths.append(max([cell_len(b), 1, *(len(_cell(cross.get(a, {}).get(b))) for a in order)]))
    return table_width(widths, pad_edge=True)


def crosstable_table(standings: dict[str, Any]) -> Table:
    """Points of the row agent against the column agent (``points/games``), and LOS in %."""
    order = [str(row["id"]) for row in standings.get("standings", [])]
    cross = cross_of(standings)
    what = "pairwise points/games (each game: beaten 1, tied 1/2)" if is_seat_standings(standings) else "points/games"
    table = Table(title="Crosstable", title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  caption=f"row's {what} against the column (likelihood of superiority)", caption_justify="left")
    table.add_column("agent", no_wrap=True)
    for aid in order:
        table.add_column(aid, justify="center", no_wrap=True)
    for a in order:
        table.add_row(Text(a), *("·" if a == b else _cell(cross.get(a, {}).get(b)) for b in order))
    return table


def top_pairs_table(standings: dict[str, Any], width: int) -> Table:
    """Each of the :data:`TOP_PAIRS` best agents against the next one: the Elo gap, the
    head-to-head points/games, W-D-L and the likelihood that the better-ranked is the stronger."""
    rows = standings.get("standings", [])[:TOP_PAIRS]
    cross = cross_of(standings)
    pairs = list(pairwise(rows))
    cells = [cross.get(str(a["id"]), {}).get(str(b["id"])) or {} for a, b in pairs]
    columns = [
        Col("#", [f"{a['rank']}-{b['rank']}" for a, b in pairs]),
        Col("agent", [str(a["id"]) for a, _ in pairs], "left"),
        Col("vs", [str(b["id"]) for _, b in pairs], "left", drop=1),
        Col("Elo gap", [elo_text(a["elo"] - b["elo"]) if isinstance(a.get("elo"), (int, float))
                        and isinstance(b.get("elo"), (int, float)) else "-" for a, b in pairs], drop=2),
        Col("points", [f"{c['points']:g}/{c['games']}" if c.get("games") else "-" for c in cells]),
        Col("W-D-L", [f"{c.get('wins', 0)}-{c.get('draws', 0)}-{c.get('losses', 0)}" if c.get("games") else "-"
                      for c in cells], "center", drop=3),
        Col("LOS", [_num(100 * c["los"] if isinstance(c.get("los"), (int, float)) else None, ".0f", "%")
                    for c in cells]),
    ]
    return _render(f"Top pairs: each of the best {len(rows)} against the next, head to head", columns, width,
                   "LOS: likelihood that the first is the stronger, from their games against each other")


def seats_table(standings: dict[str, Any], width: int) -> Table | None:
    """Per seat (N seats: ``seats`` and ``seat_elo``): games, win %, average rank and return, Elo
    relative to the last seat. None for two-player standings."""
    seats = standings.get("seats")
    if not isinstance(seats, list) or not seats:
        return None
    found = standings.get("seat_elo")
    elo: list[Any] = found if isinstance(found, list) else []
    columns = [
        Col("seat", [str(s.get("seat", i)) for i, s in enumerate(seats)]),
        Col("games", [str(s.get("games", "-")) for s in seats]),
        Col("win %", [_num(s.get("win_pct"), ".1f", "%") for s in seats]),
        Col("avg rank", [_num(s.get("avg_rank"), ".2f") for s in seats]),
        Col("avg return", [_num(s.get("avg_return"), ".2f") for s in seats], drop=1),
        Col("Elo vs last seat", [elo_text(elo[i]) if i < len(elo) and isinstance(elo[i], (int, float)) else "-"
                                 for i in range(len(seats))], drop=2),
    ]
    return _render("Seats", columns, width)


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


def standings_parts(standings: dict[str, Any], width: int, folder: str | None = None) -> list[Any]:
    """What :func:`print_standings` prints, in order, for a console ``width`` columns wide."""
    parts: list[Any] = [standings_table(standings, width)]
    seats = seats_table(standings, width)
    if seats is not None:
        parts.append(seats)
    agents = len(standings.get("standings", []))
    if agents > 1:
        needed = crosstable_width(standings)
        if needed <= width:
            parts.append(crosstable_table(standings))
        else:
            where = folder or "LOGDIR"
            parts.append(top_pairs_table(standings, width))
            parts.append(Text(f"The crosstable of {agents} agents needs {needed} columns ({width} here): "
                              f"'arena report {where}' draws it in full; 'arena standings {where} --json' "
                              "prints everything."))
    parts.append(terminations_text(standings))
    return parts


def whole_width(standings: dict[str, Any]) -> int:
    """The width at which :func:`standings_parts` drops nothing: every standings column, the whole
    crosstable (the seat table is narrower than the standings)."""
    return max(table_width([c.width for c in standings_columns(standings)]),
               crosstable_width(standings) if len(standings.get("standings", [])) > 1 else 0)


def _captions_apart(parts: list[Any]) -> list[Any]:
    """``parts`` with each table's caption moved to a line of its own after the table: it then wraps
    at the console's width, not in the width of a narrow table (a crosstable of two agents)."""
    out: list[Any] = []
    for part in parts:
        if isinstance(part, Table) and part.caption:
            caption, part.caption = part.caption, None
            out += [part, caption if isinstance(caption, Text) else Text(str(caption))]
        else:
            out.append(part)
    return out


def print_standings(console: Console, standings: dict[str, Any], folder: str | None = None) -> None:
    """The standings table, the seat table (N seats), the crosstable when it fits the console (else
    the top pairs and where to find the crosstable: ``folder`` names the log folder), and the
    termination counts; each table's caption on lines of its own after it. Written to a pipe or a
    file there is no screen to fit: every column and the whole crosstable are printed, however
    wide (:func:`whole_width`), and the lines carry no trailing spaces.

    Keys read: ``games``, ``model.name``, ``first_move_elo``, ``standings`` rows (see
    :func:`standings_columns`), ``crosstable`` or ``pairwise`` (``games``, ``points``, ``wins``,
    ``draws``, ``losses``, ``los``), ``seats`` (``seat``, ``games``, ``win_pct``, ``avg_rank``,
    ``avg_return``), ``seat_elo``, ``terminations`` (``total``, ``faults``); ``players`` or
    ``pairwise`` mark N-seat standings."""
    if console.is_terminal:
        for part in _captions_apart(standings_parts(standings, console.width, folder)):
            console.print(part)
        return
    width = max(console.width, whole_width(standings))
    wide = Console(file=io.StringIO(), width=width, color_system=None, highlight=False, legacy_windows=False)
    with wide.capture() as captured:
        for part in _captions_apart(standings_parts(standings, width, folder)):
            wide.print(part)
    text = "\n".join(line.rstrip() for line in captured.get().splitlines())
    console.file.write(text + "\n")
    console.file.flush()


__all__ = [
    "Col",
    "crosstable_table",
    "crosstable_width",
    "fit_columns",
    "is_seat_standings",
    "print_standings",
    "seats_table",
    "shorten",
    "standings_table",
    "table_width",
    "terminations_text",
    "top_pairs_table",
    "whole_width",
]
