"""Tournaments of games of N seats (issue 21): config keys, the runner's rows and standings, resume,
and the refusals (SPRT, openings). Real bots (bots/kuhn_poker_*.py) on the local backend."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import trio
from tournament_support import REPO, read_jsonl

from arena.errors import ConfigError
from arena.tournament.config import load_config
from arena.tournament.runner import RunOptions, Tournament, run_tournament

KUHN_BOTS = [f"{sys.executable} {REPO / 'bots' / name}" for name in
             ("kuhn_poker_heuristic.py", "kuhn_poker_random.py --seed 1", "kuhn_poker_random.py --seed 2",
              "kuhn_poker_random.py --seed 3")]


def kuhn_config(folder: Path, *, agents: int = 4, players: int = 3, name: str = "kuhn.json",
                **extra: Any) -> Path:
    obj: dict[str, Any] = {
        "id": "kuhn", "game": "kuhn_poker", "players": players, "tournamentType": "roundRobin",
        "agents": [{"id": f"k{i}", "path": KUHN_BOTS[i % len(KUHN_BOTS)]} for i in range(agents)],
        "gamesPerGroup": players, "timeLimit": 20000, "seed": 7,
    }
    obj.update(extra)
    obj = {key: value for key, value in obj.items() if value is not None}
    path = folder / name
    path.write_text(json.dumps(obj))
    return path


def options(tmp_path: Path, **extra: Any) -> RunOptions:
    # These tests pin the schedule of a folder kept by index (tests/tournament/test_field.py: by pairing).
    return RunOptions(logs_root=tmp_path / "logs", concurrency=2, stats_worker=False, bootstrap_samples=20,
                      **{"by_pairing": False, **extra})


def test_a_round_robin_of_three_seats_plays_every_group_in_every_rotation(tmp_path: Path) -> None:
    config = load_config(kuhn_config(tmp_path))
    assert (config.players, config.games_per_pair) == (3, 3)
    summary = trio.run(run_tournament, config, options(tmp_path))
    assert summary.complete and summary.finished == 12  # 4 groups of 3, 3 rotations each
    rows = read_jsonl(summary.folder / "games.jsonl")
    seats_by_group: dict[int, list[tuple[str, ...]]] = {}
    for row in rows:
        assert sorted(row["ranks"]) == sorted(row["ranks"]) and len(row["ranks"]) == 3
        assert row["players"] == [{"id": a, "seat": k} for k, a in enumerate(row["seats"])]
        seats_by_group.setdefault(row["group"], []).append(tuple(row["seats"]))
        record = json.loads((summary.folder / row["record"]).read_text())
        assert record["record_format"] == 4 and record["ranks"] == row["ranks"] and record["seed"] == row["seed"]
    for seatings in seats_by_group.values():
        for seat in range(3):  # every agent of the group at every seat once
            assert len({s[seat] for s in seatings}) == 3
    standings = json.loads((summary.folder / "standings.json").read_text())
    assert standings["players"] == 3 and standings["games"] == 12
    assert {row["id"] for row in standings["standings"]} == {"k0", "k1", "k2", "k3"}
    assert sum(row["games"] for row in standings["standings"]) == 36
    written = json.loads((summary.folder / "config.json").read_text())
    assert (written["players"], written["gamesPerGroup"], written["parameters"]) == (3, 3, {})
    assert "gamesPerPair" not in written


def test_a_resumed_run_plays_only_the_missing_games_and_refuses_a_changed_seating(tmp_path: Path) -> None:
    config = load_config(kuhn_config(tmp_path))
    summary = trio.run(run_tournament, config, options(tmp_path))
    games = summary.folder / "games.jsonl"
    lines = games.read_text().splitlines(keepends=True)
    kept = [line for line in lines if json.loads(line)["index"] not in (3, 7)]
    games.write_text("".join(kept))
    again = trio.run(run_tournament, config, options(tmp_path))
    assert (again.already_done, again.played_now, again.finished) == (10, 2, 12)
    assert sorted(row["index"] for row in read_jsonl(games)) == list(range(12))
    # The same id with the agents in another order is another tournament: refused before any game.
    reordered = json.loads(kuhn_config(tmp_path).read_text())
    reordered["agents"].reverse()
    (tmp_path / "kuhn.json").write_text(json.dumps(reordered))
    tournament = Tournament(load_config(tmp_path / "kuhn.json"), options(tmp_path))
    with pytest.raises(ConfigError, match="already holds a different tournament .*agents differ"):
        tournament.prepare()


def test_a_forged_row_is_refused_on_resume(tmp_path: Path) -> None:
    config = load_config(kuhn_config(tmp_path, agents=3, gamesPerGroup=3))
    summary = trio.run(run_tournament, config, options(tmp_path))
    games = summary.folder / "games.jsonl"
    rows = sorted(read_jsonl(games), key=lambda row: row["index"])
    rows[1]["seed"] += 1
    games.write_text("".join(json.dumps(row) + "\n" for row in rows))
    from arena.records.logstore import LogError

    with pytest.raises(LogError, match="game 1 is not the game arena scheduled there .*seed"):
        Tournament(config, options(tmp_path)).prepare()


def test_random_matches_keep_every_agents_count_of_matches_within_one(tmp_path: Path) -> None:
    config = load_config(kuhn_config(tmp_path, agents=5, tournamentType="randomMatches", matches=4,
                                     gamesPerGroup=None))
    summary = trio.run(run_tournament, config, options(tmp_path))
    assert summary.finished == 12  # 4 matches of 3 seat rotations
    counts = Counter(agent for row in read_jsonl(summary.folder / "games.jsonl") for agent in row["seats"])
    assert max(counts.values()) - min(counts.values()) <= 3  # one match: three games


@pytest.mark.parametrize(("extra", "message"), [
    ({"players": 11}, "players: at most 10 allowed, got 11"),
    ({"players": 3, "agents": 2}, "agents: kuhn_poker for 3 players needs at least 3 agents, got 2"),
    ({"gamesPerPair": 2}, "gamesPerGroup: the same setting as gamesPerPair; give one of them"),
    ({"openingPlies": 2}, "openingPlies: not for kuhn_poker"),
    ({"parameters": {"cards": 5}}, "parameters: "),
    ({"sprt": {}, "gamesPerGroup": None}, "sprt: an SPRT decides between two bots"),
])
def test_config_mistakes_of_seated_games_are_one_line(tmp_path: Path, extra: dict[str, Any], message: str) -> None:
    agents = extra.pop("agents", 4)
    path = kuhn_config(tmp_path, agents=agents)
    obj = json.loads(path.read_text())
    obj.update(extra)
    obj = {k: v for k, v in obj.items() if v is not None}
    path.write_text(json.dumps(obj))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_two_player_game_takes_no_players_key(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"id": "c", "game": "connect4", "players": 3, "agents": [
        {"id": "a", "path": KUHN_BOTS[0]}, {"id": "b", "path": KUHN_BOTS[1]}]}))
    with pytest.raises(ConfigError, match="players: connect4 is a two-player game"):
        load_config(path)


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=120,
                          check=False, stdin=subprocess.DEVNULL)


def test_the_log_folder_reads_back_with_every_command(tmp_path: Path) -> None:
    config = load_config(kuhn_config(tmp_path, agents=3))
    summary = trio.run(run_tournament, config, options(tmp_path))
    folder = str(summary.folder)
    checked = arena("check-logs", folder)
    assert checked.returncode == 0 and "records, per-agent files and standings agree" in checked.stdout, checked
    listing = arena("replay", folder)
    assert listing.returncode == 0 and "k0, k1, k2" in listing.stdout and "?" not in listing.stdout, listing
    standings = arena("standings", folder, "--json")
    assert standings.returncode == 0, standings.stderr
    assert json.loads(standings.stdout)["standings"] == json.loads((summary.folder / "standings.json").read_text())["standings"]
    # A forged per-agent count is found.
    agent_file = summary.folder / "k0.json"
    stats = json.loads(agent_file.read_text())
    agent_file.write_text(json.dumps({**stats, "wins": stats["wins"] + 1}))
    forged = arena("check-logs", folder)
    assert forged.returncode != 0 and "k0.json: wins" in forged.stdout + forged.stderr


def test_a_gauntlet_rates_its_first_agent_against_the_field(tmp_path: Path) -> None:
    config = load_config(kuhn_config(tmp_path, agents=4, tournamentType="gauntlet"))
    summary = trio.run(run_tournament, config, options(tmp_path))
    assert summary.finished == 9  # the hero with each of the three pairs of the others, three rotations
    rows = read_jsonl(summary.folder / "games.jsonl")
    assert all("k0" in row["seats"] for row in rows)
    versus = summary.standings["versus_field"]
    assert versus["id"] == "k0" and versus["field"] == 3
    assert versus["elo_low"] < versus["elo"] < versus["elo_high"]
