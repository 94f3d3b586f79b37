"""The script around a game viewer on a report page (:mod:`arena.report.viewer` holds the viewers):
the game list (filter, sort, pager), sortable tables, the address's routing (``#game=N``,
``&ply=K``) and the page's self-test (``#selftest=N``, ``#selftest=all``; see
:mod:`arena.report.viewer` for what it checks).
"""

from __future__ import annotations

#: The page around a viewer: the game list, sortable tables, the address's routing, the self-test
#: and the start.
JS_PAGE = r"""
// -- the game list ---------------------------------------------------------------------------------
// At most PAGE_ROWS rows are in the DOM at once (a run of 100,000 games stays responsive): the filter
// and the sort work on all rows, the pager moves through the result.
const PAGE_ROWS = 200;
let sortCol = 0, sortDir = 1, page = 0, LIST = null, HAYSTACK = null;
const COLLATOR = new Intl.Collator();
function listRows() {
  const query = ($("filter").value || "").trim().toLowerCase();
  if (query && !HAYSTACK) HAYSTACK = DATA.rows.map(r => r.join(" ").toLowerCase());
  const rows = query ? DATA.rows.filter((r, k) => HAYSTACK[k].includes(query)) : DATA.rows.slice();
  if (sortCol !== 0 || sortDir !== 1) rows.sort((a, b) => { const x = a[sortCol], y = b[sortCol]; return (typeof x === "number" && typeof y === "number" ? x - y : COLLATOR.compare(String(x), String(y))) * sortDir || a[0] - b[0]; });
  else rows.sort((a, b) => a[0] - b[0]);
  return rows;
}
function fillList(keepPage) {
  const body = document.querySelector("#games tbody");
  if (!body) return;
  if (keepPage !== true) { LIST = listRows(); page = 0; }
  const pages = Math.max(1, Math.ceil(LIST.length / PAGE_ROWS));
  page = Math.max(0, Math.min(pages - 1, page));
  const frag = document.createDocumentFragment();
  for (const r of LIST.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS)) {
    const tr = el("tr");
    tr.dataset.game = r[0];
    for (const [k, cls] of [[0, "num"], [1, ""], [2, ""], [3, ""], [4, ""], [5, "num"], [7, "reason"]]) tr.appendChild(el("td", cls, String(r[k])));
    frag.appendChild(tr);
  }
  body.replaceChildren(frag);
  $("count").textContent = LIST.length === DATA.rows.length ? DATA.rows.length + " games" : LIST.length + " of " + DATA.rows.length + " games";
  const pager = $("pager");
  if (pager) {
    pager.hidden = pages < 2;
    $("pg-info").textContent = "page " + (page + 1) + " of " + pages;
    $("pg-prev").disabled = page === 0;
    $("pg-next").disabled = page >= pages - 1;
  }
  for (const th of document.querySelectorAll("#games th")) th.className = (th.dataset.col == sortCol ? (sortDir > 0 ? "asc" : "desc") : "") + (th.classList.contains("num") ? " num" : "");
}
function setupList() {
  if (!$("games")) return;
  let typing = null;  // one filter pass per pause in typing, not one per key
  $("filter").addEventListener("input", e => { clearTimeout(typing); if (e.isTrusted) typing = setTimeout(fillList, 120); else fillList(); });
  for (const th of document.querySelectorAll("#games th")) th.addEventListener("click", () => {
    const col = Number(th.dataset.col);
    sortDir = col === sortCol ? -sortDir : 1; sortCol = col; fillList();
  });
  if ($("pager")) {
    $("pg-prev").addEventListener("click", () => { page -= 1; fillList(true); });
    $("pg-next").addEventListener("click", () => { page += 1; fillList(true); });
  }
  document.querySelector("#games tbody").addEventListener("click", e => {
    const tr = e.target.closest("tr");
    if (tr) location.hash = "game=" + tr.dataset.game;
  });
  fillList();
}

// -- sortable tables (the standings, the seats): click a header, again to reverse ------------------
function sortKey(td) {
  const v = td.dataset.v !== undefined ? td.dataset.v : td.textContent;
  return v === "" ? null : (isNaN(Number(v)) ? v : Number(v));
}
function sortTable(table, col, dir) {
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    const x = sortKey(a.cells[col]), y = sortKey(b.cells[col]);
    if (x === null || y === null) return (x === null) - (y === null);  // no value: last either way
    return (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y))) * dir;
  });
  body.append(...rows);
  for (const th of table.tHead.rows[0].cells) th.classList.remove("asc", "desc");
  table.tHead.rows[0].cells[col].classList.add(dir > 0 ? "asc" : "desc");
}
function setupSortable() {
  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach((th, col) => th.addEventListener("click", () => {
      sortTable(table, col, th.classList.contains("asc") ? -1 : 1);
    }));
  }
}
function route() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (params.has("selftest")) { SHOW_BOARDS = params.has("boards"); selftest(params.get("selftest")); return; }
  if (params.has("game")) { loadAndOpen(Number(params.get("game")), params.has("ply") ? Number(params.get("ply")) : undefined); return; }
  if (DATA.mode === "game") openGame(DATA.rows[0][0], params.has("ply") ? Number(params.get("ply")) : undefined);
  else closeGame();
}

// -- self-test (see the module docstring of arena.report.viewer) ----------------------------------
function checkList() {
  // The game list: every game listed, the filter and a column sort wired up.
  // Every game listed: a page of PAGE_ROWS rows at most, the count of all, and the pager reaching the last.
  const rows = () => Array.from(document.querySelectorAll("#games tbody tr"));
  const first = Math.min(PAGE_ROWS, DATA.rows.length);
  if (rows().length !== first) throw new Error("the game list's first page shows " + rows().length + " of " + first + " games");
  if (!$("count").textContent.startsWith(DATA.rows.length + " games")) throw new Error("the game count says " + $("count").textContent);
  if (DATA.rows.length > PAGE_ROWS) {
    const pages = Math.ceil(DATA.rows.length / PAGE_ROWS);
    for (let k = 1; k < pages; k++) $("pg-next").click();
    const lastRow = DATA.rows[DATA.rows.length - 1][0], shown = rows();
    if (shown.length !== DATA.rows.length - (pages - 1) * PAGE_ROWS || shown[shown.length - 1].dataset.game !== String(lastRow)) throw new Error("the last page does not end with game " + lastRow);
    if (!$("pg-next").disabled) throw new Error("the pager goes past the last page");
  }
  const who = DATA.rows[0][1], filter = $("filter");
  // Responsiveness: the time of one filter pass over every game (the first builds the search text),
  // and of one sort, each with its page of rows put in the DOM.
  let clock = performance.now();
  filter.value = who; filter.dispatchEvent(new Event("input"));
  const filterMs = performance.now() - clock;
  const shown = rows();
  if (!shown.length || shown.some(tr => !tr.textContent.includes(who))) throw new Error("filtering by " + who + " shows other games");
  const some = shown.length;
  filter.value = ""; filter.dispatchEvent(new Event("input"));
  const plies = document.querySelector('#games th[data-col="5"]');
  clock = performance.now();
  plies.click();
  const sortMs = performance.now() - clock;
  plies.click();
  const longest = Math.max(...DATA.rows.map(r => r[5]));
  if (Number(rows()[0].children[5].textContent) !== longest) throw new Error("sorting by plies (descending) does not put the longest game first");
  document.querySelector('#games th[data-col="0"]').click();
  return " list=" + DATA.rows.length + " filtered=" + some + " ready_ms=" + READY_MS.toFixed(0) +
    " filter_ms=" + filterMs.toFixed(0) + " sort_ms=" + sortMs.toFixed(0);
}
function checkStandings() {
  // The standings sort by a click on a header (games: fewest first, then most), and back by rank.
  const table = $("standings-table");
  if (!table) return "";
  const heads = Array.from(table.tHead.rows[0].cells), col = heads.findIndex(th => th.textContent === "Games");
  const values = () => Array.from(table.tBodies[0].rows).map(tr => sortKey(tr.cells[col]));
  heads[col].click();
  const up = values();
  if (up.some((v, k) => k && v < up[k - 1])) throw new Error("standings: sorting by games (ascending) is out of order");
  heads[col].click();
  const down = values();
  if (down.some((v, k) => k && v > down[k - 1])) throw new Error("standings: sorting by games (descending) is out of order");
  heads[0].click();
  return " standings=" + up.length;
}
let SHOW_BOARDS = false;  // #selftest=N&boards: each verdict lists every ply's board CRC
async function selftest(which) {
  const out = $("selftest");
  out.hidden = false;
  let list = "";
  try { if (DATA.mode === "report") list = checkList() + checkStandings(); }
  catch (e) { out.textContent = "FAIL list: " + (e && e.message ? e.message : e); return; }
  const games = which === "all" ? DATA.rows.map(r => r[0]) : [which ? Number(which) : DATA.rows[0][0]];
  out.textContent = "RUNNING";
  const lines = [];
  for (const index of games) {
    const loading = performance.now();
    const ok = await ensureGame(index);
    const loaded = DATA.chunk ? " load_ms=" + (performance.now() - loading).toFixed(0) : "";
    lines.push((ok === true ? selftestGame(index) : "FAIL game=" + index + ": its chunk file: " + ok) + loaded + (lines.length === 0 ? list : ""));
  }
  // The verdict waits for timers the steps set off, so an error thrown later still fails it.
  setTimeout(() => {
    if (ERRORS.length && lines.every(line => line.startsWith("PASS"))) lines.push("FAIL " + ERRORS.length + " page error(s) after the steps: " + ERRORS.join(" | "));
    out.textContent = lines.join("\n");
  }, 200);
}
let READY_MS = 0;  // from navigation start to a usable page (the game list drawn): self-test reports it
document.addEventListener("DOMContentLoaded", () => {
  setupList();
  setupSortable();
  setupViewer();
  READY_MS = performance.now();
  window.addEventListener("hashchange", route);
  route();
});
"""

__all__ = ["JS_PAGE"]
