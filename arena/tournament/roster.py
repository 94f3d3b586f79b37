"""Rosters: a config's ``agents`` given as folders, one agent per folder.

``"agents": {"from": "students/*/", "exclude": ["carol"], "env": {"DEPTH": "2"}}``:

- ``from`` (required): a glob (:mod:`glob`, ``~`` expanded; ``*`` skips hidden folders) resolved
  against the config's folder; each folder it matches is one agent, in sorted order. Files it
  matches are skipped.
- ``exclude``: folder names to leave out; each must name a matched folder (a typo is an error).
- ``env``: extra environment variables of every roster agent, as an agent's ``env``.

Each folder's name is the agent's id, checked as any id (safe as a file name, not reserved, unique
case-insensitively). Its command is the ``command`` of the folder's ``bot.json``
(``{"command": "python3 bot.py", "language": "python", "game": "<the tournament's game>"}``, every key optional, no
other) resolved against the folder as an executable agent's ``path`` is against the config's, or
without one the folder's executable file ``bot``. A ``game`` in ``bot.json`` must be the
tournament's.

What ``bot.json`` names (the program given as a path, the script, a class path's entries, any
other existing path) must lie inside the folder (links followed; the system's folders such as
``/usr`` are allowed) and, when bots run as users of their own, under no folder of it other
users cannot enter: the sandbox shows a roster bot its own folder and nothing else it names
(:func:`arena.process.view.outside_folder`).

A problem of one folder is that entry's problem (``agents: students/bob/: ...``), so that every
folder's is reported at once; a problem of the roster itself (its keys, no folder matched, fewer than
two or more than :data:`arena.limits.MAX_AGENTS` folders) is one ConfigError at once.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.fileio import fields
from arena.fileio.fields import check_keys, show, string
from arena.fileio.files import UnsafeFileError, read_input
from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games.base import GameError
from arena.games.registry import get_spec
from arena.limits import MAX_AGENTS
from arena.process.botuser import can_switch_users
from arena.process.view import outside_folder
from arena.tournament.agents import AgentConfig, AgentEntry, id_problem
from arena.tournament.commands import is_file, plain, resolve_command, resolve_path

ROSTER_KEYS = ("from", "exclude", "env")
BOT_JSON = "bot.json"
BOT_JSON_KEYS = ("command", "language", "game")
#: The executable a folder without a ``bot.json`` command runs.
BOT_FILE = "bot"
#: A bot.json is a few lines; a bigger one is a mistake, not something to read into memory.
MAX_BOT_JSON_BYTES = 64 * 1024


def roster_entries(raw: dict[str, Any], base_dir: Path, game: str, shown: tuple[str, ...] = ()) -> list[AgentEntry]:
    """One :class:`AgentEntry` per folder of the roster ``raw`` (see the module docstring), folders
    resolved against ``base_dir``; ``game`` is the tournament's; ``shown`` the paths the config shows
    every bot (``readOnlyPaths``: a ``bot.json`` may name files there). ConfigError for the roster's
    own mistakes."""
    check_keys(raw, ROSTER_KEYS, "agents")
    pattern = string(raw, "from", need=True, where="agents", what="a glob of folders such as 'students/*/'")
    if not pattern.strip():
        raise ConfigError("agents.from: empty; give a glob of folders such as 'students/*/'")
    exclude = fields.string_list(raw, "exclude", default=(), where="agents")
    env = fields.env_map(raw, "env", where="agents")
    folders = roster_folders(pattern, base_dir)
    if not folders:
        raise ConfigError(f"agents.from: {pattern!r} matches no folder (looked in {plain(base_dir)})")
    names = {Path(shown).name for shown in folders}
    for name in exclude:
        if name not in names:
            raise ConfigError(f"agents.exclude: {name!r} is not a folder {pattern!r} matches")
    chosen = [shown for shown in folders if Path(shown).name not in exclude]
    if len(chosen) < 2:
        raise ConfigError(f"agents: a tournament needs at least two agents, got {len(chosen)} "
                          f"(the folders {pattern!r} matches{', less exclude' if exclude else ''})")
    if len(chosen) > MAX_AGENTS:
        raise ConfigError(f"agents: at most {MAX_AGENTS} agents allowed, got {len(chosen)} folders")
    seen: set[str] = set()
    return [_entry(where, resolve_path(base_dir, where), env, game, seen, shown) for where in chosen]


def roster_folders(pattern: str, base_dir: Path) -> list[str]:
    """The folders ``pattern`` matches from ``base_dir``, each as matched with a trailing ``/``,
    sorted."""
    pattern = os.path.expanduser(pattern)
    try:
        matches = glob.glob(pattern, root_dir=base_dir)
    except (OSError, ValueError):
        return []
    return sorted({m.rstrip("/") + "/" for m in matches if os.path.isdir(resolve_path(base_dir, m))})


def _entry(shown: str, folder: Path, env: tuple[tuple[str, str], ...], game: str, seen: set[str],
           granted: tuple[str, ...] = ()) -> AgentEntry:
    where = f"agents: {shown}"
    aid = folder.name
    reason = id_problem(aid, seen)
    if reason:
        return AgentEntry(where, aid, problem=f"{where}: the folder's name is the agent's id: {reason}")
    try:
        bot = folder_bot(folder, game, granted)
    except FolderBotError as exc:
        return AgentEntry(where, aid, problem=f"{where}: {exc}", language=exc.language)
    agent = AgentConfig(id=aid, type="executable", raw_path=bot.text, command=bot.command, env=env, folder=shown,
                        home=str(folder))
    return AgentEntry(where, aid, agent=agent, language=bot.language)


@dataclass(frozen=True)
class FolderBot:
    """A bot folder read: its ``command`` (argv, resolved against the folder), the ``text`` it was
    given as (``bot.json``'s command, or ``bot``), its declared ``language`` and ``game`` (the
    registry's name for it; None when ``bot.json`` does not say)."""

    command: tuple[str, ...]
    text: str
    language: str | None
    game: str | None


class FolderBotError(ConfigError):
    """A bot folder that cannot be run; ``language`` is what its ``bot.json`` declared, if read."""

    def __init__(self, message: str, language: str | None = None) -> None:
        super().__init__(message)
        self.language = language


def folder_bot(folder: Path, game: str | None = None, shown: tuple[str, ...] = ()) -> FolderBot:
    """The bot in ``folder`` (see the module docstring): FolderBotError (one line, ``bot.json: ...``
    or what is missing) when it cannot be run, its ``bot.json`` is wrong, names a path outside the
    folder and outside ``shown`` (the paths the config shows every bot), or declares another game
    than ``game`` (None: any)."""
    language = None
    try:
        declared = read_bot_json(folder)
        text = declared.get("command")
        language = declared.get("language")
        said = declared.get("game")
        said_game = _game_name(said) if said is not None else None
        if game is not None and said_game not in (None, game):
            raise ConfigError(f"{BOT_JSON}: game: {said!r}, but the tournament plays {game}")
        if text is not None:
            command = resolve_command(text, folder, f"{BOT_JSON}: command")
        else:
            command, text = _bot_file(folder), BOT_FILE
        # The sandbox shows a roster bot its folder and nothing else its command names: a path
        # outside would not be there when it runs (and must never widen what it sees).
        outside = outside_folder(command, str(folder), own_user=can_switch_users(), shown=shown)
        if outside is not None:
            raise ConfigError(f"{BOT_JSON if text != BOT_FILE else BOT_FILE}: {outside}")
    except ConfigError as exc:
        raise FolderBotError(str(exc), language) from None
    return FolderBot(command, text, language, said_game)


def declared_game(folder: Path) -> str | None:
    """The game ``folder``'s ``bot.json`` declares (the registry's name), None when it has no
    ``bot.json`` or no ``game`` in it. ConfigError ``bot.json: ...`` for a wrong ``bot.json``."""
    said = read_bot_json(folder).get("game")
    return _game_name(said) if said is not None else None


def read_bot_json(folder: Path) -> dict[str, Any]:
    """The checked ``bot.json`` of ``folder`` (``{}`` without one). ConfigError ``bot.json: ...``."""
    file = folder / BOT_JSON
    if not os.path.lexists(file):
        return {}
    try:
        obj = strict_loads(read_input(file, MAX_BOT_JSON_BYTES))
    except (UnsafeFileError, OSError, ValueError, JsonInputError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"{BOT_JSON}: cannot be read ({why})") from None
    if not isinstance(obj, dict):
        raise ConfigError(f'{BOT_JSON}: must be an object such as {{"command": "python3 bot.py"}}, got {show(obj)}')
    with fields.prefixed(BOT_JSON):
        check_keys(obj, BOT_JSON_KEYS)
        for key in BOT_JSON_KEYS:
            value = string(obj, key)
            if value is not None and not value.strip():
                raise ConfigError(f"{key}: empty")
    return obj


def _game_name(said: str) -> str:
    try:
        return get_spec(said).name
    except GameError as exc:
        raise ConfigError(f"{BOT_JSON}: game: {exc}") from None


def _bot_file(folder: Path) -> tuple[str, ...]:
    file = folder / BOT_FILE
    if not is_file(file):
        raise ConfigError(f"no {BOT_JSON} with a command and no {BOT_FILE!r} file (looked in {plain(folder)})")
    if not os.access(file, os.X_OK):
        raise ConfigError(f"{BOT_FILE!r} is not executable (chmod +x it, or give its command in {BOT_JSON})")
    return (str(file),)
