"""The one rule for a cut-off last line of ``games.jsonl`` (arena.records.logstore), at every entry
point that reads the file: a run killed while appending leaves a last line without its newline; it
is ignored with a warning (``arena serve``, reading a folder being written, ignores it quietly), no
earlier row is lost, and the next run that appends cuts it off. A bad line in the middle is one
line of error naming the line."""

from __future__ import annotations

import json
import re
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from arena.cli import cli
from arena.records.logstore import LogError, TornLineWarning, read_batches, read_rows
from arena.records.reader import GAMES_FILE

ROOT = Path(__file__).resolve().parents[2]
GAMES = 6
TORN = b'{"index": 99, "pair": 3, "black": "alice", "whi'  # the first bytes of a line being appended


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A league's folder of root/logs/lg/ after GAMES finished games (real bots, connect4)."""
    root = tmp_path_factory.mktemp("torn")
    for name in ("alice", "bob", "carol"):
        folder = root / "bots" / name
        folder.mkdir(parents=True)
        shutil.copy(ROOT / "bots" / "connect4_random.py", folder / "connect4_random.py")
        (folder / "bot.json").write_text(json.dumps({"command": "python3 connect4_random.py"}))
    (root / "league.json").write_text(json.dumps({"id": "lg", "game": "connect4", "agents": {"from": "bots/*/"},
                                                  "timeLimit": 20000}))
    result = league(root, GAMES)
    assert result.exit_code == 0, result.output
    return root


def league(root: Path, games: int) -> Result:
    return CliRunner().invoke(cli, ["league", str(root / "league.json"), "--logs", str(root / "logs"),
                                    "--rescan", "0", "-j", "2", "--games", str(games)], catch_exceptions=False)


def arena(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / GAMES_FILE).read_bytes().split(b"\n")[:-1]]  # whole lines


def standings(root: Path, folder: Path) -> tuple[Result, int]:
    result = arena("standings", str(folder), "--json", "--bootstrap", "10")
    return result, json.loads(result.stdout)["games"]


def check_logs(root: Path, folder: Path) -> tuple[Result, int]:
    result = arena("check-logs", str(folder))
    return result, int(result.stdout.split(": ")[1].split()[0])


def replay(root: Path, folder: Path) -> tuple[Result, int]:
    result = arena("replay", str(folder))  # a folder of several games: its list
    return result, sum(1 for line in result.stdout.splitlines() if line.lstrip()[:1].isdigit())


def report(root: Path, folder: Path) -> tuple[Result, int]:
    out = root / "report.html"
    result = arena("report", str(folder), "-o", str(out))
    return result, int(re.search(r"wrote .*: (\d+) games", result.output)[1])  # type: ignore[index]


def serve(root: Path, folder: Path) -> tuple[Result | None, int]:
    from arena.serve.folder import LogFolder

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # quietly: a cut-off line is a line being written here
        snapshot = LogFolder(folder).poll()
    assert snapshot.error is None
    return None, len(snapshot.rows)


def resumed_league(root: Path, folder: Path) -> tuple[Result, int]:
    result = league(root, GAMES + 2)  # two more games: appended after the cut
    assert result.exit_code == 0, result.output
    text = (folder / GAMES_FILE).read_bytes()
    assert text.endswith(b"\n") and TORN not in text  # cut off before the first new line
    return result, len(lines(folder)) - 2


@pytest.mark.parametrize("entry", [standings, check_logs, replay, report, serve, resumed_league],
                         ids=lambda f: f.__name__)
def test_a_cut_off_last_line_is_ignored_with_a_warning(
        played: Path, tmp_path: Path, entry: Callable[[Path, Path], tuple[Result | None, int]]) -> None:
    root = tmp_path / "copy"
    shutil.copytree(played, root)
    folder = root / "logs" / "lg"
    before = lines(folder)
    with (folder / GAMES_FILE).open("ab") as handle:
        handle.write(TORN)
    result, games = entry(root, folder)
    assert games == GAMES  # every earlier row, and not the cut-off one
    assert lines(folder)[:GAMES] == before
    if result is not None:
        assert result.exit_code == 0, result.output
        assert "arena: warning: " in result.stderr and "its last line is cut off (47 bytes" in result.stderr


def test_the_store_readers_warn_and_keep_every_whole_line(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    shutil.copytree(played / "logs" / "lg", folder)
    with (folder / GAMES_FILE).open("ab") as handle:
        handle.write(TORN)
    with pytest.warns(TornLineWarning, match=r"games\.jsonl: its last line is cut off \(47 bytes"):
        found = read_rows(folder)
    assert (len(found.rows), found.torn) == (GAMES, len(TORN))
    with pytest.warns(TornLineWarning):
        assert sum(len(batch.rows) for batch in read_batches(folder)) == GAMES


def test_a_bad_line_in_the_middle_is_one_line_naming_it(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    shutil.copytree(played / "logs" / "lg", folder)
    whole = (folder / GAMES_FILE).read_bytes().split(b"\n")
    (folder / GAMES_FILE).write_bytes(b"\n".join(whole[:2] + [TORN] + whole[2:]))
    with pytest.raises(LogError, match=r"games\.jsonl:3: not a valid game line \(not valid JSON"):
        read_rows(folder)
    for command in (["standings", str(folder)], ["replay", str(folder)], ["report", str(folder), "-o",
                                                                              str(tmp_path / "r.html")]):
        result = arena(*command)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, (command, result.output)
        assert "games.jsonl:3: not a valid game line" in result.stderr
    result = arena("check-logs", str(folder))
    assert result.exit_code == 1 and "games.jsonl:3: not a valid game line" in result.stdout
