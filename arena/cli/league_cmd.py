"""`arena league CONFIG`: a league over a roster folder that keeps running (:mod:`arena.tournament.league`).

A thin click layer: the run's lifecycle (:mod:`arena.runs.lifecycle`), its view
(:mod:`arena.cli.run_view`), its summary and exit codes are ``arena run``'s: 0 when it stopped at ``--games``/``--rounds`` (or the field fell below
two agents), 1 a run failed, 2 a usage, config or log-folder mistake, 130 Ctrl-C or SIGTERM (129
SIGHUP) after the finished games and standings were written. ``--serve`` runs ``arena serve`` on
the league's folder beside it (a child process it ends when the league ends).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import click

from arena.cli.exits import ArenaCommand, fail
from arena.cli.options import (
    bot_limits,
    chosen_backend,
    isolation_options,
    ray_backend_options,
    read_only_given,
    sandbox_given,
)
from arena.cli.run_view import set_up
from arena.cli.standings_cmd import print_json
from arena.limits import MAX_CONFIG_CONCURRENCY, MAX_GAMES
from arena.process.signals import exit_code_for
from arena.runs.lifecycle import play_to_the_end, signals_exit_at_once
from arena.ui.console import cli_console
from arena.ui.standings import print_standings


@click.command(cls=ArenaCommand, name="league", epilog="""\b
Examples:
  arena league league.json                  (until Ctrl-C; run it again to resume)
  arena league league.json --games 200      (stop once the folder holds 200 games)
  arena league league.json --serve          (and the live page at http://127.0.0.1:8000/)
\b
CONFIG is a tournament config whose agents are a roster: {"id": "class", "game": GAME,
"agents": {"from": "bots/*/"}} (add "players": N for a game of N seats: tables of N agents). Add a folder to have a bot join, change its files to have it play
on as a new version, remove it to have it leave: the league sees it before its next game.""")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option("--games", type=click.IntRange(min=1, max=MAX_GAMES), default=None,
              help="Stop once the league's folder holds this many games (all versions; a resumed "
                   "league plays the rest).")
@click.option("--rounds", type=click.IntRange(min=1, max=MAX_GAMES), default=None,
              help="Stop once every two agents of the current field have met this many times (a game "
                   "of N seats: every group of N agents has played this many games).")
@click.option("--bound", type=click.IntRange(min=1, max=MAX_GAMES), default=2, show_default=True,
              help="Keep every agent within this many games of the others (an agent that joins late "
                   "catches up first).")
@click.option("--rescan", "rescan_s", type=click.FloatRange(min=0), default=2.0, show_default=True,
              help="Read the roster again at most every this many seconds (0: before every game).")
@click.option("--concurrency", "-j", type=click.IntRange(min=1, max=MAX_CONFIG_CONCURRENCY), default=None,
              help="Games played at once (default: the config's 'concurrency', else the number of cores).")
@click.option("--logs", "logs_root", type=click.Path(file_okay=False), default=None,
              help="Folder that holds the logs: they go to DIR/<id>/ (default: ./tournament_logs).")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary on stdout at the end.")
@click.option("--bootstrap", "bootstrap_samples", type=click.IntRange(min=0, max=100_000), default=200,
              show_default=True, help="Bootstrap samples for the Elo intervals.")
@click.option("--serve", "serve", is_flag=True, help="Also serve the live page of the league ('arena serve').")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port of --serve's page (on 127.0.0.1).")
@ray_backend_options(from_config=True)
@isolation_options(from_config=True)
def league_command(config_path: str, games: int | None, rounds: int | None, bound: int, rescan_s: float,
                   concurrency: int | None, logs_root: str | None, as_json: bool, bootstrap_samples: int,
                   serve: bool, port: int, backend: str | None, ray_address: str | None, ray_cpus: float | None,
                   ponder: bool | None, sandbox: bool | None, inherit_env: bool | None) -> None:
    """Run a league over the roster of CONFIG until Ctrl-C (or --games / --rounds).

    Between games the roster is read again: new folders join, changed bots play on as a new
    version, removed folders leave; each change is one line. The next game is the one that tells
    most (new and uncertain agents first, then the pair whose result is least certain) while every
    agent's game count stays within --bound of the others'. standings.json is kept up to date as
    games finish (of the current versions' games), so 'arena standings' and 'arena serve' work on
    the folder while it runs. Running the same command again resumes; a game cut off (Ctrl-C,
    kill -9) is not counted, and none is counted twice.
    """
    from arena.process.spawn import prepare as _  # noqa: F401 - the run's own imports, before the clock
    from arena.tournament.league import League, LeagueSettings, load_league

    console = cli_console()

    def note(line: str) -> None:
        console.print(f"league: {line}", markup=False, highlight=False, soft_wrap=not console.is_terminal)

    isolation = {"ponder": ponder, "sandbox": sandbox_given(sandbox), "inherit_env": inherit_env}
    chosen = chosen_backend(backend, ray_address, ray_cpus)
    settings = LeagueSettings(games=games, rounds=rounds, bound=bound, rescan_s=rescan_s)
    with signals_exit_at_once():
        league = load_league(config_path)
        for line in league.set_aside:
            note(f"set aside: {line}")
        config = dataclasses.replace(league.config, limits=bot_limits(league.config.limits),
                                     read_only=read_only_given(league.config.read_only))
        league = dataclasses.replace(league, config=config)

        def make(_config: Any, options: Any, reporter: Any) -> League:
            return League(league, options, reporter, settings, notes=note)

        run, reporter = set_up(console, config, concurrency, logs_root, bootstrap_samples, isolation,
                                (chosen, ray_address, ray_cpus), make=make)
        if rounds is not None and games is None:  # a known end, though not a number of games
            reporter.open_end = f"for {rounds} round{'s' if rounds != 1 else ''}"
        assert isinstance(run, League)
        page = _start_page(run.folder, port) if serve else None
        try:
            ended = play_to_the_end(run, on_first_signal=lambda _signum: reporter.stopped())
        finally:
            if page is not None:
                page.terminate()
                page.wait()
        reporter.close()
        summary, failure, signal_number = ended.summary, ended.failure, ended.signal_number
        # The results on stdout (`> standings.txt` keeps them), unless --json puts the summary there.
        print_standings(console if as_json else cli_console(stderr=False), summary.standings, str(summary.folder))
        counts = run.game_counts()
        for aid, entry in counts.items():
            console.print(f"{aid}: {entry['games']} games that count (version {entry['version']}; "
                          f"{entry['all_versions']} in the folder under any version)", markup=False, highlight=False)
        for warning in summary.warnings:
            console.print(f"arena: warning: {warning}", markup=False, highlight=False)
        state = "interrupted" if summary.interrupted else "stopped"
        console.print(f"league {state} with {summary.finished} games in the folder ({summary.played_now} played in this run); "
                      f"run the same command again to go on. logs: {summary.folder}", markup=False, highlight=False)
        if as_json:
            print_json({**summary.to_json(), "field": counts, "changes": run.changes})
    if failure is not None:
        fail(f"the run failed: {failure}", 1)
    if summary.interrupted:
        sys.exit(exit_code_for(signal_number))


def _start_page(folder: Path, port: int) -> subprocess.Popen[bytes] | None:
    """``arena serve FOLDER --port PORT`` as a child (None, with a line, without arena[serve])."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        from arena import install_hint

        click.echo(f"arena: warning: --serve needs the extra arena[serve] ({install_hint('serve')}); "
                   "the league runs without its page", err=True)
        return None
    return subprocess.Popen([sys.executable, "-m", "arena", "serve", str(folder), "--port", str(port)])


__all__ = ["league_command"]
