"""games.jsonl read in batches (arena.records.logstore.row_batches): the rows and the refusals of
the line-by-line reader, whatever the batch a line falls in; the records folder listed once."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import orjson
import pytest

from arena.fileio.jsonfiles import strict_loads
from arena.records import logstore
from arena.records.logstore import LogError, parse_rows
from arena.tournament.resume import missing_records


def row(index: int, **extra: object) -> dict[str, object]:
    return {"index": index, "pair": index // 2, "black": f"a{index % 3}", "white": f"b{index % 4}",
            "winner": ("BLACK", "WHITE", "NONE")[index % 3], "termination": "win", "seed": 2**63 + index,
            "record": f"games/{index:05d}.json", **extra}


def lines(count: int) -> list[bytes]:
    return [orjson.dumps(row(i)) for i in range(count)]


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logstore, "ROW_BATCH_BYTES", 600)  # a few rows a batch: errors land in later ones


def test_rows_are_those_of_the_strict_reader_and_a_cut_off_tail_is_dropped() -> None:
    data = b"\n".join(lines(40)) + b"\n" + b'{"index": 40, "bla'
    read = parse_rows(data, Path("games.jsonl"))
    assert read.rows == [strict_loads(line) for line in lines(40)]
    assert (read.good_bytes, read.file_bytes) == (data.rfind(b"\n") + 1, len(data))


def test_hand_written_lines_and_blank_lines_are_read_too() -> None:
    written = [json.dumps(row(i)).encode() for i in range(10)]  # spaces: not as orjson writes them
    data = b"\n".join(written[:5]) + b"\n\n" + b"\n".join(written[5:]) + b"\n"
    assert parse_rows(data, Path("games.jsonl")).rows == [row(i) for i in range(10)]


@pytest.mark.parametrize(("bad", "message"), [
    (b'{"index":30,"index":31,"pair":15,"black":"x","white":"y","winner":"BLACK"}', "appears twice"),
    (orjson.dumps(row(30)).replace(b'"seed":9223372036854775838', b'"seed":18446744073709551616'), "beyond 64 bits"),
    (orjson.dumps(row(30, winner="MAYBE")), "winner"),
    (orjson.dumps(row(3)), "game 3 is listed twice"),
    (b"[1,2]", "not a valid game line"),
    # orjson reads it (its limit is 1024 levels); the batch reader sees the brackets and asks strict_loads.
    (orjson.dumps(row(30, note=functools.reduce(lambda inner, _: [inner], range(64), []))),
     "nested more than 64 levels deep"),
])
def test_a_bad_line_is_named_whichever_batch_it_is_in(bad: bytes, message: str) -> None:
    rows = lines(60)
    rows[30] = bad
    with pytest.raises(LogError, match=message) as error:
        parse_rows(b"\n".join(rows) + b"\n", Path("games.jsonl"))
    assert str(error.value).startswith("games.jsonl:31: ")


def test_the_first_of_two_problems_is_the_one_named() -> None:
    rows = lines(60)
    rows[20] = orjson.dumps(row(5))  # game 5 again, on line 21
    rows[40] = b"{"
    with pytest.raises(LogError, match=r"games.jsonl:21: game 5 is listed twice"):
        parse_rows(b"\n".join(rows) + b"\n", Path("games.jsonl"))


def test_missing_records_are_the_games_without_a_regular_file(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for index in (0, 1, 3):
        (games / f"{index:05d}.json").write_text("{}")
    os.symlink(games / "00000.json", games / "00004.json")  # a link is not a record
    (games / "00005.json").mkdir()
    assert missing_records(tmp_path, tmp_path, range(7)) == [2, 4, 5, 6]
