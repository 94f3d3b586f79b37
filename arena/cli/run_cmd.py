"""`arena run CONFIG`: a thin click layer over :mod:`arena.tournament` played by the run layer
(:mod:`arena.runs.lifecycle`: set-up, signals, the final flush; the view is :mod:`arena.cli.run_view`).

Exit codes: 0 the run finished (or, for randomMatches without ``matches``, never happens: it ends
with Ctrl-C and 130); 1 a run failed; 2 a usage, config or log-folder mistake (one line, before any
game, or another run holds the log folder); 130 interrupted by Ctrl-C or SIGTERM, 129 by SIGHUP,
after finished games, per-agent files and standings were written. Errors become exits in
:mod:`arena.cli.exits`.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.console import Console

from arena.cli.exits import ArenaCommand, fail
from arena.cli.options import (
    bot_limits,
    chosen_backend,
    isolation_options,
    ray_backend_options,
    read_only_given,
    rules_option,
    sandbox_given,
)
from arena.cli.run_view import set_up
from arena.cli.standings_cmd import _print_nodes, print_json
from arena.errors import ArenaError, ConfigError, ConfigProblems
from arena.limits import MAX_CONCURRENCY, MAX_CONFIG_CONCURRENCY
from arena.process.signals import exit_code_for
from arena.runs.lifecycle import DEFAULT_LOGS, play_to_the_end, signals_exit_at_once
from arena.tournament.config import TournamentConfig, load_config
from arena.tournament.runner import RunSummary
from arena.ui.console import cli_console
from arena.ui.standings import print_standings


@click.command(
    "run",
    cls=ArenaCommand,
    epilog="""\b
Examples:
  arena run configs/checkers_round_robin.json
  arena run my_tournament.json --concurrency 4 --logs runs --json > summary.json
  arena run my_tournament.json --backend ray                      (an embedded Ray instance)
  arena run my_tournament.json --backend ray --ray-address auto   (the cluster `ray start` made)
\b
Config keys: id, agents[] (type executable|hyperparameters|player, id, path) or a roster
{"from": "students/*/"} (one agent per folder: see 'arena roster check'), tournamentType
(roundRobin|randomMatches|gauntlet), game (see 'arena games'), timeLimit, maxMoves, visualize,
gamesPerPair, matches, concurrency, seed, timeMargin, startupTime, moveTimeLimit, increment,
openingPlies, openings, openingsOrder, ponder, sandbox, inheritEnv, backend, rayAddress,
rayCpusPerGame, rayWorkingDir, raySharedFiles, sprt (an SPRT of the first agent against the
second, exit statuses as 'arena sprt'); per agent also env ({"NAME": "value"}). Relative
paths resolve against the config file's folder: in an executable's command, every word that names
an existing file there is made absolute.""",
)
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option("--concurrency", "-j", type=click.IntRange(min=1, max=MAX_CONFIG_CONCURRENCY), default=None,
              help="Games played at once (default: the config's 'concurrency', else the number of cores; "
                   f"capped at {MAX_CONCURRENCY} and by the open-file limit, with a note saying so).")
@click.option("--logs", "logs_root", type=click.Path(file_okay=False), default=None,
              help="Folder that holds the logs: they go to DIR/<id>/ (default: ./tournament_logs).")
@click.option("--workers", type=click.IntRange(min=1, max=MAX_CONCURRENCY), default=None,
              help="Worker processes that play the games when more than one is played at once (local "
                   "backend; default: one a core, at most one a game). One game at a time is played in "
                   "arena's own process.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary on stdout at the end.")
@click.option("--bootstrap", "bootstrap_samples", type=click.IntRange(min=0, max=100_000), default=200,
              show_default=True, help="Bootstrap samples for the Elo intervals.")
@click.option("--set-aside-failing", is_flag=True,
              help="First check every agent as 'arena roster check --probe' does; set aside those that fail "
                   "(each named with why) and play the rest.")
@ray_backend_options(from_config=True)
@isolation_options(from_config=True)
@rules_option()
def run_command(config_path: str, concurrency: int | None, logs_root: str | None, workers: int | None, as_json: bool,
                bootstrap_samples: int, set_aside_failing: bool, backend: str | None, ray_address: str | None,
                ray_cpus: float | None, ponder: bool | None, sandbox: bool | None, inherit_env: bool | None) -> None:
    """Run the tournament described by the JSON file CONFIG.

    Games are written to tournament_logs/<id>/ as they finish. Running the same config again
    resumes: only games missing from games.jsonl are played; one run at a time may use a log folder.
    Ctrl-C (or SIGTERM) stops starting games, cancels the running ones (they are not counted), writes
    the standings and exits with 130 (129 for SIGHUP); a second signal stops at once. If arena itself
    fails (out of file descriptors, disk space...) the run stops with one line and exit 1; the game
    in flight is played again on resume. The checkers seed's tournament files work unchanged.

    With --backend ray each game is a Ray task on a worker; this process still writes every log.
    The folder holding the config and its bots is shipped to the workers (or declare
    'raySharedFiles'); a bot that cannot start on a node stops the run before the first game. A
    cluster that cannot be reached or has no room for a game: one line, exit 1.
    """
    console = cli_console()
    isolation = {"ponder": ponder, "sandbox": sandbox_given(sandbox), "inherit_env": inherit_env}
    backend = chosen_backend(backend, ray_address, ray_cpus)
    with signals_exit_at_once():
        try:
            config = _gated_config(console, config_path, logs_root) if set_aside_failing else load_config(config_path)
        except ConfigError as exc:  # only to add the hint; arena.cli.exits says it
            raise ConfigError(str(exc) + ("" if set_aside_failing else _set_aside_hint(exc))) from None
        if any(agent.type == "player" for agent in config.agents):
            import arena.ui.human  # noqa: F401 - registers the human player with arena.players
        if config.sprt is not None:
            _run_config_sprt(config, Path(logs_root) if logs_root else DEFAULT_LOGS, concurrency,
                             isolation, (backend, ray_address, ray_cpus), as_json=as_json)
        config = dataclasses.replace(config, limits=bot_limits(config.limits),
                                     read_only=read_only_given(config.read_only))
        tournament, reporter = set_up(console, config, concurrency, logs_root, bootstrap_samples,
                                       isolation, (backend, ray_address, ray_cpus), processes=workers)
        ended = play_to_the_end(tournament, on_first_signal=lambda _signum: reporter.stopped())
        summary, failure, signal_number = ended.summary, ended.failure, ended.signal_number
        reporter.close()
        # The results on stdout (`> standings.txt` keeps them), unless --json puts the summary there.
        results = console if as_json else cli_console(stderr=False)
        print_standings(results, summary.standings, str(summary.folder))
        _print_nodes(results, summary.standings)
        for warning in summary.warnings:
            console.print(f"arena: warning: {warning}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
        where = f"logs: {summary.folder}"
        if summary.interrupted:
            console.print(f"interrupted after {summary.finished} of {_of(summary)} games; run the same "
                          f"command again to resume. {where}", markup=False, highlight=False)
        else:
            console.print(f"{summary.finished} of {_of(summary)} games finished. {where}",
                          markup=False, highlight=False)
        if as_json:
            print_json(summary.to_json())
    if failure is not None:
        fail(f"the run failed: {failure}", 1)
    if summary.interrupted:
        sys.exit(exit_code_for(signal_number))


def _set_aside_hint(exc: ArenaError) -> str:
    """A hint at --set-aside-failing when every problem of ``exc`` is an agent entry's own."""
    lines = exc.problems if isinstance(exc, ConfigProblems) else (str(exc),)
    # An entry's own problem names it: agents[3]... or agents: <its folder>/: ...
    if not all(re.match(r"agents\[\d+\]|agents: [^:]*/: ", line) for line in lines):
        return ""
    # One problem stays one line (the house's one-line error); several end with the hint's own line.
    hint = "arena run --set-aside-failing sets aside the agents that fail and plays the others"
    return f" ({hint})" if len(lines) == 1 else f"\n({hint})"


def _gated_config(console: Console, config_path: str, logs_root: str | None = None) -> TournamentConfig:
    """The config at ``config_path`` with the agents that fail the roster check set aside, saying
    which and why (one line each) on stderr, and warning of those too slow for the time control;
    passed probes are kept under the logs folder. Raises ConfigError."""
    import trio

    from arena.tournament.roster_check import passing_config

    console.print("checking every agent first (arena roster check --probe)...", markup=False, highlight=False)
    config, rows = trio.run(lambda: passing_config(config_path, logs_root=Path(logs_root) if logs_root else DEFAULT_LOGS))
    failing = [row for row in rows if not row.ok]
    for row in rows:
        if row.ok and row.warning:
            console.print(f"warning: {row.label}: {row.warning}", markup=False, highlight=False,
                          soft_wrap=not console.is_terminal)
    for row in failing:
        console.print(f"set aside: {row.label}: {row.reason}", markup=False, highlight=False,
                      soft_wrap=not console.is_terminal)
    console.print(f"{len(rows) - len(failing)} of {len(rows)} agents pass the check"
                  + (f"; {len(failing)} set aside" if failing else ""), markup=False, highlight=False)
    return config


def _of(summary: RunSummary) -> str:
    return "an open-ended number of" if summary.total is None else str(summary.total)


def _run_config_sprt(config: TournamentConfig, logs_root: Path, concurrency: int | None,
                    isolation: dict[str, Any],
                    backend: tuple[str | None, str | None, float | None] = (None, None, None), *,
                    as_json: bool) -> NoReturn:
    """Run the SPRT of ``config`` in ``logs_root/<id>/`` and exit as ``arena sprt`` does."""
    from arena.cli.sprt_cmd import run_sprt
    from arena.process.isolation import require_sandbox
    from arena.sprt.config import sprt_settings

    settings = sprt_settings(config, concurrency, isolation, backend)
    if settings.isolation.sandbox:
        require_sandbox("sandbox", settings.isolation.sandbox)
    run_sprt(settings, logs_root / config.id, as_json=as_json, command="arena run")
