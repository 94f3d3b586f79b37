"""`arena run --backend ray` of a tournament of N seats (issue 21): three-player Kuhn poker games as
Ray tasks on an embedded instance in fresh network and PID namespaces, then resumed locally.
Skipped, with the reason, where Ray or namespaces are unavailable (see test_ray_cluster.py)."""

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


def test_a_three_seat_round_robin_plays_on_ray_and_resumes_locally(tmp_path: Path) -> None:
    bots = ROOT / "bots"
    config = tmp_path / "kuhn.json"

    def write(games_per_group: int) -> None:
        config.write_text(json.dumps({
            "id": "kuhn-ray", "game": "kuhn_poker", "players": 3, "gamesPerGroup": games_per_group, "seed": 3,
            "agents": [{"id": "heuristic", "path": f"python3 {bots / 'kuhn_poker_heuristic.py'}"},
                       {"id": "r1", "path": f"python3 {bots / 'kuhn_poker_random.py'} --seed 1"},
                       {"id": "r2", "path": f"python3 {bots / 'kuhn_poker_random.py'} --seed 2"},
                       {"id": "r3", "path": f"python3 {bots / 'kuhn_poker_random.py'} --seed 3"}]}))

    write(3)
    logs = tmp_path / "logs"
    arena = f"{sys.executable} -m arena run {config} --logs {logs} --json"
    done = run_in_namespace(f"{arena} --concurrency 2 --backend ray --ray-cpus-per-game 1")
    assert done.returncode == 0, done.stderr[-3000:]
    folder = logs / "kuhn-ray"
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert sorted(row["index"] for row in rows) == list(range(12))
    assert all(row["node"]["ip"] == "127.0.0.1" for row in rows)
    record = json.loads((folder / "games" / "00000.json").read_text())
    assert record["record_format"] == 4 and record["node"]["ip"] == "127.0.0.1"
    assert [seat["id"] for seat in record["seats"]] == rows[[r["index"] for r in rows].index(0)]["seats"]
    # The backend is how to run, not what is played: one more rotation per group, here, without Ray.
    write(6)
    again = subprocess.run(["bash", "-c", arena], cwd=ROOT, capture_output=True, text=True, timeout=300,
                           check=False, stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stderr[-2000:]
    summary = json.loads(again.stdout)
    assert (summary["games_already_done"], summary["games_played_now"]) == (12, 12)
    assert summary["players"] == 3 and summary["games"] == 24
    assert "node" not in json.loads((folder / "games" / "00012.json").read_text())
