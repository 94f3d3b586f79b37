"""`arena run` stopped by a signal: standings written, the documented exit status, nothing left."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
def _config(tmp_path: Path, marker: str) -> Path:
    # The marker is in the bot's file name, so its processes can be found in /proc by their argv.
    bot = tmp_path / f"greedy_{marker}.py"
    bot.write_text((ROOT / "bots" / "shobu_greedy.py").read_text())
    config = {"id": "signals", "game": "shobu", "gamesPerPair": 200, "maxMoves": 60, "timeLimit": 60000,
              "concurrency": 1,
              "agents": [{"id": "a", "path": f"{sys.executable} {bot.name}"},
                         {"id": "b", "path": f"{sys.executable} {ROOT / 'bots' / 'shobu_random.py'}"}]}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(config))
    return path


def _marked(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGHUP, 129), (signal.SIGTERM, 130), (signal.SIGINT, 130)])
def test_a_signal_stops_the_run_gracefully_with_its_exit_status(tmp_path: Path, signum: int, code: int) -> None:
    marker = f"m{os.getpid()}x{signum}"
    config = _config(tmp_path, marker)
    proc = subprocess.Popen([sys.executable, "-m", "arena", "run", str(config), "--logs", str(tmp_path / "logs")],
                            cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # Wait for the first finished game (a plain line per game: stderr is not a terminal).
        deadline = time.monotonic() + 60
        seen = b""
        assert proc.stderr is not None
        while b"[1/" not in seen and time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([proc.stderr], [], [], 1.0)
            if ready:
                seen += os.read(proc.stderr.fileno(), 65536)
        assert b"[1/" in seen, seen.decode()
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err_text = (seen + err).decode()
    assert proc.returncode == code, err_text[-2000:]
    assert "Traceback" not in err_text
    assert "interrupted after" in err_text
    folder = tmp_path / "logs" / "signals"
    assert (folder / "standings.json").exists() and (folder / "a.json").exists()
    rows = (folder / "games.jsonl").read_text().splitlines()
    assert len(rows) >= 1
    assert json.loads((folder / "a.json").read_text())["games"] == len(rows)
    deadline = time.monotonic() + 5
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marked(marker) == []
