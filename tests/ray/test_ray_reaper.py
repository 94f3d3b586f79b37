"""Ray leaves nothing (issue 33, item 8): after ``kill -9`` of the driver of an embedded instance,
every process of the instance and its folder are gone within 60 s (Ray alone left its
``DashboardAgent``, ``RuntimeEnvAgent`` and session folder). Runs tests/ray/reaper_scenario.py in
its own network, PID and mount namespaces (skipped, with the reason, where they cannot be made);
a cluster arena joined is checked by tests/ray/test_ray_cluster.py (its kill -9 phase)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_ray_cluster import _SKIP

HERE = Path(__file__).resolve().parent
SCENARIO_TIMEOUT_S = 600

pytestmark = [pytest.mark.slow, pytest.mark.timeout(SCENARIO_TIMEOUT_S + 60),
              pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("rayreaper") / "work"
    # bash stays PID 1 of the namespace: the scenario's own count of processes leaves it out.
    script = f"ip link set lo up && {sys.executable} {HERE / 'reaper_scenario.py'} {work}; true"
    done = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", script],
                          capture_output=True, text=True, timeout=SCENARIO_TIMEOUT_S, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines, f"scenario failed ({done.returncode}): {done.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1])
    print("ray reaper figures:", json.dumps({k: result[k] for k in ("alive_at_kill", "clean_s", "rows")}))
    return result


def test_the_driver_was_killed_while_games_were_played(report: dict[str, Any]) -> None:
    assert report["playing"] and report["rows"] >= 1, report
    assert report["driver_code"] == -9, report
    assert report["folders_at_kill"], report  # the instance's folder existed


def test_no_process_of_the_embedded_instance_outlives_its_driver(report: dict[str, Any]) -> None:
    assert report["clean"], report["left"]
    assert report["left"] == {} and report["bots_left"] == [], report


def test_the_instances_session_folders_are_removed(report: dict[str, Any]) -> None:
    assert report["folders_left"] == [], report
