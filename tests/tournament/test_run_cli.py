"""`arena run` and `arena standings` through the command line."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import eventually
from tournament_support import REPO, bot_command, read_jsonl, shobu_config

from arena.backends import local as local_backend
from arena.cli import cli
from arena.errors import ResourceError
from arena.records.logstore import FolderLock

# The checkers system's example, word for word, but with an executable in place of the search bot.
CHECKERS_SYSTEM_FORMAT = """{
  "id": "test",
  "agents": [
    {"type": "executable", "id": "bot1", "path": "python3 bots/checkers_random.py"},
    {"type": "executable", "id": "bot2", "path": "python3 bots/checkers_random.py"}
  ],
  "tournamentType": "roundRobin",
  "visualize": false,
  "timeLimit": 100000,
  "maxMoves": 100
}
"""


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(cli, args, catch_exceptions=False)


@pytest.fixture
def system_folder(tmp_path: Path) -> Path:
    (tmp_path / "bots").mkdir()
    shutil.copy(REPO / "bots" / "checkers_random.py", tmp_path / "bots" / "checkers_random.py")
    (tmp_path / "tournament.json").write_text(CHECKERS_SYSTEM_FORMAT)
    return tmp_path


def test_a_checkers_system_config_runs_unchanged(system_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(system_folder)
    result = invoke(["run", "tournament.json", "--concurrency", "2"])
    assert result.exit_code == 0, result.output
    folder = system_folder / "tournament_logs" / "test"  # the default place, under the current folder
    assert len(read_jsonl(folder / "games.jsonl")) == 2
    for agent in ("bot1", "bot2"):
        stats = json.loads((folder / f"{agent}.json").read_text())
        assert {"games", "wins", "draws", "losses", "rating"} <= set(stats) and stats["games"] == 2
    # The results on stdout (`arena run ... > standings.txt` keeps them), the progress on stderr.
    assert "Standings after 2 games" in result.stdout and "Crosstable" in result.stdout, result.output
    assert "Standings after" not in result.stderr and "2 of 2 games finished" in result.stderr
    assert "[2/2] game" in result.stderr  # plain lines: not a terminal


def test_the_checkers_system_example_with_its_search_bot(system_folder: Path) -> None:
    (system_folder / "hyp.json").write_text("{}")
    obj = json.loads(CHECKERS_SYSTEM_FORMAT)
    obj["agents"][0] = {"type": "hyperparameters", "id": "hyp1", "path": "hyp.json"}
    (system_folder / "checkers_system.json").write_text(json.dumps(obj))
    from arena.tournament.config import load_config
    from arena.tournament.runner import RunOptions, Tournament

    Tournament(load_config(system_folder / "checkers_system.json"), RunOptions(logs_root=system_folder / "logs")).prepare()


@pytest.mark.parametrize(
    ("obj", "start"),
    [
        ({"id": "x", "agents": [{"type": "player", "id": "a"}, {"type": "player", "id": "b"}], "colour": 1},
         "arena: error: colour: unknown key"),
        ({"id": "x", "agents": []}, "arena: error: agents: a tournament needs at least two agents, got 0"),
        ({"id": "../x", "agents": []}, "arena: error: id: '../x' is not a safe folder name"),
    ],
)
def test_config_mistakes_are_one_line_and_exit_2(tmp_path: Path, obj: dict, start: str) -> None:
    (tmp_path / "c.json").write_text(json.dumps(obj))
    result = invoke(["run", str(tmp_path / "c.json"), "--logs", str(tmp_path / "logs")])
    assert result.exit_code == 2
    assert result.stderr.startswith(start) and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_every_mistake_of_a_config_is_reported_at_once_one_line_each(tmp_path: Path) -> None:
    obj = {"id": "x", "agents": [{"id": "a", "path": "missing.py"}, {"type": "robot", "id": "b"}], "colour": 1,
           "shade": 2, "timeLimit": -5, "maxMoves": 10, "openingPlies": 12, "tournamentType": "swiss"}
    (tmp_path / "c.json").write_text(json.dumps(obj))
    result = invoke(["run", str(tmp_path / "c.json"), "--logs", str(tmp_path / "logs")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0] == "arena: error: 7 problems in the config:", result.stderr
    starts = ["colour: unknown key", "shade: unknown key", "tournamentType: ", "agents[0].path: ", "agents[1].type: ",
              "openingPlies: 12 random plies leave no move", "timeLimit: "]
    for start in starts:
        assert sum(line.strip().startswith(start) for line in lines[1:]) == 1, (start, result.stderr)


def test_json_summary_and_standings_from_the_logs(tmp_path: Path, bot_file: Path) -> None:
    config = shobu_config(tmp_path, bot_file, id="js", agents=3)
    logs = tmp_path / "logs"
    result = invoke(["run", str(config), "--logs", str(logs), "--json", "-j", "2"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games_finished"] == summary["games_total"] == 6 and summary["complete"]
    assert [row["rank"] for row in summary["standings"]] == [1, 2, 3]
    assert set(summary["agents"]) == {"b0", "b1", "b2"}
    standings_file = json.loads((logs / "js" / "standings.json").read_text())
    recomputed = invoke(["standings", str(logs / "js"), "--json"])
    assert recomputed.exit_code == 0
    again = json.loads(recomputed.stdout)
    assert again.pop("agents") == summary["agents"]
    assert again == standings_file
    table = invoke(["standings", str(logs / "js")])
    assert "Standings after 6 games" in table.stdout and "How games ended: max_moves 6" in table.stdout
    # rerunning a finished tournament plays nothing and says so
    rerun = invoke(["run", str(config), "--logs", str(logs), "--json"])
    assert rerun.exit_code == 0 and json.loads(rerun.stdout)["games_played_now"] == 0


def test_standings_of_a_folder_that_is_not_a_log(tmp_path: Path) -> None:
    result = invoke(["standings", str(tmp_path)])
    assert result.exit_code == 2 and "no games.jsonl or config.json here" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_different_config_under_the_same_id_exits_2(tmp_path: Path, bot_file: Path) -> None:
    logs = tmp_path / "logs"
    assert invoke(["run", str(shobu_config(tmp_path, bot_file, id="d", agents=2)), "--logs", str(logs)]).exit_code == 0
    other = shobu_config(tmp_path, bot_file, id="d", agents=2, name="o.json", maxMoves=4)
    result = invoke(["run", str(other), "--logs", str(logs)])
    assert result.exit_code == 2
    assert "already holds a different tournament with id 'd' (maxMoves was 8, now 4)" in result.stderr


def test_a_second_run_on_a_busy_folder_exits_2(tmp_path: Path, bot_file: Path) -> None:
    logs = tmp_path / "logs"
    lock = FolderLock(logs / "d")
    lock.acquire()  # another run holds the folder (flock: a second open file conflicts, same process or not)
    try:
        result = invoke(["run", str(shobu_config(tmp_path, bot_file, id="d", agents=2)), "--logs", str(logs)])
    finally:
        lock.release()
    assert result.exit_code == 2
    assert f"is in use by another arena run (process {os.getpid()} holds .arena.lock)" in result.stderr
    assert result.stderr.count("\n") == 1 and not (logs / "d" / "games.jsonl").exists()


def test_an_arena_failure_is_one_line_and_exit_1(tmp_path: Path, bot_file: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    async def no_descriptors(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise ResourceError("cannot open the stderr log of bot 'b0': Too many open files (EMFILE)")

    monkeypatch.setattr(local_backend, "play_game", no_descriptors)
    # One game at a time: in this process, where play_game is replaced (not in worker processes).
    result = invoke(["run", str(shobu_config(tmp_path, bot_file, id="e", agents=2)), "--logs", str(tmp_path),
                     "-j", "1"])
    assert result.exit_code == 1
    assert ("arena: error: the run failed: cannot open the stderr log of bot 'b0': Too many open files "
            "(EMFILE)") in result.stderr
    assert "Traceback" not in result.stderr and "ExceptionGroup" not in result.stderr
    assert read_jsonl(tmp_path / "e" / "games.jsonl") == []  # nothing recorded: a resume plays it


def alive(marker: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line contains ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def slow_config(tmp_path: Path, bot_file: Path, sleep_ms: int) -> Path:
    obj = {"id": "slow", "game": "shobu", "timeLimit": 60000, "maxMoves": 6,
           "agents": [{"id": f"s{i}", "path": bot_command(bot_file, "--sleep-ms", str(sleep_ms))}
                      for i in range(3)]}
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(obj))
    return path


def start(config: Path, logs: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "arena", "run", str(config), "--logs", str(logs), "-j", "2"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(path: Path, lines: int) -> None:
    eventually(lambda: path.exists() and path.read_bytes().count(b"\n") >= lines, what=f"{path}: {lines} lines")


@pytest.mark.slow
def test_ctrl_c_flushes_prints_standings_and_exits_130(tmp_path: Path, bot_file: Path) -> None:
    logs = tmp_path / "logs"
    proc = start(slow_config(tmp_path, bot_file, 40), logs)
    wait_for(logs / "slow" / "games.jsonl", 1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    text = err.decode()
    assert proc.returncode == 130, text
    assert "interrupted: cancelling running games" in text and "Standings after" in out.decode()
    assert "run the same command again to resume" in text and "Traceback" not in text
    rows = read_jsonl(logs / "slow" / "games.jsonl")
    assert 1 <= len(rows) < 6
    stats = [json.loads((logs / "slow" / f"s{i}.json").read_text()) for i in range(3)]
    assert sum(s["games"] for s in stats) == 2 * len(rows)  # cancelled games are not counted
    assert json.loads((logs / "slow" / "standings.json").read_text())["games"] == len(rows)
    assert alive(str(bot_file)) == []
    assert alive(f"stats_worker {logs / 'slow'}") == []  # the standings worker ended with arena


@pytest.mark.slow
def test_a_second_ctrl_c_stops_at_once(tmp_path: Path, bot_file: Path) -> None:
    logs = tmp_path / "logs"
    err_path = tmp_path / "stderr.txt"
    with err_path.open("wb") as err_file:
        proc = subprocess.Popen([sys.executable, "-m", "arena", "run", str(slow_config(tmp_path, bot_file, 3000)),
                                 "--logs", str(logs), "-j", "2"], cwd=REPO, stdout=subprocess.PIPE, stderr=err_file)
    eventually(lambda: len(alive(str(bot_file))) >= 2, what="games under way")
    proc.send_signal(signal.SIGINT)
    # Only once arena has seen the first signal (it says so) may the second come: two signals sent
    # together can arrive as one.
    eventually(lambda: b"interrupted: cancelling running games" in err_path.read_bytes(), what="the first stop")
    proc.send_signal(signal.SIGINT)
    # The games in flight need 18 s to end by themselves: ending well before is "at once" (a
    # generous bound, so that a busy machine cannot fail this).
    proc.communicate(timeout=12)
    err = err_path.read_text()
    assert proc.returncode == 130, err
    assert "interrupted again, killed all bots" in err  # what only the second signal does
    gone(str(bot_file))
    gone(f"stats_worker {logs / 'slow'}")  # the standings worker sees its input end and exits
    assert os.path.isdir(logs / "slow")


def gone(marker: str, timeout: float = 10) -> None:
    """Wait until no live process has ``marker`` in its command line (a hang backstop)."""
    eventually(lambda: not alive(marker), timeout, what=f"no process of {marker}")
