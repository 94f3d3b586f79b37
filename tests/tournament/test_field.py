"""A field that changes (arena.tournament.field, versions): games kept per (pairing, versions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tournament_support import TEST_BOT, bot_command, read_jsonl

from arena.cli import cli
from arena.errors import ConfigError
from arena.records.field import Field
from arena.tournament.config import load_config
from arena.tournament.field import field_games
from arena.tournament.logs import standings_from_folder
from arena.tournament.runner import RunOptions, run_tournament
from arena.tournament.versions import agent_version


def field_config(tmp_path: Path, agents: list[str], **extra: Any) -> Path:
    """A Shobu round robin of the test bot, each agent running its own copy ``<id>.py``."""
    for aid in agents:
        script = tmp_path / f"{aid}.py"
        if not script.exists():
            script.write_text(TEST_BOT)
    obj = {"id": "f", "game": "shobu", "timeLimit": 20000, "maxMoves": 8, "seed": 5,
           "agents": [{"id": aid, "path": bot_command(tmp_path / f"{aid}.py", "--seed", str(ord(aid)))}
                      for aid in agents], **extra}
    path = tmp_path / "f.json"
    path.write_text(json.dumps(obj))
    return path


def options(logs: Path, **kw: Any) -> RunOptions:
    return RunOptions(logs_root=logs, stats_worker=False, bootstrap_samples=20, concurrency=2, **kw)


def test_a_game_is_the_same_game_whatever_else_is_in_the_field() -> None:
    small = {(g.black, g.white, g.round): g for g in field_games(Field("roundRobin", ("a", "b", "c"), seed=3))}
    big = {(g.black, g.white, g.round): g for g in field_games(Field("roundRobin", ("a", "b", "c", "d"), seed=3))}
    assert small.keys() < big.keys() and all(big[k] == g for k, g in small.items())
    assert len(big) == len(Field("roundRobin", ("a", "b", "c", "d"))) == 12
    # Each couple plays both colours, the two games of a pair sharing its opening.
    assert big["a", "b", 0].pair == big["b", "a", 1].pair and big["a", "b", 0].opening_seed == big["b", "a", 1].opening_seed


def test_a_game_counts_only_for_the_agents_versions_now() -> None:
    field = Field("roundRobin", ("a", "b"), {"a": "v1", "b": "v2"})
    row = {"black": "a", "white": "b", "round": 0, "versions": {"a": "v1", "b": "v2"}}
    assert field.counts(row)
    assert not field.counts({**row, "versions": {"a": "v0", "b": "v2"}})  # a's old version
    assert not field.counts({**row, "round": 2})  # beyond gamesPerPair
    assert not field.counts({**row, "black": "b", "white": "a"})  # round 0 has the smaller id black
    assert not Field("roundRobin", ("a", "c"), {"a": "v1", "c": "v"}).counts(row)  # b withdrawn


def test_a_version_follows_the_script_and_its_folder(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text("print(1)\n")
    config = load_config(field_config(tmp_path, ["x", "y"]))
    before = agent_version(config.agents[0], tmp_path)
    (tmp_path / "notes.txt").write_text("not the bot's")
    assert agent_version(config.agents[0], tmp_path) == before
    (tmp_path / "x.py").write_text(TEST_BOT + "\n# fixed\n")
    assert agent_version(config.agents[0], tmp_path) != before
    assert agent_version(config.agents[1], tmp_path) != before


async def test_adding_replacing_withdrawing_plays_only_the_games_needed(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    first = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "c"])), options(logs))
    assert first.played_now == 6 and first.complete

    added = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "c", "d"])), options(logs))
    assert added.change is not None and added.change.added == ("d",)
    assert (added.already_done, added.played_now) == (6, 6)  # d against each of three, both colours

    (tmp_path / "b.py").write_text(TEST_BOT + "\n# a new version\n")
    replaced = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "c", "d"])), options(logs))
    assert replaced.change is not None and replaced.change.replaced == ("b",)
    assert (replaced.already_done, replaced.played_now) == (6, 6)  # b's games again, the others kept

    final = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "d"])), options(logs))
    assert final.change is not None and final.change.withdrawn == ("c",)
    assert (final.already_done, final.played_now, final.change.history) == (6, 0, 12)

    again = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "d"])), options(logs))
    assert again.played_now == 0 and again.change is not None and not again.change.changed

    rows = read_jsonl(logs / "f" / "games.jsonl")
    assert len(rows) == 18 == len({(r["black"], r["white"], r["round"], *r["versions"].values()) for r in rows})
    fresh = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "d"])),
                                 options(tmp_path / "fresh"))
    assert fresh.played_now == 6
    assert final.standings["standings"] == fresh.standings["standings"]
    assert final.standings["crosstable"] == fresh.standings["crosstable"]
    # Every reader of the folder counts the same games: arena standings, arena check-logs.
    assert standings_from_folder(logs / "f", bootstrap_samples=20)[0]["standings"] == final.standings["standings"]
    checked = CliRunner().invoke(cli, ["check-logs", str(logs / "f")], catch_exceptions=False)
    assert checked.exit_code == 0, checked.output


async def test_a_folder_kept_by_index_refuses_a_new_agent_saying_why(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    await run_tournament(load_config(field_config(tmp_path, ["a", "b"])), options(logs, by_pairing=False))
    with pytest.raises(ConfigError, match=r"its agents differ, and this folder keeps its results by game index"):
        await run_tournament(load_config(field_config(tmp_path, ["a", "b", "c"])), options(logs))


async def test_a_gauntlet_keeps_its_hero(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    await run_tournament(load_config(field_config(tmp_path, ["a", "b"], tournamentType="gauntlet")), options(logs))
    with pytest.raises(ConfigError, match=r"the gauntlet's hero \(its first agent\) was a, now c"):
        await run_tournament(load_config(field_config(tmp_path, ["c", "a", "b"], tournamentType="gauntlet")),
                             options(logs))


def kuhn_config(tmp_path: Path, seeds: dict[str, int]) -> Path:
    """A three-seat Kuhn poker round robin of seeded random bots (``seeds``: each agent's seed)."""
    bot = Path(__file__).resolve().parents[2] / "bots" / "kuhn_poker_random.py"
    obj = {"id": "k", "game": "kuhn_poker", "players": 3, "seed": 9,
           "agents": [{"id": aid, "path": bot_command(bot, "--seed", str(seed))} for aid, seed in seeds.items()]}
    path = tmp_path / "k.json"
    path.write_text(json.dumps(obj))
    return path


async def test_a_field_of_n_seats_changes_the_same_way(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    seeds = {"k0": 0, "k1": 1, "k2": 2, "k3": 3}
    first = await run_tournament(load_config(kuhn_config(tmp_path, seeds)), options(logs))
    assert first.played_now == 12  # 4 groups of three, each in its three seat rotations
    seeds["k4"] = 4
    added = await run_tournament(load_config(kuhn_config(tmp_path, seeds)), options(logs))
    assert (added.already_done, added.played_now) == (12, 18)  # the 6 groups with k4
    seeds["k1"] = 11  # another command: a new version
    replaced = await run_tournament(load_config(kuhn_config(tmp_path, seeds)), options(logs))
    assert replaced.change is not None and replaced.change.replaced == ("k1",)
    assert (replaced.already_done, replaced.played_now) == (12, 18)  # the 6 groups with k1
    del seeds["k2"]
    final = await run_tournament(load_config(kuhn_config(tmp_path, seeds)), options(logs))
    assert (final.already_done, final.played_now) == (12, 0)
    fresh = await run_tournament(load_config(kuhn_config(tmp_path, seeds)), options(tmp_path / "fresh"))
    assert fresh.played_now == 12
    assert final.standings["standings"] == fresh.standings["standings"]


def test_in_a_league_every_game_of_todays_agents_and_versions_counts_in_play_order() -> None:
    league = Field("league", ("a", "b", "c"), {"a": "1", "b": "2", "c": "3"})

    def row(index: int, black: str, white: str, **versions: str) -> dict[str, object]:
        return {"index": index, "black": black, "white": white, "versions": versions}

    rows = [row(5, "a", "b", a="1", b="2"), row(1, "b", "a", a="1", b="2"), row(2, "a", "b", a="1", b="old"),
            row(3, "a", "d", a="1", d="4"), row(0, "c", "a", c="3", a="1")]
    assert [r["index"] for r in league.counting(rows)] == [5, 1, 0]  # any number of meetings, no round
    assert [r["index"] for r in league.standings_rows(rows)] == [0, 1, 5]  # their own indices, in play order
    assert Field.from_json(league.to_json()) == league


async def test_a_game_cut_off_before_a_later_one_was_written_takes_its_own_number_again(tmp_path: Path) -> None:
    """Ctrl-C or kill -9 with two games in flight can leave a later game written and an earlier one
    not: the resumed run plays the missing game under the free number, so indexes stay 0 .. N-1."""
    logs = tmp_path / "logs"
    first = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "c"])), options(logs))
    assert first.played_now == 6
    games = logs / "f" / "games.jsonl"
    rows = read_jsonl(games)
    cut = rows[2]
    games.write_text("".join(json.dumps(row) + "\n" for row in rows if row is not cut))
    (logs / "f" / cut["record"]).unlink()

    resumed = await run_tournament(load_config(field_config(tmp_path, ["a", "b", "c"])), options(logs))
    assert (resumed.already_done, resumed.played_now) == (5, 1)
    after = read_jsonl(games)
    assert sorted(row["index"] for row in after) == list(range(6))
    again = next(row for row in after if row["index"] == cut["index"])
    assert (again["black"], again["white"], again["round"]) == (cut["black"], cut["white"], cut["round"])
