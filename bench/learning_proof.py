"""Proof that learning works (issue 13, item 5): train, breed and tune, then test under SPRT.

For one game (default breakthrough; connect4 and abalone work too):

1. TD(lambda) self-play (``arena train td``) from random weights, one run per ``--seeds`` entry,
   with the learning curve (score of the averaged weights against the initial ones every
   ``--eval-every`` games);
2. the trained weights (and with ``--sprt-best`` the best curve point's) against the initial ones
   under SPRT (``arena sprt``: subprocess
   hyperparameters agents, colour-swapped pairs from random openings, elo0 0, elo1 ``--elo1``);
3. the evolutionary bootstrap (``arena train evolve``, small settings) and its
   winner-versus-ancestors table;
4. SPSA (``arena tune spsa``) on ``examples/spsa/connect4.json`` (flat starting weights) and
   ``examples/spsa/breakthrough.json`` (a material-only start), each tuned file against its start
   under SPRT.

Run: ``python bench/learning_proof.py [--game G] [--td-games N] [--out DIR] [--skip-evolve]
[--skip-spsa]``. It prints figures; it does not pass or fail. Expect several minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.report.charts import sparkline  # noqa: E402
from arena.train.evolve import Evolution, EvolveSettings, table_lines  # noqa: E402
from arena.train.spsa import load_spsa_config, run_spsa  # noqa: E402
from arena.train.td import TdSettings, read_curve, train_td  # noqa: E402


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def sprt(game: str, new: Path, old: Path, folder: Path, *, elo1: float, max_pairs: int, seed: int) -> dict[str, Any]:
    """``arena sprt NEW.json OLD.json`` when it takes hyperparameters files, else the same run
    through :class:`arena.sprt.run.SprtRun` (hyperparameters agents). The summary object."""
    argv = [sys.executable, "-m", "arena", "sprt", str(new), str(old), "--game", game, "--elo0", "0",
            "--elo1", str(elo1), "--opening-plies", "2", "--max-pairs", str(max_pairs), "--seed", str(seed),
            "--concurrency", "2", "--logs", str(folder), "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode in (0, 3, 4) and done.stdout.strip():
        return dict(json.loads(done.stdout.strip().splitlines()[-1]))
    say(f"(arena sprt did not take the files: exit {done.returncode}; running SprtRun directly)")
    return _sprt_direct(game, new, old, folder, elo1=elo1, max_pairs=max_pairs, seed=seed)


def _sprt_direct(game: str, new: Path, old: Path, folder: Path, *, elo1: float, max_pairs: int,
                 seed: int) -> dict[str, Any]:
    import trio

    from arena.games.registry import configured_game
    from arena.players.spec import AgentSpec
    from arena.sprt.run import SprtRun, SprtSettings

    settings = SprtSettings(game=configured_game(game), new=AgentSpec("new", kind="hyperparameters", path=str(new)),
                            old=AgentSpec("old", kind="hyperparameters", path=str(old)), elo0=0.0, elo1=elo1,
                            opening_plies=2, seed=seed, max_pairs=max_pairs, concurrency=2)
    run = SprtRun(settings, folder)
    run.open()
    try:
        stopped = trio.run(run.run)
    finally:
        run.close()
    return {**(run.summary or {}), "stopped": stopped, "logs": str(folder)}


def show_sprt(label: str, result: dict[str, Any]) -> None:
    penta = result.get("pentanomial") or [0, 0, 0, 0, 0]
    points = sum(0.5 * i * n for i, n in enumerate(penta))
    logistic = result.get("elo_logistic") or [None, None, None]
    # [low, estimate, high] of the 95% interval; None (or +-2400) when every pair went one way
    elo = "n/a" if logistic[1] is None else f"{logistic[1]:+.0f} [{logistic[0]:+.0f}, {logistic[2]:+.0f}]"
    print(f"SPRT {label}: {result.get('stopped')} after {result.get('pairs')} pairs, NEW scored {points:g} of "
          f"{result.get('games')} games; LLR {result.get('llr', float('nan')):.2f} "
          f"[{result.get('lower', float('nan')):.2f}, {result.get('upper', float('nan')):.2f}], logistic Elo {elo}, "
          f"LOS {result.get('los')}")
    print(f"  pair scores 0/0.5/1/1.5/2: {penta}  logs: {result.get('logs')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="breakthrough")
    parser.add_argument("--td-games", type=int, default=1000)
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--eval-pairs", type=int, default=20, help="colour-swapped pairs per curve point")
    parser.add_argument("--eval-depth", type=int, default=2,
                        help="search depth of the curve's games and of the files the SPRT plays")
    parser.add_argument("--seeds", type=lambda text: [int(v) for v in text.split(",")], default=[0, 1],
                        help="TD runs, one per seed (comma-separated)")
    parser.add_argument("--sprt-best", action="store_true", help="also test best.json under SPRT")
    parser.add_argument("--elo1", type=float, default=50.0)
    parser.add_argument("--max-pairs", type=int, default=200)
    parser.add_argument("--out", type=Path, default=Path("/tmp/arena_learning_proof"))
    parser.add_argument("--skip-evolve", action="store_true")
    parser.add_argument("--skip-spsa", action="store_true")
    parser.add_argument("--skip-td", action="store_true")
    parser.add_argument("--spsa-configs", type=lambda text: [Path(v) for v in text.split(",")],
                        default=[ROOT / "examples" / "spsa" / "connect4.json", ROOT / "examples" / "spsa" / "breakthrough.json"],
                        help="SPSA configs to run (comma-separated)")
    args = parser.parse_args()
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)

    # 1-2. TD(lambda) from random weights, one run per seed, then SPRT trained vs initial
    for seed in [] if args.skip_td else args.seeds:
        started = time.perf_counter()
        td_dir = out / f"td-{args.game}-seed{seed}"
        settings = TdSettings(game=args.game, eval_every=args.eval_every, eval_pairs=args.eval_pairs,
                              eval_depth=args.eval_depth, seed=seed)
        summary = train_td(settings, td_dir, args.td_games, progress_every=250, progress=say)
        print(f"== TD(lambda) {args.game}, seed {seed}: {summary.games_done} self-play games in "
              f"{time.perf_counter() - started:.0f} s (lambda {settings.lam}, alpha {settings.alpha}, "
              f"gamma {settings.gamma}, random start)")
        curve = read_curve(td_dir)
        print(f"learning curve (score of the averaged weights against the initial ones, {2 * args.eval_pairs} "
              f"games per point, depth {args.eval_depth}):")
        for point in curve:
            print(f"  after {point['games']:>5} games: {point['score']:.2f}  (+{point['wins']} ={point['draws']} "
                  f"-{point['losses']})")
        print(f"  {sparkline([p['score'] for p in curve], 60, 0.0, 1.0)}")
        print(f"  initial: {json.loads((td_dir / 'initial.json').read_text())['evaluation']}")
        print(f"  trained: {json.loads((td_dir / 'trained.json').read_text())['evaluation']}")
        for name in ("trained", "best") if args.sprt_best else ("trained",):
            started = time.perf_counter()
            result = sprt(args.game, td_dir / f"{name}.json", td_dir / "initial.json",
                          out / f"sprt-td-{args.game}-seed{seed}-{name}", elo1=args.elo1, max_pairs=args.max_pairs,
                          seed=7)
            show_sprt(f"TD {name} vs initial ({args.game}, seed {seed}, {time.perf_counter() - started:.0f} s)", result)

    # 3. The evolutionary bootstrap
    if not args.skip_evolve:
        started = time.perf_counter()
        ev = EvolveSettings(game=args.game, population=8, keep=3, rounds=3, games_per_pair=4, depth=2,
                            final_games=20, seed=1)
        evolved = Evolution(ev, out / f"evolve-{args.game}", concurrency=2, say=say, report_every=100).run()
        print(f"== evolve {args.game}: population {ev.population}, keep {ev.keep}, {ev.rounds} rounds, "
              f"{ev.games_per_pair} games per pair ({time.perf_counter() - started:.0f} s)")
        for line in table_lines(evolved):
            print("  " + line)

    # 4. SPSA, and the tuned file against its start
    if not args.skip_spsa:
        for config_path in args.spsa_configs:
            started = time.perf_counter()
            config = load_spsa_config(config_path)
            spsa_dir = out / f"spsa-{config_path.stem}"
            theta = run_spsa(config, spsa_dir, say=say, progress_every=25)
            from arena.cli.tune_cmd import write_charts

            print(f"== SPSA {config.game} ({config_path.name}): {config.iterations} iterations of {config.pairs} "
                  f"pairs ({time.perf_counter() - started:.0f} s); chart {spsa_dir / 'history.html'}")
            for line in write_charts(spsa_dir, config):
                print("  " + line)
            print(f"  tuned: {', '.join(f'{k} {v:.1f}' for k, v in theta.items())}")
            started = time.perf_counter()
            result = sprt(config.game, spsa_dir / "tuned.json", spsa_dir / "start.json",
                          out / f"sprt-spsa-{config_path.stem}", elo1=args.elo1, max_pairs=args.max_pairs, seed=7)
            show_sprt(f"SPSA-tuned vs start ({config.game}, {time.perf_counter() - started:.0f} s)", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
