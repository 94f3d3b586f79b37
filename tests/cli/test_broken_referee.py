"""Every command that takes a referee, against one that breaks (issue 31, item 3): at its start,
after a few good answers (mid-game or mid-replay) or by answering garbage. Each ends with one line
naming the rules program, a non-zero exit, and no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NIM = ROOT / "examples" / "referees" / "nim.py"
RANDOM = f"{sys.executable} {ROOT / 'examples' / 'referees' / 'nim_random.py'}"
#: A referee that proxies nim.py for its first N requests (info among them), then breaks: ``start``
#: dies at once, ``crash`` dies at request N, ``garbage`` answers it with a line that is not JSON.
BROKEN = '''import subprocess, sys
mode, n, nim = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if mode == "start":
    sys.exit("broken referee: cannot start")
child = subprocess.Popen([sys.executable, nim], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for i, line in enumerate(sys.stdin):
    if i >= n:
        if mode == "crash":
            sys.exit("broken referee: crashed")
        sys.stdout.write("}}garbage{{\\n")
        sys.stdout.flush()
        continue
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
'''


def _arena(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=240, check=False)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A nim game's record and a tournament's log folder, made with the good referee."""
    folder = tmp_path_factory.mktemp("broken-referee")
    (folder / "broken.py").write_text(BROKEN)
    played = _arena("match", "--rules", f"{sys.executable} {NIM}", RANDOM, RANDOM, "--out", str(folder / "game.json"))
    assert played.returncode == 0, played.stderr
    config = {"id": "t", "rules": f"{sys.executable} {NIM}", "tournamentType": "roundRobin", "seed": 1,
              "agents": [{"id": "a", "path": RANDOM}, {"id": "b", "path": RANDOM}]}
    (folder / "t.json").write_text(json.dumps(config))
    run = _arena("run", str(folder / "t.json"), "--logs", str(folder / "logs"), "-j", "1")
    assert run.returncode == 0, run.stderr
    return {"folder": folder, "record": folder / "game.json", "logs": folder / "logs" / "t"}


def _commands(rules: str, inputs: dict[str, Path]) -> dict[str, tuple[list[str], str]]:
    """Each command with the referee, and its stdin."""
    record, logs = str(inputs["record"]), str(inputs["logs"])
    states = json.loads(inputs["record"].read_text())["game_states"]
    start = states[0]
    config = {"id": "t2", "rules": rules, "tournamentType": "roundRobin", "seed": 1,
              "agents": [{"id": "a", "path": RANDOM}, {"id": "b", "path": RANDOM}]}
    (inputs["folder"] / "t2.json").write_text(json.dumps(config))
    out = str(inputs["folder"] / f"out-{len(list(inputs['folder'].iterdir()))}")  # fresh for each mode
    return {
        "perft": (["perft", "--rules", rules, "--depth", "6"], ""),
        "moves": (["moves", "--rules", rules], "".join(json.dumps(state) + "\n" for state in states)),
        "pass-through": (["pass-through", "--rules", rules], "".join(
            json.dumps({"game_state": start, "chance": seat}) + "\n" for seat in ("P0", "P1", "P0", "P1"))),
        "check-record": (["check-record", "--rules", rules, record], ""),
        "replay --plain": (["replay", "--plain", "--rules", rules, record], ""),
        "report": (["report", "--rules", rules, logs, "--out", out + ".html"], ""),
        "check-logs": (["check-logs", "--rules", rules, logs], ""),
        "games": (["games", "--rules", rules], ""),
        "match": (["match", "--rules", rules, RANDOM, RANDOM, "--out", out + ".json"], ""),
        "check-bot": (["check-bot", "--rules", rules, RANDOM], ""),
        "sprt": (["sprt", "--rules", rules, RANDOM, RANDOM, "--max-pairs", "2", "--logs", out + "-sprt"], ""),
        "run": (["run", str(inputs["folder"] / "t2.json"), "--logs", out + "-run", "-j", "1"], ""),
    }


#: The referee breaks at its start, after ``info`` (the first thing each command asks after
#: registering it), or a few requests later (mid-game, mid-replay).
MODES = [("start", 0), ("crash", 1), ("garbage", 1), ("crash", 4), ("garbage", 4)]


@pytest.mark.parametrize(("mode", "after"), MODES, ids=[m for m, _ in MODES])
def test_every_command_says_a_broken_referee_in_one_line(inputs: dict[str, Path], mode: str, after: int) -> None:
    rules = f"{sys.executable} {inputs['folder'] / 'broken.py'} {mode} {after} {NIM}"
    wrong = []
    for name, (args, stdin) in _commands(rules, inputs).items():
        if name == "games" and mode != "start":
            continue  # it asks the referee nothing after registering it
        done = _arena(*args, stdin=stdin)
        errors = [line for line in done.stderr.splitlines() if line.startswith(("arena: error", "Error:", "error:"))]
        if done.returncode == 0 or "Traceback" in done.stderr or len(errors) != 1 or "rules program" not in errors[0]:
            wrong.append(f"{name}: exit {done.returncode}: {done.stderr[-600:]}")
    assert wrong == [], "\n".join(wrong)


def test_the_conformance_check_says_a_broken_referee_in_one_line(inputs: dict[str, Path]) -> None:
    for mode, after in MODES:
        rules = f"{sys.executable} {inputs['folder'] / 'broken.py'} {mode} {after} {NIM}"
        done = subprocess.run([sys.executable, "-m", "arena.games.conformance", "--rules", rules],
                              capture_output=True, text=True, cwd=ROOT, timeout=240, check=False)
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert len([line for line in done.stderr.splitlines() if "rules program" in line]) == 1, done.stderr
