"""`arena games`: the games arena can play, from the registry (built in, plugins, and the families
of ``PREFIX:NAME`` games such as OpenSpiel's)."""

from __future__ import annotations

import sys
import textwrap
from typing import Any

import click
import orjson

from arena.cli.exits import ArenaCommand
from arena.cli.options import rules_option


@click.command(cls=ArenaCommand, name="games", epilog="""\b
Examples:
  arena games
  arena games --all
  arena games --json | python3 -m json.tool""")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@rules_option()
@click.option("--all", "show_all", is_flag=True,
              help="One row for each game of the PREFIX:NAME families too (OpenSpiel's spiel:NAME), not only "
                   "their names.")
def games_command(as_json: bool, show_all: bool) -> None:
    """List every game arena can play: name, protocol, default move cap, notation, and where it
    comes from (arena itself or a plugin package), then the names of the games of the families
    named PREFIX:NAME (OpenSpiel's games, spiel:NAME, with the extra arena[openspiel]), or the one
    line to install them. Plugins that failed to load are listed with the reason, and the exit
    status is then 1."""
    from arena.games.base import GameError
    from arena.games.registry import all_specs, get_spec, problems, provided_games
    from arena.referee.registration import REFEREE_ORIGIN

    specs, broken, families = list(all_specs()), problems(), provided_games()
    refused: dict[str, str] = {}  # games of a family that its library lists but arena cannot play
    for name in [name for names, _ in families.values() for name in names] if show_all else []:
        try:
            specs.append(get_spec(name))
        except GameError as exc:
            refused[name] = str(exc)
    if as_json:
        rows = [_row(s) for s in specs]
        shown = {prefix: {"games": [n for n in names if n not in refused], "problem": why}
                 for prefix, (names, why) in families.items()}
        sys.stdout.buffer.write(orjson.dumps({"games": rows, "problems": broken, "families": shown},
                                             option=orjson.OPT_INDENT_2) + b"\n")
    else:
        # A referee's origin is its whole command, absolute paths and all: a line of its own below
        # the table, so that the FROM column stays as narrow as a word.
        commands = {s.name: s.origin for s in specs if s.origin.startswith(REFEREE_ORIGIN)}
        table = [("NAME", "PROTOCOL", "MAX MOVES", "FROM", "NOTATION")]
        table += [(s.name, s.protocol_name(), str(s.default_max_moves),
                   "--rules" if s.name in commands else s.origin, s.notation) for s in specs]
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        for row in table:
            line = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4]
            click.echo(line.rstrip())
        for name, origin in commands.items():
            click.echo(f"{name}: {origin}")
        for prefix, (names, why) in families.items():
            click.echo("")
            if why is not None:
                click.echo(why)
            elif not show_all:
                click.echo(f"{prefix}:NAME games ({len(names)}; 'arena games --all' shows a row for each):")
                click.echo(textwrap.fill(", ".join(names), width=100, initial_indent="  ", subsequent_indent="  ",
                                         break_on_hyphens=False))
        for name, reason in broken.items():
            click.echo(f"arena: cannot use game {name}: {reason}", err=True)
        for reason in refused.values():
            click.echo(f"arena: not listed: {reason}", err=True)
    if broken:
        sys.exit(1)


def _row(spec: Any) -> dict[str, Any]:
    from arena.agents.parts import search_ref

    return {"name": spec.name, "title": spec.title, "protocol": spec.protocol_name(),
            "maxMoves": spec.default_max_moves, "notation": spec.notation, "summary": spec.summary,
            "origin": spec.origin, "search": search_ref(spec) is not None, "model": spec.model,
            "players": list(spec.player_bounds())}
