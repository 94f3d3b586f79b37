"""What a resumed run accepts from its log folder: every ``games.jsonl`` row must be the game the
schedule puts at its index, and its record file must be there.

A row that is not (another pair, other agents or colours, another opening, a record file of
another index or none, a result that contradicts its winner) was not written by arena for this
tournament: a copy from elsewhere, a hand edit, a bot writing into the folder. The run refuses
it with one line naming the file, the game and the difference, before any game is played, and
changes nothing; the user decides (delete the line to have that game played again). Ignoring
such a line instead would leave it to be counted by every other reader of the folder, and
rewriting ``games.jsonl`` without it would lose what may be someone's data.

What is checked is what a row says and what the folder holds, at the cost of one listing of the
records folder: a record's contents are checked against the rules by ``arena check-logs``. Rows written
before rows carried their opening (``seed``, ``opening_line``) are checked without it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.fileio.files import open_beneath
from arena.games.base import Termination, cap_text
from arena.records.logstore import LogError
from arena.records.reader import GAMES_FILE, RECORD_FILE, RECORDS_FOLDER, RESULT_TEXT, record_name
from arena.tournament.schedule import ScheduledGame, ScheduledTable

#: Games of one run that may be missing below its highest index (cancelled while later ones finished).
MAX_GAP = 100_000
#: The terminations arena records.
TERMINATIONS = frozenset(t.value for t in Termination)


def check_rows(folder: Path, root: Path, done: dict[int, dict[str, Any]],
               schedule: Iterable[ScheduledGame] | Iterable[ScheduledTable],
               total: int | None, opening_line: Callable[[int], int | None]) -> None:
    """Check the finished games ``done`` (rows by index) of the log folder ``folder`` against
    ``schedule`` (``total`` games; None: open-ended). ``opening_line(pair)`` is the book line of a
    pair (None without a book). Raises ConfigError when the config no longer schedules these games
    (it changed), LogError when a row is not arena's (see the module docstring)."""
    if not done:
        return
    games_file = folder / GAMES_FILE
    last = max(done)
    if total is not None and last >= total:
        raise ConfigError(
            f"{folder}: games.jsonl holds game {last}, which this config's schedule does not "
            "have (gamesPerPair or matches shrank?); restore them, change 'id', or pass --logs DIR")
    if last > len(done) + MAX_GAP:
        # Open-ended random matches have no length to check against; gaps come only from games
        # cancelled while others finished, never this many.
        raise LogError(f"{games_file}: game {last} is far beyond the {len(done)} games listed; that line is not arena's")
    for game in schedule:
        if game.index > last:
            break
        row = done.get(game.index)
        if row is None:
            continue
        if isinstance(game, ScheduledTable):
            if row.get("seats") != list(game.seats):
                raise ConfigError(
                    f"{folder}: game {game.index} in games.jsonl seated {_seating(row.get('seats'))}, but this "
                    f"config seats {_seating(list(game.seats))}; change 'id', pass --logs DIR, or remove the "
                    "folder to start over")
            mismatch = table_row_mismatch(row, game)
            if mismatch is not None:
                raise LogError(f"{games_file}: game {game.index} is not the game arena scheduled there ({mismatch}); "
                               "that line is not arena's: delete it to have the game played again")
            continue
        if (row.get("black"), row.get("white")) != (game.black, game.white):
            raise ConfigError(
                f"{folder}: game {game.index} in games.jsonl was {row.get('black')} against "
                f"{row.get('white')}, but this config schedules {game.black} against {game.white}; "
                "change 'id', pass --logs DIR, or remove the folder to start over")
        # The book line only for a row that names one (working it out costs a seeded draw per pair).
        mismatch = row_mismatch(row, game, opening_line(game.pair) if "opening_line" in row else None)
        if mismatch is not None:
            raise LogError(f"{games_file}: game {game.index} is not the game arena scheduled there ({mismatch}); "
                           "that line is not arena's: delete it to have the game played again")
    check_records(folder, root, done)


def check_pairing_rows(folder: Path, root: Path, rows: list[dict[str, Any]], seed: int,
                       opening_line: Callable[[int], int | None], listed: Iterable[int] = ()) -> None:
    """Check every row of a folder that keeps results by pairing (:mod:`arena.tournament.field`):
    each is the game its key says (its pair or group, seed, record file, a result its winner or ranks
    agree with: :func:`row_mismatch`, :func:`table_row_mismatch`), carries its players' ``versions``,
    and no game is there twice with the same versions. Every row is checked, counting or not: the history is the folder's too.
    ``listed``: the indexes of rows checked before (:mod:`arena.tournament.checked`), whose record
    files are looked for too, in the same listing. Raises LogError naming the file and the game
    (the row is not arena's)."""
    from arena.tournament.field import scheduled_game

    games_file = folder / GAMES_FILE
    seen: dict[tuple[Any, ...], Any] = {}
    for row in rows:
        game = scheduled_game(row, seed)
        index = row.get("index")
        if game is None:
            raise LogError(f"{games_file}: game {index} has no round, and this folder keeps games by pairing; "
                           "that line is not arena's: delete it to have the game played again")
        seats = game.seats if isinstance(game, ScheduledTable) else (game.black, game.white)
        versions = row.get("versions")
        if not isinstance(versions, dict) or not all(isinstance(versions.get(a), str) for a in seats):
            raise LogError(f"{games_file}: game {index} does not give its players' versions; that line is not arena's: "
                           "delete it to have the game played again")
        mismatch = (table_row_mismatch(row, game) if isinstance(game, ScheduledTable)
                    else row_mismatch(row, game, opening_line(game.pair) if "opening_line" in row else None))
        if mismatch is not None:
            raise LogError(f"{games_file}: game {index} is not the game its round says ({mismatch}); "
                           "that line is not arena's: delete it to have the game played again")
        same = (seats, game.round, *(versions[a] for a in seats))
        if same in seen:
            raise LogError(f"{games_file}: games {seen[same]} and {index} are the same game of the same versions "
                           f"({', '.join(seats)}, round {game.round}); delete one of the lines")
        seen[same] = index
    indexes = [row["index"] for row in rows]
    indexes += listed
    if indexes:
        check_records(folder, root, indexes)


def row_mismatch(row: dict[str, Any], game: ScheduledGame, opening_line: int | None) -> str | None:
    """How a ``games.jsonl`` row differs from the scheduled game at its index (None: it fits).

    A row is arena's only if it is the game the schedule puts there: the same ``pair``, the agents
    in those colours (``black``/``white`` and ``players`` alike), the record file of that index,
    the opening (the row's ``seed`` and ``opening_line``, when it has them: rows written before
    they existed have neither), a ``winner`` the ``result`` agrees with and a known
    ``termination``. ``opening_line`` is the book line of the game's pair (None without a book).
    """
    if row.get("pair") is not None and row.get("pair") != game.pair:
        return f"it says pair {_show(row.get('pair'))}, but the schedule puts pair {game.pair} there"
    players = row.get("players")
    expected = [{"id": game.black, "colour": "BLACK"}, {"id": game.white, "colour": "WHITE"}]
    if players is not None and players != expected:
        return "its players differ from its black and white"
    if row.get("record") != record_name(game.index):
        return f"its record is {_show(row.get('record'))}, not {record_name(game.index)}"
    if "seed" in row and row["seed"] != game.opening_seed:
        return f"its opening seed is {_show(row['seed'])}, not the scheduled {game.opening_seed}"
    if "opening_line" in row and row["opening_line"] != opening_line:
        return f"its opening is book line {_show(row['opening_line'])}, not line {opening_line}"
    result = RESULT_TEXT.get(row.get("winner"))  # type: ignore[arg-type]
    if "result" in row and row["result"] != result:
        return f"its result {_show(row['result'])} does not match its winner {_show(row.get('winner'))}"
    if row.get("termination") not in TERMINATIONS:
        return f"its termination {_show(row.get('termination'))} is not one arena records"
    return None


def table_row_mismatch(row: dict[str, Any], game: ScheduledTable) -> str | None:
    """How an N-seat row differs from the scheduled game at its index (None: it fits); the agents
    themselves are compared by the caller, since a different seating means the config changed."""
    if row.get("group") != game.group:
        return f"it says group {_show(row.get('group'))}, but the schedule puts group {game.group} there"
    if row.get("players") != game.players:
        return "its players differ from its seats"
    if row.get("record") != record_name(game.index):
        return f"its record is {_show(row.get('record'))}, not {record_name(game.index)}"
    if row.get("seed") != game.seed:
        return f"its seed is {_show(row.get('seed'))}, not the scheduled {game.seed}"
    ranks = row.get("ranks")
    if not isinstance(ranks, list) or len(ranks) != len(game.seats):
        return f"its ranks {_show(ranks)} are not one per seat"
    if row.get("termination") not in TERMINATIONS:
        return f"its termination {_show(row.get('termination'))} is not one arena records"
    return None


def check_records(folder: Path, root: Path, indices: Iterable[int]) -> None:
    """LogError when a game of ``indices`` has no record file (:func:`missing_records`)."""
    try:
        missing = missing_records(folder, root, sorted(indices))
    except OSError as exc:
        raise LogError(f"{folder / 'games'}: cannot read ({exc.strerror or exc})") from None
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise LogError(f"{folder / GAMES_FILE}: game {missing[0]} has no record file ({record_name(missing[0])}{more}); "
                       "those lines are not finished games: delete them to have the games played again")


def missing_records(folder: Path, root: Path, indices: Iterable[int]) -> list[int]:
    """The games of ``indices`` whose record file is not a regular file in ``folder/games`` (missing,
    or a link, FIFO... in its place). Raises OSError when the folder itself cannot be opened."""
    games = open_beneath(root, folder / RECORDS_FOLDER, os.O_RDONLY | os.O_DIRECTORY)
    try:
        # One listing of the folder, not a stat per game: the entry types come with the names
        # (scandir stats only where the file system does not give them).
        with os.scandir(games) as entries:
            regular = {entry.name for entry in entries if entry.is_file(follow_symlinks=False)}
    finally:
        os.close(games)
    indices = list(indices)
    # The names as a set, made and compared in C: 100,000 games (a resume) in tens of milliseconds.
    if set(map(RECORD_FILE.format, indices)) <= regular:
        return []
    return [index for index in indices if RECORD_FILE.format(index) not in regular]


def _seating(seats: Any) -> str:
    return ", ".join(map(str, seats)) if isinstance(seats, list) else _show(seats)


def _show(value: Any) -> str:
    return cap_text(repr(value), 40)
