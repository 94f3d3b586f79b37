"""A report of many games (:mod:`arena.report.chunks`): the page lists every game and its boards are
in chunk files beside it, each game's payload the same as the one-file page's, whether drawn in
this process or by worker processes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_support import tournament_records, write_log_folder
from test_html import blocks, boards, resolved

from arena.records.sources import open_source
from arena.report.chunks import chunk_file, games_folder, read_chunk_file, write_report
from arena.report.html import ReportError, report_html


def chunks(folder: Path) -> dict[int, dict[str, Any]]:
    """Each chunk file's number and data, as the page's script receives them (inflated)."""
    out = {}
    for path in sorted(folder.glob("chunk-*.js")):
        number, text = read_chunk_file(path.read_bytes())
        assert path.name == f"chunk-{number}.js"
        out[number] = json.loads(text)
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = tournament_records("connect4", ["alpha", "beta", "gamma"], 3, max_plies=24)
    return write_log_folder(tmp_path_factory.mktemp("logs") / "t", records)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_page_lists_every_game_and_the_chunks_hold_the_same_boards(folder: Path, tmp_path: Path,
                                                                       workers: int) -> None:
    source = open_source(folder)
    one = blocks(report_html(source))
    out = tmp_path / "report.html"
    write_report(source, out, split_at=4, chunk_games=4, workers=workers)
    page = out.read_text()
    data = blocks(page)
    assert not any(name.startswith("arena-game-") for name in data)
    assert data["arena-data"]["rows"] == one["arena-data"]["rows"]  # the same list, in the same order
    assert data["arena-data"]["chunk"] == {"dir": "report_games", "size": 4}
    assert 'id="standings"' in page and 'id="crosstable"' in page
    found = chunks(games_folder(out))
    assert sorted(found) == [0, 1, 2]  # 9 games, 4 a chunk
    page_games = {int(name.removeprefix("arena-game-")): game for name, game in one.items()
                  if name.startswith("arena-game-")}
    for position, row in enumerate(data["arena-data"]["rows"]):
        chunk = found[position // 4]
        chunk_games = {int(k): game for k, game in chunk["games"].items()}
        mine, theirs = resolved(chunk_games[row[0]], chunk_games), resolved(page_games[row[0]], page_games)
        assert boards(mine, chunk["pieces"], chunk["starts"]) == boards(theirs, one["arena-pieces"], one["arena-starts"])
        assert {k: v for k, v in mine.items() if k != "frames"} == {k: v for k, v in theirs.items() if k != "frames"}


def test_up_to_the_threshold_the_report_is_one_file(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    write_report(open_source(folder), out, split_at=9)
    assert "arena-game-8" in blocks(out.read_text()) and not games_folder(out).exists()


def test_a_file_where_the_chunks_go_is_refused(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    games_folder(out).write_text("mine")
    with pytest.raises(ReportError, match="report_games"):
        write_report(open_source(folder), out, split_at=4, workers=1)
    assert games_folder(out).read_text() == "mine"


def test_chunks_of_an_earlier_larger_report_are_removed_and_nothing_else(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    source = open_source(folder)
    write_report(source, out, split_at=4, chunk_games=2, workers=1)  # 9 games: chunks 0-4
    games = games_folder(out)
    (games / "notes.txt").write_text("mine")
    (games / "chunk-x.js").write_text("mine")
    (tmp_path / "elsewhere.js").write_text("mine")
    (games / "chunk-7.js").symlink_to(tmp_path / "elsewhere.js")
    write_report(source, out, split_at=4, chunk_games=4, workers=1)  # chunks 0-2
    assert sorted(p.name for p in games.iterdir()) == ["chunk-0.js", "chunk-1.js", "chunk-2.js", "chunk-7.js",
                                                       "chunk-x.js", "notes.txt"]
    write_report(source, out, split_at=9)  # one file: no chunk left, the folder kept for the others
    assert sorted(p.name for p in games.iterdir()) == ["chunk-7.js", "chunk-x.js", "notes.txt"]
    assert (tmp_path / "elsewhere.js").read_text() == "mine"
    for name in ("notes.txt", "chunk-x.js", "chunk-7.js"):
        (games / name).unlink()
    write_report(source, out, split_at=4, chunk_games=4, workers=1)
    write_report(source, out, split_at=9)
    assert not games.exists()  # only arena's chunks were there: the folder goes with them


def test_a_chunk_file_is_its_data_compressed_and_nothing_else_reads_as_one() -> None:
    text = json.dumps({"pieces": ["<g/>"] * 50, "starts": [], "games": {str(i): {"notation": ["a1-b2"] * 40}
                                                                       for i in range(20)}})
    data = chunk_file(7, text)
    assert data.startswith(b'arenaChunkZ(7,"') and data.endswith(b'");\n')
    assert len(data) < len(text) / 10  # what repeats is stored once
    assert read_chunk_file(data) == (7, text)
    for bad in (b'arenaChunk(7,{});\n', data[:-3], data.replace(b"(7,", b"(07,"), b'arenaChunkZ(1,"not base64!");\n'):
        with pytest.raises(ValueError):
            read_chunk_file(bad)
