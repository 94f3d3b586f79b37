"""`arena serve` in a real browser: headless Chromium (Debian's ``chromium``, found on the PATH)
driven by Playwright, with the server on loopback inside its own network and PID namespaces
(browser_check.py runs there, the browser beside the server).

Checked: the leaderboard changes in the DOM as games finish, without a reload, and never shows
-0.00; a game in progress shows its moves as they are played, on the leaderboard and on its own
page (which keeps its latest move in view), and becomes the viewer of its record once it has
finished; a finished game opens at its last position with the result and its reason; long reasons
wrap (no page is wider than 1280 px); an agent's page shows its faults' stderr. Screenshots
(1280x900) go to ``$ARENA_SHOTS`` when it is set (else the test's temporary folder) for people to
look at.

Skipped, saying why, without ``chromium``, Playwright (the test extra) or ``unshare``; ``.ci/run``
installs chromium. Playwright's own browser download is never used.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: A hang backstop only (a run takes a few seconds idle; every wait inside waits for the page).
TIMEOUT_S = 900

pytestmark = [
    pytest.mark.timeout(TIMEOUT_S + 60),
    pytest.mark.skipif(CHROMIUM is None, reason="SKIPPED LOUDLY: `chromium` is not installed, so `arena serve` is "
                       "NOT tested in a browser (Debian: `apt-get install -y chromium`; .ci/run does this as root)"),
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None,
                       reason="Playwright is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux) for the server's namespaces"),
]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_page_follows_games_in_progress_and_finished_games_without_a_reload(played: Path,
                                                                                  tmp_path: Path) -> None:
    shots = Path(os.environ.get("ARENA_SHOTS") or tmp_path / "shots")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c",
                           (f'ip link set lo up && exec "{sys.executable}" tests/serve/browser_check.py '
                           f'"{played}" "{shots}"')],
                          cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT_S, check=False, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "leaderboard: 3 games, live",
        "no -0.00 in the standings; a long reason wraps",
        "a game in progress shows its moves",
        "leaderboard changed without a reload: 3 -> 5 games",
        "the game's page follows its moves, the latest in view",
        "a finished game leaves the games in progress and opens in the viewer",
        "a finished game opens at its end: the result and its reason, wrapped",
        "an agent's page shows its faults with their stderr",
    ]
    for name in ("leaderboard", "game-in-progress", "game", "agent"):
        assert png_size(shots / f"{name}.png") == (1280, 900)
