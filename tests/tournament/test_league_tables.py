"""``arena league`` of a game of N seats: Kuhn poker at three seats (arena/tournament/league.py).

Real games between the shipped Kuhn poker bots; the example league of the docs runs as it is
written there, and a roster changed between two bounded runs changes the field of a table league."""

from __future__ import annotations

import itertools
import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arena.cli import cli
from arena.tournament.logs import standings_from_folder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "league-kuhn" / "league.json"
AGENTS = ["heuristic", "random1", "random2", "random3", "random4"]


def rows(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]


def league(config: Path, logs: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["league", str(config), "--logs", str(logs), "--rescan", "0", "-j", "2",
                                      "--json", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return json.loads(result.stdout[result.stdout.index("{\n"):])


def test_the_docs_kuhn_league_of_five_agents_at_three_seats_plays_every_group(tmp_path: Path) -> None:
    summary = league(EXAMPLE, tmp_path, "--rounds", "1", "--bound", "1")
    folder = tmp_path / "kuhn-league"
    played = rows(folder)
    # Every group of three of the five agents once, each game a seat record with its versions.
    assert len(played) == 10
    assert Counter(frozenset(r["seats"]) for r in played) == Counter(
        frozenset(group) for group in itertools.combinations(AGENTS, 3))
    assert all(set(r["versions"]) == set(r["seats"]) and len(r["ranks"]) == 3 for r in played)
    assert sorted(r["index"] for r in played) == list(range(10))
    assert {aid: entry["games"] for aid, entry in summary["field"].items()} == dict.fromkeys(AGENTS, 6)
    standings, _ = standings_from_folder(folder, bootstrap_samples=0)
    assert standings["players"] == 3 and standings["games"] == 10
    assert {row["id"] for row in standings["standings"]} == set(AGENTS)
    assert sum(row["games"] for row in standings["standings"]) == 30
    wins = sum(a["wins"] for a in summary["agents"].values()) + sum(a["draws"] for a in summary["agents"].values())
    assert wins >= 10  # every game has a first place
    check = CliRunner().invoke(cli, ["check-logs", str(folder)], catch_exceptions=False)
    assert check.exit_code == 0, check.output


def add_bot(root: Path, name: str, script: str, *args: str) -> Path:
    folder = root / "bots" / name
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "bots" / script, folder / script)
    (folder / "bot.json").write_text(json.dumps({"command": " ".join(["python3", script, *args])}))
    return folder


def test_a_table_league_sees_a_bot_join_one_change_and_one_leave(tmp_path: Path) -> None:
    add_bot(tmp_path, "heuristic", "kuhn_poker_heuristic.py")
    for i in range(1, 4):
        add_bot(tmp_path, f"random{i}", "kuhn_poker_random.py", "--seed", str(i))
    config = tmp_path / "league.json"
    config.write_text(json.dumps({"id": "kt", "game": "kuhn_poker", "players": 3, "agents": {"from": "bots/*/"},
                                  "timeLimit": 5000}))
    logs = tmp_path / "logs"
    league(config, logs, "--games", "4")
    first = rows(logs / "kt")
    old = first[0]["versions"]
    # A fifth agent joins, random1 plays on as a new version, random3 leaves.
    add_bot(tmp_path, "random4", "kuhn_poker_random.py", "--seed", "4")
    (tmp_path / "bots" / "random1" / "bot.json").write_text(json.dumps({"command": "python3 kuhn_poker_random.py --seed 9"}))
    shutil.rmtree(tmp_path / "bots" / "random3")
    summary = league(config, logs, "--games", "10")
    assert any("random4 joins" in line for line in summary["changes"])
    assert any(line.startswith("random1: new version") for line in summary["changes"])
    assert any("random3 leaves" in line for line in summary["changes"])
    played = rows(logs / "kt")
    assert sorted(r["index"] for r in played) == list(range(10))
    later = played[4:]
    assert all("random3" not in r["seats"] for r in later)
    assert any("random4" in r["seats"] for r in later)
    assert all(r["versions"].get("random1", "") != old.get("random1") for r in later)
    # The standings count the current field's current versions only.
    now = {aid: entry["version"] for aid, entry in summary["field"].items()}
    assert set(now) == {"heuristic", "random1", "random2", "random4"}
    counted = [r for r in played if all(now.get(a) == v for a, v in r["versions"].items())]
    assert 6 <= len(counted) < 10
    standings, _ = standings_from_folder(logs / "kt", bootstrap_samples=0)
    assert standings["games"] == len(counted)
    assert {row["id"] for row in standings["standings"]} == {"heuristic", "random1", "random2", "random4"}


def test_a_league_of_three_seats_with_two_agents_is_refused_in_one_line(tmp_path: Path) -> None:
    add_bot(tmp_path, "a", "kuhn_poker_random.py")
    add_bot(tmp_path, "b", "kuhn_poker_random.py")
    config = tmp_path / "league.json"
    config.write_text(json.dumps({"id": "k2", "game": "kuhn_poker", "players": 3, "agents": {"from": "bots/*/"}}))
    result = CliRunner().invoke(cli, ["league", str(config), "--logs", str(tmp_path / "logs"), "--games", "1"])
    assert result.exit_code == 2
    assert "needs at least 3 agents" in result.output and "Traceback" not in result.output
