"""Run a tournament: execute the schedule with bounded concurrency, log every game as it ends, resume.

The plan is pure (:mod:`arena.tournament.schedule`); this module only executes it:

- :meth:`Tournament.prepare` (synchronous) checks the agents can run, opens the log folder, refuses a
  different config under the same id, checks every finished game sits where the schedule puts it,
  and works out which indices are still to play.
- :meth:`Tournament.play` runs up to ``concurrency`` games at once. Each finished game is persisted
  *synchronously* the moment :func:`arena.match.play_game` returns (record file, then its
  ``games.jsonl`` line, then the per-agent files), so no cancellation can come between a game
  ending and its being written. A cancelled game (Ctrl-C) raises out of ``play_game`` and is never
  written: the next run plays it again. The costly ``standings.json`` (Bradley–Terry fit and
  bootstrap) is recomputed in a worker thread, at most every ``standings_interval_s``, so the event
  loop, which times the bots, is never held up by it.
- :meth:`Tournament.finish` writes the final ``standings.json`` and returns a :class:`RunSummary`. Call
  it even after ``play`` was cancelled or failed; it is safe to call once.

Clock honesty: arena's own work between a bot's reply and the next read is a few file writes; the
heavy statistics never run on the event loop. The default concurrency is the number of cores, so
bots that think at the same time each have a core.
"""

from __future__ import annotations

import importlib.util
import os
import random
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import trio

from arena.errors import ConfigError
from arena.games import get_game, random_opening
from arena.match import AgentSpec, TimeControl, play_game
from arena.ratings import GameResult, result_from_row
from arena.tournament.config import TournamentConfig
from arena.tournament.logs import (
    LogError,
    SeedStats,
    TournamentLog,
    load_results,
    record_name,
    standings_object,
)
from arena.tournament.schedule import ScheduledGame, build_schedule, schedule_length

RESULT_TEXT = {"BLACK": "1-0", "WHITE": "0-1", "NONE": "1/2-1/2"}

# The modules behind the agent kinds that are not plain executables (they come with the bots work).
_KIND_MODULES = {"hyperparameters": "arena.agents.search_bot", "player": "arena.players.human"}


class Reporter(Protocol):
    """What the runner tells the terminal. All methods are called from the trio thread."""

    def started(self, *, config: TournamentConfig, total: int | None, already_done: int,
                concurrency: int, folder: Path) -> None: ...

    def game_started(self, game: ScheduledGame) -> None: ...

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None: ...

    def stopped(self) -> None: ...

    def close(self) -> None: ...


class SilentReporter:
    """A reporter that says nothing (library use and tests)."""

    def started(self, **_: Any) -> None:
        pass

    def game_started(self, game: ScheduledGame) -> None:
        pass

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        pass

    def stopped(self) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class RunOptions:
    """How to run (not part of the tournament's identity). ``concurrency`` None: the config's, else
    the number of cores. ``player_opts`` go to every player (e.g. ``kill_grace`` in tests)."""

    logs_root: Path = Path("tournament_logs")
    concurrency: int | None = None
    bootstrap_samples: int = 200
    standings_interval_s: float = 2.0
    player_opts: dict[str, Any] | None = None
    observer: Callable[[Any], None] | None = None


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
        }


def check_agent_kinds(config: TournamentConfig) -> None:
    """ConfigError when an agent's kind needs a part of arena this build does not have yet, or when a
    hyperparameters file is wrong (checked once here rather than failing every game)."""
    for number, agent in enumerate(config.agents):
        module = _KIND_MODULES.get(agent.type)
        if module is not None and importlib.util.find_spec(module) is None:
            raise ConfigError(
                f"agents[{number}].type: {agent.type!r} agents are not available in this build of "
                f"arena yet ({module} is missing); use an executable agent for {agent.id!r} for now"
            )
        if agent.type == "hyperparameters" and agent.path is not None:
            try:
                from arena.agents.hyperparameters import load_hyperparameters
            except ImportError:
                continue  # the search bot checks its own file when it starts
            try:
                load_hyperparameters(agent.path, config.game)
            except ConfigError as exc:
                raise ConfigError(f"agents[{number}].path: {exc}") from None


def effective_concurrency(config: TournamentConfig, requested: int | None) -> int:
    """``requested``, else the config's, else the number of cores; 1 when a human plays."""
    if any(a.type == "player" for a in config.agents):
        return 1
    value = requested or config.concurrency or os.cpu_count() or 1
    return max(1, value)


class Tournament:
    """One run of one tournament config (see the module docstring for the life cycle)."""

    def __init__(self, config: TournamentConfig, options: RunOptions | None = None,
                 reporter: Reporter | None = None) -> None:
        self.config = config
        self.options = options or RunOptions()
        self.reporter: Reporter = reporter or SilentReporter()
        self.folder = Path(self.options.logs_root) / config.id
        self.concurrency = effective_concurrency(config, self.options.concurrency)
        self.total = schedule_length(config.tournament_type, len(config.agents),
                                     games_per_pair=config.games_per_pair, matches=config.matches)
        self._log = TournamentLog(self.folder)
        self._results: list[GameResult] = []
        self._stats = SeedStats(config.agent_ids)
        self._pending: Iterator[ScheduledGame] = iter(())
        self._frontier: int | None = None  # index of the next game to hand out (None: no more)
        self._in_flight: set[int] = set()
        self._already_done = 0
        self._played_now = 0
        self._dirty = False
        self._finished = False
        self._prepared = False

    # -- preparation -----------------------------------------------------------------------------

    def prepare(self) -> None:
        """Open the logs and plan the games still to play. Raises ConfigError or LogError."""
        check_agent_kinds(self.config)
        self._game = get_game(self.config.game)
        rows = self._log.prepare(self.config)
        done = {row["index"]: row for row in rows}
        self._verify_against_schedule(done)
        self._log.begin(self.config)
        for result in load_results(rows):
            self._results.append(result)
            self._stats.add(result)
        self._already_done = len(rows)
        schedule = self._schedule()
        self._pending = (g for g in schedule if g.index not in done)
        self._advance_frontier()
        self._prepared = True

    def _schedule(self) -> Iterator[ScheduledGame]:
        c = self.config
        return build_schedule(c.tournament_type, c.agent_ids, games_per_pair=c.games_per_pair,
                              matches=c.matches, seed=c.seed)

    def _verify_against_schedule(self, done: dict[int, dict[str, Any]]) -> None:
        if not done:
            return
        last = max(done)
        seen = 0
        for game in self._schedule():
            if game.index > last:
                break
            row = done.get(game.index)
            if row is None:
                continue
            seen += 1
            if (row.get("black"), row.get("white")) != (game.black, game.white):
                raise ConfigError(
                    f"{self.folder}: game {game.index} in games.jsonl was {row.get('black')} against "
                    f"{row.get('white')}, but this config schedules {game.black} against {game.white}; "
                    "change 'id', pass --logs DIR, or remove the folder to start over")
        if seen != len(done):
            extra = sorted(i for i in done if self.total is not None and i >= self.total)
            raise ConfigError(
                f"{self.folder}: games.jsonl holds game {extra[0] if extra else last}, which this "
                "config's schedule does not have (gamesPerPair or matches shrank?); restore them, "
                "change 'id', or pass --logs DIR")

    def _advance_frontier(self) -> ScheduledGame | None:
        game = next(self._pending, None)
        self._next = game
        self._frontier = None if game is None else game.index
        return game

    def _take(self) -> ScheduledGame | None:
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
        """Play every missing game. Cancellation stops it: running games are dropped, not counted."""
        if not self._prepared:
            self.prepare()
        self.reporter.started(config=self.config, total=self.total, already_done=self._already_done,
                              concurrency=self.concurrency, folder=self.folder)
        async with trio.open_nursery() as outer:
            outer.start_soon(self._standings_loop)
            async with trio.open_nursery() as workers:
                for _ in range(self.concurrency):
                    workers.start_soon(self._worker)
            outer.cancel_scope.cancel()

    async def _worker(self) -> None:
        c = self.config
        time_control = TimeControl(
            time_limit_ms=c.time_limit_ms, time_margin_ms=c.time_margin_ms, startup_ms=c.startup_ms,
            move_time_limit_ms=c.move_time_limit_ms, increment_ms=c.increment_ms)
        while (game := self._take()) is not None:
            self.reporter.game_started(game)
            start = None
            if c.opening_plies:
                start = random_opening(self._game, c.opening_plies, random.Random(game.opening_seed))
            record = await play_game(
                self._game, self._spec(game.black), self._spec(game.white),
                time_control=time_control, max_moves=c.max_moves, start_state=start,
                opening_plies=c.opening_plies, seed=game.opening_seed,
                stderr_dir=self._log.stderr_dir, game_index=game.index,
                observer=self.options.observer, player_opts=self.options.player_opts)
            self._in_flight.discard(game.index)
            if record.get("termination") == "interrupted":
                continue  # e.g. a human quit: not a result; a later run plays it again
            # No await from here on: the game is on disk before anything can cancel us.
            self._persist(game, record)

    def _spec(self, agent_id: str) -> AgentSpec:
        agent = self.config.agent(agent_id)
        if agent.type == "executable":
            assert agent.command is not None
            return AgentSpec(agent.id, "executable", command=shlex.join(agent.command))
        return AgentSpec(agent.id, agent.type, path=agent.path)

    def _persist(self, game: ScheduledGame, record: dict[str, Any]) -> None:
        logs = record.get("stderr_logs")
        if isinstance(logs, dict):
            # Relative to the log folder, so a moved folder still makes sense.
            record["stderr_logs"] = {k: _relative(v, self.folder) for k, v in logs.items()}
        row = {
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
        }
        self._log.write_game(game.index, record, row)
        result = result_from_row(row)
        self._results.append(result)
        self._stats.add(result)
        self._played_now += 1
        stats = self._stats.snapshot(self._lowest_pending())
        self._log.write_agent_files(self.config, stats)
        self._dirty = True
        self.reporter.game_finished(row, self._already_done + self._played_now, stats)

    async def _standings_loop(self) -> None:
        while True:
            await trio.sleep(self.options.standings_interval_s)
            if self._dirty:
                self._dirty = False
                standings = await trio.to_thread.run_sync(self._compute_standings, list(self._results))
                self._log.write_standings(standings)

    def _compute_standings(self, results: list[GameResult]) -> dict[str, Any]:
        c = self.config
        return standings_object(c.id, c.game, c.agent_ids, results, seed=c.seed,
                                bootstrap_samples=self.options.bootstrap_samples)

    # -- finishing -------------------------------------------------------------------------------

    async def finish(self, *, interrupted: bool = False) -> RunSummary:
        """Write the final statistics and close the logs (shielded: runs even after a Ctrl-C)."""
        with trio.CancelScope(shield=True):
            standings = await trio.to_thread.run_sync(self._compute_standings, list(self._results))
        return self.finish_sync(interrupted=interrupted, standings=standings)

    def finish_sync(self, *, interrupted: bool = False, standings: dict[str, Any] | None = None) -> RunSummary:
        """:meth:`finish` without trio (when ``play`` never started or the loop is gone)."""
        if standings is None:
            standings = self._compute_standings(list(self._results))
        stats: dict[str, dict[str, Any]] = {}
        if self._prepared and not self._finished:
            # Cancelled games stay in _in_flight: they are still pending for the online Elo.
            stats = self._stats.snapshot(self._lowest_pending())
            self._log.write_agent_files(self.config, stats)
            self._log.write_standings(standings)
            self._log.close()
        self._finished = True
        finished = len(self._results)
        complete = self.total is not None and finished >= self.total
        return RunSummary(
            id=self.config.id, folder=self.folder, total=self.total, finished=finished,
            played_now=self._played_now, already_done=self._already_done, interrupted=interrupted,
            complete=complete, standings=standings, agent_stats=stats)


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
    "LogError", "Reporter", "RunOptions", "RunSummary", "SilentReporter", "Tournament",
    "check_agent_kinds", "effective_concurrency", "run_tournament",
]
