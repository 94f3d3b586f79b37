"""kill -9 of arena in the middle of a tournament, then resume: nothing lost, nothing doubled."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import eventually
from tournament_support import REPO, read_jsonl, shobu_config

from arena.records.field import Field
from arena.tournament.config import load_config
from arena.tournament.field import field_games


def start_arena(config: Path, logs: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "arena", "run", str(config), "--logs", str(logs), "--concurrency", "2"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_for_lines(games: Path, count: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    def written() -> bool:
        assert proc.poll() is None, "arena ended before it could be killed"
        return games.exists() and games.read_bytes().count(b"\n") >= count

    eventually(written, timeout, what=f"{count} games")


def worker_pids(folder: Path) -> list[str]:
    """Live standings workers of ``folder`` (their argv names the folder)."""
    marker = f"arena.tournament.stats_worker\0{folder}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes():
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                found += [entry.name] if state != "Z" else []
        except OSError:
            continue
    return found


def worker_gone(folder: Path, timeout: float = 10) -> None:
    """The standings worker ends when arena is killed: its input reaches end of file. ``timeout``
    is a hang backstop."""
    deadline = time.monotonic() + timeout
    while True:
        found = worker_pids(folder)
        if not found:
            return
        assert time.monotonic() < deadline, f"standings worker still running: {found}"
        time.sleep(0.02)


def signature(folder: Path) -> list[tuple[str, str, int]]:
    """The games of a folder by their key (its indices are only the order they were written in)."""
    return sorted((r["black"], r["white"], r["round"]) for r in read_jsonl(folder / "games.jsonl"))


@pytest.mark.slow
def test_sigkill_twice_then_resume_equals_an_uninterrupted_run(tmp_path: Path, bot_file: Path) -> None:
    config = shobu_config(tmp_path, bot_file, id="crash", agents=4, gamesPerPair=2)  # 12 games
    logs = tmp_path / "logs"
    folder = logs / "crash"
    for stop_at in (3, 7):
        proc = start_arena(config, logs)
        wait_for_lines(folder / "games.jsonl", stop_at, proc)
        assert worker_pids(folder)  # games are being played, so the standings worker runs
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        worker_gone(folder)
        done = read_jsonl(folder / "games.jsonl")  # readable: every complete line is valid
        assert len(done) < 12
    finish = start_arena(config, logs)
    _, err = finish.communicate(timeout=60)
    assert finish.returncode == 0, err.decode()

    reference_logs = tmp_path / "reference"
    reference = start_arena(config, reference_logs)
    _, err = reference.communicate(timeout=60)
    assert reference.returncode == 0, err.decode()

    resumed = signature(folder)
    assert len(resumed) == len(set(resumed)) == 12  # none doubled
    assert resumed == signature(reference_logs / "crash")
    planned = Field("roundRobin", tuple(f"b{i}" for i in range(4)), games_per_pair=2, seed=load_config(config).seed)
    assert resumed == sorted((g.black, g.white, g.round) for g in field_games(planned))
    for row in read_jsonl(folder / "games.jsonl"):
        record = json.loads((folder / row["record"]).read_text())
        assert record["game_index"] == row["index"] and record["winner"] == row["winner"]
    stats = [json.loads((folder / f"b{i}.json").read_text()) for i in range(4)]
    assert sum(s["games"] for s in stats) == 24  # no game counted twice in the seed's files
    assert not list(folder.rglob("*.tmp"))  # a write cut short by the kill is cleaned up on resume
