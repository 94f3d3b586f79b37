"""arena: a command-line arena where board-game bots fight each other as subprocesses."""

from __future__ import annotations

__version__ = "0.1.0"
