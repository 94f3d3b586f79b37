"""The runner with real processes: log layout, concurrency, honest clocks, faults, openings."""

from __future__ import annotations

import itertools
import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from tournament_support import StopAfter, bot_command, read_jsonl, shobu_config

from arena.errors import ConfigError
from arena.stats.ratings import GameResult, online_elo, plain_pair_columns, result_from_row
from arena.tournament import runner as runner_module
from arena.tournament.config import load_config
from arena.tournament.logs import LegacyEloStats, TournamentLog, standings_from_folder
from arena.tournament.runner import RunOptions, SilentReporter, Tournament, run_tournament
from arena.tournament.schedule import round_robin

FAST = {"kill_grace": 0.05}


def options(tmp_path: Path, **kw: Any) -> RunOptions:
    # These tests pin the schedule of a folder kept by index (tests/tournament/test_field.py: by pairing).
    return RunOptions(logs_root=tmp_path / "logs", player_opts=FAST, standings_interval_s=0.05,
                      **{"by_pairing": False, **kw})


async def test_round_robin_writes_the_log_layout(tmp_path: Path, bot_file: Path) -> None:
    config = load_config(shobu_config(tmp_path, bot_file, agents=3))
    summary = await run_tournament(config, options(tmp_path, concurrency=2))
    folder = tmp_path / "logs" / "t"
    assert summary.complete and summary.finished == 6 and not summary.interrupted
    rows = read_jsonl(folder / "games.jsonl")
    assert sorted(r["index"] for r in rows) == list(range(6))
    schedule = {g.index: g for g in round_robin(["b0", "b1", "b2"], 2, config.seed)}
    for row in rows:
        assert (row["black"], row["white"]) == (schedule[row["index"]].black, schedule[row["index"]].white)
        record = json.loads((folder / row["record"]).read_text())
        assert record["winner"] == row["winner"] and record["game_index"] == row["index"]
        assert [p["id"] for p in record["players"]] == [row["black"], row["white"]]
        for log in record["stderr_logs"].values():
            assert (folder / log).is_file()  # relative to the log folder
    saved = json.loads((folder / "config.json").read_text())
    assert saved == {**config.to_json(), "versions": saved["versions"]} and saved["agents"][0]["command"][1] == str(bot_file)
    total = {"games": 0, "wins": 0, "draws": 0, "losses": 0}
    for aid in ("b0", "b1", "b2"):
        stats = json.loads((folder / f"{aid}.json").read_text())
        assert stats["games"] == 4 and stats["wins"] + stats["draws"] + stats["losses"] == 4
        assert isinstance(stats["rating"], int)
        for k in total:
            total[k] += stats[k]
    assert total["wins"] == total["losses"]
    standings = json.loads((folder / "standings.json").read_text())
    assert standings == summary.standings
    recomputed, _ = standings_from_folder(folder)
    assert recomputed == standings and "nodes" not in recomputed  # local games name no node
    assert standings["terminations"]["total"] == {"max_moves": 6}
    # Rows of games played on a cluster (the Ray backend) name their node: recomputing counts them.
    node_a = {"id": "a" * 56, "ip": "127.0.0.1", "hostname": "h1"}
    node_b = {"id": "b" * 56, "ip": "127.0.0.2", "hostname": "h2"}
    (folder / "games.jsonl").write_text("".join(
        json.dumps({**row, "node": node_a if row["index"] % 3 else node_b}) + "\n" for row in rows))
    recomputed, _ = standings_from_folder(folder)
    assert recomputed["nodes"] == [{"node": "a" * 56, "ip": "127.0.0.1", "hostname": "h1", "games": 4},
                                   {"node": "b" * 56, "ip": "127.0.0.2", "hostname": "h2", "games": 2}]


async def test_games_overlap_and_statistics_stay_off_the_event_loop(
        tmp_path: Path, bot_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What is charged to the bots is measured in bench/fairness_bench.py; here the behaviour behind
    # honest clocks: games run at the same time, and while they run arena's own process neither
    # computes standings nor writes the per-agent files (the standings worker, another process,
    # does). Arena writes the per-agent files once, at finish.
    calls: list[tuple[str, int]] = []
    played: list[int] = [0]
    real_standings = runner_module.standings_object
    real_agent_files = TournamentLog.write_agent_files

    def standings_spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(("standings", played[0]))
        return real_standings(*args, **kwargs)

    def agent_files_spy(self: TournamentLog, *args: Any) -> None:
        calls.append(("agent files", played[0]))
        real_agent_files(self, *args)

    class Counting(SilentReporter):
        def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
            played[0] += 1
            calls.append(("game", played[0]))

    monkeypatch.setattr(runner_module, "standings_object", standings_spy)
    monkeypatch.setattr(TournamentLog, "write_agent_files", agent_files_spy)
    obj = {"id": "clock", "game": "shobu", "tournamentType": "roundRobin", "timeLimit": 20000,
           "maxMoves": 6, "agents": [{"id": f"s{i}", "path": bot_command(bot_file, "--sleep-ms", "30")}
                                     for i in range(3)]}
    path = tmp_path / "clock.json"
    path.write_text(json.dumps(obj))
    summary = await run_tournament(load_config(path), options(tmp_path, concurrency=4), Counting())
    folder = tmp_path / "logs" / "clock"
    records = [json.loads(p.read_text()) for p in sorted((folder / "games").glob("*.json"))]
    assert len(records) == 6 and all(r["termination"] == "max_moves" for r in records)

    def interval(r: dict[str, Any]) -> tuple[float, float]:
        start = datetime.fromisoformat(r["started_at"]).timestamp()
        return start, start + r["duration_s"]

    intervals = sorted(interval(r) for r in records)
    assert any(b[0] < a[1] for a, b in itertools.pairwise(intervals))  # at least two games overlapped
    assert calls == [("game", n) for n in range(1, 7)] + [("agent files", 6)]
    # the final standings came from the worker, and they are what the logs say
    recomputed, stats = standings_from_folder(folder)
    assert summary.standings == recomputed == json.loads((folder / "standings.json").read_text())
    for aid, expected in stats.items():
        assert json.loads((folder / f"{aid}.json").read_text())["rating"] == expected["rating"]


async def test_a_crashing_bot_loses_and_the_tournament_goes_on(tmp_path: Path, bot_file: Path) -> None:
    obj = {"id": "faults", "game": "shobu", "maxMoves": 8, "timeLimit": 20000,
           "agents": [{"id": "good", "path": bot_command(bot_file)},
                      {"id": "crashy", "path": bot_command(bot_file, "--crash-at", "2")}]}
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj))
    summary = await run_tournament(load_config(path), options(tmp_path, concurrency=2))
    assert summary.finished == 2
    assert summary.standings["terminations"]["total"] == {"crash": 2}
    assert summary.standings["terminations"]["faults"] == {"crashy": {"crash": 2}}
    top = summary.standings["standings"][0]
    assert top["id"] == "good" and top["wins"] == 2


async def test_an_opening_book_gives_each_pair_its_position(tmp_path: Path, bot_file: Path) -> None:
    from arena.games import get_game

    game = get_game("shobu")
    lines = []
    state = game.initial_state()
    for _ in range(3):  # three book positions: the start after 1, 2 and 3 plies
        state = game.apply(state, game.legal_moves(state)[0])
        lines.append(json.dumps(game.state_to_json(state)))
    (tmp_path / "book.jsonl").write_text("\n".join(lines) + "\n")
    path = shobu_config(tmp_path, bot_file, id="book", agents=3, openings="book.jsonl", openingsOrder="sequential")
    config = load_config(path)
    await run_tournament(config, options(tmp_path, concurrency=2))
    folder = tmp_path / "logs" / "book"
    for row in read_jsonl(folder / "games.jsonl"):
        record = json.loads((folder / row["record"]).read_text())
        assert record["game_states"][0] == json.loads(lines[row["pair"] % 3])
    (tmp_path / "book.jsonl").write_text(lines[0] + "\n")  # the book changed: resuming is refused
    with pytest.raises(ConfigError, match="already holds a different tournament"):
        Tournament(load_config(path), options(tmp_path)).prepare()
    bad = shobu_config(tmp_path, bot_file, id="bad", name="bad.json", openings="book.jsonl", openingPlies=2)
    with pytest.raises(ConfigError, match="a book and openingPlies both choose"):
        load_config(bad)


async def test_openings_are_shared_within_a_pair(tmp_path: Path, bot_file: Path) -> None:
    config = load_config(shobu_config(tmp_path, bot_file, id="open", agents=3, openingPlies=4, seed=3))
    await run_tournament(config, options(tmp_path, concurrency=2))
    folder = tmp_path / "logs" / "open"
    rows = read_jsonl(folder / "games.jsonl")
    boards: dict[int, list[str]] = {}
    for row in rows:
        record = json.loads((folder / row["record"]).read_text())
        start = record["game_states"][record["opening_plies"]]  # the position after the opening
        assert start["turnNumber"] == 4 and record["game_states"][0]["turnNumber"] == 0
        boards.setdefault(row["pair"], []).append(start["board"])
    assert sorted(len(b) for b in boards.values()) == [2, 2, 2]
    assert all(a == b for a, b in boards.values())  # one opening for both games of a pair
    assert len({b[0] for b in boards.values()}) == 3  # and they differ from pair to pair


async def run_until(config_path: Path, tmp_path: Path, count: int, concurrency: int = 2) -> Any:
    reporter = StopAfter(count)
    tournament = Tournament(load_config(config_path), options(tmp_path, concurrency=concurrency), reporter)
    tournament.prepare()
    with reporter.scope:
        await tournament.play()
    return await tournament.finish(interrupted=True)


async def test_a_cancelled_run_keeps_finished_games_only_and_resumes(tmp_path: Path, bot_file: Path) -> None:
    path = shobu_config(tmp_path, bot_file, id="resume", agents=4)  # 12 games
    first = await run_until(path, tmp_path, 3)
    folder = tmp_path / "logs" / "resume"
    rows = read_jsonl(folder / "games.jsonl")
    assert first.interrupted and first.finished == len(rows) >= 3 and len(rows) < 12
    assert len(list((folder / "games").glob("*.json"))) >= len(rows)
    second = await run_tournament(load_config(path), options(tmp_path, concurrency=2))
    rows = read_jsonl(folder / "games.jsonl")
    assert second.already_done == first.finished and second.played_now == 12 - first.finished
    assert sorted(r["index"] for r in rows) == list(range(12))
    stats = [json.loads((folder / f"b{i}.json").read_text()) for i in range(4)]
    assert sum(s["games"] for s in stats) == 24


async def test_a_cut_off_last_line_is_dropped_and_that_game_replayed(tmp_path: Path, bot_file: Path) -> None:
    path = shobu_config(tmp_path, bot_file, id="cut", agents=3)
    await run_until(path, tmp_path, 2, concurrency=1)
    games = tmp_path / "logs" / "cut" / "games.jsonl"
    rows = read_jsonl(games)
    cut = json.dumps({**rows[-1], "index": 4})[:37]  # an append killed half-way
    with open(games, "a") as handle:
        handle.write(cut)
    await run_tournament(load_config(path), options(tmp_path, concurrency=2))
    text = games.read_text()
    assert cut not in text and text.endswith("\n")
    assert sorted(r["index"] for r in read_jsonl(games)) == list(range(6))


async def test_a_different_config_under_the_same_id_is_refused(tmp_path: Path, bot_file: Path) -> None:
    path = shobu_config(tmp_path, bot_file, id="same", agents=2)
    await run_tournament(load_config(path), options(tmp_path, concurrency=1))
    other = shobu_config(tmp_path, bot_file, id="same", agents=2, name="other.json", timeLimit=999)
    with pytest.raises(ConfigError) as info:
        Tournament(load_config(other), options(tmp_path)).prepare()
    message = str(info.value)
    assert "already holds a different tournament" in message and "timeLimit was 20000, now 999" in message
    assert "change 'id'" in message and "--logs" in message
    # concurrency may change, and gamesPerPair may grow: the new games are appended
    grown = shobu_config(tmp_path, bot_file, id="same", agents=2, name="grown.json", concurrency=3,
                         gamesPerPair=4)
    summary = await run_tournament(load_config(grown), options(tmp_path))
    assert (summary.already_done, summary.played_now, summary.finished) == (2, 2, 4)
    shrunk = shobu_config(tmp_path, bot_file, id="same", agents=2, name="shrunk.json", gamesPerPair=1)
    with pytest.raises(ConfigError, match="schedule does not have"):
        Tournament(load_config(shrunk), options(tmp_path)).prepare()


async def test_open_ended_random_matches_stop_on_cancel_and_resume(tmp_path: Path, bot_file: Path) -> None:
    path = shobu_config(tmp_path, bot_file, id="rm", agents=3, tournamentType="randomMatches", seed=5)
    first = await run_until(path, tmp_path, 4)
    assert first.total is None and first.finished >= 4
    folder = tmp_path / "logs" / "rm"
    done = {r["index"] for r in read_jsonl(folder / "games.jsonl")}
    second = await run_until(path, tmp_path, 3)
    rows = read_jsonl(folder / "games.jsonl")
    indices = [r["index"] for r in rows]
    assert len(indices) == len(set(indices)) == first.finished + second.played_now
    assert done <= set(indices)
    # a fixed count under the same id continues the same stream
    fixed = shobu_config(tmp_path, bot_file, id="rm", agents=3, tournamentType="randomMatches", seed=5,
                         matches=max(indices) // 2 + 2, name="fixed.json")
    summary = await run_tournament(load_config(fixed), options(tmp_path))
    assert summary.complete and sorted(r["index"] for r in read_jsonl(folder / "games.jsonl")) == list(
        range(summary.total or 0))


def test_legacy_elo_stats_match_the_batch_rating_whatever_the_finishing_order() -> None:
    rng = random.Random(4)
    games = [GameResult(i, *rng.sample("abcd", 2), rng.choice([0.0, 0.5, 1.0])) for i in range(60)]
    order = games[:]
    # finish roughly in order with a window of 3 games in flight, like the runner
    for i in range(0, 60, 3):
        window = order[i:i + 3]
        rng.shuffle(window)
        order[i:i + 3] = window
    stats = LegacyEloStats("abcd")
    for n, g in enumerate(order):
        stats.add(g)
        pending = [x.index for x in order[n + 1:]]
        snap = stats.snapshot(min(pending) if pending else None)
        expected = online_elo([x for x in order[: n + 1]], "abcd")
        assert {a: s["rating"] for a, s in snap.items()} == {a: round(r) for a, r in expected.items()}
    assert sum(s["games"] for s in snap.values()) == 120


def test_legacy_elo_stats_takes_a_resumed_runs_games_at_once_as_one_by_one() -> None:
    """add_finished (columns of plain rows) is add game by game: the same counts, and the same
    ratings to the last bit, whether the games fold at once (below ``below``) or wait in the tail."""
    rng = random.Random(5)
    rows = [{"index": i, "black": b, "white": w, "winner": rng.choice(["BLACK", "WHITE", "NONE"]), "pair": i // 2}
            for i, (b, w) in enumerate(rng.sample(list(itertools.permutations("abcd", 2)), 12) * 10)]
    rng.shuffle(rows)
    for below in (0, 70, 120):
        one_by_one, at_once = LegacyEloStats("abcd"), LegacyEloStats("abcd")
        for row in rows:
            one_by_one.add(result_from_row(row))
        columns = plain_pair_columns(rows)
        assert columns is not None
        at_once.add_finished(columns, below)
        for pending in (below, None):
            assert at_once.snapshot(pending) == one_by_one.snapshot(pending)
            assert at_once._folded == one_by_one._folded
        with pytest.raises(ValueError):
            at_once.add_finished(columns, below)


# A Shobu bot that plays random moves seeded only by its game's seed (ARENA_SEED) and its --salt.
SEEDED_BOT = '''import json, os, random, sys
from arena.games import get_game
game = get_game("shobu")
rng = random.Random(f"{os.environ['ARENA_SEED']}-{sys.argv[1]}")
for line in sys.stdin:
    if line.strip():
        state = game.state_from_json(json.loads(line)["payload"])
        move = rng.choice(game.legal_moves(state))
        print(json.dumps({"type": "turn", "payload": game.move_to_wire(move)}), flush=True)
'''


async def test_a_seeded_tournament_of_bots_seeded_by_arena_seed_is_reproducible(tmp_path: Path) -> None:
    bot = tmp_path / "seeded.py"
    bot.write_text(SEEDED_BOT)
    played = []
    for run in ("first", "second"):
        config = load_config(shobu_config(tmp_path, bot, id=run, seed=7, maxMoves=12))
        summary = await run_tournament(config, options(tmp_path))
        assert summary.complete and summary.finished == 6
        folder = tmp_path / "logs" / run
        records = [json.loads((folder / row["record"]).read_text())
                   for row in sorted(read_jsonl(folder / "games.jsonl"), key=lambda r: r["index"])]
        assert all(r["termination"] == "max_moves" for r in records), [r["reason"] for r in records]
        played.append([(r["seed"], [t["notation"] for t in r["turns"]], r["winner"]) for r in records])
    assert played[0] == played[1]
    # The seed reached the bots: games with different seeds went differently.
    assert len({tuple(map(str, moves)) for _, moves, _ in played[0]}) > 1
