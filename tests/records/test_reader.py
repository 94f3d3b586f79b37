"""The one record reader (arena.records.reader): every input shape, every error, and a log folder
read the same as the file of its records."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.errors import ArenaError
from arena.games.registry import DEFAULT_MATCH_GAME
from arena.records.logstore import TornLineWarning
from arena.records.reader import (
    GAMES_FILE,
    RESULT_TEXT,
    RecordInputError,
    list_games,
    read_game,
    read_record_list,
    read_records,
    record_index,
    record_name,
    record_path,
    result_text,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))
from report_support import synthetic_record, write_log_folder

RECORDS = [synthetic_record(DEFAULT_MATCH_GAME, seed=seed, max_plies=12) for seed in range(4)]


def _write(path: Path, value: Any) -> Path:
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return path


def _records(path: Path) -> list[dict[str, Any]]:
    return [dict(record) for _, record in read_records(path)]


def test_names() -> None:
    assert record_name(12) == "games/00012.json" and record_index("00012.json") == 12
    assert record_path(Path("f"), 3) == Path("f/games/00003.json")
    assert record_index("12.json.tmp") is None and record_index("x.json") is None
    assert RESULT_TEXT == {"BLACK": "1-0", "WHITE": "0-1", "NONE": "1/2-1/2"}
    assert [result_text(w) for w in ("BLACK", "white", "NONE", "?")] == ["1-0", "0-1", "1/2-1/2", "*"]
    assert result_text("BLACK", "interrupted") == "*"
    assert issubclass(RecordInputError, ArenaError)


def test_each_input_shape(tmp_path: Path) -> None:
    one = _write(tmp_path / "one.json", RECORDS[0])
    array = _write(tmp_path / "array.json", RECORDS)
    lines = _write(tmp_path / "lines.jsonl", "\n".join(json.dumps(r) for r in RECORDS) + "\n")
    folder = write_log_folder(tmp_path / "logs", RECORDS)
    expected = [{**r, "game_index": i} for i, r in enumerate(RECORDS)]
    assert _records(one) == [RECORDS[0]]
    assert _records(array) == _records(lines) == RECORDS
    assert _records(folder) == _records(folder / GAMES_FILE) == expected
    (folder / GAMES_FILE).unlink()  # an SPRT run's folder: the record files themselves
    assert _records(folder) == expected
    plain = tmp_path / "plain"  # any other folder: its record files, in name order
    plain.mkdir()
    _write(plain / "a.json", RECORDS[:2])
    _write(plain / "b.json", RECORDS[2])
    assert _records(plain) == RECORDS[:3]
    assert read_record_list(array) == RECORDS
    assert read_game(folder, 2) == expected[2]


def test_a_log_folder_is_listed_without_reading_its_records(tmp_path: Path) -> None:
    folder = write_log_folder(tmp_path / "logs", RECORDS)
    record_path(folder, 1).write_text("{cut off")
    games = list_games(folder)
    assert [g.index for g in games] == [0, 1, 2, 3] and all(g.record is None for g in games)
    assert games[1].summary["winner"] == RECORDS[1]["winner"]
    with pytest.raises(RecordInputError, match=r"00001\.json: not a game record \(not JSON"):
        games[1].load()
    with (folder / GAMES_FILE).open("a") as rows:
        rows.write('{"index": 9, "rec')  # a line cut off by a kill: not a finished game
    with pytest.warns(TornLineWarning, match="last line is cut off"):
        assert [g.index for g in list_games(folder)] == [0, 1, 2, 3]


@pytest.mark.parametrize(("content", "message"), [
    (None, "{path}: no such file or folder"),
    ("{not json", "{path}: not a game record (not JSON: "),
    ("[]", "{path}: not a game record (an empty array, no game in it)"),
    ("[1]", "{path}[0]: not a game record (a JSON number, not an object)"),
    ("42", "{path}: not a game record (a JSON number, not an object)"),
    ('{"winner": "NONE"}', "{path}: not a game record (no 'game', 'turns', 'game_states', 'termination')"),
    ('{"a": 1, "a": 2}', "{path}: not a game record (the key 'a' appears twice"),
    ('{"a": 1}\n{"a": 2, "a": 3}\n', "{path}: line 2: the key 'a' appears twice"),
])
def test_each_error_is_one_line_naming_the_file(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "input.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RecordInputError) as caught:
        list(read_records(path))
    assert str(caught.value).startswith(message.format(path=path)) and "\n" not in str(caught.value)


def test_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordInputError, match="no games here: no record files"):
        list_games(tmp_path)
    (tmp_path / "games").mkdir()
    with pytest.raises(RecordInputError, match="no games here: no game records in"):
        list_games(tmp_path)
    _write(tmp_path / GAMES_FILE, "not json\n")
    with pytest.raises(RecordInputError, match=rf"{GAMES_FILE}:1: not a valid game line \(not valid JSON"):
        list_games(tmp_path)
    _write(tmp_path / GAMES_FILE, '{"round": 1}\n')
    with pytest.raises(RecordInputError, match=rf"{GAMES_FILE}:1: not a valid game line \(a game needs"):
        list_games(tmp_path)
    with pytest.raises(RecordInputError, match="00000.json: no such file or folder"):
        read_game(tmp_path, 0)
    _write(record_path(tmp_path, 0), RECORDS[:2])
    with pytest.raises(RecordInputError, match="an array, expected one record"):
        read_game(tmp_path, 0)


def test_a_link_below_a_log_folder_is_not_followed(tmp_path: Path) -> None:
    folder = write_log_folder(tmp_path / "logs", RECORDS[:1])
    outside = _write(tmp_path / "outside.json", RECORDS[1])
    record_path(folder, 0).unlink()
    record_path(folder, 0).symlink_to(outside)
    with pytest.raises(RecordInputError, match="00000.json"):
        read_game(folder, 0)


def test_checked_false_leaves_the_fields_to_the_caller(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.json", [{"winner": "NONE"}])
    assert read_record_list(path, checked=False) == [{"winner": "NONE"}]
    with pytest.raises(RecordInputError, match="not a game record"):
        read_record_list(path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.sampled_from(range(len(RECORDS))), min_size=1, max_size=6))
def test_a_folder_reads_as_the_file_of_its_records(tmp_path_factory: pytest.TempPathFactory, picks: list[int]) -> None:
    """Property: reading a log folder gives the records that reading the file of its records gives."""
    base = tmp_path_factory.mktemp("same")
    chosen = [{**RECORDS[i], "game_index": n} for n, i in enumerate(picks)]
    folder = write_log_folder(base / "logs", chosen)
    as_file = _write(base / "all.json", chosen)
    as_lines = _write(base / "all.jsonl", "\n".join(json.dumps(r) for r in chosen) + "\n")
    from_folder = _records(folder)
    assert from_folder == _records(as_file) == chosen
    if len(chosen) > 1:  # one JSON line is one record, not JSON lines
        assert _records(as_lines) == chosen
    assert [g.index for g in list_games(folder)] == [g.index for g in list_games(as_file)]
