"""The one framer (arena.protocols.framing): pure, so the chunking of its input never matters."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.protocols.framing import HEAD_BYTES, NEED_DATA, Framer, Junk, NeedData, TooLong

# Bytes rich in what the matcher looks at, so braces, strings and escapes meet chunk edges often.
stream_bytes = st.lists(st.sampled_from([b"{", b"}", b'"', b"\\", b"\n", b" ", b"\t", b"\r", b"a", b"1", b":",
                                         b'{"k": "v"}', b'{"s": "}{\\"\\\\"}\n', b"[1]", b"\xff"]),
                        max_size=120).map(b"".join)
cut_points = st.lists(st.integers(min_value=0), max_size=20)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def stream_items(chunks: list[bytes], limit: int) -> list[bytes | Junk]:
    framer = Framer(limit)
    items: list[bytes | Junk] = []
    for chunk in chunks:
        framer.feed(chunk)
        items += framer.items()
    return items + framer.close()


def replies(chunks: list[bytes], framing: str, limit: int) -> tuple[list[bytes], bytes | TooLong]:
    """Every reply a reader would take from ``chunks`` (fed one at a time, as a reader feeds what
    it reads), until an over-long reply or the end; then the TooLong or the bytes left."""
    framer = Framer()
    take = framer.next_line if framing == "line" else framer.next_json_object
    frames: list[bytes] = []
    for chunk in [*chunks, b""]:
        framer.feed(chunk)
        while not isinstance(frame := take(limit), NeedData):
            if isinstance(frame, TooLong):
                return frames, TooLong(frame.limit, frame.head[: min(HEAD_BYTES, limit + 1)])
            frames.append(frame)
    return frames, framer.pending()


@settings(max_examples=300, deadline=None)
@given(stream_bytes, cut_points, st.integers(min_value=1, max_value=60))
def test_stream_items_do_not_depend_on_the_chunking(data: bytes, cuts: list[int], limit: int) -> None:
    assert stream_items(chunked(data, cuts), limit) == stream_items([data], limit)


@settings(max_examples=300, deadline=None)
@given(stream_bytes, cut_points, st.sampled_from(["line", "json_object"]), st.integers(min_value=1, max_value=60))
def test_replies_do_not_depend_on_the_chunking(data: bytes, cuts: list[int], framing: str, limit: int) -> None:
    assert replies(chunked(data, cuts), framing, limit) == replies([data], framing, limit)


def test_a_frame_or_need_data() -> None:
    framer = Framer()
    framer.feed(b'  {"a": "}"')
    assert framer.next_json_object() is NEED_DATA
    assert framer.pending() == b'{"a": "}"'  # blanks before an object are dropped
    framer.feed(b'}\nnot json\n{"b"')
    assert framer.next_json_object() == b'{"a": "}"}'
    assert framer.next_json_object() == b"not json"
    assert framer.next_json_object() is NEED_DATA
    framer.feed(b": 1}" + b"x" * 50)
    assert framer.next_json_object() == b'{"b": 1}'
    assert framer.next_line(10) == TooLong(10, b"x" * 50)
    assert framer.pending() == b""


def test_stream_junk_and_the_bound() -> None:
    framer = Framer(10)
    framer.feed(b'hello\n{"x": "' + b"y" * 40 + b'"} {"ok": 1}\n{"cut')
    assert framer.items() == [Junk(b"hello", "not a JSON object"),
                              Junk(b"", "object over the size limit of 10 bytes"), b'{"ok": 1}']
    assert framer.close() == [Junk(b'{"cut', "truncated JSON object at end of input")]
