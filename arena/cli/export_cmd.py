"""`arena export --pdn`: game records as PDN (Portable Draughts Notation) for draughts software.

Sources are what :mod:`arena.records.reader` reads: record files (one record, the JSON array
``arena match --out`` writes, JSON lines) and folders: a log folder gives its games in game order
(those ``games.jsonl`` lists, else ``games/NNNNN.json``), any other folder every ``*.json`` record
file in it, in name order. Each game is written by its game's exporter
(``GameSpec.pdn``, from the registry); a game without one is an error naming it. Output goes to
stdout, or with ``-o FILE`` to that file, written whole or not at all.

Exit status: 0 written; 2 a source that cannot be read or is not a record, a game without a PDN
exporter, or a record whose moves do not follow from its states; 1 the output could not be written.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.cli.exits import ArenaCommand, fail
from arena.errors import ArenaError
from arena.fileio.files import atomic_write, output_refusal

if TYPE_CHECKING:
    from arena.records.types import Record


class ExportError(ArenaError):
    """One line saying which source failed and why (exit status 2)."""




def _tournament_id(folder: Path) -> str:
    """The tournament's id from its ``config.json``, else the folder's name."""
    config = folder / "config.json"
    if config.is_file():
        from arena.fileio.jsonfiles import read_json_file
        from arena.limits import MAX_FILE_BYTES

        try:
            value = read_json_file(config, MAX_FILE_BYTES, root=folder).get("id")
        except (OSError, ValueError, AttributeError):
            value = None
        if isinstance(value, str) and value:
            return value
    return folder.resolve().name


def _sources(paths: tuple[Path, ...]) -> Iterator[tuple[str, Record, str | None]]:
    """``(where, record, event)`` for every record of every source, in order
    (:func:`arena.records.reader.read_records`; RecordInputError for one that cannot be read)."""
    from arena.records.reader import read_records

    for path in paths:
        event = None
        for game, record in read_records(path):
            if game.log_folder is not None and event is None:
                event = _tournament_id(game.log_folder)
            yield game.where, record, event


def _exporter(game_name: Any, where: str, cache: dict[str, Callable[..., str]]) -> Callable[..., str]:
    """The PDN exporter of the record's game (from the registry); ExportError naming the game when
    it is unknown or has none."""
    from arena.games.base import GameError
    from arena.games.registry import all_specs, get_spec, load_ref

    if not isinstance(game_name, str) or not game_name:
        raise ExportError(f"{where}: not a game record (no 'game' name)")
    if game_name in cache:
        return cache[game_name]
    try:
        spec = get_spec(game_name)
        if spec.pdn is None:
            have = ", ".join(s.name for s in all_specs() if s.pdn) or "none"
            raise ExportError(f"{where}: game {game_name!r} has no PDN export (games with one: {have})")
        function = load_ref(spec.pdn)
    except GameError as exc:
        raise ExportError(f"{where}: {exc}") from None
    cache[game_name] = function
    return function


def _takes_event(function: Callable[..., str]) -> bool:
    try:
        return "event" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def export_pdn(paths: tuple[Path, ...]) -> tuple[str, int]:
    """The PDN text of every record in ``paths`` (games separated by a blank line) and the number
    of games. Raises ExportError or RecordInputError (one line naming the source) for anything that
    cannot be exported."""
    from arena.games.base import GameError

    cache: dict[str, Callable[..., str]] = {}
    texts: list[str] = []
    for where, record, event in _sources(paths):
        function = _exporter(record.get("game"), where, cache)
        try:
            text = function(record, event=event) if _takes_event(function) else function(record)
        except GameError as exc:
            raise ExportError(f"{where}: {exc}") from None
        texts.append(text if text.endswith("\n") else text + "\n")
    return "\n".join(texts), len(texts)


@click.command(cls=ArenaCommand, name="export", short_help="Export game records as PDN (checkers).", epilog="""\b
Examples:
  arena export --pdn records.json > games.pdn
  arena export --pdn tournament_logs/my-tournament -o my-tournament.pdn""")
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--pdn", "pdn", is_flag=True, help="Write Portable Draughts Notation (the format to give).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file (whole or not at all) instead of stdout.")
def export_command(sources: tuple[Path, ...], pdn: bool, output: Path | None) -> None:
    """Export the games of record files (one record, or the JSON array 'arena match' writes) and
    folders (a tournament's log folder: its games in game order; any other folder: its *.json
    records) as PDN, one game after another, for draughts software (CheckerBoard, pydraughts...).

    Each game gets the standard tags (Event: the tournament's id or "arena match"; Black, White;
    Result: 1-0 Black won, 0-1 White won, 1/2-1/2 a draw, * interrupted), a FEN when it does not
    start from the standard position, and arena's termination and reason. Only games with a PDN
    form can be exported (checkers); any other game is an error naming it (exit status 2)."""
    if not pdn:
        raise click.UsageError("say which format to write: --pdn (Portable Draughts Notation)")
    refusal = output_refusal(output) if output is not None else None
    if refusal is not None:  # before the work: -o /dev/full, a FIFO, a link or a folder
        fail(f"cannot write {output}: {refusal.strerror}", 2)
    text, count = export_pdn(sources)
    data = text.encode("utf-8")
    if output is None:
        try:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        except BrokenPipeError:
            pass
        return
    try:
        atomic_write(output, data)  # refuses to replace anything but a regular file (-o /dev/full)
    except OSError as exc:
        fail(f"cannot write {output} ({exc.strerror or exc})", 1)
    click.echo(f"arena: wrote {count} game{'s' if count != 1 else ''} to {output}", err=True)
