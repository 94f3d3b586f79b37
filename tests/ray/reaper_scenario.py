"""The embedded Ray instance after ``kill -9`` of its driver (issue 33, item 8).

Run by tests/ray/test_ray_reaper.py as the child of PID 1 in fresh network, PID and mount
namespaces: every process here is this scenario's. ``arena run --backend ray`` (the embedded
instance) plays until its first game is recorded, with its bots up; then the driver is killed with
SIGKILL, and the scenario waits (at most :data:`cluster_scenario.HANG_S`; it polls, never sleeps a
fixed time) until no process but itself and PID 1 is left and the Ray folder holds nothing. It
prints one JSON object: what was alive at the kill, how long the cleaning took, what was left.

Usage: reaper_scenario.py WORKDIR
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cluster_scenario import AGENTS, REPO, arena, bots, bots_seen_once, config, procs, rows, wait_until

#: The issue's bound: everything of the instance gone this long after the driver's death.
CLEAN_WITHIN_S = 60.0


def others() -> dict[int, str]:
    """Every live process of the namespace but PID 1 (bash) and this scenario."""
    return {pid: cmd[:120] for pid, (_, _, cmd) in procs().items() if pid not in (1, os.getpid())}


def main() -> None:
    work = Path(sys.argv[1])
    (work / "cfg" / "bots").mkdir(parents=True)
    shutil.copy(REPO / "bots" / "connect4_random.py", work / "cfg" / "bots" / "connect4_random.py")
    # Ray's folders go to a folder of the scenario's own (counted exactly), outside the shipped one
    # and short (Ray's socket paths are bounded to 107 bytes).
    ray_tmp = Path(tempfile.mkdtemp(prefix="arr-"))
    try:
        run(work, ray_tmp)
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)


def run(work: Path, ray_tmp: Path) -> None:
    (work / "t").mkdir()
    os.environ.update(RAY_TMPDIR=str(ray_tmp), TMPDIR=str(work / "t"), RAY_USAGE_STATS_ENABLED="0",
                      RAY_AUTH_MODE="disabled", HOME=str(work / "home"))
    tempfile.tempdir = None
    (work / "home").mkdir()
    logs = work / "logs"
    agents = [(aid, cmd) for aid, cmd in AGENTS if aid == "random"]
    agents.append(("random2", agents[0][1]))
    path = config(work, "embedded", 20, agents)
    driver = arena([str(path), "--backend", "ray", "--logs", str(logs)], cwd=work / "cfg")
    playing = bots_seen_once(lambda: len(rows(logs, "embedded")) >= 1, driver)
    alive_at_kill = others()
    folders_at_kill = sorted(os.listdir(ray_tmp))
    driver.kill()
    killed_at = time.monotonic()
    _, driver_err = driver.communicate()
    clean = wait_until(lambda: not others() and not os.listdir(ray_tmp), timeout=CLEAN_WITHIN_S)
    report = {"playing": playing, "rows": len(rows(logs, "embedded")), "driver_code": driver.returncode,
              "alive_at_kill": len(alive_at_kill), "ray_at_kill": sorted({c.split()[0] for c in alive_at_kill.values()
                                                                         if "ray" in c}),
              "folders_at_kill": folders_at_kill, "clean": clean, "clean_s": round(time.monotonic() - killed_at, 1),
              "left": others(), "driver_err": driver_err[-1500:], "bots_left": sorted(bots()), "folders_left": sorted(os.listdir(ray_tmp))}
    print(json.dumps(report))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
