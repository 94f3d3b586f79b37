"""What a Ray worker runs first: arena's own package on the worker's import path, then the task.

Ray makes the shipped working folder the worker's current folder and puts it first on its
``PYTHONPATH``. When that folder holds a folder named ``arena`` (the usual layout: a tournament
folder beside a clone of arena, both shipped), ``import arena`` on the worker finds that folder
instead of the package, and nothing of arena runs there ("cannot import name '__version__' from
'arena'"). So the function Ray runs is :func:`run_task`, shipped *by value* (the driver registers
this module with Ray's cloudpickle) with its real function and arguments as pickled bytes: nothing
of arena is imported on the worker before :func:`use_arenas_package` has made ``import arena``
find arena's package (the one the worker's Python finds without the shipped folder; the shipped
folder's own ``arena`` only when it is arena's package and the Python has none).

Standard library only, and no import of arena at module level: this runs before arena is found.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pickle
import socket
import sys
from typing import Any

#: A module that only arena's package has (a stray folder named ``arena`` does not).
_PROOF = "arena.backends.ray_backend"


def _arena_modules() -> list[str]:
    return [name for name in sys.modules if name == "arena" or name.startswith("arena.")]


def _is_arenas_package() -> bool:
    """Whether ``import arena`` gives arena's package (importing it if needed)."""
    try:
        module = importlib.import_module("arena")
        return getattr(module, "__file__", None) is not None and hasattr(module, "__version__") and \
            importlib.util.find_spec(_PROOF) is not None
    except Exception:  # noqa: BLE001 - a stray folder's __init__ may raise anything
        return False


def _forget_arena() -> None:
    for name in _arena_modules():
        del sys.modules[name]
    importlib.invalidate_caches()


def use_arenas_package() -> None:
    """Make ``import arena`` give arena's package in this process, whatever the current folder and
    the path's first entries hold. Raises ImportError with a message for the user when this
    Python has no arena at all (nor does the shipped folder hold a copy of the package)."""
    if "arena" in sys.modules and _is_arenas_package():
        return
    here = os.path.realpath(os.getcwd())

    def shipped(entry: str) -> bool:
        return os.path.realpath(entry or os.curdir) == here

    saved = list(sys.path)
    _forget_arena()
    sys.path[:] = [entry for entry in saved if not shipped(entry)]
    try:
        if _is_arenas_package():
            return  # submodules now come from arena.__path__, whatever sys.path holds
    finally:
        sys.path[:] = saved
    _forget_arena()
    if _is_arenas_package():
        return  # this Python has no arena, but the shipped folder is a copy of it: use that
    _forget_arena()
    folder = os.path.join(here, "arena")
    stray = f"; the folder {folder} in the shipped folder is not arena's package" if os.path.isdir(folder) else ""
    raise ImportError(f"arena is not installed in the Python that runs Ray's workers ({sys.executable} on "
                      f"{socket.gethostname()}){stray}: install arena there (pip install 'arena-bots[ray]'), in "
                      "the Python the Ray node was started with")


def run_task(payload: bytes) -> Any:
    """Run ``function(*args)`` from ``payload`` (pickled ``(function, args)``) once arena's package
    is the one ``import arena`` finds."""
    use_arenas_package()
    function, args = pickle.loads(payload)
    return function(*args)


__all__ = ["run_task", "use_arenas_package"]
