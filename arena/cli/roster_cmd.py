"""`arena roster ...`: commands over a tournament's agents (:mod:`arena.tournament.roster_check`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena.cli.exits import ArenaGroup
from arena.cli.options import probe_options

#: Widest command shown in the table (the JSON has it whole).
COMMAND_WIDTH = 60


def short_command(command: str, width: int = COMMAND_WIDTH) -> str:
    """``command`` in at most ``width`` characters, still saying what runs: a longer command's
    paths are cut to their last part (``python3 …/alice/bot.py``, as ``bot.py`` in ``alice``:
    names of one class differ in their folders, not in ``../../``), then its end is cut ("…")."""
    import shlex

    if len(command) <= width:
        return command
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: the words as they stand
        words = command.split()
    short = []
    for word in words:
        parts = [p for p in word.split("/") if p not in ("", ".", "..")]
        short.append("…/" + "/".join(parts[-2:]) if len(parts) > 2 or (parts and word.startswith(("../", "/")))
                     else word)
    text = " ".join(short)
    return text if len(text) <= width else text[:width - 1] + "…"


@click.group(cls=ArenaGroup, name="roster", short_help="Check a tournament's agents: each loads, passes check-bot.")
def roster_group() -> None:
    """Commands over the agents of a tournament config: a list of agents or a roster of bot
    folders ("agents": {"from": "students/*/"}; see docs/reference/tournament-config.md)."""


@roster_group.command("check", epilog="""\b
Examples:
  arena roster check class.json
  arena roster check class.json --probe
  arena roster check class.json --probe --json > gate.json""")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option("--probe", is_flag=True, help="Also run 'arena check-bot' on each bot that loads, one at a time.")
@probe_options("With --probe: ")
@click.option("--logs", "logs_root", type=click.Path(file_okay=False), default="tournament_logs", show_default=True,
              help="With --probe: passed probes are kept in LOGS/.probes/, one per version of a bot.")
@click.option("--again", is_flag=True, help="With --probe: probe every bot, even a version whose passed probe is kept.")
@click.option("--json", "as_json", is_flag=True, help="Print every entry as one JSON object on stdout (for CI).")
def check_command(config_path: str, probe: bool, time_limit: int, games: int, seed: int, logs_root: str, again: bool,
                  as_json: bool) -> None:
    """Check every agent of the tournament CONFIG: whether it loads (its folder, bot.json, command,
    program) and, with --probe, whether it passes 'arena check-bot'. Prints a table (id, command, ✓
    or the reason); exit 0 when every entry passes, 1 otherwise, 2 when the config cannot be read as
    far as its agents."""
    import orjson
    import trio

    from arena.tournament.config import read_config
    from arena.tournament.roster_check import EntryCheck, load_entries, probe_entries, probe_setting

    def row(entry: EntryCheck) -> None:
        if not as_json:
            command = short_command(entry.command)
            click.echo(f"{entry.label:<{width}}  {command or '-':<{min(COMMAND_WIDTH, wide)}}  "
                       f"{'✓' if entry.ok else '✗ ' + (entry.reason or '')}"
                       + (" (kept: unchanged since its probe)" if entry.kept else "")
                       + (f"; warning: {entry.warning}" if entry.warning else ""))

    view, rows = load_entries(config_path)
    width = max(len(r.label) for r in rows)
    wide = max(len(r.command) for r in rows) or 1
    if not as_json:
        click.echo(f"{'id':<{width}}  {'command':<{min(COMMAND_WIDTH, wide)}}  {'check-bot' if probe else 'loads'}")
    if probe:
        obj, base_dir = read_config(config_path)
        setting = probe_setting(obj, base_dir, Path(logs_root), time_limit_ms=time_limit, games=games, seed=seed,
                                again=again)
        rows = trio.run(lambda: probe_entries(view, rows, done=row, setting=setting))
    else:
        for entry in rows:
            row(entry)
    failed = [r for r in rows if not r.ok]
    if as_json:
        sys.stdout.buffer.write(orjson.dumps({"config": config_path, "game": view.game, "probed": probe,
                                              "ok": not failed, "entries": [r.to_json() for r in rows]},
                                             option=orjson.OPT_INDENT_2) + b"\n")
    else:
        click.echo(f"{len(rows) - len(failed)} of {len(rows)} entries pass" + (f"; {len(failed)} fail" if failed else ""))
    sys.exit(1 if failed else 0)
