"""`arena train evolve --backend ray`: every round's tournament and the final games are Ray tasks on an
embedded instance, in fresh network and PID namespaces (loopback only; everything it starts dies
with the namespace); the run then resumes in this process. Skipped, with the reason, where Ray or
namespaces are unavailable (see test_ray_cluster.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ray.ray_support import run_in_namespace
from tests.ray.test_ray_cluster import _SKIP

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")]
GAMES = {"round-1": 3, "round-2": 6, "final": 4}  # 3 couples; 2 x 2 children, 6 couples; 2 ancestors x 2


def rows(out: Path, name: str) -> list[dict[str, Any]]:
    text = (out / "tournament_logs" / name / "games.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_an_evolve_run_plays_its_tournaments_on_ray_and_resumes_locally(tmp_path: Path) -> None:
    out = tmp_path / "evolve"  # outside the current folder: only its players/ is shipped
    arena = f"{sys.executable} -m arena train evolve --game connect4 --population 3 --keep 2 --rounds 2 " \
            f"--games-per-pair 1 --depth 1 --final-games 2 --seed 4 --out {out}"
    done = run_in_namespace(f"{arena} --backend ray --ray-cpus-per-game 1")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    shipping = f"shipping {out.resolve() / 'players'}"
    for name in GAMES:
        assert any(line.startswith(f"tournament {name}: ray: 1 node(s)") and shipping in line
                   for line in done.stderr.splitlines()), done.stderr[-3000:]
    for name, count in GAMES.items():
        played = rows(out, name)
        assert len(played) == count and all(r["node"]["ip"] == "127.0.0.1" for r in played)
        record = json.loads((out / "tournament_logs" / name / "games" / "00000.json").read_text())
        assert record["node"]["ip"] == "127.0.0.1" and "pid" in record["node"]
        standings = json.loads((out / "tournament_logs" / name / "standings.json").read_text())
        assert sum(n["games"] for n in standings["nodes"]) == count
    assert done.stdout.startswith("winner r2-")
    winner = json.loads((out / "final.json").read_text())["winner"]

    # The backend is how to run, not what is bred: stopped during round 2 (its last two games never
    # finished), the same run resumes here, without Ray.
    log = out / "tournament_logs" / "round-2" / "games.jsonl"
    log.write_text("".join(line + "\n" for line in log.read_text().splitlines()[:-2]))
    for name in ("round-2.result.json", "final.json", "winner.json"):
        (out / name).unlink()
    shutil.rmtree(out / "tournament_logs" / "final")
    again = subprocess.run(["bash", "-c", arena], cwd=ROOT, capture_output=True, text=True, timeout=300,
                           check=False, stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stderr[-2000:]
    assert "round 1: already played" in again.stderr and "ray:" not in again.stderr
    assert "(4 already played)" in again.stderr  # round 2's games played on Ray are kept
    round2 = rows(out, "round-2")
    assert len(round2) == 6 and sum("node" in r for r in round2) == 4
    assert all("node" not in r for r in rows(out, "final"))
    assert json.loads((out / "final.json").read_text())["winner"].startswith("r2-") and winner.startswith("r2-")
