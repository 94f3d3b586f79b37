"""`arena match CMD1 CMD2 [MORE...]`: play one or more games between bot commands (two, or one per seat).

Output contract: one game -> its record (a JSON object) on stdout; several -> a JSON array of
records. With ``--out PATH`` the same JSON goes to that file instead (stdout stays empty). When
stdout is a terminal (and neither ``--out`` nor ``--json`` is given) nobody wants hundreds of lines
of JSON there: the records go to ``match_logs/<time>-<id1>-vs-<id2>.json`` and a line says so.
Progress, the board and a one-line summary per game go to stderr. A program, or the script its
interpreter runs, that cannot be found is a usage error (exit 2) before any game; a bot that starts
and then fails is a recorded game (e.g. ``crash``).
Exit codes: 0 games were played (whatever the results), 1 arena itself failed (e.g. out of file
descriptors; the records of finished games are still written), 2 usage error, 130 interrupted by
Ctrl-C or SIGTERM, 129 by SIGHUP (the records of finished games are still written, the interrupted
game is dropped).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import click
import orjson

from arena.cli.exits import ArenaCommand
from arena.cli.options import (
    agent_spec,
    bot_argument,
    chosen_isolation,
    distinct_ids,
    game_of_bots,
    game_option,
    isolation_options,
    rules_for,
    table_options,
)
from arena.fileio.files import atomic_write, make_folders, open_beneath, output_refusal
from arena.games import get_game
from arena.limits import (
    DEFAULT_HUMAN_TIME_LIMIT_MS,
    DEFAULT_STARTUP_MS,
    DEFAULT_TIME_LIMIT_MS,
    DEFAULT_TIME_MARGIN_MS,
    MAX_GAMES,
    MAX_MOVES,
    MAX_SEED,
    MAX_TIME_MS,
)
from arena.match.clock import TimeControl
from arena.match.pairs import Openings
from arena.match.series import Series, SeriesOutcome, describe, draw_seed, run_series, standings
from arena.ui.console import MatchView, cli_console, result_line

EPILOG = """\b
Examples:
  arena match "python3 bots/bot1.py" bots/bot2   (shobu, the default game: a line says so)
  arena match "python3 bots/shobu_greedy.py" "python3 bots/shobu_random.py" --game shobu
  arena match ./my_bot "python3 bots/checkers_random.py" --game checkers --games 4 --time-limit 10000
  arena match "python3 a.py" "python3 b.py" --game checkers --games 2 --out records.json
  arena match students/alice/ students/bob/   (bot folders: each bot.json's command and game)
  arena match human "python3 bots/checkers_greedy.py" --game checkers   (you play BLACK)
  arena match configs/hyperparameters_connect4.json "python3 bots/connect4_greedy.py" --game connect4

\b
A command that is exactly the word `human` is you, at this terminal: the board is drawn on stderr,
you type moves on stdin (`?` lists the legal moves, `help` explains the notation). A command that
names an existing .json file is arena's built-in search agent configured by that hyperparameters
file (see README, "The hyperparameters agent"). A command that names a folder is the bot in it (its
bot.json's command, else its executable 'bot'), named after the folder. Without --game (or --rules)
the game is the one the bots' folders declare (bot.json: {"game": NAME}, a name `arena games`
lists), else the one game their commands name (checkers_random.py: checkers), else shobu; a line
on stderr says which. A bot of another game is told so in its game's reason within seconds.
"""


HUMAN = "human"


def _is_human(command: str) -> bool:
    return command.strip().lower() == HUMAN


def _dump(records: list[dict[str, Any]], single: bool) -> bytes:
    payload: Any = records[0] if single else records
    return orjson.dumps(payload, option=orjson.OPT_INDENT_2) + b"\n"


@click.command(cls=ArenaCommand, name="match", epilog=EPILOG)
@click.argument("cmd1")
@click.argument("cmd2")
@click.argument("more", nargs=-1)
@game_option(from_bots=True)
@table_options("Seats, for a game of more than two players (see 'arena games'): give that many commands. "
               "Default: the number of commands given.")
@click.option("--legal-moves", is_flag=True,
              help="N-seat games: each bot's message lists its legal moves (for simple bots).")
@click.option("--games", "games_count", type=click.IntRange(min=1, max=MAX_GAMES), default=1, show_default=True,
              help="Number of games; colours alternate game by game (CMD1 is BLACK in the first, game 0).")
@click.option("--time-limit", type=click.IntRange(min=1, max=MAX_TIME_MS), default=None,
              help=f"Each side's thinking budget for the whole game, in ms. Default: "
                   f"{DEFAULT_TIME_LIMIT_MS}, or {DEFAULT_HUMAN_TIME_LIMIT_MS} when a human plays.")
@click.option("--max-moves", type=click.IntRange(min=1, max=MAX_MOVES), default=None,
              help="Move cap (a draw when reached). Default: the game's (see 'arena games').")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=None, help="Seed for the random openings (recorded).")
@click.option("--opening-plies", type=click.IntRange(min=0, max=MAX_MOVES), default=0, show_default=True,
              help="Random legal plies played before the bots take over (same opening for each "
                   "colour-swapped pair of games).")
@click.option("--openings", "openings_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Opening book (JSONL: a state object or {\"moves\": [...]} per line, e.g. from "
                   "'arena openings'); each colour-swapped pair of games starts from one of its positions.")
@click.option("--openings-order", type=click.Choice(["random", "sequential"]), default="random", show_default=True,
              help="Which book position each pair gets: seeded random (--seed) or in file order.")
@click.option("--time-margin", type=click.IntRange(min=0, max=MAX_TIME_MS), default=DEFAULT_TIME_MARGIN_MS, show_default=True,
              help="Grace for OS jitter in ms (never added to the budget).")
@click.option("--startup-time", type=click.IntRange(min=0, max=MAX_TIME_MS), default=DEFAULT_STARTUP_MS, show_default=True,
              help="Uncharged start-up allowance for each bot's first reply, in ms.")
@click.option("--move-time-limit", type=click.IntRange(min=1, max=MAX_TIME_MS), default=None, help="Hard cap per move, in ms.")
@click.option("--increment", type=click.IntRange(min=0, max=MAX_TIME_MS), default=0, show_default=True,
              help="Added to a bot's budget after each of its moves, in ms.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the record (one game) or the JSON array (several) to this file instead of stdout.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the records as JSON on stdout even when it is a terminal (otherwise, on a "
                   "terminal, they are saved under match_logs/ and the path is shown).")
@click.option("--stderr-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep each bot's stderr in this folder (capped), one file per game and colour.")
@click.option("--quiet", "-q", is_flag=True, help="No live view; only the result lines on stderr.")
@isolation_options(from_config=False)
def match_command(
    cmd1: str,
    cmd2: str,
    more: tuple[str, ...],
    game_name: str | None,
    players: int | None,
    params: tuple[str, ...],
    legal_moves: bool,
    games_count: int,
    time_limit: int | None,
    max_moves: int | None,
    seed: int | None,
    opening_plies: int,
    time_margin: int,
    startup_time: int,
    move_time_limit: int | None,
    increment: int,
    out: Path | None,
    as_json: bool,
    openings_file: Path | None,
    openings_order: str,
    stderr_dir: Path | None,
    quiet: bool,
    ponder: bool | None,
    sandbox: bool | None,
    inherit_env: bool | None,
) -> None:
    """Play games between the bot commands CMD1, CMD2 and MORE: two for a two-player game, one per
    seat for a game of more players (each split like a shell would, never run through a shell; a
    single path to an executable works too). Records go to stdout as JSON; the board and the
    results go to stderr."""
    if as_json and out is not None:
        raise click.UsageError("--json prints the records on stdout and --out writes them to a file: give one")
    if stderr_dir is not None and stderr_dir.exists() and not stderr_dir.is_dir():
        raise click.BadParameter(f"{stderr_dir} exists and is not a folder", param_hint="--stderr-dir")
    refusal = output_refusal(out) if out is not None else None
    if refusal is not None:
        # Checked before any game (atomic_write refuses it again when writing, after the games).
        raise click.BadParameter(f"{out}: {refusal.strerror}; give a file path, or leave --out out to get "
                                 "the records on stdout", param_hint="--out")
    from arena.games.registry import GENERAL, configured_game, get_spec

    commands = (cmd1, cmd2, *more)
    humans = [_is_human(command) for command in commands]
    game_name = game_of_bots(game_name, [c for c, human in zip(commands, humans, strict=True) if not human])
    n_seats = get_spec(game_name).model == GENERAL or more or players not in (None, 2) or params or legal_moves
    # The N-seat options are checked before the commands are read, as for two-player games the openings.
    table_game = _table_game(game_name, commands, players, params, (opening_plies, openings_file)) if n_seats else None
    named = [("player", "", HUMAN) if human else bot_argument(command, f"CMD{i + 1}", game_name)
             for i, (command, human) in enumerate(zip(commands, humans, strict=True))]
    ids = distinct_ids(*(name for _, _, name in named))
    agents = tuple(agent_spec(agent_id, kind, value) for agent_id, (kind, value, _) in zip(ids, named, strict=True))
    if table_game is not None:
        tc = _time_control(time_limit, any(humans), time_margin, startup_time, move_time_limit, increment)
        _play_table(Series(table_game, agents, games_count, tc, max_moves=max_moves,
                           seed=seed if seed is not None else draw_seed(), legal_moves=legal_moves,
                           stderr_dir=stderr_dir, isolation=chosen_isolation(ponder, sandbox, inherit_env)),
                    games_count, out, as_json)
        return
    id1, id2 = ids
    game = get_game(game_name)
    openings = _openings(game, max_moves, opening_plies, openings_file, openings_order)
    if seed is None and (openings.book is not None or opening_plies):
        seed = draw_seed()
    isolation = chosen_isolation(ponder, sandbox, inherit_env)
    tc = _time_control(time_limit, any(humans), time_margin, startup_time, move_time_limit, increment)
    series = Series(configured_game(game_name), agents, games_count, tc, max_moves=max_moves, seed=seed, openings=openings,
                    stderr_dir=stderr_dir, isolation=isolation)
    console = cli_console(plain_when_piped=not any(humans))
    # With a human at the terminal the live panel would draw over the prompt: the human player
    # draws the board itself, and the final position is shown when a game ends.
    view = MatchView(console, total_games=games_count, live=False if quiet or any(humans) else None,
                     final_board=any(humans))

    def on_signal(signum: int) -> None:
        view.close()
        console.print("interrupted: stopping the bots...", markup=False, highlight=False)

    outcome = run_series(series, observer=view, on_signal=on_signal)
    view.close()
    _report(console, outcome, games_count, id1, id2, out, as_json)


def _openings(game: Any, max_moves: int | None, opening_plies: int, openings_file: Path | None,
              openings_order: str) -> Openings:
    """The series' openings from the options (BadParameter/UsageError when they cannot be used)."""
    cap = game.default_max_moves if max_moves is None else max_moves
    if opening_plies >= cap:
        raise click.BadParameter(f"{opening_plies} random plies leave no move to play before the move "
                                 f"cap ({cap}); use fewer than {cap}", param_hint="--opening-plies")
    if openings_file is None:
        return Openings(opening_plies)
    from arena.openings.book import OpeningsError, load_book

    if opening_plies:
        raise click.UsageError("--openings and --opening-plies both choose the opening: give one")
    try:
        book = load_book(game, openings_file)
    except OpeningsError as exc:
        raise click.BadParameter(str(exc), param_hint="--openings") from None
    return Openings(0, book, "sequential" if openings_order == "sequential" else "random")


def _time_control(time_limit: int | None, human: bool, margin: int, startup: int, move_limit: int | None,
                  increment: int) -> TimeControl:
    """The clocks of the options (``--time-limit`` defaults to a person's budget when one plays)."""
    if time_limit is None:
        time_limit = DEFAULT_HUMAN_TIME_LIMIT_MS if human else DEFAULT_TIME_LIMIT_MS
    return TimeControl(time_limit_ms=time_limit, time_margin_ms=margin, startup_ms=startup,
                       move_time_limit_ms=move_limit, increment_ms=increment)


def _table_game(game_name: str, commands: tuple[str, ...], players: int | None, params: tuple[str, ...],
                opening: tuple[int, Path | None]) -> Any:
    """The N-seat game of the options (BadParameter/UsageError when they do not fit)."""
    if opening != (0, None):
        raise click.UsageError("--opening-plies and --openings choose a two-player opening: an N-seat game "
                               "starts at its start, its chance draws seeded by --seed")
    if any(_is_human(command) for command in commands):
        import arena.ui.human  # noqa: F401 - registers the human player with arena.players
    if players is not None and players != len(commands):
        raise click.BadParameter(f"{players} players need {players} commands, got {len(commands)}",
                                 param_hint="--players")
    return rules_for(game_name, len(commands), params)


def _play_table(series: Series, games_count: int, out: Path | None, as_json: bool) -> None:
    """Play an N-seat series: a line per game as it ends, the average ranks, then the records."""
    console = cli_console(plain_when_piped=True)

    def game_over(record: dict[str, Any]) -> None:
        index = record["game_index"]  # from 0, as the record and `arena replay --game N` count
        console.print(f"[{index + 1}/{games_count}] game {index}: {describe(record)}", markup=False, highlight=False,
                      soft_wrap=not console.is_terminal)

    outcome = run_series(series, on_signal=lambda _: console.print(
        "interrupted: stopping the bots...", markup=False, highlight=False), on_record=game_over)
    if games_count > 1 and outcome.records:
        ranking = "; ".join(f"{agent} {average:.2f}" for agent, average, _ in standings(outcome.records))
        console.print(f"average rank: {ranking}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    ids = [a.id for a in series.agents]
    _report(console, outcome, games_count, ids[0], "-vs-".join(ids[1:]), out, as_json, summary=False)


def _report(console: Any, outcome: SeriesOutcome, games_count: int, id1: str, id2: str, out: Path | None,
            as_json: bool, summary: bool = True) -> None:
    """Write the records, print the summary lines and exit with the series' status."""
    records = outcome.records
    if out is None and not as_json and _stdout_is_terminal() and records:
        out = _default_out(records[0], id1, id2)
        saved_by_default = True
    else:
        saved_by_default = False
    written = not records or _write_records(console, _dump(records, single=games_count == 1), out,
                                            # match_logs/ is arena's: no link followed into it
                                            root=Path.cwd() if saved_by_default else None)
    if written and saved_by_default:
        console.print(f"records: {out}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    if summary and games_count > 1 and records:
        console.print(f"result: {result_line(records, (id1, id2))}", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    if outcome.failure is not None:
        console.print(f"arena: error: {outcome.failure} ({len(records)} of {games_count} games finished)",
                      markup=False, highlight=False, soft_wrap=not console.is_terminal)
        sys.exit(1)
    if not written:
        sys.exit(1)  # the line saying why was printed with the records
    if outcome.interrupted:
        console.print(f"interrupted: {len(records)} of {games_count} games finished", highlight=False)
        sys.exit(outcome.interrupted_exit_code)


MATCH_LOGS = Path("match_logs")


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _default_out(first: dict[str, Any], id1: str, id2: str) -> Path:
    """``match_logs/<UTC start>-<id1>-vs-<id2>.json``, made unique with a counter."""
    stamp = re.sub(r"[^0-9T]", "", str(first.get("started_at", "")))[:15] or "match"
    base = f"{stamp}-{id1}-vs-{id2}"
    path = MATCH_LOGS / f"{base}.json"
    counter = 2
    while path.exists():
        path = MATCH_LOGS / f"{base}-{counter}.json"
        counter += 1
    return path


def _write_records(console: Any, data: bytes, out: Path | None, root: Path | None = None) -> bool:
    """The JSON to ``out`` (whole or not at all) or stdout; False when ``out`` could not be written
    (disk full, no such folder...): then one line says so and the records go to stdout, so no game
    is lost."""
    if out is not None:
        try:
            if root is None:
                make_folders(out.parent)
            else:
                os.close(open_beneath(root, out.parent, os.O_RDONLY | os.O_DIRECTORY, make_dirs=True))
            atomic_write(out, data, root=root)  # never a half-written file, nor over a device or link
            return True
        except OSError as exc:
            console.print(f"arena: error: cannot write {out} ({exc.strerror or exc}); the records follow "
                          "on stdout instead", markup=False, highlight=False, soft_wrap=not console.is_terminal)
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return out is None
