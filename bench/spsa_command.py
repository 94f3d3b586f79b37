"""SPSA of an external bot's option (``arena tune spsa`` with a command agent), measured.

Runs an SPSA config whose agent is a command (default ``examples/spsa/connect4_depth.json``: the
``--depth`` of ``bots/connect4_alphabeta.py``) in a fresh folder, then prints the iterations, the
parameters' path (a sparkline and the values), the probes' results, how the games ended and the
wall time; with ``--sprt-pairs N`` also an ``arena sprt`` of the tuned command against the
starting one (at most N pairs, from the same opening book).

Run: ``python bench/spsa_command.py [--config FILE] [--iterations N] [-j J] [--out DIR]
[--sprt-pairs N] [--elo1 E]``. It prints figures; it does not pass or fail.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.report.charts import sparkline  # noqa: E402
from arena.train.spsa import load_spsa_config, read_history, run_spsa  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=ROOT / "examples" / "spsa" / "connect4_depth.json")
    parser.add_argument("--iterations", type=int, default=None, help="default: the config's")
    parser.add_argument("-j", "--concurrency", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None, help="the run folder (default: a temporary one)")
    parser.add_argument("--sprt-pairs", type=int, default=0, help="then tuned against start, at most N pairs")
    parser.add_argument("--elo1", type=float, default=50.0, help="the SPRT's H1 (normalized Elo; H0 is 0)")
    args = parser.parse_args()
    config = load_spsa_config(args.config)
    if config.command is None:
        parser.error(f"{args.config}: its agent is a hyperparameters file, not a command")
    out = args.out or Path(tempfile.mkdtemp(prefix="spsa-command-"))
    began = time.perf_counter()
    theta = run_spsa(config, out, iterations=args.iterations, concurrency=args.concurrency,
                     say=lambda line: print(line, file=sys.stderr, flush=True), progress_every=5)
    wall = time.perf_counter() - began
    history = read_history(out)
    endings: Counter[str] = Counter()
    for line in history:
        endings.update(line["games"]["endings"])
    games = sum(line["games"]["count"] for line in history)
    print(f"config {args.config.name}: {len(history)} iterations x {config.pairs} pairs = {games} games, "
          f"-j {args.concurrency}, wall {wall:.1f} s ({wall / max(1, len(history)):.2f} s an iteration)")
    for p in config.parameters:
        path = [p.start] + [line["theta"][p.key] for line in history]
        print(f"  {p.key}: {sparkline(path, 60)}  {p.start:g} -> {theta[p.key]:.2f}; path "
              + " ".join(f"{v:.2f}" for v in path))
    shown = " ".join(f"{line['y']:+.2f}" for line in history)
    print(f"  y per iteration: {shown}")
    print(f"  endings: {dict(sorted(endings.items()))}")
    tuned, start = (json.loads((out / name).read_text()) for name in ("tuned.json", "start.json"))
    print(f"  start: {start['command']}\n  tuned: {tuned['command']}\n  run folder: {out}")
    if args.sprt_pairs and tuned["command"] != start["command"]:
        agent = config.command
        argv = [sys.executable, "-m", "arena", "sprt", tuned["command"], start["command"], "--game", config.game,
                "--elo0", "0", "--elo1", str(args.elo1), "--max-pairs", str(args.sprt_pairs), "--seed", "1", "--concurrency",
                str(args.concurrency), "--time-limit", str(agent.time_control.time_limit_ms),
                "--logs", str(out / "sprt"), "--json"]
        if config.openings:
            argv += ["--openings", config.openings]
        began = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
        lines = done.stdout.strip().splitlines()
        print(f"sprt tuned vs start (exit {done.returncode}, {time.perf_counter() - began:.1f} s): "
              f"{lines[-1] if lines else done.stderr.strip()[-300:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
