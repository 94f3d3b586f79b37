"""What confining bots costs: a 60-turn match and a 300-game tournament of instant bots, side by side.

Runs the same two workloads with one or more arena source trees (``--tree``: a checkout whose
``arena`` package is put first on ``PYTHONPATH``; default: this one), interleaved over ``--repeats``
rounds so that load changes hit every variant alike, and prints the median wall time of each
(and the CPU time the kernel accounts to waited-for children: arena and the bots it reaps itself;
not comparable across variants where bubblewrap reaps the bots and is killed before accounting):

- ``match``: ``arena match`` of two instant Shobu bots (random movers) for one game of 60 turns;
- ``tournament``: ``arena run`` of 300 checkers games (two random movers, 20 plies each) at
  concurrency 2.

Extra arena options per variant with ``--variant NAME=TREE[:OPTIONS]``, e.g.
``--variant before=/path/to/old/checkout --variant default=. --variant no-sandbox=.:--no-sandbox``.

    .venv/bin/python bench/isolation_cost.py --variant before=../base --variant default=. --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The bots' interpreter, named by its real path: a version manager's shim (pyenv's python3 is a
# bash script) would cost each bot start more than everything measured here, and arena now resolves
# such a shim itself where a bot has a user of its own, which would favour one side.
PYTHON = os.path.realpath(sys.executable)


def _run(tree: Path, args: list[str], cwd: Path) -> tuple[float, float]:
    """(wall s, CPU s of arena and everything it waited for) of ``python -m arena ARGS``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begun = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "arena", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False, timeout=1800)
    wall = time.perf_counter() - begun
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"arena {shlex.join(args)} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _match(tree: Path, options: list[str], work: Path) -> tuple[float, float]:
    bots = REPO / "bots"
    return _run(tree, ["match", f"{PYTHON} {bots / 'shobu_random.py'} --seed 1",
                       f"{PYTHON} {bots / 'shobu_random.py'} --seed 2", "--max-moves", "60", "--quiet", "--json",
                       "--game", "shobu", *options], work)


def _tournament(tree: Path, options: list[str], work: Path, games: int) -> tuple[float, float]:
    bots = REPO / "bots"
    folder = Path(tempfile.mkdtemp(dir=work))
    config = folder / "cost.json"
    config.write_text(json.dumps({
        "id": "cost", "game": "checkers", "tournamentType": "roundRobin", "gamesPerPair": games,
        "maxMoves": 20, "concurrency": 2, "timeLimit": 10000,
        "agents": [{"id": "r1", "path": f"{PYTHON} {bots / 'checkers_random.py'} --seed 1"},
                   {"id": "r2", "path": f"{PYTHON} {bots / 'checkers_random.py'} --seed 2"}]}))
    return _run(tree, ["run", str(config), "--logs", str(folder / "logs"), *options], work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=TREE[:OPTIONS]")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    variants: list[tuple[str, Path, list[str]]] = []
    for text in args.variant or ["default=."]:
        name, _, rest = text.partition("=")
        tree, _, options = rest.partition(":")
        variants.append((name, Path(tree).resolve(), shlex.split(options)))
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(dir=REPO / ".pytest-tmp" if (REPO / ".pytest-tmp").is_dir() else None) as tmp:
        work = Path(tmp)
        os.chmod(work, 0o755)
        for _ in range(args.repeats):
            for name, tree, options in variants:
                results.setdefault((name, "match"), []).append(_match(tree, options, work))
                results.setdefault((name, "tournament"), []).append(_tournament(tree, options, work, args.games))
    print(f"{'variant':12} {'workload':11} {'wall s':>8} {'CPU s':>8}   (medians of {args.repeats})")
    for (name, workload), runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{name:12} {workload:11} {wall:8.2f} {cpu:8.2f}")


if __name__ == "__main__":
    main()
