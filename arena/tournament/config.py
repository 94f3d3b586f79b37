"""Tournament configs: load, validate and resolve a JSON file into a :class:`TournamentConfig`.

The checkers seed's files load unchanged (``id``, ``agents[]`` with ``type``/``id``/``path``,
``tournamentType``, ``timeLimit``, ``maxMoves``, ``visualize``); arena adds ``game``, ``gamesPerPair``,
``matches``, ``concurrency``, ``seed``, ``timeMargin``, ``startupTime``, ``moveTimeLimit``,
``increment``, ``openingPlies``, the isolation keys ``ponder``, ``sandbox`` and ``inheritEnv``
(:mod:`arena.process.isolation`), ``rules`` (a referee program that plays the game, registered
before ``game`` is looked up, which then defaults to the referee's game: docs/referees.md), and per
agent an ``env`` map of extra environment variables.

``agents`` may instead be a roster, one agent per folder (``{"from": "students/*/"}``:
:mod:`arena.tournament.roster`). Every mistake is one line that names the key (``agents[1].path: ...``),
and every mistake of a config is reported at once in one :class:`arena.errors.ConfigError` (several:
:class:`arena.errors.ConfigProblems`, a count line, then one line each), except one that stops the
rest being read (the top level, ``id``, ``rules``, ``game``); the fields are read by :mod:`arena.fileio.fields`, as every config loader
reads them. The format is described by ``arena/schemas/tournament.schema.json`` (draft 2020-12). Every number is range-checked (the maxima are the ``MAX_*`` constants
below: times up to 7 days in ms, ``gamesPerPair`` and ``matches`` up to 10^9, ``maxMoves`` up to
100,000, ``seed`` below 2^63, at most 1,000 agents); ``openingPlies`` must be below ``maxMoves``.
The file itself must be a regular file (a link to one is fine; a FIFO or a device is refused) of at
most 16 MiB; it is decoded by :func:`arena.fileio.jsonfiles.strict_loads` (nesting at most 64 deep, no key
twice in one object, no integer beyond 64 bits). Each executable agent's program must be found
with the agent's own environment (its ``env`` on top of what bots get: see
:func:`arena.process.isolation.bot_environment`), as the bot will be started: ``"env": {"PATH": ""}`` with
``python3`` is a config error, not a crash in every game.

Identity. A log folder belongs to one tournament: resuming with a config that differs in a key that
changes how games are played is refused. ``concurrency``, ``visualize``, ``sandbox`` and
``inheritEnv`` may change between runs (they are how to run, not what is played), and
``gamesPerPair``/``matches`` may grow. ``ponder`` is part of the identity (a bot thinking on its
opponent's time plays a different time control), as is each agent's ``env`` (it may change how the
bot plays); a folder written by an arena that did not record ``ponder`` resumes with any value.

How relative paths are resolved (always against the folder of the config file, never the current
directory):

- ``hyperparameters`` agents: ``path`` is a file; it must exist.
- ``executable`` agents: ``path`` is a command, split like a shell would (shlex) but never run
  through one. If the whole string names an existing file it is one program (so a path with spaces
  works). Otherwise each word has a role (:func:`arena.process.command.word_roles`): the program (the
  first word, or the one a wrapper such as ``env`` runs) with a ``/`` must be an existing executable
  file, without one it must be found on ``PATH`` (``python3``); the script a known interpreter runs
  (``python3 bot.py``, ``java -jar x.jar``, ``dotnet bot.dll``) must exist, and is made absolute;
  the entries of a class path (``java -cp build:lib/*``) that exist are made absolute; inline code,
  module and class names (``python3 -m package.bot``, ``java Main``) and options are left alone;
  any other word is made absolute when it names an existing file or folder, and is otherwise passed
  as it is (a colon-separated class path, a URL, ``key=a/b``).
- ``player`` agents need no path (one given is ignored, as in the seed).
- ``rules``: a command, resolved as an executable agent's.
"""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.fileio import fields
from arena.fileio.fields import check_keys, integer, show, string
from arena.fileio.files import UnsafeFileError, read_input
from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games.base import GameError
from arena.games.registry import DEFAULT_CONFIG_GAME, get_spec
from arena.limits import (
    DEFAULT_HUMAN_TIME_LIMIT_MS,
    DEFAULT_STARTUP_MS,
    DEFAULT_TIME_LIMIT_MS,
    DEFAULT_TIME_MARGIN_MS,
    MAX_CONFIG_CONCURRENCY,
    MAX_FILE_BYTES,
    MAX_GAMES,
    MAX_MOVES,
    MAX_SEED,
    MAX_TIME_MS,
)
from arena.limits import MAX_AGENTS as MAX_AGENTS_LIMIT
from arena.process.cgroups import DEFAULT_MAX_PROCESSES, DEFAULT_MEMORY_MB, DEFAULT_SCRATCH_MB
from arena.process.isolation import BotLimits, require_sandbox
from arena.process.sandboxes import sandbox_field
from arena.tournament.agents import (  # noqa: F401 - AGENT_TYPES, AgentConfig, check_programs: importers' names
    AGENT_TYPES,
    SAFE_ID,
    AgentConfig,
    AgentEntry,
    agent_entries,
    check_programs,
    parse_agents,
)
from arena.tournament.commands import READ_ONLY_KEY, read_only_paths, resolve_command
from arena.tournament.commands import plain as _plain
from arena.tournament.commands import resolve_path as _resolve
from arena.tournament.schedule import RANDOM_LAYOUT_BALANCED

TOURNAMENT_TYPES = ("roundRobin", "randomMatches", "gauntlet")
OPENINGS_ORDERS = ("random", "sequential")
SPRT_MODELS = ("normalized", "logistic")



def default_max_moves(game: str) -> int:
    """The registered game's default ``maxMoves``, used when the config has none."""
    return get_spec(game).default_max_moves

#: Keys whose change between runs of one id is harmless: they do not alter any game already played.
#: ``gamesPerPair`` and ``matches`` may grow a tournament; the runner still checks that every
#: finished game is where the new schedule puts it. ``pairBlocks`` and ``randomLayout`` are not the
#: user's: they record the schedule layout of the log folder (see :mod:`arena.tournament.schedule`).
#: ``resultsBy`` and ``versions`` record how the folder keeps results and the agents' versions
#: (:mod:`arena.tournament.field`): a keyed folder compares its field, not these keys.
HARMLESS_KEYS = ("concurrency", "visualize", "gamesPerPair", "gamesPerGroup", "matches", "sandbox", "inheritEnv",
                 "pairBlocks", "randomLayout", "memoryMb", "maxProcesses", "scratchMb", "resultsBy", "versions",
                 READ_ONLY_KEY)

#: Keys of the resolved config that older versions of arena did not write. A log folder whose
#: ``config.json`` lacks one resumes whatever its value is now (and records the value from then on).
ADDED_KEYS = ("ponder", "openings", "openingsOrder", "openingsDigest", "legalMoves")

# Maxima of the numbers in a config (each beyond is a one-line ConfigError): one source, arena.limits.
MAX_MAX_MOVES = MAX_MOVES
MAX_GAMES_PER_PAIR = MAX_MATCHES = MAX_GAMES
MAX_CONFIG_BYTES = MAX_FILE_BYTES
MAX_LIMIT_MB = 1 << 20  # a terabyte
MAX_LIMIT_PROCESSES = 1 << 22  # the kernel's own pid_max

_TOP_KEYS = (
    "id", "agents", "tournamentType", "timeLimit", "maxMoves", "visualize",
    "game", "gamesPerPair", "matches", "concurrency", "seed", "timeMargin", "startupTime",
    "moveTimeLimit", "increment", "openingPlies", "openings", "openingsOrder", "ponder", "sandbox", "inheritEnv",
    "sprt", "memoryMb", "maxProcesses", "scratchMb", READ_ONLY_KEY, "players", "parameters", "gamesPerGroup", "rules", "legalMoves",
)  # fmt: skip
#: Keys of the ``sprt`` object and their defaults (those of ``arena sprt``).
SPRT_DEFAULTS: dict[str, Any] = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05, "model": "normalized",
                                 "maxPairs": None, "score": "rank"}
# Where games run (issue 12): how to run, never part of the tournament's identity, so they are not
# written to config.json and a run started locally may be resumed on Ray (and back).
_BACKEND_KEYS = ("backend", "rayAddress", "rayCpusPerGame", "rayWorkingDir", "raySharedFiles")
_ALL_TOP_KEYS: tuple[str, ...] = _TOP_KEYS + _BACKEND_KEYS

@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament config with every default filled in. Times are milliseconds."""

    id: str
    agents: tuple[AgentConfig, ...]
    tournament_type: str = "roundRobin"
    game: str = DEFAULT_CONFIG_GAME
    time_limit_ms: int = DEFAULT_TIME_LIMIT_MS
    max_moves: int = 100
    visualize: bool = False
    games_per_pair: int = 2
    matches: int | None = None
    concurrency: int | None = None
    seed: int = 0
    time_margin_ms: int = DEFAULT_TIME_MARGIN_MS
    startup_ms: int = DEFAULT_STARTUP_MS
    move_time_limit_ms: int | None = None
    increment_ms: int = 0
    opening_plies: int = 0
    #: Opening book (``openings``, a path resolved against the config's folder), its order and the
    #: SHA-256 of its bytes (a resumed run refuses a book that changed).
    openings: str | None = None
    openings_order: str = "random"
    openings_digest: str | None = None
    ponder: bool = False
    #: None: the default, the sandbox when bubblewrap can run here.
    sandbox: bool | str | None = None
    inherit_env: bool = False
    #: Per-bot limits (``memoryMb``, ``maxProcesses``, ``scratchMb``; 0 in the file: no limit).
    limits: BotLimits = field(default_factory=BotLimits)
    #: Paths (absolute) every bot is shown read-only in the sandbox (``readOnlyPaths``).
    read_only: tuple[str, ...] = ()
    #: Schedule layout of the log folder: how many leading blocks of adjacent colour-swapped pairs
    #: (0 for every new tournament; folders written before rounds existed keep theirs). Set by the
    #: runner from the folder, never by the config file.
    pair_blocks: int = 0
    #: How randomMatches are drawn in the log folder (:data:`arena.tournament.schedule.RANDOM_LAYOUTS`;
    #: balanced for every new tournament, folders written before layouts were recorded keep theirs).
    #: Set by the runner from the folder, never by the config file.
    random_layout: int = RANDOM_LAYOUT_BALANCED
    #: ``"pairing"`` when the log folder keeps results per (pairing, versions) and its field may
    #: change (:mod:`arena.tournament.field`), None when by index; and each agent's version
    #: (:mod:`arena.tournament.versions`) by id. Both set by the runner, never by the config file.
    results_by: str | None = None
    versions: tuple[tuple[str, str], ...] = ()
    #: Seats of a game of the general model (``players``; None for a two-player game of today's
    #: model) and its ``parameters`` (sorted by name).
    players: int | None = None
    parameters: tuple[tuple[str, int], ...] = ()
    #: Every seat's messages carry its legal moves (``legalMoves``; games of the general model).
    legal_moves: bool = False
    #: ``rules``: the referee that plays the game (docs/referees.md), as the file gave it and as
    #: resolved against the config's folder (its argv); None: a game of arena or of a plugin.
    rules: str | None = None
    rules_command: tuple[str, ...] | None = None
    #: ``sprt`` settings (every key of :data:`SPRT_DEFAULTS` filled in), or None: with them the run
    #: is an SPRT of the first agent (NEW) against the second (OLD), not a schedule of games.
    sprt: dict[str, Any] | None = None
    source: str | None = None  # the config file, for messages only
    #: Where games run (:mod:`arena.backends`; keys ``backend``, ``rayAddress``, ``rayCpusPerGame``,
    #: ``rayWorkingDir`` (resolved), ``raySharedFiles``). None: the default. Not in :meth:`to_json`.
    backend: str | None = None
    ray_address: str | None = None
    ray_cpus_per_game: float | None = None
    ray_working_dir: str | None = None
    ray_shared_files: bool = False

    @property
    def agent_ids(self) -> list[str]:
        return [a.id for a in self.agents]

    def agent(self, agent_id: str) -> AgentConfig:
        for a in self.agents:
            if a.id == agent_id:
                return a
        raise KeyError(agent_id)

    def to_json(self) -> dict[str, Any]:
        """The resolved config, as ``config.json`` stores it (the file's own key names)."""
        return {
            "id": self.id,
            "game": self.game,
            "tournamentType": self.tournament_type,
            "agents": [a.to_json() for a in self.agents],
            "timeLimit": self.time_limit_ms,
            "maxMoves": self.max_moves,
            "visualize": self.visualize,
            **({"players": self.players, "parameters": dict(self.parameters), "gamesPerGroup": self.games_per_pair,
                "legalMoves": self.legal_moves}
               if self.players is not None else {"gamesPerPair": self.games_per_pair}),
            "matches": self.matches,
            "concurrency": self.concurrency,
            "seed": self.seed,
            "timeMargin": self.time_margin_ms,
            "startupTime": self.startup_ms,
            "moveTimeLimit": self.move_time_limit_ms,
            "increment": self.increment_ms,
            "openingPlies": self.opening_plies,
            "openings": self.openings,
            "openingsOrder": self.openings_order,
            "openingsDigest": self.openings_digest,
            "ponder": self.ponder,
            **({"sandbox": self.sandbox} if self.sandbox is not None else {}),
            "inheritEnv": self.inherit_env,
            "memoryMb": self.limits.memory_mb or 0,
            "maxProcesses": self.limits.max_processes or 0,
            "scratchMb": self.limits.scratch_mb or 0,
            **({READ_ONLY_KEY: list(self.read_only)} if self.read_only else {}),
            "pairBlocks": self.pair_blocks,
            "randomLayout": self.random_layout,
            **({"resultsBy": self.results_by} if self.results_by is not None else {}),
            **({"versions": dict(self.versions)} if self.versions else {}),
            **({"sprt": self.sprt} if self.sprt is not None else {}),
            **({"rules": self.rules, "rulesCommand": list(self.rules_command or ())} if self.rules is not None else {}),
        }


def _openings(obj: dict[str, Any], base_dir: Path, game: str, opening_plies: int) -> tuple[str | None, str, str | None]:
    """The ``openings`` book (resolved path, order, digest), checked line by line now so that a bad
    book is a one-line error before any game; ``(None, "random", None)`` without one."""
    order = fields.one_of(obj, "openingsOrder", OPENINGS_ORDERS, default="random")
    raw = string(obj, "openings", what="a path to a JSONL opening book")
    if raw is None:
        return None, order, None
    if opening_plies:
        raise ConfigError("openings: a book and openingPlies both choose the opening; give one")
    from arena.games.registry import get_game
    from arena.openings.book import OpeningsError, load_book

    path = _resolve(base_dir, raw)
    try:
        book = load_book(get_game(game), path)
    except OpeningsError as exc:
        raise ConfigError(f"openings: {exc}") from None
    return str(path), order, book.digest


def comparable(resolved: dict[str, Any], old: dict[str, Any] | None = None) -> dict[str, Any]:
    """``resolved`` (a :meth:`TournamentConfig.to_json`) without the keys that may change harmlessly,
    and without the :data:`ADDED_KEYS` that ``old`` (an earlier ``config.json``) does not have."""
    skip = set(HARMLESS_KEYS)
    if old is not None:
        skip.update(k for k in ADDED_KEYS if k not in old)
    return {k: v for k, v in resolved.items() if k not in skip}


def default_seed(tournament_id: str) -> int:
    """The seed used when the config has none: stable per id, so reruns and resumes agree."""
    return int.from_bytes(hashlib.sha256(tournament_id.encode()).digest()[:4], "big")


def load_config(path: str | os.PathLike[str]) -> TournamentConfig:
    """Read, validate and resolve the config file at ``path``. Raises ConfigError (one line, or
    :class:`arena.errors.ConfigProblems` listing every agent's problem)."""
    obj, base_dir = read_config(path)
    return parse_config(obj, base_dir=base_dir, source=str(path))


def read_config(path: str | os.PathLike[str]) -> tuple[Any, Path]:
    """The decoded JSON of the config file at ``path`` and the folder its paths resolve against.
    ConfigError (one line) when it cannot be read or is not JSON."""
    file = Path(path)
    try:
        # A regular file (a link to one is fine), bounded: /dev/zero must not eat the memory nor a
        # FIFO hang the run.
        data = read_input(file, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except UnsafeFileError as exc:
        if exc.errno != errno.EISDIR:  # too large, a FIFO, a device
            raise ConfigError(f"{path}: {exc.strerror}; not a config file") from None
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror})") from None
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"{path}: cannot read the config file ({why})") from None
    try:
        obj = strict_loads(data, wide_ints=True)  # every number is range-checked below, by its key
    except JsonInputError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return obj, file.resolve().parent


@dataclass(frozen=True)
class AgentsView:
    """What :func:`config_agents` reads of a config: its game (with ``players``, ``parameters`` and
    ``legalMoves`` when the config gives them: ``players``/``params`` unchecked), ``inheritEnv`` and
    every entry of ``agents``, loaded or with its problem."""

    game: str
    inherit_env: bool
    entries: list[AgentEntry]
    players: int | None = None
    params: dict[str, int] | None = None
    legal_moves: bool = False


def config_agents(obj: Any, base_dir: Path) -> AgentsView:
    """Every agent entry of the decoded config ``obj`` (see :class:`AgentsView`), for a table of
    them (``arena roster check``). ConfigError for a mistake before the agents can be read: the top
    level, ``id``, ``rules``, ``game``, ``inheritEnv``, ``agents`` itself."""
    _, _, game, inherit_env = _head(obj, base_dir)
    entries = agent_entries(obj.get("agents"), base_dir, "agents" in obj, game=game, inherit_env=inherit_env,
                            shown=_shown_paths(obj, base_dir))
    raw_params = obj.get("parameters")
    params = ({k: v for k, v in raw_params.items() if isinstance(v, int)} if isinstance(raw_params, dict) else None)
    players = obj.get("players") if isinstance(obj.get("players"), int) else None
    return AgentsView(game, inherit_env, entries, players, params, obj.get("legalMoves") is True)


def _head(obj: Any, base_dir: Path, problems: fields.Problems | None = None,
          ) -> tuple[str | None, tuple[str, ...] | None, str, bool]:
    """``rules`` (its text and argv), the game and ``inheritEnv`` of ``obj``, after checking what
    comes before its agents. ``problems``: where unknown keys and ``inheritEnv`` are reported (all
    of them), else the first mistake raises."""
    if not isinstance(obj, dict):
        raise ConfigError("config: the top level must be a JSON object")
    if problems is None:
        check_keys(obj, _ALL_TOP_KEYS)
    else:
        problems.lines.extend(fields.unknown_keys(obj, _ALL_TOP_KEYS))
    tid = string(obj, "id", need=True, nul=True)
    if not SAFE_ID.fullmatch(tid):
        raise ConfigError(f"id: {tid!r} is not a safe folder name (letters, digits, '.', '_', '-'; "
                          "starting with a letter or digit; at most 64 characters)")
    rules, rules_command, rules_game = _rules(obj, base_dir)
    game = string(obj, "game", default=rules_game or DEFAULT_CONFIG_GAME)
    try:
        game = get_spec(game).name
    except GameError as error:
        raise ConfigError(f"game: {error}") from None
    inherit_env = (fields.boolean(obj, "inheritEnv", default=False) if problems is None
                   else problems.read(lambda: fields.boolean(obj, "inheritEnv", default=False), False))
    return rules, rules_command, game, bool(inherit_env)


def parse_config(obj: Any, *, base_dir: Path, source: str | None = None) -> TournamentConfig:
    """Validate the decoded config ``obj``; relative paths resolve against ``base_dir``. ConfigError
    naming every mistake at once (:class:`arena.fileio.fields.Problems`: one line each), except one that
    stops the rest being read (the top level, ``id``, ``rules``, ``game``): that one alone."""
    problems = fields.Problems()
    read = problems.read
    rules, rules_command, game, inherit_env = _head(obj, base_dir, problems)
    tid = obj["id"]
    ttype = read(lambda: fields.one_of(obj, "tournamentType", TOURNAMENT_TYPES, default="roundRobin"), "roundRobin")

    no_agents: tuple[AgentConfig, ...] = ()
    agents = read(lambda: parse_agents(obj.get("agents"), base_dir, "agents" in obj, game=game,
                                       inherit_env=inherit_env, shown=_shown_paths(obj, base_dir)), no_agents)
    # With the agents unread, their number is not checked against the seats (nor an SPRT's two).
    seats: tuple[int | None, tuple[tuple[str, int], ...]] = (None, ())
    players, parameters = read(lambda: _seats(obj, game, len(agents) if agents else MAX_AGENTS_LIMIT), seats)
    sprt = read(lambda: _sprt(obj, agents, game, players), None) if agents or "sprt" not in obj else None
    per_group = "gamesPerGroup" if obj.get("gamesPerGroup") is not None else "gamesPerPair"
    if obj.get("gamesPerGroup") is not None and obj.get("gamesPerPair") is not None:
        problems.lines.append("gamesPerGroup: the same setting as gamesPerPair; give one of them")
    if ttype == "randomMatches" and obj.get(per_group) is not None:
        problems.lines.append(f"{per_group}: not used by randomMatches (each match is one game per seat rotation of "
                              "its agents: a colour-swapped pair for two players); use 'matches' to set how many")
    if ttype != "randomMatches" and "matches" in obj:
        problems.lines.append(f"matches: only used by randomMatches, not {ttype} (use '{per_group}')")

    default_moves = default_max_moves(game)
    max_moves = read(lambda: integer(obj, "maxMoves", default=default_moves, low=1, high=MAX_MAX_MOVES), default_moves)
    opening_plies = read(lambda: integer(obj, "openingPlies", default=0, low=0, high=MAX_MAX_MOVES), 0)
    if opening_plies and opening_plies >= max_moves:
        problems.lines.append(f"openingPlies: {opening_plies} random plies leave no move to the bots with "
                              f"maxMoves {max_moves}; make it smaller than maxMoves")
    no_book: tuple[str | None, str, str | None] = (None, "random", None)
    openings, openings_order, openings_digest = read(lambda: _openings(obj, base_dir, game, opening_plies),
                                                     no_book)
    sandbox = read(lambda: sandbox_field(obj), None)
    if sandbox:
        read(lambda: require_sandbox("sandbox", sandbox), None)

    def number(key: str, default: Any, low: int, high: int) -> Any:
        return read(lambda: integer(obj, key, default=default, low=low, high=high), default)

    limits = BotLimits(memory_mb=number("memoryMb", DEFAULT_MEMORY_MB, 0, MAX_LIMIT_MB) or None,
                       max_processes=number("maxProcesses", DEFAULT_MAX_PROCESSES, 0, MAX_LIMIT_PROCESSES) or None,
                       scratch_mb=number("scratchMb", DEFAULT_SCRATCH_MB, 0, MAX_LIMIT_MB) or None)
    no_paths: tuple[str, ...] = ()
    read_only = read(lambda: read_only_paths(fields.string_list(obj, READ_ONLY_KEY, default=()), base_dir,
                                             READ_ONLY_KEY), no_paths)
    # A person at the terminal needs minutes: the same default as `arena match human ...`.
    human = any(a.type == "player" for a in agents)
    values: dict[str, Any] = {
        "time_limit_ms": number("timeLimit", DEFAULT_HUMAN_TIME_LIMIT_MS if human else DEFAULT_TIME_LIMIT_MS, 1, MAX_TIME_MS),
        "visualize": read(lambda: fields.boolean(obj, "visualize", default=False), False),
        # Two-player games: one colour-swapped pair; N seats: one game per seat rotation.
        "games_per_pair": number(per_group, 2 if players is None else players, 1, MAX_GAMES_PER_PAIR),
        "matches": number("matches", None, 1, MAX_MATCHES),
        "concurrency": number("concurrency", None, 1, MAX_CONFIG_CONCURRENCY),
        "seed": number("seed", default_seed(tid), 0, MAX_SEED),
        "time_margin_ms": number("timeMargin", DEFAULT_TIME_MARGIN_MS, 0, MAX_TIME_MS),
        "startup_ms": number("startupTime", DEFAULT_STARTUP_MS, 0, MAX_TIME_MS),
        "move_time_limit_ms": number("moveTimeLimit", None, 1, MAX_TIME_MS),
        "increment_ms": number("increment", 0, 0, MAX_TIME_MS),
        "ponder": read(lambda: fields.boolean(obj, "ponder", default=False), False),
        "legal_moves": bool(read(lambda: fields.boolean(obj, "legalMoves", default=False), False)),
    }
    backend: dict[str, Any] = read(lambda: _backend_settings(obj, base_dir), {})
    problems.check()
    return TournamentConfig(
        id=tid, agents=agents, tournament_type=ttype, game=game, max_moves=max_moves,
        opening_plies=opening_plies, openings=openings, openings_order=openings_order,
        openings_digest=openings_digest, sandbox=sandbox, limits=limits, inherit_env=inherit_env, read_only=read_only,
        players=players, parameters=parameters, sprt=sprt, rules=rules, rules_command=rules_command,
        source=source, **values, **backend)


def _shown_paths(obj: dict[str, Any], base_dir: Path) -> tuple[str, ...]:
    """The config's ``readOnlyPaths`` as far as they can be read (their mistakes are reported as
    the key's own): a roster's ``bot.json`` may name files there."""
    try:
        return read_only_paths(fields.string_list(obj, READ_ONLY_KEY, default=()), base_dir, READ_ONLY_KEY)
    except ConfigError:
        return ()


def _rules(obj: dict[str, Any], base_dir: Path) -> tuple[str | None, tuple[str, ...] | None, str | None]:
    """``rules``: a referee command (resolved like an agent's command), registered now so that the
    game it plays can be looked up; (the text, its argv, the game's name), or Nones without it."""
    text = string(obj, "rules", what="a referee command")
    if text is None:
        return None, None, None
    from arena.referee.client import RefereeError
    from arena.referee.registration import register_referee

    argv = resolve_command(text, base_dir, "rules")
    try:
        spec = register_referee(argv)
    except (RefereeError, GameError) as exc:
        raise ConfigError(f"rules: {exc}") from None
    return text, argv, spec.name


def _seats(obj: dict[str, Any], game: str, agents: int) -> tuple[int | None, tuple[tuple[str, int], ...]]:
    """``players`` and ``parameters`` of a game of the general model, checked by configuring the
    game with them; ``(None, ())`` for a two-player game, which takes neither key."""
    from arena.games.registry import GENERAL, table_game_names

    spec = get_spec(game)
    if spec.model != GENERAL:
        for key in ("players", "parameters", "legalMoves"):
            if key in obj:
                raise ConfigError(f"{key}: {game} is a two-player game; '{key}' is for the games of any number "
                                  f"of seats ({', '.join(table_game_names())})")
        return None, ()
    low, high = spec.player_bounds()
    players = integer(obj, "players", low=low, high=high)
    raw = obj.get("parameters")
    if raw is not None and not isinstance(raw, dict):
        raise ConfigError(f'parameters: must be an object such as {{"cards": 5}}, got {show(raw)}')
    given: dict[str, Any] = raw or {}
    params = {key: integer(given, key, low=-MAX_GAMES, high=MAX_GAMES, where="parameters") for key in given}
    try:
        table = spec.table(players, params)
    except GameError as exc:
        raise ConfigError(f"{'parameters' if params else 'players'}: {exc}") from None
    if agents < table.players and obj.get("sprt") is None:  # an SPRT's own check says more
        raise ConfigError(f"agents: {game} for {table.players} players needs at least {table.players} agents, "
                          f"got {agents}")
    for key in ("openingPlies", "openings"):
        if obj.get(key):
            raise ConfigError(f"{key}: not for {game}, a game of the general model (its chance draws are seeded "
                              "per game; openings are for two-player games)")
    return table.players, tuple(sorted(params.items()))


def _sprt(obj: dict[str, Any], agents: tuple[AgentConfig, ...], game: str, players: int | None) -> dict[str, Any] | None:
    """The checked ``sprt`` object with its defaults filled in (None when absent). An SPRT needs
    exactly two agents that are not people, a two-player game or a game of the general model set
    for two ``players``, and has no schedule of its own."""
    raw = obj.get("sprt")
    if raw is None:
        return None
    if players is not None and players != 2:
        from arena.stats.sprt import seated_game_refusal

        raise ConfigError(f"sprt: {seated_game_refusal(game, players)}")
    if not isinstance(raw, dict):
        raise ConfigError(f"sprt: must be an object such as {{\"elo0\": 0, \"elo1\": 5}}, got {show(raw)}")
    check_keys(raw, SPRT_DEFAULTS, "sprt")
    for key in ("tournamentType", "gamesPerPair", "gamesPerGroup", "matches"):
        if key in obj:
            raise ConfigError(f"{key}: not used with 'sprt' (pairs are played until the test decides; "
                              "'sprt.maxPairs' caps them)")
    if len(agents) != 2:
        raise ConfigError(f"sprt: needs exactly two agents (NEW first, then OLD), got {len(agents)}")
    for number, agent in enumerate(agents):
        if agent.type == "player":
            raise ConfigError(f"agents[{number}].type: a 'player' cannot take part in an SPRT")
    out = dict(SPRT_DEFAULTS)
    for key in ("elo0", "elo1", "alpha", "beta"):
        out[key] = fields.number(raw, key, default=out[key], where="sprt")
    for key in ("alpha", "beta"):
        if not 0 < out[key] < 1:
            raise ConfigError(f"sprt.{key}: must be between 0 and 1 (exclusive), got {out[key]:g}")
    if not out["elo0"] < out["elo1"]:
        raise ConfigError(f"sprt.elo0: must be below elo1 ({out['elo0']:g} is not below {out['elo1']:g})")
    out["model"] = fields.one_of(raw, "model", SPRT_MODELS, default=out["model"], where="sprt")
    out["score"] = fields.one_of(raw, "score", ("rank", "returns"), default=out["score"], where="sprt")
    if out["score"] != "rank" and players is None:
        raise ConfigError(f"sprt.score: {game} is a two-player game: a game scores its result (win, draw, loss), "
                          "it has no returns")
    out["maxPairs"] = integer(raw, "maxPairs", low=1, high=MAX_GAMES, where="sprt")
    from arena.stats.sprt import SPRTError, check_hypotheses

    try:
        check_hypotheses(elo0=out["elo0"], elo1=out["elo1"], alpha=out["alpha"], beta=out["beta"],
                         model=out["model"])
    except SPRTError as exc:
        raise ConfigError(f"sprt: {exc}") from None
    return out


#: Largest ``rayCpusPerGame`` accepted (a game reserving more CPUs than any machine has never starts).
MAX_CPUS_PER_GAME = 1024


def _backend_settings(obj: dict[str, Any], base_dir: Path) -> dict[str, Any]:
    """The backend keys of ``obj`` as :class:`TournamentConfig` fields (see ``_BACKEND_KEYS``)."""
    from arena.backends import BACKEND_SEAM

    backend = string(obj, "backend")
    if backend is not None:
        BACKEND_SEAM.check_name(backend)
    address = string(obj, "rayAddress", what='a string ("local", "auto" or HOST:PORT)')
    if address is not None and not address.strip():
        raise ConfigError('rayAddress: empty; give "local", "auto" or HOST:PORT')
    cpus = obj.get("rayCpusPerGame")
    if cpus is not None and (isinstance(cpus, bool) or not isinstance(cpus, int | float)
                             or not 0 < cpus <= MAX_CPUS_PER_GAME):
        raise ConfigError(f"rayCpusPerGame: must be a positive number of at most {MAX_CPUS_PER_GAME}, got {show(cpus)}")
    raw_dir = string(obj, "rayWorkingDir", what="a path to a folder")
    working_dir = None
    if raw_dir is not None:
        folder = _resolve(base_dir, raw_dir)
        if not folder.is_dir():
            raise ConfigError(f"rayWorkingDir: {_plain(folder)} is not a folder")
        working_dir = str(folder)
    shared = fields.boolean(obj, "raySharedFiles", default=False)
    if shared and working_dir is not None:
        raise ConfigError("raySharedFiles: nothing is shipped with shared files; drop 'rayWorkingDir' or this key")
    return {"backend": backend, "ray_address": address, "ray_cpus_per_game": None if cpus is None else float(cpus),
            "ray_working_dir": working_dir, "ray_shared_files": shared}
