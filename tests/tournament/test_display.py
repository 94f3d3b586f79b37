"""The terminal views: progress bar on a terminal, plain lines otherwise, the final tables."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console
from tournament_support import shobu_config

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
