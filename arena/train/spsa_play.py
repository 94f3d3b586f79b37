"""Command agents for ``arena tune spsa``: tuning an external bot's numeric options.

The agent of an SPSA config (:mod:`arena.train.spsa`) may be a bot's command line instead of a
hyperparameters file; the tuned numbers are then put into its command (and environment)::

    "agent": {"command": "python3 ../../bots/connect4_alphabeta.py --depth {depth} --quiet",
              "env": {"MARGIN": "{margin}"}},                optional
    "parameters": {"depth": {"start": 2, "min": 1, "max": 6, "c": 1},
                   "margin": {"start": 0.5, "min": 0, "max": 1, "c": 0.1, "type": "float"}},
    "timeLimit": 20000, "maxMoves": 42, ...                  as in a tournament config

Placeholders: ``{NAME}`` in a word of ``command`` or in a value of ``env`` is replaced by parameter
``NAME`` (``{{`` and ``}}`` are literal braces; other braces are left alone). Every placeholder must
be a tuned parameter and every parameter a placeholder. A parameter needs ``start``; its ``type``
is ``int`` (the default: rounded, kept within ``min..max``) or ``float`` (written with up to six
decimals, no exponent). The command is resolved as a tournament agent's ``path`` is (words naming
files beside the config made absolute; a word holding a placeholder is passed as it is).

Games: each iteration ``k`` plays ``pairs`` colour-swapped pairs of ``theta+`` (agent id ``plus``)
against ``theta-`` (``minus``) as real subprocess games through :func:`arena.match.game.play_game`
(the local backend), with the config's time control (``timeLimit``, ``timeMargin``,
``startupTime``, ``moveTimeLimit``, ``increment``), ``maxMoves`` (default: the game's), isolation
(``ponder``, ``sandbox``, ``inheritEnv``; all off by default) and openings: the ``openings`` book
(``openingsOrder``, default random) or ``openingPlies`` random plies (default 2). Iteration ``k``'s
pair ``p`` is the run's pair ``P = k * pairs + p``, played from the book's pick for ``P`` or the
random opening seeded :func:`arena.games.base.opening_seed` ``(seed, P)``; game ``2P`` has
``plus`` as BLACK, game ``2P + 1`` as WHITE. A bot's fault (crash, timeout, illegal or malformed
reply) loses the game, as in tournaments. ``y`` is ``(wins - losses) / games`` of ``plus``.

Records: game ``i``'s record is ``games/NNNNN.json`` in the run folder (``i`` zero-padded), written
atomically when the game ends; ``arena replay RUN --game i`` shows it. A resumed iteration reuses
the records it already has (same players' commands), so an interrupted iteration loses no game.
"""

from __future__ import annotations

import os
import re
import shlex
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from arena.errors import ConfigError
from arena.fileio import fields
from arena.fileio.fields import integer
from arena.limits import DEFAULT_STARTUP_MS, DEFAULT_TIME_LIMIT_MS, DEFAULT_TIME_MARGIN_MS, MAX_MOVES, MAX_TIME_MS
from arena.match.clock import TimeControl
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation
from arena.records.reader import record_path

if TYPE_CHECKING:
    from arena.backends import GameJob
    from arena.openings.book import Book, Order
    from arena.train.spsa import Parameter, SpsaConfig

#: Top-level config keys that only a command agent uses (their meaning is a tournament config's).
COMMAND_KEYS = ("timeLimit", "timeMargin", "startupTime", "moveTimeLimit", "increment", "maxMoves",
                "openingsOrder", "ponder", "sandbox", "inheritEnv")
_AGENT_KEYS = ("command", "env")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# `{{` and `}}` first, so that `{{x}}` is the literal text `{x}`, as str.format reads it.
_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")
PLUS, MINUS = "plus", "minus"


@dataclass(frozen=True)
class CommandAgent:
    """A checked command agent: ``argv`` the resolved words (placeholders still in), ``env`` the
    extra environment (values may hold placeholders), and how its games are played."""

    text: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    time_control: TimeControl
    max_moves: int | None
    isolation: Isolation
    book: Book | None
    openings_order: str

    def placeholders(self) -> set[str]:
        """The parameter names the command and the environment use."""
        texts = list(self.argv) + [value for _, value in self.env]
        return {match.group(1) for text in texts for match in _TOKEN.finditer(text) if match.group(1)}

    def identity(self) -> dict[str, Any]:
        """What a resumed run must share with the saved one (a changed book is another run)."""
        return {"argv": list(self.argv), "env": dict(self.env), "timeControl": self.time_control.to_json(),
                "maxMoves": self.max_moves, "ponder": self.isolation.ponder, "sandbox": self.isolation.sandbox,
                "inheritEnv": self.isolation.inherit_env, "openingsOrder": self.openings_order,
                "openingsDigest": None if self.book is None else self.book.digest}


def substitute(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{NAME}`` replaced by ``values[NAME]`` and ``{{``/``}}`` by one brace.
    KeyError for a name not in ``values``."""

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        return values[match.group(1)]

    return _TOKEN.sub(replace, text)


def value_of(parameter: Parameter, theta: float) -> int | float:
    """What the agent gets for ``theta``: an ``int`` parameter rounded and kept in its bounds, a
    ``float`` one rounded to six decimals."""
    if parameter.type == "float":
        return round(theta, 6)
    low, high = -int(-parameter.low // 1), int(parameter.high // 1)  # ceil(low), floor(high)
    return min(high, max(low, round(theta)))


def text_of(value: float) -> str:
    """A parameter's value as it is written into the command: no exponent, no trailing zeros."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def values_of(parameters: tuple[Parameter, ...], theta: dict[str, float]) -> dict[str, int | float]:
    return {p.key: value_of(p, theta[p.key]) for p in parameters}


def agent_spec(agent: CommandAgent, agent_id: str, values: dict[str, int | float]) -> AgentSpec:
    """The player of ``agent`` with the parameters at ``values``."""
    texts = {name: text_of(value) for name, value in values.items()}
    argv = [substitute(word, texts) for word in agent.argv]
    env = tuple((name, substitute(value, texts)) for name, value in agent.env)
    return AgentSpec(agent_id, "executable", command=shlex.join(argv), env=env)


def agent_file(agent: CommandAgent, parameters: tuple[Parameter, ...], theta: dict[str, float]) -> dict[str, Any]:
    """``start.json``/``tuned.json`` of a command agent: ``command`` (usable as a tournament
    agent's ``path`` or an ``arena match`` argument), ``env`` when there is one, ``parameters`` (the
    values substituted) and ``theta`` (SPSA's unrounded values)."""
    values = values_of(parameters, theta)
    spec = agent_spec(agent, "tuned", values)
    out: dict[str, Any] = {"command": spec.command}
    if spec.env:
        out["env"] = dict(spec.env)
    out["parameters"] = values
    out["theta"] = {key: round(value, 6) for key, value in theta.items()}
    return out


# --- the config --------------------------------------------------------------------------------------


def load_command_agent(obj: dict[str, Any], base_dir: Path, where: str) -> CommandAgent:
    """The command agent of an SPSA config ``obj`` (its ``agent`` is an object), with the
    tournament keys of :data:`COMMAND_KEYS`, read as a tournament config reads them
    (:mod:`arena.fileio.fields`); ConfigError ``<where>: <key>: <problem>`` otherwise."""
    from arena.games.base import GameError
    from arena.games.registry import get_game
    from arena.process.isolation import require_sandbox
    from arena.process.sandboxes import sandbox_field
    from arena.tournament.config import OPENINGS_ORDERS, resolve_command

    with fields.prefixed(where):
        raw = obj["agent"]
        fields.check_keys(raw, _AGENT_KEYS, "agent")
        text = raw.get("command")
        if not isinstance(text, str) or not text.strip():
            fields.fail("agent", "command", 'must be the bot\'s command line, e.g. "python3 bot.py --depth {depth}"')
        argv = resolve_command(text, base_dir, "agent.command")
        env = fields.env_map(raw, "env", where="agent")
        try:
            game = get_game(obj["game"])
        except GameError as error:
            raise ConfigError(f"game: {error}") from None
        time_control = TimeControl(
            time_limit_ms=integer(obj, "timeLimit", default=DEFAULT_TIME_LIMIT_MS, low=1, high=MAX_TIME_MS),
            time_margin_ms=integer(obj, "timeMargin", default=DEFAULT_TIME_MARGIN_MS, low=0, high=MAX_TIME_MS),
            startup_ms=integer(obj, "startupTime", default=DEFAULT_STARTUP_MS, low=0, high=MAX_TIME_MS),
            move_time_limit_ms=integer(obj, "moveTimeLimit", low=1, high=MAX_TIME_MS),
            increment_ms=integer(obj, "increment", default=0, low=0, high=MAX_TIME_MS))
        max_moves = integer(obj, "maxMoves", low=1, high=MAX_MOVES)
        flags = {key: fields.boolean(obj, key, default=False) for key in ("ponder", "inheritEnv")}
        sandbox = sandbox_field(obj) or False
        if sandbox:
            require_sandbox("sandbox", sandbox)
        order = fields.one_of(obj, "openingsOrder", OPENINGS_ORDERS, default="random")
        book = None
        openings = fields.string(obj, "openings", what="the path of an opening book")
        if openings is not None:
            from arena.openings.book import OpeningsError, load_book

            try:
                book = load_book(game, (base_dir / openings).resolve())
            except OpeningsError as error:
                raise ConfigError(f"openings: {error}") from None
    isolation = Isolation(ponder=flags["ponder"], sandbox=sandbox, inherit_env=flags["inheritEnv"])
    return CommandAgent(text, argv, env, time_control, max_moves, isolation, book, order)


def check_placeholders(agent: CommandAgent, names: list[str], where: str) -> None:
    """ConfigError unless the placeholders of ``agent`` are exactly the parameters ``names``."""
    used = agent.placeholders()
    with fields.prefixed(where):
        for name in sorted(used - set(names)):
            fields.fail("agent", "command", f"placeholder {{{name}}} is not a tuned parameter "
                        f"(parameters: {', '.join(names)})")
        for name in names:
            if name not in used:
                fields.fail("parameters", name, f"not used as {{{name}}} in agent.command or agent.env")


# --- the games ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IterationGames:
    """What an iteration's games gave: ``y`` for :func:`arena.train.spsa.spsa_step` and the
    history line's ``games`` object (first game index, count, plus's wins/losses/draws, how the
    games ended)."""

    y: float
    summary: dict[str, Any]


def iteration_jobs(config: SpsaConfig, k: int, plus: AgentSpec, minus: AgentSpec) -> list[GameJob]:
    """The games of iteration ``k`` (see the module docstring for indices and openings)."""
    from arena.match.pairs import Openings, pair_games
    from arena.runs.jobs import GameSetting, game_job

    agent = config.command
    assert agent is not None
    order: Order = "sequential" if agent.openings_order == "sequential" else "random"
    openings = Openings(config.opening_plies, agent.book, order)
    setting = GameSetting(game=config.game, time_control=agent.time_control, max_moves=agent.max_moves,
                          isolation=agent.isolation)
    jobs = []
    for p in range(config.pairs):
        pair = k * config.pairs + p
        for swap, game in enumerate(pair_games(plus, minus, pair, config.seed, openings)):
            jobs.append(game_job(setting, (game.black, game.white), 2 * pair + swap, game.opening))
    return jobs


def _kept_record(folder: Path, job: GameJob) -> dict[str, Any] | None:
    """The record of ``job`` already in ``folder`` (an interrupted iteration's), if it is whole and
    its players are this job's."""
    assert job.game_index is not None
    from arena.records.reader import RecordInputError, read_game

    try:
        record = read_game(folder, job.game_index)
    except RecordInputError:
        return None  # missing, cut short, or not a regular file: the game is played again
    players = {p.get("colour"): p.get("command") for p in record.get("players", []) if isinstance(p, dict)}
    kept = players == {"BLACK": job.agents[0].command, "WHITE": job.agents[1].command}
    return cast("dict[str, Any]", record) if kept else None


def play_iteration(config: SpsaConfig, folder: Path, k: int, plus: dict[str, float], minus: dict[str, float],
                   concurrency: int = 1) -> IterationGames:
    """Play iteration ``k``'s games (``concurrency`` at once), each record written to ``folder``
    when it ends. Raises KeyboardInterrupt when a signal (Ctrl-C, SIGTERM, SIGHUP) stopped it (the
    finished games' records stay), ResourceError/LogError when arena itself fails."""
    from arena.backends.local import LocalBackend
    from arena.fileio.files import open_beneath
    from arena.process.signals import run_trio_interruptibly
    from arena.records.logstore import dumps, write_failure
    from arena.runs.loop import play_schedule
    from arena.tournament.logs import atomic_write

    agent = config.command
    assert agent is not None
    specs = (agent_spec(agent, PLUS, values_of(config.parameters, plus)),
             agent_spec(agent, MINUS, values_of(config.parameters, minus)))
    jobs = iteration_jobs(config, k, *specs)
    records: dict[int, dict[str, Any]] = {}
    for job in jobs:
        kept = _kept_record(folder, job)
        if kept is not None and job.game_index is not None:
            records[job.game_index] = kept
    backend = LocalBackend()
    schedule = iter([job for job in jobs if job.game_index not in records])

    async def one(job: GameJob) -> bool:
        """Play ``job`` and write its record (this run's one writer); never stops the run."""
        assert job.game_index is not None
        record = await backend.play(job)
        path = record_path(folder, job.game_index)
        try:
            os.close(open_beneath(folder, path.parent, os.O_RDONLY | os.O_DIRECTORY, make_dirs=True))
            atomic_write(path, dumps(record), root=folder)
        except OSError as exc:
            raise write_failure(path, exc) from None
        records[job.game_index] = record
        return False

    _, interrupted = run_trio_interruptibly(play_schedule, lambda: next(schedule, None), one, concurrency)
    if interrupted:
        raise KeyboardInterrupt
    return score(records, jobs)


def score(records: dict[int, dict[str, Any]], jobs: list[GameJob]) -> IterationGames:
    """``plus``'s result over ``jobs`` (a win 1, a draw 0, a loss -1, averaged)."""
    wins = losses = draws = 0
    endings: Counter[str] = Counter()
    for job in jobs:
        assert job.game_index is not None
        record = records[job.game_index]
        plus_colour = "BLACK" if job.agents[0].id == PLUS else "WHITE"
        winner = record.get("winner")
        wins += winner == plus_colour
        draws += winner == "NONE"
        losses += winner not in (plus_colour, "NONE")
        endings[str(record.get("termination"))] += 1
    first = min(job.game_index or 0 for job in jobs)
    summary = {"first": first, "count": len(jobs), "wins": wins, "losses": losses, "draws": draws,
               "endings": dict(sorted(endings.items()))}
    return IterationGames((wins - losses) / len(jobs), summary)


__all__ = ["COMMAND_KEYS", "CommandAgent", "IterationGames", "agent_file", "agent_spec", "check_placeholders",
           "iteration_jobs", "load_command_agent", "play_iteration", "score", "substitute",
           "text_of", "value_of", "values_of"]
