"""`arena run CONFIG` and `arena standings LOGDIR`: a thin click layer over :mod:`arena.tournament`.

Exit codes: 0 the run finished (or, for randomMatches without ``matches``, never happens: it ends
with Ctrl-C and 130); 1 a run failed; 2 a usage, config or log-folder mistake (one line, before any
game, or another run holds the log folder); 130 interrupted by Ctrl-C or SIGTERM, 129 by SIGHUP,
after finished games, per-agent files and standings were written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator
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
)
from arena.cli.standings_cmd import _print_json, _print_nodes
from arena.errors import ArenaError, ConfigError, ConfigProblems
from arena.limits import MAX_CONCURRENCY, MAX_CONFIG_CONCURRENCY
from arena.process.bot import kill_all_live_groups
from arena.process.isolation import unprotected_note
from arena.process.signals import Interruption, exit_code_for, run_trio_interruptibly
from arena.process.spawn import prepare as prepare_spawning
from arena.tournament.config import TournamentConfig, load_config
from arena.tournament.plan import isolation as plan_isolation
from arena.tournament.runner import Reporter, RunOptions, RunSummary, Tournament, backend_options, effective_concurrency
from arena.ui.console import cli_console
from arena.ui.standings import BoardObserver, PlainReporter, RichReporter, print_standings

DEFAULT_LOGS = Path("tournament_logs")


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
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary on stdout at the end.")
@click.option("--bootstrap", "bootstrap_samples", type=click.IntRange(min=0, max=100_000), default=200,
              show_default=True, help="Bootstrap samples for the Elo intervals.")
@click.option("--set-aside-failing", is_flag=True,
              help="First check every agent as 'arena roster check --probe' does; set aside those that fail "
                   "(each named with why) and play the rest.")
@ray_backend_options(from_config=True)
@isolation_options(from_config=True)
@rules_option()
def run_command(config_path: str, concurrency: int | None, logs_root: str | None, as_json: bool,
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
    isolation = {"ponder": ponder, "sandbox": sandbox, "inherit_env": inherit_env}
    backend = chosen_backend(backend, ray_address, ray_cpus)
    with _signals_exit_at_once():
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
        tournament, reporter = _set_up(console, config, concurrency, logs_root, bootstrap_samples,
                                       isolation, (backend, ray_address, ray_cpus))
        summary, failure, signal_number = _run(tournament, reporter)
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
            _print_json(summary.to_json())
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


def _set_up(console: Console, config: TournamentConfig, concurrency: int | None, logs_root: str | None,
            bootstrap_samples: int, isolation: dict[str, bool | None],
            backend: tuple[str | None, str | None, float | None] = (None, None, None),
            make: Callable[[TournamentConfig, RunOptions, Reporter], Tournament] = Tournament,
            ) -> tuple[Tournament, RichReporter | PlainReporter]:
    """Choose the terminal view, open the logs and the backend. Raises ArenaError (ClusterError
    when the Ray cluster cannot be used). ``make`` builds the run (a league's, :mod:`arena.cli.league_cmd`)."""
    where = backend_options(config, *backend)
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
    tournament = make(config, options, reporter)
    tournament.prepare()
    change = tournament.field_change
    if change is not None and (change.changed or change.kept or change.history):
        for line in change.lines():  # what changed in the field and what will be played, before play
            console.print(line, markup=False, highlight=False, soft_wrap=not console.is_terminal)
    note = unprotected_note(plan_isolation(tournament.config))
    if note:
        console.print(f"warning: {note}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    if tournament.concurrency_note:
        console.print(f"note: {tournament.concurrency_note}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    described = tournament.backend.describe() if tournament.backend is not None else None
    if described:
        console.print(f"note: {described}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    cores = os.cpu_count() or 1
    if tournament.concurrency > cores and where.kind == "local":
        console.print(f"note: concurrency {tournament.concurrency} is above the {cores} cores: bots thinking "
                      "at the same time share cores while their clocks run", markup=False, highlight=False)
    # The guardian and the spawner thread start now, not while the first games' clocks run.
    prepare_spawning()
    return tournament, reporter


def _of(summary: RunSummary) -> str:
    return "an open-ended number of" if summary.total is None else str(summary.total)


def _run(tournament: Tournament,
         reporter: RichReporter | PlainReporter) -> tuple[RunSummary, str | None, int | None]:
    """Play under signal handling; always write the final statistics.

    Returns (summary, failure, the signal that stopped the run). The final flush runs inside the
    signal watcher (shielded), so a first signal that lands while it runs lets it finish, and a
    second one still stops at once.
    """
    outcome: dict[str, Any] = {}
    seen = Interruption()

    async def main() -> None:
        failure: str | None = None
        try:
            await tournament.play()
        except ArenaError as exc:
            failure = str(exc)
        # A bug must not lose the finished games' statistics nor show a traceback.
        except Exception as exc:  # noqa: BLE001
            failure = f"{type(exc).__name__}: {exc}"
        finally:
            outcome["summary"] = await tournament.finish(interrupted=seen.interrupted)
            outcome["failure"] = failure

    run_trio_interruptibly(main, on_first_signal=lambda _signum: reporter.stopped(), interruption=seen)
    return outcome["summary"], outcome["failure"], seen.signal_number


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _exit_now(signum: int, frame: Any) -> None:
    """A stop signal outside the tournament's own watcher: before the first game or after the last
    write, so there is nothing left to flush."""
    kill_all_live_groups()
    os.write(2, b"\narena: interrupted\n")
    os._exit(exit_code_for(signum))


@contextlib.contextmanager
def _signals_exit_at_once() -> Iterator[None]:
    """Install :func:`_exit_now` for SIGINT, SIGTERM and SIGHUP (restored afterwards). trio keeps a
    handler it finds installed, and the watcher replaces it only while games run."""
    previous = {sig: signal.signal(sig, _exit_now) for sig in _STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _run_config_sprt(config: TournamentConfig, logs_root: Path, concurrency: int | None,
                    isolation: dict[str, bool | None],
                    backend: tuple[str | None, str | None, float | None] = (None, None, None), *,
                    as_json: bool) -> NoReturn:
    """Run the SPRT of ``config`` in ``logs_root/<id>/`` and exit as ``arena sprt`` does."""
    from arena.cli.sprt_cmd import run_sprt
    from arena.process.isolation import require_sandbox
    from arena.sprt.config import sprt_settings

    settings = sprt_settings(config, concurrency, isolation, backend)
    if settings.isolation.sandbox:
        require_sandbox("sandbox")
    run_sprt(settings, logs_root / config.id, as_json=as_json, needs_seed=False, command="arena run")
