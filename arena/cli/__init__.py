"""The `arena` command line: a thin click layer over the core modules.

Only this package maps :class:`arena.errors.ArenaError` to messages and exit codes
(0 ok, 1 a run failed, 2 usage/config/input error, 130 interrupted).
"""

from __future__ import annotations

import click

from arena import __version__
from arena.cli.match_cmd import match_command
from arena.cli.rules_cmds import moves_command, pass_through_command, perft_command, run_pass_through
from arena.cli.run_cmd import run_command, standings_command


@click.group(
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="""\b
Examples:
  arena match "python3 bots/shobu_greedy.py" "python3 bots/shobu_random.py"
  arena run configs/checkers_round_robin.json
  arena --json-pass-through < gamestate-and-turn.json""",
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
    """A command-line arena where Shobu and checkers bots, written in any language, play as
    subprocesses: single matches, tournaments with Elo statistics, and rules tools."""
    if json_pass_through:
        if ctx.invoked_subcommand is not None:
            raise click.UsageError("--json-pass-through takes no subcommand")
        ctx.exit(run_pass_through("shobu"))
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


cli.add_command(match_command)
cli.add_command(run_command)
cli.add_command(standings_command)
cli.add_command(pass_through_command)
cli.add_command(moves_command)
cli.add_command(perft_command)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="arena")
