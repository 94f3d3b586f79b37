"""The app of `arena serve` (arena/serve/app.py) on a real tournament's log folder: the pages with
Starlette's test client, the event stream driven as raw ASGI (an endless response, read until the
expected event arrives, with a deadline as the backstop)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from serve_support import client, next_update, rows, sse

from arena.serve.app import create_app
from arena.serve.folder import LogFolder, NotALogFolder, check_log_folder


def test_the_leaderboard_lists_every_agent_with_its_elo_and_the_latest_games(played: Path) -> None:
    standings = json.loads((played / "standings.json").read_text())
    response = client(played).get("/")
    assert response.status_code == 200
    text = response.text
    assert "6 games finished" in text and 'data-events="/events"' in text and "new EventSource(" in text
    for row in standings["standings"]:
        assert f'<tr data-agent="{row["id"]}">' in text
        assert f'<a href="/agent/{row["id"]}">' in text
        assert f'{row["elo"]:.1f}' in text and f'{row["elo_low"]:.0f} … {row["elo_high"]:.0f}' in text
    for row in rows(played):
        assert f'<a href="/game/{row["index"]}">' in text


def test_a_game_page_is_the_reports_viewer_of_that_game(played: Path) -> None:
    response = client(played).get("/game/3")
    assert response.status_code == 200
    assert 'id="arena-game-3"' in response.text and 'class="mode-game"' in response.text
    assert client(played).get("/game/6").status_code == 404  # not finished (not in games.jsonl)


def test_a_finished_game_opens_at_its_last_position_unless_the_address_asks_for_another(played: Path) -> None:
    from arena.records.reader import read_game_file, record_path
    from arena.records.replay import Replay

    last = Replay.from_record(read_game_file(record_path(played, 3), root=played)).last
    text = client(played).get("/game/3").text
    # Before the viewer's script routes the address (at DOMContentLoaded): #ply=LAST when none is given.
    assert f'<script>if (!location.hash) history.replaceState(null, "", "#ply={last}");</script>' in text
    assert text.index("#ply=") < text.index("DOMContentLoaded") and last > 0


def test_numbers_that_round_to_zero_show_as_zero_never_minus_zero() -> None:
    from arena.serve.pages import leaderboard_table

    row = {"id": "a", "rank": 1, "elo": -0.004, "elo_low": -0.3, "elo_high": 0.2, "games": 2, "wins": 1,
           "draws": 0, "losses": 1, "score_pct": -0.001}
    two = leaderboard_table({"standings": [row]})
    seats = leaderboard_table({"players": 3, "standings": [{**row, "avg_rank": -0.001}]})
    for text in (two, seats):
        assert "-0" not in text and '<td class="num">0.0</td>' in text and "0 … 0" in text, text


def test_an_agents_page_shows_results_by_opponent_and_its_faults_with_reasons(played: Path) -> None:
    crashes = [r for r in rows(played) if r["termination"] == "crash"]
    assert crashes  # b2 crashes on its 2nd move in every game
    text = client(played).get("/agent/b2").text
    assert f"Faults ({len(crashes)})" in text
    for row in crashes:
        assert f'Game <a href="/game/{row["index"]}">{row["index"]}</a>: crash' in text
    assert "crashing on purpose" in text  # the stderr tail
    versus = text.split('id="versus"')[1].split("</table>")[0]
    assert '<a href="/agent/b0">b0</a>' in versus and '<a href="/agent/b1">b1</a>' in versus
    assert "Faults (0)" in client(played).get("/agent/b0").text
    assert client(played).get("/agent/nobody").status_code == 404


def test_a_folder_the_run_has_not_written_yet_serves_an_empty_board(tmp_path: Path) -> None:
    folder = tmp_path / "fresh"
    folder.mkdir()
    text = client(check_log_folder(folder)).get("/").text
    assert "0 games finished" in text and "No standings yet" in text


@pytest.mark.parametrize("make", ["missing", "file", "other"])
def test_a_path_that_is_not_a_log_folder_is_refused(tmp_path: Path, make: str) -> None:
    path = tmp_path / "x"
    if make == "file":
        path.write_text("{}")
    elif make == "other":
        path.mkdir()
        (path / "notes.txt").write_text("hi")
    with pytest.raises(NotALogFolder, match="x (does not exist|is not a folder|is not a tournament log folder)"):
        check_log_folder(path)


def test_the_folder_is_reread_only_when_a_watched_file_changes(played: Path) -> None:
    log = LogFolder(played)
    first = log.poll()
    assert log.poll() is first and len(first.rows) == 6
    lines = (played / "games.jsonl").read_bytes().splitlines(keepends=True)
    (played / "games.jsonl").write_bytes(b"".join(lines[:4]) + lines[4][:20])  # resumed: a cut-off tail
    cut = log.poll()
    assert cut.version == first.version + 1 and len(cut.rows) == 4 and cut.error is None
    os.remove(played / "standings.json")
    assert log.poll().standings is None


# -- the event stream ------------------------------------------------------------------------------


async def test_the_stream_pushes_the_new_standings_when_a_game_is_appended(played: Path) -> None:
    games = played / "games.jsonl"
    lines = games.read_bytes().splitlines(keepends=True)
    last = json.loads(lines[-1])
    games.write_bytes(b"".join(lines[:-1]))
    async with sse(create_app(played, poll_s=0.02)) as events:
        first = await next_update(events, 5)
        assert f'<a href="/game/{last["index"]}">' not in first["html"]["latest"]
        with games.open("ab") as out:
            out.write(lines[-1])
        update = await next_update(events, 6)
    assert update["version"] > first["version"]
    assert update["html"]["status"].startswith("6 games finished")
    assert f'<tbody><tr data-game="{last["index"]}">' in update["html"]["latest"]  # newest first
    assert set(update["html"]) == {"status", "leaderboard", "plot", "latest"}


async def test_the_stream_survives_a_folder_that_appears_and_a_truncated_resume(tmp_path: Path, played: Path) -> None:
    folder = tmp_path / "later"
    folder.mkdir()
    async with sse(create_app(folder, poll_s=0.02)) as events:
        empty = await next_update(events, 0)
        assert "No game has finished yet" in empty["html"]["latest"]
        (folder / "standings.json").write_bytes((played / "standings.json").read_bytes())
        (folder / "games.jsonl").write_bytes((played / "games.jsonl").read_bytes())
        full = await next_update(events, 6)
        assert 'data-agent="b0"' in full["html"]["leaderboard"]
        lines = (folder / "games.jsonl").read_bytes().splitlines(keepends=True)
        (folder / "games.jsonl").write_bytes(b"".join(lines[:2]))  # a resumed run's rewritten file
        await next_update(events, 2)


def test_an_agents_page_lists_the_versions_its_games_were_played_with(played: Path) -> None:
    games = rows(played)
    for row in games:  # b2 replaced after game 2 (the rows of a field that changes)
        row["versions"] = {"b0": "0" * 64, "b1": "1" * 64, "b2": ("a" if row["index"] <= 2 else "b") * 64}
    (played / "games.jsonl").write_text("".join(json.dumps(row) + "\n" for row in games))
    text = client(played).get("/agent/b2").text
    table = text.split('id="versions"')[1].split("</table>")[0]
    old = [r["index"] for r in games if "b2" in (r["black"], r["white"]) and r["index"] <= 2]
    new = [r["index"] for r in games if "b2" in (r["black"], r["white"]) and r["index"] > 2]
    assert "Versions (2)" in text
    assert f'<code title="{"a" * 64}">{"a" * 16}</code></td><td class="num">{len(old)}</td>' in table
    assert f'<code title="{"b" * 64}">{"b" * 16}</code> <span class="dim">(latest)</span></td>' in table
    assert f'<td class="num">{len(new)}</td><td class="num"><a href="/game/{new[0]}">' in table
    assert 'id="versions"' not in client(played).get("/agent/nobody").text
    (played / "games.jsonl").write_text("".join(json.dumps({k: v for k, v in r.items() if k != "versions"}) + "\n"
                                                for r in games))
    assert "Versions" not in client(played).get("/agent/b2").text  # rows without versions: no such section


def test_a_rows_version_is_by_agent_id() -> None:
    from arena.serve.agents import version_of

    assert version_of({"versions": {"a": "v1"}}, "a") == "v1"
    assert version_of({"versions": {"a": "v1"}}, "b") is None
    assert version_of({"players": [{"id": "a"}]}, "a") is None


def test_an_agents_results_by_opponent_are_of_the_games_that_count_now_the_rest_history(played: Path) -> None:
    config = json.loads((played / "config.json").read_text())
    assert config["resultsBy"] == "pairing"  # a field that may change
    games = rows(played)
    for row in games:  # b2 replaced after game 2: its first games are an old version's
        row["versions"] = {**row["versions"], "b2": "old" if row["index"] <= 2 else config["versions"]["b2"]}
    (played / "games.jsonl").write_text("".join(json.dumps(row) + "\n" for row in games))
    old = [r for r in games if "b2" in (r["black"], r["white"]) and r["index"] <= 2]
    new = [r for r in games if "b2" in (r["black"], r["white"]) and r["index"] > 2]
    assert old and new
    text = client(played).get("/agent/b2").text
    versus = text.split('id="versus"')[1].split("</table>")[0]
    tallied = sum(int(cell.split("<")[0]) for cell in versus.split('<td class="num">')[1::5])
    assert tallied == len(new)
    assert f"{len(old)} more are history" in text and f"Games ({len(old) + len(new)})" in text
    b0 = client(played).get("/agent/b0").text
    versus_b2 = b0.split('<a href="/agent/b2">b2</a></td><td class="num">')[1].split("<")[0]
    assert int(versus_b2) == sum(1 for r in new if "b0" in (r["black"], r["white"]))


def test_a_versions_games_and_score_are_its_own_rows_and_counting_now_is_the_standings_rule(played: Path) -> None:
    from arena.records.field import Field
    from arena.serve.agents import agent_record

    config = json.loads((played / "config.json").read_text())
    games = rows(played)
    b2 = [r for r in games if "b2" in (r["black"], r["white"])]

    def points(row: dict) -> float:
        mine = "BLACK" if row["black"] == "b2" else "WHITE"
        return 1.0 if row["winner"] == mine else 0.5 if row["winner"] == "NONE" else 0.0

    b2[0]["winner"] = "BLACK" if b2[0]["black"] == "b2" else "WHITE"  # b2's old version won a game
    own_old, own_latest = b2[:2], b2[2:]
    late = next(r for r in own_latest if "b0" in (r["black"], r["white"]))  # b0 is replaced after this one
    for row in games:
        row["versions"] = {**row["versions"], "b2": "old" if row in own_old else config["versions"]["b2"]}
        if row["index"] <= late["index"]:
            row["versions"]["b0"] = "old b0"
    (played / "games.jsonl").write_text("".join(json.dumps(row) + "\n" for row in games))

    now = Field.from_json(config)
    record = agent_record("b2", games, now)
    old, latest = record.versions["old"], record.versions[config["versions"]["b2"]]
    assert (old.games, old.counting) == (len(own_old), 0)
    assert old.score_pct > 0.0  # what it scored (it won a game), not 0.0%
    assert old.score_pct == pytest.approx(100.0 * sum(map(points, own_old)) / len(own_old))
    assert latest.games == len(own_latest)
    assert latest.counting == sum(map(now.counts, own_latest)) < latest.games  # the game against old b0
    assert latest.score_pct == pytest.approx(100.0 * sum(map(points, own_latest)) / len(own_latest))
    # counting now is the standings' rule: the same games as the standings' rows
    assert sum(v.counting for v in record.versions.values()) == sum(
        1 for r in now.standings_rows(games) if "b2" in (r["black"], r["white"]))
    table = client(played).get("/agent/b2").text.split('id="versions"')[1].split("</table>")[0]
    assert "Count now" in table
    assert f'<td class="num">{old.counting}</td><td class="num">{old.score_pct:.1f}%</td>' in table


def test_the_reports_standings_are_of_the_games_that_count_now_as_arena_standings(played: Path) -> None:
    from arena.records.field import Field
    from arena.records.sources import open_source
    from arena.report.html import saved_standings
    from arena.tournament.logs import standings_from_folder

    config = json.loads((played / "config.json").read_text())
    games = rows(played)
    for row in games:  # b2 replaced after game 2: its first games are history
        row["versions"] = {**row["versions"], "b2": "old" if row["index"] <= 2 else config["versions"]["b2"]}
    (played / "games.jsonl").write_text("".join(json.dumps(row) + "\n" for row in games))
    counting = Field.from_json(config).counting(games)
    assert 0 < len(counting) < len(games)
    (played / "standings.json").unlink()  # none saved: the report computes them
    computed = saved_standings(open_source(played))
    assert computed is not None and computed["games"] == len(counting)
    assert computed["standings"] == standings_from_folder(played)[0]["standings"]
    (played / "standings.json").write_text(json.dumps({**computed, "games": len(counting), "marker": 1}))
    saved = saved_standings(open_source(played))  # saved, covering the games that count now: used as it is
    assert saved is not None and saved.get("marker") == 1
