"""The Abalone learning program's evolutionary bootstrap (``arena train evolve``): breed players
through tournaments.

The Abalone learning program's design: "We first create 16 random players [...] run a tournament
between them all, and choose the best four players. We breed the four players into new 16 players (creating all possible 4*4
couples, and randomly choosing values from their theta vectors to create a new theta vector). We
repeat the process 3 times and eventually choose the winner of the last tournament."

Here:

- round 1's population is ``--population`` players (default 16) with random weights (each uniform
  in ``-spread..spread``, :func:`arena.train.model.random_weights`);
- each round is an ordinary round-robin tournament of hyperparameters agents (alpha-beta to
  ``--depth``, ``--games-per-pair`` games per couple, colours alternating, each colour-swapped pair
  from ``--opening-plies`` random moves): its config is ``round-R.json`` in the run folder, its logs
  ``tournament_logs/round-R/`` there (records, standings, resumable, ``--concurrency`` games at
  once, through :class:`arena.tournament.runner.Tournament`);
- fitness is the points scored (a draw half a point), ties broken by the tournament's Elo; the best
  ``--keep`` (default 4) are the parents, and the next round's players are their ``keep x keep``
  ordered couples (a player crossed with itself is its copy): each weight is taken from one parent
  at random, then with probability ``--mutation`` (default 0) moved by Gaussian noise of standard
  deviation ``--mutation-sigma`` times the spread. Rounds after the first thus have ``keep**2``
  players (16 for the seed's 4);
- after ``--rounds`` rounds (default 3) the last tournament's best player is the winner, written as
  ``winner.json``; the seed's own test follows: a gauntlet tournament (``tournament_logs/final/``)
  of the winner against each ancestor (the parents chosen in every earlier round) over
  ``--final-games`` games (default 20), shown as a table and kept in ``final.json``.

With ``--td-games N`` every new player first learns by N TD(lambda) self-play games
(:mod:`arena.train.td` with its defaults) before its tournament: the seed's players "train against
each other" first; here each trains against itself (default 0: selection and breeding only).

Where the games run. Each round's tournament and the final gauntlet go through the backend the
run is given (:mod:`arena.backends`: this process by default, or one Ray task per game with
``--backend ray``). The backend is how to run, not what is bred: it is not in ``evolve.json``, so a
run started on Ray resumes locally and the other way round. With Ray, every tournament connects
anew (an embedded instance is started for each one and shut down after it) and ships the run
folder's ``players/`` to the workers (only that folder: it is small, and the run folder may lie
anywhere; paths are found again on the workers, :mod:`arena.backends.ray_files`), so it works on a
cluster without shared files. Ray-played games carry ``node`` in their records and rows as in any
Ray tournament. The ``--td-games`` training is not a tournament: it always runs in this process.

Resuming. Every player's file is written before its tournament, from a generator seeded by
``--seed`` and the round, and a round's ranking is kept in ``round-R.result.json`` once its
tournament is complete: running the same command again skips the finished rounds and resumes the
unfinished tournament where its log stops.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.backends import Backend, BackendOptions
from arena.errors import ConfigError, Interrupted
from arena.fileio import fields
from arena.fileio.files import SHARED_FILE_MODE, SHARED_FOLDER_MODE, make_folders
from arena.fileio.jsonfiles import read_json_file
from arena.limits import MAX_RECORDS_BYTES, MAX_SEED, MAX_TIME_MS
from arena.train.model import LinearGame, hyperparameters_object, linear_game, option_name, random_weights, write_json

if TYPE_CHECKING:
    from arena.tournament.config import TournamentConfig
    from arena.tournament.runner import Reporter, RunOptions, RunSummary

SETTINGS = "evolve.json"


@dataclass(frozen=True)
class EvolveSettings:
    """What an evolve run breeds with; the run folder keeps them and a resumed run must match."""

    game: str
    population: int = 16
    keep: int = 4
    rounds: int = 3
    games_per_pair: int = 10
    mutation: float = 0.0
    mutation_sigma: float = 0.2
    spread: float | None = None
    depth: int = 2
    opening_plies: int = 2
    final_games: int = 20
    time_limit_ms: int = 60_000
    seed: int = 0
    td_games: int = 0

    def check(self, *, as_options: bool = False) -> None:
        """ConfigError (one line) for a value out of range, read by :mod:`arena.fileio.fields` with
        the bounds of :data:`BOUNDS`: ``evolve settings: <key>: <problem>`` naming the key as
        ``evolve.json`` does, or (``as_options``, for the command line) ``<--option>: <problem>``."""
        values = asdict(self)
        key = option_name if as_options else str
        obj = {key(name): value for name, value in values.items()}
        with fields.prefixed("" if as_options else "evolve settings"):
            for name, (low, high) in BOUNDS.items():
                if isinstance(low, int) and isinstance(high, int):  # an integer setting
                    fields.integer(obj, key(name), low=low, high=high)
                else:
                    fields.number(obj, key(name), low=low, high=high)
            if self.keep > self.population:
                fields.fail("", key("keep"), f"at most the population ({self.population}) allowed, got {self.keep}")
            if self.spread is not None and self.spread <= 0:
                fields.fail("", key("spread"), f"must be above 0, got {self.spread:g}")


#: The bounds of :class:`EvolveSettings` (inclusive; ``keep`` is also at most ``population``, and
#: ``spread``, when given, above 0). Times and seeds have those of tournament configs (arena.limits),
#: since each round is a tournament config.
BOUNDS: dict[str, tuple[float, float | None]] = {
    "population": (2, 256), "keep": (1, 16), "rounds": (1, 100), "games_per_pair": (1, 10_000),
    "mutation": (0.0, 1.0), "mutation_sigma": (0.0, None), "spread": (0.0, 100_000.0),
    "depth": (1, 64), "opening_plies": (0, 20), "final_games": (0, 10_000), "time_limit_ms": (1, MAX_TIME_MS),
    "seed": (0, MAX_SEED), "td_games": (0, 10**6),
}  # fmt: skip


def crossover(a: dict[str, float], b: dict[str, float], rng: random.Random) -> dict[str, float]:
    """A child of ``a`` and ``b``: every weight taken from one of them at random (same names)."""
    return {name: (a[name] if rng.random() < 0.5 else b[name]) for name in a}


def mutate(weights: dict[str, float], rng: random.Random, probability: float, sigma: float) -> dict[str, float]:
    """``weights`` with each one, with ``probability``, moved by Gaussian noise of deviation ``sigma``."""
    if probability <= 0.0 or sigma <= 0.0:
        return dict(weights)
    return {name: (value + rng.gauss(0.0, sigma) if rng.random() < probability else value)
            for name, value in weights.items()}


def breed(parents: list[dict[str, float]], rng: random.Random, mutation: float, sigma: float) -> list[dict[str, float]]:
    """Every ordered couple of ``parents`` (``len(parents)**2`` children, a parent with itself
    giving its copy), crossed over then mutated."""
    return [mutate(crossover(a, b, rng), rng, mutation, sigma) for a, b in itertools.product(parents, parents)]


@dataclass
class EvolveSummary:
    """The winner's id and file, the final table's rows, the folder."""

    winner: str
    winner_file: Path
    table: list[dict[str, Any]]
    folder: Path


class _CountReporter:
    """The tournament runner's reporter: one line every ``every`` games (not one per game)."""

    def __init__(self, say: Callable[[str], None], every: int) -> None:
        self.say, self.every = say, every
        self.total: int | None = None
        self.label = ""

    def started(self, *, config: Any, total: int | None, already_done: int, concurrency: int, folder: Path) -> None:
        self.total, self.label = total, config.id
        self.say(f"tournament {config.id}: {len(config.agents)} players, {total} games"
                 + (f" ({already_done} already played)" if already_done else "")
                 + f", {concurrency} at a time; logs in {folder}")

    def game_started(self, game: Any) -> None:
        pass

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        if done % self.every == 0 or done == self.total:
            self.say(f"tournament {self.label}: {done}/{self.total} games")

    def stopped(self) -> None:
        self.say("interrupted: cancelling the running games")

    def close(self) -> None:
        pass


class Evolution:
    """One evolve run in ``folder`` (see the module docstring); ``say`` gets the progress lines.

    ``backend``: where the tournaments' games run (None: this process). Options make a fresh backend
    for each tournament (with Ray: the ``players/`` folder shipped unless the options name a
    working folder or shared files); a backend object (not opened) is opened and closed by each
    tournament in turn. Never part of the run's identity (``evolve.json``)."""

    def __init__(self, settings: EvolveSettings, folder: Path, *, concurrency: int | None = None,
                 say: Callable[[str], None] | None = None, report_every: int = 50,
                 backend: BackendOptions | Backend | None = None) -> None:
        settings.check()
        self.settings = settings
        self.game: LinearGame = linear_game(settings.game)
        self.folder = folder
        self.concurrency = concurrency
        self.backend = backend
        self.say = say or (lambda _line: None)
        self.report_every = max(1, report_every)
        spread = settings.spread
        if spread is None:
            spread = float(max((abs(v) for v in self.game.default_weights.values()), default=100)) or 100.0
        self.spread = spread
        self._scales: tuple[list[float], list[float]] | None = None

    # --- files ---------------------------------------------------------------------------------

    def _check_folder(self) -> None:
        try:
            # The players are read by the bots that play them (users of their own): readable by all;
            # the rest of the run folder stays its owner's (FILE_MODE, tournaments' 0700 folders).
            make_folders(self.folder, SHARED_FOLDER_MODE)
            make_folders(self.folder / "players", SHARED_FOLDER_MODE)
        except OSError as error:
            raise ConfigError(f"--out {self.folder}: cannot create the folder ({error.strerror})") from None
        path = self.folder / SETTINGS
        wanted = asdict(self.settings)
        if path.exists() or path.is_symlink():
            saved = self._read(path)
            if not isinstance(saved, dict):
                raise ConfigError(f"{path}: not the settings of an evolve run")
            defaults = asdict(EvolveSettings(game=self.settings.game))
            for key, value in wanted.items():
                if saved.get(key, defaults[key]) != value:  # a key added later: its default then
                    raise ConfigError(f"{self.folder}: bred with {option_name(key)} {saved.get(key)!r}, this run "
                                      f"asks {value!r}: "
                                      "use the same options to resume, or another --out folder")
        else:
            write_json(path, wanted, root=self.folder)

    def _player_file(self, player_id: str, weights: dict[str, float], description: str) -> Path:
        path = self.folder / "players" / f"{player_id}.json"
        write_json(path, hyperparameters_object(weights, max_depth=self.settings.depth, description=description),
                   root=self.folder, mode=SHARED_FILE_MODE)
        return path

    def _read(self, path: Path) -> Any:
        """A JSON file of the run folder (bounded, strict, no link followed below ``--out``);
        ConfigError (one line) when it cannot be read."""
        try:
            return read_json_file(path, MAX_RECORDS_BYTES, root=self.folder)
        except OSError as error:
            raise ConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
        except ValueError as error:
            raise ConfigError(f"{path}: cannot be read ({error})") from None

    def _weights_of(self, player_id: str) -> dict[str, float]:
        path = self.folder / "players" / f"{player_id}.json"
        data = self._read(path)
        try:
            return {name: float(value) for name, value in data["evaluation"].items()}
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ConfigError(f"{path}: not a player of this run ({error.__class__.__name__}: {error})") from None

    # --- rounds --------------------------------------------------------------------------------

    def population(self, round_number: int, parents: list[str]) -> list[str]:
        """Write round ``round_number``'s players (random for round 1, else bred from ``parents``)
        and return their ids. Deterministic: the generator is seeded by ``--seed`` and the round."""
        rng = random.Random(self.settings.seed * 1_000_003 + round_number)
        if round_number == 1:
            people = [random_weights(self.game, rng, self.spread) for _ in range(self.settings.population)]
            origins = ["random weights"] * len(people)
        else:
            weights = [self._weights_of(p) for p in parents]
            people = breed(weights, rng, self.settings.mutation, self.settings.mutation_sigma * self.spread)
            origins = [f"child of {a} and {b}" for a, b in itertools.product(parents, parents)]
        if self.settings.td_games:
            people = [self._td_trained(weights_, rng) for weights_ in people]
            origins = [f"{origin}, then {self.settings.td_games} TD(lambda) self-play games" for origin in origins]
        ids = [f"r{round_number}-p{index + 1:02d}" for index in range(len(people))]
        for player_id, weights_, origin in zip(ids, people, origins, strict=True):
            self._player_file(player_id, weights_, f"evolve round {round_number}: {origin}")
        return ids

    def _td_trained(self, weights: dict[str, float], rng: random.Random) -> dict[str, float]:
        """``weights`` after ``--td-games`` TD(lambda) self-play games (:mod:`arena.train.td`'s
        defaults): the seed's players "train against each other" before their tournament."""
        from arena.train.td import TdSettings, TdState, feature_statistics, play_and_learn, standardized_weights, theta

        td = TdSettings(game=self.game.name, average=0)
        if self._scales is None:
            self._scales = feature_statistics(self.game, random.Random(self.settings.seed))
        means, scales = self._scales
        w = standardized_weights(self.game, weights, scales, td.scale)
        state = TdState(w, list(scales), dict(weights), mean=list(means))
        for _ in range(self.settings.td_games):
            play_and_learn(self.game, state, td, rng)
            state.games_done += 1
        return theta(self.game, state, td, averaged=False)

    def _tournament(self, name: str, ids: list[str], kind: str, games_per_pair: int) -> dict[str, Any]:
        """Write ``<name>.json`` and play it (or its remaining games); the standings object."""
        from arena.process.signals import run_trio_interruptibly
        from arena.tournament.config import load_config
        from arena.tournament.runner import RunOptions

        config_path = self.folder / f"{name}.json"
        write_json(config_path, {
            "id": name, "game": self.game.name, "tournamentType": kind,
            "agents": [{"type": "hyperparameters", "id": i, "path": f"players/{i}.json"} for i in ids],
            "gamesPerPair": games_per_pair, "openingPlies": self.settings.opening_plies,
            "timeLimit": self.settings.time_limit_ms, "seed": self.settings.seed,
        }, root=self.folder)
        config = load_config(config_path)
        options = RunOptions(logs_root=self.folder / "tournament_logs", concurrency=self.concurrency,
                             backend=self.tournament_backend())
        reporter = _CountReporter(self.say, self.report_every)
        summary, interrupted = run_trio_interruptibly(self._play, config, options, reporter)
        if interrupted or summary is None or not summary.complete:
            raise Interrupted(f"interrupted during tournament {name} (finished games are kept); run the same "
                              "command again to resume")
        nodes = summary.standings.get("nodes")
        if nodes:
            self.say(f"tournament {name}: games per node: " + ", ".join(
                f"{n['ip']} {n['node'][:8]} ({n['hostname']}) {n['games']}" for n in nodes))
        return summary.standings

    async def _play(self, config: TournamentConfig, options: RunOptions, reporter: Reporter) -> RunSummary:
        """:func:`arena.tournament.runner.run_tournament`, saying where the games run once the
        backend is open (nothing for the local one)."""
        from arena.tournament.runner import Tournament

        tournament = Tournament(config, options, reporter)
        tournament.prepare()  # opens the backend when games are left: a ClusterError stops here
        described = tournament.backend.describe() if tournament.backend is not None else None
        if described:
            self.say(f"tournament {config.id}: {described}")
        try:
            await tournament.play()
        finally:
            summary = await tournament.finish()
        return summary

    def tournament_backend(self) -> BackendOptions | Backend | None:
        """What each tournament is given as its backend: ``backend`` as given, except that Ray
        options that name no working folder (and no shared files) ship ``players/`` (absolute):
        the only files the games need, wherever the run folder is."""
        given = self.backend
        if isinstance(given, BackendOptions) and given.kind == "ray" and not given.shared_files \
                and given.working_dir is None:
            return dataclasses.replace(given, working_dir=(self.folder / "players").resolve())
        return given

    def run_round(self, round_number: int, parents: list[str]) -> list[str]:
        """Play round ``round_number`` (unless its result is saved); its ranking, best first."""
        result_path = self.folder / f"round-{round_number}.result.json"
        if result_path.exists() or result_path.is_symlink():
            saved = self._read(result_path)
            ranking = saved.get("ranking") if isinstance(saved, dict) else None
            if not isinstance(ranking, list) or not all(isinstance(i, str) for i in ranking):
                raise ConfigError(f"{result_path}: not a round result of this run (no ranking)")
            self.say(f"round {round_number}: already played; best {', '.join(ranking[:self.settings.keep])}")
            return list(ranking)
        ids = self.population(round_number, parents)
        standings = self._tournament(f"round-{round_number}", ids, "roundRobin", self.settings.games_per_pair)
        rows = sorted(standings["standings"], key=lambda r: (-r["points"], -r["elo"], r["id"]))
        ranking = [row["id"] for row in rows]
        write_json(result_path, {"round": round_number, "ranking": ranking,
                                 "points": {row["id"]: row["points"] for row in rows}}, root=self.folder)
        best = ", ".join(f"{row['id']} {row['points']:g}" for row in rows[:self.settings.keep])
        self.say(f"round {round_number}: best {best} (points of {rows[0]['games']} games each)")
        if len({(row["points"], row["elo"]) for row in rows}) == 1:
            # Measured on Abalone at depth 1: untrained players drew every game by the move cap.
            self.say(f"round {round_number}: warning: every player scored the same, so the parents are simply "
                     "the first by id; more --games-per-pair, a deeper --depth or --td-games can separate them")
        return ranking

    def run(self) -> EvolveSummary:
        """Every round, then the winner against its ancestors. Raises ConfigError, Interrupted,
        :class:`arena.backends.ClusterError` (the Ray cluster cannot be used: Ray missing or a
        ``HOST:PORT`` not answering is found before anything is written or trained)."""
        if isinstance(self.backend, BackendOptions) and self.backend.kind == "ray":
            from arena.backends.ray_backend import preflight

            preflight(self.backend)
        self._check_folder()
        parents: list[str] = []
        ancestors: list[str] = []
        ranking: list[str] = []
        for round_number in range(1, self.settings.rounds + 1):
            ranking = self.run_round(round_number, parents)
            parents = ranking[:self.settings.keep]
            if round_number < self.settings.rounds:
                ancestors.extend(parents)
        winner = ranking[0]
        winner_file = self.folder / "winner.json"
        data = self._read(self.folder / "players" / f"{winner}.json")
        if not isinstance(data, dict):
            raise ConfigError(f"{self.folder / 'players' / f'{winner}.json'}: not a player of this run")
        data["description"] = f"winner of arena train evolve ({winner}, {self.settings.rounds} rounds)"
        write_json(winner_file, data, root=self.folder)
        table: list[dict[str, Any]] = []
        if ancestors and self.settings.final_games:
            standings = self._tournament("final", [winner, *ancestors], "gauntlet", self.settings.final_games)
            row = standings.get("crosstable", {}).get(winner, {})
            for ancestor in ancestors:
                cell = row.get(ancestor, {})
                table.append({"ancestor": ancestor, "games": cell.get("games", 0), "wins": cell.get("wins", 0),
                              "draws": cell.get("draws", 0), "losses": cell.get("losses", 0),
                              "points": cell.get("points", 0.0)})
        write_json(self.folder / "final.json", {"winner": winner, "versus_ancestors": table}, root=self.folder)
        return EvolveSummary(winner, winner_file, table, self.folder)


def table_lines(summary: EvolveSummary) -> list[str]:
    """The winner-against-ancestors table as text lines (the seed's "wins out of 20" table)."""
    lines = [f"winner {summary.winner} against its ancestors (winner's wins : ancestor's wins, draws)",
             f"{'ancestor':<10} {'games':>5} {'wins':>5} {'losses':>6} {'draws':>5} {'score':>6}"]
    for row in summary.table:
        score = row["points"] / row["games"] if row["games"] else 0.0
        lines.append(f"{row['ancestor']:<10} {row['games']:>5} {row['wins']:>5} {row['losses']:>6} "
                     f"{row['draws']:>5} {score:>6.2f}")
    return lines


__all__ = ["Evolution", "EvolveSettings", "EvolveSummary", "breed", "crossover", "mutate", "table_lines"]
