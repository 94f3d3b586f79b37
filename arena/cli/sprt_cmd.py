"""`arena sprt NEW OLD --game G`: is NEW stronger than OLD? A sequential probability ratio test on
colour-swapped pairs of games (see :mod:`arena.sprt.run` for the log folder and resume, and
:mod:`arena.stats.sprt` for the statistics)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from arena.cli.exits import ArenaCommand
from arena.cli.options import (
    chosen_isolation,
    game_of_bots,
    game_option,
    game_parameters,
    isolation_options,
    ray_backend_options,
    rules_for,
    table_options,
)
from arena.limits import (
    DEFAULT_STARTUP_MS,
    DEFAULT_TIME_LIMIT_MS,
    DEFAULT_TIME_MARGIN_MS,
    MAX_MOVES,
    MAX_SEED,
    MAX_TIME_MS,
)

EPILOG = """\b
Examples:
  arena sprt "python3 bots/checkers_alphabeta.py --quiet" "python3 bots/checkers_greedy.py" \\
      --game checkers --elo1 50
  arena sprt ./new_bot ./old_bot --game connect4 --openings book.jsonl --max-pairs 2000
  arena sprt "python3 bots/kuhn_poker_heuristic.py" "python3 bots/kuhn_poker_random.py" \\
      --game kuhn_poker --players 2 --elo1 100
  arena sprt --rules "python3 referee.py" ./new_bot ./old_bot --legal-moves
  arena llr --pentanomial 3,10,40,12,5       (the same statistics from counts)

\b
Each pair is two games from the same opening, NEW playing BLACK then WHITE; the pair's score for
NEW (0, 1/2, 1, 3/2 or 2) is counted in a pentanomial tally. After each pair the generalized LLR
(fishtest's) is compared with the bounds log(beta/(1-alpha)) and log((1-beta)/alpha).
Without --game (or --rules) the game is chosen as 'arena match' chooses it: the one the bots'
bot.json declare, else the one game their commands name, else shobu; a line on stderr says which.
A game of seats (an external referee's, OpenSpiel's, Kuhn poker) is played with two seats: NEW at
seat 0 then seat 1, both games with the same chance seed; NEW wins a game ranked first alone.
One line per pair goes to stderr; --json prints the final summary on stdout.
Running the same command again with the same --logs resumes the run (completed pairs are kept,
an unfinished pair is played again); other settings are refused.

\b
Exit status:
  0    H1 accepted: NEW is stronger (by about elo1)
  3    H0 accepted: NEW is not stronger (by more than elo0)
  4    stopped undecided (--max-pairs reached)
  130  interrupted by Ctrl-C or SIGTERM (129: SIGHUP); completed pairs are kept
  2    usage error (bad option, opening book, or log folder)
  1    arena itself failed
"""


def _fmt_elo(summary: dict[str, Any]) -> str:
    elo, ci = summary.get("elo"), summary.get("elo_ci") or [None, None]
    if elo is None:  # every pair won (or lost): the estimate is unbounded
        return "Elo +inf" if summary.get("los", 0.5) > 0.5 else "Elo -inf"
    if ci[0] is None or ci[1] is None:
        return f"Elo {elo:+.0f} ± inf"
    return f"Elo {elo:+.0f} ± {(ci[1] - ci[0]) / 2:.0f}"


def _fmt_model(name: str, triple: Any, los: float) -> str:
    """``nElo +29 ± 68`` from a ``[low, estimate, high]`` triple; ``+inf``/``-inf`` (by the LOS)
    when every pair went one way (the estimate is unbounded, or at the logistic model's clamp)."""
    mid = triple[1] if isinstance(triple, list) and len(triple) == 3 else None
    if mid is None or abs(mid) >= 2000:
        return f"{name} {'+inf' if los > 0.5 else '-inf'}"
    low, high = triple[0], triple[2]
    if low is None or high is None:
        return f"{name} {mid:+.0f} ± inf"
    return f"{name} {mid:+.0f} ± {(high - low) / 2:.0f}"


def pair_line(pair_number: int, score: float, summary: dict[str, Any]) -> str:
    """``pair 12: 1.5  LLR 1.23 [-2.94, 2.94]  nElo +29 ± 68  Elo +21 ± 50  LOS 87%  even 20%
    penta [0,1,4,5,2]`` (both models' estimates with their 95% intervals; ``pair_number`` counts
    completed pairs from 1)."""
    penta = ",".join(str(n) for n in summary.get("pentanomial", []))
    if "elo_normalized" in summary and "elo_logistic" in summary:
        los = float(summary.get("los", 0.5))
        elo = (f"{_fmt_model('nElo', summary['elo_normalized'], los)}  "
               f"{_fmt_model('Elo', summary['elo_logistic'], los)}")
    else:
        elo = _fmt_elo(summary)
    return (f"pair {pair_number}: {score:g}  LLR {summary['llr']:.2f} [{summary['lower']:.2f}, "
            f"{summary['upper']:.2f}]  {elo}  LOS {100 * summary['los']:.0f}%  "
            f"even {100 * summary['draw_ratio']:.0f}%  penta [{penta}]")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text) or "bot"


@click.command(cls=ArenaCommand, name="sprt", epilog=EPILOG)
@click.argument("new")
@click.argument("old")
@game_option(from_bots=True)
@table_options("Seats of a game of the general model: an SPRT needs 2 (default: the game's).")
@click.option("--legal-moves", is_flag=True,
              help="Games of seats: each bot's message lists its legal moves (for simple bots).")
@click.option("--elo0", type=float, default=0.0, show_default=True, help="Elo difference of H0.")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="Elo difference of H1.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="False-positive rate (accept H1 when H0 holds).")
@click.option("--beta", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="False-negative rate (accept H0 when H1 holds).")
@click.option("--model", type=click.Choice(["normalized", "logistic"]), default="normalized", show_default=True,
              help="Elo model of elo0/elo1 (normalized Elo as fishtest, or logistic Elo).")
@click.option("--score", type=click.Choice(["rank", "returns"]), default="rank", show_default=True,
              help="Games of seats: score each game by its ranks, or each pair by the returns summed over "
                   "its two games (duplicate scoring: chips in poker).")
@click.option("--concurrency", type=click.IntRange(min=1, max=64), default=1, show_default=True,
              help="Games at once: 1 plays one game at a time; 2 plays both games of a pair at once; "
                   "4 two pairs at once, and so on.")
@click.option("--openings", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help='Opening book: JSONL, one state object or {"moves": [...]} per line.')
@click.option("--openings-order", type=click.Choice(["random", "sequential"]), default="random",
              show_default=True, help="Book order: random (seeded by --seed) or the file's order.")
@click.option("--opening-plies", type=click.IntRange(min=0, max=MAX_MOVES), default=0, show_default=True,
              help="Without a book: random legal plies played before the bots take over (one opening per pair).")
@click.option("--seed", type=click.IntRange(min=0, max=MAX_SEED), default=None,
              help="Seed for the openings and chance draws (drawn at random and recorded when not given).")
@click.option("--max-pairs", type=click.IntRange(min=1), default=None,
              help="Stop undecided (exit 4) after this many pairs. Default: no cap.")
@click.option("--time-limit", type=click.IntRange(min=1, max=MAX_TIME_MS), default=DEFAULT_TIME_LIMIT_MS,
              show_default=True, help="Each side's thinking budget for the whole game, in ms.")
@click.option("--max-moves", type=click.IntRange(min=1, max=MAX_MOVES), default=None,
              help="Move cap (a draw when reached). Default: the game's (see 'arena games').")
@click.option("--time-margin", type=click.IntRange(min=0, max=MAX_TIME_MS), default=DEFAULT_TIME_MARGIN_MS,
              show_default=True, help="Grace for OS jitter in ms (never added to the budget).")
@click.option("--startup-time", type=click.IntRange(min=0, max=MAX_TIME_MS), default=DEFAULT_STARTUP_MS,
              show_default=True, help="Uncharged start-up allowance for each bot's first reply, in ms.")
@click.option("--move-time-limit", type=click.IntRange(min=1, max=MAX_TIME_MS), default=None,
              help="Hard cap per move, in ms.")
@click.option("--increment", type=click.IntRange(min=0, max=MAX_TIME_MS), default=0, show_default=True,
              help="Added to a bot's budget after each of its moves, in ms.")
@click.option("--logs", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Log folder (records, sprt.json). Default: sprt_logs/<new>-vs-<old>-<game>.")
@click.option("--json", "as_json", is_flag=True, help="Print the final summary as one JSON object on stdout.")
@ray_backend_options(from_config=False, note=" With ray, raise --concurrency to use the cluster.")
@isolation_options(from_config=False)
def sprt_command(new: str, old: str, game_name: str | None, players: int | None, params: tuple[str, ...],
                 legal_moves: bool, elo0: float, elo1: float, alpha: float, beta: float,
                 model: str, score: str, concurrency: int, openings: Path | None, openings_order: str,
                 opening_plies: int, seed: int | None, max_pairs: int | None, time_limit: int,
                 max_moves: int | None, time_margin: int, startup_time: int, move_time_limit: int | None,
                 increment: int, logs: Path | None, as_json: bool, backend: str | None,
                 ray_address: str | None, ray_cpus: float | None, ponder: bool | None,
                 sandbox: bool | None, inherit_env: bool | None) -> None:
    """Is NEW stronger than OLD? Play colour-swapped pairs of games between the bot commands NEW
    and OLD (split like a shell would, as in 'arena match') until a sequential probability ratio
    test accepts H1 (NEW is stronger by elo1) or H0 (by elo0 at most)."""
    from arena.backends import EMBEDDED_ADDRESS, BackendOptions
    from arena.cli.options import agent_spec, bot_argument, chosen_backend, distinct_ids
    from arena.games import get_game
    from arena.games.registry import configured_game
    from arena.match.clock import TimeControl
    from arena.openings.book import load_book
    from arena.sprt.run import SprtSettings

    game_name = game_of_bots(game_name, [new, old])
    table = _seated_game(game_name, players, params, legal_moves, opening_plies, openings)
    if table is None and score != "rank":
        raise click.BadParameter(f"{game_name} is a two-player game: a game scores its result (win, draw, loss), "
                                 "it has no returns", param_hint="--score")
    if not elo0 < elo1:
        raise click.BadParameter(f"--elo0 ({elo0:g}) must be below --elo1 ({elo1:g})", param_hint="--elo0")
    from arena.stats.sprt import SPRTError, check_hypotheses

    try:
        check_hypotheses(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                         model="logistic" if model == "logistic" else "normalized")
    except SPRTError as exc:
        raise click.BadParameter(f"{exc} (elo0 {elo0:g}, elo1 {elo1:g}, {model} model)",
                                 param_hint="--elo1") from None
    if openings is not None and opening_plies:
        raise click.UsageError("give --openings or --opening-plies, not both")
    kind_new, value_new, name_new = bot_argument(new, "NEW", game_name)
    kind_old, value_old, name_old = bot_argument(old, "OLD", game_name)
    id_new, id_old = distinct_ids(name_new, name_old)
    game = configured_game(game_name) if table is None else table
    cap = game.default_max_moves if max_moves is None else max_moves
    if opening_plies >= cap:
        raise click.BadParameter(f"{opening_plies} random plies leave no move to play before the move "
                                 f"cap ({cap}); use fewer than {cap}", param_hint="--opening-plies")
    isolation = chosen_isolation(ponder, sandbox, inherit_env)
    book = None
    if openings is not None:
        book = load_book(get_game(game_name), openings)  # a two-player game's (refused for the others)
    folder = logs if logs is not None else Path("sprt_logs") / f"{_slug(id_new)}-vs-{_slug(id_old)}-{_slug(game.name)}"
    tc = TimeControl(time_limit_ms=time_limit, time_margin_ms=time_margin, startup_ms=startup_time,
                     move_time_limit_ms=move_time_limit, increment_ms=increment)
    settings = SprtSettings(
        game=game, new=agent_spec(id_new, kind_new, value_new), old=agent_spec(id_old, kind_old, value_old),
        elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, model="logistic" if model == "logistic" else "normalized",
        time_control=tc, max_moves=max_moves, opening_plies=opening_plies, seed=seed, book=book,
        openings_order="sequential" if openings_order == "sequential" else "random",
        max_pairs=max_pairs, concurrency=concurrency, isolation=isolation,
        backend=BackendOptions(kind=chosen_backend(backend, ray_address, ray_cpus) or "local",
                               address=ray_address or EMBEDDED_ADDRESS, cpus_per_game=ray_cpus),
        base_dir=Path.cwd(), players=None if table is None else table.players,
        parameters=tuple(sorted(game_parameters(params).items())),
        rules=_rules_argv(game.name) if table is not None else (), legal_moves=legal_moves, score=score)

    run_sprt(settings, folder, as_json=as_json)


def _seated_game(game_name: str, players: int | None, params: tuple[str, ...], legal_moves: bool,
                 opening_plies: int, openings: Path | None) -> Any:
    """The game of the general model ``--game``/``--players``/``--param`` set, for two seats; None for
    a two-player game. BadParameter/UsageError (one line): more than two seats, openings, or
    options of the general model for a two-player game."""
    from arena.games.registry import GENERAL, get_spec

    if get_spec(game_name).model != GENERAL:
        if legal_moves:
            raise click.BadParameter(f"{game_name} is a two-player game; its bots always know the rules",
                                     param_hint="--legal-moves")
        if players is not None or params:
            rules_for(game_name, players, params)  # refuses other players than 2, and any parameter
        return None
    table = rules_for(game_name, players, params)
    if table.players != 2:
        from arena.stats.sprt import seated_game_refusal

        raise click.BadParameter(seated_game_refusal(game_name, table.players), param_hint="--players")
    if opening_plies or openings is not None:
        raise click.UsageError(f"--opening-plies and --openings choose a two-player opening: {game_name} starts "
                               "at its start, its chance draws seeded per pair by --seed")
    return table


def _rules_argv(game: str) -> tuple[str, ...]:
    """The argv of the referee that plays ``game`` (``--rules``), empty for arena's or a plugin's game."""
    import shlex

    from arena.referee.registration import rules_command

    command = rules_command(game)
    return () if command is None else tuple(shlex.split(command))


def run_sprt(settings: Any, folder: Path, *, as_json: bool, command: str = "arena sprt") -> NoReturn:
    """Run the SPRT of ``settings`` (an :class:`arena.sprt.run.SprtSettings`) in ``folder`` with
    :func:`arena.sprt.run.play_sprt` and show it: one line per pair and the verdict on stderr, the
    summary on stdout with ``as_json``; then exit with the status the epilog lists. The view of
    ``arena sprt`` and of ``arena run`` of a config with an ``sprt`` key."""
    from arena.sprt.run import SprtRun, play_sprt

    id_new, id_old = settings.new.id, settings.old.id
    run: SprtRun

    def show(pair: int, score: float, summary: dict[str, Any]) -> None:
        running = f"  running {run.running}" if settings.concurrency > 2 else ""
        click.echo(pair_line(int(summary.get("pairs", 0)), score, summary) + running, err=True)

    def started() -> None:
        if run.resumed_pairs:
            click.echo(f"resuming {folder}: {run.resumed_pairs} pairs already played", err=True)
        else:
            click.echo(f"{id_new} (NEW) against {id_old} (OLD), {settings.game.name}: "
                       f"H0 elo {settings.elo0:g}, H1 elo {settings.elo1:g} ({settings.model}), "
                       f"alpha {settings.alpha:g}, beta {settings.beta:g}; logs: {folder}", err=True)

    run = SprtRun(settings, folder, on_pair=show)
    run.open()  # another run's folder, a bot that cannot start where games run: arena.cli.exits says it
    outcome = play_sprt(run, on_start=started)
    stopped = outcome.stopped
    result = dict(run.summary or {})
    result.update(stopped=outcome.status, logs=str(folder), seed=settings.seed)
    pairs = len(run.order)
    if outcome.failure is not None:
        click.echo(f"{command}: error: {outcome.failure} ({pairs} pairs completed)", err=True)
    elif outcome.cut_short:
        click.echo(f"interrupted: {pairs} pairs completed; run the same command again to resume", err=True)
    else:
        what = {"H1": f"H1 accepted: {id_new} is stronger than {id_old}",
                "H0": f"H0 accepted: {id_new} is not stronger than {id_old}",
                "max-pairs": "stopped undecided: the pair cap was reached"}[stopped or "max-pairs"]
        llr = f"LLR {result['llr']:.2f} [{result['lower']:.2f}, {result['upper']:.2f}]  " if run.summary else ""
        click.echo(f"{what} after {pairs} pairs  {llr}logs: {folder}", err=True)
    if as_json:
        click.echo(json.dumps(result))
    sys.exit(outcome.exit_code)
