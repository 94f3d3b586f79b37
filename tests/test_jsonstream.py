"""The framer's stream framing: concatenated and pretty-printed objects, junk, the size bound."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.protocols.framing import Framer, Junk


def split_all(data: bytes, chunk: int = 7, limit: int = 1 << 20) -> list[bytes | Junk]:
    s = Framer(limit)
    items: list[bytes | Junk] = []
    for i in range(0, len(data), chunk):
        s.feed(data[i : i + chunk])
        items += s.items()
    return items + s.close()


def test_one_object_per_line_and_pretty_printed() -> None:
    a = {"a": 1, "b": {"c": [1, 2, {"d": "}{"}]}}
    data = (json.dumps(a) + "\n" + json.dumps(a, indent=2) + json.dumps(a) + "\n\n").encode()
    items = split_all(data)
    assert [json.loads(i) for i in items] == [a, a, a]


def test_braces_and_escaped_quotes_inside_strings() -> None:
    obj = {"s": 'a "quoted" } { \\ brace'}
    assert [json.loads(i) for i in split_all(json.dumps(obj).encode(), chunk=1)] == [obj]


def test_junk_between_objects_is_reported_and_skipped_to_next_line() -> None:
    items = split_all(b'{"a":1}\nhello world\n{"b":2}\n')
    assert items[0] == b'{"a":1}'
    assert isinstance(items[1], Junk) and items[1].problem == "not a JSON object"
    assert items[2] == b'{"b":2}'


def test_truncated_object_at_end() -> None:
    items = split_all(b'{"a": {"b": 1}')
    assert len(items) == 1 and isinstance(items[0], Junk)
    assert "truncated" in items[0].problem


def test_trailing_junk_without_newline() -> None:
    items = split_all(b'{"a":1} 42')
    assert items[0] == b'{"a":1}' and isinstance(items[1], Junk)


def test_oversize_object_is_junk_and_stream_continues() -> None:
    big = b'{"x": "' + b"y" * 5000 + b'"}'
    items = split_all(big + b'\n{"ok": true}\n', chunk=1000, limit=1000)
    assert isinstance(items[0], Junk) and "size limit" in items[0].problem
    assert items[1] == b'{"ok": true}'


def test_empty_input_gives_nothing() -> None:
    assert split_all(b"") == [] and split_all(b"  \n\t\n") == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=5), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
    max_leaves=6), max_size=4), max_size=5), st.integers(min_value=1, max_value=50), st.booleans())
def test_any_sequence_of_objects_round_trips(objs: list[dict], chunk: int, pretty: bool) -> None:
    data = "".join(json.dumps(o, indent=2 if pretty else None) + "\n" for o in objs).encode()
    assert [json.loads(i) for i in split_all(data, chunk)] == objs


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(min_value=1, max_value=40))
def test_arbitrary_bytes_never_raise(data: bytes, chunk: int) -> None:
    for item in split_all(data, chunk, limit=100):
        assert isinstance(item, (bytes, Junk))


# -- strict_loads: the one decoder of the files arena reads -----------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    (b'{"id": "a", "id": "b"}', "the key 'id' appears twice in one object"),
    (b'[{"x": {"y": 1, "y": 1}}]', "the key 'y' appears twice in one object"),
    (b"[" * 100_000 + b"]" * 100_000, "nested more than 64 levels deep"),
    (b"[" * 65 + b"]" * 65, "nested more than 64 levels deep"),
    (b"[NaN]", "NaN is not a JSON number"),
    (b"[-Infinity]", "-Infinity is not a JSON number"),
    (b"[1e400]", "a number too large for a float (infinity)"),
    (b'{"n": 18446744073709551616}', "an integer beyond 64 bits"),
    (b'{"n": -9223372036854775809}', "an integer beyond 64 bits"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    (b'{"a": 1', "not valid JSON ("),
])
def test_strict_loads_refuses_with_one_line(text: bytes, message: str) -> None:
    from arena.fileio.jsonfiles import JsonInputError, strict_loads

    with pytest.raises(JsonInputError) as info:
        strict_loads(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_strict_loads_keeps_what_json_allows() -> None:
    from arena.fileio.jsonfiles import strict_loads

    assert strict_loads(b"[" * 64 + b"]" * 64) is not None
    assert strict_loads(b'{"a": "[[[[{{{{", "b": "x\\"y", "n": 18446744073709551615, "m": -9223372036854775808,'
                        b' "s": "100000000000000000000", "f": 1.5e300, "t": 1e-400}') == {
        "a": "[[[[{{{{", "b": 'x"y', "n": 2**64 - 1, "m": -(2**63), "s": "100000000000000000000", "f": 1.5e300,
        "t": 0.0}
    assert strict_loads('{"é": [true, null]}') == {"é": [True, None]}
    assert strict_loads(b'{"n": 10000000000000000000000}', wide_ints=True) == {"n": 10**22}


@pytest.mark.parametrize(("text", "shortcut"), [
    (b'{"id":"a","id":"b"}', False),  # orjson keeps the last "id": not its own output
    (b"[" * 65 + b"]" * 65 + b"\n", True),
    (b"[" * 64 + b"]" * 64, True),
    (b"[" * 63 + b'{"k]]":"]]}}\\"[[","\\\\":[]}' + b"]" * 63, True),  # brackets and escapes in strings
    (b"[" * 64 + b'"[["' + b"]" * 64, True),  # a string's brackets: the regular expression decides
    (b"[" * 65 + b'"[["' + b"]" * 65, True),
    (b'[1e400]', False),
    (b'{"n":18446744073709551616}', False),
    (b'{"n":18446744073709551615,"m":-9223372036854775808,"f":1.5e+300,"e":"\\u0000\\n\xc3\xa9"}', True),
    (b'{"a":[true,null],"b":{}}\n', True),
    (b'{"a":1.50}', False),
])
def test_strict_loads_reads_orjson_output_as_the_strict_reading_does(text: bytes, shortcut: bool) -> None:
    # What orjson writes (records, log rows) is read by orjson and encoded back: the same value, or
    # the same refusal, as the strict reading (here forced by a leading space).
    from arena.fileio.jsonfiles import _NOT_COMPACT, JsonInputError, _compact_loads, strict_loads

    def outcome(data: bytes) -> tuple[str, Any]:
        try:
            return "value", strict_loads(data)
        except JsonInputError as exc:
            return "refused", str(exc)

    assert outcome(text) == outcome(b" " + text)
    try:
        taken = _compact_loads(text, 64) is not _NOT_COMPACT
    except JsonInputError:
        taken = True
    assert taken == shortcut
