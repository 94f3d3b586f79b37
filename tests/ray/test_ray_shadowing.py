"""A folder named ``arena`` in the folder shipped to Ray's workers (issue 18): the usual layout is a
tournament folder beside a clone of arena, and Ray puts the shipped folder first on the workers'
import path. arena's own package must still be the one the workers (and arena's own search bot
started there) import. Runs on an embedded Ray instance in fresh network and PID namespaces."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from tests.ray.ray_support import run_in_namespace
from tests.ray.test_ray_cluster import _SKIP

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600), pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")]

# What the stray folder holds: a clone's root (no __init__.py: a namespace package for Python), or
# junk that imports without error but is not arena.
STRAYS = {
    "clone": {"README.md": "a clone of arena\n", "pyproject.toml": "[project]\nname = 'arena'\n"},
    "junk": {"__init__.py": "__version__ = 'junk'\n", "backends.py": "raise SystemExit('the stray arena ran')\n"},
}


@pytest.mark.parametrize("stray", sorted(STRAYS))
def test_arenas_package_wins_over_a_shipped_folder_named_arena(tmp_path: Path, stray: str) -> None:
    shipped = tmp_path / "work"
    (shipped / "bots").mkdir(parents=True)
    (shipped / "arena").mkdir()
    for name, text in STRAYS[stray].items():
        (shipped / "arena" / name).write_text(text)
    shutil.copy(ROOT / "bots" / "connect4_random.py", shipped / "bots")
    hyperparameters = json.loads((ROOT / "configs" / "hyperparameters_connect4.json").read_text())
    (shipped / "bots" / "search.json").write_text(json.dumps({**hyperparameters, "moveTimeMs": 20}))
    config = shipped / "t.json"  # beside the stray folder: the bots' working folder holds it too
    config.write_text(json.dumps({
        "id": "t", "game": "connect4", "gamesPerPair": 2, "timeLimit": 20000, "rayCpusPerGame": 1,
        "agents": [{"id": "random", "path": "python3 bots/connect4_random.py --seed 1"},
                   {"type": "hyperparameters", "id": "search", "path": "bots/search.json"}]}))
    logs = tmp_path / "logs"
    done = run_in_namespace(f"{sys.executable} -m arena run {config} --backend ray --logs {logs} --json")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "shipping " + str(shipped) in done.stderr
    rows = [json.loads(line) for line in (logs / "t" / "games.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        record = json.loads((logs / "t" / "games" / f"{row['index']:05d}.json").read_text())
        assert record["node"]["ip"] == "127.0.0.1"
        assert record["termination"] not in ("crash", "protocol_error", "arena_error"), record
