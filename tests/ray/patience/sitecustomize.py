"""Ray's start-up waits for readiness, not for a fixed 30 s (test processes only).

``ray.init`` and ``ray start`` give the new node's raylet a hard-coded 30 s to register with the GCS
(``raylet_start_wait_time_s`` in ``ray/_private/node.py``, not configurable in Ray 2.60). The
raylet registers only once its agents (two Python processes) have started, which on a 2-core
machine beside busy loops took longer: "The current node timed out during startup". The Ray
tests put this folder first on ``PYTHONPATH`` (tests/ray/ray_support.py), so every Python process
of their namespace imports this module at start-up: when a process imports
``ray._private.services``, its ``get_node`` (what that loop polls) is wrapped to poll until the
node is registered, bounded by ``ARENA_TEST_RAY_STARTUP_S`` (default 300 s, a hang backstop).
Nothing else changes, and nothing is imported unless Ray is.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

_TARGET = "ray._private.services"


def _patient(get_node: Callable[..., Any]) -> Callable[..., Any]:
    def get_node_when_registered(*args: Any, **kwargs: Any) -> Any:
        deadline = time.monotonic() + float(os.environ.get("ARENA_TEST_RAY_STARTUP_S", "300"))
        while True:
            try:
                return get_node(*args, **kwargs)
            except RuntimeError:  # not registered yet (what Ray's own loop catches)
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    return get_node_when_registered


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader of :data:`_TARGET` so the module is patched once run."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        if name != _TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            module.get_node = _patient(module.get_node)  # type: ignore[attr-defined]

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


sys.meta_path.insert(0, _PatchOnImport())
