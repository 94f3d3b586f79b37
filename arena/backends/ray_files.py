"""Getting the bots to Ray's workers: which folder is shipped, how big it may be, and how the paths in
the agents' commands are found again on a worker. Standard library only (runs on workers too).

Shipping (the default). The folder shipped as Ray's ``runtime_env`` ``working_dir`` is, unless the
config names one (``rayWorkingDir``): the smallest folder holding the config file's folder and every
file the agents name (their scripts, hyperparameters files), so a config in ``configs/`` with bots
in ``../bots/`` ships the project folder. When that folder would be the file system's root or a
folder right under it (a bot named by an absolute path like ``/usr/bin/x``), only the config's
folder is shipped and the other files must exist at the same paths on every node.

Never shipped: :data:`DEFAULT_EXCLUDES` (version control, virtual environments, caches, log
folders) and the run's own log folder; Ray also honours ``.gitignore`` files in the folder. The
folder, after those excludes, may hold at most :data:`MAX_SHIP_BYTES`; beyond it the run stops
before the first game with one line (Ray's own limit on a package is the gRPC message size,
512 MiB, zipped).

On a worker, Ray unpacks the folder and makes it the task's current folder: every absolute path in
a command that lies in the shipped folder on the driver is rewritten to the same relative place
under the worker's current folder (:func:`remap_spec`). With ``raySharedFiles`` nothing is shipped
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

#: Names (fnmatch patterns, matched against every file and folder name) never shipped to workers.
DEFAULT_EXCLUDES = (".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "*.pyc", "node_modules",
                    "tournament_logs", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".tox")
#: The most a shipped folder may hold after excludes (bytes).
MAX_SHIP_BYTES = 256 * 1024 * 1024


def referenced_paths(specs: Iterable[Any]) -> list[Path]:
    """The absolute paths the agents' commands and hyperparameters files name (``AgentSpec``s)."""
    found: list[Path] = []
    for spec in specs:
        if spec.command:
            found.extend(Path(word) for word in _split(spec.command) if os.path.isabs(word))
        if spec.path and os.path.isabs(spec.path):
            found.append(Path(spec.path))
    return found


def default_working_dir(config_dir: Path, specs: Iterable[Any]) -> Path:
    """The folder to ship by default (see the module docstring)."""
    config_dir = config_dir.resolve()
    paths = [str(config_dir)] + [str(p) for p in referenced_paths(specs)]
    common = Path(os.path.commonpath(paths))
    if common.is_file():
        common = common.parent
    # "/" or "/usr": too much to ship; those files are expected to be on the workers already.
    return common if len(common.parts) > 2 else config_dir


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
        changes["command"] = shlex.join(_remap_word(w, root, here) for w in _split(spec.command))
    if spec.path:
        changes["path"] = _remap_word(spec.path, root, here)
    if spec.cwd:
        changes["cwd"] = _remap_word(spec.cwd, root, here)
    return dataclasses.replace(spec, **changes)


def missing_on_this_node(spec: Any) -> str | None:
    """Why ``spec`` (already remapped) cannot start here, or None: its program is not there or not
    executable, a file its command names is missing, its hyperparameters file is missing."""
    if spec.kind == "hyperparameters":
        if spec.path and not os.path.isfile(spec.path):
            return f"hyperparameters file {spec.path} is missing"
        return None
    if spec.kind != "executable" or not spec.command:
        return None
    words = _split(spec.command)
    program = words[0]
    if "/" in program:
        if not os.path.isfile(program):
            return f"program {program} is missing"
        if not os.access(program, os.X_OK):
            return f"program {program} is not executable"
    elif shutil.which(program) is None:
        return f"program {program!r} is not on PATH"
    for word in words[1:]:
        # The config made every word that named an existing file absolute: each must be here too.
        if os.path.isabs(word) and not os.path.exists(word):
            return f"file {word} is missing"
    return None
