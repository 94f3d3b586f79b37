"""The ``tournament_logs/<id>/`` folder: what is written, in which order, and how it is read back.

Layout (spec: arena.md)::

    config.json        the resolved config of the run
    games.jsonl        one line per finished game, appended and flushed as each game ends
    games/NNNNN.json   each game's full record
    stderr/            each bot's stderr per game (written by the match engine)
    <agentId>.json     the seed's per-agent statistics: games, wins, draws, losses, rating
    standings.json     ratings, intervals, crosstable, LOS, terminations (arena.ratings)

Crash safety. ``games.jsonl`` is the source of truth for which games are finished. A game's record
file is written first (temporary file + rename), then its line is appended and flushed, so a line
never points at a missing record. If arena is killed while appending, the last line may be cut
off: :func:`read_rows` drops such a tail and :meth:`TournamentLog.begin` rewrites the file without
it, so that game is simply played again. Per-agent files and ``standings.json`` are derived data,
rewritten whole (atomically) from all finished games, so nothing accumulates twice across reruns.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from arena.errors import ArenaError, ConfigError
from arena.ratings import GameResult, compute_standings, elo_update, result_from_row
from arena.tournament.config import TournamentConfig, comparable

GAMES_FILE = "games.jsonl"
CONFIG_FILE = "config.json"
STANDINGS_FILE = "standings.json"


class LogError(ArenaError):
    """A log folder that cannot be used as it is (the message says what to do). Exit status 2."""


def record_name(index: int) -> str:
    """The record file of game ``index``, relative to the log folder."""
    return f"games/{index:05d}.json"


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, never a mix."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
    os.replace(tmp, path)


def dumps(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"


@dataclass(frozen=True)
class ReadRows:
    """The finished games of a log folder: ``rows`` in file order; ``good_bytes`` is how much of the
    file is intact (shorter than the file when a cut-off last line was dropped)."""

    rows: list[dict[str, Any]]
    good_bytes: int
    file_bytes: int


def read_rows(folder: Path) -> ReadRows:
    """Parse ``games.jsonl`` in ``folder`` (missing file: no games).

    A last line that is cut off (no newline, or not valid JSON) is dropped. Any other bad line, or a
    second line for the same index, raises :class:`LogError` naming the line.
    """
    path = folder / GAMES_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ReadRows([], 0, 0)
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror})") from None
    rows: list[dict[str, Any]] = []
    seen: set[int] = set()
    # Everything after the last newline is an append that was cut off (a write never puts the
    # newline out before the rest of its line): drop it, valid JSON or not, and replay that game.
    good = data.rfind(b"\n") + 1
    for number, line in enumerate(data[:good].split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            row = orjson.loads(line)
            result_from_row(row)
        except ValueError as exc:
            raise LogError(f"{path}:{number}: not a valid game line ({exc}); fix or delete that line") from None
        if row["index"] in seen:
            raise LogError(f"{path}:{number}: game {row['index']} is listed twice; delete one of the lines")
        seen.add(row["index"])
        rows.append(row)
    return ReadRows(rows, good, len(data))


class TournamentLog:
    """Writer of one tournament's log folder. Not thread-safe: one writer task owns it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._games: BinaryIO | None = None
        self._good_bytes: int | None = None  # set by prepare when games.jsonl has a cut-off tail

    @property
    def stderr_dir(self) -> Path:
        return self.folder / "stderr"

    def prepare(self, config: TournamentConfig) -> list[dict[str, Any]]:
        """Check the folder fits ``config`` and return its finished games' rows. Writes nothing.

        Raises :class:`ConfigError` when the folder holds a different tournament under this id, and
        :class:`LogError` when its files are unusable.
        """
        old_path = self.folder / CONFIG_FILE
        if old_path.exists():
            try:
                old = orjson.loads(old_path.read_bytes())
            except (OSError, ValueError):
                old = None
            if not isinstance(old, dict):
                raise LogError(f"{old_path} is unreadable; remove {self.folder} to start over, or pass "
                               "--logs DIR to write elsewhere")
            differences = config_differences(old, config.to_json())
            if differences:
                raise ConfigError(
                    f"{self.folder} already holds a different tournament with id {config.id!r} "
                    f"({differences[0]}); change 'id' in the config, pass --logs DIR to write "
                    f"elsewhere, or remove {self.folder} to start over"
                )
        read = read_rows(self.folder)
        self._good_bytes = read.good_bytes if read.good_bytes != read.file_bytes else None
        return read.rows

    def begin(self, config: TournamentConfig) -> None:
        """Create the folder, cut off a broken last line of ``games.jsonl``, write ``config.json``.

        Raises LogError when the folder cannot be written."""
        try:
            self._begin(config)
        except OSError as exc:
            raise LogError(f"{self.folder}: cannot write the logs here ({exc.strerror or exc}); "
                           "pass --logs DIR to write elsewhere") from None

    def _begin(self, config: TournamentConfig) -> None:
        for sub in (self.folder, self.folder / "games", self.stderr_dir):
            sub.mkdir(parents=True, exist_ok=True)
        for sub in (self.folder, self.folder / "games"):
            for stale in sub.glob(".*.tmp"):  # an atomic write cut short by a kill
                stale.unlink(missing_ok=True)
        if self._good_bytes is not None:
            with open(self.folder / GAMES_FILE, "r+b") as handle:
                handle.truncate(self._good_bytes)
        atomic_write(self.folder / CONFIG_FILE, dumps(config.to_json()))
        self._games = open(self.folder / GAMES_FILE, "ab")

    def write_game(self, index: int, record: dict[str, Any], row: dict[str, Any]) -> None:
        """Persist one finished game: its record file first, then its line (flushed)."""
        if self._games is None:
            raise RuntimeError("TournamentLog.begin was not called")
        atomic_write(self.folder / record_name(index), orjson.dumps(record) + b"\n")
        self._games.write(orjson.dumps(row) + b"\n")
        self._games.flush()

    def write_agent_files(self, config: TournamentConfig, stats: dict[str, dict[str, Any]]) -> None:
        """The seed's ``<agentId>.json`` for every agent."""
        for agent in config.agents:
            body = {"id": agent.id, "type": agent.type, "path": agent.raw_path, **stats[agent.id]}
            atomic_write(self.folder / f"{agent.id}.json", dumps(body))

    def write_standings(self, standings: dict[str, Any]) -> None:
        atomic_write(self.folder / STANDINGS_FILE, dumps(standings))

    def close(self) -> None:
        if self._games is not None:
            self._games.close()
            self._games = None


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Human descriptions of the keys that differ between two resolved configs (harmless keys aside)."""
    a, b = comparable(old), comparable(new)
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            if key == "agents":
                out.append("its agents differ")
            else:
                out.append(f"{key} was {_short(a.get(key))}, now {_short(b.get(key))}")
    return out


def _short(value: Any) -> str:
    text = orjson.dumps(value).decode()
    return text if len(text) <= 40 else text[:37] + "..."


def load_results(rows: Iterable[dict[str, Any]]) -> list[GameResult]:
    """Rows to :class:`GameResult`, sorted by index."""
    return sorted((result_from_row(r) for r in rows), key=lambda g: g.index)


class SeedStats:
    """The seed's per-agent statistics, kept up to date as games finish in any order.

    The rating is the seed's online Elo applied in index order. Games before the lowest index that
    may still arrive are folded into a cached rating once, so each update costs about the number of
    games finished out of order, not the whole tournament.
    """

    def __init__(self, agents: Sequence[str], start: float = 1000.0, k: float = 20.0) -> None:
        self._k = k
        self._counts = {a: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for a in agents}
        self._folded = {a: start for a in agents}
        self._folded_below = 0
        self._tail: list[GameResult] = []

    def add(self, game: GameResult) -> None:
        if game.index < self._folded_below:
            raise ValueError(f"game {game.index} arrived after games above it were folded")
        self._tail.append(game)
        for me, score in ((game.black, game.score), (game.white, 1.0 - game.score)):
            row = self._counts[me]
            row["games"] += 1
            row["wins" if score == 1.0 else "losses" if score == 0.0 else "draws"] += 1

    def snapshot(self, lowest_pending: int | None) -> dict[str, dict[str, Any]]:
        """Per agent ``games, wins, draws, losses, rating`` (rounded). ``lowest_pending`` is the
        smallest index that may still be added (``None``: no more games will come)."""
        self._tail.sort(key=lambda g: g.index)
        fold_to = len(self._tail) if lowest_pending is None else next(
            (i for i, g in enumerate(self._tail) if g.index >= lowest_pending), len(self._tail))
        for game in self._tail[:fold_to]:
            elo_update(self._folded, game, self._k)
        if fold_to:
            self._folded_below = self._tail[fold_to - 1].index + 1
            del self._tail[:fold_to]
        ratings = dict(self._folded)
        for game in self._tail:
            elo_update(ratings, game, self._k)
        return {a: {**c, "rating": round(ratings[a])} for a, c in self._counts.items()}


def standings_object(
    tournament_id: str, game: str, agent_ids: Sequence[str], results: Sequence[GameResult], *,
    seed: int, bootstrap_samples: int = 200,
) -> dict[str, Any]:
    """The ``standings.json`` object (the runner and ``arena standings`` both build it here)."""
    return {"id": tournament_id, "game": game,
            **compute_standings(results, agent_ids, bootstrap_samples=bootstrap_samples, seed=seed)}


def standings_from_folder(folder: Path, bootstrap_samples: int = 200) -> tuple[dict[str, Any], dict[str, Any]]:
    """Recompute ``(standings, per-agent seed statistics)`` from a log folder alone (read-only).

    Uses ``config.json`` for the agents' order and the bootstrap seed when it is there; otherwise
    the agents seen in ``games.jsonl``. Raises LogError when ``folder`` is not a tournament's logs.
    """
    if not (folder / GAMES_FILE).exists() and not (folder / CONFIG_FILE).exists():
        raise LogError(f"{folder}: no {GAMES_FILE} or {CONFIG_FILE} here; expected a "
                       "tournament_logs/<id> folder")
    config: dict[str, Any] = {}
    if (folder / CONFIG_FILE).exists():
        try:
            loaded = orjson.loads((folder / CONFIG_FILE).read_bytes())
        except (OSError, ValueError) as exc:
            raise LogError(f"{folder / CONFIG_FILE}: unreadable ({exc})") from None
        if isinstance(loaded, dict):
            config = loaded
    results = load_results(read_rows(folder).rows)
    agent_ids: list[str] = [a["id"] for a in config.get("agents", []) if isinstance(a, dict) and "id" in a]
    for g in results:
        for aid in (g.black, g.white):
            if aid not in agent_ids:
                agent_ids.append(aid)
    seed = config.get("seed", 0) if isinstance(config.get("seed"), int) else 0
    standings = standings_object(str(config.get("id", folder.name)), str(config.get("game", "checkers")),
                                 agent_ids, results, seed=seed, bootstrap_samples=bootstrap_samples)
    stats = SeedStats(agent_ids)
    for g in results:
        stats.add(g)
    return standings, stats.snapshot(None)
