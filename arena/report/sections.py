"""The report's sections, plain HTML/SVG from a ``standings.json`` object of either shape:
standings (sortable: click a header), the Elo plot, the rank distribution of each agent (N seats),
the seat table (N seats), the crosstable (``pairwise`` for N seats) and how games ended, then the
game list (filled by the page's script).

At any size: above :data:`BIG_FIELD` agents the standings and the plot sit in scrolled boxes with
sticky headers, and the crosstable's cells lose their tooltips (their likelihood of superiority is
the cell's shade; the exact numbers are in ``standings.json``), which keeps 200 agents' 40,000
cells to about 1 MB. Keys read: see :func:`report_body`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from arena.records.reader import ordinal

#: More agents than this: scrolled boxes with sticky headers, a lighter crosstable.
BIG_FIELD = 30

esc = html.escape


def report_body(standings: dict[str, Any] | None, seats: bool = False) -> str:
    """The sections of ``standings`` then the game list (``seats``: the list of N-seat games).

    Keys read: ``standings`` rows (``rank``, ``id``, ``elo``, ``elo_low``, ``elo_high``, ``games``,
    ``wins``, then ``draws``, ``losses``, ``score_pct``, ``online_elo`` for two players or
    ``avg_rank``, ``avg_return``, ``score_pct``, ``rank_counts`` for N seats), ``model`` (``name``,
    ``elo_centre``, ``interval``), ``first_move_elo``, ``players``, ``seats`` (``seat``, ``games``,
    ``wins``, ``win_pct``, ``avg_rank``, ``avg_return``), ``seat_elo``, ``crosstable`` or ``pairwise``
    (``games``, ``wins``, ``draws``, ``losses``, ``points``, ``los``), ``terminations``."""
    out: list[str] = []
    if standings and standings.get("standings"):
        out.append(standings_section(standings))
        out.append(seats_section(standings))
        out.append(crosstable_section(standings))
        out.append(terminations_section(standings))
    head = ('<th data-col="0" class="num">#</th><th data-col="1">Seats</th><th data-col="2">Finish</th>'
            '<th data-col="3">Returns</th>' if seats else
            '<th data-col="0" class="num">#</th><th data-col="1">Black</th><th data-col="2">White</th>'
            '<th data-col="3">Result</th>')
    plies = "Steps" if seats else "Plies"
    out.append('<section id="games-section"><h2>Games</h2>\n<div class="filterbar">'
               '<input id="filter" type="search" placeholder="Filter: agent, result, termination, reason…" '
               'aria-label="filter games"><span id="count" class="dim"></span>'
               '<span id="pager" hidden><button id="pg-prev" aria-label="previous page">&#x25C0;</button> '
               '<span id="pg-info" class="dim"></span> <button id="pg-next" aria-label="next page">&#x25B6;</button>'
               '</span></div>\n'
               f'<table id="games" class="list"><thead><tr>{head}<th data-col="4">Termination</th>'
               f'<th data-col="5" class="num">{plies}</th><th data-col="7">Reason</th></tr></thead><tbody></tbody></table>'
               '<p class="dim">Click a column to sort, a game to watch it. The filter and the sort cover every game; '
               'the list shows 200 at a time.</p></section>\n')
    return "".join(out)


def is_seat_standings(standings: dict[str, Any]) -> bool:
    return "players" in standings or "pairwise" in standings


def number_text(value: Any, digits: int = 0, suffix: str = "") -> str:
    """``value`` as the pages show a number: a float with ``digits`` decimals, never ``-0.00``
    (a value that rounds to zero is shown as zero); ``–`` for None."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{round(value, digits) or 0.0:.{digits}f}{suffix}"  # `or 0.0`: never -0.00
    return f"{value}{suffix}"


def _td(value: Any, digits: int = 0, suffix: str = "") -> str:
    """A numeric cell whose ``data-v`` is the number the page sorts by (empty for none)."""
    number = "" if not isinstance(value, (int, float)) else f"{value}"
    return f'<td class="num" data-v="{number}">{number_text(value, digits, suffix)}</td>'


def standings_section(standings: dict[str, Any]) -> str:
    """The sortable standings table (with a rank bar per agent for N seats) and the Elo plot."""
    rows = standings["standings"]
    seated = is_seat_standings(standings)
    big = len(rows) > BIG_FIELD
    heads = ["Rank", "Agent", "Elo", "95% interval", "Games"]
    heads += ["Wins", "Avg rank", "Avg return", "Score", "Ranks"] if seated else ["W", "D", "L", "Score", "Online Elo"]
    head = "".join(f'<th{"" if h in ("Agent", "Ranks") else " class=num"} title="click to sort">{h}</th>' for h in heads)
    lines = [(f'<section id="standings"><h2>Standings</h2>\n<div class="split"><div class="{"scroll" if big else "box"}">'
             f'<table id="standings-table" class="grid sortable"><thead><tr>{head}</tr></thead><tbody>')]
    players = standings.get("players") if isinstance(standings.get("players"), int) else None
    for row in rows:
        cells = [_td(row.get("rank")), f'<td>{esc(str(row["id"]))}</td>', _td(row.get("elo"), 1),
                 (f'<td class="num" data-v="{row.get("elo_low", "")}">{number_text(row.get("elo_low"))} … '
                 f'{number_text(row.get("elo_high"))}</td>'), _td(row.get("games"))]
        if seated:
            cells += [_td(row.get("wins")), _td(row.get("avg_rank"), 2), _td(row.get("avg_return"), 2),
                      _td(row.get("score_pct"), 1, "%"), rank_bar(row.get("rank_counts"), players)]
        else:
            cells += [_td(row.get("wins")), _td(row.get("draws")), _td(row.get("losses")),
                      _td(row.get("score_pct"), 1, "%"), _td(row.get("online_elo"))]
        lines.append(f"<tr>{''.join(cells)}</tr>")
    lines.append("</tbody></table></div>\n")
    lines.append(f'<div class="{"scroll" if big else "box"}">{elo_plot(rows)}</div>')
    lines.append("</div>\n")
    lines.append(_model_note(standings, seated))
    lines.append("</section>\n")
    return "".join(lines)


def _model_note(standings: dict[str, Any], seated: bool) -> str:
    model = standings.get("model")
    if not isinstance(model, dict):
        return ""
    note = str(model.get("name", ""))
    if model.get("elo_centre"):
        note += f"; Elo centred on the {model['elo_centre']}"
    if model.get("interval"):
        note += f"; {model['interval']}"
    note += "."
    first = standings.get("first_move_elo")
    if isinstance(first, (int, float)):
        note += f" First-move advantage: {round(first, 1) + 0.0:+.1f} Elo."
    if seated:
        note += (" Score: pairwise, each other seat beaten counts 1, tied 1/2. Ranks: the share of games"
                 " finished 1st (left, green) to last (right, red).")
    note += " Click a column header to sort."
    return f'<p class="dim small">{esc(note)}</p>\n'


def rank_colour(rank: int, players: int) -> str:
    """Green for first, through yellow, to red for last."""
    hue = 120 if players < 2 else round(120 * (players - rank) / (players - 1))
    return f"hsl({hue},55%,50%)"


def rank_bar(counts: Any, players: int | None) -> str:
    """A cell with one bar split by ``rank_counts`` (games finished 1st, 2nd, ...), widths in
    proportion, with the counts in its tooltip; sorted by the share of first places."""
    if not isinstance(counts, list) or not counts or not all(isinstance(c, int) for c in counts):
        return '<td data-v="">–</td>'
    n = players or len(counts)
    total = sum(counts)
    if not total:
        return '<td data-v="0">–</td>'
    tip = ", ".join(f"{ordinal(k + 1)} {c} ({100 * c / total:.0f}%)" for k, c in enumerate(counts))
    spans = "".join(f'<span style="width:{100 * c / total:.2f}%;background:{rank_colour(k + 1, n)}"></span>'
                    for k, c in enumerate(counts) if c)
    return f'<td class="ranks" data-v="{counts[0] / total:.4f}"><div class="rbar" title="{esc(tip)}">{spans}</div></td>'


def _nice_step(span: float) -> float:
    raw = span / 6 if span > 0 else 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def elo_plot(rows: Sequence[dict[str, Any]]) -> str:
    """An inline SVG: each agent's Elo as a dot on its 95% interval, best at the top."""
    values = [v for r in rows for v in (r.get("elo_low"), r.get("elo"), r.get("elo_high")) if isinstance(v, (int, float))]
    low, high = (min(values), max(values)) if values else (-100.0, 100.0)
    if high - low < 1:
        low, high = low - 50, high + 50
    step = _nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    label_w, width, row_h, top = 120, 560, 26 if len(rows) <= BIG_FIELD else 16, 10
    plot_w = width - label_w - 20
    height = top + row_h * len(rows) + 34

    def x(value: float) -> float:
        return round(label_w + (value - low) / (high - low) * plot_w, 1)

    out = [(f'<svg class="eloplot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="Elo with 95% intervals">')]
    tick = low
    while tick <= high + step / 2:
        out.append(f'<line x1="{x(tick)}" x2="{x(tick)}" y1="{top - 4}" y2="{height - 28}" class="{"zero" if abs(tick) < 1e-9 else "tick"}"/>'
                   f'<text x="{x(tick)}" y="{height - 14}" text-anchor="middle" class="axis">{round(tick, 9) + 0.0:g}</text>')
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
            out.append(f'<circle cx="{x(mid)}" cy="{y}" r="{5 if row_h > 20 else 4}" class="elo"><title>{esc(str(row["id"]))}: '
                       f'{number_text(float(mid), 1)} ({number_text(lo, 0)} … {number_text(hi, 0)})</title></circle>')
    out.append(f'<text x="{label_w + plot_w / 2}" y="{height - 1}" text-anchor="middle" class="axis">'
               'Elo (dot) with its 95% interval</text></svg>\n')
    return "".join(out)


def seats_section(standings: dict[str, Any]) -> str:
    """Per seat (N seats): games, wins, win %, average rank and return, Elo against the last seat."""
    seats = standings.get("seats")
    if not isinstance(seats, list) or not seats:
        return ""
    found = standings.get("seat_elo")
    elo: list[Any] = found if isinstance(found, list) else []
    lines = [('<section id="seats-section"><h2>Seats</h2>\n<table id="seat-table" class="grid sortable"><thead><tr>'
             '<th class="num">Seat</th><th class="num">Games</th><th class="num">Wins</th><th class="num">Win %</th>'
             '<th class="num">Avg rank</th><th class="num">Avg return</th><th class="num">Elo vs last seat</th>'
             '</tr></thead><tbody>')]
    for k, seat in enumerate(seats):
        number = seat.get("seat", k) if isinstance(seat, dict) else k
        seat = seat if isinstance(seat, dict) else {}
        lines.append(f"<tr>{_td(number)}{_td(seat.get('games'))}{_td(seat.get('wins'))}"
                     f"{_td(seat.get('win_pct'), 1, '%')}{_td(seat.get('avg_rank'), 2)}{_td(seat.get('avg_return'), 2)}"
                     f"{_td(elo[number] if isinstance(number, int) and 0 <= number < len(elo) else None, 1)}</tr>")
    lines.append('</tbody></table>\n<p class="dim small">Win: a first place (shared first counts). Elo of each '
                 "seat relative to the last seat, from the joint fit.</p></section>\n")
    return "".join(lines)


def _los_class(los: Any) -> str:
    """``l0`` (surely weaker) to ``l9`` (surely stronger): the cell's shade."""
    return f"l{min(9, max(0, int(los * 10)))}" if isinstance(los, (int, float)) else ""


def crosstable_section(standings: dict[str, Any]) -> str:
    """Row's points/games against each column (``crosstable``, or ``pairwise`` for N seats), shaded
    by the likelihood of superiority; scrolled with sticky headers and first column above
    :data:`BIG_FIELD` agents."""
    seated = is_seat_standings(standings)
    table = standings.get("pairwise" if seated else "crosstable")
    if not isinstance(table, dict):
        return ""
    names = [str(r["id"]) for r in standings["standings"]]
    big = len(names) > BIG_FIELD
    head = "".join(f"<th>{esc(n)}</th>" for n in names)
    title = "Pairwise results" if seated else "Crosstable"
    lines = [(f'<section id="crosstable"><h2>{title}</h2>\n<div class="{"scroll cross-scroll" if big else "box"}">'
             f'<table class="grid cross"><thead><tr><th class="corner"></th>{head}</tr></thead><tbody>')]
    for a in names:
        found = table.get(a)
        row: dict[str, Any] = found if isinstance(found, dict) else {}
        cells = []
        for b in names:
            cell = row.get(b)
            if a == b or not isinstance(cell, dict) or not cell.get("games"):
                cells.append('<td class="self">·</td>' if a == b else '<td class="num dim">–</td>')
                continue
            los = cell.get("los")
            points = cell.get("points")
            text = f'{points:g}/{cell["games"]}' if isinstance(points, (int, float)) else f'–/{cell["games"]}'
            shade = _los_class(los)
            if big:
                cells.append(f'<td class="num {shade}">{text}</td>')
                continue
            tip = (f"{a} vs {b}: +{cell.get('wins', 0)} ={cell.get('draws', 0)} -{cell.get('losses', 0)}"
                   + (f", LOS {100 * los:.0f}%" if isinstance(los, (int, float)) else ""))
            cells.append(f'<td class="num {shade}" title="{esc(tip)}">{text}'
                         + (f' <span class="dim small">{100 * los:.0f}%</span>' if isinstance(los, (int, float)) else "")
                         + "</td>")
        lines.append(f"<tr><th>{esc(a)}</th>{''.join(cells)}</tr>")
    what = ("pairwise points/games against the column (each game: the other seat beaten 1, tied 1/2)" if seated
            else "points/games against the column")
    lines.append(f'</tbody></table></div>\n<p class="dim small">Row\'s {what}; the shade is the likelihood of '
                 "superiority (green: the row is the stronger, red: the weaker)"
                 + (", given as a number below 31 agents and in standings.json" if big else ", also given in %")
                 + ".</p></section>\n")
    return "".join(lines)


def terminations_section(standings: dict[str, Any]) -> str:
    terms = standings.get("terminations")
    if not isinstance(terms, dict):
        return ""
    total = terms.get("total") or {}
    lines = [('<section id="terminations"><h2>How games ended</h2>\n<table class="grid"><thead><tr>'
             '<th>Termination</th><th class="num">Games</th></tr></thead><tbody>')]
    lines += [f'<tr><td>{esc(str(k))}</td><td class="num">{number_text(v)}</td></tr>' for k, v in total.items()]
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


__all__ = ["BIG_FIELD", "crosstable_section", "elo_plot", "rank_bar", "report_body", "seats_section",
           "standings_section", "terminations_section"]
