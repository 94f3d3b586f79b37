"""The games of a source: a record file (one record, an array, JSON lines), a log folder
(``games.jsonl`` and ``games/NNNNN.json``) or a folder of record files, as
:mod:`arena.records.reader` reads them, listed without loading every record when possible.

A game is picked by its index (:attr:`GameEntry.index`): the record's ``game_index`` and the number
in ``games/NNNNN.json``, counted from 0 as the records count. :mod:`arena.records.replay` turns the
record of one into its timeline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.games.base import ArenaError, Color
from arena.records.normal import two_colour
from arena.records.reader import list_games, read_game_file, result_text
from arena.records.types import Record


class ReplayError(ArenaError):
    """A game that cannot be replayed: no such game in the source, an unknown game, moves that do not
    follow. One line; exit 2. (A source that cannot be read is a RecordInputError.)"""


@dataclass(frozen=True)
class GameEntry:
    """One game of a source, as listed without loading its whole record when possible."""

    index: int
    black: str
    white: str
    winner: str  # BLACK, WHITE, NONE or "?" when not known
    termination: str
    plies: int | None
    record: Record | None = None  # already loaded (record files)
    path: Path | None = None  # where the record is (log folders)
    #: A game of N seats (``record_format`` 3): the seats' ids and ranks; None for two players.
    seats: tuple[str, ...] | None = None
    ranks: tuple[int, ...] | None = None

    def result_text(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unknown or interrupted)."""
        return result_text(self.winner, self.termination)


@dataclass(frozen=True)
class Source:
    """A record file or a log folder: ``label`` (the path as given) and its games, by index."""

    label: str
    entries: tuple[GameEntry, ...]
    is_folder: bool
    #: A log folder's path: its record files are read below it without following links.
    root: Path | None = None

    def pick(self, index: int | None) -> GameEntry | None:
        """The game ``index``; with ``None``, the only game (``None`` when there are several: the
        caller lists them). Raises ReplayError for an index the source does not hold."""
        if index is None:
            return self.entries[0] if len(self.entries) == 1 else None
        for entry in self.entries:
            if entry.index == index:
                return entry
        raise ReplayError(f"{self.label}: no game {index} here; it holds {_index_ranges(self.entries)}")

    def load(self, entry: GameEntry) -> Record:
        """The full record of ``entry``; RecordInputError when its file is missing or not a record."""
        if entry.record is not None:
            return entry.record
        assert entry.path is not None and self.root is not None
        return read_game_file(entry.path, root=self.root)

    def listing(self) -> list[str]:
        """One line per game: index, players, result, termination, plies (no trailing spaces).
        Games of N seats: index, seats, ranks, termination, steps."""
        rows: list[tuple[str, ...]]
        if any(e.seats is not None for e in self.entries):
            rows = [(str(e.index), ", ".join(e.seats or ("?",)), " ".join(map(str, e.ranks or ())) or "?",
                     e.termination, "" if e.plies is None else f"{e.plies} steps") for e in self.entries]
            header: tuple[str, ...] = ("GAME", "SEATS", "RANKS", "TERMINATION", "STEPS")
        else:
            rows = [(str(e.index), e.black, e.white, e.result_text(), e.termination,
                     "" if e.plies is None else f"{e.plies} plies") for e in self.entries]
            header = ("GAME", "BLACK", "WHITE", "RESULT", "TERMINATION", "PLIES")
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                for row in [header, *rows]]


def open_source(path: str | Path) -> Source:
    """The games in ``path`` (:func:`arena.records.reader.list_games`). Raises RecordInputError: a
    missing path, a file that holds no record, a folder without games."""
    games = list_games(path)
    folder = next((g.log_folder for g in games if g.log_folder is not None), None)
    entries = tuple(_entry(g.summary, g.index, record=g.record, path=g.path) for g in games)
    return Source(str(path), entries, is_folder=Path(path).is_dir() or folder is not None, root=folder)


def _entry(row: Mapping[str, Any], index: int, *, record: Record | None = None,
           path: Path | None = None) -> GameEntry:
    names = player_names(row)
    plies = row.get("plies")
    seats = ranks = None
    if isinstance(row.get("seats"), list) and "ranks" in row and not two_colour(row):
        # A record lists its seats as objects, a tournament's games.jsonl line as agent ids.
        seats = tuple(str(s.get("id", "?")) if isinstance(s, Mapping) else str(s) for s in row["seats"])
        found = row.get("ranks")
        ranks = tuple(r for r in found if isinstance(r, int)) if isinstance(found, list) else None
        steps = row.get("steps")
        plies = len(steps) if isinstance(steps, list) else plies
    return GameEntry(
        index=index,
        black=str(row.get("black") or names[Color.BLACK]),
        white=str(row.get("white") or names[Color.WHITE]),
        winner=str(row.get("winner", "?")).upper(),
        termination=str(row.get("termination", "?")),
        plies=plies if isinstance(plies, int) and not isinstance(plies, bool) else None,
        record=record,
        path=path,
        seats=seats,
        ranks=ranks,
    )


def player_names(record: Mapping[str, Any]) -> dict[Color, str]:
    """``{colour: player id}`` from a record's ``players`` (``"?"`` for a missing one)."""
    names = {Color.BLACK: "?", Color.WHITE: "?"}
    players = record.get("players")
    if isinstance(players, list):
        for player in players:
            if isinstance(player, Mapping):
                colour = str(player.get("colour", player.get("color", ""))).upper()
                if colour in names:
                    names[Color(colour)] = str(player.get("id", "?"))
    return names


def _index_ranges(entries: tuple[GameEntry, ...]) -> str:
    """``game 0``, ``games 0-9`` or ``games 0-3, 5, 7-9`` (indexes are sorted)."""
    indexes = sorted(e.index for e in entries)
    parts: list[str] = []
    start = prev = indexes[0]
    for index in [*indexes[1:], None]:
        if index is not None and index == prev + 1:
            prev = index
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if index is not None:
            start = prev = index
    return ("game " if len(indexes) == 1 else "games ") + ", ".join(parts)


__all__ = ["GameEntry", "ReplayError", "Source", "open_source", "player_names"]
