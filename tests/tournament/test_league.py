"""``arena league``: a league over a roster folder that changes while it runs (arena/tournament/league.py).

Real connect4 games between the shipped random bot, a few each; the roster is changed between two
bounded runs (``--games``) or from a reporter hook between two games, never by waiting."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

from arena.backends.local import LocalBackend
from arena.cli import cli
from arena.tournament.league import League, LeagueSettings, load_league
from arena.tournament.logs import standings_from_folder
from arena.tournament.runner import RunOptions, SilentReporter

ROOT = Path(__file__).resolve().parents[2]


def add_bot(root: Path, name: str, bot: str = "connect4_random.py") -> Path:
    folder = root / "bots" / name
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "bots" / bot, folder / bot)
    (folder / "bot.json").write_text(json.dumps({"command": f"python3 {bot}"}))
    return folder


@pytest.fixture
def league(tmp_path: Path) -> Path:
    for name in ("alice", "bob", "carol"):
        add_bot(tmp_path, name)
    path = tmp_path / "league.json"
    path.write_text(json.dumps({"id": "lg", "game": "connect4", "agents": {"from": "bots/*/"}, "timeLimit": 20000}))
    return path


def rows(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]


def run_league(config: Path, *args: str) -> Any:
    logs = config.parent / "logs"
    return CliRunner().invoke(cli, ["league", str(config), "--logs", str(logs), "--rescan", "0", "-j", "2",
                                    "--json", *args], catch_exceptions=False)


def summary(result: Any) -> dict[str, Any]:
    return json.loads(result.stdout[result.stdout.index("{\n"):])


def test_bounded_runs_see_a_bot_added_one_updated_and_one_removed(league: Path) -> None:
    first = run_league(league, "--games", "6")
    assert first.exit_code == 0, first.output
    out = summary(first)
    assert out["games_finished"] == 6 and sorted(out["field"]) == ["alice", "bob", "carol"]
    assert all(entry["games"] == 4 for entry in out["field"].values())  # 6 games, 3 agents: 4 each
    old_bob = out["field"]["bob"]["version"]

    add_bot(league.parent, "dave", "connect4_greedy.py")
    with open(league.parent / "bots" / "bob" / "connect4_random.py", "a") as handle:
        handle.write("# bob's second version\n")
    second = run_league(league, "--games", "12")
    assert second.exit_code == 0, second.output
    out = summary(second)
    assert "league: dave joins" in second.output and f"(was {old_bob})" in second.output
    assert out["games_played_now"] == 6
    folder = league.parent / "logs" / "lg"
    played = rows(folder)
    assert sorted(r["index"] for r in played) == list(range(12))
    new_games = [r for r in played if r["index"] >= 6]
    assert all(("dave" in r["versions"]) or ("bob" in r["versions"]) for r in new_games)  # new ones first
    assert out["field"]["bob"]["version"] != old_bob and out["field"]["bob"]["all_versions"] > out["field"]["bob"]["games"]
    # The standings count the current versions only; `arena standings` reads the folder alike.
    standings, _ = standings_from_folder(folder, bootstrap_samples=0)
    counted = {r["id"]: r["games"] for r in standings["standings"]}
    assert counted == {aid: entry["games"] for aid, entry in out["field"].items()}
    assert sum(counted.values()) == 2 * sum(1 for r in played if r["versions"].get("bob", out["field"]["bob"]["version"])
                                            == out["field"]["bob"]["version"])
    on_disk = json.loads((folder / "standings.json").read_text())
    assert {r["id"]: r["games"] for r in on_disk["standings"]} == counted

    shutil.rmtree(league.parent / "bots" / "carol")
    third = run_league(league, "--games", "14")
    assert third.exit_code == 0, third.output
    assert "league: carol leaves" in third.output
    assert all("carol" not in r["versions"] for r in rows(folder)[12:])
    assert "carol" not in {r["id"] for r in standings_from_folder(folder, 0)[0]["standings"]}


def play_through(run: League) -> None:
    """Play ``run`` (preparing it first unless it is) and finish it, in a trio run of its own."""

    async def main() -> None:
        try:
            await run.play()
        finally:
            await run.finish()

    trio.run(main)


class ChangeAfter(SilentReporter):
    """Adds a bot once the run has written ``add`` games, edits alice's once it has written ``edit``."""

    def __init__(self, root: Path, add: int, edit: int) -> None:
        self.root, self.add, self.edit, self.done = root, add, edit, 0

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        self.done += 1
        if self.done == self.add:
            add_bot(self.root, "erin")
        if self.done == self.edit:
            with open(self.root / "bots" / "alice" / "connect4_random.py", "a") as handle:
                handle.write("# alice, edited mid-run\n")


def test_a_roster_changed_while_the_league_runs_is_seen_before_the_next_game(league: Path) -> None:
    loaded = load_league(league)
    run = League(loaded, RunOptions(logs_root=league.parent / "logs", concurrency=1, stats_worker=False),
                 ChangeAfter(league.parent, add=3, edit=6), LeagueSettings(games=10, rescan_s=0))
    play_through(run)
    played = sorted(rows(run.folder), key=lambda r: r["index"])
    assert len(played) == 10
    assert all("erin" not in r["versions"] for r in played[:3])
    assert "erin" in played[3]["versions"]  # the newcomer plays first
    old_alice = played[0]["versions"].get("alice") or played[1]["versions"]["alice"]
    assert all(r["versions"].get("alice", old_alice) == old_alice for r in played[:6])
    assert all(r["versions"].get("alice", "") != old_alice for r in played[6:])
    assert played[6]["versions"].get("alice") not in (None, old_alice)  # its new version: no games yet
    assert [line.split(" ")[:2] for line in run.changes[3:]] == [["erin", "joins"], ["alice:", "new"]]
    counts = run.game_counts()
    assert counts["alice"]["all_versions"] > counts["alice"]["games"]


def test_a_game_cut_off_by_kill_9_is_not_lost_or_doubled(league: Path) -> None:
    assert run_league(league, "--games", "4").exit_code == 0
    folder = league.parent / "logs" / "lg"
    # What kill -9 leaves behind: a game's record written but not its line, and half a line.
    (folder / "games" / "00004.json").write_text('{"cut": "off"}\n')
    with open(folder / "games.jsonl", "ab") as handle:
        handle.write(b'{"index": 5, "black": "al')
    result = run_league(league, "--games", "8")
    assert result.exit_code == 0, result.output
    played = rows(folder)
    assert sorted(r["index"] for r in played) == list(range(8))
    assert json.loads((folder / "games" / "00004.json").read_text()).get("cut") is None  # played anew
    assert summary(result)["games_played_now"] == 4
    again = run_league(league, "--games", "8")
    assert again.exit_code == 0 and summary(again)["games_played_now"] == 0 and len(rows(folder)) == 8


def test_a_broken_folder_is_set_aside_with_its_reason_and_a_tournament_folder_is_refused(league: Path) -> None:
    broken = league.parent / "bots" / "zed"
    broken.mkdir()
    result = run_league(league, "--games", "2")
    assert result.exit_code == 0, result.output
    assert "set aside: agents: bots/zed/: no bot.json" in result.output
    other = league.parent / "t.json"
    other.write_text(json.dumps({"id": "lg", "game": "connect4", "agents": [
        {"type": "executable", "id": "x", "path": "python3 bots/alice/connect4_random.py"},
        {"type": "executable", "id": "y", "path": "python3 bots/bob/connect4_random.py"}]}))
    run = CliRunner().invoke(cli, ["run", str(other), "--logs", str(league.parent / "logs")])
    assert run.exit_code == 2 and "already holds a different tournament" in run.output
    listed = CliRunner().invoke(cli, ["league", str(other)])
    assert listed.exit_code == 2 and "a league plays a roster folder" in listed.output


def test_rounds_stop_when_every_pair_has_met(league: Path) -> None:
    result = run_league(league, "--rounds", "1")
    assert result.exit_code == 0, result.output
    played = rows(league.parent / "logs" / "lg")
    assert len(played) == 3 and {frozenset((r["black"], r["white"])) for r in played} == {
        frozenset(p) for p in (("alice", "bob"), ("alice", "carol"), ("bob", "carol"))}
    assert os.path.exists(league.parent / "logs" / "lg" / "standings.json")
    # A known end, said as such; the last line counts this run's games as this run's.
    assert "until interrupted" not in result.stderr and ", for 1 round," in result.stderr, result.stderr
    assert "league stopped with 3 games in the folder (3 played in this run)" in result.stderr


class Refusing(LocalBackend):
    """Local games; a bot named erin cannot start where games run (as a Ray node may say)."""

    def __init__(self) -> None:
        self.shipped: list[list[str]] = []

    def update_agents(self, agents: list[Any]) -> dict[str, str]:
        self.shipped.append([agent.id for agent in agents])
        return {agent.id: "cannot start on node n1: program python3 is not on PATH" for agent in agents
                if agent.id == "erin"}


def test_the_backend_gets_each_new_bot_once_and_one_it_cannot_start_is_set_aside(league: Path) -> None:
    backend = Refusing()
    run = League(load_league(league), RunOptions(logs_root=league.parent / "logs", concurrency=1, stats_worker=False,
                                                 backend=backend),
                 ChangeAfter(league.parent, add=2, edit=4), LeagueSettings(games=8, rescan_s=0))
    play_through(run)
    assert backend.shipped == [["erin"], ["alice"]]  # refused once, not asked again at every reread
    assert "set aside: agent 'erin' cannot start on node n1: program python3 is not on PATH" in run.changes
    assert all("erin" not in r["versions"] for r in rows(run.folder)) and len(rows(run.folder)) == 8
