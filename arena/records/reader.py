"""Reading game records: the one reader, for every command and every resumed run.

A source is one of:

- a record file: one record (a JSON object, ``arena match --out``), a JSON array of records
  (``arena match --games N --out``) or JSON lines, one record a line;
- a log folder (a tournament's ``tournament_logs/<id>/``, an ``arena sprt`` or ``arena tune spsa``
  run), or its ``games.jsonl``: the games listed in ``games.jsonl`` (:data:`GAMES_FILE`), each record
  in ``games/NNNNN.json`` (:func:`record_name`); a folder without ``games.jsonl`` (an SPRT run, a
  copied folder) lists the record files in ``games/`` themselves;
- any other folder: the record files (``*.json``) in it, in name order.

:func:`list_games` lists a source's games without reading a log folder's records (a replay lists
thousands), :func:`read_records` iterates over the records themselves, :func:`read_record_list`
reads one file's records, :func:`read_game` one game of a log folder (what a resumed run keeps) and
:func:`read_game_file` one record file.
Every failure is a :class:`RecordInputError`: one line naming the file, exit status 2. A record that
is read is a :class:`arena.records.types.Record` once :func:`arena.records.format.record_problem`
passed (``checked=False`` leaves that to the caller: ``arena check-record`` reports it per record).

Files are regular files of at most :data:`arena.limits.MAX_RECORDS_BYTES`, decoded strictly
(:func:`arena.fileio.jsonfiles.strict_loads`: no key twice, nesting at most 64 deep); below a log
folder no link is followed (:func:`arena.fileio.files.read_input` with ``root``). Standard library
only: ``scripts/check_record.py`` runs it without a venv.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from arena.errors import ArenaError
from arena.fileio.files import UnsafeFileError, read_input
from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.limits import MAX_RECORDS_BYTES
from arena.records.format import record_problem
from arena.records.types import Record

#: A log folder's list of finished games, one JSON line each (:class:`arena.records.types.GamesRow`).
GAMES_FILE = "games.jsonl"
#: The folder of a log folder's record files, ``NNNNN.json`` (:func:`record_name`).
RECORDS_FOLDER = "games"
#: The PGN/PDN result of a game by its winner; ``*`` stands for an interrupted or unknown one.
RESULT_TEXT: dict[str, str] = {"BLACK": "1-0", "WHITE": "0-1", "NONE": "1/2-1/2"}
_RECORD_FILE = re.compile(r"(\d+)\.json\Z")

_Path = str | os.PathLike[str]


class RecordInputError(ArenaError):
    """A source that cannot be read as game records: the message is one line naming the file (and
    the record, ``FILE[n]``, in an array). Exit status 2."""


# -- names -------------------------------------------------------------------------------------------


#: The name of game ``index``'s record file in ``games/``: ``RECORD_FILE.format(index)``.
RECORD_FILE = "{:05d}.json"


def record_name(index: int) -> str:
    """The record file of game ``index``, relative to its log folder: ``games/00012.json``."""
    return f"{RECORDS_FOLDER}/{RECORD_FILE.format(index)}"


def record_path(folder: Path, index: int) -> Path:
    """The record file of game ``index`` of the log folder ``folder``."""
    return folder / record_name(index)


def record_index(name: str) -> int | None:
    """The game index of a record file's name (``00012.json``: 12), None for another name."""
    match = _RECORD_FILE.fullmatch(name)
    return int(match.group(1)) if match else None


def result_text(winner: object, termination: object = None) -> str:
    """``1-0`` (BLACK won), ``0-1`` (WHITE won), ``1/2-1/2`` (a draw), ``*`` (an interrupted game,
    or a winner that is not known): the result as PGN and PDN write it."""
    if termination == "interrupted":
        return "*"
    return RESULT_TEXT.get(str(winner).upper(), "*")


def finishing_order(seats: Sequence[str], ranks: Sequence[int] | None) -> str:
    """``"a 1st, c 2nd, b 3rd"``: an N-seat game's agents best first (ties share a rank, seat
    order between them); the seats in order when the ranks are missing or do not match."""
    if ranks is None or len(ranks) != len(seats) or not all(isinstance(r, int) for r in ranks):
        return ", ".join(seats)
    order = sorted(range(len(seats)), key=lambda k: (ranks[k], k))
    return ", ".join(f"{seats[k]} {ordinal(ranks[k])}" for k in order)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- one file ----------------------------------------------------------------------------------------


def read_record_file(path: _Path, *, root: _Path | None = None) -> Any:
    """The JSON value of a file of records: one record object, a JSON array, or JSON lines (one
    record a line; returned as a list). Raises RecordInputError, except FileNotFoundError and
    IsADirectoryError (left to the caller, which knows what the path was meant to be). ``root``:
    the file is inside arena's own folder and no link below ``root`` is followed."""
    try:
        data = read_input(path, MAX_RECORDS_BYTES, root=root)
    except (FileNotFoundError, IsADirectoryError):
        raise
    except UnsafeFileError as exc:
        if exc.errno == errno.EISDIR:
            raise IsADirectoryError(exc.errno, exc.strerror) from None
        raise RecordInputError(f"{path}: {exc.strerror}; not a file of game records") from None
    except OSError as exc:
        raise RecordInputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:  # a path out of ``root``
        raise RecordInputError(f"{path}: cannot read ({exc})") from None
    return parse_record_text(data, str(path))


def parse_record_text(data: bytes, label: str) -> Any:
    """:func:`read_record_file` on bytes already read (``label`` names them in errors)."""
    try:
        return strict_loads(data)
    except JsonInputError as exc:
        first = exc
    lines = [line for line in data.splitlines() if line.strip()]
    if len(lines) > 1:  # JSON lines: one record a line
        values = []
        for number, line in enumerate(lines, 1):
            try:
                values.append(strict_loads(line))
            except JsonInputError as exc:
                if number == 1:
                    break  # not JSON lines either: the whole text's error says more
                raise RecordInputError(f"{label}: line {number}: {exc}") from None
        else:
            return values
    reason = f"not JSON: {first.syntax}" if first.syntax else str(first)
    raise RecordInputError(f"{label}: not a game record ({reason})") from None


def _value(path: Path, root: _Path | None) -> Any:
    """:func:`read_record_file` with every failure a RecordInputError."""
    try:
        return read_record_file(path, root=root)
    except FileNotFoundError:
        raise RecordInputError(f"{path}: no such file or folder") from None
    except IsADirectoryError:
        raise RecordInputError(f"{path}: a folder, expected a record file") from None


def _checked(value: Any, where: str, checked: bool) -> Record:
    """``value`` as a record, or RecordInputError naming ``where``: not an object, or (``checked``)
    fields a reader cannot use (:func:`arena.records.format.record_problem`)."""
    problem = record_problem(value) if checked or not isinstance(value, dict) else None
    if problem is not None:
        raise RecordInputError(f"{where}: not a game record ({problem})")
    return cast(Record, value)


def _items(value: Any, path: Path, checked: bool) -> list[tuple[str, Record]]:
    """``(where, record)`` for the record or each record of the array ``value`` read from ``path``."""
    if not isinstance(value, list):
        return [(str(path), _checked(value, str(path), checked))]
    if not value:
        raise RecordInputError(f"{path}: not a game record (an empty array, no game in it)")
    return [(f"{path}[{n}]", _checked(item, f"{path}[{n}]", checked)) for n, item in enumerate(value)]


def read_record_list(path: _Path, *, root: _Path | None = None, checked: bool = True) -> list[Record]:
    """The records of the record file ``path``: one, or each of its array or JSON lines. Raises
    RecordInputError: missing, a folder, unreadable, not JSON, an empty array, an item that is not
    an object, or (``checked``) one whose fields are not a record's."""
    return [record for _, record in _items(_value(Path(path), root), Path(path), checked)]


def read_game(folder: Path, index: int, *, root: _Path | None = None) -> Record:
    """Game ``index``'s record in the log folder ``folder`` (:func:`record_path`), read without
    following a link below ``root`` (default: ``folder``). RecordInputError when it is missing,
    unreadable or not one record."""
    return read_game_file(record_path(folder, index), root=folder if root is None else root)


def read_game_file(path: Path, *, root: _Path | None = None) -> Record:
    """The one record in the file ``path`` (a log folder's game; no link followed below ``root``).
    RecordInputError when it is missing, unreadable, an array or not a record."""
    value = _value(path, root)
    if isinstance(value, list):
        raise RecordInputError(f"{path}: not a game record (an array, expected one record)")
    return _checked(value, str(path), True)


# -- sources -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredGame:
    """One game of a source, listed without reading its record when it is in a log folder.

    ``where`` names it in messages (the file, ``FILE[n]`` for an item of an array); ``index`` is
    its game index (a log folder's, else the record's ``game_index`` when the source's records have
    distinct ones, else its position). ``summary`` holds what a listing shows (``players`` or
    ``black``/``white``, ``winner``, ``termination``, ``plies``): the ``games.jsonl`` line, or the
    record itself. ``log_folder`` is the log folder the game belongs to (None for a record file).
    """

    where: str
    index: int
    summary: Mapping[str, Any]
    record: Record | None = None  # already read (record files)
    path: Path | None = None  # the record file (log folders)
    log_folder: Path | None = None

    def load(self) -> Record:
        """The game's record; RecordInputError when its file is missing or not one record."""
        if self.record is not None:
            return self.record
        assert self.path is not None and self.log_folder is not None
        return read_game_file(self.path, root=self.log_folder)


def list_games(path: _Path, *, checked: bool = True) -> list[StoredGame]:
    """The games of the source ``path`` (see the module docstring). Raises RecordInputError: a
    missing path, a file that holds no record, a folder without games, a bad ``games.jsonl`` line."""
    where = Path(path)
    if where.is_dir():
        return _folder_games(where, str(path))
    if where.name == GAMES_FILE and where.is_file():
        return _folder_games(where.parent, str(path))
    return _indexed([StoredGame(w, n, r, record=r) for n, (w, r) in enumerate(_items(_value(where, None), where,
                                                                                       checked))])


def read_records(path: _Path, *, checked: bool = True) -> Iterator[tuple[StoredGame, Record]]:
    """Every game of the source ``path`` with its record, in order; a log folder's records are read
    one at a time, as the iteration reaches them. Raises RecordInputError (:func:`list_games`,
    :meth:`StoredGame.load`)."""
    for game in list_games(path, checked=checked):
        yield game, game.load()


def _indexed(games: list[StoredGame]) -> list[StoredGame]:
    """Each record's ``game_index`` as its index when the records' indices are distinct, else its
    position (records of several matches in one file)."""
    indices = [game.record.get("game_index") if game.record is not None else None for game in games]
    if not all(_is_index(i) for i in indices) or len(set(indices)) != len(indices):
        indices = list(range(len(games)))
    return [StoredGame(g.where, int(i or 0), g.summary, g.record, g.path, g.log_folder)
            for g, i in zip(games, indices, strict=True)]


def _folder_games(folder: Path, label: str) -> list[StoredGame]:
    rows_path = folder / GAMES_FILE
    records = folder / RECORDS_FOLDER
    if rows_path.is_file() or rows_path.is_symlink():
        games = [_listed(folder, row) for row in _rows(rows_path, folder)]
        if not games:
            raise RecordInputError(f"{label}: no games here (no finished game in {GAMES_FILE} yet)")
    elif records.is_dir():
        # No games.jsonl (an `arena sprt` run, a copied folder): the list comes from the records
        # themselves; one that cannot be read is listed with "?" and fails when it is loaded.
        files = sorted((index, f) for f in records.iterdir() if (index := record_index(f.name)) is not None)
        if not files:
            raise RecordInputError(f"{label}: no games here: no game records in {records} "
                                   f"({RECORDS_FOLDER}/NNNNN.json)")
        games = [StoredGame(str(f), index, _summary(f, folder), path=f, log_folder=folder) for index, f in files]
    else:
        found = sorted(f for f in folder.iterdir() if f.suffix == ".json" and f.is_file() and not f.name.startswith("."))
        if not found:
            raise RecordInputError(f"{label}: no games here: no record files (*.json), and not a log folder "
                                   f"(no {GAMES_FILE}, no {RECORDS_FOLDER}/)")
        return _indexed([StoredGame(w, 0, r, record=r) for f in found for w, r in _items(_value(f, folder), f, True)])
    games.sort(key=lambda g: g.index)
    return games


def _rows(path: Path, folder: Path) -> Iterator[Mapping[str, Any]]:
    """The rows of ``games.jsonl``, read by the log folder store (a cut-off last line is not a
    finished game: :mod:`arena.records.logstore`); its LogError becomes a RecordInputError."""
    from arena.records.logstore import LogError, read_rows  # the store imports this module

    try:
        return iter(read_rows(folder).rows)
    except LogError as exc:
        raise RecordInputError(str(exc)) from None


def _listed(folder: Path, row: Mapping[str, Any]) -> StoredGame:
    index = int(row["index"])
    relative = row.get("record") if isinstance(row.get("record"), str) else None
    path = folder / (relative or record_name(index))
    return StoredGame(str(path), index, row, path=path, log_folder=folder)


def _summary(path: Path, folder: Path) -> Mapping[str, Any]:
    """What a listing shows of the record at ``path`` (empty when it cannot be read)."""
    try:
        record = read_record_file(path, root=folder)
    except (OSError, ArenaError):
        return {}
    if not isinstance(record, dict):
        return {}
    turns = record.get("turns")
    return {"players": record.get("players"), "winner": record.get("winner", "?"),
            "termination": record.get("termination", "?"),
            "plies": len(turns) if isinstance(turns, list) else record.get("plies")}


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


__all__ = [
    "GAMES_FILE",
    "RECORDS_FOLDER",
    "RESULT_TEXT",
    "RecordInputError",
    "StoredGame",
    "finishing_order",
    "list_games",
    "ordinal",
    "parse_record_text",
    "read_game",
    "read_game_file",
    "read_record_file",
    "read_record_list",
    "read_records",
    "record_index",
    "record_name",
    "record_path",
    "result_text",
]
