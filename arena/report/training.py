"""The charts of the learners' run folders, for their own pages and for ``arena report``.

- An SPSA run (``arena tune spsa``: ``state.json`` and ``history.jsonl``): every tuned parameter's
  path from its start, each drawn within its bounds, and a table of start, now, bounds and step.
- A TD run (``arena train td``: ``checkpoint.json`` and ``curve.jsonl``): the learning curve, the
  score against the initial weights at each point, and its points as a table.

:func:`run_chart` tells which a folder is and reads it; :func:`chart_section` is the chart as a
section of the report page (:mod:`arena.report.html`). Reading never raises for a folder that is
not a run (None); a run whose ``state.json`` or ``checkpoint.json`` is damaged is a
:class:`ReportError` naming the file. The lines of ``history.jsonl`` and ``curve.jsonl`` are read
as the learners read them (:func:`arena.train.spsa.read_history`, :func:`arena.train.td.read_curve`:
a line cut short by a crash is skipped).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.fileio.jsonfiles import JsonInputError, read_json_file
from arena.limits import MAX_RECORDS_BYTES
from arena.report.charts import svg_chart
from arena.report.html import ReportError


@dataclass(frozen=True)
class RunChart:
    """A chart with its table: ``kind`` is ``"spsa"`` or ``"td"``."""

    kind: str
    title: str
    svg: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    #: The values drawn, by series name (SPSA: each parameter from its start; TD: ``score``).
    series: dict[str, list[float]]


def spsa_chart(game: str, parameters: Sequence[Mapping[str, Any]], history: Sequence[Mapping[str, Any]]) -> RunChart:
    """The chart of an SPSA run: ``parameters`` as ``{key, start, low, high, c}`` objects (the run's
    identity), ``history`` the lines of ``history.jsonl``."""
    series: dict[str, list[float]] = {}
    bounds: dict[str, tuple[float, float]] = {}
    rows = []
    for p in parameters:
        key = str(p["key"])
        series[key] = [float(p["start"])] + [float(line["theta"][key]) for line in history]
        bounds[key] = (float(p["low"]), float(p["high"]))
        rows.append((key, f"{float(p['start']):g}", f"{series[key][-1]:.2f}",
                     f"{float(p['low']):g}..{float(p['high']):g}", f"{float(p['c']):g}"))
    svg = svg_chart(series, title=f"SPSA: {game}, {len(history)} iterations", bounds=bounds)
    return RunChart("spsa", f"SPSA history ({game})", svg, ("parameter", "start", "now", "bounds", "c"), tuple(rows),
                    series)


def td_chart(game: str, curve: Sequence[Mapping[str, Any]]) -> RunChart:
    """The chart of a TD run's learning curve (the points of ``curve.jsonl``, at least one)."""
    title = f"TD(lambda) learning curve: {game}, score against the initial weights"
    series = {"score": [float(p["score"]) for p in curve]}
    svg = svg_chart(series, title=title, bounds={"score": (0.0, 1.0)},
                    x_label=f"curve point ({curve[0]['games']} games apart)")
    rows = tuple((str(p["games"]), f"{float(p['score']):.2f}", str(p["wins"]), str(p["draws"]), str(p["losses"]))
                 for p in curve)
    return RunChart("td", title, svg, ("games", "score", "wins", "draws", "losses"), rows, series)


def _json_object(path: Path) -> dict[str, Any]:
    try:
        value = read_json_file(path, MAX_RECORDS_BYTES, root=path.parent)
    except OSError as error:
        raise ReportError(f"{path}: cannot be read ({error.strerror or error})") from None
    except JsonInputError as error:  # the plain reason for a text that is not JSON at all
        raise ReportError(f"{path}: not JSON" if error.syntax else f"{path}: {error}") from None
    if not isinstance(value, dict):
        raise ReportError(f"{path}: not a JSON object")
    return value


def run_chart(folder: Path) -> RunChart | None:
    """The chart of an SPSA or TD run folder; None when ``folder`` is no learner's run. Raises
    ReportError for a run folder whose files are damaged, a TD run without a curve point yet, and
    an evolve run (its games are the tournament folders inside it: the error names them)."""
    if not folder.is_dir():
        return None
    if (folder / "state.json").is_file() and (folder / "history.jsonl").is_file():
        state = _json_object(folder / "state.json")
        identity = state.get("identity")
        from arena.train.spsa import read_history

        try:
            parameters = identity["parameters"]  # type: ignore[index]
            return spsa_chart(str(identity["game"]), parameters, read_history(folder))  # type: ignore[index]
        except (KeyError, TypeError, ValueError) as error:
            raise ReportError(f"{folder}: not an SPSA run of this arena ({error.__class__.__name__}: {error})") from None
    if (folder / "checkpoint.json").is_file() and (folder / "curve.jsonl").is_file():
        from arena.train.td import read_curve

        checkpoint = _json_object(folder / "checkpoint.json")
        curve = read_curve(folder)
        if not curve:
            raise ReportError(f"{folder}: a TD run without a point of its learning curve yet (it has played fewer "
                              "than --eval-every games, or --eval-pairs is 0): nothing to draw")
        try:
            return td_chart(str(checkpoint["settings"]["game"]), curve)
        except (KeyError, TypeError, ValueError) as error:
            raise ReportError(f"{folder}: not a TD run of this arena ({error.__class__.__name__}: {error})") from None
    if (folder / "evolve.json").is_file():
        rounds = sorted(p.name for p in (folder / "tournament_logs").glob("*") if p.is_dir())
        raise ReportError(f"{folder}: an evolve run; its games are tournaments: report one of "
                          f"{folder / 'tournament_logs'}/{{{','.join(rounds)}}}" if rounds else
                          f"{folder}: an evolve run that has not played a tournament yet")
    return None


def chart_section(chart: RunChart) -> str:
    """The chart and its table as a section of the report page."""
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in chart.header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in chart.rows)
    return (f'<section id="training"><h2>{esc(chart.title)}</h2>\n<div class="chart">{chart.svg}</div>\n'
            f'<table class="list"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></section>\n')


__all__ = ["RunChart", "chart_section", "run_chart", "spsa_chart", "td_chart"]
