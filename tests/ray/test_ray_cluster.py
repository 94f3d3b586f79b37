"""The Ray backend on a real two-node cluster on this machine, loopback only (issue 12).

One scenario (tests/ray/cluster_scenario.py) runs in fresh network, PID and mount namespaces: a
head and a worker node (``ray start``, 127.0.0.1 only), then several ``arena run --backend ray``
runs; the tests below check its report. Every process it started dies with the namespace; the last
test checks that none is left outside. Skipped, with the reason, without Ray or without
``unshare``/``ip`` (or the right to create namespaces).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ray.ray_support import patient_env

HERE = Path(__file__).resolve().parent
# Generous: the scenario takes about a minute on an idle 2-core machine; this only stops a hang.
SCENARIO_TIMEOUT_S = 900


def _namespaces_unavailable() -> str | None:
    if importlib.util.find_spec("ray") is None:
        return "Ray is not installed (pip install -e '.[test]' installs it)"
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            return f"{tool} is not available"
    try:
        probe = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "ip", "link", "set", "lo", "up"],
                               capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed: {exc}"
    if probe.returncode != 0:
        return f"cannot create network/PID namespaces here: {probe.stderr.decode(errors='replace').strip()[:200]}"
    return None


_SKIP = _namespaces_unavailable()
pytestmark = [pytest.mark.slow, pytest.mark.timeout(SCENARIO_TIMEOUT_S + 60),
              pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("raycluster") / "work"
    # bash stays PID 1 of the namespace (it reaps the orphans Ray's daemons leave); when the scenario
    # ends, bash exits and the kernel kills whatever is left in the namespace.
    # (`; true`: bash must not exec the last command in its place.)
    script = f"ip link set lo up && {sys.executable} {HERE / 'cluster_scenario.py'} {work}; true"
    done = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", script],
                          capture_output=True, text=True, timeout=SCENARIO_TIMEOUT_S, check=False, env=patient_env())
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode == 0 and lines, f"scenario failed ({done.returncode}): {done.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1])
    result["work"] = str(work)
    shutil.rmtree(result["temp"], ignore_errors=True)  # Ray's session folder (the scenario removes it too)
    print("ray cluster figures:", json.dumps({k: {f: v.get(f) for f in ("scheduled", "recorded", "retried",
                                                                         "doubled", "lost")}
                                              for k, v in result.items() if isinstance(v, dict) and "lost" in v}))
    return result


def test_the_cluster_starts_with_two_nodes(report: dict[str, Any]) -> None:
    assert report["cluster"]["head"] == 0, report["cluster"]
    assert report["cluster"]["worker"] == 0, report["cluster"]


def test_a_bot_missing_on_the_workers_is_one_line_before_any_game(report: dict[str, Any]) -> None:
    missing = report["missing"]
    assert missing["code"] == 2, missing
    assert "arena: error: agent 'here' cannot start on Ray node 127.0.0.1" in missing["stderr"]
    assert "program 'c4bot' is not on PATH" in missing["stderr"]
    assert missing["rows"] == 0 and "Traceback" not in missing["stderr"]


def test_the_clusters_own_failures_are_one_line_and_exit_1(report: dict[str, Any]) -> None:
    assert report["unreachable"]["code"] == 1
    assert report["unreachable"]["stderr"] == "arena: error: cannot reach the Ray cluster at 127.0.0.1:9: " \
                                              "Connection refused\n"
    too_big = report["too_big"]
    assert too_big["code"] == 1
    assert "arena: error: no node of the Ray cluster has 64 CPUs for a game (the largest has 2)" in too_big["stderr"]
    assert "Traceback" not in too_big["stderr"]


def test_the_games_on_the_cluster_are_played_not_crashed(report: dict[str, Any]) -> None:
    # Counting records is not enough: a bot that cannot start on a worker still gives one.
    for phase in ("killnode", "killworker", "kill9"):
        assert report[phase]["terminations"].get("crash", 0) == 0, (phase, report[phase]["terminations"])
    assert report["sigint"]["terminations_on_ray"].get("crash", 0) == 0, report["sigint"]


def test_a_node_killed_mid_run_loses_no_game_and_doubles_none(report: dict[str, Any]) -> None:
    run = report["killnode"]
    assert run["code"] == 0, run["stderr"]
    assert run["raylets"] == 1 and run["killed_pids"] >= 2
    assert (run["scheduled"], run["recorded"], run["lines"], run["record_files"]) == (24, 24, 24, 24)
    assert run["doubled"] == 0 and run["lost"] == 0
    assert len(run["nodes"]) == 2, "games ran on both nodes"
    # The bots of the games on the killed node died with their Ray workers (pdeathsig, guardian).
    assert run["those_bots_gone"], run
    logs = Path(report["work"]) / "logs" / "killnode"
    records = [json.loads(p.read_text()) for p in sorted((logs / "games").glob("*.json"))]
    rows = [json.loads(line) for line in (logs / "games.jsonl").read_text().splitlines()]
    assert sum(r.get("retried", 0) for r in rows) == sum(len(r.get("ray_retries", [])) for r in records)
    for record in records:
        assert record["node"]["ip"] == "127.0.0.1" and record["node"]["id"] in run["nodes"]
        for line in record.get("ray_retries", []):
            assert line.startswith("attempt 1 discarded (its partial play was lost with it): ")
    standings = json.loads((logs / "standings.json").read_text())
    assert sum(n["games"] for n in standings["nodes"]) == 24
    assert "Games per node: 127.0.0.1 " in run["stderr"]


def test_records_played_on_the_cluster_match_the_schema(report: dict[str, Any]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((HERE.parents[1] / "schemas" / "record.schema.json").read_text())
    logs = Path(report["work"]) / "logs" / "killnode"
    for path in sorted((logs / "games").glob("*.json")):
        jsonschema.validate(json.loads(path.read_text()), schema)
        record = json.loads(path.read_text())
        for colour, log in (record.get("stderr_logs") or {}).items():
            assert (logs / log).is_file(), (colour, log)  # the driver wrote the worker's stderr logs


def test_a_killed_ray_worker_takes_its_bots_and_the_game_is_played_again(report: dict[str, Any]) -> None:
    run = report["killworker"]
    assert run["code"] == 0, run["stderr"]
    assert run["killed"] and run["its_bots"] >= 2 and run["those_bots_gone"], run
    assert run["retried"] >= 1, run
    assert (run["recorded"], run["lines"], run["doubled"], run["lost"]) == (12, 12, 0, 0)


def test_ctrl_c_kills_every_bot_and_a_local_resume_plays_each_game_once(report: dict[str, Any]) -> None:
    run = report["sigint"]
    assert run["code"] == 130, run["stderr"]
    assert run["bots_while_playing"] and run["no_bots_after"], run["bots_left"]
    assert run["resume_code"] == 0, run["resume_stderr"]
    assert (run["recorded"], run["doubled"], run["lost"]) == (12, 0, 0)


def test_kill_9_of_the_driver_then_a_resume_plays_each_game_once(report: dict[str, Any]) -> None:
    run = report["kill9"]
    assert run["bots_while_playing"]
    assert run["no_bots_after"], ("the dead driver's games did not stop on the cluster", run["bots_left"])
    # A cluster arena joined is left as it was (issue 33): the head's GCS and raylet (the worker
    # node was killed in an earlier phase) still run once the dead driver's games have stopped,
    # and the head's folder is still there.
    assert run["daemons"] >= 2, run
    assert run["daemons_spared"] == run["daemons"] and run["temp_kept"], run
    # Its workers' guardians removed their cgroups and scratch roots: no next run needed.
    assert run["clean_after_kill"], run["left_after_kill"]
    assert run["resume_code"] == 0, run["resume_stderr"]
    assert (run["recorded"], run["lines"], run["doubled"], run["lost"]) == (12, 12, 0, 0)


def test_nothing_the_scenario_started_is_left(report: dict[str, Any]) -> None:
    # The workers' scratch roots and game folders, and the run cgroups of the scenario's arena
    # processes, killed ones included.
    assert report["left"] == {"temp": [], "cgroups": []}
    marks = (report["work"].encode(), report["temp"].encode())
    left = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if any(mark in cmd for mark in marks):
            left.append(cmd.replace(b"\0", b" ")[:200])
    assert not left
