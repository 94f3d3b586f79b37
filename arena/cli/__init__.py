"""The `arena` command line: a thin click layer over the core modules.

Only this package maps :class:`arena.errors.ArenaError` to messages and exit codes, in one place:
:mod:`arena.cli.exits` (0 ok, 1 arena or the cluster failed, 2 usage/config/input error, 130
interrupted), applied by every command's click class.

Commands are imported only when run (or when their own help is asked for): ``arena --help`` and
the rules tools never import trio or rich, so they answer in a few tens of milliseconds.

May import: every other package (the CLI is the top layer); only here are errors turned into exits.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import click

from arena import __version__
from arena.cli.exits import ArenaGroup, epilog_table, exit_status

#: name -> (module, command object, one-line summary for ``arena --help``). The summaries live
#: here so listing the commands imports none of them; a test checks they match the commands.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "match": ("arena.cli.match_cmd", "match_command", "Play games between bots (two, or one per seat), or you."),
    "run": ("arena.cli.run_cmd", "run_command", "Run (or resume) a tournament from a JSON config."),
    "league": ("arena.cli.league_cmd", "league_command", "Run a league over a roster folder until stopped."),
    "standings": ("arena.cli.standings_cmd", "standings_command", "Recompute a tournament's standings from its logs."),
    "games": ("arena.cli.games_cmd", "games_command", "List the games arena can play (built in and plugins)."),
    "replay": ("arena.cli.replay_cmd", "replay_command", "Replay a recorded game (terminal or HTML)."),
    "report": ("arena.cli.report_cmd", "report_command", "Write a tournament's games as one HTML file."),
    "serve": ("arena.cli.serve_cmd", "serve_command", "A live web page of a tournament: leaderboard, games, agents."),
    "export": ("arena.cli.export_cmd", "export_command", "Export game records as PDN (checkers)."),
    "sprt": ("arena.cli.sprt_cmd", "sprt_command", "Is NEW stronger than OLD? SPRT on paired games."),
    "openings": ("arena.cli.openings_cmd", "openings_command", "Generate a book of balanced opening positions."),
    "check-bot": ("arena.cli.check_bot_cmd", "check_bot_command", "Check a bot against the protocol and rules."),
    "llr": ("arena.cli.llr_cmd", "llr_command", "Compute SPRT statistics (LLR, Elo, LOS) from counts."),
    "train": ("arena.cli.train_cmd", "train_command", "Learn evaluation weights: TD(lambda) or evolution."),
    "tune": ("arena.cli.tune_cmd", "tune_command", "Tune an agent's numeric hyperparameters (SPSA)."),
    "check-record": ("arena.cli.check_cmds", "check_record_command", "Replay game records against the rules."),
    "check-logs": ("arena.cli.check_cmds", "check_logs_command", "Check tournament log folders for consistency."),
    "upgrade-records": ("arena.cli.upgrade_cmd", "upgrade_records_command",
                        "Rewrite old game records as record format 4."),
    "pass-through": ("arena.cli.rules_cmds", "pass_through_command", "Apply moves to states (JSON lines)."),
    "moves": ("arena.cli.rules_cmds", "moves_command", "List the legal moves of states (JSON lines)."),
    "perft": ("arena.cli.rules_cmds", "perft_command", "Count move sequences to a depth (rules check)."),
    "roster": ("arena.cli.roster_cmd", "roster_group", "Check a tournament's agents: each loads, passes check-bot."),
    "doctor": ("arena.cli.doctor_cmd", "doctor_command", "Say how bots are kept apart on this machine."),
}


class LazyGroup(ArenaGroup):
    """A group whose subcommands are imported on first use (click's documented lazy-loading
    pattern), with summaries from :data:`COMMANDS` for the command list."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, attr, _ = entry
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command), f"{module_name}.{attr} is not a click command"
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, summary) for name, (_, _, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="""\b
Examples:
  arena match "python3 bots/shobu_greedy.py" "python3 bots/shobu_random.py"
  arena match "python3 bots/kuhn_poker_random.py" "python3 bots/kuhn_poker_random.py" "python3 bots/kuhn_poker_heuristic.py"
  arena run configs/checkers_round_robin.json
  arena games
  arena --json-pass-through < examples/rules/gamestate-and-turn.json
""" + epilog_table(),
)
@click.option(
    "--json-pass-through",
    "json_pass_through",
    is_flag=True,
    help="The Shobu seed's spelling of `arena pass-through --game shobu`.",
)
@click.version_option(__version__, prog_name="arena")
@click.pass_context
def cli(ctx: click.Context, json_pass_through: bool) -> None:
    """A command-line arena where game-playing bots, written in any language, play as
    subprocesses: single matches, tournaments with Elo statistics, and rules tools. Games come
    from a registry that plugins extend (see 'arena games')."""
    from arena.errors import show_arena_warnings

    show_arena_warnings()  # one line each, arena: warning: ...
    if json_pass_through:
        if ctx.invoked_subcommand is not None:
            raise click.UsageError("--json-pass-through takes no subcommand")
        from arena.cli.rules_cmds import run_pass_through
        from arena.games.registry import JSON_PASS_THROUGH_GAME

        ctx.exit(run_pass_through(JSON_PASS_THROUGH_GAME))
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


#: Set to 1 to see the traceback of a failure that :func:`main` would otherwise say in one line.
TRACEBACK_ENV = "ARENA_TRACEBACK"


def main(args: Any = None) -> None:
    """Console-script entry point. Ctrl-C before a command's own handling is in place (while its
    modules load, or during parsing) exits 130 with one line, like an interrupted run; click's
    standalone mode would say "Aborted!" and exit 1. A failure no command turned into its own
    message (a referee or plugin that breaks mid-command, a file that cannot be read) is one line
    ``arena: error: ...`` (:func:`failure_line`) and exit 2 for bad input, else 1; with
    ``ARENA_TRACEBACK=1`` its traceback instead."""
    try:
        code = cli.main(args=args, prog_name="arena", standalone_mode=False)
    except click.exceptions.Abort:
        sys.stderr.write("arena: interrupted\n")
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except Exception as error:
        if os.environ.get(TRACEBACK_ENV) == "1":
            raise
        line, status = failure_line(error)
        sys.stderr.write(f"arena: error: {line}\n")
        sys.exit(status)
    sys.exit(code if isinstance(code, int) else 0)


def failure_line(error: BaseException) -> tuple[str, int]:
    """One line for a failure that reached :func:`main`, and its exit status: an
    :class:`arena.errors.ArenaError`'s own message and its status by :mod:`arena.cli.exits` (a
    command normally says it itself; this is the group's own), an OSError's file and reason (1), else the
    exception's type and message, said to be a bug of arena or of a plugin (1). An exception group
    (trio's) is said by its first exception."""
    from arena.errors import ArenaError

    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    text = " ".join(str(error).split())  # one line, whatever the message held
    if isinstance(error, ArenaError):
        return text or type(error).__name__, exit_status(error)
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return f"{where}{error.strerror or text}", 1
    return (f"{type(error).__name__}: {text} (a bug in arena or in a game plugin; "
            f"{TRACEBACK_ENV}=1 shows where)"), 1
