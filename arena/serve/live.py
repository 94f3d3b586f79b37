"""The games in progress of a log folder, read only: ``live/NNNNN.jsonl`` as the run writes them
(:mod:`arena.tournament.live`: a header line, then one line per step, the file removed when the
game ends).

Each poll lists the folder and ``stat``s its files (as many as games run at once); a file that grew
is read from where the last look stopped, whole lines only (a cut-off last line waits for the next
look), so a long game costs its new lines, not its whole file, at each change. A file that was
replaced (another inode: a game played again) is read from its start. A run killed with ``kill
-9`` leaves its files until the next run clears them: each game shows when its last move came, so
such a game reads as stalled rather than lost.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from arena.fileio.files import open_beneath
from arena.tournament.live import LIVE_FOLDER

#: The most bytes read from one live file at a look (a runaway file is read in pieces).
READ_LIMIT = 1 << 20
#: The most moves of one game kept in memory (and shown): the latest ones.
KEEP_STEPS = 1000


@dataclass
class LiveGame:
    """One game in progress: ``index``, ``players`` in seat order, ``started`` (ISO time), its
    latest ``steps`` (the file's move lines, parsed; at most :data:`KEEP_STEPS`, after ``dropped``
    earlier ones) and ``updated``: the file's mtime in seconds."""

    index: int
    players: list[str]
    started: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    updated: float = 0.0
    dropped: int = 0

    @property
    def plies(self) -> int:
        return self.dropped + len(self.steps)


@dataclass(frozen=True)
class LiveSnapshot:
    """The games in progress at one look, by index; ``version`` grows at each change seen."""

    version: int
    games: tuple[LiveGame, ...] = ()


@dataclass
class _Open:
    inode: int
    offset: int
    size: int
    game: LiveGame | None  # None until the header line has been read


class LiveFolder:
    """``folder/live/``, re-read only where it changed (thread-safe, as :class:`LogFolder`)."""

    def __init__(self, folder: Path) -> None:
        self.root = folder
        self.path = folder / LIVE_FOLDER
        self._lock = threading.Lock()
        self._files: dict[str, _Open] = {}
        self._snapshot = LiveSnapshot(0)

    def poll(self) -> LiveSnapshot:
        with self._lock:
            changed = False
            try:
                names = sorted(n for n in os.listdir(self.path) if n.endswith(".jsonl") and n[:-6].isdigit())
            except OSError:
                names = []
            for gone in set(self._files) - set(names):
                del self._files[gone]
                changed = True
            for name in names:
                changed |= self._look(name)
            if changed:
                games = tuple(f.game for _, f in sorted(self._files.items()) if f.game is not None)
                self._snapshot = LiveSnapshot(self._snapshot.version + 1, games)
            return self._snapshot

    def _look(self, name: str) -> bool:
        """Read what is new in ``name``; True when something changed."""
        try:
            st = os.lstat(self.path / name)
        except OSError:
            return self._files.pop(name, None) is not None
        known = self._files.get(name)
        if known is not None and known.inode == st.st_ino and known.size == st.st_size:
            return False
        if known is None or known.inode != st.st_ino or st.st_size < known.offset:
            known = self._files[name] = _Open(st.st_ino, 0, 0, None)
        # A file longer than one read is finished at the next look (size left unmatched).
        known.size = st.st_size if st.st_size - known.offset <= READ_LIMIT else -1
        try:
            fd = open_beneath(self.root, self.path / name, os.O_RDONLY)
        except (OSError, ValueError):
            return False
        try:
            data = os.pread(fd, READ_LIMIT, known.offset)
        except OSError:
            return False
        finally:
            os.close(fd)
        whole = data[: data.rfind(b"\n") + 1]
        known.offset += len(whole)
        for line in whole.splitlines():
            try:
                item = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if not isinstance(item, dict):
                continue
            if known.game is None:
                players = item.get("players")
                index = item.get("index")
                if not isinstance(index, int) or not isinstance(players, list):
                    continue
                known.game = LiveGame(index, [str(p) for p in players], str(item.get("started", "")))
            else:
                known.game.steps.append(item)
        if known.game is not None:
            known.game.updated = st.st_mtime
            extra = len(known.game.steps) - KEEP_STEPS
            if extra > 0:
                del known.game.steps[:extra]
                known.game.dropped += extra
        return True


def step_text(game: LiveGame, step: dict[str, Any]) -> tuple[str, str]:
    """(who, what) of one move line: the mover's id and the move as text."""
    def seat_id(seat: Any) -> str:
        return game.players[seat] if isinstance(seat, int) and 0 <= seat < len(game.players) else "?"

    kind = step.get("kind", "move")
    if kind == "chance":
        return "chance", _text(step.get("outcome"))
    if kind == "joint":
        moves = step.get("moves")
        moves = moves if isinstance(moves, dict) else {}
        return "all", "; ".join(f"{seat_id(int(s)) if s.isdigit() else s}: {_text(m)}" for s, m in moves.items())
    if kind == "elimination":
        return seat_id(step.get("seat")), f"out ({_text(step.get('termination'))})"
    return seat_id(step.get("seat")), _text(step.get("move"))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else orjson.dumps(value).decode()
