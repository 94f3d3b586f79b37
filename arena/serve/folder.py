"""A tournament's log folder, read only: what a page shows of it, re-read when it changes.

The writer (:mod:`arena.tournament.logs`) appends a line to ``games.jsonl`` as each game ends and
rewrites ``standings.json`` whole (a temporary file renamed), so a reader never sees half a
standings file, and a cut-off last line of ``games.jsonl`` is ignored without a warning by
:func:`arena.records.logstore.read_rows` (here it is a line being written: the game is simply not
finished yet). A resumed run may rewrite ``games.jsonl`` without such a tail:
any change of size, mtime or inode of either file re-reads both, so a shorter file is read as
it is now. Missing files (a run that has not written them yet) are no games and no standings.

Nothing here writes: files are opened read-only below the folder without following links
(:func:`arena.fileio.files.open_beneath`), as ``arena standings DIR`` reads them.
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.fileio.files import open_beneath
from arena.fileio.jsonfiles import read_json_file
from arena.limits import MAX_FILE_BYTES
from arena.records.logstore import CONFIG_FILE, STANDINGS_FILE, LogError, read_rows, read_standings
from arena.records.reader import GAMES_FILE

#: The files whose change means new standings or new games.
WATCHED = (GAMES_FILE, STANDINGS_FILE)
#: How much of a bot's stderr an agent's page shows for a fault.
STDERR_TAIL_BYTES = 2000

#: (size, mtime in ns, inode) of a file, or None when it does not exist.
Stamp = tuple[int, int, int] | None


class NotALogFolder(ArenaError):
    """The path given is not a tournament's log folder (one line; exit 2)."""


def check_log_folder(path: Path) -> Path:
    """``path`` when it can be served: a folder holding ``config.json``, ``games.jsonl`` or
    ``standings.json``, or an empty folder (a run about to start). Raises NotALogFolder."""
    if not path.is_dir():
        what = "does not exist" if not path.exists() else "is not a folder"
        raise NotALogFolder(f"{path} {what}; give a tournament's log folder (tournament_logs/<id>)")
    names = {p.name for p in path.iterdir()}
    if names and not names & {CONFIG_FILE, *WATCHED}:
        raise NotALogFolder(f"{path} is not a tournament log folder (no {CONFIG_FILE}, {GAMES_FILE} or "
                            f"{STANDINGS_FILE}); give tournament_logs/<id>")
    return path


@dataclass(frozen=True)
class Snapshot:
    """The folder as read at one moment. ``version`` grows by one at each change seen; ``rows`` are
    the finished games in file order (the order they ended); ``error`` is one line when a file could
    not be read (the previous rows and standings are kept)."""

    version: int
    rows: tuple[dict[str, Any], ...] = ()
    standings: dict[str, Any] | None = None
    config: dict[str, Any] | None = None
    error: str | None = None
    stamps: tuple[Stamp, ...] = field(default=(), compare=False)


def stamp(path: Path) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


class LogFolder:
    """The log folder ``path``, re-read only when its files change (thread-safe: the app polls it
    from worker threads, one per watching page)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._snapshot = Snapshot(version=0)
        self._stamps: tuple[Stamp, ...] | None = None

    def poll(self) -> Snapshot:
        """The current snapshot: the cached one when neither watched file changed (two ``stat``
        calls), else the files read again with ``version`` one higher."""
        with self._lock:
            stamps = tuple(stamp(self.path / name) for name in WATCHED)
            if stamps != self._stamps:
                self._stamps = stamps
                self._snapshot = self._read(self._snapshot, stamps)
            return self._snapshot

    def _read(self, old: Snapshot, stamps: tuple[Stamp, ...]) -> Snapshot:
        rows, standings, error = old.rows, old.standings, None
        try:
            # A torn last line here is a line being appended: the game is not finished yet.
            rows = tuple(read_rows(self.path, warn=False).rows)
        except LogError as exc:
            error = str(exc)
        if stamps[1] is None:
            standings = None
        else:
            try:
                standings = read_standings(self.path)
            except LogError as exc:
                error = error or str(exc)
        config = old.config
        if config is None:
            with contextlib.suppress(OSError, ValueError):
                found = read_json_file(self.path / CONFIG_FILE, MAX_FILE_BYTES, root=self.path)
                config = found if isinstance(found, dict) else None
        return Snapshot(old.version + 1, rows, standings, config, error, stamps)

    def stderr_tail(self, name: str, limit: int = STDERR_TAIL_BYTES) -> str | None:
        """The last ``limit`` bytes of ``stderr/<name>`` as text, None when there is no such file."""
        try:
            fd = open_beneath(self.path, self.path / "stderr" / name, os.O_RDONLY)
        except (OSError, ValueError):
            return None
        try:
            size = os.fstat(fd).st_size
            data = os.pread(fd, limit, max(0, size - limit))
        except OSError:
            return None
        finally:
            os.close(fd)
        text = data.decode("utf-8", "replace")
        return text if size <= limit else "…" + text
