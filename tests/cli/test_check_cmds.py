"""`arena check-record` and `arena check-logs` (the click commands), and the scripts that run the
same checks from a checkout without a venv."""

from __future__ import annotations

import copy
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import as_format_1

from arena.cli.check_cmds import check_logs_command, check_record_command
from arena.cli.match_cmd import match_command
from arena.cli.run_cmd import run_command
from arena.games.registry import DEFAULT_MATCH_GAME

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = r"""
import random, sys
from arena.agents.parts import bot_side_ref
from arena.games.registry import get_spec, load_ref
spec = get_spec(sys.argv[1])
game = spec.rules_object()
serve = load_ref(bot_side_ref(spec))
rng = random.Random(int(sys.argv[2]))
sys.exit(serve(game, lambda request: rng.choice(game.legal_moves(request.state)), name="random"))
"""


def random_bot(seed: int) -> str:
    return shlex.join([sys.executable, "-c", RANDOM_BOT, DEFAULT_MATCH_GAME, str(seed)])


def invoke(command: Any, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(command, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def games_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two records (a JSON array) from `arena match --opening-plies 2`."""
    out = tmp_path_factory.mktemp("check") / "games.json"
    code, _, err = invoke(match_command, random_bot(1), random_bot(2), "--game", DEFAULT_MATCH_GAME,
                          "--games", "2", "--seed", "3", "--opening-plies", "2", "--quiet", "--out", str(out))
    assert code == 0, err
    return out


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-agent tournament's log folder (four games)."""
    folder = tmp_path_factory.mktemp("logs")
    config = folder / "t.json"
    config.write_text(json.dumps({
        "id": "t", "game": DEFAULT_MATCH_GAME, "tournamentType": "roundRobin", "gamesPerPair": 4,
        "openingPlies": 2, "seed": 1, "timeLimit": 60000, "maxMoves": 12,
        "agents": [{"type": "executable", "id": f"r{i}", "path": random_bot(i)} for i in range(2)],
    }))
    code, _, err = invoke(run_command, str(config), "--logs", str(folder / "tournament_logs"), "--bootstrap", "0")
    assert code == 0, err
    return folder / "tournament_logs" / "t"


def test_good_records_check_out(games_file: Path) -> None:
    records = json.loads(games_file.read_text())
    ends = ", ".join(f"{r['termination']}/{r['winner']}" for r in records)
    assert invoke(check_record_command, str(games_file)) == (0, f"{games_file}: 2 records check out ({ends})\n", "")


def test_one_line_per_problem_and_exit_1(games_file: Path, tmp_path: Path) -> None:
    records = json.loads(games_file.read_text())
    bad = copy.deepcopy(records[0])
    bad["turns"][3]["opening"] = True
    bad["game_states"][-1]["turnNumber"] += 1
    single = tmp_path / "one.json"
    single.write_text(json.dumps(bad))
    code, out, err = invoke(check_record_command, str(games_file), str(single))
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"{games_file}: 2 records check out")
    schema = f"{single}[0]: game {bad['game_index']}: does not match record.schema.json at /turns/3/charged_ms: "
    assert lines[1:] == [schema + f"{json.dumps(bad['turns'][3]['charged_ms'])} is not of type 'null'",
                         f"{single}[0]: turn 3: an opening ply after the players' moves began",
                         f"{single}[0]: state {len(bad['turns'])} does not follow from turn {len(bad['turns']) - 1}"]


def test_a_record_that_breaks_the_schema_is_one_line_and_exit_1(games_file: Path, tmp_path: Path) -> None:
    """The rules cannot see it (started_at is not read by the replay), the schema can."""
    records = json.loads(games_file.read_text())
    records[1]["started_at"] = "yesterday"
    path = tmp_path / "two.json"
    path.write_text(json.dumps(records))
    code, out, err = invoke(check_record_command, str(path))
    assert (code, err) == (1, "")
    game = f"game {records[1]['game_index']}: " if records[1]["game_index"] is not None else ""
    assert out.startswith(f"{path}[1]: {game}does not match record.schema.json at /started_at: \"yesterday\" does not match ")
    assert out.count("\n") == 1


def test_old_records_check_out(games_file: Path, tmp_path: Path) -> None:
    """A record as arena wrote it before complete records: no opening turns, bare turn objects."""
    record = json.loads(games_file.read_text())[0]
    old = as_format_1(record)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    code, out, _ = invoke(check_record_command, str(path))
    assert code == 0 and out.startswith(f"{path}: 1 record checks out")


@pytest.mark.parametrize(("content", "message"), [
    (None, "{path}: no such file or folder"),
    ("{not json", "{path}: not a game record (not JSON: "),
    ("[]", "{path}: not a game record (an empty array, no game in it)"),
    ("[1, 2]", "{path}[0]: not a game record (a JSON number, not an object)"),
    (b"\xff\xfe", "{path}: not a game record (not UTF-8 text"),
    ('{"winner": "NONE", "winner": "BLACK"}', "{path}: not a game record (the key 'winner' appears twice"),
    ("[" * 1000 + "]" * 1000, "{path}: not a game record (nested more than 64 levels deep)"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, games_file: Path, content: str | bytes | None,
                                          message: str) -> None:
    path = tmp_path / "input.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    code, out, err = invoke(check_record_command, str(games_file), str(path))
    assert (code, out) == (2, "")  # nothing is checked before every input is read
    assert err.startswith("arena: error: " + message.format(path=path)) and err.count("\n") == 1


def test_a_folder_is_not_a_record(tmp_path: Path) -> None:
    code, out, err = invoke(check_record_command, str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"arena: error: {tmp_path}: is a folder (arena check-logs reads a tournament's folder)\n"


def test_no_arguments_is_a_usage_error() -> None:
    for command in (check_record_command, check_logs_command):
        code, out, err = invoke(command)
        assert code == 2 and out == "" and "Missing argument" in err


def test_a_tournament_folder_is_consistent(logdir: Path) -> None:
    expected = f"{logdir}: 4 games; records, per-agent files and standings agree\n"
    assert invoke(check_logs_command, str(logdir)) == (0, expected, "")
    assert invoke(check_logs_command, str(logdir.parent)) == (0, expected, "")  # a folder of tournaments


def test_an_inconsistent_tournament_folder(logdir: Path, tmp_path: Path) -> None:
    import shutil

    copy_dir = tmp_path / "t"
    shutil.copytree(logdir, copy_dir)
    stats = json.loads((copy_dir / "r0.json").read_text())
    stats["wins"] += 1
    (copy_dir / "r0.json").write_text(json.dumps(stats))
    record_path = copy_dir / "games" / "00001.json"
    record = json.loads(record_path.read_text())
    record["winner"] = "BLACK" if record["winner"] != "BLACK" else "WHITE"
    record_path.write_text(json.dumps(record))
    code, out, err = invoke(check_logs_command, str(copy_dir))
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert f"{copy_dir}: game 1: games.jsonl and games/00001.json disagree" in lines
    assert any(line.startswith(f"{copy_dir}: r0.json: wins = ") for line in lines)
    assert all(line.startswith(f"{copy_dir}: ") for line in lines)


def test_not_a_log_folder_is_exit_2(tmp_path: Path) -> None:
    code, out, err = invoke(check_logs_command, str(tmp_path))
    assert (code, out) == (2, "")
    assert err == f"arena: error: {tmp_path}: not a tournament's log folder (no games.jsonl in it or its subfolders)\n"
    code, out, err = invoke(check_logs_command, str(tmp_path / "missing"))
    assert (code, err) == (2, f"arena: error: {tmp_path / 'missing'}: no such folder\n")


def test_the_scripts_run_without_site_packages(games_file: Path, logdir: Path, tmp_path: Path) -> None:
    """`python -S`: no venv, no site-packages (no click, trio, rich, orjson), from another folder."""
    for script, arg, summary in (("check_record.py", games_file, "2 records check out"),
                                 ("check_logs.py", logdir, "4 games; records")):
        done = subprocess.run([sys.executable, "-S", "-I", str(REPO / "scripts" / script), str(arg)], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert summary in done.stdout
    done = subprocess.run([sys.executable, "-S", "-I", str(REPO / "scripts" / "check_record.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "is a folder" in done.stderr and "Traceback" not in done.stderr
