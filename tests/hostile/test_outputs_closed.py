"""Issue 33, item 5: what arena writes is closed to bots. A first ``arena match`` leaves its records
and its bots' stderr logs; a later match's hostile bot (a user of its own) tries to read them, to
list the logs' folder, and to read a file its owner left readable by all (the control: it shows the
bot could read if the modes let it). Sandbox on (the default) and off, beside a busy loop; no bot
process is left afterwards."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from arena_runs import GAME, ROOT, play_match
from hostile_support import hostile_command, kill_marked, reap_adopted_zombies, survivors

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="bots have users of their own only when arena runs as root"),
    pytest.mark.timeout(300),
]

ISOLATION = [pytest.param([], id="default"), pytest.param(["--no-sandbox"], id="no-sandbox")]


@pytest.fixture
def shared_dir(marker: str) -> Iterator[Path]:
    """A folder every user may enter, outside /tmp (a bot's /tmp is its own: files there would be
    out of its sight whatever their modes), below the repository (which bots must read anyway)."""
    base = ROOT / ".pytest-tmp"
    base.mkdir(exist_ok=True)
    path = Path(tempfile.mkdtemp(prefix=marker + "-", dir=base))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def busy_loop() -> Iterator[None]:
    """A process that keeps one CPU busy for the test's length (ended by its pid)."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("flags", ISOLATION)
def test_a_later_bot_reads_no_earlier_record_nor_another_bots_stderr(marker: str, shared_dir: Path,
                                                                      flags: list[str], busy_loop: None) -> None:
    plain = hostile_command(marker, GAME, "plain", "-")
    try:
        first = play_match(plain, plain, shared_dir / "first", flags=flags, max_moves=6)
        assert first.returncode == 0 and len(first.records) == 2, first.stderr[-2000:]
        records = shared_dir / "first" / "records.json"
        logs = sorted(first.logs.glob("*.log"))
        assert logs
        control = shared_dir / "control.txt"
        control.write_text("left readable by its owner")
        control.chmod(0o644)
        paths = [str(records), str(first.logs), *(str(log) for log in logs), str(control)]
        thief = hostile_command(marker, GAME, "read_paths", "-", {"paths": paths})
        second = play_match(thief, plain, shared_dir / "second", flags=flags, games=1, max_moves=6)
        assert second.returncode == 0 and len(second.records) == 1, second.stderr[-2000:]
    finally:
        kill_marked(marker)
        reap_adopted_zombies()
    found = [json.loads(text) for *_, text in second.reports("read_paths")]
    assert len(found) == 1, second.stderr[-2000:]
    tried = found[0]
    got = {path: how for path, how in tried.items() if path != str(control) and not how.startswith("denied")}
    assert not got, tried
    if "--no-sandbox" in flags:  # the sandbox may hide the control too; without it the bot reads it
        assert tried[str(control)].startswith("read "), tried
    assert survivors(marker) == []
