"""`arena serve` as a command: refusals in one line, and the real server on loopback inside its own
network and PID namespaces (namespace_check.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli

pytestmark = pytest.mark.timeout(660)  # the subprocesses' own backstops are 600 s

REPO = Path(__file__).resolve().parents[2]


def test_a_path_that_is_not_a_log_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x")
    result = CliRunner().invoke(cli, ["serve", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.output.splitlines() == [(f"arena: error: {tmp_path} is not a tournament log folder (no config.json, "
                                          "games.jsonl or standings.json); give tournament_logs/<id>")]


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)")
def test_the_real_server_refuses_a_taken_port_and_streams_an_appended_game(played: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c",
                           f'ip link set lo up && exec "{sys.executable}" tests/serve/namespace_check.py "{played}"'],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["port in use: one line, exit 2", "events over HTTP: [5, 6]"]


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)")
def test_arena_league_serve_serves_the_league_while_it_plays_and_ends_with_it(tmp_path: Path) -> None:
    for name in ("alice", "bob"):
        folder = tmp_path / "bots" / name
        folder.mkdir(parents=True)
        shutil.copy(REPO / "bots" / "connect4_random.py", folder / "connect4_random.py")
        (folder / "bot.json").write_text('{"command": "python3 connect4_random.py"}')
    config = tmp_path / "league.json"
    config.write_text('{"id": "lg", "game": "connect4", "agents": {"from": "bots/*/"}, "timeLimit": 20000}')
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    check = f'exec "{sys.executable}" tests/serve/league_check.py "{config}" "{tmp_path / "logs"}"'
    done = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", f"ip link set lo up && {check}"],
                          cwd=REPO, capture_output=True, text=True, timeout=600, check=False, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["the page listens", "a finished game and its agent's page",
                                        "Ctrl-C: exit 130, the page gone"]
