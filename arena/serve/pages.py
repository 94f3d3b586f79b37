"""The HTML of ``arena serve``: the leaderboard page and its live fragments, an agent's page, and
one game in the report's viewer. Plain strings; every value from the folder is escaped.

The leaderboard page is rendered whole once; afterwards the server sends its fragments
(:func:`fragments`: ``status``, ``leaderboard``, ``latest``, ``plot``) as one server-sent event
each time the folder changes, and :data:`LIVE_JS` puts each into the element of the same id. So
the HTML is written in one place (here), and a page opened late looks exactly as a page that
watched all along.
"""

from __future__ import annotations

import html
import json
from typing import Any
from urllib.parse import quote

from arena import __version__
from arena.records.reader import finishing_order, result_text
from arena.report.sections import elo_plot, is_seat_standings, number_text, terminations_section
from arena.report.viewer import CSS
from arena.serve.agents import AgentRecord, ranked
from arena.serve.folder import Snapshot
from arena.serve.live import LiveGame, LiveSnapshot, step_text

esc = html.escape
#: How many of the latest finished games the leaderboard lists.
LATEST = 12
#: The ids of the live fragments, in page order.
FRAGMENTS = ("status", "leaderboard", "plot", "latest")
#: How many of an agent's latest faults its page shows, with their stderr tails.
FAULTS_SHOWN = 50
#: How many of a game's last moves the leaderboard's games in progress show.
LAST_MOVES = 10

EXTRA_CSS = """
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
nav{padding:0 24px}#status.error{color:#b3261e}
#leaderboard table,#latest table{margin-bottom:6px}
.live-dot{display:inline-block;width:9px;height:9px;border-radius:50%;background:#aaa;margin-right:6px}
.live .live-dot{background:#2e9d4f}
.cols{display:flex;flex-wrap:wrap;align-items:flex-start}.cols>section{margin-right:8px}
td.moves{white-space:normal;font-family:ui-monospace,monospace;font-size:12px;max-width:560px}
.mv{margin-right:10px;white-space:nowrap}.mv b{font-weight:600;color:var(--dim);margin-right:3px}
ol.live-moves{columns:4 180px;font-family:ui-monospace,monospace;font-size:13px;background:var(--card);
  border:1px solid var(--line);padding:6px 6px 6px 3.5em;max-width:1100px}
table.versions code{font-size:12px}
pre.stderr{background:#f4f1e8;border:1px solid var(--line);padding:6px;max-width:900px;white-space:pre-wrap;font-size:12px}
table.grid td.reason{white-space:normal;min-width:14em;max-width:36em}
td.reason,#status,#faults,pre.stderr,.live-moves li{overflow-wrap:anywhere}
.live-moves li.latest{background:var(--hi);font-weight:600}
"""

#: Each ``update`` event's data is ``{"version": V, "games": N, "html": {id: fragment}}``.
LIVE_JS = """
(function(){
  var conn = document.getElementById('conn');
  var es = new EventSource(document.body.dataset.events || '/events');
  function put(ev){
    var data = JSON.parse(ev.data);
    for (var id in data.html) { var el = document.getElementById(id); if (el) el.innerHTML = data.html[id]; }
    return data;
  }
  es.addEventListener('update', function(ev){
    var data = put(ev);
    document.body.dataset.version = data.version;
    document.body.dataset.games = data.games;
  });
  // A game's own page keeps its latest move in view (a long game's list outgrows the window).
  function latest(){ var li = document.querySelector('#live-game li.latest'); if (li) li.scrollIntoView({block: 'nearest'}); }
  latest();
  es.addEventListener('live', function(ev){ document.body.dataset.live = put(ev).version; latest(); });
  // A game in progress that has just finished: its page becomes the viewer of its record.
  es.addEventListener('finished', function(){ es.close(); location.reload(); });
  es.onopen = function(){ document.body.classList.add('live'); conn.textContent = 'live'; };
  es.onerror = function(){ document.body.classList.remove('live'); conn.textContent = 'reconnecting…'; };
})();
"""


def page(title: str, body: str, script: str = "", events: str = "/events") -> str:
    """A whole page: the report's CSS, ``body``, and ``script`` inline (``events``: the stream
    :data:`LIVE_JS` listens to)."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}{EXTRA_CSS}</style>\n</head>\n"
            f"<body data-events=\"{esc(events)}\">\n"
            f"<header><h1>{esc(title)}</h1><p class=\"sub\">arena {esc(__version__)} · "
            f"<span class=\"live-dot\"></span><span id=\"conn\">{'connecting…' if script else 'snapshot'}</span>"
            f"</p></header>\n{body}" + (f"<script>{script}</script>\n" if script else "") + "</body>\n</html>\n")


def title_of(snapshot: Snapshot, fallback: str) -> str:
    config = snapshot.config or {}
    name = config.get("id") if isinstance(config.get("id"), str) else fallback
    game = config.get("game") if isinstance(config.get("game"), str) else None
    return f"arena: {name}" + (f" ({game})" if game else "")


def leaderboard_page(snapshot: Snapshot, live: LiveSnapshot, fallback_title: str) -> str:
    """The live page: the fragments as they are now, then the script that keeps them current."""
    parts = fragments(snapshot)
    body = (f'<section><p id="status">{parts["status"]}</p></section>\n'
            '<div class="cols">'
            f'<section><h2>Leaderboard</h2><div id="leaderboard">{parts["leaderboard"]}</div></section>\n'
            f'<section><h2>In progress</h2><div id="live">{live_table(live)}</div></section></div>\n'
            f'<section><div id="plot">{parts["plot"]}</div></section>\n'
            f'<section><h2>Latest games</h2><div id="latest">{parts["latest"]}</div></section>\n')
    return page(title_of(snapshot, fallback_title), body, LIVE_JS)


def event_data(snapshot: Snapshot) -> str:
    """The ``update`` event's data (one line of JSON) for ``snapshot``."""
    return json.dumps({"version": snapshot.version, "games": len(snapshot.rows), "html": fragments(snapshot)},
                      separators=(",", ":"))


def live_data(live: LiveSnapshot, game: int | None = None) -> str:
    """The ``live`` event's data: ``{"version": V, "html": {"live": the games in progress}}``, or
    for the page of game ``game`` its whole list of moves (``live-game``)."""
    if game is None:
        html_ = {"live": live_table(live)}
    else:
        found = next((g for g in live.games if g.index == game), None)
        html_ = {"live-game": live_moves(found) if found is not None else
                 '<p class="dim">This game is no longer being played.</p>'}
    return json.dumps({"version": live.version, "html": html_}, separators=(",", ":"))


def live_table(live: LiveSnapshot) -> str:
    """The games in progress: players, plies so far, the last moves and when the last one came."""
    if not live.games:
        return '<p class="dim">No game in progress.</p>'
    out = [('<table class="grid" id="live-table"><thead><tr><th class="num">#</th><th>Players</th>'
            '<th class="num">Plies</th><th>Last moves</th><th>Last move at</th></tr></thead><tbody>')]
    for game in live.games:
        last = game.steps[-LAST_MOVES:]
        first = game.plies - len(last) + 1
        moves = "".join(_move(game, first + k, step) for k, step in enumerate(last)) or '<span class="dim">–</span>'
        out.append(f'<tr data-live="{game.index}"><td class="num"><a href="/game/{game.index}">{game.index}</a></td>'
                   f"<td>{' – '.join(agent_link(p) for p in game.players)}</td>{_num(game.plies)}"
                   f'<td class="moves">{"…" if first > 1 else ""}{moves}</td><td>{_clock(game.updated)}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def _move(game: LiveGame, number: int, step: dict[str, Any]) -> str:
    who, what = step_text(game, step)
    return f'<span class="mv" title="{esc(who)}"><b>{number}.</b>{esc(what)}</span>'


def _clock(seconds: float) -> str:
    """A moment as this machine's local time of day (a page is watched while the run plays)."""
    import time

    return time.strftime("%H:%M:%S", time.localtime(seconds)) if seconds else "–"


def _started(iso: str) -> str:
    """A live file's ISO start time as local date and time, or as it is when it does not parse."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return iso


LATEST_CLASS = ' class="latest"'


def live_moves(game: LiveGame) -> str:
    """Every move of a game in progress, numbered, with who played it; the latest one marked
    (``li.latest``, which :data:`LIVE_JS` keeps in view)."""
    last = len(game.steps) - 1
    items = "".join(f"<li{LATEST_CLASS if k == last else ''}><b>{esc(who)}</b> {esc(what)}{_ms(step)}</li>"
                    for k, step in enumerate(game.steps) for who, what in (step_text(game, step),))
    earlier = f'<p class="dim">The latest {len(game.steps)} moves:</p>' if game.dropped else ""
    return (f"<p>{' – '.join(agent_link(p) for p in game.players)} · started {esc(_started(game.started))} · "
            f"{game.plies} plies · last move at {_clock(game.updated)}</p>{earlier}"
            + (f'<ol class="live-moves" start="{game.dropped + 1}">{items}</ol>' if items else
               '<p class="dim">No move yet.</p>'))


def _ms(step: dict[str, Any]) -> str:
    """The thinking time a move was charged, when its line says (a two-player move: ``ms``)."""
    ms = step.get("ms", step.get("charged_ms"))
    return f' <span class="dim">{ms:.0f} ms</span>' if isinstance(ms, int | float) and not isinstance(ms, bool) else ""


def live_game_page(snapshot: Snapshot, game: LiveGame, fallback_title: str) -> str:
    """The page of a game in progress: its moves, kept current by ``/events?game=N``; it becomes
    the game's viewer (a reload) once the game is in ``games.jsonl``."""
    body = ('<nav><p><a href="/">← leaderboard</a></p></nav>\n'
            f'<section><h2>Game {game.index}: in progress</h2><div id="live-game">{live_moves(game)}</div></section>\n')
    return page(f"{title_of(snapshot, fallback_title)}: game {game.index}", body, LIVE_JS,
                events=f"/events?game={game.index}")


def fragments(snapshot: Snapshot) -> dict[str, str]:
    """The live parts of the leaderboard page, by element id (:data:`FRAGMENTS`)."""
    standings = snapshot.standings
    rows = (standings or {}).get("standings")
    counted = (standings or {}).get("games")
    games = len(snapshot.rows)
    status = f"{games} game{'s' if games != 1 else ''} finished"
    if isinstance(counted, int) and counted != games:
        status += f"; standings of {counted} (the run rewrites them as games end)"
    if snapshot.error:
        status += f' · <span class="error">{esc(snapshot.error)}</span>'
    return {
        "status": status,
        "leaderboard": leaderboard_table(standings) if standings and rows else '<p class="dim">No standings yet.</p>',
        "plot": elo_plot(rows) + terminations_section(standings) if standings and rows else "",
        "latest": games_table(snapshot.rows[-LATEST:][::-1]) if snapshot.rows else '<p class="dim">No game has finished yet.</p>',
    }


def agent_link(agent: str) -> str:
    return f'<a href="/agent/{quote(agent, safe="")}">{esc(agent)}</a>'


def _num(value: Any, digits: int = 0, suffix: str = "") -> str:
    """A numeric cell as the report writes numbers (never ``-0.00``); ``–`` for no number."""
    text = "–" if isinstance(value, bool) or not isinstance(value, int | float) else number_text(value, digits, suffix)
    return f'<td class="num">{text}</td>'


def leaderboard_table(standings: dict[str, Any]) -> str:
    """Rank, agent, Elo with its 95% interval, games and score; W/D/L for two players, wins and
    the average rank for N seats (``standings.json`` with ``players``)."""
    seated = is_seat_standings(standings)
    heads = ["Rank", "Agent", "Elo", "95% interval", "Games"]
    heads += ["Wins", "Avg rank", "Score"] if seated else ["W", "D", "L", "Score"]
    out = ['<table class="grid" id="leaderboard-table"><thead><tr>',
           "".join(f"<th{'' if h == 'Agent' else ' class=num'}>{h}</th>" for h in heads), "</tr></thead><tbody>"]
    for row in standings.get("standings") or ():
        if not isinstance(row, dict):
            continue
        agent = str(row.get("id", "?"))
        low, high = row.get("elo_low"), row.get("elo_high")
        interval = (f"{number_text(low)} … {number_text(high)}" if isinstance(low, int | float) and isinstance(high, int | float)
                    else "–")
        cells = [_num(row.get("rank")), f"<td>{agent_link(agent)}</td>", _num(row.get("elo"), 1),
                 f'<td class="num">{interval}</td>', _num(row.get("games"))]
        if seated:
            cells += [_num(row.get("wins")), _num(row.get("avg_rank"), 2), _num(row.get("score_pct"), 1, "%")]
        else:
            cells += [_num(row.get("wins")), _num(row.get("draws")), _num(row.get("losses")),
                      _num(row.get("score_pct"), 1, "%")]
        out.append(f'<tr data-agent="{esc(agent)}">{"".join(cells)}</tr>')
    out.append("</tbody></table>")
    return "".join(out)


def games_table(rows: Any) -> str:
    """Finished games, one line each, linking to ``/game/N`` and the agents' pages."""
    out = [('<table class="grid games"><thead><tr><th class="num">#</th><th>Players</th><th>Result</th>'
            '<th>Termination</th><th class="num">Plies</th><th>Reason</th></tr></thead><tbody>')]
    for row in rows:
        game = ranked(row)
        if game is None:
            continue
        if "seats" in row:
            order = sorted(range(len(game.seats)), key=lambda k: (game.ranks[k], k))
            players = ", ".join(agent_link(game.seats[k]) for k in order)
            result = esc(finishing_order(game.seats, game.ranks))
        else:
            players = f"{agent_link(game.seats[0])} – {agent_link(game.seats[1])}"
            result = esc(result_text(str(row.get("winner", "?")), game.termination))
        out.append(f'<tr data-game="{game.index}"><td class="num"><a href="/game/{game.index}">{game.index}</a></td>'
                   f"<td>{players}</td><td>{result}</td><td>{esc(game.termination)}</td>"
                   f"{_num(row.get('plies'))}<td class=\"reason\">{esc(str(row.get('reason', '')))}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


def agent_page(snapshot: Snapshot, record: AgentRecord, standing: dict[str, Any] | None,
               stderr: dict[int, str | None], fallback_title: str) -> str:
    """An agent's page: its line of the standings, results by opponent, faults with their reasons
    and stderr tails (``stderr``: by game index), and every game it played, latest first."""
    parts = ['<nav><p><a href="/">← leaderboard</a></p></nav>\n']
    if standing is not None:
        parts.append(f'<section><h2>Standing</h2>{leaderboard_table({**(snapshot.standings or {}), "standings": [standing]})}'
                     "</section>\n")
    if record.versions:
        latest = max(record.versions.values(), key=lambda v: v.last).version
        parts.append(f'<section><h2>Versions ({len(record.versions)})</h2><table class="grid versions" id="versions">'
                     '<thead><tr><th>Version</th><th class="num">Games</th><th class="num">First game</th>'
                     '<th class="num">Last game</th><th class="num">Count now</th><th class="num">Score</th></tr>'
                     '</thead><tbody>')
        for ver in record.versions.values():
            now = ' <span class="dim">(latest)</span>' if ver.version == latest else ""
            parts.append(f'<tr><td><code title="{esc(ver.version)}">{esc(ver.version[:16])}</code>{now}</td>'
                         f'{_num(ver.games)}<td class="num"><a href="/game/{ver.first}">{ver.first}</a></td>'
                         f'<td class="num"><a href="/game/{ver.last}">{ver.last}</a></td>{_num(ver.counting)}'
                         f'{_num(ver.score_pct, 1, "%")}</tr>')
        parts.append("</tbody></table></section>\n")
    parts.append('<section><h2>Results by opponent</h2><table class="grid" id="versus"><thead><tr><th>Opponent</th>'
                 '<th class="num">Games</th><th class="num">W</th><th class="num">D</th><th class="num">L</th>'
                 '<th class="num">Score</th></tr></thead><tbody>')
    for other, v in record.versus.items():
        parts.append(f'<tr><td>{agent_link(other)}</td>{_num(v.games)}{_num(v.wins)}{_num(v.draws)}{_num(v.losses)}'
                     f"{_num(v.score_pct, 1, '%')}</tr>")
    parts.append("</tbody></table>")
    if record.history:
        parts.append(f'<p class="dim" id="history">Of the games that count now, as in the standings; '
                     f'{record.history} more are history (an earlier version of a player, or an opponent '
                     'no longer in the field): in the versions above and the games below.</p>')
    parts.append("</section>\n")
    parts.append(f'<section id="faults"><h2>Faults ({len(record.faults)})</h2>')
    if not record.faults:
        parts.append('<p class="dim">None: every game ended by the rules.</p>')
    else:
        kinds: dict[str, int] = {}
        for fault in record.faults:
            kinds[fault.termination] = kinds.get(fault.termination, 0) + 1
        parts.append(f'<p>{", ".join(f"{esc(k)}: {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))} '
                     '<span class="dim">(latest first)</span></p>')
    for fault in record.faults[::-1][:FAULTS_SHOWN]:
        tail = stderr.get(fault.index)
        parts.append(f'<h3>Game <a href="/game/{fault.index}">{fault.index}</a>: {esc(fault.termination)}</h3>'
                     f"<p>{esc(fault.reason)}</p>")
        parts.append(f'<pre class="stderr">{esc(tail)}</pre>' if tail else
                     f'<p class="dim">No stderr kept ({esc(fault.stderr)}).</p>')
    if len(record.faults) > FAULTS_SHOWN:
        parts.append(f'<p class="dim">and {len(record.faults) - FAULTS_SHOWN} earlier ones (in the games below).</p>')
    parts.append("</section>\n")
    parts.append(f"<section><h2>Games ({len(record.games)})</h2>{games_table(row for row, _ in reversed(record.games))}"
                 "</section>\n")
    return page(f"{title_of(snapshot, fallback_title)}: {record.id}", "".join(parts))
