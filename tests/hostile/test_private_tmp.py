"""A bot whose files are under /tmp still starts under bubblewrap (issue 18, the Ray item).

Every bubblewrapped bot gets a private, empty /tmp. What its command needs there (its script, its
working folder) must be shown to it read-only, also where its user could pass: a Ray worker's copy
of the shipped folder lies in Ray's session folder, /tmp/ray by default, and every game of a Ray
run crashed with "bwrap: Can't chdir to /tmp/ray/session_.../working_dir_files/...". The rest of
its /tmp stays private.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation, sandbox_available

REPO = Path(__file__).resolve().parents[2]
TC = TimeControl(time_limit_ms=30000, startup_ms=10000)

pytestmark = pytest.mark.skipif(sandbox_available() is not None, reason=str(sandbox_available()))

# A random Connect Four bot that also reports, on stderr, whether it sees a file of /tmp that it
# does not need.
PEEKER = """\
import json, os, random, sys
print("PEEK", os.path.exists(os.environ["PEEK"]), file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") == "game_state":
        top = message["payload"]["board"][0]
        print(json.dumps({"type": "turn", "payload": random.choice([c for c in range(7) if top[c] == "."])}),
              flush=True)
"""


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder under /tmp that any user may pass and read (as /tmp/ray is)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-open-", dir="/tmp"))
    try:
        (folder / "deep").mkdir()
        for path in (folder, folder / "deep"):
            path.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("sandbox", [False, True], ids=["default", "sandbox"])
@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "in-its-cwd"])
async def test_a_bot_in_a_folder_under_tmp_starts_and_sees_nothing_else_there(
        open_folder: Path, tmp_path: Path, sandbox: bool, relative: bool) -> None:
    bot = open_folder / "deep" / "peeker.py"
    bot.write_text(PEEKER)
    bot.chmod(0o644)
    secret = Path(tempfile.mkdtemp(prefix="arena-other-", dir="/tmp")) / "other.txt"
    secret.write_text("someone else's")
    secret.parent.chmod(0o755)
    secret.chmod(0o644)
    try:
        command = "python3 peeker.py" if relative else f"python3 {bot}"
        peeker = AgentSpec("peeker", command=command, cwd=str(bot.parent) if relative else None,
                           env=(("PEEK", str(secret)),))
        other = AgentSpec("other", command=f"python3 {REPO / 'bots' / 'connect4_random.py'}")
        stderr_dir = tmp_path / "stderr"
        record = await play_game(configured_game("connect4"), peeker, other, time_control=TC, stderr_dir=stderr_dir,
                                 game_index=0, isolation=Isolation(sandbox=sandbox))
    finally:
        shutil.rmtree(secret.parent, ignore_errors=True)
    assert record["termination"] in ("win", "draw"), record["reason"]
    assert "PEEK False" in (stderr_dir / "00000-black-peeker.log").read_text()
