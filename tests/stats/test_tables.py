"""N-seat tables and standings, by hand and against the two-player tables they generalise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.stats.ratings import result_from_row
from arena.stats.results import RankedResult, ranked_from_game
from arena.stats.tables import agent_table, pairwise_table, ranked_termination_counts, seat_table, table_standings

GAMES = [
    RankedResult(0, ("a", "b", "c"), (1, 2, 3), (3.0, 1.0, -4.0), group=0),
    RankedResult(1, ("b", "c", "a"), (1, 1, 3), (2.0, 2.0, -4.0), "crash", group=0, faults=((2, "crash"),)),
    RankedResult(2, ("c", "a", "b"), (2, 1, 2), None, group=0),
]


def test_pairwise_counts_every_two_seats_of_a_game() -> None:
    table = pairwise_table(GAMES)
    assert table["a"]["b"] == {"games": 3, "wins": 2, "draws": 0, "losses": 1, "points": 2.0,
                               "los": pytest.approx(0.7181, abs=1e-4)}
    assert table["b"]["c"] == {"games": 3, "wins": 1, "draws": 2, "losses": 0, "points": 2.0,
                               "los": pytest.approx(0.8413, abs=1e-4)}
    assert table["c"]["b"]["points"] == 1.0


def test_seats_and_agents() -> None:
    assert seat_table(GAMES) == [
        {"seat": 0, "games": 3, "wins": 2, "win_pct": 66.7, "avg_rank": 1.333, "avg_return": 2.5},
        {"seat": 1, "games": 3, "wins": 2, "win_pct": 66.7, "avg_rank": 1.333, "avg_return": 1.5},
        {"seat": 2, "games": 3, "wins": 0, "win_pct": 0.0, "avg_rank": 2.667, "avg_return": -4.0},
    ]
    agents = agent_table(GAMES)
    assert agents["a"] == {"games": 3, "wins": 2, "avg_rank": 1.667, "avg_return": -0.5, "score_pct": 66.7,
                           "rank_counts": [2, 0, 1]}
    assert agents["c"]["rank_counts"] == [1, 1, 1]
    assert agents["c"]["score_pct"] == pytest.approx(100 * 2.0 / 6, abs=0.05)  # 0 + (1 + 0.5) + 0.5
    assert agent_table(GAMES, ["a", "b", "c", "idle"], players=4)["idle"] == {
        "games": 0, "wins": 0, "avg_rank": None, "avg_return": None, "score_pct": None, "rank_counts": [0, 0, 0, 0]}


def test_terminations_name_the_faulty_agent() -> None:
    assert ranked_termination_counts(GAMES) == {"total": {"crash": 1, "win": 2}, "faults": {"a": {"crash": 1}}}


def test_two_player_tables_count_the_log_rows() -> None:
    # crosstable and termination_counts of arena.stats.ratings are these tables: check them
    # against counts made straight from a stored log's rows
    lines = (Path(__file__).resolve().parents[1] / "data" / "ratings" / "random10.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    ranked = [ranked_from_game(result_from_row(row)) for row in rows]
    table = pairwise_table(ranked)
    for a, b in [("a00", "a09"), ("a03", "a04"), ("a09", "a05")]:
        mine = {"BLACK": 0, "WHITE": 0, "NONE": 0}  # from a's side: a's wins, losses, draws
        for row in rows:
            if {row["black"], row["white"]} == {a, b}:
                winner = row["winner"] if row["black"] == a or row["winner"] == "NONE" else \
                    {"BLACK": "WHITE", "WHITE": "BLACK"}[row["winner"]]
                mine[winner] += 1
        cell = table[a][b]
        assert (cell["wins"], cell["losses"], cell["draws"]) == (mine["BLACK"], mine["WHITE"], mine["NONE"])
        assert cell["games"] == sum(mine.values()) and cell["points"] == mine["BLACK"] + 0.5 * mine["NONE"]
    expected: dict[str, dict[str, int]] = {}
    for row in rows:
        if row["termination"] not in ("win", "draw"):
            loser = row["white"] if row["winner"] == "BLACK" else row["black"]
            counts = expected.setdefault(loser, {})
            counts[row["termination"]] = counts.get(row["termination"], 0) + 1
    assert ranked_termination_counts(ranked)["faults"] == expected


def test_table_standings_has_the_shape_of_the_brief() -> None:
    standings = table_standings(GAMES * 4, players=3, bootstrap_samples=20, seed=1)
    assert list(standings) == ["games", "players", "model", "seat_elo", "standings", "pairwise", "seats",
                               "terminations"]
    assert standings["games"] == 12 and standings["players"] == 3
    assert len(standings["seat_elo"]) == 3 and standings["seat_elo"][2] == 0.0
    first = standings["standings"][0]
    assert list(first) == ["rank", "id", "elo", "elo_low", "elo_high", "games", "wins", "avg_rank", "avg_return",
                           "score_pct", "rank_counts"]
    assert [r["rank"] for r in standings["standings"]] == [1, 2, 3]
    assert first["id"] == "a" and first["elo_low"] <= first["elo"] <= first["elo_high"]
    assert sum(r["elo"] for r in standings["standings"]) == pytest.approx(0.0, abs=0.2)
    json.dumps(standings)  # plain JSON
    plain = table_standings(GAMES, players=3, bootstrap_samples=0, seat_advantage=False)
    assert plain["seat_elo"] == [None, None, None]
