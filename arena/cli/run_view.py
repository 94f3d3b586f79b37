"""The terminal side of a run's set-up, shared by ``arena run`` and ``arena league``: the view (a
live bar, plain lines, or the live board), the run's options from the command line, and the
set-up notes said before play. The run's lifecycle itself is :mod:`arena.runs.lifecycle`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from arena.process.isolation import unprotected_note
from arena.runs.lifecycle import DEFAULT_LOGS, set_up_notes, start
from arena.tournament.config import TournamentConfig
from arena.tournament.plan import isolation as plan_isolation
from arena.tournament.runner import Reporter, RunOptions, Tournament, backend_options, effective_concurrency
from arena.ui.standings import BoardObserver, PlainReporter, RichReporter


def set_up(console: Console, config: TournamentConfig, concurrency: int | None, logs_root: str | None,
           bootstrap_samples: int, isolation: dict[str, Any],
           backend: tuple[str | None, str | None, float | None] = (None, None, None),
           make: Callable[[TournamentConfig, RunOptions, Reporter], Tournament] = Tournament,
           processes: int | None = None) -> tuple[Tournament, RichReporter | PlainReporter]:
    """Choose the terminal view, make the run with ``make`` (a league's, :mod:`arena.cli.league_cmd`)
    and start it (:func:`arena.runs.lifecycle.start`: the logs, resume, the backend), saying the
    set-up notes on ``console``. Raises ArenaError (ClusterError when the Ray cluster cannot be used).
    ``processes``: the local backend's worker processes (``--workers``; None: the default)."""
    where = dataclasses.replace(backend_options(config, *backend), workers=processes)
    workers = effective_concurrency(config, concurrency)
    live_board = config.visualize and workers == 1 and console.is_terminal and config.players is None
    if config.visualize and not live_board:
        why = ("for two-player games (replay a game of N seats with 'arena replay')" if config.players is not None
               else "with one game at a time on a terminal")
        console.print(f"note: visualize shows the board only {why}; ignored", markup=False, highlight=False)
    # A live bar does not mix with a live board or a human's prompts; plain lines off a terminal.
    human = any(agent.type == "player" for agent in config.agents)
    reporter: RichReporter | PlainReporter = (
        RichReporter(console) if console.is_terminal and not live_board and not human
        else PlainReporter(console))
    options = RunOptions(logs_root=Path(logs_root) if logs_root else DEFAULT_LOGS, concurrency=concurrency,
                         bootstrap_samples=bootstrap_samples,
                         observer=BoardObserver(console) if live_board else None, ponder=isolation["ponder"],
                         sandbox=isolation["sandbox"], inherit_env=isolation["inherit_env"], backend=where)
    tournament = start(make(config, options, reporter))
    for line in set_up_notes(tournament, local=where.kind == "local",
                             isolation_note=unprotected_note(plan_isolation(tournament.config))):
        console.print(line, markup=False, highlight=False, soft_wrap=not console.is_terminal)
    return tournament, reporter
