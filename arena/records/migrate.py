"""``arena upgrade-records``: rewrite record files of formats 1 to 3 as format 4, in place.

Each file keeps its shape (one record, a JSON array of records, or JSON lines) and its layout (an
indented file stays indented, as ``arena match --out`` writes it; a one-line file, as a tournament
folder's ``games/NNNNN.json``, stays on one line). Every file is read and every record upgraded
(:func:`arena.records.normal.upgrade`) and checked against the format-4 schema before any file is
written, so a bad input changes nothing. A file is replaced atomically (:func:`atomic_write`: a
reader sees the old file or the new one), only when it is a regular file, and only when one of its
records was older than format 4: a second run writes nothing and leaves every byte as it was.

A tournament folder's ``games.jsonl`` lines are not records and are never touched; give its record
files (``tournament_logs/<id>/games/*.json``).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import orjson

from arena.fileio.files import atomic_write, kind_of, read_input
from arena.limits import MAX_RECORDS_BYTES
from arena.records.format import RECORD_FORMAT, record_problem
from arena.records.normal import UpgradeError, record_format, upgrade
from arena.records.reader import RecordInputError, parse_record_text
from arena.records.schema import record_schema, schema_errors


@dataclass(frozen=True)
class Planned:
    """One file's upgrade: its new bytes (None: nothing to change) and the formats it held."""

    path: Path
    data: bytes | None
    formats: tuple[int, ...]


def plan(path: Path) -> Planned:
    """The upgrade of the record file ``path``, not yet written. Raises RecordInputError (one line
    naming the file, and the record in an array): not a regular file, not records, a record that
    cannot be upgraded or whose upgrade breaks the schema."""
    try:
        mode = os.stat(path, follow_symlinks=False).st_mode
    except FileNotFoundError:
        raise RecordInputError(f"{path}: no such file") from None
    except OSError as exc:
        raise RecordInputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        hint = ": give its record files (a tournament's games/*.json)" if stat.S_ISDIR(mode) else ""
        raise RecordInputError(f"{path}: {kind_of(mode)}, not a regular file; only record files are upgraded{hint}")
    try:
        raw = read_input(path, MAX_RECORDS_BYTES)
    except OSError as exc:
        raise RecordInputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    value = parse_record_text(raw, str(path))
    lines = isinstance(value, list) and not raw.lstrip().startswith(b"[")  # JSON lines
    records = value if isinstance(value, list) else [value]
    if not records:
        raise RecordInputError(f"{path}: not a game record (an empty array, no game in it)")
    upgraded: list[Any] = []
    formats: list[int] = []
    for number, record in enumerate(records):
        where = f"{path}[{number}]" if isinstance(value, list) else str(path)
        problem = record_problem(record)
        if problem is not None:
            raise RecordInputError(f"{where}: not a game record ({problem})")
        formats.append(record_format(record))
        if formats[-1] > RECORD_FORMAT:
            raise RecordInputError(f"{where}: record_format {formats[-1]} is newer than this arena writes "
                                   f"({RECORD_FORMAT})")
        try:
            new = upgrade(record)
        except UpgradeError as exc:
            raise RecordInputError(f"{where}: cannot upgrade: {exc}") from None
        found = next(schema_errors(new, record_schema()), None)
        if found is not None:
            pointer, message = found
            raise RecordInputError(f"{where}: its upgrade does not match record.schema.json at {pointer or '/'}: "
                                   f"{message}")
        upgraded.append(new)
    if all(f == RECORD_FORMAT for f in formats):
        return Planned(path, None, tuple(formats))
    if lines:
        data = b"".join(orjson.dumps(r) + b"\n" for r in upgraded)
    else:
        payload = upgraded if isinstance(value, list) else upgraded[0]
        indented = b"\n" in raw.strip()
        data = orjson.dumps(payload, option=orjson.OPT_INDENT_2 if indented else 0) + b"\n"
    return Planned(path, data, tuple(formats))


def run_upgrade_records(paths: Sequence[Path], out: TextIO, err: TextIO) -> int:
    """``arena upgrade-records PATHS``: one line per file on ``out`` (upgraded, or already format
    4); the exit status: 0 done, 2 an input that cannot be upgraded (one line on ``err``, nothing
    written), 1 a write that failed (one line on ``err``; the files before it are upgraded, the
    one that failed is as it was)."""
    try:
        planned = [plan(Path(p)) for p in paths]
    except RecordInputError as exc:
        print(f"arena: error: {exc}", file=err)
        return 2
    for item in planned:
        count = len(item.formats)
        what = "1 record" if count == 1 else f"{count} records"
        if item.data is None:
            print(f"{item.path}: {what}, already format {RECORD_FORMAT}; unchanged", file=out)
            continue
        try:
            atomic_write(item.path, item.data)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if exc.errno == errno.EACCES:
                reason = "permission denied (the folder must be writable: the file is replaced whole)"
            print(f"arena: error: {item.path}: cannot write ({reason}); left as it was", file=err)
            return 1
        old = ", ".join(str(f) for f in sorted(set(item.formats)))
        print(f"{item.path}: {what} upgraded (format {old} -> {RECORD_FORMAT})", file=out)
    return 0


__all__ = ["Planned", "plan", "run_upgrade_records"]
