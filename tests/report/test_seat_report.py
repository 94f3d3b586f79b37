"""`arena report` of N-seat tournaments and of large fields, without a browser: the sortable
standings, rank bars, seat table, pairwise table and an N-seat viewer block for every game; 200
agents in scrolled boxes, in a page of bounded size."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from standings_fixtures import seat_standings, synthetic_seat_rows, two_player_standings, write_seat_folder
from test_html import blocks

from arena.cli.report_cmd import report_command
from arena.records.replay import Replay
from arena.records.sources import open_source
from arena.report.frames import PieceTable
from arena.report.html import game_payload, report_html
from arena.report.sections import BIG_FIELD, rank_bar, report_body


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_seat_folder(tmp_path_factory.mktemp("logs") / "league", game="goofspiel", games=8, players=3)


def test_the_report_of_an_n_seat_folder(folder: Path) -> None:
    page = report_html(open_source(folder))
    data = blocks(page)
    standings = json.loads((folder / "standings.json").read_text())
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    # Self-contained, as the two-player report.
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert set(re.findall(r"https?://[^\s\"'<>\\]+", page)) <= {"http://www.w3.org/2000/svg"}
    # The sortable standings, one rank bar per agent, the seat table and the pairwise table.
    assert '<table id="standings-table" class="grid sortable">' in page and "sortTable" in page
    assert page.count('<div class="rbar"') == len(standings["standings"])
    assert 'id="seat-table"' in page and page.count("<tr>", page.index('id="seat-table"'),
                                                     page.index("</table>", page.index('id="seat-table"'))) == 4
    assert "<h2>Pairwise results</h2>" in page
    for row in standings["standings"]:
        assert f"<td>{row['id']}</td>" in page
    # The game list and an N-seat viewer block for every game, drawn from its record.
    assert data["arena-data"]["mode"] == "report"
    listed = data["arena-data"]["rows"]
    assert [r[0] for r in listed] == [r["index"] for r in rows]
    assert [r[1] for r in listed] == [", ".join(r["seats"]) for r in rows]
    for r, row in zip(listed, rows, strict=True):
        record = json.loads((folder / row["record"]).read_text())
        best = row["seats"][row["ranks"].index(1)]
        assert r[2].startswith(f"{best} 1st") and r[5] == len(record["steps"])
        game = data[f"arena-game-{row['index']}"]
        assert len(game["frames"]) == len(record["steps"]) + 1 and len(game["steps"]) == len(record["steps"])
        assert [s[1] for s in game["seat_rows"]] == row["seats"]
    assert 'id="seats"' in page and "function selftestGame" in page and "<th data-col=\"2\">Finish</th>" in page


def test_each_game_is_the_seat_viewers_payload(folder: Path) -> None:
    page = report_html(open_source(folder))
    record = json.loads((folder / "games" / "00003.json").read_text())
    expected = game_payload(Replay.from_record(record), PieceTable())
    got = blocks(page)["arena-game-3"]
    assert got["crc"] == expected["crc"] and got["steps"] == expected["steps"]


def test_arena_report_writes_an_n_seat_folder(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "league.html"
    result = CliRunner().invoke(report_command, [str(folder), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}: 8 games" in result.output
    assert len(blocks(out.read_text())["arena-data"]["rows"]) == 8


def test_without_standings_json_the_games_are_still_listed(folder: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    (copy / "standings.json").unlink()
    page = report_html(open_source(copy))
    assert 'id="standings"' not in page and len(blocks(page)["arena-data"]["rows"]) == 8


def test_rank_bars() -> None:
    bar = rank_bar([3, 1, 0, 0], 4)
    assert bar.count("<span") == 2 and 'width:75.00%' in bar and 'width:25.00%' in bar
    assert 'data-v="0.7500"' in bar and "1st 3 (75%), 2nd 1 (25%), 3rd 0 (0%), 4th 0 (0%)" in bar
    assert rank_bar(None, 4) == '<td data-v="">–</td>' and rank_bar([0, 0], 2) == '<td data-v="0">–</td>'


@pytest.mark.parametrize("agents", [200])
def test_hundreds_of_agents(agents: int) -> None:
    two = report_body(two_player_standings(agents))
    assert two.count('class="scroll') == 3  # standings, plot, crosstable
    cross = two[two.index('id="crosstable"'):]
    assert cross.count("<td class=\"num l") == agents * (agents - 1) and ' title="' not in cross
    assert len(two.encode()) < 2_500_000, len(two)
    names = agent_ids(two_player_standings(agents))
    seated = report_body(seat_standings(synthetic_seat_rows(names, 8 * agents, 4), names), seats=True)
    assert seated.count('<div class="rbar"') == agents and "<h2>Pairwise results</h2>" in seated
    small = report_body(two_player_standings(BIG_FIELD))
    assert 'class="scroll' not in small and ' title="agent-' in small  # tooltips below the threshold


def agent_ids(standings: dict[str, Any]) -> list[str]:
    return [row["id"] for row in standings["standings"]]
