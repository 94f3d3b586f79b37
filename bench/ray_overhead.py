"""The Ray backend's cost (issue 12): per-game overhead over the local backend, and the throughput of
a two-node loopback cluster against local play at the same total CPUs.

    .venv/bin/python bench/ray_overhead.py [--games 60] [--cpus 2]

1. Overhead: the same short Connect Four games (two random bots, seeded) played one at a time,
   alternately by the local backend and by the Ray backend on an embedded instance (after a few
   warm-up games, so each worker has imported arena once), so that the machine's drift hits both
   alike. Prints seconds per game for both and the median of the paired differences (goal: under
   20 ms), plus Ray's bare round trip (an empty task) for scale.
2. Throughput: ``arena run`` of one round robin, locally at concurrency ``--cpus``, then with
   ``--backend ray`` on a cluster of two nodes (``ray start``, 127.0.0.1 only) of ``--cpus``/2 CPUs
   each, one CPU per game: games per second of each, from the first game's start to the last one's
   end (the commands' whole times, with Ray's connection and the start-up check, are printed too).

Bots are started with this Python by its absolute path (a ``python3`` found through a pyenv shim
costs ~150 ms more per start, which would swamp the figure). Runs itself inside fresh network, PID and mount namespaces (``unshare -n -p -f --mount-proc``):
loopback is the only address and every Ray process ends with the namespace. Needs ``arena[ray]``.
Figures on a busy machine wander; run it twice.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BOT = REPO / "bots" / "connect4_random.py"


def in_namespace(argv: list[str]) -> None:
    """Run this script again as the child of PID 1 (bash, which reaps) in new namespaces; exit."""
    script = f"ip link set lo up && exec {sys.executable} {Path(__file__).resolve()} --inside {' '.join(argv)}"
    sys.exit(subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", script + "; true"],
                            check=False).returncode)


def private_env(work: Path) -> None:
    # Ray's session folders and tokens go to the work folder (removed at the end), not /tmp/ray, ~/.ray.
    os.environ.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled", HOME=str(work / "home"),
                      RAY_TMPDIR=str(work / "r"))
    (work / "home").mkdir(exist_ok=True)
    (work / "r").mkdir(exist_ok=True)


def jobs(count: int) -> list[Any]:
    from arena.backends import GameJob
    from arena.match.clock import TimeControl
    from arena.players.spec import AgentSpec

    return [GameJob(game="connect4", agents=(AgentSpec("a", command=f"{sys.executable} {BOT} --seed {2 * i}"),
                                             AgentSpec("b", command=f"{sys.executable} {BOT} --seed {2 * i + 1}")),
                    time_control=TimeControl(time_limit_ms=20000), seed=i, game_index=i) for i in range(count)]


def overhead(games: int, work: Path) -> dict[str, Any]:
    import trio

    from arena.backends import BackendOptions
    from arena.backends.local import LocalBackend
    from arena.backends.ray_backend import RayBackend

    (work / "stderr").mkdir()
    local = LocalBackend()
    ray_backend = RayBackend(BackendOptions(kind="ray", cpus_per_game=1, shared_files=True, num_cpus=2))
    ray_backend.open([], base_dir=work, logs_dir=None)
    pairs: list[tuple[float, float]] = []

    async def timed(backend: Any, job: Any) -> float:
        began = time.perf_counter()
        await backend.play(job, stderr_dir=work / "stderr")
        return time.perf_counter() - began

    async def main() -> None:
        for n, job in enumerate(jobs(games + 6)):
            pair = (await timed(local, job), await timed(ray_backend, job))
            if n >= 6:
                pairs.append(pair)

    try:
        trio.run(main)
        import ray

        empty = ray.remote(lambda: None)
        ray.get([empty.remote() for _ in range(5)])
        trips = []
        for _ in range(200):
            began = time.perf_counter()
            ray.get(empty.remote())
            trips.append(time.perf_counter() - began)
    finally:
        ray_backend.close()
    local_times, ray_times = [p[0] for p in pairs], [p[1] for p in pairs]
    differences = [r - loc for loc, r in pairs]
    return {"games": games, "local_s_per_game": round(statistics.fmean(local_times), 4),
            "ray_s_per_game": round(statistics.fmean(ray_times), 4),
            "overhead_ms_per_game_median_of_pairs": round(statistics.median(differences) * 1000, 1),
            "overhead_ms_per_game_mean": round(statistics.fmean(differences) * 1000, 1),
            "spread_ms_of_local_games_stdev": round(statistics.stdev(local_times) * 1000, 1),
            "ray_empty_task_round_trip_ms": round(statistics.median(trips) * 1000, 2)}


def throughput(games: int, cpus: int, work: Path) -> dict[str, Any]:
    agents = [{"id": f"r{i}", "path": f"{sys.executable} {BOT} --seed {i}"} for i in range(4)]
    per_pair = max(1, games // 6)  # 6 pairs of 4 agents
    config = work / "tp.json"
    config.write_text(json.dumps({"id": "tp", "game": "connect4", "agents": agents, "gamesPerPair": per_pair,
                                  "timeLimit": 20000}))
    scheduled = 6 * per_pair

    def run(*extra: str) -> tuple[float, float]:
        """(wall seconds of the whole command, seconds from the first game's start to the last's end)."""
        logs = Path(tempfile.mkdtemp(dir=work))
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "arena", "run", str(config), "--logs", str(logs), *extra],
                              capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - began
        rows = [json.loads(line) for line in (logs / "tp" / "games.jsonl").read_text().splitlines()]
        if done.returncode or len(rows) != scheduled:
            raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
        starts = [datetime.fromisoformat(r["started_at"]).timestamp() for r in rows]
        ends = [start + r["duration_s"] for start, r in zip(starts, rows, strict=True)]
        return elapsed, max(ends) - min(starts)

    local_s, local_games_s = run("--concurrency", str(cpus))
    temp = Path(f"/tmp/arb{os.getpid()}")
    ray_bin = str(Path(sys.executable).parent / "ray")
    half = max(1, cpus // 2)
    subprocess.run([ray_bin, "start", "--head", "--node-ip-address=127.0.0.1", "--port=6379",
                    "--include-dashboard=false", f"--num-cpus={half}", f"--temp-dir={temp}", "--disable-usage-stats"],
                   check=True, capture_output=True)
    subprocess.run([ray_bin, "start", "--address=127.0.0.1:6379", "--node-ip-address=127.0.0.1",
                    f"--num-cpus={half}"], check=True, capture_output=True)
    try:
        ray_s, ray_games_s = run("--backend", "ray", "--ray-address", "127.0.0.1:6379", "--ray-cpus-per-game", "1")
    finally:
        shutil.rmtree(temp, ignore_errors=True)  # the processes end with the namespace
    return {"games": scheduled, "cpus": cpus, "local_games_per_s": round(scheduled / local_games_s, 2),
            "ray_two_nodes_games_per_s": round(scheduled / ray_games_s, 2),
            "local_command_s": round(local_s, 1), "ray_command_s_with_connect_and_check": round(ray_s, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside:
        in_namespace([f"--games={args.games}", f"--cpus={args.cpus}"])
    work = Path(tempfile.mkdtemp(prefix="arena-ray-bench-"))
    private_env(work)
    try:
        print(json.dumps({"overhead": overhead(args.games, work)}), flush=True)
        print(json.dumps({"throughput": throughput(args.games * 2, args.cpus, work)}), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
