"""Tournament throughput and memory: a 200-game round robin of fast bots at concurrency 1 and 2.

Prints, for each concurrency, games per second and arena's own peak memory (VmHWM of the arena
process; bots are separate processes and not counted) after 50 games and after 200 games: the two
must be about equal, because nothing arena keeps per game grows beyond a small row.

    .venv/bin/python bench/tournament_bench.py [--games 200] [--game shobu] [--max-moves 30]

Each concurrency runs in a fresh child process (``--child``), so one run's memory does not hide in
the other's high-water mark.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BOTS = {"shobu": ("shobu_random.py", "shobu_greedy.py"), "checkers": ("checkers_random.py", "checkers_greedy.py")}


def memory_kib() -> tuple[int, int]:
    """(VmHWM, VmRSS) of this process in KiB."""
    fields: dict[str, int] = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                fields[key] = int(value.split()[0])
    return fields["VmHWM"], fields["VmRSS"]


def write_config(folder: Path, game: str, games: int, max_moves: int) -> Path:
    """A round robin of 5 fast bots (10 couples) with ``games`` games in all."""
    names = BOTS[game]
    agents = [{"type": "executable", "id": f"bot{i}",
               "path": f"{sys.executable} {REPO / 'bots' / names[i % 2]} --seed {i}"} for i in range(5)]
    per_pair = max(1, games // 10)
    config = {"id": "bench", "game": game, "agents": agents, "tournamentType": "roundRobin",
              "gamesPerPair": per_pair, "timeLimit": 60000, "maxMoves": max_moves}
    path = folder / "bench.json"
    path.write_text(json.dumps(config))
    return path


def child(config_path: str, logs: str, concurrency: int) -> None:
    import trio

    from arena.tournament.config import load_config
    from arena.tournament.runner import RunOptions, SilentReporter, Tournament

    marks: dict[int, dict[str, Any]] = {}
    began = time.perf_counter()

    class Sampler(SilentReporter):
        def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, Any]) -> None:
            if done in (50, 100, 200) or done % 50 == 0:
                hwm, rss = memory_kib()
                marks[done] = {"seconds": time.perf_counter() - began, "hwm_kib": hwm, "rss_kib": rss}

    config = load_config(config_path)
    tournament = Tournament(config, RunOptions(logs_root=Path(logs), concurrency=concurrency), Sampler())
    tournament.prepare()

    async def main() -> Any:
        await tournament.play()
        return await tournament.finish()

    summary = trio.run(main)
    elapsed = time.perf_counter() - began
    hwm, _ = memory_kib()
    print(json.dumps({"concurrency": concurrency, "games": summary.finished, "seconds": elapsed,
                      "marks": marks, "final_hwm_kib": hwm,
                      "terminations": summary.standings["terminations"]["total"]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=sorted(BOTS), default="shobu")
    parser.add_argument("--max-moves", type=int, default=30)
    parser.add_argument("--concurrency", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--child", nargs=3, metavar=("CONFIG", "LOGS", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return
    print(f"tournament bench: {args.game} round robin, 5 bots, {args.games} games, maxMoves {args.max_moves}, "
          f"{os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = write_config(folder, args.game, args.games, args.max_moves)
        for concurrency in args.concurrency:
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(config), str(folder / f"logs{concurrency}"),
                 str(concurrency)], capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(f"concurrency {concurrency}: failed\n{out.stderr}")
                continue
            result = json.loads(out.stdout.strip().splitlines()[-1])
            marks = {int(k): v for k, v in result["marks"].items()}
            rate = result["games"] / result["seconds"]
            line = (f"concurrency {concurrency}: {result['games']} games in {result['seconds']:.1f} s = "
                    f"{rate:.2f} games/s")
            for mark in (50, 200):
                if mark in marks:
                    line += f"; peak memory at {mark} games {marks[mark]['hwm_kib'] / 1024:.1f} MiB"
            print(line)
            print(f"    terminations: {result['terminations']}")


if __name__ == "__main__":
    main()
