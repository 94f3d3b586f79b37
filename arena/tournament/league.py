"""A league: a tournament over a roster folder that keeps running, its field changing as it goes.

``arena league CONFIG`` plays the config's roster (``"agents": {"from": "bots/*/"}``,
:mod:`arena.tournament.roster`) game after game until it is stopped (Ctrl-C), or until the log
folder holds ``games`` games or every two agents (for N seats, every group) have met ``rounds`` times. It is the one run loop
of :mod:`arena.tournament.runner` (:class:`League` is a :class:`~arena.tournament.runner.Tournament`
whose schedule grows while it runs), so the log folder, the standings worker, Ctrl-C, resume and the
backends (local, Ray) are a tournament's. A bot that joins or changes reaches the backend before its
next game (:meth:`arena.backends.Backend.update_agents`: Ray ships the folder anew to its workers);
one that cannot start there is set aside with the reason.

The field. Before choosing each game (at most every ``rescan_s`` seconds) the league reads the
roster again: a new folder joins, a folder whose files or command changed plays on as a new version
(:func:`arena.tournament.versions.agent_version`), a folder that went away or broke leaves (a
broken one says why, once). Every ``games.jsonl`` row names the versions that played it
(``"versions": {"alice": "sha256:3f2a...", ...}``); the standings count only the games of the
current field's current versions (:class:`arena.records.field.Field` of ``tournamentType``
``league``: the one answer to which games count, for the runner, the standings worker and every
reader of the folder). An old version's games stay in the folder, out of the standings; a version
that comes back (the old files restored) counts them again. ``config.json`` holds the current field,
its ``versions`` and ``"resultsBy": "pairing"``, so ``arena standings``, ``arena check-logs`` and
``arena serve`` read a league folder as any other whose field changes.

The next game is chosen by :func:`arena.tournament.league_schedule.choose_game` from the counts of
the current versions' games (games in flight included) and their ratings (a Plackett-Luce fit,
refitted after every ``refit_games`` games or 5% more games, whichever is more, and whenever the
field changes).

Games of N seats. A config with ``players`` (a game of the general model: Kuhn poker with three
seats, Goofspiel with four...) plays tables of that many agents of the field, chosen the same way
(the group whose result is least certain, every agent within ``bound`` games of the others, the
seats rotating within each group); ``rounds`` then counts the games of each group of ``players``
agents. Its rows are N-seat rows (:mod:`arena.tournament.tables`) with ``versions``; each game's
chance draws are seeded by the league's seed and the game's index (``group`` is the index).

Indices. A game takes the lowest index not yet in ``games.jsonl`` nor in flight, so a game cancelled
by Ctrl-C or lost with ``kill -9`` leaves no hole once the league has run on: with ``games`` N the
folder ends holding exactly the games 0..N-1, each once. A resumed league does not replay a lost
game as it was: it chooses anew (the field may have changed meanwhile).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.backends import ClusterError
from arena.errors import ConfigError
from arena.fileio.files import atomic_write
from arena.games.base import opening_seed
from arena.records.field import LEAGUE, PAIRING, Field, row_seats
from arena.records.logstore import CONFIG_FILE, LogError, dumps
from arena.tournament.agents import AgentConfig, check_programs
from arena.tournament.config import TournamentConfig, config_agents, parse_config, read_config
from arena.tournament.league_schedule import FieldState, Rating, choose_game, pair_key
from arena.tournament.logs import load_results, online_tally
from arena.tournament.plan import agent_spec
from arena.tournament.resume import missing_records
from arena.tournament.roster import roster_entries
from arena.tournament.runner import Reporter, RunOptions, Scheduled, Tournament
from arena.tournament.schedule import ScheduledGame, ScheduledTable
from arena.tournament.versions import DigestCache, agent_version


@dataclass(frozen=True)
class LeagueSettings:
    """How a league runs: stop at ``games`` games in the folder or when every pair (for N seats:
    every group of N agents) has met ``rounds`` times (both None: until stopped); keep every agent within ``bound`` games of the
    others; read the roster again at most every ``rescan_s`` seconds (0: before every game)."""

    games: int | None = None
    rounds: int | None = None
    bound: int = 2
    rescan_s: float = 2.0
    refit_games: int = 8


@dataclass(frozen=True)
class LeagueConfig:
    """A league's config: the tournament settings (its field when it was read), the roster object
    and the folder the roster resolves against, and the lines of the folders set aside."""

    config: TournamentConfig
    roster: dict[str, Any]
    base_dir: Path
    set_aside: tuple[str, ...] = ()


def load_league(path: str | Path) -> LeagueConfig:
    """Read the league config at ``path``: a tournament config whose ``agents`` is a roster, for a
    two-player game or a game of N seats (``players``; ``tournamentType``, ``gamesPerPair``,
    ``gamesPerGroup`` and ``matches`` are not used). Folders
    that cannot play are set aside (their lines in ``set_aside``), not an error, as the league
    would set them aside later. ConfigError (one line) otherwise."""
    obj, base_dir = read_config(path)
    if not isinstance(obj, dict) or not isinstance(obj.get("agents"), dict):
        raise ConfigError('agents: a league plays a roster folder: give "agents": {"from": "bots/*/"}')
    view = config_agents(obj, base_dir)
    broken = [entry for entry in view.entries if entry.problem]
    roster = dict(obj["agents"])
    names = [Path(entry.where.split(": ", 1)[1]).name for entry in broken]
    parsed = parse_config({**obj, "agents": {**roster, "exclude": [*roster.get("exclude", ()), *names]}},
                          base_dir=base_dir, source=str(path))
    if parsed.sprt is not None:
        raise ConfigError("sprt: a league has no SPRT; run the config with 'arena run'")
    return LeagueConfig(dataclasses.replace(parsed, tournament_type=LEAGUE), roster, base_dir,
                        tuple(entry.problem or "" for entry in broken))


@dataclass(frozen=True)
class Member:
    """An agent of the field and its version."""

    agent: AgentConfig
    version: str


#: An agent and one of its versions.
Played = tuple[str, str]


class _Counts:
    """Games of each (agent, version), of each seating of versions (in seat order), as rows arrive."""

    def __init__(self) -> None:
        self.games: Counter[Played] = Counter()
        self.seatings: Counter[tuple[Played, ...]] = Counter()

    def add(self, seating: tuple[Played, ...]) -> None:
        for played in seating:
            self.games[played] += 1
        self.seatings[seating] += 1


def _seating(row: Mapping[str, Any]) -> tuple[Played, ...]:
    """A league row's (agent, version) in seat order, of either shape."""
    seats = row_seats(row) or ()
    return tuple((agent, row["versions"][agent]) for agent in seats)


class League(Tournament):
    """A league run (module docstring): prepare, play and finish as a :class:`Tournament`.

    ``notes`` receives one line for each change of the field (joins, new versions, leaves, folders
    set aside), also kept in :attr:`changes`; ``clock`` times the roster rereads."""

    def __init__(self, league: LeagueConfig, options: RunOptions | None = None, reporter: Reporter | None = None,
                 settings: LeagueSettings | None = None, notes: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        # The runner sizes a fixed schedule from its type; a league's has no size (total below).
        super().__init__(dataclasses.replace(league.config, tournament_type="roundRobin"), options, reporter)
        self.config = dataclasses.replace(self.config, tournament_type=LEAGUE, results_by=PAIRING)
        self.settings = settings or LeagueSettings()
        self.total = self.settings.games
        self.changes: list[str] = []
        self._notes = notes
        self._roster, self._base_dir = league.roster, league.base_dir
        self._clock = clock
        self._scanned_at = -math.inf
        self._digests: DigestCache = {}
        self._said: set[str] = set()
        self._refused: dict[tuple[str, str], str] = {}  # (agent, version) the backend cannot run: why
        #: The agents now and their versions; :attr:`field` says which games count.
        self.members: dict[str, Member] = {}
        self.field: Field = Field(LEAGUE, (), {}, seed=self.config.seed, players=self.config.players)
        self._rows: dict[int, dict[str, Any]] = {}
        self._counts = _Counts()
        self._flying: dict[int, dict[str, str]] = {}  # index -> versions of the game in flight
        self._low = 0  # every index below it is in games.jsonl
        self._ratings: dict[str, Rating] = {}
        self._rated_games = -1  # counted games at the last fit (-1: refit)
        self._last_row: dict[str, Any] = {}

    # -- the field -------------------------------------------------------------------------------

    def _say(self, line: str, once: bool = False) -> None:
        if once:
            if line in self._said:
                return
            self._said.add(line)
        self.changes.append(line)
        if self._notes is not None:
            self._notes(line)

    def versions(self) -> dict[str, str]:
        """The current field: agent id to version."""
        return {aid: member.version for aid, member in self.members.items()}

    def rescan(self, force: bool = False) -> bool:
        """Read the roster again and update the field; True when it changed (module docstring).
        ``force``: install the field (tally, ``config.json``, the worker's) even when unchanged."""
        self._scanned_at = self._clock()
        try:
            entries = roster_entries(self._roster, self._base_dir, self.config.game, self.config.read_only)
        except ConfigError as exc:
            self._say(f"roster: {exc}; the field stays as it is", once=True)
            return False
        field: dict[str, Member] = {}
        for entry in entries:
            if entry.agent is None:
                self._say(f"set aside: {entry.problem}", once=True)
                continue
            agent = entry.agent
            version = agent_version(agent, self._base_dir, self._digests)
            known = self.members.get(agent.id)
            if known is None or known.version != version:
                try:
                    check_programs((agent,), self.config.inherit_env)
                except ConfigError as exc:
                    self._say(f"set aside: {exc}", once=True)
                    continue
            field[agent.id] = Member(agent, version)
        self._ship([m for aid, m in field.items() if aid not in self.members or self.members[aid].version != m.version],
                   field)
        changed = {a: m.version for a, m in field.items()} != self.versions()
        if changed or force:
            self._set_field(field)
        else:
            self.members = dict(sorted(field.items()))
        return changed

    def _ship(self, fresh: list[Member], field: dict[str, Member]) -> None:
        """Have the backend (once open) run ``fresh``'s current files in later games: a Ray
        backend ships them to its workers. A member that cannot start where games run is set
        aside (taken out of ``field``), and that version is not offered again; a cluster that
        failed stops the run."""
        for member in fresh:
            why = self._refused.get((member.agent.id, member.version))
            if why is not None:
                self._say(f"set aside: {why}", once=True)
                del field[member.agent.id]
        fresh = [m for m in fresh if m.agent.id in field]
        if not fresh or self.backend is None:
            return
        try:
            problems = self.backend.update_agents([agent_spec(m.agent) for m in fresh])
        except ClusterError as exc:
            self._stop(exc)
            return
        except ConfigError as exc:  # the shipped folder grew too large: the newcomers stay out
            problems = {m.agent.id: str(exc) for m in fresh}
        for member in fresh:
            if member.agent.id in problems:
                why = self._refused[(member.agent.id, member.version)] = \
                    f"agent {member.agent.id!r} {problems[member.agent.id]}"
                self._say(f"set aside: {why}", once=True)
                del field[member.agent.id]

    def _set_field(self, field: dict[str, Member]) -> None:
        old = self.versions()
        for aid in sorted(set(old) | set(field)):
            if aid not in old:
                self._say(f"{aid} joins (version {field[aid].version})")
            elif aid not in field:
                self._say(f"{aid} leaves")
            elif old[aid] != field[aid].version:
                self._say(f"{aid}: new version {field[aid].version} (was {old[aid]})")
        self.members = dict(sorted(field.items()))
        versions = self.versions()
        self.config = dataclasses.replace(self.config, agents=tuple(m.agent for m in self.members.values()),
                                          versions=tuple(versions.items()))
        self.field = Field(LEAGUE, tuple(versions), versions, seed=self.config.seed, players=self.config.players)
        self._rated_games = -1
        # The runner's online tally (what the terminal shows), of the games that count now.
        self._stats = online_tally(list(versions), self.config.players)
        for result in load_results(self.field.counting(self._rows.values()), self.config.players):
            self._stats.add(result)
        if self._prepared:
            self._write_config()
        if self._worker is not None:
            self._worker.field_changed([[a.id, a.type, a.raw_path] for a in self.config.agents], self.field.to_json())

    def _write_config(self) -> None:
        atomic_write(self.folder / CONFIG_FILE, dumps(self.config.to_json()), root=self._log.root)

    # -- preparation -----------------------------------------------------------------------------

    def _prepare_locked(self) -> None:
        rows = self._log.prepare(self.config)
        self._check_rows(rows)
        previous = (self._log.old_config or {}).get("versions")
        self._log.begin(self.config)
        self._live.clear()  # a killed run's games in progress are not in progress
        for row in sorted(rows, key=lambda r: r["index"]):
            self._add_row(row)
            self._count_node(row.get("node"))
        self._already_done = len(rows)
        if isinstance(previous, dict):  # the field of the last run: what changed since is said
            self.members = {aid: Member(AgentConfig(aid, "executable", None), str(v)) for aid, v in previous.items()}
        self.rescan(force=True)
        self._prepared = True
        self._write_config()
        if len(self.members) < self.field.seats:
            raise ConfigError(f"agents: a league of {self.config.game} needs at least {self.field.seats} agents "
                              f"that can play, got {len(self.members)}")
        self._next = self._choose()
        self._frontier = self._free_index()
        left = None if self.total is None else self.total - len(rows)
        from arena.tournament.runner import concurrency_plan

        plan = concurrency_plan(self.config, self.options.concurrency, games_left=left)
        self.concurrency, self.concurrency_note = plan.value, plan.note

    def _check_rows(self, rows: list[dict[str, Any]]) -> None:
        """Every row a league's (it names its versions) and its record file there."""
        for row in rows:
            played, seats = row.get("versions"), row_seats(row)
            if not isinstance(played, dict) or seats is None or len(seats) != self.field.seats \
                    or set(played) != set(seats):
                raise LogError(f"{self.folder / 'games.jsonl'}: game {row.get('index')} names no versions of its "
                               "players: that folder is not a league's; pass --logs DIR or change 'id'")
        try:
            missing = missing_records(self.folder, self._log.root, sorted(r["index"] for r in rows)) if rows else []
        except OSError as exc:
            raise LogError(f"{self.folder / 'games'}: cannot read ({exc.strerror or exc})") from None
        if missing:
            raise LogError(f"{self.folder / 'games.jsonl'}: game {missing[0]} has no record file; that line is "
                           "not a finished game: delete it to have the league go on without it")

    def _add_row(self, row: dict[str, Any]) -> None:
        self._rows[row["index"]] = row
        self._counts.add(_seating(row))
        while self._low in self._rows:
            self._low += 1

    # -- choosing --------------------------------------------------------------------------------

    def _free_index(self) -> int:
        index = self._low
        while index in self._rows or index in self._flying:
            index += 1
        return index

    def _take(self) -> Scheduled | None:
        game = self._next if isinstance(self._next, ScheduledGame | ScheduledTable) else self._choose()
        self._next = None
        if game is not None:
            self._in_flight.add(game.index)
        self._frontier = self._free_index()
        return game

    def _choose(self) -> Scheduled | None:
        """The next game, registered as in flight (None: the league stops)."""
        # A game that ended without a result (a human quit) is no longer in flight.
        for index in [i for i in self._flying if i not in self._in_flight and i != getattr(self._next, "index", -1)]:
            del self._flying[index]
        if self._clock() - self._scanned_at >= self.settings.rescan_s:
            self.rescan()
            if self._failure is not None:  # the backend failed while shipping the new files
                return None
        if self.total is not None and len(self._rows) + len(self._flying) >= self.total:
            return None
        pick = choose_game(self.state(), self.settings.bound, self.settings.rounds, seats=self.field.seats)
        if pick is None:
            return None
        index = self._free_index()
        self._flying[index] = {agent: self.members[agent].version for agent in pick}  # in seat order
        if self.seated:
            return ScheduledTable(index, pick, index, opening_seed(self.config.seed, index))
        black, white = pick
        return ScheduledGame(index, black, white, index, self._opening(index).seed or 0)

    def state(self) -> FieldState:
        """What the chooser sees now: the games that count (the current field's versions against each
        other), games in flight included."""
        versions = self.versions()
        current = set(versions.items())
        seatings: Counter[tuple[str, ...]] = Counter()
        flying = Counter(tuple(played.items()) for played in self._flying.values())  # seat order: see _choose
        for seating, n in (self._counts.seatings + flying).items():
            if all(played in current for played in seating):  # the games that count: the current field's
                seatings[tuple(agent for agent, _ in seating)] += n
        games = dict.fromkeys(versions, 0)
        met: Counter[tuple[str, str]] = Counter()
        groups: Counter[tuple[str, ...]] = Counter()
        for seats, n in seatings.items():
            for agent in seats:
                games[agent] += n
            for a, b in itertools.combinations(seats, 2):
                met[pair_key(a, b)] += n
            groups[tuple(sorted(seats))] += n
        return FieldState(list(versions), games, met, seatings, self._current_ratings(),
                          None if self.field.seats == 2 else groups)

    def _current_ratings(self) -> dict[str, Rating]:
        rows = self.field.counting(self._rows.values())
        due = max(self.settings.refit_games, len(rows) // 20)
        if self._rated_games >= 0 and len(rows) - self._rated_games < due:
            return self._ratings
        self._rated_games = len(rows)
        self._ratings = {}
        played = sorted({aid for row in rows for aid in row_seats(row) or ()})
        if len(played) < 2:
            return self._ratings
        try:
            intervals = _intervals(load_results(rows, self.config.players), played, self.config.players)
        except (ValueError, ArithmeticError):
            return self._ratings
        for aid, (low, high) in intervals.items():
            self._ratings[aid] = Rating((low + high) / 2, max(1e-9, (high - low) / (2 * 1.959964)))
        return self._ratings

    # -- playing ---------------------------------------------------------------------------------

    def _played_versions(self, game: Scheduled, row: dict[str, Any]) -> dict[str, str | None]:
        # The versions it was chosen for: the field may have changed since it began. The runner
        # writes ``row`` next (with these versions): _persist counts it then.
        self._last_row = row
        return dict(self._flying[game.index])

    def _persist(self, game: Any, record: dict[str, Any]) -> None:
        # The runner builds the row (_pair_row: the versions of the game in flight) and writes it;
        # once it is on disk, it is counted here.
        super()._persist(game, record)
        del self._flying[game.index]
        self._add_row(self._last_row)

    def game_counts(self) -> dict[str, dict[str, Any]]:
        """Per agent of the current field: its ``version``, its ``games`` that count (its current
        version against the current field's, as in the standings; games in flight included) and
        its games in the folder under any version (``all_versions``)."""
        everyone: Counter[str] = Counter()
        for (aid, _), n in self._counts.games.items():
            everyone[aid] += n
        counted = self.state().games
        return {aid: {"version": m.version, "games": counted[aid], "all_versions": everyone[aid]}
                for aid, m in self.members.items()}


def _intervals(results: Sequence[Any], agents: Sequence[str], players: int | None) -> dict[str, tuple[float, float]]:
    """95% normal intervals (Elo) of ``agents``: Bradley-Terry for a two-player game, Plackett-Luce
    for N seats (the one fit of :mod:`arena.stats`)."""
    if players is None:
        from arena.stats.ratings import normal_intervals

        return normal_intervals(results, agents)
    from arena.stats.plackett_luce import PlackettLuce

    return PlackettLuce(results, agents).normal_intervals()


__all__ = ["LEAGUE", "League", "LeagueConfig", "LeagueSettings", "Member", "load_league"]
