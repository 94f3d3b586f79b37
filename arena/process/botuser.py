"""A user per bot: uids from a pool no one else uses, and what a bot's user must be shown to run.

When arena runs as root, every bot process runs under a uid and gid of its own, never 0 and never
arena's, taken from a pool (:func:`pool`) and held by this arena process for the bot's life with an
advisory lock, so two arena runs on one machine never hand out the same uid. A bot with a uid of
its own cannot open another process's ``/proc/<pid>/fd`` (the kernel checks the owner), cannot
signal arena, its helpers or other bots, and cannot read root's files.

A bot's user may not be able to reach what its command needs: ``python3`` here may be a pyenv shim
under ``/root`` (mode 0700). :func:`command_needs` resolves such an interpreter to the program it
runs and lists the folders the bot's user cannot reach; the process layer then shows exactly
those, read-only, in the bot's mount namespace (:mod:`arena.process.sandbox`).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ResourceError
from arena.process.command import Role, path_list_items, word_roles
from arena.process.view import installation

#: The default pool: far above any uid a distribution hands out (1000-60000, and subordinate ranges
#: from 100000), below 2^31 for old tools. A line ``arena:<first>:<count>`` in /etc/subuid replaces it.
DEFAULT_FIRST_UID = 2_100_000_000
DEFAULT_POOL_SIZE = 65_536


@functools.cache
def pool() -> tuple[int, int]:
    """(first uid, how many) of the pool: ``/etc/subuid``'s ``arena`` entry, else the default."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/etc/subuid").read_text().splitlines():
            name, first, count = line.strip().split(":")
            if name == "arena" and int(count) > 0 and int(first) > 0:
                return int(first), int(count)
    return DEFAULT_FIRST_UID, DEFAULT_POOL_SIZE


_CAP_SETGID, _CAP_SETUID = 6, 7


@functools.cache
def can_switch_users() -> bool:
    """Whether bots can be given users of their own here: arena may set uids and gids (root with
    its capabilities, not a root stripped of them) and setpriv exists."""
    from arena.process.spawn import _effective_caps

    wanted = (1 << _CAP_SETUID) | (1 << _CAP_SETGID)
    return _effective_caps() & wanted == wanted and shutil.which("setpriv") is not None


def _lock_folder() -> str:
    """A root-only folder of lock files, one per uid in use (``/run/arena-uids``, or in the
    temporary folder where /run is not writable). Refuses a folder someone else could have made."""
    for parent in ("/run", tempfile.gettempdir()):
        path = os.path.join(parent, "arena-uids")
        with contextlib.suppress(FileExistsError, FileNotFoundError, PermissionError):
            os.mkdir(path, 0o700)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o077:
            return path
    raise ResourceError("cannot make a private folder for the bots' user locks in /run or the temporary folder")


@dataclass
class BotUser:
    """A uid (and the gid of the same number) held for one bot; :meth:`release` gives it back."""

    uid: int
    _lock_fd: int

    @property
    def gid(self) -> int:
        return self.uid

    def release(self) -> None:
        if self._lock_fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)  # closing drops the lock
            self._lock_fd = -1


def allocate() -> BotUser:
    """A uid no other bot of any arena run on this machine holds now. ResourceError if none is
    free after many tries (the pool is exhausted) or the lock folder cannot be made."""
    folder = _lock_folder()
    first, count = pool()
    rng = random.SystemRandom()
    for _ in range(200):
        uid = first + rng.randrange(count)
        try:
            fd = os.open(os.path.join(folder, str(uid)), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise ResourceError(f"cannot lock a user for a bot ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return BotUser(uid, fd)
    raise ResourceError(f"no free user for a bot in the pool of {count} uids from {first}")


# -- what a bot's user can reach ---------------------------------------------------------------------


def _other_may(path: str, bits: int) -> bool:
    """Whether a user that owns nothing and is in no group may access ``path`` with ``bits``
    (the 'other' permission bits: 1 search/execute, 4 read)."""
    try:
        return os.stat(path).st_mode & bits == bits
    except OSError:
        return True  # a missing path is someone else's error, reported elsewhere


def blocked_folder(path: str, passable: dict[str, bool] | None = None) -> str | None:
    """The outermost folder on the way to ``path`` (an absolute, resolved path) that a bot's user
    cannot pass, or None when every folder on the way lets it through. ``passable``: answers
    already known, by folder (filled in; one question asks about many paths with shared folders)."""
    known = {} if passable is None else passable
    current = ""
    for part in path.split("/")[1:-1]:
        current += "/" + part
        allowed = known.get(current)
        if allowed is None:
            allowed = known[current] = _other_may(current, 0o1)
        if not allowed:
            return current
    return None


@functools.cache
def _python_behind_shim(shim: str, cwd: str | None) -> str | None:
    """The interpreter a pyenv-style shim for Python runs (asked of the shim itself, as arena's
    user, in the bot's folder: the shim chooses by the folder's ``.python-version``)."""
    try:
        done = subprocess.run([shim, "-c", "import sys; print(sys.executable)"], cwd=cwd, capture_output=True,
                              timeout=30, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = done.stdout.decode(errors="replace").strip()
    return found if done.returncode == 0 and os.path.isabs(found) else None


def _is_script_shim(path: str) -> bool:
    with contextlib.suppress(OSError):
        with open(path, "rb") as f:
            head = f.read(512)
        return head.startswith(b"#!") and b"pyenv" in head or os.path.basename(os.path.dirname(path)) == "shims"
    return False


def _interpreters(env: Mapping[str, str]) -> list[str]:
    """Installations a bot may run without naming them in its command (``#!/usr/bin/env python3``,
    ``sh -c '...'``): arena's own Python, and each folder of the bot's PATH (a ``bin`` folder
    stands for its installation, a ``shims`` folder for the version manager that holds it)."""
    found = [os.path.realpath(sys.base_prefix)]
    for folder in env.get("PATH", "").split(os.pathsep):
        if os.path.isabs(folder) and os.path.isdir(folder):
            name = os.path.basename(folder.rstrip("/"))
            found.append(os.path.dirname(folder.rstrip("/")) if name in ("bin", "sbin", "shims") else folder)
    return found


def closed_folder(shown: Sequence[str]) -> str | None:
    """The first of ``shown`` (folders shown to a bot as they are) that a user who owns nothing
    cannot enter: showing it would not help (a bind keeps its mode), so the bot could not start."""
    for folder in shown:
        if os.path.isdir(folder) and not _other_may(folder, 0o5):
            return folder
    return None


@dataclass(frozen=True)
class CommandNeeds:
    """``argv`` as the bot's user must run it, and the folders it must be shown read-only:
    ``hidden`` (folders it cannot pass; a bot sees an empty folder there) and ``shown`` (the
    paths inside them that it needs)."""

    argv: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()


#: Folders a bot gets a private copy of (empty tmpfs): what it needs in them must be shown too.
PRIVATE_FOLDERS = ("/tmp", "/dev/shm")


def resolve_program(argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> tuple[list[str], str]:
    """(``argv`` as the bot's user must run it, the file its program is): the program found on the
    bot's ``PATH`` (from ``cwd`` when relative); a pyenv shim for Python under a folder the bot's
    user cannot pass replaced by the interpreter it runs, also when it is the ``#!/usr/bin/env
    python3`` line of the program (then the interpreter runs the program as its script)."""
    program = argv[0]
    if "/" not in program:
        found = shutil.which(program, path=env.get("PATH", os.defpath))
        if found is not None:
            program = found
    program = program if os.path.isabs(program) else os.path.join(cwd, program)
    new_argv = list(argv)
    real = _behind_blocked_shim(program, cwd)
    if real is not None:
        new_argv[0] = program = real
        return new_argv, program
    interpreter = _env_shebang(program)
    if interpreter is not None:
        found = shutil.which(interpreter, path=env.get("PATH", os.defpath))
        real = _behind_blocked_shim(found, cwd) if found is not None else None
        if real is not None:
            return [real, program, *argv[1:]], real
    return new_argv, program


def _behind_blocked_shim(program: str, cwd: str) -> str | None:
    """The interpreter a pyenv shim for Python runs when the bot's user cannot pass the folder
    that holds the shim, else None."""
    if os.path.basename(program).startswith("python") and _is_script_shim(program) \
            and blocked_folder(os.path.realpath(program)):
        return _python_behind_shim(program, cwd)
    return None


def _env_shebang(program: str) -> str | None:
    """``NAME`` of a ``#!/usr/bin/env NAME`` first line of the file ``program``, else None."""
    with contextlib.suppress(OSError):
        with open(program, "rb") as f:
            head = f.read(256).split(b"\n", 1)[0]
        words = head[2:].split() if head.startswith(b"#!") else []
        if len(words) == 2 and os.path.basename(words[0]) == b"env" and b"/" not in words[1]:
            return os.fsdecode(words[1])
    return None


def command_needs(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str],
                  extra: Sequence[str] = ()) -> CommandNeeds:
    """What a bot's user needs to run ``argv`` in ``cwd`` with ``env`` (see :class:`CommandNeeds`).

    A pyenv shim for Python (a script in a ``shims`` folder) is replaced by the interpreter it runs.
    ``extra``: more paths the bot needs (arena's own package for its agents, say). Paths in
    :data:`PRIVATE_FOLDERS` are shown too (the bot's own ``/tmp`` is empty).
    """
    base = os.fspath(cwd) if cwd is not None else os.getcwd()
    new_argv, program = resolve_program(argv, base, env)
    wanted = [installation(os.path.realpath(program)), program, base, *extra, *_interpreters(env)]
    for word, role in zip(argv, word_roles(argv), strict=True):
        # Files the command names (a script, a class path's entries, a data file): shown if blocked.
        items = path_list_items(word) if role is Role.PATH_LIST else [word] if role in (Role.SCRIPT, Role.ARG) else []
        for item in items:
            item = item.removesuffix("/*")  # a class path's "lib/*"
            if not item or item.startswith("-") or len(item) >= 4096:
                continue
            candidate = item if os.path.isabs(item) else os.path.join(base, item)
            with contextlib.suppress(OSError, ValueError):
                if os.path.exists(candidate):
                    wanted.append(candidate)
    hidden: list[str] = []
    shown: list[str] = []
    passable: dict[str, bool] = {}  # the wanted paths share most of their folders: each is asked once
    for path in dict.fromkeys(wanted):  # PATH often names a folder twice
        for variant in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
            blocked = blocked_folder(variant, passable)
            private = any(variant.startswith(folder + "/") for folder in PRIVATE_FOLDERS)
            if blocked is None and not private:
                continue
            if blocked is not None and blocked not in hidden and blocked not in PRIVATE_FOLDERS:
                hidden.append(blocked)
            show = variant if os.path.isdir(variant) else os.path.dirname(variant)
            if show not in shown:
                shown.append(show)
    # A folder inside another shown one is shown with it (a bind over it would only repeat it).
    outermost = [s for s in shown if not any(s != o and s.startswith(o.rstrip("/") + "/") for o in shown)]
    return CommandNeeds(tuple(new_argv), tuple(hidden), tuple(outermost))
