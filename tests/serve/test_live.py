"""The games in progress: the run's trace (arena/tournament/live.py) in a real tournament, its reader
(arena/serve/live.py) on files written by hand, and their pages (arena/serve/app.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import trio
from serve_support import client, next_update, sse

from arena.games.registry import configured_game
from arena.match.progress import StepPlayed
from arena.serve.app import create_app
from arena.serve.live import LiveFolder, LiveGame, step_text
from arena.tournament.config import load_config
from arena.tournament.live import LIVE_FOLDER, LiveTrace, live_name
from arena.tournament.runner import RunOptions, run_tournament

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_support import TEST_BOT, shobu_config

SHOBU = configured_game("shobu")


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_run_traces_each_game_move_by_move_and_removes_it_when_the_game_ends(tmp_path: Path) -> None:
    bot = tmp_path / "testbot.py"
    bot.write_text(TEST_BOT)
    config = load_config(shobu_config(tmp_path, bot, agents=2, gamesPerPair=2))
    folder = tmp_path / "logs" / config.id
    (folder / LIVE_FOLDER).mkdir(parents=True)
    (folder / LIVE_FOLDER / live_name(7)).write_text('{"index": 7, "players": ["x", "y"]}\n')  # a killed run's
    seen: list[tuple[int, int, list[dict[str, Any]]]] = []

    def observe(event: Any) -> None:
        # The run's own observer comes first: the trace holds every move before this one.
        if isinstance(event, StepPlayed):
            assert event.game_index is not None
            assert not (folder / LIVE_FOLDER / live_name(7)).exists()
            ply = event.step["ply"] + 1
            seen.append((event.game_index, ply, lines_of(folder / LIVE_FOLDER / live_name(event.game_index))))

    summary = trio.run(run_tournament, config, RunOptions(logs_root=tmp_path / "logs", concurrency=2,
                                                          stats_worker=False, bootstrap_samples=20, observer=observe))
    assert summary.finished == 2 and seen
    rows = {row["index"]: row for row in lines_of(folder / "games.jsonl")}
    for index, ply, trace in seen:
        header, moves = trace[0], trace[1:]
        assert header["index"] == index and header["players"] == [rows[index]["black"], rows[index]["white"]]
        assert [m["ply"] for m in moves] == list(range(1, ply))
        assert [m["seat"] for m in moves] == [k % 2 for k in range(ply - 1)]
    record = json.loads((folder / "games" / "00000.json").read_text())
    last = max((t for i, _, t in seen if i == 0), key=len)
    assert [m["move"] for m in last[1:]] == [t["notation"] for t in record["turns"][: len(last) - 1]]
    assert os.listdir(folder / LIVE_FOLDER) == []  # every game ended: no file left


def move(trace: Any, ply: int, text: str, index: int = 4) -> None:
    step = {"ply": ply - 1, "kind": "move", "seat": (ply - 1) % 2, "move": None, "charged_ms": 3.0, "clock_left_ms": 0.0}
    trace(StepPlayed(SHOBU, step, text, None, (), (), index))


def test_the_reader_reads_whole_lines_only_and_follows_files_that_come_and_go(tmp_path: Path) -> None:
    live = LiveTrace(tmp_path, tmp_path.parent)
    reader = LiveFolder(tmp_path)
    assert reader.poll().games == ()
    trace = live.start(4, ["a", "b"])
    move(trace, 1, "m1")
    first = reader.poll()
    assert [(g.index, g.players, [s["move"] for s in g.steps]) for g in first.games] == [(4, ["a", "b"], ["m1"])]
    assert reader.poll() is first  # nothing changed: nothing read
    path = tmp_path / LIVE_FOLDER / live_name(4)
    with path.open("ab") as out:
        out.write(b'{"ply": 2, "seat": 1, "mo')  # a line being written
    cut = reader.poll()
    assert [s["move"] for s in cut.games[0].steps] == ["m1"]
    with path.open("ab") as out:
        out.write(b've": "m2", "ms": 1}\n')
    assert [s["move"] for s in reader.poll().games[0].steps] == ["m1", "m2"]
    live.end(4, trace)
    again = live.start(4, ["a", "b"])  # played again (an arena_error): a new file, read from its start
    move(again, 1, "n1")
    assert [s["move"] for s in reader.poll().games[0].steps] == ["n1"]
    live.end(4, again)
    gone = reader.poll()
    assert gone.games == () and gone.version > first.version


def test_the_trace_of_a_game_of_n_seats_has_a_line_per_step_read_as_who_and_what(tmp_path: Path) -> None:
    from arena.games.registry import get_table_game

    game = get_table_game("kuhn_poker", 3)
    trace = LiveTrace(tmp_path, tmp_path.parent).start(2, ["a", "b", "c"])
    assert trace is not None
    steps = [({"ply": 0, "kind": "chance", "outcome": 0, "probability": "1/4"}, "ignored"),
             ({"ply": 3, "kind": "move", "seat": 0, "move": 1, "charged_ms": 2.25, "clock_left_ms": 9.0}, "bet"),
             ({"ply": 4, "kind": "elimination", "seat": 2, "termination": "crash", "reason": "r"}, "ignored")]
    for step, notation in steps:
        trace(StepPlayed(game, step, notation, None, (), (), 2))
    lines = lines_of(tmp_path / LIVE_FOLDER / live_name(2))[1:]
    # A move is its notation (as in a two-player game); another step is as the record has it.
    assert lines == [steps[0][0], {"ply": 4, "seat": 0, "move": "bet", "ms": 2.2}, steps[2][0]]
    (live,) = LiveFolder(tmp_path).poll().games
    assert [step_text(live, s) for s in live.steps] == [("chance", "0"), ("a", "bet"), ("c", "out (crash)")]


def test_steps_of_every_kind_read_as_who_and_what() -> None:
    game = LiveGame(0, ["a", "b", "c"], "")
    assert step_text(game, {"ply": 0, "seat": 1, "move": "e4"}) == ("b", "e4")
    assert step_text(game, {"kind": "move", "seat": 2, "move": {"card": 3}}) == ("c", '{"card":3}')
    assert step_text(game, {"kind": "chance", "outcome": 5}) == ("chance", "5")
    assert step_text(game, {"kind": "joint", "moves": {"0": 1, "2": 3}}) == ("all", "a: 1; c: 3")
    assert step_text(game, {"kind": "elimination", "seat": 0, "termination": "timeout"}) == ("a", "out (timeout)")


def test_a_game_in_progress_is_on_the_leaderboard_and_has_its_own_page(played: Path) -> None:
    trace = LiveTrace(played, played.parent).start(99, ["b0", "b1"])
    move(trace, 1, "a1b2", 99)
    text = client(played).get("/").text
    assert '<tr data-live="99">' in text and "1.</b>a1b2" in text
    page = client(played).get("/game/99")
    assert page.status_code == 200 and "Game 99: in progress" in page.text
    assert 'data-events="/events?game=99"' in page.text and "<li class=\"latest\"><b>b0</b> a1b2 <span class=\"dim\">3 ms</span></li>" in page.text
    assert client(played).get("/game/98").status_code == 404


async def test_the_stream_sends_moves_as_they_come_and_finished_once_the_game_is_written(played: Path) -> None:
    games = played / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    index = json.loads(lines[-1])["index"]
    games.write_bytes(b"".join(lines[:-1]))
    live = LiveTrace(played, played.parent)
    trace = live.start(index, ["b0", "b1"])
    app = create_app(played, poll_s=0.02)
    async with sse(app, f"/events?game={index}", kinds=("live", "finished")) as events:
        with trio.fail_after(10):  # a backstop only
            assert "No move yet" in (await events.receive())["html"]["live-game"]
            move(trace, 1, "a1b2", index)
            assert "<li class=\"latest\"><b>b0</b> a1b2 <span class=\"dim\">3 ms</span></li>" in (await events.receive())["html"]["live-game"]
            live.end(index, trace)
            with games.open("ab") as out:
                out.write(lines[-1])
            while (event := await events.receive()).get("event") != "finished":
                assert "no longer being played" in event["html"]["live-game"]
    async with sse(app) as events:
        await next_update(events, 6)


async def test_the_leaderboards_stream_sends_the_games_in_progress(played: Path) -> None:
    live = LiveTrace(played, played.parent)
    async with sse(create_app(played, poll_s=0.02), kinds=("live",)) as events:
        with trio.fail_after(10):
            assert "No game in progress" in (await events.receive())["html"]["live"]
            trace = live.start(42, ["b2", "b0"])
            move(trace, 1, "x", 42)
            while '<tr data-live="42">' not in (event := await events.receive())["html"]["live"]:
                pass
            assert "1.</b>x" in event["html"]["live"]


def test_a_long_game_keeps_its_latest_moves_numbered_from_where_they_are(tmp_path: Path,
                                                                        monkeypatch: Any) -> None:
    import arena.serve.live as live_module
    from arena.serve.pages import live_moves, live_table

    monkeypatch.setattr(live_module, "KEEP_STEPS", 3)
    trace = LiveTrace(tmp_path, tmp_path.parent).start(4, ["a", "b"])
    for ply in range(1, 6):
        move(trace, ply, f"m{ply}")
    snap = LiveFolder(tmp_path).poll()
    game = snap.games[0]
    assert (game.plies, game.dropped, [s["move"] for s in game.steps]) == (5, 2, ["m3", "m4", "m5"])
    assert '<ol class="live-moves" start="3"><li><b>a</b> m3 <span class="dim">3 ms</span></li>' in live_moves(game)
    assert live_moves(game).count("<li") == 3 and live_moves(game).count('class="latest"') == 1
    assert '<li class="latest"><b>a</b> m5 ' in live_moves(game)  # the one the page keeps in view
    assert '<td class="num">5</td>' in live_table(snap) and "<b>3.</b>m3" in live_table(snap)
