"""Fuzzing the readers of bot output: the framing (arena.process.bot.ReplyReader), the protocols'
decoders and the rules' move readers. Whatever a bot prints, arena gets a reply, a malformed-reply
error, an over-long-reply error or end of output — never another exception, never a hang."""

from __future__ import annotations

import itertools
import json
from typing import Any

import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.games import IllegalMoveError, MoveSyntaxError, get_game
from arena.process.bot import EndOfOutput, ReplyReader, ReplyTooLong
from arena.protocols import protocol_for
from arena.protocols.framing import Framer

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class ChunkStream(trio.abc.ReceiveStream):
    """A receive stream that hands out the given chunks (split further by max_bytes), then EOF."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = [c for c in chunks if c]

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        await trio.lowlevel.checkpoint()
        if not self.chunks:
            return b""
        chunk = self.chunks.pop(0)
        if max_bytes is not None and len(chunk) > max_bytes:
            self.chunks.insert(0, chunk[max_bytes:])
            chunk = chunk[:max_bytes]
        return chunk

    async def aclose(self) -> None:
        pass


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def read_all(data: bytes, cuts: list[int], framing: str, limit: int) -> tuple[list[bytes], str]:
    """Every framed reply until EOF or an over-long reply; the way it stopped."""
    reader = ReplyReader(ChunkStream(chunked(data, cuts)))
    replies: list[bytes] = []

    async def main() -> str:
        with trio.fail_after(10):  # a reader that waits for bytes that never come would hang here
            return await frame_all()

    async def frame_all() -> str:
        for _ in range(len(data) + 2):
            try:
                if framing == "line":
                    replies.append(await reader.read_line(limit))
                else:
                    replies.append(await reader.read_json_object(limit))
            except EndOfOutput:
                return "eof"
            except ReplyTooLong:
                return "too long"
        raise AssertionError("the reader returned more replies than there were bytes")

    how = trio.run(main)
    return replies, how


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=4), kids, max_size=3),
    max_leaves=8)


@FUZZ
@given(st.lists(st.dictionaries(st.text(max_size=5), json_values, max_size=4), max_size=5),
       st.lists(st.integers(min_value=0), max_size=12), st.booleans())
def test_json_objects_are_framed_exactly_like_the_rules_tools_splitter(
        objs: list[dict[str, Any]], cuts: list[int], pretty: bool) -> None:
    data = "".join(json.dumps(o, indent=2 if pretty else None) + "\n" for o in objs).encode()
    replies, how = read_all(data, cuts, "json_object", 1 << 20)
    assert how == "eof"
    assert [json.loads(r) for r in replies] == objs
    framer = Framer()
    framer.feed(data)
    assert [json.loads(x) for x in framer.close()] == objs


@FUZZ
@given(st.binary(max_size=400), st.lists(st.integers(min_value=0), max_size=12),
       st.sampled_from(["line", "json_object"]))
def test_arbitrary_output_is_framed_or_refused(data: bytes, cuts: list[int], framing: str) -> None:
    replies, how = read_all(data, cuts, framing, 100)
    assert how in ("eof", "too long")
    assert all(len(r) <= 100 for r in replies)


@FUZZ
@given(st.sampled_from(["shobu", "checkers"]), st.binary(max_size=300))
def test_any_reply_is_a_move_or_a_named_fault(game_name: str, raw: bytes) -> None:
    game = get_game(game_name)
    protocol = protocol_for(game_name)
    try:
        wire = protocol.decode_reply(raw)
        move = game.parse_move(wire)
        game.validate_move(game.initial_state(), move)
    except (MoveSyntaxError, IllegalMoveError) as exc:
        assert str(exc)


@FUZZ
@given(st.data())
def test_mutated_legal_replies_are_moves_or_named_faults(data: st.DataObject) -> None:
    game_name = data.draw(st.sampled_from(["shobu", "checkers"]))
    game, protocol = get_game(game_name), protocol_for(game_name)
    state = game.initial_state()
    move = data.draw(st.sampled_from(game.legal_moves(state)))
    wire = game.move_to_wire(move)
    text = json.dumps({"type": "turn", "payload": wire}) if game_name == "shobu" else wire
    raw = bytearray(text.encode())
    for _ in range(data.draw(st.integers(min_value=0, max_value=3))):
        pos = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
        raw[pos] = data.draw(st.sampled_from(b'{}[]":,0123456789- .xyabc\\\xff'))
    try:
        got = game.validate_move(state, game.parse_move(protocol.decode_reply(bytes(raw))))
    except (MoveSyntaxError, IllegalMoveError) as exc:
        assert str(exc)
    else:
        assert got in game.legal_moves(state)
