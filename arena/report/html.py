"""One self-contained HTML file: a tournament report, or one game's viewer.

The file needs no network and no other file: CSS, JavaScript and SVG are inline, and it opens from
``file://``. Layout of the data (each a ``<script type="application/json">`` block, so the browser
parses a block only when the page asks for it):

- ``arena-data``: the page's summary: title, mode (``"report"`` or ``"game"``), and the game list
  rows ``[index, black, white, result, termination, plies, game, reason]`` (games of N seats:
  ``[index, seats, finishing order, returns, termination, steps, game, reason]``);
- ``arena-pieces``: the distinct SVG pieces of every board (:class:`arena.report.frames.PieceTable`),
  and ``arena-starts`` the games' first boards (:attr:`arena.report.frames.PieceTable.starts`);
- ``arena-game-N``: game ``N`` (its index, as ``arena replay --game N`` counts): the move list in
  notation, charged times, clocks, result and reason, each position's board as an edit of the
  previous one (the first: a start board), and the CRC of its boards' CRCs
  (:func:`arena.report.frames.boards_digest`) for the self-test; a game that starts as an earlier
  one of the page did has ``"from": [G, K]`` and only its own frames and notation after those
  (:func:`game_payload`). A game of N seats holds instead its steps as the page's viewer is told
  them (:mod:`arena.records.replay`: omniscient, or as one seat saw it), the seats (final return
  and rank), the seats acting at each position and the clocks; its pictures are the game's SVG
  function's ``board_svg(state_json, seat)`` (else its ``board_text`` for that seat).

Only the game being viewed is parsed and drawn. The standings, the Elo plot and the crosstable are
plain HTML/SVG written here. Sizes: about 3.6 kB per checkers game of 66 plies (docs/records.md).

Opening ``report.html#game=N`` shows game ``N`` (``&ply=K`` at position ``K``);
``#selftest=N`` runs the page's self-test on game ``N`` (:mod:`arena.report.viewer`).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import __version__
from arena.errors import ArenaError
from arena.fileio.files import atomic_write
from arena.fileio.jsonfiles import read_json_file
from arena.games.base import Game, GameError
from arena.games.model import GeneralGame
from arena.limits import MAX_RECORDS_BYTES
from arena.records.reader import finishing_order, result_text
from arena.records.replay import Replay
from arena.records.sources import GameEntry, Source
from arena.report.frames import PieceTable, boards_digest, position_key
from arena.report.page_script import JS_PAGE
from arena.report.sections import elo_plot, report_body
from arena.report.viewer import CSS, JS, VIEWER_CSS, VIEWER_HTML
from arena.stats.ratings import GameResult

#: ``progress(done, total)``: called after each game is drawn (``arena report`` shows it).
Progress = Callable[[int, int], None]


class ReportError(ArenaError):
    """A report that cannot be written (a game's board cannot be drawn, the file cannot be
    written). One line; exit 2."""


# -- boards ----------------------------------------------------------------------------------------


def svg_renderer(game: Game[Any, Any] | GeneralGame[Any, Any]) -> Callable[[Any, Any], str]:
    """The registry's ``board_svg(state, last_move)`` for two-player ``game``; for a game without one
    (a plugin that registers no ``svg``), its ``board_text`` set in an SVG ``<text>`` block."""
    from arena.games.registry import get_spec, load_ref

    ref = get_spec(game.name).svg
    if ref is not None:
        function: Callable[[Any, Any], str] = load_ref(ref)
        return function

    def text_svg(state: Any, last_move: Any = None) -> str:
        return text_picture(game.board_text(state))

    return text_svg


def svg_pieces_renderer(game: Game[Any, Any] | GeneralGame[Any, Any]) -> Callable[[Any, Any], list[str]] | None:
    """The game's SVG function's twin that gives the picture as its pieces, if its module has one:
    ``board_svg_pieces`` beside ``board_svg`` (same arguments; the join of what it returns is
    exactly what ``board_svg`` returns, each string one piece: see
    :meth:`arena.report.frames.PieceTable.board_of_pieces`). None: the picture is cut here."""
    from arena.games.registry import get_spec, load_ref

    ref = get_spec(game.name).svg
    if ref is None:
        return None
    try:
        function: Callable[[Any, Any], list[str]] = load_ref(f"{ref}_pieces")
    except GameError:  # none there
        return None
    return function


def seat_svg_renderer(replay: Replay) -> Callable[[Any], str]:
    """``draw(state) -> svg`` for a game of N seats as the replay's viewer sees it: the registry's
    ``board_svg(state_json, seat)``, else the game's ``board_text(state, seat)`` in an SVG
    ``<text>`` block."""
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


def text_picture(text: str) -> str:
    """A plain-text board set in an SVG picture (monospace), for games without an SVG function."""
    lines = text.splitlines() or [""]
    width = 9 * max(len(line) for line in lines) + 16
    height = 18 * len(lines) + 16
    rows = "".join(f'<tspan x="8" dy="18">{html.escape(line)}</tspan>' for line in lines)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}"><rect width="100%" height="100%" fill="#f4f1e8"/>'
            f'<text font-family="monospace" font-size="15" xml:space="preserve" y="4">{rows}</text></svg>')


def _frames(replay: Replay, pieces: PieceTable) -> tuple[list[str], str]:
    """Every position's picture as frames of ``pieces`` and the CRC of their CRCs. A paired game's
    board marks the last move (keyed by game, state and move); any other game's picture is its
    viewer's view of the state under these rules (their parameters and the seat in the key)."""
    game = replay.game
    draw_pieces = svg_pieces_renderer(game) if replay.marks_last_move else None
    if replay.marks_last_move:
        draw_paired = svg_renderer(game)

        def key_and_draw(i: int) -> tuple[Hashable, Callable[[], str]]:
            state, last_move, _ = replay.position(i)
            return position_key(game.name, state, last_move), lambda: draw_paired(state, last_move)
    else:
        draw_seen = seat_svg_renderer(replay)
        identity = json.dumps(replay.game.identity(), sort_keys=True, default=str)

        def key_and_draw(i: int) -> tuple[Hashable, Callable[[], str]]:
            state = replay.states[i]
            return position_key(identity, replay.seat, state), lambda: draw_seen(state)

    frames: list[str] = []
    hashes: list[str] = []
    previous: list[int] | None = None
    previous_key: Hashable | None = None
    for i in range(replay.last + 1):
        key, draw = key_and_draw(i)
        try:
            if draw_pieces is None:
                numbers, crc = pieces.board(key, draw)
            else:
                state, last_move, _ = replay.position(i)
                numbers, crc = pieces.board_of_pieces(key, lambda: draw_pieces(state, last_move))  # noqa: B023
        except Exception as exc:  # noqa: BLE001 - a renderer's bug: one line naming the position
            raise ReportError(f"{replay.label}: cannot draw position {i}: {type(exc).__name__}: {exc}") from None
        frames.append(pieces.frame((previous_key, key) if i else (None, None), previous, numbers))
        hashes.append(crc)
        previous, previous_key = numbers, key
    return frames, boards_digest(hashes)


def game_payload(replay: Replay, pieces: PieceTable, index: int | None = None) -> dict[str, Any]:
    """The ``arena-game-N`` object of ``replay`` (see the module docstring), for the viewer its page
    (:data:`arena.report.viewer.JS_VIEWER`) reads. With the game's ``index``, a paired game's
    start it shares with an earlier game of ``pieces`` is that game's
    (:meth:`arena.report.frames.PieceTable.shared`): ``"from": [G, K]``, then only the frames from
    position ``K`` and the notation from move ``K``. Raises ReportError when the renderer fails on
    one of its positions."""
    frames, crc = _frames(replay, pieces)
    if not replay.paired:
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
            "crc": crc,
        }
    start, end = replay.start_clocks_ms, replay.end_clocks_ms
    notation = [s.notation for s in replay.steps]
    shared = None if index is None else pieces.shared(index, frames, notation)
    names = replay.game.seat_names
    payload = {
        "title": replay.title(),
        "game": replay.game.name,
        "players": list(replay.seat_ids),
        "result": replay.result(),
        "reason": replay.reason,
        "note": replay.opening_note(),
        "first": replay.first_text(),
        # Per move: B/W the mover, lower case for a random opening ply.
        "movers": "".join(names[s.seat or 0][0].lower() if s.opening else names[s.seat or 0][0]
                          for s in replay.steps),
        # The first position's ply: move i's number is (ply0 + i) // 2 + 1 (as Replay numbers them).
        "ply0": replay.game.ply(replay.states[0]),
        "notation": notation,
        "charged": [None if not s.charged_ms else round(next(iter(s.charged_ms.values())), 1) for s in replay.steps],
        "clock0": None if start is None else [round(start[s]) for s in (0, 1)],
        # The mover's clock after each move (the other clock does not change).
        "clocks": [None if s.clocks_ms is None else round(s.clocks_ms[s.seat or 0]) for s in replay.steps],
        "clock_end": None if end is None else [round(end[s]) for s in (0, 1)],
        "frames": frames,
        "crc": crc,
    }
    if shared is not None:
        payload.update({"from": shared, "frames": frames[shared[1]:], "notation": notation[shared[1] - 1:]})
    return payload


def _json_block(element_id: str, value: Any) -> str:
    return f'<script type="application/json" id="{element_id}">{_json_text(value)}</script>\n'


def _json_text(value: Any) -> str:
    """``value`` as a data block holds it: compact JSON, ``<`` written ``\\u003c``."""
    # "<" only ever appears inside JSON strings, where \u003c reads back the same: no "</script>".
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def game_row(entry: GameEntry, replay: Replay) -> list[Any]:
    """The game list's row (see the module docstring); a game of N seats puts its seats, finishing
    order and returns in the places of the two players and the result."""
    if not replay.paired:
        ids = list(replay.seat_ids)
        return [entry.index, ", ".join(ids), finishing_order(ids, replay.ranks()),
                ", ".join(f"{r:g}" for r in replay.returns()), replay.termination, replay.last, replay.game.name,
                replay.reason]
    return [entry.index, replay.seat_ids[0], replay.seat_ids[1], entry.result_text()
            if entry.winner != "?" else result_text(replay.winner, replay.termination), replay.termination,
            replay.last, replay.game.name, replay.reason]


def iter_games(source: Source) -> Iterator[tuple[GameEntry, Replay]]:
    """Every game of ``source`` as a replay, one at a time (a record is read when its turn comes,
    so a report of thousands of games never holds them all). ReplayError for an unreadable game,
    ReportError for a game of the other kind than the first (a page holds one kind)."""
    known: dict[tuple[str, bytes], Any] = {}  # the states read so far: games share their openings
    paired: bool | None = None
    for entry in source.entries:
        label = f"{source.label} game {entry.index}"
        replay = Replay.from_record(source.load(entry), label=label, known=known)
        if paired is not None and replay.paired != paired:
            kind = "two-player game among games of N seats" if replay.paired else "game of N seats among two-player games"
            raise ReportError(f"{label}: a {kind}; a report holds one kind (write them to two files)")
        paired = replay.paired
        yield entry, replay


@dataclass
class Drawn:
    """What the page embeds for its games: list rows, one ``arena-game-N`` block per game, the
    shared SVG pieces, each game's result for the standings (None: a game cannot be rated, or
    the games are of N seats), and whether they are paired games (the standings they get)."""

    rows: list[list[Any]] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    pieces: PieceTable = field(default_factory=PieceTable)
    results: list[GameResult] | None = field(default_factory=list)
    paired: bool = True


def draw_games(games: Iterable[tuple[GameEntry, Replay]], total: int, progress: Progress | None = None) -> Drawn:
    """Encode ``games`` (``total`` of them, for ``progress``). Raises ReportError or ReplayError."""
    from arena.stats.ratings import result_from_row

    drawn = Drawn()
    for done, (entry, replay) in enumerate(games, 1):
        drawn.blocks.append(_json_block(f"arena-game-{entry.index}", game_payload(replay, drawn.pieces, entry.index)))
        drawn.rows.append(game_row(entry, replay))
        drawn.paired = replay.paired
        if not replay.paired:
            drawn.results = None
        elif drawn.results is not None:
            try:
                drawn.results.append(result_from_row({**replay.record, "index": entry.index}))
            except ValueError:
                drawn.results = None
        if progress is not None:
            progress(done, total)
    return drawn


def build_page(title: str, mode: str, drawn: Drawn, body: str, *, chunk: dict[str, Any] | None = None) -> str:
    """The whole HTML text: ``body`` (the report's sections, empty for a single game), the viewer
    (:mod:`arena.report.viewer`), then the data blocks of the ``drawn`` games.
    ``mode`` is ``"report"`` or ``"game"``; ``chunk``: where the games' boards are when they are not
    in the page (:mod:`arena.report.chunks`)."""
    parts = page_parts(title, mode, drawn, body, chunk=chunk, rows=None)
    return "".join(part if isinstance(part, str) else part.decode("utf-8") for part in parts)


def page_parts(title: str, mode: str, drawn: Drawn, body: str, *, chunk: dict[str, Any] | None,
               rows: tuple[int, Iterable[bytes]] | None) -> Iterator[str | bytes]:
    """:func:`build_page`'s text in pieces, one after another. ``rows``: the list's rows given as
    ``(count, JSON text)`` instead of ``drawn.rows``: the text of the rows joined by commas, as
    ``_json_block`` writes them (UTF-8, ``<`` escaped), in pieces (a report of many games streams
    them from a file: :mod:`arena.report.chunks`)."""
    esc = html.escape
    count = len(drawn.rows) if rows is None else rows[0]
    yield from (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        f"<title>{esc(title)}</title>\n<style>{CSS}{VIEWER_CSS}</style>\n</head>\n",
        f"<body class=\"mode-{mode}\">\n<header><h1>{esc(title)}</h1>",
        f"<p class=\"sub\">arena {esc(__version__)} · {count} game{'s' if count != 1 else ''}</p></header>\n",
        body,
        VIEWER_HTML,
        '<pre id="selftest" hidden></pre>\n',
    )
    data: dict[str, Any] = {"title": title, "mode": mode, "version": __version__}
    if rows is None:
        data["rows"] = drawn.rows
        if chunk is not None:
            data["chunk"] = chunk
        yield _json_block("arena-data", data)
    else:  # the same block, its rows put in as they come: ..."version":"...","rows":[...],"chunk":{...}}
        head = _json_text(data)[:-1] + ',"rows":['
        tail = "]" + ("" if chunk is None else ',"chunk":' + _json_text(chunk)) + "}"
        yield f'<script type="application/json" id="arena-data">{head}'
        yield from rows[1]
        yield f"{tail}</script>\n"
    yield _json_block("arena-pieces", drawn.pieces.pieces)
    yield _json_block("arena-starts", drawn.pieces.starts)
    yield from drawn.blocks
    yield f"<script>{JS}{JS_PAGE}</script>\n</body>\n</html>\n"


# -- standings for a source ------------------------------------------------------------------------


def source_standings(source: Source, results: Sequence[GameResult] | None) -> dict[str, Any] | None:
    """The folder's ``standings.json`` when it covers exactly these games (:func:`saved_standings`),
    else standings computed from ``results`` (:func:`results_standings`)."""
    saved = saved_standings(source)
    return saved if saved is not None else results_standings(results)


def results_standings(results: Sequence[GameResult] | None) -> dict[str, Any] | None:
    """The report's standings of ``results`` (None when there are none, or a game cannot be rated)."""
    from arena.stats.ratings import compute_standings

    return compute_standings(results, bootstrap_samples=200, seed=0) if results else None


def saved_standings(source: Source) -> dict[str, Any] | None:
    """The folder's ``standings.json`` when it covers exactly the games that count now, else None;
    for a folder whose field changes (``"resultsBy": "pairing"``), where only some games count
    (:meth:`arena.records.field.Field.counts`), never None: ``standings.json`` when it covers those,
    else the standings of those recomputed as ``arena standings`` does (the report's figures follow
    the one rule, not every game in the folder). Raises LogError (one line) for a folder whose
    ``games.jsonl`` cannot be read."""
    if not source.is_folder:
        return None
    path = Path(source.label)
    path = path if path.is_dir() else path.parent
    counting = _counting_games(path)
    from arena.records.logstore import LogError, read_standings

    try:
        saved = read_standings(path)
    except LogError:  # refused (a FIFO, a link) or not JSON: computed instead
        saved = None
    if saved is not None and saved.get("standings") and \
            saved.get("games") == (len(source.entries) if counting is None else counting):
        return saved
    if counting is None:
        return None
    from arena.tournament.logs import standings_from_folder

    return standings_from_folder(path)[0]


def _counting_games(folder: Path) -> int | None:
    """How many games of the folder count now when its field changes (its ``config.json`` keeps
    results by pairing), else None."""
    from arena.records.field import Field, keyed

    try:
        config = read_json_file(folder / "config.json", MAX_RECORDS_BYTES, root=folder)
    except (OSError, ValueError):
        return None
    if not keyed(config):
        return None
    from arena.records.logstore import read_rows

    return len(Field.from_json(config).counting(read_rows(folder).rows))


# -- entry points ----------------------------------------------------------------------------------


def report_html(source: Source, *, title: str | None = None, progress: Progress | None = None,
                before: str = "") -> str:
    """The report page of every game in ``source``, after the sections ``before`` (a learner's
    chart, :mod:`arena.report.training`): the standings (games of N seats: with rank bars, the seat
    table, the pairwise table and how games ended), the game list and the viewer. Raises
    ReplayError or ReportError (one line)."""
    drawn = draw_games(iter_games(source), len(source.entries), progress)
    standings = source_standings(source, drawn.results) if drawn.paired else source_standings(source, None)
    body = before + report_body(standings, seats=not drawn.paired)
    return build_page(title or f"arena report: {source.label}", "report", drawn, body)


def viewer_html(entry: GameEntry, replay: Replay) -> str:
    """The single-game page of ``replay`` (``arena replay --html``), as its viewer saw it."""
    title = replay.title() + ("" if replay.seat is None else f", as seat {replay.seat} saw it")
    return build_page(title, "game", draw_games([(entry, replay)], 1), "")


def write_page(path: str | Path, text: str | Iterable[str | bytes]) -> int:
    """Write ``text`` (or its pieces, text or UTF-8, one after another) to ``path`` atomically (a
    temporary file renamed); the size in bytes. Raises ReportError naming the file."""
    target = Path(path)
    size = 0

    def encoded(parts: Iterable[str | bytes]) -> Iterator[bytes]:
        nonlocal size
        for part in parts:
            data = part.encode("utf-8") if isinstance(part, str) else part
            size += len(data)
            yield data

    try:
        atomic_write(target, encoded([text] if isinstance(text, str) else text))
    except OSError as exc:
        raise ReportError(f"cannot write {target}: {exc.strerror or exc}") from None
    return size


__all__ = [
    "Drawn",
    "ReportError",
    "build_page",
    "draw_games",
    "elo_plot",
    "game_payload",
    "game_row",
    "iter_games",
    "page_parts",
    "report_html",
    "results_standings",
    "saved_standings",
    "source_standings",
    "svg_renderer",
    "viewer_html",
    "write_page",
]
