"""arena.records.schema (the standard-library validator check-record uses) agrees with jsonschema."""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from arena.games.registry import game_names
from arena.records.schema import SchemaError, record_schema, schema_errors

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "report"))
from report_support import synthetic_record

VALIDATOR = jsonschema.Draft202012Validator(dict(record_schema()))


def _mutations(record: dict[str, Any]) -> list[dict[str, Any]]:
    changes: list[tuple[tuple[Any, ...], Any]] = [
        (("record_format",), 1), (("winner",), "RED"), (("game",), "Shobu"), (("plies",), -1),
        (("seed",), "7"), (("game_index",), -2), (("players", 0, "colour"), "WHITE"), (("players", 1, "command"), 3),
        (("turns", 0, "opening"), "yes"), (("turns", 0, "charged_ms"), 1.0), (("game_states", 0, "turn"), "RED"),
        (("game_states", 0, "extra"), 1), (("clocks_left_ms", 0), "GREEN"), (("steps", 0, "seat"), -1), (("ranks", 0), 0), (("time_control", "timeLimit"), -5),
        (("started_at",), "now"), (("duration_s",), True), (("stderr_logs",), {"BLACK": 1}), (("plies",), 2.0),
        (("players",), []), (("game_states",), []), (("move_times_ms", 0), -1.0) if record["move_times_ms"] else
        (("move_times_ms",), [-1.0]),
    ]
    mutated = []
    for path, value in changes:
        copied = copy.deepcopy(record)
        node = copied
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        mutated.append(copied)
    for key in ("reason", "players", "time_control"):
        mutated.append({k: v for k, v in copy.deepcopy(record).items() if k != key})
    return mutated


@pytest.mark.parametrize("game_name", sorted(game_names()))
def test_same_verdict_as_jsonschema(game_name: str) -> None:
    record = synthetic_record(game_name, seed=1, max_plies=8)
    assert list(schema_errors(record)) == [] and VALIDATOR.is_valid(record)
    for bad in _mutations(record):
        ours = list(schema_errors(bad))
        assert bool(ours) == (not VALIDATOR.is_valid(bad)), (ours, list(VALIDATOR.iter_errors(bad)))


def test_the_first_error_names_the_place() -> None:
    record = synthetic_record(min(game_names()), seed=1, max_plies=8)
    record["time_control"]["timeLimit"] = -5
    assert next(schema_errors(record)) == ("/time_control/timeLimit", "-5 is less than the minimum of 1")


def test_an_unknown_keyword_is_refused_not_ignored() -> None:
    with pytest.raises(SchemaError, match="uniqueItems"):
        list(schema_errors([1], {"type": "array", "uniqueItems": True}))


@pytest.mark.parametrize(("name", "fmt"), [("checkers.format2", 2), ("shobu.format2", 2), ("kuhn_poker.format3", 3)])
def test_records_of_earlier_formats_match_their_own_schema(name: str, fmt: int) -> None:
    """Stored records an earlier arena wrote (tests/data/old_records) keep their schema."""
    import json

    record = json.loads((Path(__file__).resolve().parents[1] / "data" / "old_records" / f"{name}.json").read_text())
    assert record["record_format"] == fmt
    validator = jsonschema.Draft202012Validator(dict(record_schema(fmt)))
    assert list(schema_errors(record, record_schema(fmt))) == [] and validator.is_valid(record)
    assert list(schema_errors(record)) != []  # not format 4
