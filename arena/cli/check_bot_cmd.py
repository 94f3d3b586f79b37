"""`arena check-bot CMD --game G`: a conformance report for one bot (see :mod:`arena.tools.check_bot`)."""

from __future__ import annotations

import sys
from typing import Any

import click

from arena.cli.exits import ArenaCommand
from arena.cli.options import game_option, probe_options, table_options


@click.command(cls=ArenaCommand, name="check-bot", short_help="Check a bot against the protocol and rules.", epilog="""\b
Examples:
  arena check-bot "python3 bots/checkers_greedy.py" --game checkers
  arena check-bot ./my_bot --game checkers --json
  arena check-bot "python3 bots/kuhn_poker_random.py" --game kuhn_poker --players 3
  arena check-bot students/alice/   (a bot folder: its bot.json's command and game)""")
@click.argument("command")
@game_option(from_bots=True)
@table_options()
@click.option("--legal-moves", is_flag=True, help="N-seat games: the bot's messages list its legal moves.")
@probe_options()
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object (for CI).")
def check_bot_command(command: str, game_name: str | None, players: int | None, params: tuple[str, ...], legal_moves: bool,
                      time_limit: int, games: int, seed: int, as_json: bool) -> None:
    """Check that the bot COMMAND plays GAME correctly: start-up, replies in corner positions of the
    protocol (playing WHITE, single and few legal moves, captures, crowning), whole games against
    arena's random agent; every reply legal, alone on stdout, flushed and in time. Any game, a
    plugin's or OpenSpiel's too, also gets probes found in the game itself: a forced pass, a single
    legal move, a chance outcome, a simultaneous move, a seat out, every seat, and the game's own
    corner cases. Prints a checklist with the reason and a hint for each failure, and where a whole
    game failed; stops once the same failure came twice; exit 0 when all pass, 1 otherwise. COMMAND
    may be a bot folder (its bot.json's command, else its executable 'bot'). Without --game (or
    --rules) the game is the one its bot.json declares, else the one its command names, else shobu;
    a line on stderr says which."""
    import orjson
    import trio

    from arena.cli.options import bot_argument, game_of_bots, game_parameters
    from arena.games.base import GameError
    from arena.tools.check_bot import check_bot

    game = game_of_bots(game_name, [command])
    kind, argv_text, bot_id = bot_argument(command, "COMMAND", game)
    if kind != "executable":
        raise click.UsageError(f"COMMAND: {command!r} is a hyperparameters file: check-bot checks a program")
    chosen = game_parameters(params)
    try:
        checks: list[Any] = trio.run(lambda: check_bot(argv_text, game, time_limit_ms=time_limit, games=games,
                                                       seed=seed, players=players, params=chosen,
                                                       legal_moves=legal_moves, bot_id=bot_id))
    except GameError as exc:
        raise click.UsageError(str(exc)) from None
    run = [c for c in checks if not c.skipped]
    failed = [c for c in run if not c.ok]
    if as_json:
        sys.stdout.buffer.write(orjson.dumps({"game": game, "command": command, "id": bot_id, "ok": not failed,
                                              "checks": [c.to_json() for c in checks]},
                                             option=orjson.OPT_INDENT_2) + b"\n")
    else:
        click.echo(f"checking {bot_id!r} ({argv_text}) playing {game}")
        for check in checks:
            mark = "·" if check.skipped else "✓" if check.ok else "✗"
            click.echo(f"{mark} {check.name}: {check.detail}")
            if check.position is not None:
                click.echo(f"  at ply {check.ply}, the position:")
                click.echo("\n".join(f"    {line}" for line in check.position.splitlines()))
        click.echo(f"{len(run) - len(failed)} of {len(run)} checks passed" + (
            "" if not failed else f"; {len(failed)} failed"))
    sys.exit(1 if failed else 0)
