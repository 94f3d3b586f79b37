"""The driver's memory over a 2,000-game tournament on the Ray backend (issue 12): it must stay flat.

    .venv/bin/python bench/ray_memory.py [--games 2000] [--real]

A round robin of 5 agents runs through arena's tournament runner on an embedded Ray instance; the
driver's resident memory (VmRSS, and the high-water mark VmHWM) is sampled every 250 finished
games. By default each Ray task is an in-process fake game (no bot processes: it returns a real
Connect Four record played once at start, relabelled), so the driver handles 2,000 results in
seconds and nothing but the driver's own bookkeeping shows; ``--real`` plays real games of two
random Connect Four bots instead (minutes).

Runs itself inside fresh network, PID and mount namespaces (``unshare -n -p -f --mount-proc``), so
the Ray instance is on loopback only and ends with the namespace. Needs ``arena[ray]``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BOT = REPO / "bots" / "connect4_random.py"
SAMPLE_EVERY = 250


def in_namespace(argv: list[str]) -> None:
    script = f"ip link set lo up && exec {sys.executable} {Path(__file__).resolve()} --inside {' '.join(argv)}"
    sys.exit(subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", script + "; true"],
                            check=False).returncode)


def memory_kib() -> dict[str, int]:
    """VmHWM and VmRSS of this process in KiB, by name (tournament_bench reads them)."""
    from tournament_bench import memory_kib as peak_and_resident  # bench/ is sys.path[0]: run by path

    return dict(zip(("VmHWM", "VmRSS"), peak_and_resident(), strict=True))


def make_fake_task(canned: dict[str, Any]) -> Any:
    """A stand-in for :func:`arena.backends.ray_backend.game_task` (defined here, so Ray ships it by
    value): the canned record relabelled for the job, no processes started."""

    def fake_game_task(job: Any, root: Any, keep_logs: bool = True) -> dict[str, Any]:
        from arena.backends.ray_backend import node_info

        record = copy.deepcopy(canned)
        record["game_index"] = job.game_index
        record["players"][0]["id"], record["players"][1]["id"] = job.agents[0].id, job.agents[1].id
        record.pop("stderr_logs", None)
        return {"record": record, "stderr": {}, "node": node_info()}

    return fake_game_task


def canned_record() -> dict[str, Any]:
    import trio

    from arena.backends import GameJob
    from arena.backends.local import run_job
    from arena.match.clock import TimeControl
    from arena.players.spec import AgentSpec

    job = GameJob(game="connect4", agents=(AgentSpec("a", command=f"{sys.executable} {BOT} --seed 1"),
                                           AgentSpec("b", command=f"{sys.executable} {BOT} --seed 2")),
                  time_control=TimeControl(time_limit_ms=20000), seed=1, game_index=0)
    return trio.run(run_job, job)


def run(games: int, real: bool, work: Path) -> dict[str, Any]:
    import trio

    from arena.backends import BackendOptions
    from arena.backends import ray_backend as ray_module
    from arena.tournament.config import load_config
    from arena.tournament.runner import RunOptions, SilentReporter, Tournament

    if not real:
        ray_module.game_task = make_fake_task(canned_record())  # type: ignore[assignment]
    agents = [{"id": f"r{i}", "path": f"{sys.executable} {BOT} --seed {i}"} for i in range(5)]
    config_path = work / "mem.json"
    config_path.write_text(json.dumps({"id": "mem", "game": "connect4", "agents": agents,
                                       "gamesPerPair": max(1, games // 10), "timeLimit": 20000}))
    samples: list[dict[str, Any]] = []
    began = time.perf_counter()

    class Sampler(SilentReporter):
        def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
            if done % SAMPLE_EVERY == 0:
                samples.append({"games": done, **memory_kib(), "s": round(time.perf_counter() - began, 1)})

    # Fake games need no CPU of their own: several at once per core keep the driver busy.
    backend = BackendOptions(kind="ray", cpus_per_game=1 if real else 0.25, shared_files=True, num_cpus=2)
    tournament = Tournament(load_config(config_path), RunOptions(logs_root=work / "logs", backend=backend),
                            Sampler())
    tournament.prepare()
    samples.append({"games": 0, **memory_kib(), "s": 0.0, "note": "after connecting to Ray"})

    async def main() -> None:
        try:
            await tournament.play()
        finally:
            await tournament.finish()

    trio.run(main)
    lines = (work / "logs" / "mem" / "games.jsonl").read_text().splitlines()
    first, last = samples[1], samples[-1]
    return {"games": len(lines), "real_bots": real, "concurrency": tournament.concurrency,
            "rss_growth_kib_first_sample_to_last": last["VmRSS"] - first["VmRSS"],
            "games_per_s": round(len(lines) / (time.perf_counter() - began), 1), "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--real", action="store_true", help="real bot processes instead of fake games")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside:
        in_namespace([f"--games={args.games}"] + (["--real"] if args.real else []))
    work = Path(tempfile.mkdtemp(prefix="arena-ray-mem-"))
    # Ray's session folders and tokens go to the work folder (removed at the end), not /tmp/ray, ~/.ray.
    os.environ.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled", HOME=str(work / "home"),
                      RAY_TMPDIR=str(work / "r"))
    (work / "home").mkdir()
    (work / "r").mkdir()
    try:
        print(json.dumps(run(args.games, args.real, work)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
