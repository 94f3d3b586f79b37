"""An agent's version: a digest of what it is (its kind, command, environment) and of the files it
runs, so that a bot whose files changed is a new version of the same agent.

The files hashed are those of its roster folder (every regular file below it, by relative path;
links as the text they hold, never followed), else the script its command runs (``python3 bot.py``:
``bot.py``; :func:`arena.process.command.word_roles`), else its program when that is a file given by
path, else a hyperparameters agent's file. A program found on ``PATH`` (``python3``) is not hashed:
it is the machine's, not the agent's. At most :data:`MAX_VERSION_FILES` files and
:data:`MAX_VERSION_BYTES` bytes are read; beyond that the rest of a folder counts by name and size
only, so a huge folder costs a bounded read.

A caller that asks again and again (a league rereads its roster every few seconds) passes a
:data:`DigestCache`: a file whose path, size, modification time and inode are unchanged is not read
again.

Pure but for reading those files; the digest is ``sha256:`` and 16 hex digits (64 bits: ample to tell
one agent's versions apart).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import orjson

from arena.tournament.agents import AgentConfig

MAX_VERSION_FILES = 10_000
MAX_VERSION_BYTES = 256 * 1024 * 1024
#: Folders that a build or an interpreter writes by itself: not the bot's own files.
SKIPPED_FOLDERS = frozenset({"__pycache__", ".git", ".mypy_cache", ".pytest_cache"})

#: A file's digest by (path, size, modification time in ns, inode).
DigestCache = dict[tuple[str, int, int, int], bytes]


def agent_version(agent: AgentConfig, base_dir: Path | None, cache: DigestCache | None = None) -> str:
    """The version of ``agent`` (see the module docstring); ``base_dir`` is the config's folder (a
    roster folder is relative to it; None: the current folder); ``cache`` spares reading files
    unchanged since an earlier call. Unreadable files count as their error, so a version is always
    given."""
    digest = hashlib.sha256()
    identity = {"type": agent.type, "command": list(agent.command or ()), "path": agent.path,
                "env": dict(agent.env)}
    digest.update(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS))
    budget = [MAX_VERSION_FILES, MAX_VERSION_BYTES]
    for file in _agent_files(agent, base_dir):
        if file.is_dir():
            _hash_folder(digest, file, budget, cache)
        else:
            _hash_file(digest, file, file.name, budget, cache)
    return "sha256:" + digest.hexdigest()[:16]


def _agent_files(agent: AgentConfig, base_dir: Path | None) -> list[Path]:
    if agent.folder is not None:
        folder = Path(os.path.expanduser(agent.folder))
        return [folder if folder.is_absolute() else (base_dir or Path.cwd()) / folder]
    if agent.path is not None:
        return [Path(agent.path)]
    if not agent.command:
        return []
    from arena.process.command import Role, word_roles

    words = list(agent.command)
    roles = word_roles(words)
    scripts = [w for w, r in zip(words, roles, strict=True) if r is Role.SCRIPT and os.path.isfile(w)]
    if scripts:
        return [Path(w) for w in scripts]
    program = words[0]
    return [Path(program)] if "/" in program and os.path.isfile(program) else []


def _hash_folder(digest: hashlib._Hash, folder: Path, budget: list[int], cache: DigestCache | None) -> None:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_FOLDERS)
        for name in sorted(files):
            path = Path(root) / name
            _hash_file(digest, path, path.relative_to(folder).as_posix(), budget, cache)


def _hash_file(digest: hashlib._Hash, path: Path, name: str, budget: list[int], cache: DigestCache | None) -> None:
    digest.update(b"\0file\0" + name.encode("utf-8", "surrogateescape") + b"\0")
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            digest.update(b"link\0" + os.fsencode(os.readlink(path)))
            return
        if not stat.S_ISREG(info.st_mode):
            return
        digest.update(b"%d\0%d\0" % (info.st_size, info.st_mode & 0o111))
        if budget[0] <= 0 or budget[1] < info.st_size:
            return  # over the budget: the file counts by its name, size and mode
        budget[0] -= 1
        budget[1] -= info.st_size
        key = (str(path), info.st_size, info.st_mtime_ns, info.st_ino)
        if cache is None or key not in cache:
            with open(path, "rb") as handle:
                content = hashlib.file_digest(handle, "sha256").digest()
            if cache is None:
                digest.update(content)
                return
            cache[key] = content
        digest.update(cache[key])
    except OSError as exc:
        digest.update(f"error {exc.errno}".encode())


__all__ = ["DigestCache", "agent_version"]
