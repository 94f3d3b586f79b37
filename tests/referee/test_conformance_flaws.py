"""The conformance check of a referee (python -m arena.games.conformance --rules CMD) catches each
deliberate flaw of tests/referee/broken_nim.py, takes --players and --param, and passes Nim."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.referee.referee_support import NIM, ROOT

BROKEN = ROOT / "tests" / "referee" / "broken_nim.py"


def conformance(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.games.conformance", *args], check=False,
                          capture_output=True, text=True, cwd=ROOT, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("flaw", "said"), [
    ("shuffled", "lists its legal moves in another order"),
    ("constant-hash", "every state has the same hash"),
    ("playout", "playout from the end gave"),
    ("determinize", "determinize gave a state in which seat"),
    ("board", "the board text for seat"),
])
def test_each_flaw_of_a_referee_is_caught(flaw: str, said: str) -> None:
    done = conformance("--rules", f"python3 {BROKEN} {flaw} --nim {BROKEN.parents[2] / 'examples' / 'referees'}", "--games", "3")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith("FAILED nim") and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_players_and_parameters_are_checked_as_asked() -> None:
    done = conformance("--rules", f"python3 {NIM}", "--games", "4", "--players", "3", "--param", "heap=5",
                       "--param", "opening=1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("nim: ok, 4 random games for each of [3] players"), done.stdout


@pytest.mark.parametrize(("args", "said"), [
    (["--players", "4"], "error: "),
    (["--param", "heap"], "expected NAME=INTEGER"),
    (["--param", "heap=0"], "error: "),
])
def test_players_or_parameters_the_game_refuses_are_a_usage_error(args: list[str], said: str) -> None:
    done = conformance("--rules", f"python3 {NIM}", "--games", "1", *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
