"""Hostile files given to arena's commands (issue 18, item 8): each is one line on stderr and a
non-zero exit, never a traceback, a hang, a replaced device node or a memory blow-up.

Commands that could hang (a FIFO as input) run as real subprocesses under a timeout, so a
regression fails instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
BOT = f"{sys.executable} {REPO / 'bots' / 'checkers_random.py'}"
#: Long enough for a loaded machine, short enough that a hang is a failure, not a stuck suite.
TIMEOUT_S = 60


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` in a subprocess (stdin closed, under :data:`TIMEOUT_S`)."""
    return subprocess.run([sys.executable, "-m", "arena", *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=TIMEOUT_S, check=False)


def one_line_error(result: subprocess.CompletedProcess[str], *words: str, code: int | None = None) -> None:
    """``result`` failed with exactly one error line on stderr that says ``words``, and no traceback
    (a command-line option's error comes in click's usage form: its "Error:" line is that line)."""
    assert result.returncode != 0, result.stderr
    if code is not None:
        assert result.returncode == code, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and "Exception" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    if lines and lines[0].startswith("Usage: "):
        lines = [line for line in lines if line.startswith("Error: ")]
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real checkers record (a short game of two random bots)."""
    folder = tmp_path_factory.mktemp("record")
    result = arena("match", BOT, BOT, "--game", "checkers", "--max-moves", "12", "-q", "--out", "r.json", cwd=folder)
    assert result.returncode == 0, result.stderr
    value: dict[str, Any] = json.loads((folder / "r.json").read_text())
    return value


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """A one-line checkers opening book (the position after two plies)."""
    from arena.games import get_game

    game = get_game("checkers")
    state = game.initial_state()
    for _ in range(2):
        state = game.apply(state, game.legal_moves(state)[0])
    path = tmp_path / "book.jsonl"
    path.write_text(json.dumps(game.state_to_json(state)) + "\n")
    return path


def config(folder: Path, name: str = "t.json", **extra: Any) -> Path:
    """A two-bot checkers round robin (short games)."""
    obj: dict[str, Any] = {"id": "t", "game": "checkers", "maxMoves": 6,
                           "agents": [{"id": "a", "path": BOT}, {"id": "b", "path": BOT}], **extra}
    path = folder / name
    path.write_text(json.dumps(obj))
    return path


# -- outputs never replace anything but a regular file ---------------------------------------------


def _targets(tmp_path: Path) -> list[Path]:
    """A FIFO, a symbolic link, a folder and, where arena may create one (root), a character
    device node (a copy of /dev/full's) — never the machine's own /dev/full."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "elsewhere.html")
    folder = tmp_path / "folder"
    folder.mkdir()
    targets = [fifo, link, folder]
    if os.geteuid() == 0:
        device = tmp_path / "full"
        os.mknod(device, 0o644 | stat.S_IFCHR, os.makedev(1, 7))
        targets.append(device)
    return targets


def _output_commands(record_file: Path, out: Path) -> list[list[str]]:
    return [
        ["report", str(record_file), "-o", str(out)],
        ["export", "--pdn", str(record_file), "-o", str(out)],
        ["openings", "--game", "connect4", "--plies", "2", "--count", "2", "--depth", "1", "-o", str(out)],
        ["replay", str(record_file), "--html", str(out)],
    ]


@pytest.mark.parametrize("command", range(4), ids=["report", "export", "openings", "replay --html"])
def test_outputs_never_replace_a_device_a_fifo_a_link_or_a_folder(
        tmp_path: Path, record: dict[str, Any], command: int) -> None:
    record_file = tmp_path / "r.json"
    record_file.write_text(json.dumps(record))
    for target in _targets(tmp_path):
        before = os.lstat(target)
        args = _output_commands(record_file, target)[command]
        result = arena(*args, cwd=tmp_path)
        assert result.returncode != 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
        error = [line for line in result.stderr.splitlines() if "error" in line.lower()]
        assert len(error) == 1 and str(target.name) in error[0], result.stderr
        after = os.lstat(target)
        assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev), args
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


def test_a_regular_output_is_still_replaced_whole(tmp_path: Path, record: dict[str, Any]) -> None:
    record_file = tmp_path / "r.json"
    record_file.write_text(json.dumps(record))
    out = tmp_path / "game.html"
    out.write_text("old")
    result = arena("replay", str(record_file), "--html", str(out), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")


# -- inputs: a FIFO cannot hang a command, /dev/zero cannot fill the memory ---------------------------


def _input_commands(tmp_path: Path, bad: Path) -> dict[str, list[str]]:
    with_book = config(tmp_path, "book.json", openings=str(bad))
    return {
        "run CONFIG": ["run", str(bad), "--logs", "logs"],
        "run (book)": ["run", str(with_book), "--logs", "logs"],
        "match --openings": ["match", BOT, BOT, "--game", "checkers", "--openings", str(bad), "--max-moves", "4", "-q"],
        "sprt --openings": ["sprt", BOT, BOT, "--game", "checkers", "--openings", str(bad), "--max-pairs", "1"],
        "replay": ["replay", str(bad)],
        "report": ["report", str(bad), "-o", "r.html"],
        "export": ["export", "--pdn", str(bad)],
        "check-record": ["check-record", str(bad)],
        "perft --state @": ["perft", "--game", "checkers", "--depth", "1", "--state", f"@{bad}"],
    }


@pytest.mark.parametrize("name", ["run CONFIG", "run (book)", "match --openings", "sprt --openings", "replay",
                                  "report", "export", "check-record", "perft --state @"])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_fifo_or_dev_zero_as_input_is_one_line(tmp_path: Path, name: str, kind: str) -> None:
    if kind == "fifo":
        bad = tmp_path / "fifo"
        os.mkfifo(bad)
    else:
        bad = Path("/dev/zero")
    result = arena(*_input_commands(tmp_path, bad)[name], cwd=tmp_path)
    kind_text = "a FIFO" if kind == "fifo" else "a character device"
    one_line_error(result, f"not a regular file ({kind_text})")
    assert not (tmp_path / "logs" / "t" / "games.jsonl").exists()  # no game was played


def test_a_symbolic_link_to_a_regular_config_is_fine(tmp_path: Path) -> None:
    target = config(tmp_path, maxMoves=2, gamesPerPair=1)
    (tmp_path / "link.json").symlink_to(target)
    result = arena("run", "link.json", "--logs", "logs", cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_stdin_stays_an_input_of_the_rules_tools(tmp_path: Path) -> None:
    state = {"board": [". b . b . b . b", "b . b . b . b .", ". b . b . b . b", ". . . . . . . .",
                       ". . . . . . . .", "w . w . w . w .", ". w . w . w . w", "w . w . w . w ."],
             "turn": "BLACK", "turnNumber": 0}
    result = subprocess.run([sys.executable, "-m", "arena", "perft", "--game", "checkers", "--depth", "2",
                             "--state", "-", "--json"], input=json.dumps(state), capture_output=True, text=True,
                            timeout=TIMEOUT_S, check=False)
    assert result.returncode == 0 and '"nodes":49' in result.stdout, result.stderr


# -- what is inside: nesting, wrong types, duplicate keys, huge integers -----------------------------


def _variants(record: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """name -> (file text, words the one-line error must hold)."""
    deep = '{"turns": ' + "[" * 100_000 + "]" * 100_000 + ', "game_states": []}'
    text = json.dumps(record)
    return {
        "nested 100,000 deep": (deep, "nested more than 64 levels deep"),
        "nested 1,000 deep": ("[" * 1000 + "]" * 1000, "nested more than 64 levels deep"),
        "winner an object": (json.dumps({**record, "winner": {"x": 1}}), "'winner' must be BLACK, WHITE or NONE"),
        "termination a list": (json.dumps({**record, "termination": ["a"]}), "'termination' must be a string"),
        "players a string": (json.dumps({**record, "players": "x"}), "'players' must be an array"),
        "plies a string": (json.dumps({**record, "plies": "7"}), "'plies' must be an integer"),
        "a key twice": (text.replace('"winner":', '"winner": "BLACK", "winner":', 1), "'winner' appears twice"),
        "an integer of 21 digits": (text.replace('"game_index":', '"game_index": 1' + "0" * 20 + ', "x":', 1),
                                    "an integer beyond 64 bits"),
    }


@pytest.mark.parametrize("variant", ["nested 100,000 deep", "nested 1,000 deep", "winner an object",
                                     "termination a list", "players a string", "plies a string", "a key twice",
                                     "an integer of 21 digits"])
@pytest.mark.parametrize("command", ["replay", "report", "export", "check-record"])
def test_malformed_records_are_one_line(tmp_path: Path, record: dict[str, Any], variant: str, command: str) -> None:
    text, words = _variants(record)[variant]
    (tmp_path / "bad.json").write_text(text)
    args = {"replay": ["replay", "bad.json", "--plain"], "report": ["report", "bad.json", "-o", "r.html"],
            "export": ["export", "--pdn", "bad.json"], "check-record": ["check-record", "bad.json"]}[command]
    result = arena(*args, cwd=tmp_path)
    if command == "check-record" and "nested" not in variant and "twice" not in variant and "21 digits" not in variant:
        # The file is records; this one is not a valid record: a problem line on stdout, exit 1.
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert result.stdout.count("\n") == 1 and words in result.stdout, result.stdout
        return
    one_line_error(result, words, code=2)
    assert not (tmp_path / "r.html").exists()


def test_a_book_opening_with_a_huge_turn_number_is_refused_before_any_game(tmp_path: Path, book: Path) -> None:
    state = json.loads(book.read_text())
    for number, (turn_number, words) in enumerate([
            (10**20, "an integer beyond 64 bits"), (10**18, "turnNumber must be at most 1,000,000,000")]):
        huge = tmp_path / f"huge{number}.jsonl"
        huge.write_text(json.dumps({**state, "turnNumber": turn_number}) + "\n")
        result = arena("run", str(config(tmp_path, openings=huge.name)), "--logs", "logs", cwd=tmp_path)
        one_line_error(result, "openings:", "line 1", words, code=2)
        assert not (tmp_path / "logs" / "t" / "games.jsonl").exists()
        result = arena("match", BOT, BOT, "--game", "checkers", "--openings", str(huge), "-q", cwd=tmp_path)
        one_line_error(result, "line 1", words, code=2)


@pytest.mark.parametrize(("where", "words"), [
    ("config id", "the key 'id' appears twice"),
    ("config agent", "the key 'path' appears twice"),
    ("book", "line 1: the key 'turn' appears twice"),
    ("state", "the key 'turn' appears twice"),
])
def test_duplicate_keys_are_refused(tmp_path: Path, book: Path, where: str, words: str) -> None:
    if where == "state":
        line = book.read_text().strip()
        (tmp_path / "state.json").write_text(line.replace('"turn":', '"turn": "WHITE", "turn":'))
        result = arena("perft", "--game", "checkers", "--depth", "1", "--state", "@state.json", cwd=tmp_path)
        one_line_error(result, words, code=2)
        return
    if where == "book":
        book.write_text(book.read_text().replace('"turn":', '"turn": "WHITE", "turn":'))
        path = config(tmp_path, openings=book.name)
    else:
        path = config(tmp_path)
        text = path.read_text()
        text = (text.replace('"id": "t"', '"id": "t", "id": "u"', 1) if where == "config id"
                else text.replace('"path":', '"path": "nothing", "path":', 1))
        path.write_text(text)
    result = arena("run", str(path), "--logs", "logs", cwd=tmp_path)
    one_line_error(result, words, code=2)


def test_an_agent_whose_env_hides_its_program_is_a_config_error(tmp_path: Path) -> None:
    path = config(tmp_path)
    obj = json.loads(path.read_text())
    obj["agents"][0] = {"id": "a", "path": "python3 " + str(REPO / "bots" / "checkers_random.py"), "env": {"PATH": ""}}
    path.write_text(json.dumps(obj))
    result = arena("run", str(path), "--logs", "logs", cwd=tmp_path)
    one_line_error(result, "agents[0].path", "env PATH ''", "'python3'", code=2)
    assert not (tmp_path / "logs" / "t").exists()


def _field_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path of ``value`` (the first two items of each array)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _field_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            found += _field_paths(item, (*prefix, index))
    return found


def test_no_field_of_the_wrong_type_crashes_a_reader(tmp_path: Path, record: dict[str, Any]) -> None:
    """Every field of a real record replaced by a value of another type, for every command that
    reads records: an answer or a one-line error, never an exception (on the previous commit:
    report and export raised TypeError for 'winner', 'termination' and 'players')."""
    import copy

    from click.testing import CliRunner

    from arena.cli import cli

    runner = CliRunner()
    path = tmp_path / "fz.json"
    crashes = []
    for where in _field_paths(record):
        for value in (None, "x", {}, [], 10**30):
            bad = copy.deepcopy(record)
            holder = bad
            for key in where[:-1]:
                holder = holder[key]
            holder[where[-1]] = value
            path.write_text(json.dumps(bad))
            for args in (["replay", str(path), "--plain"], ["report", str(path), "-o", str(tmp_path / "fz.html")],
                         ["export", "--pdn", str(path)], ["check-record", str(path)]):
                result = runner.invoke(cli, args)
                if result.exception is not None and not isinstance(result.exception, SystemExit):
                    crashes.append(f"{args[0]} with {where} = {value!r}: {result.exception!r}")
    assert crashes == []
