"""Tournaments: a JSON config, a pure schedule, a runner that plays it with bounded concurrency and
resumes after any stop, and the ``tournament_logs/<id>/`` folder it writes.

- :mod:`arena.tournament.config`: load and validate configs (:func:`load_config`).
- :mod:`arena.tournament.schedule`: round robin, random matches and gauntlet as pure functions.
- :mod:`arena.tournament.runner`: :class:`Tournament` (prepare / play / finish) and
  :func:`run_tournament`.
- :mod:`arena.tournament.logs`: the log folder, crash-safe writes, recomputing standings from it.
- :mod:`arena.tournament.display`: the terminal views (a rich Console is passed in).

Ratings themselves are pure functions in :mod:`arena.ratings`.
"""

from __future__ import annotations

from arena.tournament.config import AgentConfig, TournamentConfig, load_config
from arena.tournament.logs import standings_from_folder
from arena.tournament.runner import RunOptions, RunSummary, Tournament, run_tournament
from arena.tournament.schedule import ScheduledGame, build_schedule

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
