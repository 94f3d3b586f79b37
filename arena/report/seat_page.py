"""The HTML pages of N-seat games: one game (``arena replay RECORD --html FILE [--seat K]``) and
a tournament's report (``arena report LOGDIR`` of format-3 records, :func:`seat_report_html`).

Both are the page of :mod:`arena.report.html` (one self-contained file, no network, opens from
``file://``; the report's sections from :mod:`arena.report.sections`) with this module's viewer in
place of the two-player one: :data:`SEAT_VIEWER_HTML` and :data:`SEAT_VIEWER_JS`. Each position's picture is the string the game's SVG function returns
(``GameSpec.svg``: ``board_svg(state_json, seat)``, omniscient or as seat K sees it), stored as
pieces and frame edits (:mod:`arena.report.frames`) with its CRC for the self-test. A game without
an SVG function gets its ``board_text`` (for the same seat) set in an SVG ``<text>`` block.

Data blocks: ``arena-data`` (title, mode ``"game"`` or ``"report"``, the game list's rows
(:func:`seat_row`), ``arena-pieces``, ``arena-starts``, ``arena-game-N``: the steps as the viewer is told them
(:mod:`arena.records.seat_replay`), the seats (final return and rank), the seats acting at each
position, the clocks, the frames and the CRCs.

The page: the board, buttons and a slider, the seats (with their final returns and ranks, who acts
now, who is out, the clocks), the step list (click a step to jump), the result with its reason at
the end. Keys: ArrowRight/ArrowLeft, Home/End, PageDown/PageUp (ten steps), Escape back to the
report. ``#game=N&ply=K`` opens game ``N`` at position ``K`` (``#ply=K`` on a one-game page);
``#selftest`` (``#selftest=N``, ``#selftest=all`` in a report) steps through every position with real ``keydown`` events and
compares each board's CRC with Python's (as the two-player viewer's self-test does), writing
``PASS game=N steps=S keys=K ms=T`` or ``FAIL ...`` into ``<pre id="selftest">``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

from arena.records.reader import finishing_order
from arena.records.replay import GameEntry, Source
from arena.records.seat_replay import SeatReplay
from arena.records.seats import is_seat_record
from arena.report.frames import PieceTable, boards_digest, position_key
from arena.report.html import Drawn, Progress, ReportError, _json_block, build_page, text_picture
from arena.report.sections import report_body
from arena.report.viewer import JS_COMMON, JS_PAGE


def seat_svg_renderer(replay: SeatReplay) -> Callable[[Any], str]:
    """``draw(state) -> svg`` for the replay's viewer: the registry's ``board_svg(state_json, seat)``,
    else the game's ``board_text(state, seat)`` in an SVG ``<text>`` block."""
    from arena.games.registry import get_spec, load_ref

    game, seat = replay.game, replay.seat
    try:
        ref = get_spec(game.name).svg
    except Exception:  # noqa: BLE001 - a game given directly (tests), not registered: drawn as text
        ref = None
    if ref is not None:
        function = load_ref(ref)

        def draw_svg(state: Any) -> str:
            return str(function(game.state_to_json(state), seat))

        return draw_svg

    def text_svg(state: Any) -> str:
        return text_picture(game.board_text(state, seat))

    return text_svg


def seat_game_payload(replay: SeatReplay, pieces: PieceTable) -> dict[str, Any]:
    """The ``arena-game-N`` object of ``replay``; ReportError when a position cannot be drawn."""
    draw = seat_svg_renderer(replay)
    frames: list[str] = []
    hashes: list[str] = []
    previous: list[int] | None = None
    previous_key: Hashable | None = None
    # The picture is the seat's view of the state under these rules (their parameters included).
    rules = json.dumps(replay.game.identity(), sort_keys=True, default=str)
    for i in range(replay.last + 1):
        state = replay.states[i]
        key = position_key(rules, replay.seat, state)
        try:
            numbers, crc = pieces.board(key, lambda: draw(state))  # noqa: B023 - called at once
        except Exception as exc:  # noqa: BLE001 - a renderer's bug: one line naming the position
            raise ReportError(f"{replay.label}: cannot draw position {i}: {type(exc).__name__}: {exc}") from None
        frames.append(pieces.frame((previous_key, key) if i else (None, None), previous, numbers))
        hashes.append(crc)
        previous, previous_key = numbers, key
    clocks = [replay.clocks_at(i) for i in range(replay.last + 1)]
    return {
        "title": replay.title(),
        "view": replay.view_text(),
        "seat": replay.seat,
        "note": f"{replay.view_text()} · seed {replay.record.get('seed')}",
        "names": [replay.seat_label(s) for s in range(replay.players)],
        # Per seat: name, bot, final return, final rank (and how it went out).
        "seat_rows": [[name, seat_id, ret.removeprefix("return "), rank.removeprefix("rank ")]
                      for name, seat_id, ret, rank in replay.seat_rows()],
        "steps": [replay.step_text(k) for k in range(replay.last)],
        "details": [replay.step_detail(k) for k in range(replay.last)],
        "kinds": "".join(step.kind[0] for step in replay.steps),  # c, m, j, e
        "out": [step.actors[0] if step.kind == "elimination" else None for step in replay.steps],
        "acting": [list(replay.acting(i)) for i in range(replay.last + 1)],
        "clocks": None if clocks[0] is None else [
            [None if c is None or s not in c else round(c[s]) for s in range(replay.players)] for c in clocks],
        "result": replay.result(),
        "reason": replay.reason,
        "frames": frames,
        "crc": boards_digest(hashes),
    }


def seat_row(entry: GameEntry, replay: SeatReplay) -> list[Any]:
    """The game list's row of an N-seat game: ``[index, seats, finishing order, returns,
    termination, steps, game, reason]`` (the two-player list's columns, see :mod:`arena.report.html`)."""
    ids = replay.seat_ids()
    return [entry.index, ", ".join(ids), finishing_order(ids, replay.ranks()),
            ", ".join(f"{r:g}" for r in replay.returns()), replay.termination, replay.last, replay.game.name,
            replay.reason]


def draw_seat_games(games: Iterable[tuple[GameEntry, SeatReplay]], total: int,
                    progress: Progress | None = None) -> Drawn:
    """Encode N-seat ``games`` (``total`` of them, for ``progress``); no two-player results. Raises
    ReportError."""
    drawn = Drawn(results=None)
    for done, (entry, replay) in enumerate(games, 1):
        drawn.blocks.append(_json_block(f"arena-game-{entry.index}", seat_game_payload(replay, drawn.pieces)))
        drawn.rows.append(seat_row(entry, replay))
        if progress is not None:
            progress(done, total)
    return drawn


def iter_seat_games(source: Source) -> Iterator[tuple[GameEntry, SeatReplay]]:
    """Every game of ``source`` as an N-seat replay, one at a time; ReportError for a two-player
    game among them (one report holds one kind), ReplayError for one that cannot be replayed."""
    for entry in source.entries:
        record = source.load(entry)
        label = f"{source.label} game {entry.index}"
        if not is_seat_record(record):
            raise ReportError(f"{label}: a two-player game among games of N seats; a report holds one kind "
                              "(write them to two files)")
        yield entry, SeatReplay.from_record(record, label=label)


def seat_report_html(source: Source, *, title: str | None = None, progress: Progress | None = None,
                     before: str = "") -> str:
    """The report page of a tournament of N-seat games: the folder's ``standings.json`` (N-seat
    shape) as sortable standings with rank bars, the seat table, the pairwise table and how games
    ended (:mod:`arena.report.sections`), the game list, and the N-seat viewer for every game.
    Raises ReplayError or ReportError (one line)."""
    from arena.report.html import source_standings

    drawn = draw_seat_games(iter_seat_games(source), len(source.entries), progress)
    body = before + report_body(source_standings(source, None), seats=True)
    return build_page(title or f"arena report: {source.label}", "report", drawn, body,
                      viewer=SEAT_VIEWER_HTML, script=SEAT_JS, css=SEAT_CSS)


def seat_viewer_html(entry: GameEntry, replay: SeatReplay) -> str:
    """The page of one N-seat game (see the module docstring)."""
    title = replay.title() + ("" if replay.seat is None else f", as seat {replay.seat} saw it")
    return build_page(title, "game", draw_seat_games([(entry, replay)], 1), "", viewer=SEAT_VIEWER_HTML,
                      script=SEAT_JS, css=SEAT_CSS)


SEAT_VIEWER_HTML = """\
<div id="viewer" class="seatview" hidden><div class="panel">
<div class="vhead"><h2 id="v-title"></h2><button id="v-close" title="Close (Esc)">&#x2715; close</button></div>
<p id="v-note" class="dim"></p>
<div class="vbody">
<div class="vleft"><div id="board" class="board"></div>
<div class="controls"><button id="b-first" title="First (Home)">|&#x25C0;</button><button id="b-prev" title="Previous (&#x2190;)">&#x25C0;</button><input type="range" id="slider" min="0" max="0" value="0" aria-label="position"><button id="b-next" title="Next (&#x2192;)">&#x25B6;</button><button id="b-last" title="Last (End)">&#x25B6;|</button></div>
<div id="v-ply" class="dim"></div></div>
<div class="vright">
<table id="seats" class="grid"><thead><tr><th>Seat</th><th>Bot</th><th class="num">Return</th><th>Rank</th><th>Now</th></tr></thead><tbody></tbody></table>
<div id="v-status"></div>
<div id="moves" tabindex="-1"></div>
<div id="result"></div>
</div></div>
<p class="keys dim">&#x2190; &#x2192; step · Home/End first/last · PgUp/PgDn 10 steps · click a step to jump<span class="closekey"> · Esc back to the report</span></p>
</div></div>
"""

SEAT_CSS = """
.seatview .board{aspect-ratio:auto;min-height:240px;padding:6px}
#seats{margin-bottom:8px;width:100%}
#seats tr.acting td{font-weight:700;background:#eef4fb}
#seats tr.out td{color:var(--dim)}
#seats td.now{font-variant-numeric:tabular-nums}
#moves .step{padding:0 8px;cursor:pointer;white-space:pre}
#moves .step:hover{background:#eef4fb}
#moves .step.k-c{color:var(--dim)}
#moves .step.k-e{color:#a01c1c}
#moves .step.cur{background:var(--hi);font-weight:700;color:var(--fg)}
"""

#: The N-seat viewer: the names :data:`arena.report.viewer.JS_PAGE` calls (``openGame``,
#: ``closeGame``, ``setupViewer``, ``selftestGame``), for ``arena-game-N`` blocks of
#: :func:`seat_game_payload`.
SEAT_VIEWER_JS = r"""
let V = null;
function openGame(index, ply) {
  if (!V || V.index !== index) {
    const found = gameData(index);
    if (!found) { alert("No game " + index + " in this file."); return false; }
    const g = found.g;
    V = {index, g, positions: decodeFrames(g.frames, found.starts), last: g.steps.length, pos: -1, cells: [], pieces: found.pieces};
    const frag = document.createDocumentFragment();
    const width = String(V.last).length + 1;
    for (let k = 0; k < V.last; k++) {
      const cell = el("div", "step k-" + g.kinds[k], (String(k + 1) + ".").padStart(width) + " " + g.steps[k]);
      cell.dataset.k = k;
      if (g.details[k]) cell.title = g.details[k];
      frag.appendChild(cell);
      V.cells.push(cell);
    }
    if (!V.last) frag.appendChild(el("div", "step dim", "(no steps)"));
    $("moves").replaceChildren(frag);
    const rows = document.createDocumentFragment();
    g.seat_rows.forEach((r, s) => {
      const tr = el("tr");
      tr.id = "seat-" + s;
      for (const [text, cls] of [[r[0], ""], [r[1], ""], [r[2], "num"], [r[3], ""], ["", "now"]]) tr.appendChild(el("td", cls, text));
      rows.appendChild(tr);
    });
    $("seats").tBodies[0].replaceChildren(rows);
    $("v-title").textContent = g.title;
    $("v-note").textContent = g.note;
    $("slider").max = V.last;
  }
  $("viewer").hidden = false;
  show(ply === undefined ? 0 : ply);
  return true;
}
function closeGame() { $("viewer").hidden = true; }
function show(i) {
  if (!V) return;
  i = Math.max(0, Math.min(V.last, i | 0));
  const g = V.g;
  const svg = V.positions[i].map(n => V.pieces[n]).join("");
  const board = $("board");
  board.innerHTML = svg;
  board.dataset.ply = String(i);
  board.dataset.state = crc32hex(svg);
  if (V.pos > 0 && V.cells[V.pos - 1]) V.cells[V.pos - 1].classList.remove("cur");
  V.pos = i;
  if (i > 0) { const c = V.cells[i - 1]; c.classList.add("cur"); const box = $("moves"); const top = c.offsetTop - box.offsetTop; if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 24) box.scrollTop = top - box.clientHeight / 2; }
  $("slider").value = String(i);
  $("v-ply").textContent = "step " + i + " of " + V.last;
  const status = $("v-status");
  status.replaceChildren();
  if (i === 0) status.appendChild(el("b", "", "start (" + V.last + " steps)"));
  else {
    status.appendChild(el("b", "", i + ". " + g.steps[i - 1]));
    if (g.details[i - 1]) status.appendChild(el("span", "dim", "  " + g.details[i - 1]));
  }
  const out = new Set(g.out.slice(0, i).filter(s => s !== null));
  for (let s = 0; s < g.names.length; s++) {
    const row = $("seat-" + s), acting = g.acting[i].includes(s);
    row.className = (acting ? "acting" : "") + (out.has(s) ? " out" : "");
    const parts = [];
    if (acting) parts.push("to act");
    if (out.has(s)) parts.push("out");
    if (g.clocks && g.clocks[i][s] !== null) parts.push(fmtClock(g.clocks[i][s]));
    row.querySelector(".now").textContent = parts.join(" · ");
  }
  const result = $("result");
  result.replaceChildren();
  if (i === V.last) { result.appendChild(el("div", "res", "Result: " + g.result)); if (g.reason) result.appendChild(el("div", "", g.reason)); }
}
function setupViewer() { setupControls(".step"); }
function selftestGame(index) {
  const started = performance.now();
  let keys = 0;
  try {
    if (!openGame(index, 0)) throw new Error("no game " + index);
    const g = V.g, last = V.last;
    const key = name => { document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true, cancelable: true})); keys += 1; };
    const seen = [];  // each step's board CRC, as first shown
    const check = (want, what) => {
      const board = $("board"), svg = board.firstElementChild;
      if (!svg || svg.tagName.toLowerCase() !== "svg") throw new Error(what + ": no <svg> board at step " + want);
      if (board.dataset.ply !== String(want)) throw new Error(what + ": board shows step " + board.dataset.ply + ", expected " + want);
      if (seen.length === want) seen.push(board.dataset.state);
      else if (board.dataset.state !== seen[want]) throw new Error(what + ": step " + want + " board crc " + board.dataset.state + " != " + seen[want] + " shown before");
      if (want > 0 && !V.cells[want - 1].classList.contains("cur")) throw new Error(what + ": step " + want + " not highlighted");
    };
    key("Home"); check(0, "Home");
    for (let k = 1; k <= last; k++) { key("ArrowRight"); check(k, "ArrowRight"); }
    key("ArrowRight"); check(last, "ArrowRight past the end");
    if (crc32hex(seen.join("")) !== g.crc) throw new Error("the boards' crc " + crc32hex(seen.join("")) + " != record's " + g.crc);
    if (!$("result").textContent.includes(g.result)) throw new Error("result not shown at the end");
    for (let k = last - 1; k >= 0; k--) { key("ArrowLeft"); check(k, "ArrowLeft"); }
    key("End"); check(last, "End");
    key("Home"); check(0, "Home");
    if (ERRORS.length) throw new Error(ERRORS.length + " page error(s): " + ERRORS[0]);
    return "PASS game=" + index + " steps=" + last + " keys=" + keys + " ms=" + (performance.now() - started).toFixed(1);
  } catch (e) {
    return "FAIL game=" + index + " after " + keys + " key presses: " + (e && e.message ? e.message : e);
  }
}
"""

#: The script of an N-seat page (a report or one game).
SEAT_JS = JS_COMMON + SEAT_VIEWER_JS + JS_PAGE

__all__ = ["SEAT_CSS", "SEAT_JS", "SEAT_VIEWER_HTML", "SEAT_VIEWER_JS", "draw_seat_games", "iter_seat_games",
           "seat_game_payload", "seat_report_html", "seat_row", "seat_svg_renderer", "seat_viewer_html"]
