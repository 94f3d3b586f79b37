"""What a sandboxed bot sees of the filesystem: what it needs to run, nothing else.

As contest judges do (isolate), a sandboxed bot's root is an empty read-only tmpfs into which
bubblewrap binds, read-only and each at its own path:

- the system (:data:`SYSTEM_FOLDERS`: ``/usr`` and the ``/bin``, ``/sbin``, ``/lib*`` beside it,
  made the same links to ``/usr`` where the machine has them) and of ``/etc`` only what the dynamic
  linker and the C library read (:data:`ETC_ENTRIES`);
- the installation of its interpreter or toolchain, as arena resolves the command's program (a
  pyenv shim to the interpreter it runs, ``java`` through ``/etc/alternatives`` to the JDK): the
  narrowest folder that works, the folder above its ``bin`` (``~/.pyenv/versions/3.11.7``, a
  virtual environment), nothing when it lies in the system already; the ``/etc`` folders that
  installation's links point into (the JDK keeps its configuration in ``/etc/java-17-openjdk``);
- the bot's own files: with a roster folder (:attr:`Reach.folder`), that folder whole and nothing
  else its command names (:func:`outside_folder` refuses such a command when the roster is read);
  else the files the organiser's command names: a script's or a program's folder (its modules), a
  class path's entries and other paths as named, what a module or class name names in the working
  folder (``python3 -m pkg.bot``: ``pkg``);
- arena's own package (only the ``arena`` folder, never the checkout around it) for arena's own
  agents and the bots shipped inside arena's checkout, which import it;
- the paths the organiser adds (:attr:`Reach.read_only`: config ``readOnlyPaths``, ``--read-only``);
- its private ``/tmp`` and ``/dev/shm``, ``/dev`` and its own ``/proc`` (:mod:`arena.process.sandbox`).

The working folder arena starts a bot in is shown as an empty folder unless it is inside one of
those. Not shown: the project checkout, other bots' folders, the organiser's files, other runs'
log folders, ``/home``, ``/root``, ``/opt``, ``/var``, ``/run``, ``/srv``, ``/mnt``, and nothing of
``/sys`` even when a command names it (a bot's own cgroup: :mod:`arena.process.cgroups`).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.process.command import Role, path_list_items, word_roles

#: Folders of the system every bot sees (those that exist; a link to ``usr/...`` stays a link).
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: What every bot sees of ``/etc``: the dynamic linker's cache and configuration, the local time
#: zone, locale aliases, and ``alternatives`` (Debian's ``/usr/bin/java`` is a link through it).
#: Not ``passwd``, ``group``, ``hosts`` or anything else the machine's users or services are named in.
ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "locale.alias", "alternatives")
#: Places every bot has of its own (private tmpfs, devices, its PID namespace's ``/proc``): a path
#: there names no one else's file.
PRIVATE_PLACES = ("/tmp", "/dev", "/proc")
#: How many entries of a toolchain's installation are looked at for links into ``/etc``.
_SCAN_ENTRIES = 4000


@dataclass(frozen=True)
class Reach:
    """What the organiser decides about one bot's view: ``folder``, its roster folder (absolute;
    shown whole, and what its ``bot.json`` names must lie inside it); ``read_only``, more paths
    shown read-only (the config's and the command line's for every bot, the agent's own)."""

    folder: str | None = None
    read_only: tuple[str, ...] = ()


NO_REACH = Reach()


@dataclass(frozen=True)
class BotView:
    """The view of one bot: ``argv`` as it must run (a pyenv shim replaced by its interpreter),
    ``shown`` the paths bound read-only at their own place (outermost only, outside the system),
    ``etc`` the entries of ``/etc`` shown, ``workdir`` the folder it starts in, made empty when
    nothing shown holds it (``empty_workdir``)."""

    argv: tuple[str, ...]
    shown: tuple[str, ...]
    etc: tuple[str, ...]
    workdir: str
    empty_workdir: bool


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


@functools.cache
def _system_real() -> tuple[str, ...]:
    """The real folders behind :data:`SYSTEM_FOLDERS` (``/lib`` is ``/usr/lib`` on merged systems)."""
    return tuple(dict.fromkeys(os.path.realpath(f) for f in SYSTEM_FOLDERS if os.path.isdir(f)))


def in_common_view(path: str) -> bool:
    """Whether naming ``path`` (absolute) shows a bot nothing it would not see anyway: the system,
    or its own private places (where arena's files are not)."""
    real = os.path.realpath(path)
    return any(_inside(real, f) for f in (*_system_real(), *PRIVATE_PLACES))


def _in_system(path: str) -> bool:
    """Whether every sandboxed bot sees ``path`` (resolved) as it is: the system, ``/dev``, ``/proc``."""
    return any(_inside(path, f) for f in (*_system_real(), "/dev", "/proc"))


def installation(program: str) -> str:
    """The narrowest folder that holds a program's installation: the folder above its ``bin`` or
    ``sbin`` folder, else its own folder."""
    folder = os.path.dirname(program)
    return os.path.dirname(folder) if os.path.basename(folder) in ("bin", "sbin") else folder


@functools.cache
def _etc_links(prefix: str) -> tuple[str, ...]:
    """The folders of ``/etc`` (``/etc/NAME``) that links in the installation ``prefix`` point
    into, from its first :data:`_SCAN_ENTRIES` entries (once per process: an installation does
    not move during a run)."""
    found: dict[str, None] = {}
    seen = 0
    for top, folders, files in os.walk(prefix):
        for name in (*folders, *files):
            seen += 1
            path = os.path.join(top, name)
            with contextlib.suppress(OSError):
                if os.path.islink(path):
                    target = os.path.realpath(path)
                    parts = target.split("/")
                    if len(parts) > 3 and parts[1] == "etc":
                        found["/etc/" + parts[2]] = None
        if seen > _SCAN_ENTRIES:
            break
    return tuple(found)


def _toolchain(program: str) -> tuple[list[str], list[str]]:
    """(folders to show, ``/etc`` folders to show) for the program arena runs: its installation,
    as named and as resolved, unless the system holds it."""
    shown: list[str] = []
    etc: list[str] = []
    for variant in dict.fromkeys((os.path.abspath(program), os.path.realpath(program))):
        prefix = installation(variant)
        if prefix in ("/", "/usr", "/usr/local") or not os.path.isdir(prefix):
            continue
        etc += _etc_links(prefix)
        if not _in_system(prefix):
            shown.append(prefix)
    return shown, etc


def _named_paths(argv: Sequence[str], base: str) -> list[tuple[Role, str]]:
    """(role, absolute path) of every word of ``argv`` after the program that names an existing
    file or folder: a script, a class path's entries (``lib/*`` is ``lib``), any other word."""
    found: list[tuple[Role, str]] = []
    for word, role in zip(argv, word_roles(argv), strict=True):
        if role is Role.PROGRAM:
            continue
        items = path_list_items(word) if role is Role.PATH_LIST else [word] if role in (Role.SCRIPT, Role.ARG) else []
        for item in items:
            item = item.removesuffix("/*")
            if not item or item.startswith("-") or len(item) >= 4096 or "\0" in item:
                continue
            path = os.path.normpath(item if os.path.isabs(item) else os.path.join(base, item))
            with contextlib.suppress(OSError, ValueError):
                if os.path.exists(path):
                    found.append((role, path))
    return found


def _named_modules(argv: Sequence[str], workdir: str) -> list[str]:
    """What a module or class name of ``argv`` (``python3 -m pkg.bot``, ``java Main``) names in the
    working folder, where the interpreter looks first: ``pkg`` (a package), ``pkg.py``, ``Main.class``."""
    found = []
    for word, role in zip(argv, word_roles(argv), strict=True):
        top = word.split(".", 1)[0] if role is Role.NAME else ""
        if not top or "/" in top or top.startswith("-") or len(top) > 255 or "\0" in top:
            continue
        for name in (top, top + ".py", word.removesuffix(".class") + ".class"):
            path = os.path.join(workdir, name)
            if "/" not in name and os.path.exists(path):
                found.append(path)
    return found


def outside_folder(argv: Sequence[str], folder: str, cwd: str | None = None,
                   own_user: bool = True, shown: Sequence[str] = ()) -> str | None:
    """Why a roster bot's command ``argv`` (resolved, as its ``bot.json`` gave it) would widen its
    view, or None: a path it names (the program given with a ``/``, a script, a class path's
    entries, any other existing path) that lies outside ``folder`` (links followed), outside what
    every bot sees (:func:`in_common_view`) and outside the paths the organiser shows every bot
    (``shown``), or (``own_user``: bots run as users of their own) inside it but under a folder
    other users cannot enter. A bare program name (``python3``) is arena's to resolve and never
    refused."""
    granted = [os.path.realpath(path) for path in shown]
    real_folder = os.path.realpath(folder)
    base = cwd or folder
    named = [(Role.PROGRAM, argv[0])] if argv and "/" in argv[0] else []
    for role, path in [*named, *_named_paths(argv, base)]:
        shown = path if os.path.isabs(path) else os.path.join(base, path)
        real = os.path.realpath(shown)
        if _inside(real, real_folder):
            closed = _closed_between(real_folder, real) if own_user else None
            if closed is not None:
                return f"{role.value} {shown} is under {closed}, which other users cannot enter (chmod a+rX it)"
            continue
        if in_common_view(real) or any(_inside(real, path) for path in granted):
            continue
        return (f"{role.value} {shown} is outside the bot's folder {folder}; a bot sees only its own folder "
                "(put the file inside it)")
    return None


def _closed_between(folder: str, path: str) -> str | None:
    """The first folder from ``folder`` (included) down to ``path``'s own folder that a user who
    owns nothing cannot enter."""
    current = folder
    for part in ["", *os.path.relpath(path, folder).split("/")[:-1]]:
        current = os.path.join(current, part) if part else current
        try:
            if not os.stat(current).st_mode & 0o001:
                return current
        except OSError:
            return None
    return None


def python_path(env: Mapping[str, str]) -> list[str]:
    """The absolute entries of ``env``'s PYTHONPATH (a relative one names nothing arena can show)."""
    return [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and os.path.isabs(p)]


_SHELLS = frozenset({"sh", "bash", "dash", "zsh"})
_SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".rb", ".pl", ".lua", ".php", ".sh", ".jar")


def _shell_script_files(argv: Sequence[str], program: str, workdir: str) -> list[str]:
    """The files a shell's ``-c`` script names (``sh -c 'python3 bot.py | sed 3q'``, an organiser's
    command, whose paths are shown as named): each word of the script, with a ``/``, that is an
    existing file outside the system, absolute or from ``workdir``. Nothing for a command that is
    not a shell given a script, or a script that does not split."""
    if os.path.basename(program) not in _SHELLS or "-c" not in argv[1:]:
        return []
    at = list(argv).index("-c", 1) + 1
    if at >= len(argv):
        return []
    try:
        words = shlex.split(argv[at], comments=True)
    except ValueError:
        return []
    found = []
    for word in words:
        if "/" not in word or len(word) >= 4096 or "\0" in word:
            continue
        path = os.path.normpath(word if os.path.isabs(word) else os.path.join(workdir, word))
        with contextlib.suppress(OSError, ValueError):
            if os.path.isfile(path) and not _in_system(os.path.realpath(path)):
                found.append(path)
    return found


def bot_view(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str],
             reach: Reach = NO_REACH, *, program: str | None = None) -> BotView:
    """The view of a bot started as ``argv`` (resolved by arena: ``program`` is the file its first
    word is, found on ``PATH``) in ``cwd`` with ``env`` (see the module docstring)."""
    from arena.process.spawn import arena_import_root

    workdir = os.fspath(cwd) if cwd is not None else os.getcwd()
    program = program or argv[0]
    if "/" not in program:
        program = shutil.which(program, path=env.get("PATH", os.defpath)) or program
    program = os.path.join(workdir, program)
    shown, etc = _toolchain(program)
    arena_root = arena_import_root()
    package = os.path.join(arena_root, "arena")
    named = _named_paths(argv, workdir)
    # Arena's bots (bots/*_alphabeta.py, its search agent) import its package from its checkout;
    # a roster folder's own files are its author's, wherever the folder lies.
    uses_arena = any(_inside(path, arena_root) and not (reach.folder and _inside(path, reach.folder))
                     for path in (os.path.abspath(program), *(p for role, p in named if role is Role.SCRIPT)))
    if reach.folder is not None:
        shown.append(reach.folder)
    else:
        for word in _shell_script_files(argv, program, workdir):
            if os.access(word, os.X_OK) or word.endswith(_SCRIPT_SUFFIXES):
                more, more_etc = _toolchain(word)  # a program or a script: as the command's own are
                shown += [*more, os.path.dirname(word)]
                etc += more_etc
            else:
                shown.append(word)  # any other file: itself
        if not _in_system(os.path.realpath(program)) and not any(_inside(os.path.abspath(program), s) for s in shown):
            shown.append(os.path.dirname(os.path.abspath(program)))  # the organiser's program: its folder
        for role, path in named:
            shown.append(os.path.dirname(path) if role is Role.SCRIPT else path)
        shown += _named_modules(argv, workdir)
    for entry in python_path(env):
        if os.path.realpath(entry) == os.path.realpath(arena_root):
            uses_arena = True  # arena's own agents: its package, not the folder that holds it
        else:
            shown.append(entry)
    if uses_arena:
        shown.append(package)
    shown += reach.read_only
    wanted: list[str] = []
    for path in dict.fromkeys(shown):
        for variant in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
            # /sys is the kernel's (its cgroup files are another bot's state): never bound as named.
            if os.path.exists(variant) and not _in_system(variant) and not _inside(variant, "/sys"):
                wanted.append(variant)
    outermost = [p for p in dict.fromkeys(wanted) if not any(o != p and _inside(p, o) for o in wanted)]
    empty = not any(_inside(workdir, p) for p in outermost) and not _in_system(os.path.realpath(workdir))
    entries = [os.path.join("/etc", name) for name in ETC_ENTRIES]
    return BotView(tuple(argv), tuple(sorted(outermost)), tuple(dict.fromkeys([*entries, *etc])), workdir, empty)


def command_paths(command: str, cwd: str | os.PathLike[str] | None, env: Mapping[str, str]) -> tuple[str, ...]:
    """What a command the organiser wrote (a referee's, given as one string) must be shown when a
    bot starts its own copy of it (arena's search agent on an external game): the paths its own
    view shows, and the ``/etc`` folders its toolchain links into. Empty for a command that does
    not split."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return ()
    if not argv:
        return ()
    view = bot_view(argv, cwd, env)
    return (*view.shown, *(entry for entry in view.etc
                                 if entry not in {os.path.join("/etc", name) for name in ETC_ENTRIES}))


__all__ = ["ETC_ENTRIES", "NO_REACH", "SYSTEM_FOLDERS", "BotView", "Reach", "bot_view", "command_paths", "in_common_view",
           "installation", "outside_folder", "python_path"]
