"""Fuzzing every stdin reader of the rules tools: whatever arrives, each object gets exactly one
JSON output line (a result or an error), the report counts it, and nothing raises."""

from __future__ import annotations

import functools
import io
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.games.registry import get_table_game
from arena.tools.rules import moves_one, pass_through_one, perft_one, run_stream

SHOBU_CASE = {
    "turn": {"passive": {"origin": {"x": 6, "y": 7}, "heading": {"x": 0, "y": -1}},
             "aggressive": {"origin": {"x": 3, "y": 3}, "heading": {"x": 0, "y": -1}}},
    "game_state": {"board": "oooooooo................xxxxxxxxoooooooo................xxxxxxxx",
                   "turn": "BLACK", "turnNumber": 0},
}
CHECKERS_STATE = {"board": [". b . b . b . b", "b . b . b . b .", ". b . b . b . b", ". . . . . . . .",
                            ". . . . . . . .", "w . w . w . w .", ". w . w . w . w", "w . w . w . w ."],
                  "turn": "BLACK", "turnNumber": 0}
CHECKERS_CASE = {"turn": "2 3 2 2 3", "game_state": CHECKERS_STATE}

HANDLERS = {
    "shobu pass-through": (functools.partial(pass_through_one, get_table_game("shobu")), SHOBU_CASE),
    "checkers pass-through": (functools.partial(pass_through_one, get_table_game("checkers")), CHECKERS_CASE),
    "shobu moves": (functools.partial(moves_one, get_table_game("shobu")), SHOBU_CASE["game_state"]),
    "checkers moves": (functools.partial(moves_one, get_table_game("checkers")), CHECKERS_STATE),
    "checkers perft": (functools.partial(perft_one, get_table_game("checkers"), depth=1, divide=False), CHECKERS_STATE),
    "shobu perft": (functools.partial(perft_one, get_table_game("shobu"), depth=1, divide=True), SHOBU_CASE["game_state"]),
}

json_leaves = (st.none() | st.booleans() | st.integers(min_value=-10, max_value=70)
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=70)
               | st.sampled_from(["BLACK", "WHITE", "black", "2 3 2 2 3", "x" * 64, ". b . b . b . b"]))
json_values = st.recursive(json_leaves, lambda kids: st.lists(kids, max_size=9)
                           | st.dictionaries(st.text(max_size=10), kids, max_size=4), max_leaves=12)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    value = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(_paths(value)))
        if not path:
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(json_values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(json_values)
        else:
            parent.append(draw(json_values))
    return value


def run(name: str, data: bytes) -> tuple[list[dict], Any]:
    handler, _ = HANDLERS[name]
    out = io.BytesIO()
    report = run_stream(handler, [data[i:i + 97] for i in range(0, len(data), 97)], out, io.StringIO())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == report.objects
    assert report.exit_code in (0, 1, 2)
    return lines, report


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.sampled_from(sorted(HANDLERS)), st.binary(max_size=400))
def test_arbitrary_bytes(name: str, data: bytes) -> None:
    lines, _report = run(name, data)
    for line in lines:
        if isinstance(line, dict) and "error" in line:
            assert line["error"] in ("malformed_input", "illegal_move") and isinstance(line["reason"], str)


@FUZZ
@given(st.data())
def test_mutated_valid_inputs(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(HANDLERS)))
    _, base = HANDLERS[name]
    cases = [data.draw(mutated(base)) for _ in range(3)]
    lines, report = run(name, b"\n".join(json.dumps(c).encode() for c in cases))
    assert len(lines) == 3
    assert report.malformed + report.illegal <= 3


@FUZZ
@given(st.data())
def test_byte_level_mutations(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(HANDLERS)))
    raw = bytearray(json.dumps(HANDLERS[name][1], indent=data.draw(st.sampled_from([None, 2]))).encode())
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        pos = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
        op = data.draw(st.sampled_from(["flip", "delete", "insert"]))
        if op == "flip":
            raw[pos] = data.draw(st.integers(min_value=0, max_value=255))
        elif op == "delete":
            del raw[pos]
        else:
            raw.insert(pos, data.draw(st.sampled_from(b'{}[]",:0123456789-.\\ \nxob')))
    run(name, bytes(raw))


def test_unmutated_cases_succeed() -> None:
    for name in HANDLERS:
        lines, report = run(name, json.dumps(HANDLERS[name][1]).encode())
        assert report.exit_code == 0, (name, lines)
