"""Getting the bots to Ray's workers: which folder is shipped, how big it may be, and how the paths in
the agents' commands are found again on a worker. Standard library only, with arena's own
:mod:`arena.process.command` (runs on workers too).

Shipping (the default). The folder shipped as Ray's ``runtime_env`` ``working_dir`` is, unless the
config names one (``rayWorkingDir``): the smallest folder holding the config file's folder and every
file the agents name (their scripts, class path entries, hyperparameters files), so a config in
``configs/`` with bots in ``../bots/`` ships the project folder. A file that would widen that folder
to the file system's root or a folder right under it (a bot named by an absolute path like
``/usr/bin/x``, a system jar on a class path) is left out of it: it must exist at the same path on
every node.

Never shipped: :data:`DEFAULT_EXCLUDES` (version control, virtual environments, caches, log
folders) and the run's own log folder; Ray also honours ``.gitignore`` files in the folder. The
folder, after those excludes, may hold at most :data:`MAX_SHIP_BYTES`; beyond it the run stops
before the first game with one line (Ray's own limit on a package is the gRPC message size,
512 MiB, zipped).

On a worker, Ray unpacks the folder and makes it the task's current folder: every absolute path in
a command that lies in the shipped folder on the driver (and each such entry of a class path) is
rewritten to the same relative place under the worker's current folder (:func:`remap_spec`); inline
code and module or class names are left alone. With ``raySharedFiles`` nothing is shipped
and paths are used as they are (the folder is mounted at the same place on every node).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import shlex
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from arena.process.command import Role, path_list_items, word_roles

#: Names (fnmatch patterns, matched against every file and folder name) never shipped to workers.
DEFAULT_EXCLUDES = (".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "*.pyc", "node_modules",
                    "tournament_logs", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".tox")
#: The most a shipped folder may hold after excludes (bytes).
MAX_SHIP_BYTES = 256 * 1024 * 1024


def referenced_paths(specs: Iterable[Any]) -> list[Path]:
    """The absolute paths the agents' commands and hyperparameters files name (``AgentSpec``s); a
    class path counts entry by entry (``-cp /p/build:/usr/share/java/x.jar``)."""
    found: list[Path] = []
    for spec in specs:
        if spec.command:
            found.extend(Path(path) for path in _paths(_split(spec.command)) if os.path.isabs(path))
        if spec.path and os.path.isabs(spec.path):
            found.append(Path(spec.path))
    return found


def default_working_dir(config_dir: Path, specs: Iterable[Any]) -> Path:
    """The folder to ship by default (see the module docstring)."""
    common = config_dir.resolve()
    for path in referenced_paths(specs):
        wider = Path(os.path.commonpath([common, path]))
        # "/" or "/usr": too much to ship; such a file (/usr/bin/x, a system jar on a class path)
        # is expected on the workers already, and the others still widen the folder.
        if len(wider.parts) > 2:
            common = wider.parent if wider == path and wider.is_file() else wider
    return common


def excluded(name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def ship_size(root: Path, patterns: Iterable[str], skip: Iterable[Path] = (), limit: int = MAX_SHIP_BYTES) -> int:
    """Bytes under ``root`` that would be shipped (``patterns`` and the ``skip`` folders left out);
    stops counting once past ``limit`` (the result is then ``> limit``)."""
    patterns = tuple(patterns)
    skipped = {str(p.resolve()) for p in skip}
    total = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not excluded(d, patterns) and os.path.join(folder, d) not in skipped]
        for name in files:
            if excluded(name, patterns):
                continue
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
            if total > limit:
                return total
    return total


def ray_excludes(root: Path, patterns: Iterable[str], skip: Iterable[Path] = ()) -> list[str]:
    """``patterns`` plus the ``skip`` folders that lie in ``root``, in the gitignore form Ray's
    ``excludes`` takes (a leading ``/`` anchors a path at the shipped folder)."""
    out = list(patterns)
    for folder in skip:
        try:
            relative = folder.resolve().relative_to(root.resolve())
        except ValueError:
            continue
        if relative.parts:
            out.append("/" + relative.as_posix())
    return out


def _split(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return [command]


def _paths(words: list[str]) -> list[str]:
    """The words of a command that may be paths, with each class path split into its entries."""
    out: list[str] = []
    for word, role in zip(words, word_roles(words), strict=True):
        if role is Role.PATH_LIST:
            out.extend(path_list_items(word))
        elif role not in (Role.CODE, Role.NAME):
            out.append(word)
    return out


def _remap_word(word: str, root: str, here: str) -> str:
    if word == root:
        return here
    if word.startswith(root.rstrip("/") + "/"):
        return os.path.join(here, os.path.relpath(word, root))
    return word


def remap_spec(spec: Any, root: str | None, here: str) -> Any:
    """``spec`` (an ``AgentSpec``) with the paths under ``root`` (the driver's shipped folder) moved
    under ``here`` (the worker's copy of it); ``spec`` itself when ``root`` is None."""
    if root is None:
        return spec
    changes: dict[str, Any] = {}
    if spec.command:
        words = _split(spec.command)
        changes["command"] = shlex.join(
            os.pathsep.join(_remap_word(p, root, here) for p in path_list_items(w)) if role is Role.PATH_LIST
            else w if role in (Role.CODE, Role.NAME) else _remap_word(w, root, here)
            for w, role in zip(words, word_roles(words), strict=True))
    if spec.path:
        changes["path"] = _remap_word(spec.path, root, here)
    if spec.cwd:
        changes["cwd"] = _remap_word(spec.cwd, root, here)
    if getattr(spec, "folder", None):
        changes["folder"] = _remap_word(spec.folder, root, here)
    if getattr(spec, "read_only", ()):
        changes["read_only"] = tuple(_remap_word(path, root, here) for path in spec.read_only)
    return dataclasses.replace(spec, **changes)


def missing_on_this_node(spec: Any, shipped: str | None = None) -> str | None:
    """Why ``spec`` (already remapped) cannot start here, or None: its program (or the program a
    wrapper runs) is not there or not executable, the script its interpreter runs is missing
    (:func:`arena.process.command.word_roles`, as the config checks them), a file it names in the
    worker's copy ``shipped`` of the shipped folder is missing (an exclude such as ``.gitignore``
    left it out), its hyperparameters file is missing."""
    if spec.kind == "hyperparameters":
        if spec.path and not os.path.isfile(spec.path):
            return f"hyperparameters file {spec.path} is missing"
        return None
    if spec.kind != "executable" or not spec.command:
        return None
    words = _split(spec.command)
    for word, role in zip(words, word_roles(words), strict=True):
        if role is Role.PROGRAM:
            if "/" in word:
                if not os.path.isfile(word):
                    return f"program {word} is missing"
                if not os.access(word, os.X_OK):
                    return f"program {word} is not executable"
            elif shutil.which(word) is None:
                return f"program {word!r} is not on PATH"
        elif role is Role.SCRIPT and not os.path.exists(word):
            return f"file {word} is missing"
    if shipped:
        inside = shipped.rstrip("/") + "/"
        for path in _paths(words):
            if path.startswith(inside) and not os.path.exists(path.removesuffix("/*")):
                return f"file {path} is missing"
    return None
