"""Tournaments: a JSON config, a pure schedule, a runner that plays it with bounded concurrency and
resumes after any stop, and the ``tournament_logs/<id>/`` folder it writes.

- :mod:`arena.tournament.config`: load and validate configs (:func:`load_config`).
- :mod:`arena.tournament.schedule`: round robin, random matches and gauntlet as pure functions.
- :mod:`arena.tournament.runner`: :class:`Tournament` (prepare / play / finish) and
  :func:`run_tournament`.
- :mod:`arena.runs`: the run layer it plays on (the run loop, the one job builder, the lifecycle).
- :mod:`arena.tournament.logs`: the writer of a run's log folder (crash-safe writes), recomputing
  standings from a folder (read through :mod:`arena.records.logstore`).
- :mod:`arena.tournament.live`: ``live/``, the games in progress move by move (for ``arena serve``).
- :mod:`arena.ui.standings`: the terminal views (a rich Console is passed in).
- :mod:`arena.tournament.stats_worker`: the child process that keeps ``standings.json`` and the
  per-agent files up to date, so that statistics never delay the event loop that times the bots.

Ratings themselves are pure functions in :mod:`arena.stats.ratings`.

The names below are imported on first use, so ``python -m arena.tournament.stats_worker`` starts
without loading trio and the match engine.

May import: backends, match, records, openings, stats and the layers below; not the UI or the CLI.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.tournament.config import AgentConfig, TournamentConfig, load_config
    from arena.tournament.logs import standings_from_folder
    from arena.tournament.runner import RunOptions, RunSummary, Tournament, run_tournament
    from arena.tournament.schedule import ScheduledGame, build_schedule

_WHERE = {
    "AgentConfig": "config", "TournamentConfig": "config", "load_config": "config",
    "standings_from_folder": "logs",
    "RunOptions": "runner", "RunSummary": "runner", "Tournament": "runner", "run_tournament": "runner",
    "ScheduledGame": "schedule", "build_schedule": "schedule",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"arena.tournament.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")

__all__ = [
    "AgentConfig",
    "RunOptions",
    "RunSummary",
    "ScheduledGame",
    "Tournament",
    "TournamentConfig",
    "build_schedule",
    "load_config",
    "run_tournament",
    "standings_from_folder",
]
