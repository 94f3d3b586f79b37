"""The games in progress of a log folder: ``live/NNNNN.jsonl``, one file per game being played, so
that a reader (``arena serve``) can show them move by move while the run plays them.

A file is created when its game starts, grows by one line per move and is removed when the game
ends (finished, interrupted or failed), before or just after the game's line reaches
``games.jsonl``. The run clears the folder when it starts and when it ends, so a file left by a run
that was killed is gone at the next run; meanwhile a reader sees the folder's lock released
(:func:`arena.serve.live.run_holds`) and shows no such game.

Format (JSON lines, appended with one ``write`` each on an ``O_APPEND`` descriptor, so a reader sees
whole lines plus at most one cut-off last line, which it leaves for its next look):

- first line: ``{"index": N, "players": [ids in seat order: black first], "started": ISO time}``;
- then one line per step of any game (:class:`arena.match.progress.StepPlayed`): a move as
  ``{"ply": P, "seat": S, "move": "its notation", "ms": thinking ms charged}`` (P: the game's ply
  after it), any other step as a format-3 record has it (``kind`` ``chance``, ``joint`` or
  ``elimination``). Traces written before 2026-12-07 also hold an N-seat game's moves in that
  form (``kind`` ``move``, the move's record form, ``charged_ms``); the reader
  (:mod:`arena.serve.live`) reads both.

Cost: one small ``orjson.dumps`` and one ``write`` per ply (measured in bench/bench_live.py). The
trace is a convenience: a write that fails (disk full) stops that game's trace, never the game.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from arena.fileio.files import open_beneath
from arena.match.progress import StepPlayed

#: The folder of the games in progress, inside a log folder.
LIVE_FOLDER = "live"


def live_name(index: int) -> str:
    """The file of game ``index`` inside :data:`LIVE_FOLDER`."""
    return f"{index:05d}.jsonl"


class LiveTrace:
    """Writer of ``folder/live/`` (the run's log folder ``folder``, links refused below ``root``).
    The folder is held open from the run's first game to :meth:`close` (the run's end), so a
    game's file costs one open and its removal none."""

    def __init__(self, folder: Path, root: Path) -> None:
        self.folder = folder / LIVE_FOLDER
        self.root = root
        self._fd: int | None = None

    def clear(self) -> None:
        """Remove every file of the folder (a killed run's games), creating it if needed."""
        self.close()
        with contextlib.suppress(OSError, ValueError):
            fd = open_beneath(self.root, self.folder, os.O_RDONLY | os.O_DIRECTORY, make_dirs=True)
            try:
                for name in os.listdir(fd):
                    with contextlib.suppress(OSError):
                        os.unlink(name, dir_fd=fd)  # the entry itself, never a link's target
            finally:
                os.close(fd)

    def start(self, index: int, players: Sequence[str]) -> GameTrace | None:
        """Create game ``index``'s file; the observer that appends each of its moves (None: the
        file could not be made, so the game goes untraced)."""
        try:
            if self._fd is None:
                self._fd = open_beneath(self.root, self.folder, os.O_RDONLY | os.O_DIRECTORY, make_dirs=True)
            fd = open_beneath(self._fd, live_name(index), os.O_WRONLY | os.O_APPEND, fresh=True)
        except (OSError, ValueError):
            return None
        trace = GameTrace(fd, self.root, self.folder / live_name(index))
        trace.append(orjson.dumps({"index": index, "players": list(players),
                                   "started": datetime.now(UTC).isoformat(timespec="seconds")}) + b"\n")
        return trace

    def end(self, index: int, trace: GameTrace | None) -> None:
        """Game ``index`` is over: close and remove its file."""
        if trace is not None:
            trace.close()
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(live_name(index), dir_fd=self._fd)

    def close(self) -> None:
        """Let go of the folder (a later game opens it again)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class GameTrace:
    """The observer of one game (the events of :mod:`arena.match.progress`): one line per step on
    the open descriptor ``fd`` of the file ``path`` (below ``root``).

    It runs anywhere (:func:`arena.match.progress.runs_anywhere`): pickled, it is its file, and a
    worker process that plays the game reopens the file and writes the lines itself, so no step
    crosses the worker's pipe and the driver does nothing a ply (issue 36: the driver's CPU a game
    is what limits games a second on many cores). The copy is closed by whoever plays the game."""

    __slots__ = ("fd", "path", "root")
    runs_anywhere = True

    def __init__(self, fd: int, root: Path | None = None, path: Path | None = None) -> None:
        self.fd = fd
        self.root = root
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (_reopened, (self.root, self.path))

    def __call__(self, event: Any) -> None:
        if self.fd < 0:
            return
        if type(event) is StepPlayed:
            step = event.step
            if step["kind"] == "move":
                # Formatted by hand: half the time of orjson.dumps on a dict (the notation is escaped).
                self.append(b'{"ply":%d,"seat":%d,"move":%s,"ms":%.1f}\n' % (
                    step["ply"] + 1, step["seat"], orjson.dumps(event.notation), step["charged_ms"]))
            else:
                self.append(orjson.dumps(step) + b"\n")

    def append(self, line: bytes) -> None:
        try:
            os.write(self.fd, line)
        except OSError:
            self.close()  # the disk is full: the game goes on, untraced

    def close(self) -> None:
        if self.fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = -1


def _reopened(root: Path | None, path: Path | None) -> GameTrace:
    """A pickled trace in the process that plays its game: its file opened again for appending
    (never created: a file its run has removed stays removed); a closed trace when it cannot be."""
    if root is None or path is None:
        return GameTrace(-1)
    try:
        return GameTrace(open_beneath(root, path, os.O_WRONLY | os.O_APPEND), root, path)
    except (OSError, ValueError):
        return GameTrace(-1)


def chain(*observers: Callable[[Any], None] | None) -> Callable[[Any], None] | None:
    """One observer calling each of ``observers`` that is not None (None when none is)."""
    present = [o for o in observers if o is not None]
    if len(present) <= 1:
        return present[0] if present else None

    def both(event: Any) -> None:
        for observer in present:
            observer(event)

    return both
