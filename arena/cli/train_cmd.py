"""`arena train td` and `arena train evolve`: players that learn (seed 002), a thin click layer over
:mod:`arena.train.td` and :mod:`arena.train.evolve`.

Exit codes: 0 done; 2 a usage or settings mistake (one line, ``arena train: error: ...``), or a run
folder made with other settings; 1 (``evolve --backend ray``) the Ray cluster cannot be used or
failed (one line, as ``arena run`` says it); 130 interrupted (Ctrl-C or SIGTERM) after saving what was
finished: the same command resumes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.cli.exits import ArenaGroup
from arena.cli.options import GameName, ray_backend_options
from arena.cli.options import say as _say
from arena.train.evolve import EvolveSettings
from arena.train.td import TdSettings

# One source for every default: the settings classes (click shows them).
_TD = TdSettings(game="")
_EV = EvolveSettings(game="")



@click.group(cls=ArenaGroup, name="train", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def train_command() -> None:
    """Players that learn their evaluation weights (seed 002): TD(lambda) self-play and the
    evolutionary bootstrap. They write hyperparameters files the built-in agent plays with."""


@train_command.command("td", epilog="""\b
Examples:
  arena train td --game breakthrough --games 2000 --out training/td-bt
  arena train td --game connect4 --init defaults --lambda 0.7 --out training/td-c4
\b
The run folder holds checkpoint.json, initial.json, trained.json and best.json (hyperparameters
files of the first, the latest averaged and the best-scoring weights: play them with 'arena sprt'
or in a tournament) and curve.jsonl (score against the initial weights every --eval-every games),
drawn as curve.svg and curve.html. Run the same command again to resume
or, with a larger --games, to train on.""")
@click.option("--game", "game_name", type=GameName(), required=True,
              help="A game whose search adapter has linear features.")
@click.option("--games", type=click.IntRange(min=0, max=10**9), default=1000, show_default=True,
              help="Self-play games to reach in all (a resumed run counts the games already done).")
@click.option("--out", "out", type=click.Path(file_okay=False), required=True, help="The run folder.")
@click.option("--lambda", "lam", type=float, default=_TD.lam, show_default=True,
              help="Trace decay (the seed found 0.5 best: between TD(0) and Monte Carlo).")
@click.option("--alpha", type=float, default=_TD.alpha, show_default=True,
              help="Learning rate on standardized features.")
@click.option("--gamma", type=float, default=_TD.gamma, show_default=True, help="Discount (the seed's choice).")
@click.option("--epsilon", type=float, default=_TD.epsilon, show_default=True, help="Exploration at the first game.")
@click.option("--epsilon-min", type=float, default=_TD.epsilon_min, show_default=True,
              help="Exploration never falls below this (the seed's 0.1).")
@click.option("--epsilon-decay", type=float, default=_TD.epsilon_decay, show_default=True, help="Exploration factor per game.")
@click.option("--depth", type=int, default=_TD.depth, show_default=True,
              help="Search depth of the self-play moves (1: the seed's one-ply choice).")
@click.option("--init", type=click.Choice(["random", "defaults", "zero"]), default=_TD.init, show_default=True,
              help="Starting weights: random (as the seed), the game's defaults, or zero.")
@click.option("--start", type=click.Path(dir_okay=False), default=None,
              help="Start from this hyperparameters file's weights instead of --init.")
@click.option("--scale", type=float, default=_TD.scale, show_default=True,
              help="Evaluation units per unit of the value's argument (integer resolution).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every random choice.")
@click.option("--eval-every", type=click.IntRange(min=1), default=_TD.eval_every, show_default=True,
              help="Games between two points of the learning curve.")
@click.option("--eval-pairs", type=click.IntRange(min=0), default=_TD.eval_pairs, show_default=True,
              help="Colour-swapped pairs per curve point (0: no curve).")
@click.option("--eval-depth", type=int, default=_TD.eval_depth, show_default=True,
              help="Search depth of the curve's games and of the files written.")
@click.option("--opening-plies", type=int, default=_TD.opening_plies, show_default=True,
              help="Random moves that start each pair of curve games.")
@click.option("--average", type=click.IntRange(min=0), default=_TD.average, show_default=True,
              help="Games the written weights are averaged over (0: the latest weights).")
@click.option("--checkpoint-every", type=click.IntRange(min=1), default=50, show_default=True,
              help="Games between two checkpoints.")
@click.option("--progress-every", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games between two progress lines.")
def td_command(game_name: str, games: int, out: str, lam: float, alpha: float, gamma: float, epsilon: float,
               epsilon_min: float, epsilon_decay: float, depth: int, init: str, start: str | None, scale: float,
               seed: int, eval_every: int, eval_pairs: int, eval_depth: int, opening_plies: int, average: int,
               checkpoint_every: int, progress_every: int) -> None:
    """Learn the evaluation weights of GAME by TD(lambda) self-play (the seed's TD player):
    progress lines on stderr, a resumable run folder, the learning curve as JSON lines."""
    from arena.process.signals import sigterm_as_keyboard_interrupt
    from arena.train.td import train_td

    settings = TdSettings(game=game_name, lam=lam, alpha=alpha, gamma=gamma, epsilon=epsilon,
                          epsilon_min=epsilon_min, epsilon_decay=epsilon_decay, depth=depth, scale=scale,
                          seed=seed, init=init, start=str(Path(start).resolve()) if start else None,
                          eval_every=eval_every, eval_pairs=eval_pairs, eval_depth=eval_depth,
                          opening_plies=opening_plies, average=average)
    with sigterm_as_keyboard_interrupt():
        summary = train_td(settings, Path(out), games, checkpoint_every=checkpoint_every,
                           progress_every=progress_every, progress=_say)
    from arena.report.charts import sparkline
    from arena.train.td import read_curve

    point = summary.last_point
    tail = f"; last curve point {point['score']:.2f} after {point['games']} games" if point else ""
    curve = read_curve(Path(out))
    if curve:
        click.echo(f"curve (score against the initial weights, 0..1): "
                   f"{sparkline([p['score'] for p in curve], 60, 0.0, 1.0)} "
                   + " ".join(f"{p['score']:.2f}" for p in curve[-8:]))
        write_curve_chart(Path(out), curve, game_name)
    _say(f"{summary.games_done} games done ({summary.played_now} now){tail}. "
         f"weights: {summary.folder / 'trained.json'}, curve: {summary.folder / 'curve.jsonl'}")


def write_curve_chart(folder: Path, curve: list[dict[str, Any]], game_name: str) -> None:
    """``curve.svg`` and ``curve.html`` of a TD run folder: the score against the initial weights
    at each curve point, and the points as a table."""
    from arena.fileio.files import atomic_write
    from arena.report.charts import html_page
    from arena.report.training import td_chart

    chart = td_chart(game_name, curve)
    atomic_write(folder / "curve.svg", chart.svg.encode())
    atomic_write(folder / "curve.html", html_page(chart.title, chart.svg, chart.rows, chart.header).encode())


@train_command.command("evolve", epilog="""\b
Examples:
  arena train evolve --game connect4 --out training/evolve-c4
  arena train evolve --game breakthrough --population 8 --keep 3 --games-per-pair 4 --out /tmp/ev
\b
Each round is a tournament folder (DIR/tournament_logs/round-N/: 'arena standings' reads it). The
winner is DIR/winner.json; its games against the ancestors are DIR/tournament_logs/final/ and the
table is DIR/final.json. Run the same command again to resume.
\b
With --backend ray each tournament's games are Ray tasks (an embedded instance by default, started
for each tournament, or --ray-address auto / HOST:PORT); DIR/players/ is shipped to the workers
and this process still writes every log. The backend is not part of the run: a run started on
Ray resumes locally and the other way round. A cluster that cannot be reached: one line, exit 1.
  arena train evolve --game connect4 --out training/evolve-c4 --backend ray --ray-address auto""")
@click.option("--game", "game_name", type=GameName(), required=True,
              help="A game whose search adapter has linear features.")
@click.option("--out", "out", type=click.Path(file_okay=False), required=True, help="The run folder.")
@click.option("--population", type=int, default=_EV.population, show_default=True, help="Players of the first round.")
@click.option("--keep", type=int, default=_EV.keep, show_default=True,
              help="Best players kept as parents each round (their KxK couples make the next round).")
@click.option("--rounds", type=int, default=_EV.rounds, show_default=True, help="Tournaments to play.")
@click.option("--games-per-pair", type=int, default=_EV.games_per_pair, show_default=True,
              help="Games per couple in each round (the seed went from 10 to 30).")
@click.option("--mutation", type=float, default=_EV.mutation, show_default=True,
              help="Probability that a child's weight is mutated.")
@click.option("--mutation-sigma", type=float, default=_EV.mutation_sigma, show_default=True,
              help="Mutation deviation, as a fraction of --spread.")
@click.option("--spread", type=float, default=None,
              help="Random weights are uniform in -spread..spread (default: the largest default weight).")
@click.option("--depth", type=int, default=_EV.depth, show_default=True, help="The players' search depth.")
@click.option("--opening-plies", type=int, default=_EV.opening_plies, show_default=True,
              help="Random moves that start each colour-swapped pair.")
@click.option("--final-games", type=int, default=_EV.final_games, show_default=True,
              help="Games of the winner against each ancestor (the seed's test).")
@click.option("--time-limit", "time_limit_ms", type=int, default=_EV.time_limit_ms, show_default=True,
              help="Each player's clock per game, in ms.")
@click.option("--td-games", type=click.IntRange(min=0), default=_EV.td_games, show_default=True,
              help="TD(lambda) self-play games each new player learns from before its tournament "
                   "(played in this process, one player after another, even with --backend ray).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the weights and the breeding.")
@click.option("--concurrency", "-j", type=click.IntRange(min=1, max=256), default=None,
              help="Games at once (default: the number of cores; with --backend ray, as many as the "
                   "cluster has room for).")
@ray_backend_options(from_config=False, note=" Each round's tournament and the final games play there; "
                     "--td-games training stays in this process.")
def evolve_command(game_name: str, out: str, population: int, keep: int, rounds: int, games_per_pair: int,
                   mutation: float, mutation_sigma: float, spread: float | None, depth: int, opening_plies: int,
                   final_games: int, time_limit_ms: int, td_games: int, seed: int, concurrency: int | None,
                   backend: str | None, ray_address: str | None, ray_cpus: float | None) -> None:
    """Breed players for GAME through tournaments (the seed's evolutionary bootstrap): random
    players, a round robin, the best K bred into KxK children, G rounds; then the winner against
    its ancestors as a table."""
    from arena.backends import EMBEDDED_ADDRESS, BackendOptions
    from arena.cli.options import chosen_backend
    from arena.train.evolve import Evolution, table_lines

    where = BackendOptions(kind=chosen_backend(backend, ray_address, ray_cpus) or "local",
                           address=ray_address or EMBEDDED_ADDRESS, cpus_per_game=ray_cpus)
    settings = EvolveSettings(game=game_name, population=population, keep=keep, rounds=rounds,
                              games_per_pair=games_per_pair, mutation=mutation, mutation_sigma=mutation_sigma,
                              spread=spread, depth=depth, opening_plies=opening_plies, final_games=final_games,
                              time_limit_ms=time_limit_ms, seed=seed, td_games=td_games)
    settings.check(as_options=True)  # the options' own names in the message
    summary = Evolution(settings, Path(out), concurrency=concurrency, say=_say, backend=where).run()
    for line in table_lines(summary):
        click.echo(line)
    _say(f"winner: {summary.winner_file}")
