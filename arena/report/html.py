"""One self-contained HTML file: a tournament report, or one game's viewer.

The file needs no network and no other file: CSS, JavaScript and SVG are inline, and it opens from
``file://``. Layout of the data (each a ``<script type="application/json">`` block, so the browser
parses a block only when the page asks for it):

- ``arena-data``: the page's summary: title, mode (``"report"`` or ``"game"``), and the game list
  rows ``[index, black, white, result, termination, plies, game, reason]``;
- ``arena-pieces``: the distinct SVG pieces of every board (:class:`arena.report.frames.PieceTable`);
- ``arena-game-N``: game ``N`` (its index, as ``arena replay --game N`` counts): the move list in
  notation, charged times, clocks, result and reason, each position's board as an edit of the
  previous one, and each board's CRC (:func:`arena.report.frames.svg_hash`) for the self-test.

Only the game being viewed is parsed and drawn. The standings, the Elo plot and the crosstable are
plain HTML/SVG written here. Sizes: about 10 kB per 100-ply game (see the README's figures).

Opening ``report.html#game=N`` shows game ``N`` (``&ply=K`` at position ``K``);
``#selftest=N`` runs the page's self-test on game ``N`` (:mod:`arena.report.viewer`).
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import __version__
from arena.errors import ArenaError
from arena.fileio.files import atomic_write
from arena.fileio.jsonfiles import read_json_file
from arena.games.base import Color, Game
from arena.limits import MAX_RECORDS_BYTES
from arena.records.reader import result_text
from arena.records.replay import GameEntry, Replay, Source
from arena.report.frames import PieceTable, encode_frame, svg_hash
from arena.report.viewer import CSS, JS
from arena.stats.ratings import GameResult

#: ``progress(done, total)``: called after each game is drawn (``arena report`` shows it).
Progress = Callable[[int, int], None]


class ReportError(ArenaError):
    """A report that cannot be written (a game's board cannot be drawn, the file cannot be
    written). One line; exit 2."""


# -- boards ----------------------------------------------------------------------------------------


def svg_renderer(game: Game[Any, Any]) -> Callable[[Any, Any], str]:
    """The registry's ``board_svg(state, last_move)`` for ``game``; for a game without one (a plugin
    that registers no ``svg``), its ``board_text`` set in an SVG ``<text>`` block."""
    from arena.games.registry import get_spec, load_ref

    ref = get_spec(game.name).svg
    if ref is not None:
        function: Callable[[Any, Any], str] = load_ref(ref)
        return function

    def text_svg(state: Any, last_move: Any = None) -> str:
        return text_picture(game.board_text(state))

    return text_svg


def text_picture(text: str) -> str:
    """A plain-text board set in an SVG picture (monospace), for games without an SVG function."""
    lines = text.splitlines() or [""]
    width = 9 * max(len(line) for line in lines) + 16
    height = 18 * len(lines) + 16
    rows = "".join(f'<tspan x="8" dy="18">{html.escape(line)}</tspan>' for line in lines)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}"><rect width="100%" height="100%" fill="#f4f1e8"/>'
            f'<text font-family="monospace" font-size="15" xml:space="preserve" y="4">{rows}</text></svg>')


def game_payload(replay: Replay, pieces: PieceTable) -> dict[str, Any]:
    """The ``arena-game-N`` object of ``replay`` (see the module docstring). Raises ReportError when
    the renderer fails on one of its positions."""
    draw = svg_renderer(replay.game)
    frames: list[list[int]] = []
    hashes: list[str] = []
    previous: list[int] | None = None
    for i in range(replay.last + 1):
        state, last_move, _ = replay.position(i)
        try:
            svg = draw(state, last_move)
        except Exception as exc:  # noqa: BLE001 - a renderer's bug: one line naming the position
            raise ReportError(f"{replay.label}: cannot draw position {i}: {type(exc).__name__}: {exc}") from None
        numbers = pieces.split(svg)
        frames.append(encode_frame(previous, numbers))
        hashes.append(svg_hash(svg))
        previous = numbers
    start = replay.start_clocks_ms
    return {
        "title": replay.title(),
        "game": replay.game.name,
        "players": [replay.players[Color.BLACK], replay.players[Color.WHITE]],
        "result": replay.result(),
        "reason": replay.reason,
        "note": replay.opening_note(),
        "first": "start position" if replay.starts_at_start() else "first recorded position",
        # Per move: B/W the mover, lower case for a random opening ply.
        "movers": "".join(s.color.value[0].lower() if s.opening else s.color.value[0] for s in replay.steps),
        "numbers": [s.number for s in replay.steps],
        "notation": [s.notation for s in replay.steps],
        "charged": [None if s.charged_ms is None else round(s.charged_ms, 1) for s in replay.steps],
        "clock0": None if start is None else [round(start[c]) for c in Color],
        # The mover's clock after each move (the other clock does not change).
        "clocks": [None if s.clocks_ms is None else round(s.clocks_ms[s.color]) for s in replay.steps],
        "clock_end": None if replay.end_clocks_ms is None else [round(replay.end_clocks_ms[c]) for c in Color],
        "frames": frames,
        "crc": "".join(hashes),
    }


# -- the page --------------------------------------------------------------------------------------


def _json_block(element_id: str, value: Any) -> str:
    # "<" only ever appears inside JSON strings, where \u003c reads back the same: no "</script>".
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{text}</script>\n'


def _row(entry: GameEntry, replay: Replay) -> list[Any]:
    return [entry.index, replay.players[Color.BLACK], replay.players[Color.WHITE], entry.result_text()
            if entry.winner != "?" else _result_of(replay), replay.termination, replay.last, replay.game.name,
            replay.reason]


def _result_of(replay: Replay) -> str:
    return result_text(replay.record.get("winner", "?"), replay.termination)


def iter_games(source: Source) -> Iterator[tuple[GameEntry, Replay]]:
    """Every game of ``source`` as a replay, one at a time (a record is read when its turn comes,
    so a report of thousands of games never holds them all). ReplayError for an unreadable game."""
    for entry in source.entries:
        label = f"{source.label} game {entry.index}"
        yield entry, Replay.from_record(source.load(entry), label=label)


@dataclass
class Drawn:
    """What the page embeds for its games: list rows, one ``arena-game-N`` block per game, the
    shared SVG pieces, and each game's result for the standings (None: a game cannot be rated)."""

    rows: list[list[Any]] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    pieces: PieceTable = field(default_factory=PieceTable)
    results: list[GameResult] | None = field(default_factory=list)


def draw_games(games: Iterable[tuple[GameEntry, Replay]], total: int, progress: Progress | None = None) -> Drawn:
    """Encode ``games`` (``total`` of them, for ``progress``). Raises ReportError or ReplayError."""
    from arena.stats.ratings import result_from_row

    drawn = Drawn()
    for done, (entry, replay) in enumerate(games, 1):
        drawn.blocks.append(_json_block(f"arena-game-{entry.index}", game_payload(replay, drawn.pieces)))
        drawn.rows.append(_row(entry, replay))
        if drawn.results is not None:
            try:
                drawn.results.append(result_from_row({**replay.record, "index": entry.index}))
            except ValueError:
                drawn.results = None
        if progress is not None:
            progress(done, total)
    return drawn


def build_page(title: str, mode: str, drawn: Drawn, body: str) -> str:
    """The whole HTML text: ``body`` (the report's sections, empty for a single game), the viewer,
    then the data blocks of the ``drawn`` games. ``mode`` is ``"report"`` or ``"game"``."""
    data = {"title": title, "mode": mode, "version": __version__, "rows": drawn.rows}
    esc = html.escape
    count = len(drawn.rows)
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n",
        f"<body class=\"mode-{mode}\">\n<header><h1>{esc(title)}</h1>",
        f"<p class=\"sub\">arena {esc(__version__)} · {count} game{'s' if count != 1 else ''}</p></header>\n",
        body,
        _VIEWER_HTML,
        '<pre id="selftest" hidden></pre>\n',
        _json_block("arena-data", data),
        _json_block("arena-pieces", drawn.pieces.pieces),
        *drawn.blocks,
        f"<script>{JS}</script>\n</body>\n</html>\n",
    ]
    return "".join(parts)


_VIEWER_HTML = """\
<div id="viewer" hidden><div class="panel">
<div class="vhead"><h2 id="v-title"></h2><button id="v-close" title="Close (Esc)">&#x2715; close</button></div>
<p id="v-note" class="dim"></p>
<div class="vbody">
<div class="vleft"><div id="board" class="board"></div>
<div class="controls"><button id="b-first" title="First (Home)">|&#x25C0;</button><button id="b-prev" title="Previous (&#x2190;)">&#x25C0;</button><input type="range" id="slider" min="0" max="0" value="0" aria-label="position"><button id="b-next" title="Next (&#x2192;)">&#x25B6;</button><button id="b-last" title="Last (End)">&#x25B6;|</button></div>
<div id="v-ply" class="dim"></div></div>
<div class="vright">
<div id="clocks"><div class="clock" id="clock-0"></div><div class="clock" id="clock-1"></div></div>
<div id="v-status"></div>
<div id="moves" tabindex="-1"></div>
<div id="result"></div>
</div></div>
<p class="keys dim">&#x2190; &#x2192; step · Home/End first/last · PgUp/PgDn 10 moves · click a move to jump<span class="closekey"> · Esc back to the report</span></p>
</div></div>
"""


# -- the report's sections -------------------------------------------------------------------------


def report_body(standings: dict[str, Any] | None) -> str:
    """Standings (table and Elo plot), crosstable and terminations from a ``standings.json`` object,
    then the game list (filled by the page's script)."""
    out: list[str] = []
    if standings and standings.get("standings"):
        out.append(_standings_section(standings))
        out.append(_crosstable_section(standings))
        out.append(_terminations_section(standings))
    out.append('<section id="games-section"><h2>Games</h2>\n<div class="filterbar">'
               '<input id="filter" type="search" placeholder="Filter: agent, result, termination, reason…" '
               'aria-label="filter games"><span id="count" class="dim"></span></div>\n'
               '<table id="games" class="list"><thead><tr>'
               '<th data-col="0" class="num">#</th><th data-col="1">Black</th><th data-col="2">White</th>'
               '<th data-col="3">Result</th><th data-col="4">Termination</th><th data-col="5" class="num">Plies</th>'
               '<th data-col="7">Reason</th></tr></thead><tbody></tbody></table>'
               '<p class="dim">Click a column to sort, a game to watch it.</p></section>\n')
    return "".join(out)


def _fmt(value: Any, digits: int = 0) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _standings_section(standings: dict[str, Any]) -> str:
    esc = html.escape
    rows = standings["standings"]
    lines = [('<section id="standings"><h2>Standings</h2>\n<div class="split"><table class="grid"><thead><tr>'
             '<th class="num">Rank</th><th>Agent</th><th class="num">Elo</th><th class="num">95% interval</th>'
             '<th class="num">Games</th><th class="num">W</th><th class="num">D</th><th class="num">L</th>'
             '<th class="num">Score</th><th class="num">Online Elo</th></tr></thead><tbody>')]
    for row in rows:
        score = "–" if row.get("score_pct") is None else f"{row['score_pct']:.1f}%"
        lines.append(
            f'<tr><td class="num">{_fmt(row.get("rank"))}</td><td>{esc(str(row["id"]))}</td>'
            f'<td class="num">{_fmt(row.get("elo"), 1)}</td>'
            f'<td class="num">{_fmt(row.get("elo_low"), 0)} … {_fmt(row.get("elo_high"), 0)}</td>'
            f'<td class="num">{_fmt(row.get("games"))}</td><td class="num">{_fmt(row.get("wins"))}</td>'
            f'<td class="num">{_fmt(row.get("draws"))}</td><td class="num">{_fmt(row.get("losses"))}</td>'
            f'<td class="num">{score}</td><td class="num">{_fmt(row.get("online_elo"))}</td></tr>')
    lines.append("</tbody></table>\n")
    lines.append(elo_plot(rows))
    lines.append("</div>\n")
    model = standings.get("model")
    if isinstance(model, dict):
        first = standings.get("first_move_elo")
        note = f"{model.get('name', '')}; Elo centred on the {model.get('elo_centre', '')}; {model.get('interval', '')}."
        if isinstance(first, (int, float)):
            note += f" First-move advantage: {first:+.1f} Elo."
        lines.append(f'<p class="dim small">{esc(note)}</p>\n')
    lines.append("</section>\n")
    return "".join(lines)


def _nice_step(span: float) -> float:
    raw = span / 6 if span > 0 else 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def elo_plot(rows: Sequence[dict[str, Any]]) -> str:
    """An inline SVG: each agent's Elo as a dot on its 95% interval, best at the top."""
    esc = html.escape
    values = [v for r in rows for v in (r.get("elo_low"), r.get("elo"), r.get("elo_high")) if isinstance(v, (int, float))]
    low, high = (min(values), max(values)) if values else (-100.0, 100.0)
    if high - low < 1:
        low, high = low - 50, high + 50
    step = _nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    label_w, width, row_h, top = 120, 560, 26, 10
    plot_w = width - label_w - 20
    height = top + row_h * len(rows) + 34

    def x(value: float) -> float:
        return round(label_w + (value - low) / (high - low) * plot_w, 1)

    out = [(f'<svg class="eloplot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="Elo with 95% intervals">')]
    tick = low
    while tick <= high + step / 2:
        out.append(f'<line x1="{x(tick)}" x2="{x(tick)}" y1="{top - 4}" y2="{height - 28}" class="{"zero" if abs(tick) < 1e-9 else "tick"}"/>'
                   f'<text x="{x(tick)}" y="{height - 14}" text-anchor="middle" class="axis">{tick:g}</text>')
        tick += step
    for n, row in enumerate(rows):
        y = top + row_h * n + row_h / 2
        out.append(f'<text x="{label_w - 8}" y="{y + 4}" text-anchor="end" class="name">{esc(str(row["id"]))}</text>')
        lo, mid, hi = row.get("elo_low"), row.get("elo"), row.get("elo_high")
        if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
            out.append(f'<line x1="{x(lo)}" x2="{x(hi)}" y1="{y}" y2="{y}" class="ci"/>'
                       f'<line x1="{x(lo)}" x2="{x(lo)}" y1="{y - 5}" y2="{y + 5}" class="ci"/>'
                       f'<line x1="{x(hi)}" x2="{x(hi)}" y1="{y - 5}" y2="{y + 5}" class="ci"/>')
        if isinstance(mid, (int, float)):
            out.append(f'<circle cx="{x(mid)}" cy="{y}" r="5" class="elo"><title>{esc(str(row["id"]))}: '
                       f'{mid:.1f} ({_fmt(lo, 0)} … {_fmt(hi, 0)})</title></circle>')
    out.append(f'<text x="{label_w + plot_w / 2}" y="{height - 1}" text-anchor="middle" class="axis">'
               'Elo (dot) with its 95% interval</text></svg>\n')
    return "".join(out)


def _crosstable_section(standings: dict[str, Any]) -> str:
    esc = html.escape
    table = standings.get("crosstable")
    if not isinstance(table, dict):
        return ""
    names = [str(r["id"]) for r in standings["standings"]]
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    lines = [(f'<section id="crosstable"><h2>Crosstable</h2>\n<table class="grid cross"><thead><tr><th></th>{head}'
             "</tr></thead><tbody>")]
    for a in names:
        cells = []
        for b in names:
            cell = table.get(a, {}).get(b) if isinstance(table.get(a), dict) else None
            if a == b or not isinstance(cell, dict) or not cell.get("games"):
                cells.append('<td class="self">·</td>' if a == b else '<td class="num dim">–</td>')
                continue
            los = cell.get("los")
            tip = (f"{a} vs {b}: +{cell.get('wins', 0)} ={cell.get('draws', 0)} -{cell.get('losses', 0)}"
                   + (f", LOS {100 * los:.0f}%" if isinstance(los, (int, float)) else ""))
            cells.append(f'<td class="num" title="{esc(tip)}">{_fmt(cell.get("points"), 1)}/{cell["games"]}'
                         + (f' <span class="dim small">{100 * los:.0f}%</span>' if isinstance(los, (int, float)) else "")
                         + "</td>")
        lines.append(f"<tr><th>{esc(a)}</th>{''.join(cells)}</tr>")
    lines.append('</tbody></table>\n<p class="dim small">Row\'s points/games against the column, with the '
                 "likelihood of superiority.</p></section>\n")
    return "".join(lines)


def _terminations_section(standings: dict[str, Any]) -> str:
    esc = html.escape
    terms = standings.get("terminations")
    if not isinstance(terms, dict):
        return ""
    total = terms.get("total") or {}
    lines = [('<section id="terminations"><h2>How games ended</h2>\n<table class="grid"><thead><tr>'
             '<th>Termination</th><th class="num">Games</th></tr></thead><tbody>')]
    lines += [f'<tr><td>{esc(str(k))}</td><td class="num">{_fmt(v)}</td></tr>' for k, v in total.items()]
    lines.append("</tbody></table>")
    faults = terms.get("faults") or {}
    if faults:
        lines.append('<table class="grid"><thead><tr><th>Agent</th><th>Lost by a fault</th></tr></thead><tbody>')
        for agent, counts in faults.items():
            text = ", ".join(f"{k} {v}" for k, v in counts.items())
            lines.append(f"<tr><td>{esc(str(agent))}</td><td>{esc(text)}</td></tr>")
        lines.append("</tbody></table>")
    lines.append("</section>\n")
    return "".join(lines)


# -- standings for a source ------------------------------------------------------------------------


def source_standings(source: Source, results: Sequence[GameResult] | None) -> dict[str, Any] | None:
    """The folder's ``standings.json`` when it covers exactly these games, else standings computed
    from ``results`` (None when there are none, or a game cannot be rated)."""
    from arena.stats.ratings import compute_standings

    if source.is_folder:
        path = Path(source.label)
        path = path if path.is_dir() else path.parent
        try:
            saved = read_json_file(path / "standings.json", MAX_RECORDS_BYTES, root=path)
        except (OSError, ValueError):  # missing, refused (a FIFO, a link) or not JSON: computed instead
            saved = None
        if isinstance(saved, dict) and saved.get("games") == len(source.entries) and saved.get("standings"):
            return saved
    return compute_standings(results, bootstrap_samples=200, seed=0) if results else None


# -- entry points ----------------------------------------------------------------------------------


def report_html(source: Source, *, title: str | None = None, progress: Progress | None = None,
                before: str = "") -> str:
    """The report page of every game in ``source``, after the sections ``before`` (a learner's
    chart, :mod:`arena.report.training`). Raises ReplayError or ReportError (one line)."""
    drawn = draw_games(iter_games(source), len(source.entries), progress)
    body = before + report_body(source_standings(source, drawn.results))
    return build_page(title or f"arena report: {source.label}", "report", drawn, body)


def viewer_html(entry: GameEntry, replay: Replay) -> str:
    """The single-game page of ``replay`` (``arena replay --html``)."""
    return build_page(replay.title(), "game", draw_games([(entry, replay)], 1), "")


def write_page(path: str | Path, text: str) -> int:
    """Write ``text`` to ``path`` atomically (a temporary file renamed); the size in bytes.
    Raises ReportError naming the file."""
    target = Path(path)
    data = text.encode("utf-8")
    try:
        atomic_write(target, data)
    except OSError as exc:
        raise ReportError(f"cannot write {target}: {exc.strerror or exc}") from None
    return len(data)


__all__ = [
    "Drawn",
    "ReportError",
    "build_page",
    "draw_games",
    "elo_plot",
    "game_payload",
    "iter_games",
    "report_html",
    "source_standings",
    "svg_renderer",
    "viewer_html",
    "write_page",
]
