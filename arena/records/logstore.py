"""The log folder store: the one owner of a run's ``tournament_logs/<id>/`` files as data.

Layout (spec: arena.md)::

    config.json        the resolved config of the run
    games.jsonl        one line per finished game, appended and flushed as each game ends
    games/NNNNN.json   each game's full record (:mod:`arena.records.reader` reads them)
    stderr/            each bot's stderr per game (written by the match engine)
    <agentId>.json     the seed's per-agent statistics: games, wins, draws, losses, rating
    standings.json     ratings, intervals, crosstable, LOS, terminations (arena.stats.ratings)
    games.checked.json what a resume needs of the rows already checked (arena.tournament.checked)
    .arena.lock        held (flock) by the run using the folder; holds its pid

Every reader of ``games.jsonl`` (``arena standings``, ``check-logs``, replay's and the report's
listing of a log folder, ``arena serve``, a league, a resume, the stats worker) parses it here:
:func:`read_rows` (the whole file), :func:`read_batches` (a piece at a time, for standings of
100,000 games), :func:`read_games_bytes` (a resume's bytes, after a checked prefix) then
:func:`parse_rows` or :func:`row_batches`. ``standings.json`` is read by :func:`read_standings`
and written by :func:`write_standings`; the folder is locked by :class:`FolderLock`. The writer of
a run (:class:`arena.tournament.logs.TournamentLog`) appends the lines.

A cut-off last line. A line is appended whole, newline included, in one ``write``; a run killed in
the middle of it (or a disk that filled up) leaves a last line without its newline. The rule, the
same for every reader: what follows the last newline is not a finished game. It is ignored, with a
:class:`TornLineWarning` naming the file and its size (``arena`` prints it as ``arena: warning:``;
``arena serve``, which reads a folder while it is being written, passes ``warn=False``), and the
next run that appends to the folder cuts it off (:func:`whole_lines_size`) before its first line, so
that game is played again. No earlier row is lost. Every whole line must be a game line: a bad one
anywhere else (not JSON, not a game, a game index listed twice) is a :class:`LogError` of one
line naming the file and the line number.

One run per folder. :class:`FolderLock` takes an exclusive ``flock`` on ``.arena.lock`` before
anything in the folder is read; a second run fails at once with :class:`LogError` naming the pid that
holds it. The OS drops the lock when the holder exits, however it exits (even ``kill -9``), so a
stale lock file is harmless; the file is never deleted (deleting it would let two runs lock two
different files).

Links. The folder that holds log folders (``--logs DIR``, default ``tournament_logs``) is the
user's: it may be a symbolic link. Everything below it is arena's: ``<id>/``, ``games/``,
``stderr/`` and every file are opened relative to their parent's descriptor with ``O_NOFOLLOW``
(:func:`arena.fileio.files.open_beneath`), so a link planted there by a bot (``stderr/`` -> elsewhere,
``games.jsonl`` -> someone's file) is refused with one line, never written or read through; a FIFO
or a device in its place is refused the same way. Readers given a log folder by the user (``arena
standings DIR``) treat that folder as the user's and everything inside it as arena's.

Errors. Arena running out of something while writing (``ENOSPC``, ``EDQUOT``, ``EMFILE``, ``ENFILE``,
``ENOMEM``) is an :class:`arena.errors.ResourceError`; any other failure a :class:`LogError`.
Both name the file and the cause in one line.

Standard library only at import (orjson is imported when a batch is decoded, and without it every
line is read by :func:`arena.fileio.jsonfiles.strict_loads`): ``scripts/check_logs.py`` runs
without a venv.
"""

from __future__ import annotations

import errno
import fcntl
import os
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, ArenaWarning, ResourceError
from arena.fileio.files import atomic_write, make_folders, open_beneath, read_input, too_large
from arena.fileio.jsonfiles import read_json_file, strict_loads
from arena.limits import MAX_GAMES_LOG_BYTES, MAX_JSON_DEPTH, MAX_RECORDS_BYTES
from arena.records.reader import GAMES_FILE
from arena.stats.ratings import PlainColumns, plain_pair_columns, result_from_row

CONFIG_FILE = "config.json"
STANDINGS_FILE = "standings.json"
LOCK_FILE = ".arena.lock"

# errno values that mean arena itself ran out of something (not a mistake in the folder).
RESOURCE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EMFILE, errno.ENFILE, errno.ENOMEM})


class TornLineWarning(ArenaWarning):
    """``games.jsonl`` ends in a cut-off line, which was ignored (the module docstring's rule)."""


def warn_torn(path: Path, torn: int) -> None:
    """Warn (:class:`TornLineWarning`) that the last ``torn`` bytes of ``path`` are a cut-off line."""
    warnings.warn(f"{path}: its last line is cut off ({torn} bytes without a newline: a run stopped while "
                  "writing it); that game is not counted, and the next run on this folder removes the line",
                  TornLineWarning, stacklevel=2)


class LogError(ArenaError):
    """A log folder that cannot be used as it is (the message says what to do). Exit status 2."""


def write_failure(path: Path | str, exc: OSError, doing: str = "write") -> ArenaError:
    """The one-line error for an OSError while writing ``path``: ResourceError when arena ran out of
    something (disk space, file descriptors, memory), else LogError."""
    name = errno.errorcode.get(exc.errno or 0, "")
    why = f"{exc.strerror or exc}" + (f" ({name})" if name else "")
    if exc.errno in RESOURCE_ERRNOS:
        return ResourceError(f"cannot {doing} {path}: {why}")
    return LogError(f"cannot {doing} {path}: {why}")


def log_root(folder: Path) -> Path:
    """The user's folder above the run's log folder ``folder`` (``--logs DIR``): links are followed
    up to it, never below it (see the module docstring)."""
    return folder.parent


class FolderLock:
    """An exclusive ``flock`` on a log folder's ``.arena.lock`` (see the module docstring)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock (creating the folder if needed). Raises LogError when another process
        holds it (naming its pid) or the folder cannot be used (a link planted in its place...)."""
        root = log_root(self.path.parent)
        try:
            make_folders(root)
            fd = open_beneath(root, self.path, os.O_RDWR | os.O_CREAT, make_dirs=True)
        except (OSError, ValueError) as exc:
            raise LogError(f"{self.path.parent}: cannot use this folder for logs "
                           f"({getattr(exc, 'strerror', None) or exc}); pass --logs DIR to write elsewhere") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = _read_pid(fd)
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = f"process {holder}" if holder else "another process"
                raise LogError(f"{self.path.parent} is in use by another arena run ({who} holds "
                               f"{self.path.name}); wait for it to end, or pass --logs DIR") from None
            raise LogError(f"{self.path}: cannot lock ({exc.strerror or exc})") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError:
            pass  # the pid is only for the message of a second run; the lock itself is held
        self._fd = fd

    def release(self) -> None:
        """Drop the lock (idempotent). The file stays."""
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor of the open file drops the flock
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def dumps(obj: Any) -> bytes:
    """``obj`` as the folder's JSON files are written: indented, one newline at the end."""
    import orjson

    return orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"


@dataclass(frozen=True)
class ReadRows:
    """The finished games of a log folder: ``rows`` in file order; ``good_bytes`` is how much of the
    file is intact (shorter than the file when a cut-off last line was dropped)."""

    rows: list[dict[str, Any]]
    good_bytes: int
    file_bytes: int

    @property
    def torn(self) -> int:
        """The bytes of the cut-off last line that was ignored (0: none)."""
        return self.file_bytes - self.good_bytes


def read_rows(folder: Path, root: Path | None = None, *, warn: bool = True) -> ReadRows:
    """Parse ``games.jsonl`` in ``folder`` (missing file: no games).

    ``root`` is the user's folder above which links are followed (default: ``folder`` itself, for
    a folder the user named; a run passes :func:`log_root`). The file must be a regular file of
    at most :data:`arena.limits.MAX_RECORDS_BYTES`. A cut-off last line is ignored, with a
    :class:`TornLineWarning` unless ``warn`` is false; any other bad line, or a second line for the
    same index, raises :class:`LogError` naming the file and the line (the module docstring).
    """
    path = folder / GAMES_FILE
    try:
        data = read_input(path, MAX_RECORDS_BYTES, root=folder if root is None else root)
    except FileNotFoundError:
        return ReadRows([], 0, 0)
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror or exc})") from None
    found = parse_rows(data, path)
    if warn and found.torn:
        warn_torn(path, found.torn)
    return found


def parse_rows(data: bytes, path: Path) -> ReadRows:
    """:func:`read_rows` on the bytes ``data`` of the file ``path`` (named in errors), without the
    warning: whoever read the bytes warns of a cut-off last line (its ``torn``)."""
    rows: list[dict[str, Any]] = []
    for batch in row_batches(whole_line_chunks(data), path):
        rows += batch.rows
    return ReadRows(rows, data.rfind(b"\n") + 1, len(data))


#: How many bytes of ``games.jsonl`` are decoded at once by :func:`row_batches` (about 1,500 rows,
#: 10 MB of dicts: the memory of a standings is its columns, not the rows).
ROW_BATCH_BYTES = 1 << 19


@dataclass(frozen=True)
class RowBatch:
    """Consecutive rows of ``games.jsonl``; ``columns`` their columns when every one is a plain
    two-player row (:func:`arena.stats.ratings.plain_pair_columns`), else None."""

    rows: list[dict[str, Any]]
    columns: PlainColumns | None


def whole_line_chunks(data: bytes) -> Iterator[bytes]:
    """``data`` cut into pieces of whole lines of about :data:`ROW_BATCH_BYTES`; what follows the
    last newline (a cut-off append) is left out."""
    good = data.rfind(b"\n") + 1
    start = 0
    while start < good:
        end = data.find(b"\n", min(start + ROW_BATCH_BYTES, good) - 1) + 1
        yield data[start:end]
        start = end


def streamed_line_chunks(fd: int, path: Path, warn: bool = True) -> Iterator[bytes]:
    """The file open at ``fd`` read :data:`ROW_BATCH_BYTES` at a time, as :func:`whole_line_chunks`
    cuts it, without holding the whole file (closes ``fd`` when done); at its end, a cut-off last
    line is warned of (``path``, unless ``warn`` is false)."""
    with open(fd, "rb", closefd=True) as handle:
        pending = b""
        while True:
            block = handle.read(ROW_BATCH_BYTES)
            if not block:
                break
            data = pending + block
            cut = data.rfind(b"\n") + 1
            pending = data[cut:]
            if cut:
                yield data[:cut]
    if pending and warn:
        warn_torn(path, len(pending))


def row_batches(chunks: Iterable[bytes], path: Path, seen: set[int] | None = None) -> Iterator[RowBatch]:
    """The rows of :func:`parse_rows` in batches, one per piece of whole lines of ``chunks``,
    checked alike (the same errors about the same line), for a reader that keeps only some
    columns of them. ``seen``: the indexes of lines before ``chunks`` (a resume reading only the
    lines written since its last check, :mod:`arena.tournament.checked`), updated; an error then
    numbers the lines from the first of ``chunks``.

    Cost. Rows as arena writes them (``orjson``, compact) are decoded a batch at a time by one
    ``orjson.loads`` and encoded back: the same bytes mean no key was given twice (a repeated key
    would be dropped) and no integer is beyond 64 bits (orjson reads one as a float, written back
    otherwise), and orjson itself refuses NaN, infinities and text that is not UTF-8, all as
    :func:`strict_loads` would refuse; their fields are checked a column at a time. A batch that
    does not pass (a hand-written line, a bad row) is read line by line as before, which names the
    bad line.
    """
    seen = set() if seen is None else seen
    first_line = 1
    for chunk in chunks:
        rows = _decoded(chunk)
        columns = plain_pair_columns(rows) if rows is not None else None
        indices = columns.index if columns is not None else _table_indices(rows) if rows is not None else None
        if indices is None or not seen.isdisjoint(indices) or len(set(indices)) != len(indices):
            rows = _rows_one_by_one(chunk, first_line, path, seen)  # raises LogError for the bad line
            columns = None
        else:
            seen.update(indices)
        assert rows is not None
        yield RowBatch(rows, columns)
        first_line += chunk.count(b"\n")


#: Every byte but opening brackets and newlines: what is left of a batch once they are deleted
#: is, line by line, each line's opening brackets (a line nests at most that deep; a string's
#: brackets count too, which only sends a line to the strict reader). Deleting is one C pass.
_NOT_OPENING = bytes(b for b in range(256) if b not in b"[{\n")


def _decoded(chunk: bytes) -> list[Any] | None:
    """The values of the lines of ``chunk`` if every line is compact JSON as ``orjson`` writes it
    (see :func:`row_batches`), else None."""
    if chunk.startswith(b"\n") or b"\n\n" in chunk or \
            max(map(len, chunk.translate(None, _NOT_OPENING).split(b"\n"))) > MAX_JSON_DEPTH:
        return None  # a blank line, or maybe nested too deep: line by line
    try:
        import orjson
    except ImportError:  # scripts/check_logs.py without a venv: every line by strict_loads
        return None
    joined = b"[" + chunk[:-1].replace(b"\n", b",") + b"]"
    try:
        rows = orjson.loads(joined)
    except orjson.JSONDecodeError:
        return None
    return rows if orjson.dumps(rows) == joined else None


def _table_indices(rows: list[Any]) -> list[int] | None:
    """The indices of N-seat ``rows`` if :func:`ranked_from_row` accepts each, else None."""
    from arena.stats.results import ranked_from_row

    if not all(isinstance(row, dict) and "seats" in row for row in rows):
        return None
    try:
        return [ranked_from_row(row).index for row in rows]
    except ValueError:
        return None


def _rows_one_by_one(chunk: bytes, first_line: int, path: Path, seen: set[int]) -> list[dict[str, Any]]:
    """The rows of ``chunk`` (whole lines, the first being line ``first_line``), each decoded by
    :func:`strict_loads` and checked; raises LogError naming the first bad line."""
    from arena.stats.results import ranked_from_row

    rows: list[dict[str, Any]] = []
    for number, line in enumerate(chunk.split(b"\n")[:-1], first_line):
        if not line.strip():
            continue
        try:
            # Strict: a row with "index" twice is not arena's (about 10 us a row; see strict_loads).
            row = strict_loads(line)
            # A row of an N-seat game lists its "seats"; a two-player row its black and white.
            index = (ranked_from_row(row) if isinstance(row, dict) and "seats" in row else result_from_row(row)).index
        except ValueError as exc:
            raise LogError(f"{path}:{number}: not a valid game line ({exc}); fix or delete that line") from None
        if index in seen:
            raise LogError(f"{path}:{number}: game {index} is listed twice; delete one of the lines")
        seen.add(index)
        rows.append(row)
    return rows


def read_batches(folder: Path, *, warn: bool = True) -> Iterator[RowBatch]:
    """The rows of ``folder``'s ``games.jsonl`` (a folder the user named) in batches
    (:func:`row_batches`), read a piece at a time (a file of up to
    :data:`arena.limits.MAX_GAMES_LOG_BYTES`); none when there is no such file. Raises LogError; a
    cut-off last line as :func:`read_rows`."""
    path = folder / GAMES_FILE
    try:
        fd = open_beneath(folder, path, os.O_RDONLY)
        if os.fstat(fd).st_size > MAX_GAMES_LOG_BYTES:
            os.close(fd)
            raise too_large(MAX_GAMES_LOG_BYTES)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror or exc})") from None
    yield from row_batches(streamed_line_chunks(fd, path, warn), path)




def read_games_bytes(folder: Path, root: Path, after: int = 0, digest: Any = None) -> tuple[bytes, int]:
    """``(data, torn)``: the bytes of ``games.jsonl`` in ``folder`` (empty when there is none) after
    the first ``after`` ones, which go to ``digest`` (a :mod:`hashlib` object: a resume's checked
    prefix, :mod:`arena.tournament.checked`), read a piece at a time; ``torn``: the bytes of a
    cut-off last line, warned of (:func:`parse_rows` leaves them out). ``root`` as
    :func:`read_rows`'s. Raises LogError."""
    path = folder / GAMES_FILE
    try:
        fd = open_beneath(root, path, os.O_RDONLY)
    except FileNotFoundError:
        return b"", 0
    except (OSError, ValueError) as exc:
        raise LogError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    with open(fd, "rb", closefd=True) as handle:
        try:
            if os.fstat(fd).st_size > MAX_RECORDS_BYTES:
                raise too_large(MAX_RECORDS_BYTES)
            left, buffer = after, bytearray(1 << 20)  # a buffer that stays in the caches
            while left > 0 and (count := handle.readinto(memoryview(buffer)[:min(left, len(buffer))])):
                digest.update(memoryview(buffer)[:count])
                left -= count
            data = handle.read(MAX_RECORDS_BYTES + 1 - after)
        except OSError as exc:
            raise LogError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if after + len(data) > MAX_RECORDS_BYTES:
        raise LogError(f"{path}: cannot read ({too_large(MAX_RECORDS_BYTES).strerror})")
    torn = len(data) - (data.rfind(b"\n") + 1)
    if torn:
        warn_torn(path, torn)
    return data, torn


def whole_lines_size(fd: int) -> int:
    """How many bytes of the file open at ``fd`` are whole lines (up to its last newline): where the
    next line goes once a cut-off last line is cut off. Reads the file backwards from its end, a
    block at a time. Raises OSError."""
    end = os.fstat(fd).st_size
    while end > 0:
        start = max(0, end - (1 << 16))
        block = os.pread(fd, end - start, start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        end = start
    return 0


# -- standings.json ----------------------------------------------------------------------------------


def read_standings(folder: Path, root: Path | None = None) -> dict[str, Any] | None:
    """``folder``'s ``standings.json`` (an object), None when there is none. ``root`` as
    :func:`read_rows`'s. Raises LogError (one line naming the file) when it cannot be read or is not
    a JSON object (a FIFO or a link in its place, a cut-off write of an older arena)."""
    path = folder / STANDINGS_FILE
    try:
        found = read_json_file(path, MAX_RECORDS_BYTES, root=folder if root is None else root)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise LogError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    if not isinstance(found, dict):
        raise LogError(f"{path}: cannot read (not a JSON object)")
    return found


def write_standings(folder: Path, standings: dict[str, Any]) -> None:
    """Write ``standings.json`` in a run's log folder, atomically and not synced (derived data,
    rewritten from all finished games). Raises OSError (:func:`write_failure` makes it one line)."""
    atomic_write(folder / STANDINGS_FILE, dumps(standings), root=log_root(folder), sync=False)
