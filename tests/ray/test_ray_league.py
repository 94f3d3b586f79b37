"""`arena league` on Ray (issue 23): the roster changes while the league runs, and the added bot and
the updated bot's new version play on Ray workers, from the folder shipped anew
(:meth:`arena.backends.ray_backend.RayBackend.update_agents`). One scenario
(tests/ray/league_scenario.py) on an embedded Ray instance in fresh network and PID namespaces, so
every process it starts ends with it; skipped, with the reason, where Ray or namespaces are
unavailable (see test_ray_cluster.py). Without shipping, the newcomer's games would be forfeits
(its folder missing on the workers) and alice's new version would run its old files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ray.ray_support import run_in_namespace
from tests.ray.test_ray_cluster import _SKIP

HERE = Path(__file__).resolve().parent
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")]

MARKER = "alice v2 runs in "  # tests/ray/league_scenario.py
#: A game each bot played to its end (no bot failed to start, crashed or timed out).
PLAYED_OUT = ("win", "draw", "no_legal_moves", "max_moves")


def test_a_bot_added_and_one_updated_mid_run_play_on_ray_workers(tmp_path: Path) -> None:
    done = run_in_namespace(f"{sys.executable} {HERE / 'league_scenario.py'} {tmp_path}", timeout=540)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["describe"].startswith("ray: 1 node(s)")
    assert [line.split(" ")[:2] for line in out["changes"][3:]] == [["erin", "joins"], ["alice:", "new"]]
    folder = tmp_path / "logs" / "lg"
    rows = sorted((json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()),
                  key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(10))  # none lost, none doubled
    records = [json.loads((folder / "games" / f"{r['index']:05d}.json").read_text()) for r in rows]
    assert all(r["node"]["ip"] == "127.0.0.1" for r in rows) and all("node" in rec for rec in records)
    assert all(rec["termination"] in PLAYED_OUT for rec in records), [rec.get("reason") for rec in records]

    assert all("erin" not in r["versions"] for r in rows[:3]) and "erin" in rows[3]["versions"]
    assert sum("erin" in r["versions"] for r in rows) == out["field"]["erin"]["all_versions"] >= 2
    old_alice = rows[0]["versions"].get("alice") or rows[1]["versions"]["alice"]
    new_alice = out["field"]["alice"]["version"]
    assert new_alice != old_alice
    for row, record in zip(rows, records, strict=True):
        if "alice" not in row["versions"]:
            continue
        colour = "black" if row["black"] == "alice" else "white"
        stderr = stderr_of(folder, record, colour)
        if row["versions"]["alice"] == new_alice:
            assert row["index"] >= 6 and MARKER in stderr, (row, stderr)
            assert "_ray_pkg_" in stderr.split(MARKER, 1)[1]  # in a package Ray unpacked on the worker
        else:
            assert row["index"] < 6 and MARKER not in stderr
    assert any(r["versions"].get("alice") == new_alice for r in rows)


def stderr_of(folder: Path, record: dict[str, Any], colour: str) -> str:
    """The stderr log of the bot that played ``colour`` (black, white) in ``record`` ('' when it wrote none)."""
    logs = record.get("stderr_logs") or {}
    name = logs.get("0" if colour.upper() == "BLACK" else "1")  # by seat
    if name is None:
        return ""
    path = Path(name) if Path(name).is_absolute() else folder / name
    return path.read_text(errors="replace") if path.exists() else ""
