"""Run a tournament: execute the schedule with bounded concurrency, log every game as it ends, resume.

The plan is pure (:mod:`arena.tournament.schedule`); this module only executes it:

- :meth:`Tournament.prepare` (synchronous) checks the agents can run, takes the log folder's lock
  (one run per folder), opens the logs, refuses a different config under the same id, checks every
  finished game sits where the schedule puts it, and works out which indices are still to play.
- :meth:`Tournament.play` runs up to ``concurrency`` games at once (:mod:`arena.tournament.concurrency`).
  Each finished game is persisted *synchronously* the moment :func:`arena.match.game.play_game` returns
  (record file, then its ``games.jsonl`` line), so no cancellation can come between a game ending
  and its being written. A cancelled game (Ctrl-C) raises out of ``play_game`` and is never written:
  the next run plays it again.
- :meth:`Tournament.finish` writes the final per-agent files and ``standings.json`` and returns a
  :class:`RunSummary`. Call it even after ``play`` was cancelled or failed; it is safe to call once.

Clocks charge only the bot. The event loop that times the bots does nothing slow: after a game it
writes that game's record and line and queues the line for the standings worker
(:mod:`arena.tournament.stats_worker`), a separate low-priority process that keeps
``standings.json`` and the per-agent files up to date (each at most every few seconds). No thread of
arena's computes statistics during play (a thread holding the GIL stalled the loop for hundreds of
milliseconds, issue 8). If the worker is missing, arena writes the files itself at finish, when no
clock runs.

Where games run is the backend's business (:mod:`arena.backends`): ``local`` (this process, the
default) or ``ray`` (one Ray task per game on a cluster). Either way the backend hands the record
back and this driver persists it as above, so the log folder, resume and its guarantees are the
same. The backend is opened in :meth:`Tournament.prepare` (only when games are left to play) and
closed by :meth:`Tournament.finish_sync`. With Ray, each ``games.jsonl`` row also names the node
that ran the game (``node``) and how many attempts were lost with a node first (``retried``), and
``standings.json`` gets ``nodes``: the games each node ran.

Arena's failures are arena's. When :func:`arena.match.game.play_game` raises
:class:`arena.errors.ResourceError` (no descriptors, no processes left...) or writing the logs fails
(disk full), the run stops: the game in flight and every other running game are cancelled and not
recorded (a resumed run plays them), finished games stay, the standings are still written at finish
where possible, and :meth:`Tournament.play` raises that one error (never an exception group).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeAlias

import trio

from arena.backends import Backend, BackendOptions, GameJob, make_backend
from arena.errors import ArenaError, ConfigError, ResourceError
from arena.games import get_game
from arena.match.pairs import Openings, PairOpening, pair_opening
from arena.players.spec import AgentSpec
from arena.process.isolation import BotLimits, require_sandbox
from arena.records.logstore import FolderLock, LogError, parse_rows, read_rows, write_failure
from arena.records.reader import GAMES_FILE, RESULT_TEXT, record_name
from arena.runs.jobs import GameSetting, game_job
from arena.runs.lifecycle import DEFAULT_LOGS
from arena.runs.loop import play_schedule
from arena.tournament.checked import CHECKED_FILE, Checked, check_folder, context_of, free_indexes, write_checked
from arena.tournament.concurrency import ConcurrencyPlan, default_concurrency, local_workers, plan_concurrency
from arena.tournament.config import TournamentConfig, check_programs
from arena.tournament.field import (
    PAIRING,
    Field,
    FieldChange,
    PlayOrder,
    field_change,
    game_key,
    keyed,
    mark,
    refusal,
    with_index,
)
from arena.tournament.live import LiveTrace, chain
from arena.tournament.logs import (
    TournamentLog,
    count_node,
    gauntlet_hero,
    load_results,
    online_tally,
    sorted_nodes,
    standings_object,
    tally_finished,
)
from arena.tournament.plan import agent_spec, isolation, opening_book, openings_order, time_control
from arena.tournament.resume import check_rows
from arena.tournament.schedule import (
    ScheduledGame,
    ScheduledTable,
    build_schedule,
    build_table_schedule,
    schedule_length,
    table_schedule_length,
)
from arena.tournament.stats_worker import StatsWorker
from arena.tournament.tables import table_job, table_row
from arena.tournament.versions import agent_version

#: One game of the schedule: of two players, or of N seats (a game of the general model).
Scheduled: TypeAlias = ScheduledGame | ScheduledTable

#: How many times a game that failed for arena's reasons is played again before the run stops,
#: and the pause before each replay (times the attempt), for a passing shortage to clear.
ARENA_ERROR_REPLAYS = 2
ARENA_ERROR_PAUSE_S = 1.0



class Reporter(Protocol):
    """What the runner tells the terminal. All methods are called from the trio thread."""

    def started(self, *, config: TournamentConfig, total: int | None, already_done: int,
                concurrency: int, folder: Path) -> None: ...

    def game_started(self, game: Scheduled) -> None: ...

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None: ...

    def stopped(self) -> None: ...

    def close(self) -> None: ...


class SilentReporter:
    """A reporter that says nothing (library use and tests)."""

    def started(self, **_: Any) -> None:
        pass

    def game_started(self, game: Scheduled) -> None:
        pass

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        pass

    def stopped(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class RunOptions:
    """How to run. ``concurrency`` None: the config's, else the number of cores (capped, see
    :mod:`arena.tournament.concurrency`). ``ponder``, ``sandbox``, ``inherit_env``: None keeps the
    config's value, a bool replaces it (``--ponder``/``--no-ponder``, ``--sandbox``,
    ``--inherit-env``; ``ponder`` is part of the tournament's identity, see
    :mod:`arena.tournament.config`). ``player_opts`` go to every player (e.g. ``kill_grace`` in
    tests). ``standings_interval_s`` and ``agent_files_interval_s``: how often, at most, the
    standings worker rewrites ``standings.json`` and the per-agent files during play;
    ``stats_worker`` False writes them only at finish."""

    logs_root: Path = DEFAULT_LOGS
    concurrency: int | None = None
    bootstrap_samples: int = 200
    standings_interval_s: float = 2.0
    agent_files_interval_s: float = 2.0
    player_opts: dict[str, Any] | None = None
    observer: Callable[[Any], None] | None = None
    ponder: bool | None = None
    sandbox: bool | str | None = None
    inherit_env: bool | None = None
    #: Per-bot limits that replace the config's (``--memory-mb``...; None: the config's).
    limits: BotLimits | None = None
    stats_worker: bool = True
    #: A new two-player round robin or gauntlet keeps results by pairing, so its field may change
    #: (:mod:`arena.tournament.field`); False keeps them by game index, as folders of earlier arenas.
    by_pairing: bool = True
    #: Where games run: options (None: the config's ``backend`` keys, else local; see
    #: :func:`backend_options`) or a backend object not opened yet (tests, other drivers).
    backend: BackendOptions | Backend | None = None


@dataclass
class RunSummary:
    """What a run did. ``standings`` is the ``standings.json`` object."""

    id: str
    folder: Path
    total: int | None
    finished: int
    played_now: int
    already_done: int
    interrupted: bool
    complete: bool
    standings: dict[str, Any] = field(default_factory=dict)
    agent_stats: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Problems that did not stop the run but deserve a line (e.g. standings.json not written).
    warnings: list[str] = field(default_factory=list)
    #: What changed in the field and what was to be played (a folder kept by pairing), else None.
    change: FieldChange | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "logs": str(self.folder),
            "games_total": self.total,
            "games_finished": self.finished,
            "games_played_now": self.played_now,
            "games_already_done": self.already_done,
            "interrupted": self.interrupted,
            "complete": self.complete,
            "agents": self.agent_stats,
            **self.standings,
            "warnings": self.warnings,
            **({"field": self.change.to_json()} if self.change is not None else {}),
        }


def check_agent_kinds(config: TournamentConfig) -> None:
    """ConfigError when a hyperparameters file is wrong (checked once here rather than failing every game), or when an
    executable agent's program cannot be found with its environment under this run's ``inheritEnv``
    (:func:`arena.tournament.config.check_programs`)."""
    check_programs(config.agents, config.inherit_env)
    from arena.agents.hyperparameters import load_hyperparameters

    for number, agent in enumerate(config.agents):
        if agent.type == "hyperparameters" and agent.path is not None:
            try:
                load_hyperparameters(agent.path, config.game)
            except ConfigError as exc:
                raise ConfigError(f"agents[{number}].path: {exc}") from None


def concurrency_plan(config: TournamentConfig, requested: int | None,
                     games_left: int | None = None) -> ConcurrencyPlan:
    """``requested``, else the config's, else the number of cores, capped (1 when a human plays;
    see :mod:`arena.tournament.concurrency`); ``note`` says why when it is lower than asked."""
    wanted = requested or config.concurrency or default_concurrency()
    return plan_concurrency(wanted, human=any(a.type == "player" for a in config.agents),
                            games_left=games_left, asked=bool(requested or config.concurrency))


def effective_concurrency(config: TournamentConfig, requested: int | None) -> int:
    """:func:`concurrency_plan`'s value, before the logs are read (so not capped by games left)."""
    return concurrency_plan(config, requested).value


def backend_options(config: TournamentConfig, kind: str | None = None, address: str | None = None,
                    cpus_per_game: float | None = None) -> BackendOptions:
    """The backend to use: ``kind``/``address``/``cpus_per_game`` (the command line) where given,
    else the config's ``backend``, ``rayAddress``, ``rayCpusPerGame``, ``rayWorkingDir`` and
    ``raySharedFiles``, else the defaults (local; an embedded Ray instance; 2 CPUs per game)."""
    defaults = BackendOptions()
    return BackendOptions(
        kind=kind or config.backend or defaults.kind,
        address=address or config.ray_address or defaults.address,
        cpus_per_game=cpus_per_game or config.ray_cpus_per_game,
        working_dir=Path(config.ray_working_dir) if config.ray_working_dir else None,
        shared_files=config.ray_shared_files)


def with_overrides(config: TournamentConfig, options: RunOptions) -> TournamentConfig:
    """``config`` with the isolation choices of ``options`` that are not None."""
    changes: dict[str, Any] = {name: value for name, value in (("ponder", options.ponder), ("sandbox", options.sandbox),
                                               ("inherit_env", options.inherit_env),
                                               ("limits", options.limits)) if value is not None}
    return dataclasses.replace(config, **changes) if changes else config


class Tournament:
    """One run of one tournament config (see the module docstring for the life cycle).

    ``concurrency`` is the number of games played at once and ``concurrency_note`` one line saying
    why it is lower than asked (None when it is not); both are final after :meth:`prepare`.
    """

    def __init__(self, config: TournamentConfig, options: RunOptions | None = None,
                 reporter: Reporter | None = None) -> None:
        self.options = options or RunOptions()
        self.config = with_overrides(config, self.options)
        self.reporter: Reporter = reporter or SilentReporter()
        self.folder = Path(self.options.logs_root) / config.id
        plan = concurrency_plan(self.config, self.options.concurrency)
        self.concurrency, self.concurrency_note = plan.value, plan.note
        #: The game has N seats (the general model): schedules of seat-rotation groups, N-seat rows.
        self.seated = config.players is not None
        if self.seated:
            assert config.players is not None
            self.total = table_schedule_length(config.tournament_type, len(config.agents), config.players,
                                               games_per_group=config.games_per_pair, matches=config.matches)
        else:
            self.total = schedule_length(config.tournament_type, len(config.agents),
                                         games_per_pair=config.games_per_pair, matches=config.matches)
        self._log = TournamentLog(self.folder)
        self._lock = FolderLock(self.folder)
        #: The games in progress, move by move, for ``arena serve`` (live/ in the folder).
        self._live = LiveTrace(self.folder, self._log.root)
        self._stats = online_tally(self.config.agent_ids, config.players)
        self._pending: Iterator[Scheduled] = iter(())
        self._next: Scheduled | None = None
        self._frontier: int | None = None  # index of the next game to hand out (None: no more)
        self._in_flight: set[int] = set()
        self._already_done = 0
        self._played_now = 0
        self._worker: StatsWorker | None = None
        self._failure: BaseException | None = None
        #: Games that failed for arena's reasons and were played again (one line each).
        self.arena_errors: list[str] = []
        self._games_scope: trio.CancelScope | None = None
        self._finished = False
        self._prepared = False
        self.backend: Backend | None = None
        self._node_counts: dict[str, dict[str, Any]] = {}
        #: The field now, in a folder that keeps results by pairing (None: by index), and what
        #: changed since the folder's last run (both set by :meth:`prepare`).
        self.field: Field | None = None
        self.field_change: FieldChange | None = None
        #: What the next resume needs of games.jsonl (a folder kept by pairing), kept up to date
        #: game by game, and the field's play order it refers to (both set by prepare).
        self._checked: Checked | None = None
        self._order: PlayOrder | None = None

    # -- preparation -----------------------------------------------------------------------------

    def prepare(self) -> None:
        """Lock and open the logs and plan the games still to play. Raises ConfigError or LogError
        (another run holds the folder, the folder holds another tournament, a corrupt line...)."""
        check_agent_kinds(self.config)
        if self.options.sandbox:
            require_sandbox("sandbox", self.options.sandbox)
        if not self.seated:
            self._game = get_game(self.config.game)
            self._book = opening_book(self.config, self._game)
        else:
            self._book = None
        self._lock.acquire()  # before anything in the folder is read
        try:
            self._prepare_locked()
            if self._next is not None:
                self._open_backend()
        except BaseException:
            self._close_backend()
            self._log.close()
            self._lock.release()
            self._prepared = False
            raise

    def _open_backend(self) -> None:
        """Open the backend (connect, check every agent can start where games run) and, unless the
        user asked for a concurrency, play as many games at once as the backend has room for."""
        given = self.options.backend
        if given is None or isinstance(given, BackendOptions):
            options = given or backend_options(self.config)
            # Concurrency is known now: the local backend's worker processes follow it.
            backend = make_backend(dataclasses.replace(
                options, workers=local_workers(options.workers, self.concurrency)))
        else:
            backend = given
        self.backend = backend
        base_dir = Path(self.config.source).resolve().parent if self.config.source else None
        specs = [self._spec(agent_id) for agent_id in self.config.agent_ids]
        backend.open(specs, base_dir=base_dir, logs_dir=self.folder, sandbox=self.config.sandbox or False)
        room = backend.capacity()
        if room is not None and not (self.options.concurrency or self.config.concurrency):
            left = None if self.total is None else self.total - self._already_done
            self.concurrency = max(1, min(room, left) if left is not None else room)
            self.concurrency_note = None

    def _close_backend(self) -> None:
        if self.backend is not None:
            self.backend.close()

    def _prepare_locked(self) -> None:
        self._log.check_config(self.config)
        # A new folder (no config.json) keeps results by pairing only when it has no rows; a folder
        # kept by pairing is read after its checked prefix (arena.tournament.checked), others whole.
        rows = None if keyed(self._log.old_config) else parse_rows(self._log.read_games(), self.folder / GAMES_FILE).rows
        self.config = dataclasses.replace(self.config, pair_blocks=self._log.pair_blocks(self.config),
                                          random_layout=self._log.random_layout(),
                                          results_by=self._log.results_by(self.config, bool(rows) or not self.options.by_pairing),
                                          versions=self._versions())
        if self.config.results_by == PAIRING:
            self._prepare_field()
        else:
            assert rows is not None
            self._prepare_indexed(rows)
        self._live.clear()  # a killed run's games in progress are not in progress
        left = None if self.total is None else self.total - self._already_done
        plan = concurrency_plan(self.config, self.options.concurrency, games_left=left)
        self.concurrency, self.concurrency_note = plan.value, plan.note
        self._prepared = True

    def _versions(self) -> tuple[tuple[str, str], ...]:
        """Every agent's version (:mod:`arena.tournament.versions`), by id."""
        base_dir = Path(self.config.source).resolve().parent if self.config.source else None
        return tuple((a.id, agent_version(a, base_dir)) for a in self.config.agents)

    def _prepare_field(self) -> None:
        """Plan a folder kept by pairing (:mod:`arena.tournament.field`): the field's games with no
        counting row, numbered with the folder's free numbers, lowest first. The rows are checked,
        counted and tallied once: the outcome is kept in ``games.checked.json`` for the next resume
        (:mod:`arena.tournament.checked`)."""
        c = self.config
        field_now = Field(c.tournament_type, tuple(c.agent_ids), dict(c.versions), c.games_per_pair, c.seed, c.players)
        why = refusal(self._log.old_config, field_now)
        if why is not None:
            raise ConfigError(f"{self.folder}: {why}")
        self._order = PlayOrder(field_now)
        checked = check_folder(self._log, field_now, self._order, context_of(c.to_json()),
                               lambda pair: None if self.seated else self._opening(pair).line)
        self.field, self.field_change = field_now, field_change(self._log.old_config, field_now, checked.kept,
                                                                checked.history)
        self._log.begin(c)
        self._log.track(checked.digest)
        self._checked = checked
        self._stats, self._node_counts = checked.tally, checked.nodes
        self._already_done = checked.kept
        if not checked.saved:  # for the next resume, even if this run is killed (kill -9)
            self._write_checked()  # a failure is said at the end, when it is written again
        # The lowest free numbers first: a game cut off by Ctrl-C or kill -9 while a later one was
        # written leaves its number free, and the games left take the gaps before new numbers, so
        # the folder's indexes stay 0 .. N-1 when every game is done (as a folder kept by index).
        # The numbers are endless: zip ends with the games.
        self._pending = (with_index(g, index) for index, g in
                         zip(free_indexes(set(checked.taken)), self._order.missing(checked.done), strict=False))
        self._advance_frontier()

    def _write_checked(self, vouch: bool = False) -> str | None:
        """Write ``games.checked.json`` for ``games.jsonl`` as it is now (a folder kept by pairing;
        ``vouch``: for the record files too, at the end); the problem in one line when it cannot be
        written (the next resume then checks more rows)."""
        digest = self._log.digest()
        if self._checked is None or digest is None:
            return None
        try:
            write_checked(self.folder, self._log.root, self._checked, *digest, vouch=vouch)
        except OSError as exc:
            return str(write_failure(self.folder / CHECKED_FILE, exc))
        return None

    def _prepare_indexed(self, rows: list[dict[str, Any]]) -> None:
        """Plan a folder kept by index: the schedule's games whose index has no row."""
        done = {row["index"]: row for row in rows}
        self._verify_against_schedule(done)
        self._log.begin(self.config)
        first_missing = next(free_indexes(done.keys()))
        tally_finished(self._stats, rows, first_missing, self.config.players)
        for row in rows:
            self._count_node(row.get("node"))
        self._already_done = len(rows)
        self._pending = (g for g in self._schedule(start=first_missing) if g.index not in done)
        self._advance_frontier()

    def _schedule(self, start: int = 0) -> Iterator[ScheduledGame] | Iterator[ScheduledTable]:
        c = self.config
        if c.players is not None:
            return build_table_schedule(c.tournament_type, c.agent_ids, c.players, games_per_group=c.games_per_pair,
                                        matches=c.matches, seed=c.seed, start=start)
        return build_schedule(c.tournament_type, c.agent_ids, games_per_pair=c.games_per_pair,
                              matches=c.matches, seed=c.seed, pair_blocks=c.pair_blocks,
                              random_layout=c.random_layout, start=start)

    def _verify_against_schedule(self, done: dict[int, dict[str, Any]]) -> None:
        def opening_line(pair: int) -> int | None:
            return None if self.seated else self._opening(pair).line

        check_rows(self.folder, self._log.root, done, self._schedule(), self.total, opening_line)

    def _opening(self, pair: int) -> PairOpening:
        """Pair ``pair``'s opening (the one pair builder's; the schedule has its seed)."""
        c = self.config
        return pair_opening(pair, c.seed, Openings(c.opening_plies, self._book, openings_order(c)),
                            always_record_seed=True)

    def _advance_frontier(self) -> Scheduled | None:
        game = next(self._pending, None)
        self._next = game
        self._frontier = None if game is None else game.index
        return game

    def _take(self) -> Scheduled | None:
        game = self._next
        if game is not None:
            self._in_flight.add(game.index)
            self._advance_frontier()
        return game

    def _lowest_pending(self) -> int | None:
        candidates = set(self._in_flight)
        if self._frontier is not None:
            candidates.add(self._frontier)
        return min(candidates) if candidates else None

    # -- playing ---------------------------------------------------------------------------------

    async def play(self) -> None:
        """Play every missing game. Cancellation stops it: running games are dropped, not counted.

        Raises the one :class:`ArenaError` that stopped the run (ResourceError, or ResourceError /
        LogError from writing the logs); running games are then cancelled and not recorded.
        """
        if not self._prepared:
            self.prepare()
        self.reporter.started(config=self.config, total=self.total, already_done=self._already_done,
                              concurrency=self.concurrency, folder=self.folder)
        if self.options.stats_worker and self._worker is None and self._next is not None:
            worker = StatsWorker(self._worker_init(), self._log.stderr_dir / ".stats-worker.log")
            if await worker.start():
                self._worker = worker
        async with trio.open_nursery() as outer:
            if self._worker is not None:
                outer.start_soon(self._worker.feed)
            with trio.CancelScope() as games:
                self._games_scope = games
                # mypy cannot solve T from a union inside ``T | None``: T is Scheduled.
                await play_schedule(self._take_unless_stopped, self._play_one, self.concurrency)  # type: ignore[misc]
            outer.cancel_scope.cancel()
        if self._failure is not None:
            raise self._failure

    def _worker_init(self) -> dict[str, Any]:
        c = self.config
        return {"folder": str(self.folder), "id": c.id, "game": c.game, "seed": c.seed, "players": c.players,
                "hero": gauntlet_hero(c.tournament_type, c.agent_ids),
                "agents": [[a.id, a.type, a.raw_path] for a in c.agents],
                "bootstrap": self.options.bootstrap_samples, "games_bytes": self._log.games_bytes,
                "standings_interval_s": self.options.standings_interval_s,
                "agent_files_interval_s": self.options.agent_files_interval_s,
                "field": self.field.to_json() if self.field is not None else None,
                "checked": self._checked_init(), "checked_interval_s": self.options.standings_interval_s}

    def _checked_init(self) -> dict[str, Any] | None:
        """What the worker needs to keep ``games.checked.json`` up to date (None: no such file)."""
        digest = self._log.digest()
        if self._checked is None or digest is None:
            return None
        return {"context": self._checked.context, "sha256": digest[1]}

    def _stop(self, exc: BaseException) -> None:
        """Stop the run because of ``exc`` (the first one wins): cancel every running game."""
        if self._failure is None:
            self._failure = exc
        if self._games_scope is not None:
            self._games_scope.cancel()

    def _take_unless_stopped(self) -> Scheduled | None:
        return None if self._failure is not None else self._take()

    def _job(self, game: Scheduled) -> GameJob:
        """What the backend plays for scheduled game ``game``."""
        c = self.config
        if isinstance(game, ScheduledTable):
            return table_job(c, game, self.options.player_opts)
        setting = GameSetting(game=self._game.name, time_control=time_control(c), max_moves=c.max_moves,
                              isolation=isolation(c), player_opts=self.options.player_opts)
        return game_job(setting, (self._spec(game.black), self._spec(game.white)), game.index,
                        self._opening(game.pair))

    async def _play_one(self, game: Scheduled) -> bool:
        """Play ``game`` and write it; True when that stopped the run (:meth:`_stop`)."""
        backend = self.backend
        if backend is None:
            backend = self.backend = make_backend()
        self.reporter.game_started(game)
        try:
            record = await self._play_with_replays(backend, self._job(game))
        except ResourceError as exc:
            self._stop(exc)  # the game is not recorded: a resumed run plays it again
            return True
        except OSError as exc:  # arena's own machinery failed outside a bot's doing
            self._stop(write_failure(self._log.stderr_dir, exc, "run a game with logs in"))
            return True
        except Exception as exc:  # noqa: BLE001 - not swallowed: see the next line
            self._stop(exc)  # a bug: re-raised alone by play, never as an exception group
            return True
        self._in_flight.discard(game.index)
        if record.get("termination") == "interrupted":
            return False  # e.g. a human quit: not a result; a later run plays it again
        # No await from here on: the game is on disk before anything can cancel us.
        try:
            self._persist(game, record)
        except ArenaError as exc:
            self._stop(exc)
            return True
        return False

    async def _play_with_replays(self, backend: Backend, job: GameJob) -> dict[str, Any]:
        """Play ``job``; a game that failed for arena's reasons (an ``arena_error``: the host out of
        processes or memory, a cgroup that could not be made) is no one's loss: it is played
        again after a pause, up to :data:`ARENA_ERROR_REPLAYS` times, then the error stops the run."""
        players = [agent.id for agent in job.agents]
        for attempt in range(ARENA_ERROR_REPLAYS + 1):
            assert job.game_index is not None  # a tournament's games are numbered
            trace = self._live.start(job.game_index, players)
            try:
                return await backend.play(job, stderr_dir=self._log.stderr_dir,
                                          observer=chain(self.options.observer, trace))
            except ResourceError as exc:
                if attempt == ARENA_ERROR_REPLAYS:
                    raise ResourceError(f"{exc} (game {job.game_index} failed {attempt + 1} times for arena's "
                                        "reasons, not a bot's; nothing was recorded for it)") from None
                self.arena_errors.append(f"game {job.game_index}: arena_error, played again: {exc}")
            finally:
                self._live.end(job.game_index, trace)
            await trio.sleep(ARENA_ERROR_PAUSE_S * (attempt + 1))
        raise AssertionError("unreachable")

    def _spec(self, agent_id: str) -> AgentSpec:
        return agent_spec(self.config.agent(agent_id))

    def _persist(self, game: Scheduled, record: dict[str, Any]) -> None:
        logs = record.get("stderr_logs")
        if isinstance(logs, dict):
            # Relative to the log folder, so a moved folder still makes sense.
            record["stderr_logs"] = {k: _relative(v, self.folder) for k, v in logs.items()}
        row = table_row(game, record) if isinstance(game, ScheduledTable) else self._pair_row(game, record)
        row["versions"] = self._played_versions(game, row)  # which bots played it
        node = record.get("node")
        if isinstance(node, dict):  # played on a cluster (arena.backends.ray_backend)
            row["node"] = {k: node.get(k) for k in ("id", "ip", "hostname")}
            if record.get("ray_retries"):
                row["retried"] = len(record["ray_retries"])
            self._count_node(row["node"])
        self._log.write_game(game.index, record, row)
        counts = self.field is None or self.field.counts(row)  # a league's field may have changed meanwhile
        if counts:
            self._stats.add(load_results([row], self.config.players)[0])
        if self._checked is not None and self._order is not None:  # a row arena made: checked as written
            self._checked.taken.add(game.index)
            place = self._order.place(game_key(game)) if counts else None
            if place is not None:
                mark(self._checked.done, place)
        self._played_now += 1
        pending = self._lowest_pending()
        if self._worker is not None:
            self._worker.game_finished(row, pending, self._log.digest() if self._checked is not None else None)
        # Counts and the online Elo only (microseconds); the files are the worker's.
        self.reporter.game_finished(row, self._already_done + self._played_now, self._stats.snapshot(pending))

    def _played_versions(self, game: Scheduled, row: dict[str, Any]) -> dict[str, str | None]:
        """The version of each player of ``game`` (``row``'s ``players``): the config's (a league's
        field may change while a game is played: :mod:`arena.tournament.league`)."""
        versions = dict(self.config.versions)
        return {p["id"]: versions.get(p["id"]) for p in row["players"]}

    def _pair_row(self, game: ScheduledGame, record: dict[str, Any]) -> dict[str, Any]:
        """The ``games.jsonl`` row of a two-player game."""
        return {
            "index": game.index,
            "pair": game.pair,
            "black": game.black,
            "white": game.white,
            "players": [{"id": game.black, "colour": "BLACK"}, {"id": game.white, "colour": "WHITE"}],
            "winner": record["winner"],
            "result": RESULT_TEXT.get(record["winner"], "?"),
            "termination": record["termination"],
            "reason": record.get("reason", ""),
            "plies": record.get("plies"),
            "duration_s": record.get("duration_s"),
            "started_at": record.get("started_at"),
            "record": record_name(game.index),
            # The opening, so that a resumed run can tell the row is the game scheduled there.
            "seed": game.opening_seed,
            **({"opening_line": self._opening(game.pair).line} if self._book else {}),
            # The game's key in a folder kept by pairing (arena.tournament.field).
            **({"round": game.round} if game.round is not None else {}),
        }

    def _count_node(self, node: Any) -> None:
        count_node(self._node_counts, node)

    def node_counts(self) -> list[dict[str, Any]]:
        """Games per cluster node (``node`` id, ``ip``, ``hostname``, ``games``), most first; empty
        when every game ran locally."""
        return sorted_nodes(self._node_counts)

    def _standings_from_log(self) -> dict[str, Any]:
        """The standings of every game in ``games.jsonl`` (the source of truth), computed here."""
        c = self.config
        rows = read_rows(self.folder, self._log.root).rows if self._prepared else []
        if self.field is not None:
            rows = self.field.standings_rows(rows)  # the games that count now, in the field's order
        results = load_results(rows, c.players)
        return standings_object(c.id, c.game, c.agent_ids, results, seed=c.seed,
                                bootstrap_samples=self.options.bootstrap_samples, players=c.players,
                                hero=gauntlet_hero(c.tournament_type, c.agent_ids))

    # -- finishing -------------------------------------------------------------------------------

    async def finish(self, *, interrupted: bool = False) -> RunSummary:
        """Write the final statistics and close the logs (shielded: runs even after a Ctrl-C)."""
        standings: dict[str, Any] | None = None
        with trio.CancelScope(shield=True):
            if self._worker is not None and not self._finished:
                standings = await self._worker.finish()
            written = standings is not None
            if standings is None and not self._finished:
                try:
                    standings = await trio.to_thread.run_sync(self._standings_from_log)
                except ArenaError:
                    standings = None  # games.jsonl unreadable now: finish_sync says so in a warning
        return self.finish_sync(interrupted=interrupted, standings=standings, standings_written=written)

    def finish_sync(self, *, interrupted: bool = False, standings: dict[str, Any] | None = None,
                    standings_written: bool = False) -> RunSummary:
        """:meth:`finish` without trio (when ``play`` never started or the loop is gone). Never
        raises for a failed write: it becomes one of the summary's ``warnings``."""
        warnings: list[str] = list(self.arena_errors)
        if self._worker is not None:
            self._worker.kill()  # no-op when finish() already ended it
            self._worker.reap()
            warnings.extend(self._worker.warnings)
        stats: dict[str, dict[str, Any]] = {}
        self._close_backend()
        if not self._finished:
            if standings is None:
                try:
                    standings = self._standings_from_log()
                except ArenaError as exc:
                    standings, standings_written = {}, True
                    warnings.append(str(exc))
            if standings and self._node_counts:
                # The standings worker knows nothing of nodes: the final file gets them here.
                standings = {**standings, "nodes": self.node_counts()}
                standings_written = False
            if self._prepared:
                # Cancelled games stay in _in_flight: they are still pending for the online Elo.
                stats = self._stats.snapshot(self._lowest_pending())
                try:
                    self._log.write_agent_files(self.config, stats)
                except OSError as exc:
                    warnings.append(str(write_failure(self.folder, exc, "write the per-agent files in")))
                if not standings_written:
                    try:
                        self._log.write_standings(standings)
                    except OSError as exc:
                        warnings.append(str(write_failure(self.folder / "standings.json", exc)))
                self._log.tidy()  # before the records folder is stamped
                problem = self._write_checked(vouch=True)
                if problem is not None:
                    warnings.append(problem)
                self._log.close()
            self._live.close()
            self._lock.release()
        self._finished = True
        finished = self._already_done + self._played_now
        complete = self.total is not None and finished >= self.total
        return RunSummary(
            id=self.config.id, folder=self.folder, total=self.total, finished=finished,
            played_now=self._played_now, already_done=self._already_done, interrupted=interrupted,
            complete=complete, standings=standings or {}, agent_stats=stats, warnings=warnings,
            change=self.field_change)


def _relative(path: Any, folder: Path) -> Any:
    try:
        return os.path.relpath(str(path), str(folder))
    except ValueError:
        return path


async def run_tournament(config: TournamentConfig, options: RunOptions | None = None,
                         reporter: Reporter | None = None) -> RunSummary:
    """Prepare, play and finish in one call (no signal handling: cancel the caller's scope to stop).

    Raises ConfigError/LogError before any game when the logs or agents do not fit the config.
    """
    tournament = Tournament(config, options, reporter)
    tournament.prepare()
    try:
        await tournament.play()
    finally:
        summary = await tournament.finish()
    return summary


__all__ = [
    "LogError", "Reporter", "ResourceError", "RunOptions", "RunSummary", "SilentReporter", "Tournament",
    "backend_options", "check_agent_kinds", "concurrency_plan", "effective_concurrency", "run_tournament", "with_overrides",
]
