"""`arena sprt --backend ray`: an SPRT whose games are Ray tasks on an embedded instance, in fresh
network and PID namespaces (loopback only; everything it starts dies with the namespace). Skipped,
with the reason, where Ray or namespaces are unavailable (see test_ray_cluster.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ray.ray_support import run_in_namespace
from tests.ray.test_ray_cluster import _SKIP

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")]


def test_an_sprt_plays_its_pairs_on_ray_and_resumes_locally(tmp_path: Path) -> None:
    logs = tmp_path / "sprt"
    arena = f"{sys.executable} -m arena sprt 'python3 bots/connect4_greedy.py' 'python3 bots/connect4_random.py' " \
            f"--game connect4 --opening-plies 2 --seed 4 --logs {logs} --json"
    done = run_in_namespace(f"{arena} --max-pairs 2 --concurrency 2 --backend ray --ray-cpus-per-game 1")
    assert done.returncode == 4, done.stderr[-3000:]  # capped, undecided
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["pairs"] == 2 and summary["stopped"] == "max-pairs"
    records = [json.loads((logs / "games" / f"{i:05d}.json").read_text()) for i in range(4)]
    assert all(r["node"]["ip"] == "127.0.0.1" for r in records)
    assert records[0]["turns"][:2] == records[1]["turns"][:2]  # a pair shares its opening
    # The backend is how to run, not what is played: the same run resumes here, without Ray.
    again = subprocess.run(["bash", "-c", f"{arena} --max-pairs 3"], cwd=ROOT, capture_output=True, text=True,
                           timeout=300, check=False, stdin=subprocess.DEVNULL)
    assert again.returncode == 4, again.stderr[-2000:]
    assert "resuming" in again.stderr and json.loads(again.stdout.strip().splitlines()[-1])["pairs"] == 3
    assert "node" not in json.loads((logs / "games" / "00004.json").read_text())
