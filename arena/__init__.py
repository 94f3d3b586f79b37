"""arena: a command-line arena where board-game bots fight each other as subprocesses.

The packages, lowest layer first (each may import only its own layer and those below; see
``tests/test_layers.py``): games; errors and limits; fileio and stats; protocols and process;
records, agents and openings; players; match; backends and tools; tournament, sprt and train; ui
and report; cli.
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The distribution's name on PyPI: ``arena`` there is an unrelated project. The import package
#: and the command stay ``arena``.
DISTRIBUTION = "arena-bots"


def install_hint(extra: str) -> str:
    """``pip install 'arena-bots[EXTRA]'``: how to get an optional extra (``serve``, ``ray``...)."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"
