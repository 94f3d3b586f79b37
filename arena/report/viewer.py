"""The report page's CSS and JavaScript, as Python strings (no package data to ship).

The script (no libraries, no network) is :data:`JS_COMMON`, the viewer :data:`JS_VIEWER` (every
game: a paired game's board, numbered moves and both clocks; any other game's seats, steps and
each seat's view) and :data:`arena.report.page_script.JS_PAGE`:

- fills the game list from ``arena-data`` (filter box, click a column header to sort) and opens a
  game on a click, through the address's fragment (``#game=N``, ``&ply=K``), so Back closes it;
- the viewer parses ``arena-game-N`` only when game ``N`` is opened, rebuilds each position's
  board from the pieces (:mod:`arena.report.frames`) and puts the registry renderer's SVG string
  into ``#board``, whose ``data-ply`` is the position shown and ``data-state`` the CRC-32 of the SVG
  string it holds;
- keys: ArrowRight/ArrowLeft step, Home/End, PageUp/PageDown ten moves, Escape closes; a slider, a
  clickable move list, both clocks, and the result with its reason at the last position;
- sortable tables (``table.sortable``: the standings, the seats): a click on a header sorts by
  its cells' ``data-v`` (numbers as numbers, cells without a value last), a second click reverses;
- ``#selftest=N``: in a report, checks the game list first (every game listed, the filter shows only
  matching games, sorting by plies puts the longest first) and the standings' sorting (by games,
  both ways); then opens game ``N`` and steps through
  it by dispatching real ``keydown`` events on ``document`` (Home, ArrowRight to the end and one
  more, ArrowLeft back to the start, End, Home), checking after every key that ``#board`` shows the
  expected position, that its ``data-state`` (the CRC of the SVG string it put there) is the same
  at every visit of a position, and that the CRC of those CRCs in ply order equals the one Python
  computed from the renderer's output for the record's states (the payload's ``crc``,
  :func:`arena.report.frames.boards_digest`); at the end the result and reason must be shown. Errors
  (``window.onerror``, unhandled rejections, ``console.error``) are recorded from the first line of
  the script. The outcome goes into ``<pre id="selftest">``: ``PASS game=N plies=P steps=S ms=T`` or
  ``FAIL ...`` with the first mismatch or error; a report's line adds the list's figures (``list=``,
  ``filtered=``, ``ready_ms=`` from navigation to a usable list, ``filter_ms=`` and ``sort_ms=`` of
  one filter pass and one sort over every game). ``#selftest=all`` tests every game, one line each;
  ``&boards`` adds each ply's board CRC to a game's line (``boards=c0,c1,...``).
  The verdict is written 200 ms after the steps, so that errors thrown later by timers count too.
"""

from __future__ import annotations

CSS = """
:root{--fg:#1d232a;--dim:#6b7480;--bg:#fbfaf7;--card:#fff;--line:#dcd8cf;--accent:#2f6db3;--hi:#ffe9a8}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:14px 24px 6px}
h1{font-size:20px;margin:0}
h2{font-size:16px;margin:18px 0 8px}
.sub,.dim{color:var(--dim)}
.small{font-size:12px}
section{padding:0 24px 8px}
.split{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
table.grid,table.list{border-collapse:collapse;background:var(--card)}
table.grid th,table.grid td,table.list th,table.list td{border:1px solid var(--line);padding:3px 8px;text-align:left;white-space:nowrap}
table.grid th,table.list th{background:#f0ede6;font-weight:600}
td.num,th.num,table.grid td.num,table.grid th.num{text-align:right;font-variant-numeric:tabular-nums}
td.self,table.grid td.self{text-align:center;color:var(--dim)}
#terminations table{display:inline-table;margin-right:18px;vertical-align:top}
.eloplot{background:var(--card);border:1px solid var(--line)}
.eloplot .tick{stroke:#e6e2da}.eloplot .zero{stroke:#9aa3ad;stroke-dasharray:3 3}
.eloplot .axis{font-size:11px;fill:var(--dim)}.eloplot .name{font-size:12px;fill:var(--fg)}
.eloplot .ci{stroke:var(--accent);stroke-width:2}.eloplot .elo{fill:var(--accent)}
.filterbar{display:flex;gap:12px;align-items:center;margin-bottom:6px}
#filter{width:340px;padding:4px 8px;border:1px solid var(--line);border-radius:4px}
table.list{width:100%}
table.list th{cursor:pointer;user-select:none}
table.list th.asc::after{content:" \\25B2"}table.list th.desc::after{content:" \\25BC"}
table.list tbody tr{cursor:pointer}
table.list tbody tr:hover{background:#eef4fb}
table.list td.reason{white-space:normal;color:var(--dim);font-size:12px}
#viewer{position:fixed;inset:0;background:rgba(20,24,30,.45);display:flex;align-items:flex-start;justify-content:center;overflow:auto;z-index:10}
#viewer[hidden]{display:none}
.mode-game #viewer{position:static;background:none;display:block}
.mode-game #viewer[hidden]{display:none}
.mode-game .closekey,.mode-game .vhead{display:none}
.panel{background:var(--bg);margin:18px;padding:14px 18px;border-radius:8px;box-shadow:0 6px 30px rgba(0,0,0,.25);max-width:1200px;width:100%}
.mode-game .panel{box-shadow:none;margin:0 auto}
.vhead{display:flex;justify-content:space-between;align-items:center;gap:12px}
.vhead h2{margin:0}
.vbody{display:flex;gap:22px;flex-wrap:wrap;align-items:flex-start}
.vleft{flex:0 0 auto}
.board{width:min(560px,calc(100vw - 80px));aspect-ratio:1/1;display:flex;align-items:center;justify-content:center;background:var(--card);border:1px solid var(--line)}
.board svg{width:100%;height:100%;display:block}
.controls{display:flex;gap:6px;align-items:center;margin-top:8px}
.controls input{flex:1}
.controls button,#v-close{font-size:14px;padding:3px 9px;border:1px solid var(--line);background:var(--card);border-radius:4px;cursor:pointer}
.vright{flex:1 1 300px;min-width:280px}
#clocks{display:flex;gap:10px;margin-bottom:8px}
.clock{flex:1;border:1px solid var(--line);border-radius:6px;padding:6px 10px;background:var(--card)}
.clock .who{font-size:12px;color:var(--dim)}
.clock .time{font:600 22px/1.2 ui-monospace,"DejaVu Sans Mono",monospace}
.clock.tomove{border-color:var(--accent);box-shadow:0 0 0 2px rgba(47,109,179,.2)}
#v-status{min-height:22px;margin-bottom:6px}
#moves{max-height:400px;overflow:auto;border:1px solid var(--line);background:var(--card);padding:4px 0;font:13px/1.6 ui-monospace,"DejaVu Sans Mono",monospace}
#moves .line{display:grid;grid-template-columns:4.5em 1fr 1fr;padding:0 8px}
#moves .lab{color:var(--dim)}
#moves .mv{cursor:pointer;padding:0 4px;border-radius:3px}
#moves .mv:hover{background:#eef4fb}
#moves .mv.op{color:var(--dim)}
#moves .mv.cur{background:var(--hi);font-weight:700}
#result{margin-top:10px;padding:8px 10px;border-radius:6px;background:#fff4d6;border:1px solid #ecd58c}
#result:empty{display:none}
#result .res{font-weight:700}
.keys{margin:10px 0 0;font-size:12px}
#selftest{white-space:pre-wrap;padding:8px 24px}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th.asc::after{content:" \\25B2"}table.sortable th.desc::after{content:" \\25BC"}
.scroll{max-height:70vh;overflow:auto;border:1px solid var(--line)}
.scroll table.grid thead th{position:sticky;top:0;z-index:1}
.cross-scroll{max-width:100%}
.cross-scroll table.cross tbody th{position:sticky;left:0;background:#f0ede6}
.cross-scroll table.cross thead th.corner{left:0;z-index:2}
table.cross td.l0{background:#f4c7c3}table.cross td.l1{background:#f8d8d4}table.cross td.l2{background:#fbe7e4}
table.cross td.l3{background:#fdf1ef}table.cross td.l7{background:#eef7ea}table.cross td.l8{background:#dcefd4}
table.cross td.l9{background:#c6e5b9}
td.ranks{padding:3px 6px}
.rbar{display:flex;width:140px;height:12px;border:1px solid var(--line);background:#eee}
.rbar span{display:block;height:100%}
"""

#: The page script's first part: error capture, data blocks, CRC-32, frame decoding, formatting.
JS_COMMON = r"""
"use strict";
const ERRORS = [];
window.addEventListener("error", e => ERRORS.push("error: " + e.message + " (" + e.filename + ":" + e.lineno + ")"));
window.addEventListener("unhandledrejection", e => ERRORS.push("unhandled rejection: " + e.reason));
(function () {
  const original = console.error;
  console.error = function (...args) { ERRORS.push("console.error: " + args.map(String).join(" ")); original.apply(console, args); };
})();

const $ = id => document.getElementById(id);
const readJSON = id => JSON.parse($(id).textContent);
const DATA = readJSON("arena-data");
let PIECES = null, STARTS = null;
const pieces = () => PIECES || (PIECES = readJSON("arena-pieces"));
const starts = () => STARTS || (STARTS = readJSON("arena-starts"));

// A game's data: its arena-game-N block in this page, or (a report of many games, see
// arena.report.chunks) the chunk file holding it, loaded by a script element on first use.
// A chunk file calls arenaChunkZ(K, "BASE64"): its data, zlib-compressed (arena.report.chunks
// chunk_file), inflated here by the browser's DecompressionStream.
const CHUNKS = {}, PACKED = {};
function arenaChunkZ(k, packed) { PACKED[k] = packed; }
async function inflateChunk(k) {
  const text = atob(PACKED[k]);
  delete PACKED[k];
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  CHUNKS[k] = JSON.parse(await new Response(stream).text());
}
let POSITION = null;  // game index -> its place in DATA.rows (which chunk holds it)
function chunkOf(index) {
  if (!DATA.chunk) return null;
  if (!POSITION) { POSITION = new Map(); DATA.rows.forEach((r, k) => POSITION.set(r[0], k)); }
  const at = POSITION.get(index);
  return at === undefined ? null : Math.floor(at / DATA.chunk.size);
}
function gameData(index) {
  const block = $("arena-game-" + index);
  if (block) return {g: JSON.parse(block.textContent), pieces: pieces(), starts: starts()};
  const k = chunkOf(index), chunk = k === null ? null : CHUNKS[k];
  const g = chunk ? chunk.games[index] : undefined;
  return g ? {g, pieces: chunk.pieces, starts: chunk.starts} : null;
}
// true once the game's data is here, else why not (a sentence); one load per chunk, however many
// games of it are asked for meanwhile.
const LOADING = {};
function ensureGame(index) {
  const k = chunkOf(index);
  if ($("arena-game-" + index) || k === null || CHUNKS[k]) return Promise.resolve(true);
  if (typeof DecompressionStream !== "function") return Promise.resolve("this browser cannot inflate it (it has no DecompressionStream)");
  if (LOADING[k]) return LOADING[k];
  return LOADING[k] = new Promise(resolve => {
    const script = document.createElement("script");
    const failed = why => { script.remove(); delete LOADING[k]; resolve(why); };
    script.src = DATA.chunk.dir + "/chunk-" + k + ".js";
    script.onload = () => {
      if (PACKED[k] === undefined) failed("it holds no chunk " + k);
      else inflateChunk(k).then(() => resolve(true), e => failed("it cannot be read: " + e));
    };
    script.onerror = () => failed("it cannot be read (it must sit beside this page)");
    document.head.appendChild(script);
  });
}
function loadAndOpen(index, ply) {
  ensureGame(index).then(ok => { if (ok === true) openGame(index, ply); else alert("Game " + index + ": its file " + DATA.chunk.dir + "/chunk-" + chunkOf(index) + ".js: " + ok + "."); });
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; }
  return t;
})();
const ENCODER = new TextEncoder();
function crc32hex(text) {
  const bytes = ENCODER.encode(text);
  let c = 0xFFFFFFFF;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
  return ((c ^ 0xFFFFFFFF) >>> 0).toString(16).padStart(8, "0");
}

// Frames (arena.report.frames): per position a string of operations on the previous position's
// piece numbers, read from its start (i): two digits alone are a piece (taking the place of the
// previous position's piece at i); an operation character is followed by its number's digits.
const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const DIGIT = new Int8Array(128).fill(-1);
for (let k = 0; k < 64; k++) DIGIT[DIGITS.charCodeAt(k)] = k;
const OPS = {"!": [0, 1], "#": [0, 2], "$": [0, 3], ")": [1, 1], "]": [1, 2], "}": [1, 3], "(": [2, 1], "[": [2, 2],
             "{": [2, 3], "~": [3, 3], "^": [3, 4], "=": [4, 1], "@": [4, 2], "*": [4, 3]};  // copy skip back piece start
function decodeFrame(prev, f, starts) {
  const cur = [];
  let i = 0, at = 0;
  while (at < f.length) {
    const d = DIGIT[f.charCodeAt(at)];
    if (d >= 0) { cur.push(d * 64 + DIGIT[f.charCodeAt(at + 1)]); at += 2; i += 1; continue; }
    const c = f[at];
    if (c === ".") return cur;
    const [kind, digits] = OPS[c];
    let n = 0;
    for (let k = 1; k <= digits; k++) n = n * 64 + DIGIT[f.charCodeAt(at + k)];
    at += 1 + digits;
    if (kind === 0) { for (const end = i + n + 1; i < end; i++) cur.push(prev[i]); }
    else if (kind === 1) i += n + 1;
    else if (kind === 2) i -= n + 1;
    else if (kind === 3) { cur.push(n); i += 1; }
    else { prev = decodeFrame([], starts[n], starts); i = 0; }
  }
  for (; i < prev.length; i++) cur.push(prev[i]);
  return cur;
}
function decodeFrames(frames, starts) {
  const out = [];
  let prev = [];
  for (const f of frames) { prev = decodeFrame(prev, f, starts); out.push(prev); }
  return out;
}

// A game that starts as an earlier one of its page or chunk did ("from": [G, K]): G's first K
// frames and K - 1 moves' notation, then its own.
function withStart(g) {
  if (!g.from) return g;
  const [first, depth] = g.from, earlier = withStart(gameData(first).g);
  return Object.assign({}, g, {frames: earlier.frames.slice(0, depth).concat(g.frames),
                               notation: earlier.notation.slice(0, depth - 1).concat(g.notation)});
}

function fmtClock(ms) {
  const tenths = Math.floor(Math.max(ms, 0) / 100);
  if (tenths >= 36000) { const s = Math.floor(tenths / 10); return Math.floor(s / 3600) + ":" + String(Math.floor(s % 3600 / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0"); }
  return Math.floor(tenths / 600) + ":" + String(Math.floor(tenths % 600 / 10)).padStart(2, "0") + "." + (tenths % 10);
}
function fmtMs(ms) { return ms < 10 ? ms.toFixed(2) + " ms" : ms < 1000 ? ms.toFixed(0) + " ms" : (ms / 1000).toFixed(2) + " s"; }
// The viewer's buttons, slider, step list and keys (both viewers: each defines show(i) and V).
function setupControls(stepSelector) {
  $("b-first").addEventListener("click", () => show(0));
  $("b-prev").addEventListener("click", () => show(V.pos - 1));
  $("b-next").addEventListener("click", () => show(V.pos + 1));
  $("b-last").addEventListener("click", () => show(V.last));
  $("slider").addEventListener("input", e => show(Number(e.target.value)));
  $("moves").addEventListener("click", e => { const c = e.target.closest(stepSelector); if (c && c.dataset.k !== undefined) show(Number(c.dataset.k) + 1); });
  $("v-close").addEventListener("click", () => { location.hash = ""; });
  $("viewer").addEventListener("click", e => { if (e.target === $("viewer") && DATA.mode === "report") location.hash = ""; });
  document.addEventListener("keydown", e => {
    if (!V || $("viewer").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && t.tagName === "INPUT" && t.type !== "range") return;
    const moves = {ArrowRight: V.pos + 1, ArrowLeft: V.pos - 1, Home: 0, End: V.last, PageDown: V.pos + 10, PageUp: V.pos - 10};
    if (e.key in moves) show(moves[e.key]);
    else if (e.key === "Escape" && DATA.mode === "report") location.hash = "";
    else return;
    e.preventDefault();
  });
}
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
"""

#: The viewer, for every game: ``openGame(index, ply)``, ``closeGame()``, ``setupViewer()`` and
#: ``selftestGame(index)`` (one verdict line), the names the page script
#: (:data:`arena.report.page_script.JS_PAGE`) calls. A paired game's ``arena-game-N`` block
#: (:func:`arena.report.html.game_payload`: it has ``movers``) shows the numbered move list and
#: both clocks; any other shows the seats (returns, ranks, who acts, who is out, clocks) and the
#: step list as the page's viewer saw them.
JS_VIEWER = r"""
// -- the viewer ------------------------------------------------------------------------------------
let V = null;
function openGame(index, ply) {
  if (!V || V.index !== index) {
    const found = gameData(index);
    if (!found) { alert("No game " + index + " in this file."); return false; }
    const paired = found.g.movers !== undefined;
    const g = paired ? withStart(found.g) : found.g;
    const last = paired ? g.notation.length : g.steps.length;
    V = {index, g, paired, positions: decodeFrames(g.frames, found.starts), clocks: paired ? pairedClocks(g) : g.clocks,
         last, pos: -1, cells: [], pieces: found.pieces};
    $("viewer").classList.toggle("seatview", !paired);
    $("clocks").hidden = !paired;
    $("seats").hidden = paired;
    for (const k of document.querySelectorAll(".unit")) k.textContent = paired ? "moves" : "steps";
    for (const k of document.querySelectorAll(".unit1")) k.textContent = paired ? "move" : "step";
    $("moves").replaceChildren(paired ? pairedList(g) : stepList(g));
    if (!paired) {
      const rows = document.createDocumentFragment();
      g.seat_rows.forEach((r, s) => {
        const tr = el("tr");
        tr.id = "seat-" + s;
        for (const [text, cls] of [[r[0], ""], [r[1], ""], [r[2], "num"], [r[3], ""], ["", "now"]]) tr.appendChild(el("td", cls, text));
        rows.appendChild(tr);
      });
      $("seats").tBodies[0].replaceChildren(rows);
    }
    $("v-title").textContent = g.title;
    $("v-note").textContent = g.note;
    $("slider").max = V.last;
  }
  $("viewer").hidden = false;
  show(ply === undefined ? 0 : ply);
  return true;
}
function closeGame() { $("viewer").hidden = true; }
// Both clocks at every position of a paired game: the mover's changes with its move.
function pairedClocks(g) {
  g.numbers = g.notation.map((_, i) => Math.floor((g.ply0 + i) / 2) + 1);
  const clocks = [];
  if (g.clock0) {
    let left = g.clock0.slice();
    clocks.push(left.slice());
    for (let i = 0; i < g.notation.length; i++) {
      if (g.clocks[i] !== null) left[g.movers[i].toUpperCase() === "B" ? 0 : 1] = g.clocks[i];
      clocks.push(left.slice());
    }
  }
  if (g.clock_end) { while (clocks.length <= g.notation.length) clocks.push(g.clock_end.slice()); clocks[g.notation.length] = g.clock_end.slice(); }
  return clocks.length ? clocks : null;
}
function pairedList(g) {
  const frag = document.createDocumentFragment();
  let line = null;
  for (let i = 0; i < g.notation.length; i++) {
    const black = g.movers[i].toUpperCase() === "B";
    if (!line || black || line.childElementCount >= 3) {
      line = el("div", "line");
      line.appendChild(el("span", "lab", g.numbers[i] + (black ? "." : "...")));
      if (!black) line.appendChild(el("span", "lab", "…"));
      frag.appendChild(line);
    }
    const opening = g.movers[i] !== g.movers[i].toUpperCase();
    const cell = el("span", "mv" + (opening ? " op" : ""), g.notation[i] + (opening ? "*" : ""));
    cell.dataset.k = i;
    if (g.charged[i] !== null) cell.title = "thought " + fmtMs(g.charged[i]);
    line.appendChild(cell);
    V.cells.push(cell);
  }
  if (!g.notation.length) frag.appendChild(el("div", "line dim", "(no moves)"));
  return frag;
}
function stepList(g) {
  const frag = document.createDocumentFragment();
  const width = String(g.steps.length).length + 1;
  for (let k = 0; k < g.steps.length; k++) {
    const cell = el("div", "mv step k-" + g.kinds[k], (String(k + 1) + ".").padStart(width) + " " + g.steps[k]);
    cell.dataset.k = k;
    if (g.details[k]) cell.title = g.details[k];
    frag.appendChild(cell);
    V.cells.push(cell);
  }
  if (!g.steps.length) frag.appendChild(el("div", "step dim", "(no steps)"));
  return frag;
}
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
  $("v-ply").textContent = (V.paired ? "ply " : "step ") + i + " of " + V.last;
  const status = $("v-status");
  status.replaceChildren();
  if (V.paired) pairedStatus(status, i); else seatStatus(status, i);
  const result = $("result");
  result.replaceChildren();
  if (i === V.last) { result.appendChild(el("div", "res", "Result: " + g.result)); if (g.reason) result.appendChild(el("div", "", g.reason)); }
}
function pairedStatus(status, i) {
  const g = V.g;
  if (i === 0) status.appendChild(el("b", "", g.first + " (" + V.last + " moves)"));
  else {
    const k = i - 1, mover = g.movers[k].toUpperCase() === "B" ? 0 : 1;
    status.appendChild(el("b", "", g.numbers[k] + (mover ? "..." : ".") + " "));
    status.appendChild(document.createTextNode((mover ? "WHITE" : "BLACK") + " (" + g.players[mover] + ") played "));
    status.appendChild(el("b", "", g.notation[k]));
    if (g.movers[k] !== g.movers[k].toUpperCase()) status.appendChild(el("span", "dim", "  (random opening ply)"));
    else if (g.charged[k] !== null) status.appendChild(el("span", "dim", "  thought " + fmtMs(g.charged[k])));
  }
  const toMove = i < V.last ? (g.movers[i].toUpperCase() === "B" ? 0 : 1) : -1;
  for (const side of [0, 1]) {
    const box = $("clock-" + side);
    box.className = "clock" + (side === toMove ? " tomove" : "");
    box.replaceChildren(el("div", "who", (side ? "WHITE " : "BLACK ") + g.players[side] + (side === toMove ? " · to move" : "")),
                        el("div", "time", V.clocks ? fmtClock(V.clocks[i][side]) : "--:--"));
  }
}
function seatStatus(status, i) {
  const g = V.g;
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
    if (V.clocks && V.clocks[i][s] !== null) parts.push(fmtClock(V.clocks[i][s]));
    row.querySelector(".now").textContent = parts.join(" · ");
  }
}
function setupViewer() { setupControls(".mv"); }
function selftestGame(index) {
  const started = performance.now();
  let keys = 0;
  try {
    if (!openGame(index, 0)) throw new Error("no game " + index);
    const g = V.g, last = V.last, unit = V.paired ? "ply " : "step ";
    const key = name => { document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true, cancelable: true})); keys += 1; };
    const seen = [];  // each position's board CRC, as first shown
    const check = (want, what) => {
      const board = $("board"), svg = board.firstElementChild;
      if (!svg || svg.tagName.toLowerCase() !== "svg") throw new Error(what + ": no <svg> board at " + unit + want);
      if (board.dataset.ply !== String(want)) throw new Error(what + ": board shows " + unit + board.dataset.ply + ", expected " + want);
      if (seen.length === want) seen.push(board.dataset.state);
      else if (board.dataset.state !== seen[want]) throw new Error(what + ": " + unit + want + " board crc " + board.dataset.state + " != " + seen[want] + " shown before");
      if ($("slider").value !== String(want)) throw new Error(what + ": slider at " + $("slider").value + ", expected " + want);
      if (want > 0 && !V.cells[want - 1].classList.contains("cur")) throw new Error(what + ": " + unit + want + " not highlighted");
    };
    key("Home"); check(0, "Home");
    for (let k = 1; k <= last; k++) { key("ArrowRight"); check(k, "ArrowRight"); }
    key("ArrowRight"); check(last, "ArrowRight past the end");
    if (crc32hex(seen.join("")) !== g.crc) throw new Error("the boards' crc " + crc32hex(seen.join("")) + " != record's " + g.crc + " (boards " + seen.join(" ") + ")");
    if (!$("result").textContent.includes(g.result) || !$("result").textContent.includes(g.reason)) throw new Error("result/reason not shown at the end");
    for (let k = last - 1; k >= 0; k--) { key("ArrowLeft"); check(k, "ArrowLeft"); }
    key("End"); check(last, "End");
    key("Home"); check(0, "Home");
    if (ERRORS.length) throw new Error(ERRORS.length + " page error(s): " + ERRORS[0]);
    const counts = V.paired ? " plies=" + last + " steps=" + keys : " steps=" + last + " keys=" + keys;
    return "PASS game=" + index + counts + " ms=" + (performance.now() - started).toFixed(1) + (SHOW_BOARDS ? " boards=" + seen.join(",") : "");
  } catch (e) {
    return "FAIL game=" + index + " after " + keys + " key presses: " + (e && e.message ? e.message : e) + (ERRORS.length ? " | errors: " + ERRORS.join(" | ") : "");
  }
}
"""

#: The viewer's page part: the board, the buttons and slider, both clocks (a paired game) or the
#: seats (any other), the status line, the step list and the result.
VIEWER_HTML = """\
<div id="viewer" hidden><div class="panel">
<div class="vhead"><h2 id="v-title"></h2><button id="v-close" title="Close (Esc)">&#x2715; close</button></div>
<p id="v-note" class="dim"></p>
<div class="vbody">
<div class="vleft"><div id="board" class="board"></div>
<div class="controls"><button id="b-first" title="First (Home)">|&#x25C0;</button><button id="b-prev" title="Previous (&#x2190;)">&#x25C0;</button><input type="range" id="slider" min="0" max="0" value="0" aria-label="position"><button id="b-next" title="Next (&#x2192;)">&#x25B6;</button><button id="b-last" title="Last (End)">&#x25B6;|</button></div>
<div id="v-ply" class="dim"></div></div>
<div class="vright">
<div id="clocks"><div class="clock" id="clock-0"></div><div class="clock" id="clock-1"></div></div>
<table id="seats" class="grid" hidden><thead><tr><th>Seat</th><th>Bot</th><th class="num">Return</th><th>Rank</th><th>Now</th></tr></thead><tbody></tbody></table>
<div id="v-status"></div>
<div id="moves" tabindex="-1"></div>
<div id="result"></div>
</div></div>
<p class="keys dim">&#x2190; &#x2192; step · Home/End first/last · PgUp/PgDn 10 <span class="unit">moves</span> · click a <span class="unit1">move</span> to jump<span class="closekey"> · Esc back to the report</span></p>
</div></div>
"""

#: The seats and the step list of a game that is not paired.
VIEWER_CSS = """
.seatview .board{aspect-ratio:auto;min-height:240px;padding:6px}
#seats{margin-bottom:8px;width:100%}
#seats[hidden],#clocks[hidden]{display:none}
#seats tr.acting td{font-weight:700;background:#eef4fb}
#seats tr.out td{color:var(--dim)}
#seats td.now{font-variant-numeric:tabular-nums}
#moves .step{padding:0 8px;cursor:pointer;white-space:pre;display:block}
#moves .step:hover{background:#eef4fb}
#moves .step.k-c{color:var(--dim)}
#moves .step.k-e{color:#a01c1c}
#moves .step.cur{background:var(--hi);font-weight:700;color:var(--fg)}
"""

#: The script of every page (a report or one game).
JS = JS_COMMON + JS_VIEWER


__all__ = ["CSS", "JS", "JS_COMMON", "JS_VIEWER", "VIEWER_CSS", "VIEWER_HTML"]
