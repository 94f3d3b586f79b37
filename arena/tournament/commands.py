"""Bot commands and paths of a config, resolved against the config's folder (never the current one).

:func:`resolve_command` is the one resolver of a bot command (configs, rosters, ``arena match``'s
arguments, ``rules``); how each word is treated is described in :mod:`arena.tournament.config`.
Every mistake is a one-line :class:`arena.errors.ConfigError` naming ``where``.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

from arena.errors import ConfigError
from arena.process.command import Role, path_list_items, word_roles


def plain(path: Path) -> str:
    """A path for a one-line message: as it is, or quoted when it holds a newline or the like; a
    long one cut (with its end kept)."""
    text = str(path)
    text = text if text.isprintable() else repr(text)
    return text if len(text) <= 160 else text[:60] + "..." + text[-97:]


def resolve_path(base_dir: Path, word: str) -> Path:
    return Path(os.path.normpath(base_dir / os.path.expanduser(word)))


# A word too long for a file name, or with a NUL, names no file: never a traceback.
def is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def resolve_command(text: str, base_dir: Path, where: str = "path") -> tuple[str, ...]:
    """The argv of the bot command ``text`` with its files found from ``base_dir`` (the module
    docstring; which word is which: :func:`arena.process.command.word_roles`). ConfigError (one line
    naming ``where``) when it is empty, cannot be split, or its program or script is not there."""
    whole = resolve_path(base_dir, text.strip())
    if is_file(whole):
        _check_executable(whole, text, where)
        return (str(whole),)
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ConfigError(f"{where}: cannot split the command {text!r} ({exc})") from None
    if not words:
        raise ConfigError(f"{where}: empty command")
    return tuple(_resolve_word(word, role, base_dir, where) for word, role in zip(words, word_roles(words), strict=True))


def _resolve_word(word: str, role: Role, base_dir: Path, where: str) -> str:
    if role is Role.PROGRAM:
        if "/" not in word:
            if shutil.which(word) is None:
                raise ConfigError(f"{where}: program {_word(word)} not found on PATH")
            return word
        file = resolve_path(base_dir, word)
        if not is_file(file):
            raise ConfigError(f"{where}: program {_word(word)} not found (looked at {plain(file)})")
        _check_executable(file, word, where)
        return str(file)
    if role is Role.SCRIPT:
        candidate = resolve_path(base_dir, word)
        if not exists(candidate):
            raise ConfigError(f"{where}: file {_word(word)} not found (looked at {plain(candidate)})")
        return str(candidate)
    if role is Role.PATH_LIST:
        return os.pathsep.join(_resolve_path_item(item, base_dir) for item in path_list_items(word))
    if role is Role.ARG and word and not word.startswith("-"):
        # Any other word that names an existing file or folder is one the bot will open: found from
        # base_dir, like the script, because the bot runs in arena's folder, not the config's.
        candidate = resolve_path(base_dir, word)
        if exists(candidate):
            return str(candidate)
    return word


def _word(word: str) -> str:
    """A word of a command quoted for a one-line message (a long one cut, with its end kept, since
    that is where a file's name is)."""
    shown = repr(word)
    return shown if len(shown) <= 120 else shown[:40] + "..." + shown[-77:]


def _resolve_path_item(item: str, base_dir: Path) -> str:
    """An entry of a class path: made absolute when it exists (``lib/*``: when ``lib`` does), else
    as it is (a JVM skips a missing entry)."""
    if item == "*":
        return str(base_dir / "*")
    if not item or item == "/*":
        return item
    folder, star = (item[:-2], "/*") if item.endswith("/*") else (item, "")
    candidate = resolve_path(base_dir, folder or "/")
    return str(candidate) + star if exists(candidate) else item


#: The config key (and, in an agent, the agent's key) of paths shown to bots read-only in the sandbox.
READ_ONLY_KEY = "readOnlyPaths"


def read_only_paths(words: tuple[str, ...], base_dir: Path, where: str) -> tuple[str, ...]:
    """The paths of a ``readOnlyPaths`` list (or ``--read-only`` options): each resolved against
    ``base_dir`` (``~`` expanded) and absolute; ConfigError (one line naming ``where[i]``) for one
    that is empty, relative to nothing, missing, or ``/`` (the whole machine is no extra path)."""
    out = []
    for index, word in enumerate(words):
        here = f"{where}[{index}]"
        if not word.strip():
            raise ConfigError(f"{here}: empty; give a file or folder to show every bot read-only")
        path = resolve_path(base_dir, word)
        if not exists(path):
            raise ConfigError(f"{here}: {_word(word)} not found (looked at {plain(path)})")
        if path == Path("/"):
            raise ConfigError(f"{here}: '/' would show bots the whole machine; name the folders they need")
        out.append(str(path))
    return tuple(dict.fromkeys(out))


def _check_executable(file: Path, shown: str, where: str) -> None:
    if not os.access(file, os.X_OK):
        raise ConfigError(f"{where}: {shown!r} is not executable (chmod +x it, or start the command "
                          "with its interpreter, e.g. 'python3 bot.py')")
