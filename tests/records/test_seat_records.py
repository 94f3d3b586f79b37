"""N-seat records (record_format 4; format 3 had the states under ``states``): the schema, the shape check every reader relies on, and
check-record's replay of every step against the rules."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import trio

from arena.games.registry import get_table_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.records.check import check_record
from arena.records.format import record_problem
from arena.records.schema import record_schema, schema_errors

REPO = Path(__file__).resolve().parents[2]
BOT = f"{sys.executable} {REPO / 'bots' / 'goofspiel_random.py'}"
CRASH = f"{sys.executable} -c 'import sys; sys.stdin.readline(); sys.exit(3)'"


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    game = get_table_game("goofspiel", 3, {"num_cards": 4})
    tc = TimeControl(time_limit_ms=20_000, startup_ms=5_000)

    async def play() -> list[dict[str, Any]]:
        plain = await play_game(game, *[AgentSpec(f"r{i}", command=f"{BOT} --seed {i}") for i in range(3)],
                                 time_control=tc, seed=4)
        faulty = await play_game(game, *[AgentSpec("r0", command=BOT), AgentSpec("c", command=CRASH),
                                         AgentSpec("r2", command=BOT)], time_control=tc, seed=5)
        return [plain, faulty]

    return trio.run(play)


def test_records_match_the_schema_with_both_validators(records: list[dict[str, Any]]) -> None:
    schema = record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for record in records:
        round_tripped = json.loads(json.dumps(record))
        assert list(schema_errors(round_tripped, schema)) == []
        jsonschema.validate(round_tripped, schema, cls=jsonschema.Draft202012Validator)
        assert record_problem(round_tripped) is None
        assert check_record(round_tripped) == []
    assert [e["seat"] for e in records[1]["eliminations"]] == [1]
    assert any(step["kind"] == "elimination" for step in records[1]["steps"])


def _broken(record: dict[str, Any], change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(json.loads(json.dumps(record)))
    change(copied)
    return copied


@pytest.mark.parametrize(("change", "expected"), [
    (lambda r: r["steps"][1]["moves"].update({"0": 9}), "9 is not a legal move for seat 0"),
    (lambda r: r["steps"][0].update(outcome=9), "is not an outcome here"),
    (lambda r: r["steps"][0].update(probability="1/2"), "probability '1/2', the rules say 1/4"),
    (lambda r: r["game_states"][2]["points"].__setitem__(0, 99), "the state after it is not game_states[2]"),
    (lambda r: r.update(returns=[0.0, 0.0, 0.0]), "the rules give"),
    (lambda r: r.update(ranks=[1, 1]), "'ranks' must hold one number per seat"),
    (lambda r: r.update(steps=r["steps"][:-1]), "one more than 'steps'"),
    (lambda r: r["steps"][0].update(kind="deal"), "'steps' must be an array of steps"),
    (lambda r: r.update(extra=1), "additional property 'extra' is not allowed"),
])
def test_a_damaged_record_is_named(records: list[dict[str, Any]], change: Any, expected: str) -> None:
    problems = check_record(_broken(records[0], change))
    assert problems and expected in problems[0], problems
