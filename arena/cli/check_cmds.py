"""`arena check-record` and `arena check-logs`: replay records and tournament folders against the
rules. Thin: the behaviour (output lines, exit status) is :func:`arena.records.check.run_check_record`
and :func:`arena.records.check.run_check_logs`, which ``scripts/check_*.py`` also run.

Output on stdout, one line per problem (``FILE[n]: ...`` / ``LOGDIR: game 7: ...``) and one summary
line per file or folder that checks out. Exit status 0 when everything checks out, 1 when some
problem was found, 2 when an input is not records or not a log folder (one line on stderr, checked
before anything is printed).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena.cli.exits import ArenaCommand
from arena.cli.options import rules_option


@click.command(
    "check-record",
    cls=ArenaCommand,
    short_help="Replay records against the rules.",
    epilog="""\b
Examples:
  arena match "python3 bots/shobu_random.py" "python3 bots/shobu_random.py" --out game.json
  arena check-record game.json
  arena check-record tournament_logs/*/games/*.json""",
)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@rules_option()
def check_record_command(files: tuple[Path, ...]) -> None:
    """Check game records: each FILE holds one record or a JSON array of records (as `arena match`
    writes them; records of older arenas too, formats 1 to 3). A record checks out when it matches
    its format's schema (arena/schemas/record.schema.json for format 4), every state
    follows from the previous one by its turn under the game's rules, the final position is there,
    the notation and clocks of each turn agree, and the winner matches how the game ended.

    Prints one line per problem, then a line per file that checks out. Exit status: 0 all check
    out, 1 some problem, 2 a file that cannot be read as records."""
    from arena.records.check import run_check_record

    sys.exit(run_check_record(files, sys.stdout, sys.stderr))


@click.command(
    "check-logs",
    cls=ArenaCommand,
    short_help="Check tournament log folders for consistency.",
    epilog="""\b
Examples:
  arena check-logs tournament_logs/checkers-rr
  arena check-logs tournament_logs      # every tournament in it""",
)
@click.argument("logdirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@rules_option()
def check_logs_command(logdirs: tuple[Path, ...]) -> None:
    """Check tournament log folders (tournament_logs/<id>/, or a folder of them): config.json,
    games.jsonl (one line per finished game, indices unique), every game's record (replayed as
    by check-record, and agreeing with its games.jsonl line), each agent's <agentId>.json counts
    and standings.json covering every agent.

    Prints one line per problem, then a line per folder that is consistent. Exit status: 0 all
    consistent, 1 some problem, 2 a path that is not a tournament's log folder."""
    from arena.records.check import run_check_logs

    sys.exit(run_check_logs(logdirs, sys.stdout, sys.stderr))
