"""How fast arena answers: start-up of the light commands and a whole short match (issue 9, item 7).

Prints the median wall time of each command over ``--runs`` runs (default 15), beside a bare
``python3 -c pass``:

- ``arena --help``, ``arena games``, ``arena perft --game checkers --depth 1``: these must not import
  trio or rich (the goal: ``arena --help`` within 4x of ``python3 -c pass``);
- ``arena match --quiet --max-moves 60`` between two fast bots (``bots/shobu_random.py`` with fixed
  seeds, the same game every run: 60 turns unless a side wins first) — the goal: no slower than the
  Shobu seed's Java engine, measured at 0.33 s per game on its own random bots;
- the same match's parts: ``python3 -c pass`` twice (the two bots' own start-up) and arena's import
  of the match command.

Run on a quiet machine: ``python bench/first_second.py [--runs N]``. It prints figures; it does not
pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(argv: list[str], runs: int) -> tuple[float, float]:
    """Median and minimum wall seconds of ``argv`` (stdout and stderr discarded)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       cwd=ROOT, check=False)
        times.append(time.perf_counter() - started)
    return statistics.median(times), min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    arena = shutil.which("arena", path=str(Path(sys.executable).parent)) or "arena"
    bot = "python3 bots/shobu_random.py --seed {}"
    rows: list[tuple[str, list[str]]] = [
        ("python3 -c pass", ["python3", "-c", "pass"]),
        ("venv python -c pass", [sys.executable, "-c", "pass"]),
        ("arena --help", [arena, "--help"]),
        ("arena games", [arena, "games"]),
        ("arena perft --game checkers --depth 1", [arena, "perft", "--game", "checkers", "--depth", "1"]),
        ("import arena.cli.match_cmd", [sys.executable, "-c", "import arena.cli.match_cmd"]),
        ("arena match (60-turn cap, 2 random bots)",
         [arena, "match", "--game", "shobu", "--quiet", "--max-moves", "60", bot.format(1), bot.format(2)]),
    ]
    results = {}
    for name, argv in rows:
        median, best = timed(argv, args.runs)
        results[name] = median
        print(f"{name:44s} median {median * 1000:7.1f} ms   min {best * 1000:7.1f} ms")
    base = results["python3 -c pass"]
    print(f"\narena --help / python3 -c pass: {results['arena --help'] / base:.1f}x (goal: at most 4x)")
    plies = json.loads(subprocess.run(rows[-1][1], capture_output=True, cwd=ROOT, check=False).stdout)["plies"]
    print(f"the match played {plies} plies: {results[rows[-1][0]]:.2f} s per game (goal: at most 0.33 s)")
    print(f"load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
