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

A problem of one folder is that entry's problem (``agents: students/bob/: ...``), so that every
folder's is reported at once; a problem of the roster itself (its keys, no folder matched, fewer than
two or more than :data:`arena.limits.MAX_AGENTS` folders) is one ConfigError at once.
"""

from __future__ import annotations

import glob
import os
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
from arena.tournament.agents import AgentConfig, AgentEntry, id_problem
from arena.tournament.commands import is_file, plain, resolve_command, resolve_path

ROSTER_KEYS = ("from", "exclude", "env")
BOT_JSON = "bot.json"
BOT_JSON_KEYS = ("command", "language", "game")
#: The executable a folder without a ``bot.json`` command runs.
BOT_FILE = "bot"
#: A bot.json is a few lines; a bigger one is a mistake, not something to read into memory.
MAX_BOT_JSON_BYTES = 64 * 1024


def roster_entries(raw: dict[str, Any], base_dir: Path, game: str) -> list[AgentEntry]:
    """One :class:`AgentEntry` per folder of the roster ``raw`` (see the module docstring), folders
    resolved against ``base_dir``; ``game`` is the tournament's. ConfigError for the roster's own
    mistakes."""
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
    return [_entry(shown, resolve_path(base_dir, shown), env, game, seen) for shown in chosen]


def roster_folders(pattern: str, base_dir: Path) -> list[str]:
    """The folders ``pattern`` matches from ``base_dir``, each as matched with a trailing ``/``,
    sorted."""
    pattern = os.path.expanduser(pattern)
    try:
        matches = glob.glob(pattern, root_dir=base_dir)
    except (OSError, ValueError):
        return []
    return sorted({m.rstrip("/") + "/" for m in matches if os.path.isdir(resolve_path(base_dir, m))})


def _entry(shown: str, folder: Path, env: tuple[tuple[str, str], ...], game: str, seen: set[str]) -> AgentEntry:
    where = f"agents: {shown}"
    aid = folder.name
    reason = id_problem(aid, seen)
    if reason:
        return AgentEntry(where, aid, problem=f"{where}: the folder's name is the agent's id: {reason}")
    language = None
    try:
        declared = read_bot_json(folder)
        text = declared.get("command")
        language = declared.get("language")
        said = declared.get("game")
        if said is not None and _game_name(said) != game:
            raise ConfigError(f"{BOT_JSON}: game: {said!r}, but the tournament plays {game}")
        if text is not None:
            command = resolve_command(text, folder, f"{BOT_JSON}: command")
        else:
            command, text = _bot_file(folder), BOT_FILE
    except ConfigError as exc:
        return AgentEntry(where, aid, problem=f"{where}: {exc}", language=language)
    agent = AgentConfig(id=aid, type="executable", raw_path=text, command=command, env=env, folder=shown)
    return AgentEntry(where, aid, agent=agent, language=language)


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


#: What a folder's version leaves out: hidden entries and Python's caches, which a bot's own run
#: writes (a bot importing its modules would otherwise change version with every game).
_NOT_VERSIONED = ("__pycache__",)


def roster_agent_version(folder: Path, command: str | None,
                         cache: dict[tuple[str, int, int, int], str] | None = None) -> str:
    """The version of a roster agent: a short digest of its ``command`` (as ``bot.json`` gives it, or
    ``bot``: the folder may move without a new version) and of every regular file
    under ``folder`` (path relative to it and contents; hidden entries, ``__pycache__`` and ``*.pyc``
    left out, links not followed). Two folders with the same files and command have one version; any
    edit gives a new one. ``cache`` (path, size, mtime, inode → file digest) spares re-reading
    files that did not change between calls. An unreadable file counts by its name alone.

    (The league's version of an agent; agents listed by command get theirs in
    :mod:`arena.tournament.agents` when that lands: one home at merge.)"""
    import hashlib

    total = hashlib.sha256()
    total.update(b"command\0" + (command or "").encode("utf-8", "surrogateescape") + b"\0")
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _NOT_VERSIONED)
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith(".pyc"):
                continue
            path = os.path.join(dirpath, name)
            relative = os.path.relpath(path, folder)
            total.update(b"file\0" + relative.encode("utf-8", "surrogateescape") + b"\0")
            total.update(_file_digest(path, cache).encode() + b"\0")
    return total.hexdigest()[:12]


def _file_digest(path: str, cache: dict[tuple[str, int, int, int], str] | None) -> str:
    import hashlib
    import stat

    try:
        info = os.lstat(path)
    except OSError:
        return "-"
    if not stat.S_ISREG(info.st_mode):
        try:
            return "link:" + os.readlink(path) if stat.S_ISLNK(info.st_mode) else "-"
        except OSError:
            return "-"
    key = (path, info.st_size, info.st_mtime_ns, info.st_ino)
    if cache is not None and key in cache:
        return cache[key]
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return "-"
    if cache is not None:
        cache[key] = digest.hexdigest()
    return digest.hexdigest()
