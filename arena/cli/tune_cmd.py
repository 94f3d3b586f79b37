"""`arena tune spsa CONFIG`: SPSA tuning of a hyperparameters file's numbers or of an external
bot's command-line options, a thin click layer over :mod:`arena.train.spsa` (and
:mod:`arena.train.spsa_play`), with the parameters' history drawn by :mod:`arena.report.charts`.

Exit codes: 0 done; 2 a usage or config mistake (one line, ``arena tune: error: ...``), a run
folder made with another config or held by another run; 1 arena itself failed (out of disk,
processes...); 130 interrupted after saving the finished iterations (the same command resumes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from arena.cli.exits import ArenaGroup
from arena.cli.options import say as _say


@click.group(cls=ArenaGroup, name="tune", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def tune_command() -> None:
    """Tune an agent's numeric hyperparameters by playing games (SPSA)."""


@tune_command.command("spsa", epilog="""\b
Examples:
  arena tune spsa examples/spsa/connect4.json --out training/spsa-c4
  arena tune spsa my.json --out runs/x --iterations 400     (resume and go on to 400)
  arena tune spsa examples/spsa/connect4_depth.json --out training/spsa-bot -j 2
\b
Config keys: game, agent (hyperparameters file), parameters {KEY: {start, min, max, c}} with KEY
maxDepth, moveTimeMs, evaluation.NAME or evaluation.TABLE[i]; iterations, pairs, a, A, alpha
(0.602), gamma (0.101), openings (a book), openingPlies, seed. The run folder holds history.jsonl,
state.json, start.json, tuned.json, history.svg and history.html.
\b
A bot's options instead: agent {"command": "python3 bot.py --depth {depth}", "env": {...}} and
parameters {NAME: {start, min, max, c, type (int|float)}}, one per {NAME} placeholder; games are
real subprocess games with the tournament keys timeLimit, timeMargin, startupTime, moveTimeLimit,
increment, maxMoves, openingsOrder, ponder, sandbox, inheritEnv. Records go to games/NNNNN.json
(arena replay RUN --game N); tuned.json holds the command with the tuned values.""")
@click.argument("config_path", metavar="CONFIG", type=click.Path(dir_okay=False))
@click.option("--out", "out", type=click.Path(file_okay=False), required=True, help="The run folder.")
@click.option("--iterations", type=click.IntRange(min=0, max=10**7), default=None,
              help="Iterations to reach in all (default: the config's).")
@click.option("--progress-every", type=click.IntRange(min=1), default=10, show_default=True,
              help="Iterations between two progress lines.")
@click.option("--concurrency", "-j", type=click.IntRange(min=1, max=256), default=None,
              help="A command agent's games at once (default: the number of cores, at most the games of "
                   "an iteration). The built-in agent plays in this process, one game at a time.")
def spsa_command(config_path: str, out: str, iterations: int | None, progress_every: int,
                 concurrency: int | None) -> None:
    """Tune the numbers CONFIG names with SPSA: each iteration plays colour-swapped pairs of
    theta + c*Delta against theta - c*Delta and steps theta towards the winner. Prints the
    parameters' history as sparklines and writes it as an SVG chart and an HTML page."""
    from arena.process.signals import sigterm_as_keyboard_interrupt
    from arena.tournament.concurrency import default_concurrency
    from arena.train.spsa import load_spsa_config, run_spsa

    with sigterm_as_keyboard_interrupt():
        config = load_spsa_config(config_path)
        jobs = min(concurrency or default_concurrency(), 2 * config.pairs)
        theta = run_spsa(config, Path(out), iterations=iterations, say=_say, progress_every=progress_every,
                         concurrency=jobs)
    for line in write_charts(Path(out), config):
        click.echo(line)
    _say(f"tuned: {Path(out) / 'tuned.json'} ({', '.join(f'{k} {v:.1f}' for k, v in theta.items())}); "
         f"chart: {Path(out) / 'history.html'}")


def write_charts(folder: Path, config: Any) -> list[str]:
    """Write history.svg and history.html of an SPSA run folder; the terminal lines (a sparkline
    per parameter, within its bounds)."""
    from arena.fileio.files import atomic_write
    from arena.report.charts import html_page, sparkline
    from arena.report.training import spsa_chart
    from arena.train.spsa import read_history

    history = read_history(folder)
    chart = spsa_chart(config.game, [p.identity() for p in config.parameters], history)
    series = chart.series
    atomic_write(folder / "history.svg", chart.svg.encode())
    atomic_write(folder / "history.html", html_page(chart.title, chart.svg, chart.rows, chart.header).encode())
    width = max(len(p.key) for p in config.parameters)
    return [f"{p.key:<{width}}  {sparkline(series[p.key], 60)}  {p.start:g} -> {series[p.key][-1]:.1f} (bounds {p.low:g}..{p.high:g})"
            for p in config.parameters]
