"""The terminal views: progress bar on a terminal, plain lines otherwise, the final tables (two-player
and N-seat standings, 3 to 200 agents, 40 to 200 columns)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.progress import Progress
from standings_fixtures import agent_names, seat_standings, synthetic_seat_rows, two_player_standings
from tournament_support import shobu_config

from arena.records.reader import ordinal
from arena.stats.ratings import GameResult, compute_standings
from arena.tournament.config import load_config
from arena.tournament.runner import RunOptions, run_tournament
from arena.ui.standings import (
    BoardObserver,
    PlainReporter,
    RichReporter,
    game_line,
    leaders_text,
    print_standings,
)
from arena.ui.tables import crosstable_table, crosstable_width, shorten


def console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=120, color_system=None, highlight=False), out


async def test_the_progress_bar_on_a_terminal(tmp_path: Path, bot_file: Path) -> None:
    con, out = console(terminal=True)
    reporter = RichReporter(con)
    config = load_config(shobu_config(tmp_path, bot_file, agents=3))
    await run_tournament(config, RunOptions(logs_root=tmp_path / "logs", concurrency=2), reporter)
    reporter.close()
    text = out.getvalue()
    assert "t: shobu roundRobin, 3 agents, 2 games at a time" in text
    assert "6/6" in text  # games done and total
    assert "b0 " in text and "/" in text  # live W/D/L of the leaders


async def test_plain_lines_and_the_live_board(tmp_path: Path, bot_file: Path) -> None:
    con, out = console(terminal=False)
    config = load_config(shobu_config(tmp_path, bot_file, agents=2, gamesPerPair=1, maxMoves=2))
    await run_tournament(config, RunOptions(logs_root=tmp_path / "logs", concurrency=1,
                                            observer=BoardObserver(con)), PlainReporter(con))
    text = out.getvalue()
    assert "tournament t: shobu roundRobin, 2 agents, 1 to play, 1 at a time" in text
    assert "[1/1] game 0: b0 (black) - b1 (white) 1/2-1/2 by max_moves (2 plies" in text
    assert "game 0, move 1: b0 (black) plays" in text and "●" in text  # the board after each move


def test_tables_and_lines() -> None:
    results = [GameResult(0, "alpha", "beta", 1.0, "win", 0), GameResult(1, "beta", "alpha", 1.0, "timeout", 0),
               GameResult(2, "alpha", "gamma", 0.5, "max_moves", 1), GameResult(3, "gamma", "alpha", 0.0, "win", 1)]
    con, out = console(terminal=False)
    print_standings(con, compute_standings(results, ["alpha", "beta", "gamma"], bootstrap_samples=20))
    text = out.getvalue()
    assert "Standings after 4 games" in text
    assert all(line == line.rstrip() for line in text.splitlines()), "no trailing spaces when piped"
    first = next(line for line in text.splitlines() if line.strip().startswith("1 "))
    assert "alpha" in first and "2-1-1" in first and "62.5%" in first
    assert "1.5/2" in text  # alpha's points against gamma in the crosstable
    assert "How games ended: max_moves 1, timeout 1 (alpha 1), win 2" in text
    stats = {"a": {"wins": 1, "draws": 0, "losses": 2}, "b": {"wins": 2, "draws": 1, "losses": 0}}
    assert leaders_text(stats) == "W/D/L: b 2/1/0  a 1/0/2"
    stats["c"] = {"wins": 0, "draws": 1, "losses": 0}
    assert leaders_text(stats) == "W/D/L: b 2/1/0  a 1/0/2  c 0/1/0"
    assert leaders_text(stats, room=25) == "W/D/L: b 2/1/0  +2 more"  # as many agents as fit
    assert leaders_text(stats, room=14) == "W/D/L: +3 more"
    assert leaders_text(stats, room=5) == ""
    row = {"index": 3, "black": "a", "white": "b", "result": "0-1", "termination": "timeout", "plies": 7,
           "duration_s": 1.25}
    assert game_line(row, 4, None) == "[4] game 3: a (black) - b (white) 0-1 by timeout (7 plies, 1.2 s)"


# -- any number of agents, any width ----------------------------------------------------------------


def printed(standings: dict[str, Any], width: int, folder: str | None = "tournament_logs/big") -> str:
    """What a terminal ``width`` columns wide shows (a file gets every table whole: below)."""
    out = io.StringIO()
    print_standings(Console(file=out, width=width, color_system=None, highlight=False, force_terminal=True),
                    standings, folder)
    return out.getvalue()


@pytest.mark.parametrize("make", [two_player_standings, lambda n: seat_standings(
    synthetic_seat_rows(agent_names(n), 10 * n, 4), agent_names(n))])
def test_written_to_a_file_every_table_is_whole(make: Any) -> None:
    standings = make(12)
    out = io.StringIO()
    print_standings(Console(file=out, width=80, color_system=None, highlight=False), standings, "logs/t")
    text = out.getvalue()
    assert "Crosstable" in text and "Top pairs" not in text and "not shown at this width" not in text
    assert max(len(line) for line in text.splitlines()) > 120  # no screen to fit: not cut at 80 or 120
    assert all(line == line.rstrip() for line in text.splitlines())
    caption = next(line for line in text.splitlines() if line.startswith("row's"))
    assert "against the column (likelihood of superiority)" in caption  # one line, not wrapped in a column
    for row in standings["standings"]:
        assert re.search(rf"^ *{row['rank']} +{row['id']} ", text, re.MULTILINE), row["id"]


def two_player(n: int) -> dict[str, Any]:
    return two_player_standings(n)


def n_seat(n: int) -> dict[str, Any]:
    return seat_standings(synthetic_seat_rows(agent_names(n), 10 * n, 4), agent_names(n))


@pytest.mark.parametrize("make", [two_player, n_seat])
@pytest.mark.parametrize("agents", [60, 200])
@pytest.mark.parametrize("width", [80, 200])
def test_large_fields_stay_readable(make: Any, agents: int, width: int) -> None:
    standings = make(agents)
    text = printed(standings, width)
    lines = text.splitlines()
    assert all(line.strip() for line in lines), "no blank lines"
    assert all(len(line) <= width for line in lines)
    assert not any(set(line.split()) == {"…"} for line in lines), "no row of only …"
    # Every agent has its row, with its whole name and its rank: nothing cut at these widths.
    for row in standings["standings"]:
        assert re.search(rf"^ *{row['rank']} +{row['id']} ", text, re.MULTILINE), row["id"]
    # No crosstable; the top pairs instead, bounded, and where to see the rest.
    assert "Crosstable" not in text
    top = standings["standings"]
    assert f"1-2   {top[0]['id']}" in text and f"9-10   {top[8]['id']}" in text and "10-11" not in text
    words = " ".join(text.split())  # the pointer wraps at 80 columns
    assert f"The crosstable of {agents} agents needs" in words and f"({width} here)" in words
    assert "'arena report tournament_logs/big'" in words and "'arena standings tournament_logs/big --json'" in words
    assert len(lines) < agents + 40


def test_the_crosstable_is_printed_when_it_fits() -> None:
    standings = two_player(5)
    needed = crosstable_width(standings)
    assert "Crosstable" in printed(standings, needed) and "Top pairs" not in printed(standings, needed)
    assert "Crosstable" not in printed(standings, needed - 1) and "Top pairs" in printed(standings, needed - 1)
    # The computed width is rich's own: the widest crosstable line is exactly that wide.
    out = io.StringIO()
    Console(file=out, width=needed, color_system=None).print(crosstable_table(standings))
    assert max(len(line) for line in out.getvalue().splitlines()) == needed


def test_columns_are_dropped_by_width_and_named() -> None:
    standings = two_player(12)
    wide, narrow = printed(standings, 200), printed(standings, 60)
    assert "online Elo" in wide.splitlines()[1] and "not shown" not in wide
    header = next(line for line in narrow.splitlines() if line.lstrip().startswith("#"))
    assert "online Elo" not in header and "draws" not in header and "score" in header and "Elo" in header
    assert "not shown at this width: online Elo, draws" in " ".join(narrow.split())
    assert all(len(line) <= 60 for line in narrow.splitlines())
    # Long names are cut in the middle (their ends tell them apart), never to nothing.
    for row in standings["standings"]:
        row["id"] = "a-very-long-agent-name-" + row["id"]
    cut = printed(standings, 40)
    assert all(len(line) <= 40 for line in cut.splitlines())
    best = standings["standings"][0]["id"]
    assert re.search(rf"^ *1 +a-very-lo…{best[-10:]} ", cut, re.MULTILINE), cut
    assert shorten("abcdefghij", 5) == "ab…ij" and shorten("abc", 5) == "abc"


def test_n_seat_standings_and_seats() -> None:
    standings = n_seat(6)
    text = printed(standings, 200)
    header = next(line for line in text.splitlines() if line.lstrip().startswith("#"))
    assert header.split() == ["#", "agent", "Elo", "95%", "CI", "games", "wins", "avg", "rank", "avg", "return",
                              "score"]
    best = standings["standings"][0]
    line = next(x for x in text.splitlines() if x.split()[:2] == ["1", best["id"]])
    assert f"{best['avg_rank']:.2f}" in line and f"{best['score_pct']:.1f}%" in line and str(best["wins"]) in line
    seats = text[text.index("Seats"):]
    assert seats.splitlines()[1].split() == ["seat", "games", "win", "%", "avg", "rank", "avg", "return", "Elo",
                                             "vs", "last", "seat"]
    first = standings["seats"][0]
    assert re.search(rf"^ *0 +{first['games']} +{first['win_pct']:.1f}% +{first['avg_rank']:.2f}", seats, re.MULTILINE)
    assert "+30" in seats.splitlines()[3]  # seat_elo[0]
    assert "Crosstable" in text and "pairwise points/games" in text  # 6 agents fit in 200 columns


def test_game_lines_of_n_seat_rows() -> None:
    row = {"index": 2, "seats": ["a", "b", "c"], "players": [{"id": "a", "seat": 0}], "ranks": [1, 3, 2],
           "returns": [2.0, -1.0, 0.0], "termination": "win", "reason": "", "eliminations": []}
    assert game_line(row, 3, 40) == "[3/40] game 2: a 1st, c 2nd, b 3rd by win"
    tied = {**row, "ranks": [1, 1, 3], "plies": 9, "duration_s": 0.5}
    assert game_line(tied, 3, None) == "[3] game 2: a 1st, b 1st, c 3rd by win (9 plies, 0.5 s)"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    # Counts without draws and losses (N seats) lead by wins.
    assert leaders_text({"a": {"games": 4, "wins": 1}, "b": {"games": 4, "wins": 3}}) == "wins/games: b 3/4  a 1/4"


def test_reporters_take_n_seat_rows() -> None:
    row = {"index": 0, "seats": ["a", "b", "c"], "ranks": [2, 1, 3], "returns": [0, 1, -1], "termination": "crash",
           "reason": "c crashed", "eliminations": [{"seat": 2, "termination": "crash"}]}
    con, out = console(terminal=False)
    PlainReporter(con).game_finished(row, 1, {"a": {"games": 1, "wins": 0}})
    assert out.getvalue() == "[1] game 0: b 1st, a 2nd, c 3rd by crash\n"
    con, out = console(terminal=True)
    reporter = RichReporter(con)
    reporter._progress = Progress(console=con)  # as started() leaves it, without a config
    reporter._task = reporter._progress.add_task("games", total=3, leaders="", running=0)
    reporter.game_finished(row, 1, {"a": {"games": 1, "wins": 0}, "b": {"games": 1, "wins": 1}})
    reporter.close()
    assert "game 0: c crashed" in out.getvalue()
