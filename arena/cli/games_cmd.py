"""`arena games`: the games arena can play, from the registry (built in and plugins)."""

from __future__ import annotations

import sys

import click
import orjson

from arena.cli.options import rules_option


@click.command("games", epilog="""\b
Examples:
  arena games
  arena games --json | python3 -m json.tool""")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@rules_option()
def games_command(as_json: bool) -> None:
    """List every game arena can play: name, protocol, default move cap, notation, and where it
    comes from (arena itself or a plugin package). Plugins that failed to load are listed with
    the reason, and the exit status is then 1."""
    from arena.games.registry import all_specs, problems

    specs, broken = all_specs(), problems()
    # A built-in game whose module is simply absent is not a user's problem to see.
    if as_json:
        rows = [{"name": s.name, "title": s.title, "protocol": s.protocol_name(),
                 "maxMoves": s.default_max_moves, "notation": s.notation, "summary": s.summary,
                 "origin": s.origin, "search": s.search is not None, "model": s.model,
                 "players": list(s.player_bounds())} for s in specs]
        sys.stdout.buffer.write(orjson.dumps({"games": rows, "problems": broken}, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        table = [("NAME", "PROTOCOL", "MAX MOVES", "FROM", "NOTATION")]
        table += [(s.name, s.protocol_name(), str(s.default_max_moves), s.origin, s.notation) for s in specs]
        widths = [max(len(row[i]) for row in table) for i in range(4)]
        for row in table:
            line = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:4])) + "  " + row[4]
            click.echo(line.rstrip())
        for name, reason in broken.items():
            click.echo(f"arena: cannot use game {name}: {reason}", err=True)
    if broken:
        sys.exit(1)
