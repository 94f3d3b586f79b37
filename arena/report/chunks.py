"""A report of many games: the page plus its games' boards in files beside it, drawn in parallel.

Above :data:`SPLIT_AT` games one HTML file would be too big to open (100,000 games of 60 plies are
about half a gigabyte of board data) and too slow to write in one process. So ``arena report``
writes, for ``-o report.html``:

- ``report.html``: the same page (standings, crosstable, the game list, the viewer), whose
  ``arena-data`` lists every game and says where the boards are (``"chunk": {"dir", "size"}``);
- ``report_games/chunk-K.js`` (K from 0): the games at list positions ``K*size`` to
  ``(K+1)*size - 1``, as ``arenaChunkZ(K, "BASE64")`` (:func:`chunk_file`: compressed) of
  ``{"pieces": [...], "starts": [...], "games": {"N": payload}}``: the same ``arena-game-N``
  payloads (:func:`arena.report.html.game_payload`),
  with a piece table and start boards of the chunk's own.

The page loads a chunk with a ``<script>`` element when one of its games is opened (that works
from ``file://``, where ``fetch`` does not), so opening the page costs only its game list.

Chunks are drawn by ``jobs`` worker processes (each reads its own records and writes its own file,
so the parent holds only the list rows); the order of the rows and of the standings' results is
the source's. Memory: one chunk per worker. Chunk files of an earlier, larger report in the same
folder are removed (:func:`remove_stale_chunks`), so the folder holds exactly the page's chunks.
"""

from __future__ import annotations

import base64
import json
import os
import re
import stat
import tempfile
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import IO, Any

from arena.fileio.files import atomic_write, make_folders
from arena.records.sources import GameEntry, Source
from arena.report.frames import PieceTable
from arena.report.html import Drawn, Progress, ReportError
from arena.stats.ratings import GameResult

#: More games than this: the page and chunk files (fewer: one self-contained file).
SPLIT_AT = 2000
#: Games per chunk file: a chunk is about 3 MB for 60-ply games, parsed in tens of milliseconds.
CHUNK_GAMES = 500


_CHUNK_NAME = re.compile(r"chunk-(0|[1-9][0-9]*)\.js")
_CHUNK_FILE = re.compile(rb'arenaChunkZ\((0|[1-9][0-9]*),"([A-Za-z0-9+/=]*)"\);\n')


def remove_stale_chunks(folder: Path, keep: int) -> None:
    """Remove ``folder``'s chunk files numbered ``keep`` and above (an earlier, larger report's),
    and the folder when that leaves it empty. Only regular files named as chunks are touched, and
    nothing when ``folder`` is not a real folder (a link, a file)."""
    try:
        if not stat.S_ISDIR(folder.lstat().st_mode):
            return
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = _CHUNK_NAME.fullmatch(name)
        if match is None or int(match.group(1)) < keep:
            continue
        path = folder / name
        try:
            if stat.S_ISREG(path.lstat().st_mode):
                path.unlink()
        except OSError as exc:
            raise ReportError(f"cannot remove the old {path}: {exc.strerror or exc}") from None
    if keep == 0:
        try:
            folder.rmdir()
        except OSError:
            pass  # other files are there: not arena's to remove


def games_folder(out: Path) -> Path:
    """Where the chunks of the page ``out`` go: ``report.html`` -> ``report_games``."""
    return out.with_name(f"{out.stem}_games")


@dataclass(frozen=True)
class ChunkJob:
    """One chunk to draw: the source's games ``entries`` (by value: a worker process reads them)."""

    number: int
    label: str
    root: Path | None
    is_folder: bool
    entries: tuple[GameEntry, ...]
    path: Path
    seats: bool
    #: Whether the games' results are wanted (for standings computed here, not read from the folder).
    results: bool = True


@dataclass
class ChunkDone:
    """What a worker sends back: its list rows as the page's JSON text (UTF-8, rows joined by
    commas, :func:`arena.report.html.page_parts`), their count, the games' results (None: not
    wanted, or a game cannot be rated) and the chunk file's size."""

    number: int
    rows: bytes
    count: int
    results: list[GameResult] | None
    size: int


def chunk_text(pieces: PieceTable, payloads: Sequence[tuple[int, str]]) -> str:
    """The chunk's data as JSON text, ``{"pieces": [...], "starts": [...], "games": {...}}``, with
    the payloads already as JSON text."""
    games = ",".join(f'"{index}":{text}' for index, text in payloads)
    pieces_text = json.dumps(pieces.pieces, ensure_ascii=False, separators=(",", ":"))
    starts_text = json.dumps(pieces.starts, separators=(",", ":"))
    return f'{{"pieces":{pieces_text},"starts":{starts_text},"games":{{{games}}}}}'


def chunk_file(number: int, text: str) -> bytes:
    """The chunk file of the chunk data ``text`` (:func:`chunk_text`): ``arenaChunkZ(number,
    "BASE64")``, the base64 of the data's UTF-8 bytes compressed by zlib (the page inflates it
    with the browser's ``DecompressionStream("deflate")``). Games' notation, clocks and board
    edits repeat a lot: 5,000 different Shobu games came to 23 MB of chunks as plain text."""
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")
    return f'arenaChunkZ({number},"{packed}");\n'.encode("ascii")


def read_chunk_file(data: bytes) -> tuple[int, str]:
    """The chunk number and data text of a chunk file (:func:`chunk_file`'s inverse). Raises
    ValueError for anything else."""
    match = _CHUNK_FILE.fullmatch(data)
    if match is None:
        raise ValueError("not one arenaChunkZ(K, \"...\") call")
    try:
        return int(match.group(1)), zlib.decompress(base64.b64decode(match.group(2), validate=True)).decode("utf-8")
    except zlib.error as exc:
        raise ValueError(f"its data does not inflate: {exc}") from None


def draw_chunk(job: ChunkJob) -> ChunkDone:
    """Draw and write one chunk (in a worker process, or inline). Raises ReportError or ReplayError."""
    from arena.report.html import _json_text, game_payload, game_row, iter_games
    from arena.stats.ratings import result_from_row

    source = Source(job.label, job.entries, job.is_folder, root=job.root)
    pieces = PieceTable()
    payloads: list[tuple[int, str]] = []
    rows: list[list[Any]] = []
    results: list[GameResult] | None = [] if job.results and not job.seats else None
    for entry, replay in iter_games(source):
        if replay.paired == job.seats:
            raise ReportError(f"{job.label} game {entry.index}: games of two kinds (two players, N seats); a report "
                              "holds one kind (write them to two files)")
        payloads.append((entry.index, _json(game_payload(replay, pieces, entry.index))))
        rows.append(game_row(entry, replay))
        if results is not None:
            try:
                results.append(result_from_row({**replay.record, "index": entry.index}))
            except ValueError:
                results = None
    data = chunk_file(job.number, chunk_text(pieces, payloads))
    try:
        atomic_write(job.path, data, sync=False)
    except OSError as exc:
        raise ReportError(f"cannot write {job.path}: {exc.strerror or exc}") from None
    rows_text = _json_text(rows)[1:-1].encode("utf-8")  # the list's brackets are the page's
    return ChunkDone(job.number, rows_text, len(rows), results, len(data))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def chunk_jobs(source: Source, folder: Path, seats: bool, size: int = CHUNK_GAMES,
               results: bool = True) -> list[ChunkJob]:
    entries = source.entries
    return [ChunkJob(k, source.label, source.root, source.is_folder, entries[start:start + size],
                     folder / f"chunk-{k}.js", seats, results)
            for k, start in enumerate(range(0, len(entries), size))]


def default_jobs() -> int:
    """The processors this process may run on."""
    return max(1, len(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_jobs(jobs: list[ChunkJob], workers: int, progress: Progress | None, total: int) -> Iterator[ChunkDone]:
    """Each job's outcome, in the jobs' order; ``workers`` processes (1: in this process)."""
    done = 0

    def report(outcome: ChunkDone) -> ChunkDone:
        nonlocal done
        done += outcome.count
        if progress is not None:
            progress(done, total)
        return outcome

    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield report(draw_chunk(job))
        return
    # forkserver: workers start from a clean process (no threads of numpy's or the caller's copied).
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=get_context("forkserver")) as pool:
        for outcome in pool.map(draw_chunk, jobs):
            yield report(outcome)


def draw_split(source: Source, out: Path, rows: IO[bytes], *, seats: bool, workers: int,
               progress: Progress | None, size: int = CHUNK_GAMES,
               results: bool = True) -> tuple[Drawn, dict[str, Any], int, int]:
    """Draw ``source``'s games into chunk files beside ``out``, their list rows written to ``rows``
    as they come (the page's JSON text, :func:`arena.report.html.page_parts`: this process never
    holds them all); the games' results when ``results`` (none for games of N seats), the
    ``arena-data`` ``chunk`` entry, the chunks' total size in bytes and the number of rows."""
    folder = games_folder(out)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise ReportError(f"cannot write {folder}: not a folder arena made (a file or a link is there)")
    try:
        make_folders(folder)
    except OSError as exc:
        raise ReportError(f"cannot write {folder}: {exc.strerror or exc}") from None
    drawn = Drawn(results=None if seats or not results else [], paired=not seats)
    total = count = 0
    jobs = chunk_jobs(source, folder, seats, size, results)
    for outcome in run_jobs(jobs, workers, progress, len(source.entries)):
        if outcome.count:
            rows.write(b"," + outcome.rows if count else outcome.rows)
        count += outcome.count
        total += outcome.size
        if drawn.results is not None:
            if outcome.results is None:
                drawn.results = None
            else:
                drawn.results += outcome.results
    remove_stale_chunks(folder, len(jobs))
    return drawn, {"dir": folder.name, "size": size}, total, count


def _read_back(rows: IO[bytes], block: int = 1 << 20) -> Iterator[bytes]:
    rows.seek(0)
    while data := rows.read(block):
        yield data


def write_report(source: Source, out: str | Path, *, title: str | None = None, progress: Progress | None = None,
                 before: str = "", workers: int | None = None, split_at: int = SPLIT_AT,
                 chunk_games: int = CHUNK_GAMES) -> int:
    """Write the report of ``source`` to ``out``: one self-contained file up to ``split_at`` games,
    else the page and its chunk files (module docstring), drawn by ``workers`` processes (default:
    :func:`default_jobs`). The bytes written. Raises ReplayError or ReportError (one line)."""
    from arena.records.normal import two_colour
    from arena.report.html import page_parts, report_html, results_standings, saved_standings, write_page
    from arena.report.sections import report_body

    target = Path(out)
    if len(source.entries) <= split_at:
        written = write_page(target, report_html(source, title=title, progress=progress, before=before))
        remove_stale_chunks(games_folder(target), 0)  # an earlier report of more games left them
        return written
    seats = not two_colour(source.load(source.entries[0]))
    saved = saved_standings(source)
    with tempfile.TemporaryFile() as rows:
        drawn, chunk, size, count = draw_split(
            source, target, rows, seats=seats, progress=progress, size=chunk_games, results=saved is None,
            workers=default_jobs() if workers is None else workers)
        title = title or f"arena report: {source.label}"
        standings = saved if saved is not None or seats else results_standings(drawn.results)
        body = before + report_body(standings, seats=seats)  # none computed for games of N seats here
        parts = page_parts(title, "report", drawn, body, chunk=chunk, rows=(count, _read_back(rows)))
        return size + write_page(target, parts)


__all__ = ["CHUNK_GAMES", "SPLIT_AT", "ChunkJob", "chunk_file", "chunk_text", "default_jobs", "draw_chunk", "draw_split",
           "games_folder", "read_chunk_file", "remove_stale_chunks", "write_report"]
