"""The writer of a run's ``tournament_logs/<id>/`` folder (:class:`TournamentLog`): what is written,
in which order; and the standings recomputed from a folder (:func:`standings_from_folder`). The
folder's layout, its lock, how ``games.jsonl`` is read (the one rule for a cut-off last line), links
and errors: :mod:`arena.records.logstore`, the store every reader goes through.

Crash safety. ``games.jsonl`` is the source of truth for which games are finished. A game's record
file is written first (temporary file + rename), then its line is appended and flushed, so a line
never points at a missing record. If arena is killed while appending, the last line may be cut
off: every reader ignores it (:mod:`arena.records.logstore`) and :meth:`TournamentLog.begin` cuts
it off before the first new line, so that game is simply played again. Per-agent files and
``standings.json`` are derived data, rewritten whole (atomically) from all finished games, so
nothing accumulates twice across reruns. A failed write (disk full...) takes back what it wrote: a
half-written record file is removed and ``games.jsonl`` is cut back to its last whole line, so that
game is not finished and a resumed run plays it again. A record file and its line are each
``fsync``-ed before the next game is written (a record, its rename and its folder first, then the
line), so a crash of the machine, not only of arena, loses at most the games in flight. Measured on
this project's test machine (ext4): write_game takes about 1 ms a game with the syncs, 0.2 ms
without (median of 1,500; p99 under 2 ms).
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson

from arena.errors import ConfigError
from arena.fileio.files import atomic_write, make_folders, open_beneath
from arena.fileio.jsonfiles import read_json_file
from arena.games.base import cap_text
from arena.games.registry import DEFAULT_CONFIG_GAME
from arena.limits import MAX_FILE_BYTES
from arena.records.field import PAIRING, Field, keyed
from arena.records.logstore import (
    CONFIG_FILE,
    LogError,
    RowBatch,
    dumps,
    log_root,
    parse_rows,
    read_batches,
    read_games_bytes,
    whole_lines_size,
    write_failure,
    write_standings,
)
from arena.records.reader import GAMES_FILE, RECORDS_FOLDER, record_name
from arena.stats.ratings import (
    GameResult,
    PlainColumns,
    compute_standings,
    elo_step,
    elo_update,
    plain_pair_columns,
    result_from_row,
)
from arena.tournament.config import TournamentConfig, comparable
from arena.tournament.field import FIELD_TYPES
from arena.tournament.schedule import RANDOM_LAYOUT_BALANCED, RANDOM_LAYOUT_COUPLE_ROUNDS, RANDOM_LAYOUTS

AGENTS_DIFFER = "its agents differ"
_write = os.write  # the one write of a games.jsonl line (tests replace it to fill the disk)


class TournamentLog:
    """Writer of one tournament's log folder. Not thread-safe: one writer task owns it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.root = log_root(folder)  # links are followed up to here, never below (module docstring)
        self._games_fd: int | None = None
        self._games_size = 0  # bytes of whole lines in games.jsonl
        self.old_config: dict[str, Any] | None = None  # the folder's config.json, read by prepare
        self._digest: Any = None  # hashlib object of games.jsonl's whole lines (track)

    @property
    def stderr_dir(self) -> Path:
        return self.folder / "stderr"

    @property
    def games_bytes(self) -> int:
        """How many bytes of ``games.jsonl`` are whole lines (after :meth:`begin`)."""
        return self._games_size

    def prepare(self, config: TournamentConfig) -> list[dict[str, Any]]:
        """Check the folder fits ``config`` and return its finished games' rows. Writes nothing.

        Raises :class:`ConfigError` when the folder holds a different tournament under this id, and
        :class:`LogError` when its files are unusable.
        """
        self.check_config(config)
        return parse_rows(self.read_games(), self.folder / GAMES_FILE).rows

    def check_config(self, config: TournamentConfig) -> None:
        """The first half of :meth:`prepare`: read the folder's ``config.json`` (``old_config``) and
        check it fits ``config``."""
        old_path = self.folder / CONFIG_FILE
        if old_path.exists() or old_path.is_symlink():
            try:
                old = read_json_file(old_path, MAX_FILE_BYTES, root=self.root)
            except OSError as exc:
                raise LogError(f"{old_path} is unreadable ({exc.strerror or exc}); remove {self.folder} to "
                               "start over, or pass --logs DIR to write elsewhere") from None
            except ValueError:
                old = None
            if not isinstance(old, dict):
                raise LogError(f"{old_path} is unreadable; remove {self.folder} to start over, or pass "
                               "--logs DIR to write elsewhere")
            self.old_config = old
            differences = config_differences(old, config.to_json())
            if keyed(old):
                # Its field may change (arena.tournament.field): the agents are compared by version.
                differences = [d for d in differences if d != AGENTS_DIFFER]
            elif differences and differences[0] == AGENTS_DIFFER:
                differences[0] = (f"{AGENTS_DIFFER}, and this folder keeps its results by game index: "
                                  "written by an older arena, or random matches, whose field cannot change")
            if differences:
                raise ConfigError(
                    f"{self.folder} already holds a different tournament with id {config.id!r} "
                    f"({differences[0]}); change 'id' in the config, pass --logs DIR to write "
                    f"elsewhere, or remove {self.folder} to start over"
                )

    def read_games(self, after: int = 0, digest: Any = None) -> bytes:
        """The second half of :meth:`prepare`: the bytes of ``games.jsonl`` after the first
        ``after`` ones, not parsed (:func:`arena.records.logstore.read_games_bytes`: a cut-off last
        line is warned of, and :meth:`begin` cuts it off)."""
        return read_games_bytes(self.folder, self.root, after, digest)[0]

    def track(self, digest: Any) -> None:
        """Keep ``digest`` (a :mod:`hashlib` object of the whole lines of ``games.jsonl`` read by
        :meth:`read_games`) up to date with every line :meth:`write_game` appends: :meth:`digest`."""
        self._digest = digest

    def digest(self) -> tuple[int, str] | None:
        """``(bytes, sha256 hex)`` of the whole lines of ``games.jsonl`` now (after :meth:`track`)."""
        return None if self._digest is None else (self._games_size, self._digest.hexdigest())

    def pair_blocks(self, config: TournamentConfig) -> int:
        """The schedule layout of this folder for ``config`` (see :mod:`arena.tournament.schedule`):
        what its ``config.json`` recorded; for a folder written before layouts were recorded, the
        old layout of its ``gamesPerPair``; 0 for a new folder. Never more than ``config`` has pairs,
        so the recorded value is the layout actually played and growth stays prefix-stable."""
        old = self.old_config or {}
        recorded = old.get("pairBlocks")
        if isinstance(recorded, int) and not isinstance(recorded, bool) and recorded >= 0:
            blocks = recorded
        elif self.old_config is not None and old.get("tournamentType") in ("roundRobin", "gauntlet"):
            per_pair = old.get("gamesPerPair")
            blocks = per_pair // 2 if isinstance(per_pair, int) and not isinstance(per_pair, bool) else 0
        else:
            blocks = 0
        return max(0, min(blocks, config.games_per_pair // 2))

    def results_by(self, config: TournamentConfig, by_index: bool) -> str | None:
        """How this folder keeps results (:mod:`arena.tournament.field`): as its ``config.json``
        says; by index for games written without one or when ``by_index``; by pairing for a new
        folder of a round robin or gauntlet (two players or N seats)."""
        if self.old_config is not None:
            return PAIRING if keyed(self.old_config) else None
        if by_index or config.sprt is not None:
            return None
        return PAIRING if config.tournament_type in FIELD_TYPES else None

    def random_layout(self) -> int:
        """How this folder draws random matches (see :mod:`arena.tournament.schedule`): what its
        ``config.json`` recorded; for a folder written before layouts were recorded (or one whose
        record is not a layout), the couple rounds it was played with; balanced for a new folder."""
        if self.old_config is None:
            return RANDOM_LAYOUT_BALANCED
        recorded = self.old_config.get("randomLayout")
        if isinstance(recorded, int) and not isinstance(recorded, bool) and recorded in RANDOM_LAYOUTS:
            return recorded
        return RANDOM_LAYOUT_COUPLE_ROUNDS

    def begin(self, config: TournamentConfig) -> None:
        """Create the folder, cut off a broken last line of ``games.jsonl``, write ``config.json``.

        Raises LogError when the folder cannot be written."""
        try:
            self._begin(config)
        except (OSError, ValueError) as exc:
            raise LogError(f"{self.folder}: cannot write the logs here ({getattr(exc, 'strerror', None) or exc}); "
                           "pass --logs DIR to write elsewhere") from None

    def _begin(self, config: TournamentConfig) -> None:
        make_folders(self.root)  # the user's folder (--logs DIR): links are fine there
        for sub in (self.folder, self.folder / RECORDS_FOLDER, self.stderr_dir):
            folder = open_beneath(self.root, sub, os.O_RDONLY | os.O_DIRECTORY, make_dirs=True)
            try:
                if sub == self.folder and _bots_have_users():
                    # Bots run as users of their own: a log folder they may not enter is hidden from
                    # every bot on the machine, sandbox or not (other runs' bots included).
                    os.fchmod(folder, 0o700)
                if sub == self.folder:  # games/ at the end (tidy): listing 100,000 records takes a while
                    _remove_cut_writes(folder)
            finally:
                os.close(folder)
        atomic_write(self.folder / CONFIG_FILE, dumps(config.to_json()), root=self.root)
        fd = open_beneath(self.root, self.folder / GAMES_FILE, os.O_RDWR | os.O_APPEND | os.O_CREAT)  # read too: its end
        whole = whole_lines_size(fd)
        if whole != os.fstat(fd).st_size:  # a cut-off last line (arena.records.logstore): played again
            os.ftruncate(fd, whole)
            os.fsync(fd)
        self._games_size = whole
        self._games_fd = fd

    def tidy(self) -> None:
        """Remove the temporary files of record writes cut short by a kill from ``games/`` (at the
        end of a run: they are in no one's way, and the listing is not worth a resume's time)."""
        try:
            folder = open_beneath(self.root, self.folder / RECORDS_FOLDER, os.O_RDONLY | os.O_DIRECTORY)
        except (OSError, ValueError):
            return
        try:
            _remove_cut_writes(folder)
        except OSError:
            pass  # left for the next run's end
        finally:
            os.close(folder)

    def write_game(self, index: int, record: dict[str, Any], row: dict[str, Any]) -> None:
        """Persist one finished game: its record file first, then its line, in one ``write``.

        Raises ResourceError or LogError (:func:`write_failure`) when a write fails; then the game is
        not in ``games.jsonl`` (a partial line is cut off again) and a resumed run plays it again.
        """
        if self._games_fd is None:
            raise RuntimeError("TournamentLog.begin was not called")
        path = self.folder / record_name(index)
        try:
            # Synced (file, then its folder) before the line: a line never points at a lost record.
            atomic_write(path, orjson.dumps(record) + b"\n", root=self.root)
        except OSError as exc:
            raise write_failure(path, exc) from None
        line = orjson.dumps(row) + b"\n"
        try:
            written = _write(self._games_fd, line)
            if written != len(line):  # a short write: the disk filled up in the middle of the line
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fdatasync(self._games_fd)  # the game is finished only once its line is on the disk
        except OSError as exc:
            try:
                os.ftruncate(self._games_fd, self._games_size)
            except OSError:
                pass  # a cut-off last line is ignored by every reader, and cut off by the next run
            raise write_failure(self.folder / GAMES_FILE, exc) from None
        self._games_size += written
        if self._digest is not None:
            self._digest.update(line)

    def write_agent_files(self, config: TournamentConfig, stats: dict[str, dict[str, Any]]) -> None:
        """The seed's ``<agentId>.json`` for every agent. Raises OSError."""
        write_agent_files(self.folder, [(a.id, a.type, a.raw_path) for a in config.agents], stats)

    def write_standings(self, standings: dict[str, Any]) -> None:
        """Raises OSError."""
        write_standings(self.folder, standings)

    def close(self) -> None:
        if self._games_fd is not None:
            os.close(self._games_fd)
            self._games_fd = None


def _remove_cut_writes(folder: int) -> None:
    """Remove the temporary files of atomic writes cut short by a kill from the folder open at
    ``folder``. Raises OSError."""
    for name in os.listdir(folder):
        if name.startswith(".") and name.endswith(".tmp"):
            with contextlib.suppress(FileNotFoundError, IsADirectoryError):
                os.unlink(name, dir_fd=folder)  # the entry itself, never a link's target


def write_agent_files(folder: Path, agents: Iterable[tuple[str, str, str | None]],
                      stats: dict[str, dict[str, Any]]) -> None:
    """``<agentId>.json`` for each ``(id, type, path)`` in ``agents`` from ``stats`` (a
    :meth:`LegacyEloStats.snapshot`), in a run's log folder (no link followed below :func:`log_root`).
    Raises OSError."""
    for aid, kind, raw_path in agents:
        body = {"id": aid, "type": kind, "path": raw_path, **stats[aid]}
        # Derived data, rewritten every few seconds: not synced (1,000 agents would cost a second).
        atomic_write(folder / f"{aid}.json", dumps(body), root=log_root(folder), sync=False)


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Human descriptions of the keys that differ between two resolved configs (harmless keys aside,
    and keys this version added that ``old`` does not have)."""
    a, b = comparable(old, old), comparable(new, old)
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            if key == "agents":
                out.append(AGENTS_DIFFER)
            else:
                out.append(f"{key} was {_short(a.get(key))}, now {_short(b.get(key))}")
    return out


def _short(value: Any) -> str:
    text = orjson.dumps(value).decode()
    return cap_text(text)


def load_results(rows: Iterable[dict[str, Any]], players: int | None = None) -> list[Any]:
    """Rows to results sorted by index: :class:`GameResult` for a two-player tournament
    (``players`` None), :class:`arena.stats.results.RankedResult` for one of N seats."""
    if players is None:
        rows = rows if isinstance(rows, list) else list(rows)
        columns = plain_pair_columns(rows)
        if columns is None:
            return sorted((result_from_row(r) for r in rows), key=lambda g: g.index)
        # Plain rows (most): what result_from_row makes of them, a column at a time (5x faster).
        scores = (0.0, 0.5, 1.0)
        return sorted((GameResult(i, b, w, scores[p], t, pair) for i, b, w, p, t, pair in zip(
            columns.index, columns.black, columns.white, columns.points, columns.termination, columns.pair,
            strict=True)), key=lambda g: g.index)
    from arena.stats.results import ranked_from_row

    return sorted((ranked_from_row(r) for r in rows), key=lambda g: g.index)


def online_tally(agents: Sequence[str], players: int | None) -> Any:
    """What the terminal shows while games run, kept up to date game by game: the seed's online
    Elo and W/D/L for two players (:class:`LegacyEloStats`), placings for N seats
    (:class:`arena.tournament.tables.TableTally`). Both have ``add(result)`` and
    ``snapshot(lowest_pending)``."""
    if players is None:
        return LegacyEloStats(agents)
    from arena.tournament.tables import TableTally

    return TableTally(agents)


def tally_finished(tally: Any, rows: list[dict[str, Any]], below: int, players: int | None) -> None:
    """Add the finished games ``rows`` to an empty :func:`online_tally` of games of ``players``
    seats (None: two); no game below index ``below`` is still to come. Plain two-player rows go
    in a column at a time (a resume of 100,000 games)."""
    if players is None:
        columns = plain_pair_columns(rows)
        if columns is not None:
            tally.add_finished(columns, below)
            return
    for result in load_results(rows, players):
        tally.add(result)


def counts_from_state(counts: Any, agents: Sequence[str]) -> dict[str, dict[str, int]]:
    """Per agent of ``agents`` its games, wins, draws and losses, from a saved tally's ``counts``
    (:meth:`LegacyEloStats.state`, :meth:`arena.tournament.tables.TableTally.state`); ValueError
    (or KeyError, TypeError) when they are not such counts of exactly these agents."""
    if set(counts) != set(agents):
        raise ValueError("another field's tally")
    out = {}
    for a in agents:
        if set(counts[a]) != {"games", "wins", "draws", "losses"} or not all(type(n) is int for n in counts[a].values()):
            raise ValueError("not a tally")
        out[a] = dict(counts[a])
    return out


class LegacyEloStats:
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

    def add_finished(self, columns: PlainColumns, below: int) -> None:
        """:meth:`add` of every game of ``columns`` into an empty tally (a resumed run's rows, no
        object per game): those with an index below ``below``, under which no game may still
        arrive, are folded into the ratings at once in index order, the same arithmetic
        :meth:`snapshot` would do."""
        if self._tail or self._folded_below or any(c["games"] for c in self._counts.values()):
            raise ValueError("games can be added at once only to an empty tally")
        counts, ratings, k, tail = self._counts, self._folded, self._k, self._tail
        outcome = ("losses", "draws", "wins")  # by black's doubled points
        index, black, white, points = columns.index, columns.black, columns.white, columns.points
        for i in sorted(range(len(index)), key=index.__getitem__):
            b, w, p = black[i], white[i], points[i]
            counts[b]["games"] += 1
            counts[b][outcome[p]] += 1
            counts[w]["games"] += 1
            counts[w][outcome[2 - p]] += 1
            if index[i] < below:
                elo_step(ratings, b, w, p / 2, k)
                self._folded_below = index[i] + 1
            else:
                tail.append(GameResult(index[i], b, w, p / 2, columns.termination[i], columns.pair[i]))

    def state(self) -> dict[str, Any]:
        """What :meth:`from_state` takes back: the counts, the folded ratings (floats survive JSON
        exactly), the index they are folded below and the games not folded yet."""
        return {"counts": self._counts, "folded": self._folded, "folded_below": self._folded_below,
                "tail": [[g.index, g.black, g.white, g.score, g.termination, g.pair] for g in self._tail]}

    @classmethod
    def from_state(cls, agents: Sequence[str], state: Any) -> LegacyEloStats:
        """The tally :meth:`state` described, for ``agents``; ValueError when ``state`` is not one
        of theirs (a hand-made file: the caller counts the games again)."""
        tally = cls(agents)
        try:
            folded, below, tail = state["folded"], state["folded_below"], state["tail"]
            if set(folded) != set(agents) or type(below) is not int:
                raise ValueError("another field's tally")
            tally._counts = counts_from_state(state["counts"], agents)
            for a in agents:
                if type(folded[a]) is not float:
                    raise ValueError("not a tally")
                tally._folded[a] = folded[a]
            tally._folded_below = below
            for index, black, white, score, termination, pair in tail:
                if type(index) is not int or index < below or black not in folded or white not in folded \
                        or score not in (0.0, 0.5, 1.0) or not isinstance(termination, str):
                    raise ValueError("not a game of the tally")
                tally._tail.append(GameResult(index, black, white, float(score), termination, pair))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a tally ({exc})") from None
        return tally

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
    tournament_id: str, game: str, agent_ids: Sequence[str], results: Sequence[Any], *,
    seed: int, bootstrap_samples: int = 200, players: int | None = None, hero: str | None = None,
    warm: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``standings.json`` object (the runner and ``arena standings`` both build it here) of
    two-player ``results`` (``players`` None) or of N-seat ones (a Plackett–Luce fit; ``hero``, a
    gauntlet's first agent, is also rated against the field). ``warm``: a dict kept from one call
    to the next (the stats worker's), whose last fit starts the next (the same standings, sooner)."""
    if players is None:
        return {"id": tournament_id, "game": game,
                **compute_standings(results, agent_ids, bootstrap_samples=bootstrap_samples, seed=seed, warm=warm)}
    from arena.stats.tables import table_standings

    return {"id": tournament_id, "game": game, "seed": seed,
            **table_standings(results, agent_ids, players=players, bootstrap_samples=bootstrap_samples, seed=seed,
                              hero=hero, warm=warm)}


def gauntlet_hero(tournament_type: Any, agent_ids: Sequence[str]) -> str | None:
    """The agent a gauntlet rates against the field (its first), None for other schedules."""
    return agent_ids[0] if tournament_type == "gauntlet" and agent_ids else None


def count_node(counts: dict[str, dict[str, Any]], node: Any) -> None:
    """Add one game to ``counts`` (by node id) for a row's ``node`` (``id``, ``ip``, ``hostname``;
    anything else, such as a local game's missing node, is not counted)."""
    if isinstance(node, dict) and isinstance(node.get("id"), str):
        entry = counts.setdefault(node["id"], {"node": node["id"], "ip": node.get("ip"),
                                               "hostname": node.get("hostname"), "games": 0})
        entry["games"] += 1


def sorted_nodes(counts: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of ``counts``, most games first (standings.json's ``nodes``)."""
    return sorted(counts.values(), key=lambda e: (-e["games"], e["node"]))


def standings_from_folder(folder: Path, bootstrap_samples: int = 200,
                          ratings: Sequence[str] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """Recompute ``(standings, per-agent seed statistics)`` from a log folder alone (read-only).

    Uses ``config.json`` for the agents' order and the bootstrap seed when it is there; otherwise
    the agents seen in ``games.jsonl``. ``ratings``: rating methods (``arena.ratings``,
    :mod:`arena.stats.methods`) whose ratings the standings' ``ratings`` key adds. Raises LogError
    when ``folder`` is not a tournament's logs, ConfigError for a rating method that is none or
    cannot rate these games.
    """
    if not (folder / GAMES_FILE).exists() and not (folder / CONFIG_FILE).exists():
        raise LogError(f"{folder}: no {GAMES_FILE} or {CONFIG_FILE} here; expected a "
                       "tournament_logs/<id> folder")
    config: dict[str, Any] = {}
    if (folder / CONFIG_FILE).exists():
        try:
            loaded = read_json_file(folder / CONFIG_FILE, MAX_FILE_BYTES, root=folder)
        except OSError as exc:
            raise LogError(f"{folder / CONFIG_FILE}: unreadable ({exc.strerror or exc})") from None
        except ValueError as exc:
            raise LogError(f"{folder / CONFIG_FILE}: unreadable ({exc})") from None
        if isinstance(loaded, dict):
            config = loaded
    players = config.get("players")
    listed = config.get("agents")
    agent_ids: list[str] = [a["id"] for a in listed if isinstance(a, dict) and isinstance(a.get("id"), str)] \
        if isinstance(listed, list) else []
    seed = config.get("seed", 0) if isinstance(config.get("seed"), int) else 0
    tournament_id, game = str(config.get("id", folder.name)), str(config.get("game", DEFAULT_CONFIG_GAME))
    nodes: dict[str, dict[str, Any]] = {}
    if keyed(config):  # only the games that count now, in the field's canonical order: all rows at once
        rows = Field.from_json(config).standings_rows([row for batch in read_batches(folder) for row in batch.rows])
        for row in rows:
            count_node(nodes, row.get("node"))
        batches: Iterator[RowBatch] = iter([RowBatch(rows, plain_pair_columns(rows))])
        del rows
    else:
        batches = _counting_nodes(read_batches(folder), nodes)
    first = next(batches, RowBatch([], None))
    if not isinstance(players, int) or isinstance(players, bool):
        # A folder without config.json: its rows say which kind of game they are.
        head = first.rows[:1]
        players = len(head[0]["seats"]) if head and isinstance(head[0].get("seats"), list) else None
    batches = _prepended([first], batches)
    del first  # the batches are let go of one by one
    kept: list[dict[str, Any]] = []
    if ratings:
        batches = _keeping(batches, kept)
    if players is None:
        standings, stats = _pair_standings_of(folder, batches, agent_ids, tournament_id, game, seed, bootstrap_samples)
    else:
        standings, stats = _table_standings_of(folder, batches, players, agent_ids, tournament_id, game,
                                               seed, bootstrap_samples, config.get("tournamentType"))
    if nodes:  # games played on a cluster (the Ray backend), as the run's own standings.json has them
        standings["nodes"] = sorted_nodes(nodes)
    if ratings:
        from arena.stats.methods import rate_with
        from arena.stats.results import ranked_from_game

        ranked = [ranked_from_game(g) if isinstance(g, GameResult) else g for g in load_results(kept, players)]
        standings["ratings"] = rate_with(ratings, ranked, agent_ids)
    return standings, stats


def _keeping(batches: Iterator[RowBatch], kept: list[dict[str, Any]]) -> Iterator[RowBatch]:
    """``batches``, each one's rows added to ``kept`` on the way."""
    for batch in batches:
        kept.extend(batch.rows)
        yield batch


def _counting_nodes(batches: Iterator[RowBatch], nodes: dict[str, dict[str, Any]]) -> Iterator[RowBatch]:
    """``batches``, each row's node counted into ``nodes`` on the way."""
    for batch in batches:
        for row in batch.rows:
            if "node" in row:
                count_node(nodes, row["node"])
        yield batch


def _prepended(first: list[RowBatch], rest: Iterator[RowBatch]) -> Iterator[RowBatch]:
    """The batches of ``first`` (emptied on the way), then those of ``rest``."""
    while first:
        yield first.pop(0)
    yield from rest


def _pair_standings_of(folder: Path, batches: Iterator[RowBatch],
                       agent_ids: list[str], tournament_id: str, game: str, seed: int,
                       bootstrap_samples: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two-player standings from rows in batches, kept as columns only (no object per game)."""
    from arena.stats.pair_games import PairColumns, pair_standings

    columns = PairColumns(agent_ids)
    for batch in batches:
        if batch.columns is not None:
            columns.add_columns(batch.columns)
        else:
            try:
                columns.add_results([result_from_row(r) for r in batch.rows])
            except ValueError as exc:
                raise LogError(f"{folder / GAMES_FILE}: {exc}") from None
    games = columns.games().sorted_by_index().listing(agent_ids)
    agent_ids[:] = games.names
    standings = {"id": tournament_id, "game": game,
                 **pair_standings(games, bootstrap_samples=bootstrap_samples, seed=seed)}
    # The seed's per-agent statistics are the standings' counts and online Elo (LegacyEloStats).
    by_id = {row["id"]: row for row in standings["standings"]}
    stats = {a: {"games": by_id[a]["games"], "wins": by_id[a]["wins"], "draws": by_id[a]["draws"],
                 "losses": by_id[a]["losses"], "rating": by_id[a]["online_elo"]} for a in agent_ids}
    return standings, stats


def _table_standings_of(folder: Path, batches: Iterable[RowBatch], players: int, agent_ids: list[str],
                        tournament_id: str, game: str, seed: int, bootstrap_samples: int,
                        tournament_type: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """N-seat standings from rows in batches."""
    try:
        results = load_results([row for batch in batches for row in batch.rows], players)
    except ValueError as exc:
        raise LogError(f"{folder / GAMES_FILE}: {exc}") from None
    for g in results:
        for aid in g.seats:
            if aid not in agent_ids:
                agent_ids.append(aid)
    standings = standings_object(tournament_id, game, agent_ids, results, seed=seed,
                                 bootstrap_samples=bootstrap_samples, players=players,
                                 hero=gauntlet_hero(tournament_type, agent_ids))
    stats = online_tally(agent_ids, players)
    for g in results:
        stats.add(g)
    return standings, stats.snapshot(None)


def _bots_have_users() -> bool:
    from arena.process.botuser import can_switch_users

    return can_switch_users()
