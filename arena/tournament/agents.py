"""The ``agents`` of a tournament config: every entry checked on its own, every problem reported.

``agents`` is a list of agent objects (``type``, ``id``, ``path``, ``env``: how each is resolved is
in :mod:`arena.tournament.config`), or a roster object naming one agent per folder
(:mod:`arena.tournament.roster`). :func:`agent_entries` reads either into one :class:`AgentEntry`
per entry, loaded or holding its problem (one line naming it: ``agents[3].path: ...`` or
``agents: students/bob/: ...``); :func:`parse_agents` raises one ConfigError for all of them
(:func:`problems_error`: a single problem is its own line, several a count line then one line each).
A mistake in ``agents`` itself (missing, the wrong type, too few or too many entries, a roster's own
keys) is one ConfigError at once: there are no entries to check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.fileio import fields
from arena.fileio.fields import check_keys, show, string
from arena.limits import MAX_AGENTS
from arena.tournament.commands import READ_ONLY_KEY, is_file, plain, read_only_paths, resolve_command, resolve_path

AGENT_TYPES = ("executable", "hyperparameters", "player")
AGENT_KEYS = ("type", "id", "path", "env", READ_ONLY_KEY)

# Ids become file and folder names: keep them to a portable, unsurprising alphabet. Always used
# with fullmatch: `$` would also accept a trailing newline.
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
# Agent ids become <id>.json next to these files in the log folder.
RESERVED_AGENT_IDS = frozenset({"config", "standings", "games", "stderr"})


@dataclass(frozen=True)
class AgentConfig:
    """One competitor.

    ``command`` is the argv of an executable agent (paths made absolute); ``path`` the absolute
    file of a hyperparameters agent (``None`` for the other kinds); ``raw_path`` what the file said;
    ``env`` the extra environment variables of its process, sorted by name; ``folder`` the folder of
    a roster entry as the roster's ``from`` matched it (``students/bob/``), None for a listed agent,
    and ``home`` that folder's absolute path (not written: the sandbox's, :mod:`arena.process.view`);
    ``read_only`` the paths (absolute) the agent's ``readOnlyPaths`` shows it in the sandbox.
    """

    id: str
    type: str
    raw_path: str | None
    command: tuple[str, ...] | None = None
    path: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    folder: str | None = None
    home: str | None = None
    read_only: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The resolved form written to ``config.json`` (``env`` and ``folder`` only when there is
        one, so folders written before they existed compare equal)."""
        out: dict[str, Any] = {"type": self.type, "id": self.id}
        if self.raw_path is not None:
            out["path"] = self.raw_path
        if self.command is not None:
            out["command"] = list(self.command)
        if self.path is not None:
            out["resolvedPath"] = self.path
        if self.env:
            out["env"] = dict(self.env)
        if self.folder is not None:
            out["folder"] = self.folder
        return out


@dataclass(frozen=True)
class AgentEntry:
    """One entry of ``agents``: ``where`` names it (``agents[3]``, ``agents: students/bob/``), ``id``
    is its id when it has a readable one; ``agent`` when it loaded, else ``problem`` (the whole
    line, starting with ``where``). ``language`` is what a roster folder's ``bot.json`` declares."""

    where: str
    id: str | None
    agent: AgentConfig | None = None
    problem: str | None = None
    language: str | None = None


def problems_error(problems: list[str]) -> ConfigError:
    """The one error of ``problems`` (at least one): a single problem as its own line (the message
    a config with one mistake always had), several as :class:`arena.errors.ConfigProblems`."""
    error = fields.Problems(problems).error()
    assert error is not None, "problems_error needs a problem"
    return error


def id_problem(aid: str, seen: set[str]) -> str | None:
    """Why ``aid`` cannot be an agent's id (unsafe as a file name, reserved, a duplicate of one in
    ``seen``, compared case-insensitively), or None, after adding it to ``seen``."""
    if not SAFE_ID.fullmatch(aid):
        return (f"{aid!r} is not a safe file name (letters, digits, '.', '_', '-'; starting with a "
                "letter or digit; at most 64 characters)")
    if aid.lower() in RESERVED_AGENT_IDS:
        return f"{aid!r} is reserved for a log file"
    # Case-insensitive, because <id>.json files would collide on case-insensitive file systems.
    if aid.lower() in seen:
        return f"duplicate id {aid!r}"
    seen.add(aid.lower())
    return None


def agent_entries(raw: Any, base_dir: Path, present: bool, *, game: str, inherit_env: bool,
                  shown: tuple[str, ...] = ()) -> list[AgentEntry]:
    """Every entry of the config's ``agents`` value ``raw`` (``present``: the key is there), each
    loaded or with its problem; an executable's program is looked for as its bot will be started
    (:func:`program_problem`). ``game`` is the tournament's (a roster's ``bot.json`` may declare
    one); ``shown``: the paths the config shows every bot (a roster's ``bot.json`` may name files
    there). ConfigError for a mistake in ``agents`` itself (see the module docstring)."""
    if not present:
        raise ConfigError("agents: missing (required: a list of at least two agents)")
    if isinstance(raw, dict) and "from" in raw:
        from arena.tournament.roster import roster_entries

        entries = roster_entries(raw, base_dir, game, shown)
    elif isinstance(raw, list):
        if len(raw) < 2:
            raise ConfigError(f"agents: a tournament needs at least two agents, got {len(raw)}")
        if len(raw) > MAX_AGENTS:
            raise ConfigError(f"agents: at most {MAX_AGENTS} agents allowed, got {len(raw)}")
        seen: set[str] = set()
        entries = [_listed(i, entry, base_dir, seen) for i, entry in enumerate(raw)]
    else:
        raise ConfigError(f'agents: must be a list of agent objects or a roster such as {{"from": "bots/*/"}}, '
                          f"got {show(raw)}")
    out = []
    for number, entry in enumerate(entries):
        problem = program_problem(entry.agent, number, inherit_env) if entry.agent else None
        out.append(entry if not problem else AgentEntry(entry.where, entry.id, problem=problem,
                                                        language=entry.language))
    return out


def parse_agents(raw: Any, base_dir: Path, present: bool, *, game: str, inherit_env: bool,
                 shown: tuple[str, ...] = ()) -> tuple[AgentConfig, ...]:
    """The agents of :func:`agent_entries`; one ConfigError listing every entry's problem."""
    entries = agent_entries(raw, base_dir, present, game=game, inherit_env=inherit_env, shown=shown)
    problems = [entry.problem for entry in entries if entry.problem]
    if problems:
        raise problems_error(problems)
    return tuple(entry.agent for entry in entries if entry.agent)


def _listed(i: int, entry: Any, base_dir: Path, seen: set[str]) -> AgentEntry:
    """``agents[i]`` of a list, loaded or with its first problem."""
    where = f"agents[{i}]"
    aid = entry.get("id") if isinstance(entry, dict) and isinstance(entry.get("id"), str) else None
    try:
        return AgentEntry(where, aid, agent=_listed_agent(where, entry, base_dir, seen))
    except ConfigError as exc:
        return AgentEntry(where, aid, problem=str(exc))


def _listed_agent(where: str, entry: Any, base_dir: Path, seen: set[str]) -> AgentConfig:
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: must be an object with type, id and path, got {show(entry)}")
    check_keys(entry, AGENT_KEYS, where)
    aid = string(entry, "id", need=True, nul=True, where=where)
    reason = id_problem(aid, seen)
    if reason:
        raise ConfigError(f"{where}.id: {reason}")
    kind = fields.one_of(entry, "type", AGENT_TYPES, default="executable", where=where)
    raw_path = string(entry, "path", where=where)
    env = fields.env_map(entry, "env", where=where)
    if kind == "player":
        return AgentConfig(id=aid, type=kind, raw_path=raw_path, env=env)
    read_only = read_only_paths(fields.string_list(entry, READ_ONLY_KEY, default=(), where=where), base_dir,
                                f"{where}.{READ_ONLY_KEY}")
    if not raw_path or not raw_path.strip():
        raise ConfigError(f"{where}.path: missing (a {kind} agent needs a path)")
    if kind == "executable":
        command = resolve_command(raw_path, base_dir, f"{where}.path")
        return AgentConfig(id=aid, type=kind, raw_path=raw_path, command=command, env=env, read_only=read_only)
    file = resolve_path(base_dir, raw_path)
    if not is_file(file):
        # The checkers seed's configs name files from its repository root (data/...), where
        # its program runs: a path not found beside the config is tried from the current folder.
        from_cwd = resolve_path(Path.cwd(), raw_path)
        if from_cwd != file and is_file(from_cwd):
            file = from_cwd
        else:
            also = f" and {plain(from_cwd)}" if from_cwd != file else ""
            raise ConfigError(f"{where}.path: file {raw_path!r} not found (looked at {plain(file)}{also})")
    return AgentConfig(id=aid, type=kind, raw_path=raw_path, path=str(file), env=env, read_only=read_only)


def agent_where(agent: AgentConfig, number: int) -> str:
    """How a message names the command of ``agent``, the config's ``number``-th agent."""
    return f"agents: {agent.folder}" if agent.folder is not None else f"agents[{number}].path"


def program_problem(agent: AgentConfig, number: int, inherit_env: bool) -> str | None:
    """Why the bot of ``agent`` (the ``number``-th) cannot be started, or None: an executable's
    program must be found as its bot will be started, on the ``PATH`` of its own environment (what
    bots get under ``inherit_env``, with the agent's ``env`` on top), from arena's folder."""
    from arena.errors import BotError
    from arena.process.isolation import Isolation, bot_environment
    from arena.process.spawn import check_program

    if agent.type != "executable" or not agent.command:
        return None
    env = bot_environment(Isolation(inherit_env=inherit_env), dict(agent.env))
    try:
        check_program(agent.command[0], None, env)
    except BotError as exc:
        own = dict(agent.env)
        where = (f"with the agent's env PATH {show(own['PATH'])}" if "PATH" in own
                 else "on the PATH bots get" if "/" not in agent.command[0] else "")
        reason = str(exc).removeprefix("cannot start ")
        return f"{agent_where(agent, number)}: the bot cannot be started {where}: {reason}".replace("  ", " ")
    return None


def check_programs(agents: tuple[AgentConfig, ...], inherit_env: bool) -> None:
    """One ConfigError naming every agent whose bot cannot be started (:func:`program_problem`)."""
    problems = [p for number, agent in enumerate(agents) if (p := program_problem(agent, number, inherit_env))]
    if problems:
        raise problems_error(problems)
