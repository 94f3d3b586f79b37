"""``games.checked.json``: what a resume needs of the games a run has already checked, so that the
next resume reads and checks only the lines of ``games.jsonl`` written since.

A resume of a folder kept by pairing (:mod:`arena.tournament.field`) must check every row
(:func:`arena.tournament.resume.check_pairing_rows`), find the rows that count now, the games left
and the online tally: about 35 µs a row, 3.5 s for 100,000 games before the first new game. The
file holds the outcome of that work for the first ``bytes`` bytes of ``games.jsonl`` (whole
lines), written by arena after checking them, every few seconds during play (by the standings
worker: :class:`Tracker`) and when a run finishes (every row written since is one arena made
and checked as it played):

- ``sha256``: the hash of those bytes, and ``context``: a hash of the resolved config they were
  checked under (:func:`context_of`: the field, its versions, the seed and openings...);
- ``taken``: the indexes of those rows (as ``[start, stop)`` ranges);
- ``done``: which of the field's games they hold, one bit per game in play order
  (:class:`arena.tournament.field.PlayOrder`, base64); rows that do not count now are the rest of
  ``taken``;
- ``tally``: the online tally's state (:meth:`arena.tournament.logs.LegacyEloStats.state`);
- ``nodes``: games per cluster node;
- ``records``: the records folder's identity and times when arena last found every record file
  there (at the end of a run: :func:`write_checked`), else null;
- ``seal``: the hash of the other keys.

Never trusted blindly. It is used only when its seal is right (a damaged or hand-edited file is not),
its context is this run's, and ``games.jsonl`` still starts with exactly those bytes (their length
and hash: about 30 ms for 40 MB); the record files of every game are still looked for (one listing
of ``games/``), unless the folder is exactly as it was when arena last found them all. The lines after the prefix are read and checked as every row is;
each must be a game that counts now and is not done yet. Anything else (no file, another config, a
hand edit anywhere in ``games.jsonl``, a row to look at closely) and the resume checks every row as
if the file were not there, which gives the same one-line errors naming the line or game: the file
only ever saves work, never changes what a resume accepts. It is derived data, rewritten whole
(atomically, not synced); deleting it costs only the next resume's time. Like ``games.jsonl`` it is
kept from bots by the folder's permissions (bots running as users of their own,
:mod:`arena.process.botuser`): a file forged with the seal worked out would be believed, as a
forged row with its record file would be.
"""

from __future__ import annotations

import base64
import hashlib
import os
import time
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from arena.fileio.files import atomic_write, open_beneath, read_input
from arena.limits import MAX_FILE_BYTES
from arena.records.logstore import row_batches, whole_line_chunks
from arena.records.reader import GAMES_FILE, RECORDS_FOLDER
from arena.tournament.field import Field, PlayOrder, mark, row_key
from arena.tournament.logs import (
    LegacyEloStats,
    TournamentLog,
    count_node,
    load_results,
    online_tally,
    tally_finished,
)
from arena.tournament.resume import check_pairing_rows, missing_records

CHECKED_FILE = "games.checked.json"
FORMAT = 1
#: How many times the end of a run tries to stamp the records folder (a clock tick apart).
VOUCH_ATTEMPTS = 3
#: Keys of the resolved config that cannot change what a check of the rows finds.
_NOT_CONTEXT = ("concurrency", "visualize")


def context_of(config_json: Mapping[str, Any]) -> str:
    """The hash of a resolved config (:meth:`TournamentConfig.to_json`) that a checked prefix is
    valid under: every key but how many games run at once and the display."""
    kept = {k: v for k, v in config_json.items() if k not in _NOT_CONTEXT}
    return hashlib.sha256(orjson.dumps({"format": FORMAT, **kept}, option=orjson.OPT_SORT_KEYS)).hexdigest()


@dataclass
class Checked:
    """The rows of the first ``size`` bytes of ``games.jsonl``, checked under ``context``: their
    indexes ``taken``, the field's games they hold (``done``, a :class:`PlayOrder` bitmap), the
    online tally of those that count and the games per node. ``digest`` hashes those bytes and is
    kept up to date by the run (:meth:`arena.tournament.logs.TournamentLog.track`)."""

    size: int
    digest: Any  # a hashlib sha256 object of the first ``size`` bytes
    context: str
    taken: set[int]
    done: bytearray
    tally: Any
    nodes: dict[str, dict[str, Any]]
    #: Whether ``games.checked.json`` says all this already (no line was written after it, and
    #: it vouches for the record files).
    saved: bool = False
    #: The records folder's stamp the file vouched for (:func:`write_checked`), as it was read.
    stamp: list[int] | None = None

    @property
    def kept(self) -> int:
        """The rows that count now (each holds one of the field's games)."""
        return int.from_bytes(self.done, "little").bit_count()

    @property
    def history(self) -> int:
        """The rows that no longer count."""
        return len(self.taken) - self.kept

    def first_free(self) -> int:
        """The lowest index no row has."""
        return next(free_indexes(self.taken))

    def to_json(self, size: int, sha256: str, stamp: list[int] | None = None) -> dict[str, Any]:
        """The file's object, for the first ``size`` bytes of hash ``sha256`` (those of the run's
        log after its last write) and the records folder's ``stamp`` (:func:`write_checked`)."""
        obj = {"format": FORMAT, "bytes": size, "sha256": sha256, "context": self.context,
               "taken": _ranges(self.taken), "done": base64.b64encode(self.done).decode("ascii"),
               "tally": self.tally.state(), "nodes": self.nodes, "records": stamp}
        return {**obj, "seal": _seal(obj)}


class Tracker:
    """What ``games.checked.json`` says, kept up to date row by row by the standings worker
    (:mod:`arena.tournament.stats_worker`) and written every few seconds, so that a run killed
    with ``kill -9`` leaves one that covers nearly all its games. ``rows`` are the rows of the
    first ``size`` bytes of ``games.jsonl`` (hash ``sha256``), checked by the run at its start;
    every row after them is one the run wrote."""

    def __init__(self, field: Field, context: str, rows: Iterable[Mapping[str, Any]], size: int, sha256: str) -> None:
        self.field, self.context, self.order = field, context, PlayOrder(field)
        self.taken: set[int] = set()
        self.done = self.order.empty()
        self.nodes: dict[str, dict[str, Any]] = {}
        for row in rows:
            self.add(row)
        self.size, self.sha256 = size, sha256
        self.dirty = False

    def add(self, row: Mapping[str, Any], size: int | None = None, sha256: str | None = None) -> None:
        """Take in a row; ``size`` and ``sha256``: ``games.jsonl``'s whole lines once it is written."""
        self.taken.add(row["index"])
        count_node(self.nodes, row.get("node"))
        key = row_key(row)
        place = self.order.place(key) if key is not None and self.field.counts(row) else None
        if place is not None:
            mark(self.done, place)
        if size is not None and sha256 is not None:
            self.size, self.sha256, self.dirty = size, sha256, True

    def write(self, folder: Path, root: Path, tally: Any) -> None:
        """Write the file with the online ``tally`` of the same rows. Raises OSError."""
        checked = Checked(self.size, None, self.context, self.taken, self.done, tally, self.nodes)
        write_checked(folder, root, checked, self.size, self.sha256)
        self.dirty = False


def free_indexes(taken: Container[int]) -> Iterator[int]:
    """The numbers 0, 1, 2... that are not in ``taken``, ascending, without end."""
    index = 0
    while True:
        if index not in taken:
            yield index
        index += 1


def check_folder(log: TournamentLog, field: Field, order: PlayOrder, context: str,
                 opening_line: Callable[[int], int | None]) -> Checked:
    """Read and check the whole lines of ``games.jsonl`` in ``log``'s folder (kept by pairing in
    ``field``) and return what a resume needs of them: from ``games.checked.json`` and the lines
    after it where it fits (module docstring; its prefix is only hashed, not kept), else from every
    row. Raises LogError naming the line or game of a row that is not arena's
    (:func:`arena.tournament.resume.check_pairing_rows`), or when the file cannot be read."""
    folder, root = log.folder, log.root
    saved = _load(folder, root, field, order, context)
    if saved is not None:
        prefix, sha256 = saved
        new = log.read_games(prefix.size, prefix.digest)
        if prefix.digest.hexdigest() == sha256:
            checked = _extend(folder, root, prefix, new[:new.rfind(b"\n") + 1], field, order, opening_line)
            if checked is not None:
                return checked
    data = log.read_games()
    return _check_all(folder, root, data, data.rfind(b"\n") + 1, field, order, context, opening_line)


def write_checked(folder: Path, root: Path, checked: Checked, size: int, sha256: str, vouch: bool = False) -> None:
    """Write ``games.checked.json`` for the first ``size`` bytes of ``games.jsonl`` (hash
    ``sha256``). ``vouch`` (at the end of a run, when no clock runs): look for every game's record
    file too, and when all are there, stamp the file with the records folder's identity and times,
    so that the next resume need not list it while they are unchanged. Raises OSError."""
    data = orjson.dumps(checked.to_json(size, sha256))
    if len(data) > MAX_FILE_BYTES:  # a field of many millions of games: no file (it would not be read)
        return
    atomic_write(folder / CHECKED_FILE, data, root=root, sync=False)  # derived data
    for attempt in range(VOUCH_ATTEMPTS if vouch else 0):
        # Any change to the folder's entries (a record removed, renamed, replaced by a link) sets
        # its times to the clock's tick then, which is after this file was written: when the
        # folder's times are older than this file's, a later change cannot leave them as they are
        # (else the clock has not ticked since the last record was written: wait a tick). Stamped
        # before and after the listing: a change during it is not vouched for either.
        if attempt:
            time.sleep(0.01)
            atomic_write(folder / CHECKED_FILE, data, root=root, sync=False)
        fd = open_beneath(root, folder / CHECKED_FILE, os.O_RDONLY)
        written = os.fstat(fd).st_mtime_ns
        os.close(fd)
        before = records_stamp(folder, root)
        if before is None or max(before[2:]) < written:
            break
    else:
        return
    if before is None or missing_records(folder, root, checked.taken) or records_stamp(folder, root) != before:
        return
    atomic_write(folder / CHECKED_FILE, orjson.dumps(checked.to_json(size, sha256, before)), root=root, sync=False)


def records_stamp(folder: Path, root: Path) -> list[int] | None:
    """The records folder's device, inode, modification and change times (None: it cannot be opened)."""
    try:
        fd = open_beneath(root, folder / RECORDS_FOLDER, os.O_RDONLY | os.O_DIRECTORY)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    return [info.st_dev, info.st_ino, info.st_mtime_ns, info.st_ctime_ns]


def _check_all(folder: Path, root: Path, data: bytes, good: int, field: Field, order: PlayOrder,
               context: str, opening_line: Callable[[int], int | None]) -> Checked:
    """:func:`check_folder` of every row."""
    rows = [row for batch in row_batches(whole_line_chunks(data), folder / GAMES_FILE) for row in batch.rows]
    check_pairing_rows(folder, root, rows, field.seed, opening_line)
    counting = field.counting(rows)
    done = order.empty()
    for row in counting:
        key = row_key(row)
        place = None if key is None else order.place(key)
        assert place is not None, "a row that counts is a game of the field"
        mark(done, place)
    taken = {row["index"] for row in rows}
    checked = Checked(good, hashlib.sha256(memoryview(data)[:good]), context, taken, done,
                      online_tally(field.agents, field.players), {})
    tally_finished(checked.tally, counting, checked.first_free(), field.players)
    for row in rows:
        count_node(checked.nodes, row.get("node"))
    return checked


def _extend(folder: Path, root: Path, prefix: Checked, new: bytes, field: Field, order: PlayOrder,
            opening_line: Callable[[int], int | None]) -> Checked | None:
    """``prefix`` and the lines ``new`` written after it, each checked as every row is, all counting
    and not done before; None when one needs a closer look (an error or an unusual row: the
    caller checks every row, which says what is wrong as it always has)."""
    from arena.errors import ArenaError

    try:
        seen = set(prefix.taken)
        rows = [row for batch in row_batches(whole_line_chunks(new), folder / GAMES_FILE, seen) for row in batch.rows]
        # The prefix's record files were all there when the file was stamped (write_checked) and
        # the folder has not changed since: only the new rows' are looked for.
        stamped = prefix.stamp is not None and prefix.stamp == records_stamp(folder, root)
        check_pairing_rows(folder, root, rows, field.seed, opening_line, listed=() if stamped else prefix.taken)
    except ArenaError:
        return None
    done = bytearray(prefix.done)
    for row in rows:
        key = row_key(row)
        place = None if key is None or not field.counts(row) else order.place(key)
        if place is None or done[place >> 3] >> (place & 7) & 1:
            return None  # history written after the prefix, or a game twice: look at every row
        mark(done, place)
    try:
        results = load_results(rows, field.players)
        for result in results:
            prefix.tally.add(result)
    except ValueError:
        return None
    for row in rows:
        count_node(prefix.nodes, row.get("node"))
    prefix.digest.update(new)
    return Checked(prefix.size + len(new), prefix.digest, prefix.context, seen, done, prefix.tally, prefix.nodes,
                   saved=not new and (stamped or prefix.stamp is None))


def _load(folder: Path, root: Path, field: Field, order: PlayOrder, context: str) -> tuple[Checked, str] | None:
    """The checked prefix ``games.checked.json`` describes under ``context`` (its digest not fed
    yet) and the hash its bytes must have; None when there is none that fits (module docstring)."""
    try:
        obj = orjson.loads(read_input(folder / CHECKED_FILE, MAX_FILE_BYTES, root=root))
    except (OSError, ValueError):
        return None
    try:
        if obj["format"] != FORMAT or obj["context"] != context or obj.pop("seal") != _seal(obj):
            return None
        size, sha256 = obj["bytes"], obj["sha256"]
        if type(size) is not int or size < 0 or not isinstance(sha256, str):
            return None
        taken = _from_ranges(obj["taken"])
        done = bytearray(base64.b64decode(obj["done"], validate=True))
        if len(done) != len(order.empty()) or done and len(order) % 8 and done[-1] >> (len(order) % 8):
            return None
        tally = _tally_from_state(field, obj["tally"])
        nodes, stamp = obj["nodes"], obj["records"]
        if not isinstance(nodes, dict) or not all(isinstance(n, dict) and isinstance(n.get("games"), int)
                                                  for n in nodes.values()):
            return None
        if stamp is not None and not (isinstance(stamp, list) and len(stamp) == 4 and all(type(n) is int for n in stamp)):
            return None
    except (KeyError, TypeError, ValueError):
        return None
    checked = Checked(size, hashlib.sha256(), context, taken, done, tally, nodes, stamp=stamp)
    return (checked, sha256) if checked.kept <= len(taken) else None


def _seal(obj: dict[str, Any]) -> str:
    """The hash of the file's other keys: a damaged or hand-edited file is not used."""
    return hashlib.sha256(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _tally_from_state(field: Field, state: Any) -> Any:
    if field.players is None:
        return LegacyEloStats.from_state(field.agents, state)
    from arena.tournament.tables import TableTally

    return TableTally.from_state(field.agents, state)


def _ranges(indexes: Iterable[int]) -> list[list[int]]:
    """``indexes`` as sorted ``[start, stop)`` ranges."""
    out: list[list[int]] = []
    for index in sorted(indexes):
        if out and out[-1][1] == index:
            out[-1][1] = index + 1
        else:
            out.append([index, index + 1])
    return out


def _from_ranges(ranges: Any) -> set[int]:
    """The indexes of :func:`_ranges`' ranges; ValueError when they are not ranges of it."""
    taken: set[int] = set()
    last = -1
    for start, stop in ranges:
        if type(start) is not int or type(stop) is not int or not last < start < stop:
            raise ValueError("not ranges")
        taken.update(range(start, stop))
        last = stop
    return taken


__all__ = ["CHECKED_FILE", "Checked", "Tracker", "check_folder", "context_of", "free_indexes", "write_checked"]
