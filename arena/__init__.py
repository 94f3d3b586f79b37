"""arena: a command-line arena where board-game bots fight each other as subprocesses.

The packages and their import layers (each may import only its own layer and those below): the
table in docs/contributing.md, generated from ``tests/test_layers.py``, which checks every import.
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The distribution's name on PyPI: ``arena`` there is an unrelated project. The import package
#: and the command stay ``arena``.
DISTRIBUTION = "arena-bots"


def install_hint(extra: str) -> str:
    """``pip install 'arena-bots[EXTRA]'``: how to get an optional extra (``serve``, ``ray``...)."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"
