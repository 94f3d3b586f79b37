"""`arena standings LOGDIR`: a tournament's standings recomputed from its log folder, and the
output helpers that `arena run` and `arena league` share with it.

Kept apart from :mod:`arena.cli.run_cmd` so that it imports no trio and no process layer: for a
big log the interpreter's start is part of what the user waits for (issue 24).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
import orjson

from arena.cli.exits import ArenaCommand
from arena.cli.parts import PartName, rating_seam
from arena.tournament.logs import standings_from_folder
from arena.ui.console import cli_console
from arena.ui.tables import print_standings


def print_json(obj: Any) -> None:
    """``obj`` as indented JSON on stdout."""
    sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n")
    sys.stdout.flush()


@click.command(
    "standings",
    cls=ArenaCommand,
    epilog="""\b
Examples:
  arena standings tournament_logs/test
  arena standings tournament_logs/test --json | jq '.standings[0]'
  arena standings tournament_logs/test --rating online-elo""",
)
@click.argument("logdir", metavar="LOGDIR", type=click.Path(file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the standings object (as standings.json) on stdout.")
@click.option("--bootstrap", "bootstrap_samples", type=click.IntRange(min=0, max=100_000), default=200,
              show_default=True, help="Bootstrap samples for the Elo intervals.")
@click.option("--rating", "ratings", multiple=True, type=PartName(rating_seam, "rating"),
              help="Add this rating method's ratings (a column, and the standings' 'ratings' key): "
                   "online-elo, plackett-luce or a plugin's (docs/extending.md). Repeatable.")
def standings_command(logdir: str, as_json: bool, bootstrap_samples: int, ratings: tuple[str, ...]) -> None:
    """Recompute the standings of a tournament from its log folder alone (games.jsonl and
    config.json): Bradley-Terry Elo with 95% intervals, W/D/L, the seed's ratings, the crosstable
    with likelihood of superiority, and how games ended."""
    standings, stats = standings_from_folder(Path(logdir), bootstrap_samples, ratings)
    if as_json:
        print_json({**standings, "agents": stats})
    else:
        out = cli_console(stderr=False)
        print_standings(out, standings, logdir)
        _print_nodes(out, standings)


def _print_nodes(console: Any, standings: dict[str, Any]) -> None:
    """``Games per node: ...`` when games ran on a cluster (standings' ``nodes``)."""
    nodes = standings.get("nodes")
    if nodes:
        console.print("Games per node: " + ", ".join(
            f"{n['ip']} {n['node'][:8]} ({n['hostname']}) {n['games']}" for n in nodes),
            markup=False, highlight=False, soft_wrap=not console.is_terminal)


