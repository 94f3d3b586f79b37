"""The ASGI app of ``arena serve`` (Starlette): read-only pages of one log folder.

Routes:

- ``/``: the leaderboard (:func:`arena.serve.pages.leaderboard_page`), kept current by ``/events``;
- ``/events``: server-sent events. An ``update`` event at once, then one each time the folder
  changes (``games.jsonl`` or ``standings.json``: size, mtime or inode, polled every
  ``poll_s``), its data the page's fragments (:func:`arena.serve.pages.event_data`); a ``live``
  event at once and at each change of the games in progress (``live/``,
  :mod:`arena.serve.live`); a comment line every ``keepalive_s`` so that a proxy keeps a quiet
  stream open. ``/events?game=N``: only ``live`` events with game N's moves, then ``finished``
  once N is in ``games.jsonl`` (its page then reloads as the viewer);
- ``/game/N``: game ``N``: a finished game of ``games.jsonl`` in the report's one-game viewer
  (:func:`arena.report.html.viewer_html`) opened at its last position, with the result and its
  reason (``#ply=K``: another position); a game in progress as its moves so far, the latest marked
  and in view (:func:`arena.serve.pages.live_game_page`);
- ``/agent/ID``: the agent's page (:mod:`arena.serve.agents`);
- ``/standings.json``: the folder's standings as they are (404 before the first).

Every request goes through :class:`arena.serve.guard.Guard` (the Host names answered, the
Content-Security-Policy and the other headers, no traceback). A malformed parameter is a 4xx: a
game number (``/game/N``, ``/events?game=N``) is at most :data:`MAX_GAME_DIGITS` ASCII digits, else
``404`` (the path) or ``400`` (the query).

The folder is polled from a worker thread (two ``stat`` calls and one per game in progress; files are re-read only when they
changed, once for every watching page: :class:`arena.serve.folder.LogFolder`), so the event loop
never waits on the disk. Nothing is ever written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from arena.errors import ArenaError
from arena.records.field import Field, keyed
from arena.records.reader import read_game_file, record_name
from arena.records.sources import GameEntry
from arena.serve.agents import agent_record
from arena.serve.folder import LogFolder, Snapshot
from arena.serve.guard import App, Guard, known_names
from arena.serve.live import LiveFolder, LiveSnapshot
from arena.serve.pages import FAULTS_SHOWN, agent_page, event_data, leaderboard_page, live_data, live_game_page, page

#: Seconds between two looks at the folder's files.
POLL_S = 0.5
#: Seconds of silence after which the stream sends a comment line.
KEEPALIVE_S = 15.0
#: The longest game number read from a request (more than any log folder holds; Python would
#: refuse to convert past 4,300 digits anyway).
MAX_GAME_DIGITS = 12


def game_number(text: str | None) -> int | None:
    """``text`` as a game number: ASCII digits, at most :data:`MAX_GAME_DIGITS` of them; else None."""
    if text is None or not (0 < len(text) <= MAX_GAME_DIGITS and text.isascii() and text.isdigit()):
        return None
    return int(text)


def create_app(folder: Path, *, poll_s: float = POLL_S, keepalive_s: float = KEEPALIVE_S,
               allowed_hosts: Iterable[str] = ()) -> App:
    """The app serving the log folder ``folder`` (checked by the caller:
    :func:`arena.serve.folder.check_log_folder`), answering IP literals, ``localhost``, this
    machine's names and ``allowed_hosts`` as ``Host:`` (:mod:`arena.serve.guard`)."""
    log = LogFolder(folder)
    live = LiveFolder(folder)
    label = folder.name or str(folder)
    rendered: dict[int, str] = {}  # the last snapshot's event data, shared by every watching page
    rendered_live: dict[tuple[int, int | None], str] = {}  # likewise for the games in progress

    async def snapshot() -> Snapshot:
        return await anyio.to_thread.run_sync(log.poll)

    async def both() -> tuple[Snapshot, LiveSnapshot]:
        return await anyio.to_thread.run_sync(lambda: (log.poll(), live.poll()))

    def live_of(snap: LiveSnapshot, game: int | None) -> str:
        key = (snap.version, game)
        if key not in rendered_live:
            if any(version != snap.version for version, _ in rendered_live):
                rendered_live.clear()
            rendered_live[key] = live_data(snap, game)
        return rendered_live[key]

    def data_of(snap: Snapshot) -> str:
        if snap.version not in rendered:
            rendered.clear()
            rendered[snap.version] = event_data(snap)
        return rendered[snap.version]

    async def index(request: Request) -> Response:
        snap, now = await both()
        return HTMLResponse(leaderboard_page(snap, now, label))

    async def events(request: Request) -> Response:
        asked = request.query_params.get("game")
        game = game_number(asked)
        if asked is not None and game is None:
            return JSONResponse({"error": "game must be a game number"}, status_code=400)

        async def stream() -> AsyncIterator[str]:
            seen = seen_live = -1
            quiet = 0.0
            while True:
                snap, now = await both()
                sent = False
                if game is None and snap.version != seen:
                    seen, sent = snap.version, True
                    yield f"event: update\nid: {snap.version}\ndata: {data_of(snap)}\n\n"
                if game is not None and any(row.get("index") == game for row in snap.rows):
                    yield "event: finished\ndata: {}\n\n"
                    return
                if now.version != seen_live:
                    seen_live, sent = now.version, True
                    yield f"event: live\ndata: {live_of(now, game)}\n\n"
                if sent:
                    quiet = 0.0
                elif quiet >= keepalive_s:
                    quiet = 0.0
                    yield ": keepalive\n\n"
                await anyio.sleep(poll_s)
                quiet += poll_s

        # Starlette cancels the stream when the client disconnects.
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def game(request: Request) -> Response:
        index = game_number(request.path_params["index"])
        if index is None:
            return not_found(f"No game {request.path_params['index'][:40]!r} in {label}: a game is a number.")
        snap, now = await both()
        if not any(row.get("index") == index for row in snap.rows):
            playing = next((g for g in now.games if g.index == index), None)
            if playing is not None:
                return HTMLResponse(live_game_page(snap, playing, label))
            return not_found(f"No game {index} in {label}: neither finished nor in progress.")
        try:
            text = await anyio.to_thread.run_sync(game_html, folder, index)
        except ArenaError as exc:
            return HTMLResponse(page("arena: cannot show this game", f"<section><p>{_esc(str(exc))}</p></section>"),
                                status_code=500)
        return HTMLResponse(text)

    async def agent(request: Request) -> Response:
        agent_id = request.path_params["agent"]
        snap = await snapshot()
        now = Field.from_json(snap.config) if snap.config is not None and keyed(snap.config) else None
        record = agent_record(agent_id, snap.rows, now)
        standing = next((row for row in (snap.standings or {}).get("standings") or ()
                         if isinstance(row, dict) and row.get("id") == agent_id), None)
        if not record.games and standing is None:
            return not_found(f"No agent {agent_id!r} has played in {label}.")
        tails = await anyio.to_thread.run_sync(
            lambda: {f.index: log.stderr_tail(f.stderr) for f in record.faults[-FAULTS_SHOWN:]})
        return HTMLResponse(agent_page(snap, record, standing, tails, label))

    async def standings(request: Request) -> Response:
        snap = await snapshot()
        if snap.standings is None:
            return JSONResponse({"error": "no standings yet"}, status_code=404)
        return JSONResponse(snap.standings)

    return Guard(Starlette(routes=[
        Route("/", index),
        Route("/events", events),
        Route("/game/{index:str}", game),
        Route("/agent/{agent:str}", agent),
        Route("/standings.json", standings),
    ]), known_names(allowed_hosts))


def _esc(text: str) -> str:
    import html

    return html.escape(text)


def not_found(message: str) -> Response:
    body = f'<nav><p><a href="/">← leaderboard</a></p></nav><section><p>{_esc(message)}</p></section>'
    return HTMLResponse(page("arena: not found", body), status_code=404)


def game_html(folder: Path, index: int) -> str:
    """Game ``index`` of the log folder in the report's one-game viewer (two players or N seats).
    Raises RecordInputError, ReplayError or ReportError (one line)."""
    from arena.records.replay import Replay
    from arena.report.html import viewer_html

    record = read_game_file(folder / record_name(index), root=folder)
    entry = GameEntry(index=index, black="?", white="?", winner="?", termination=str(record.get("termination", "")),
                      plies=None, record=record)
    replay = Replay.from_record(record, label=f"{folder} game {index}")
    text = viewer_html(entry, replay)
    # The report's viewer page, with a way back to the leaderboard; it opens at the game's last
    # position (where the viewer shows the result and its reason: what someone opening a finished
    # game from the leaderboard came for), unless the address asks for another (#ply=K).
    back = ('<nav style="padding:0 24px"><p><a href="/" style="color:#2f6db3;text-decoration:none">'
            "← leaderboard</a></p></nav>")
    at_end = (f'<script>if (!location.hash) history.replaceState(null, "", "#ply={replay.last}");</script>'
              "<style>#result{overflow-wrap:anywhere}</style>")  # a reason's long path wraps too
    return text.replace("</header>", f"</header>\n{back}{at_end}", 1)
