"""arena.records.normal: one reading of every record format, and the upgrade of formats 1-3 to 4.

The old records are stored ones (tests/data/old_records: written by arena match before format 4;
tests/records/data/format1_connect4.json: format 1), so these tests prove that what an earlier
arena wrote still reads, upgrades and checks."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import trio

from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.records.check import check_record
from arena.records.format import RECORD_FORMAT, validate_record
from arena.records.normal import (
    UpgradeError,
    game_states,
    ranks,
    record_format,
    returns,
    seat_ids,
    two_colour,
    upgrade,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "old_records"
FORMAT_1 = Path(__file__).resolve().parent / "data" / "format1_connect4.json"
OLD = {path.stem: json.loads(path.read_text()) for path in [*sorted(DATA.glob("*.json")), FORMAT_1]}
BOTS = Path(__file__).resolve().parents[2] / "bots"


def test_the_stored_records_are_the_old_formats() -> None:
    assert {name: record_format(r) for name, r in OLD.items()} == {
        "checkers.format2": 2, "shobu.format2": 2, "kuhn_poker.format3": 3, "format1_connect4": 1}


def test_the_accessors_read_every_format_alike() -> None:
    shobu, kuhn, connect4 = OLD["shobu.format2"], OLD["kuhn_poker.format3"], OLD["format1_connect4"]
    assert two_colour(shobu) and two_colour(connect4) and not two_colour(kuhn)
    assert seat_ids(shobu) == ["shobu_random", "shobu_greedy"]
    assert (ranks(shobu), returns(shobu)) == ([2, 1], [-1.0, 1.0])  # WHITE won
    assert seat_ids(kuhn) == [s["id"] for s in kuhn["seats"]] and ranks(kuhn) == kuhn["ranks"]
    assert game_states(kuhn) == kuhn["states"] and game_states(shobu) == shobu["game_states"]
    draw = OLD["checkers.format2"]
    assert draw["winner"] == "NONE" and (ranks(draw), returns(draw)) == ([1, 1], [0.0, 0.0])
    for record in OLD.values():  # the upgrade reads the same
        new = upgrade(record)
        assert (seat_ids(new), ranks(new), returns(new), game_states(new)) == (
            seat_ids(record), ranks(record), returns(record), game_states(record))


@pytest.mark.parametrize("name", sorted(OLD))
def test_an_old_record_upgrades_to_a_format_4_record_that_checks_out(name: str) -> None:
    old = copy.deepcopy(OLD[name])
    new = upgrade(old)
    assert old == OLD[name]  # the input is left alone
    assert new["record_format"] == RECORD_FORMAT and check_record(new) == []
    assert upgrade(new) == new
    assert json.loads(json.dumps(new)) == new
    if two_colour(old):  # what a user's script read in format 2 reads the same
        validate_record(new)  # the writer's own check (schema and invariants)
        same = ["winner", "game_states", "game", "termination", "reason", "seed", "move_times_ms"]
        for key in [*same, "turns"] if record_format(old) == 2 else same:  # format 1's turns gain arena's keys
            assert new[key] == old[key], key
        assert [p["id"] for p in new["players"]] == [p["id"] for p in old["players"]]
        assert len(new["steps"]) == len(new["turns"]) == new["plies"]


def test_the_upgrade_of_a_format_2_record_is_what_arena_writes_now() -> None:
    """The same game (seeds, bots, opening) played now and read from format 2: equal but for the
    timing values, which differ from run to run."""
    old = OLD["checkers.format2"]

    async def play() -> dict[str, Any]:
        return await play_game(configured_game("checkers"), AgentSpec("checkers_random", command=f"python3 {BOTS / 'checkers_random.py'} --seed 1"),
                               AgentSpec("checkers_greedy", command=f"python3 {BOTS / 'checkers_greedy.py'} --seed 2"),
                               time_control=TimeControl(), max_moves=old["max_moves"],
                               opening_plies=old["opening_plies"], seed=old["seed"])

    now = trio.run(play)
    timing = {"started_at", "duration_s", "cpuMs", "charged_ms", "clock_left_ms", "move_times_ms", "clocks_left_ms",
              "command", "arena_version", "time_control"}

    def blank(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: None if k in timing else blank(v) for k, v in value.items()}
        if isinstance(value, list):
            return [blank(v) for v in value]
        return value

    assert list(upgrade(old)) == list(now)  # the same fields in the same order
    assert blank(upgrade(old)) == blank(now)


def test_what_cannot_be_upgraded_is_one_line() -> None:
    unknown = {**OLD["shobu.format2"], "game": "no_such_game"}
    with pytest.raises(UpgradeError, match="game 'no_such_game' cannot be loaded"):
        upgrade(unknown)
    broken = copy.deepcopy(OLD["shobu.format2"])
    broken["turns"][3] = {"passive": "nonsense"}
    with pytest.raises(UpgradeError, match=r"^turns\[3\]: "):
        upgrade(broken)
    lacking = {k: v for k, v in OLD["format1_connect4"].items() if k != "started_at"}
    with pytest.raises(UpgradeError, match="no 'started_at'"):
        upgrade(lacking)


def test_a_fault_in_a_game_of_two_colours_is_its_elimination() -> None:
    """WHITE's bot crashes at its first move: WHITE is eliminated at that ply and ranks second, in
    the record arena writes and in the upgrade of the same record as format 2 held it."""
    import sys

    crash = f"{sys.executable} -c 'import sys; sys.stdin.readline(); sys.exit(3)'"

    async def play() -> dict[str, Any]:
        return await play_game(configured_game("connect4"), AgentSpec("r", command=f"python3 {BOTS / 'connect4_random.py'}"),
                               AgentSpec("c", command=crash), time_control=TimeControl())

    record = trio.run(play)
    assert (record["termination"], record["winner"], record["ranks"], record["returns"]) == (
        "crash", "BLACK", [1, 2], [1.0, -1.0])
    assert [(e["seat"], e["ply"], e["termination"]) for e in record["eliminations"]] == [(1, 1, "crash")]
    assert check_record(record) == []
    format_2 = {k: v for k, v in record.items() if k not in ("seats", "steps", "ranks", "returns", "eliminations",
                                                             "game_identity")}
    format_2.update(record_format=2, clocks_left_ms=dict(zip(("BLACK", "WHITE"), record["clocks_left_ms"], strict=True)),
                    stderr_tail={"WHITE": record["stderr_tail"]["1"]} if "stderr_tail" in record else {})
    if not format_2["stderr_tail"]:
        del format_2["stderr_tail"]
    assert upgrade(format_2)["eliminations"] == record["eliminations"]
