"""The external rules protocol, I/O-free: requests, and every reply checked field by field."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import orjson
import pytest

from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL
from arena.referee.protocol import (
    ReplyError,
    decode_board,
    decode_eliminated,
    decode_info,
    decode_node,
    decode_observation,
    decode_playout,
    decode_reply,
    joint_request,
    request,
)

INFO = {"protocol": 1, "name": "othello", "min_players": 2, "max_players": 2, "default_players": 2,
        "parameters": {"size": {"default": 8, "low": 4, "high": 16}}, "default_max_moves": 200,
        "features": ["hash", "board"]}


def node(**fields: Any) -> dict[str, Any]:
    return {"state": {"s": 1}, "actor": 0, "legal": {"0": ["a", "b"]}, "ply": 3, **fields}


def test_requests_are_one_json_line() -> None:
    line = request("apply", state={"b": [1, 2]}, move="e4")
    assert line.endswith(b"\n") and b"\n" not in line[:-1]
    assert orjson.loads(line) == {"cmd": "apply", "state": {"b": [1, 2]}, "move": "e4"}
    assert orjson.loads(joint_request("S", {2: "x", 0: "y"})) == {"cmd": "apply_joint", "state": "S",
                                                                 "moves": {"0": "y", "2": "x"}}


def test_info_is_read_into_typed_values() -> None:
    info = decode_info(INFO)
    assert (info.name, info.min_players, info.max_players, info.default_players) == ("othello", 2, 2, 2)
    assert [(p.name, p.default, p.low, p.high) for p in info.parameters] == [("size", 8, 4, 16)]
    assert info.default_max_moves == 200 and info.features == {"hash", "board"}


@pytest.mark.parametrize(("change", "words"), [
    ({"protocol": 2}, "protocol 2, but arena speaks protocol 1"),
    ({"name": "Othello!"}, "name must be"),
    ({"min_players": 1}, "min_players must be an integer from 2"),
    ({"max_players": 1}, "max_players must be an integer from 2"),
    ({"default_players": 3}, "default_players must be an integer from 2 to 2"),
    ({"parameters": {"size": {"default": 20, "low": 4, "high": 16}}}, "parameters.size: default must be"),
    ({"parameters": {"players": {"default": 2, "low": 2, "high": 2}}}, "other than 'players'"),
    ({"parameters": []}, "parameters must be an object"),
    ({"default_max_moves": 0}, "default_max_moves must be"),
    ({"features": "hash"}, "features must be a list of strings"),
])
def test_a_wrong_info_is_one_line_naming_the_field(change: dict[str, Any], words: str) -> None:
    with pytest.raises(ReplyError) as caught:
        decode_info({**INFO, **change})
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_seat_node_keeps_its_fields() -> None:
    got = decode_node(node(notation={"0": ["A", "B"]}, hash="h1", observations={"0": {"x": 1}}), 2)
    assert (got.state, got.actor, got.ply, got.hash) == ({"s": 1}, 0, 3, "h1")
    assert got.legal == {0: ("a", "b")} and got.notation == {0: ("A", "B")}
    assert got.observations == {0: {"x": 1}} and got.returns is None and got.chance == ()


def test_chance_probabilities_are_exact_fractions() -> None:
    got = decode_node({"state": 0, "actor": CHANCE, "ply": 0, "chance": [[1, "1/3"], [2, "2/3"]]}, 3)
    assert got.chance == ((1, Fraction(1, 3)), (2, Fraction(2, 3)))
    assert decode_node({"state": 0, "actor": CHANCE, "ply": 0, "chance": [["only", "1"]]}, 2).chance == (("only", 1),)


def test_terminal_and_simultaneous_nodes() -> None:
    end = decode_node({"state": 0, "actor": TERMINAL, "ply": 9, "returns": [1, -0.5, 0]}, 3)
    assert end.returns == (1.0, -0.5, 0.0)
    both = decode_node({"state": 0, "actor": SIMULTANEOUS, "ply": 1, "legal": {"0": [1], "2": [1, 2], "1": []}}, 3)
    assert both.legal == {0: (1,), 2: (1, 2)}


@pytest.mark.parametrize(("reply", "words"), [
    ({"actor": 0, "legal": {"0": ["a"]}, "ply": 0}, "no 'state'"),
    (node(actor=2), "actor must be a seat 0 to 1"),
    (node(actor=-3), "actor must be"),
    (node(actor="0"), "actor must be"),
    (node(ply=-1), "ply must be an integer"),
    (node(legal={"1": ["a"]}), "seat 0 acts but 'legal' lists no move for it"),
    (node(legal={"0": ["a"], "1": ["b"]}), "lists moves for seats [1]"),
    (node(legal={"x": ["a"]}), "not a seat"),
    (node(legal={"0": "a"}), "must be a list"),
    (node(legal={"0": ["a", "a"]}), "lists a move twice"),
    (node(notation={"0": ["A"]}), "one string per legal move"),
    (node(hash=5), "hash must be a string"),
    (node(observations={"0": [1]}), "observations[\"0\"] must be a JSON object"),
    (node(returns=[1]), "returns must be 2 finite numbers"),
    ({"state": 0, "actor": TERMINAL, "ply": 0}, "returns must be 2 finite numbers"),
    ({"state": 0, "actor": TERMINAL, "ply": 0, "returns": [True, 0]}, "returns must be 2 finite numbers"),
    ({"state": 0, "actor": TERMINAL, "ply": 0, "returns": [0, 0], "legal": {"0": ["a"]}}, "no seat acts"),
    ({"state": 0, "actor": SIMULTANEOUS, "ply": 0, "legal": {}}, "lists no move for any seat"),
    ({"state": 0, "actor": CHANCE, "ply": 0}, "a chance node needs 'chance'"),
    ({"state": 0, "actor": CHANCE, "ply": 0, "chance": [[1, "1/3"], [2, "1/3"]]}, "sum to 2/3, not 1"),
    ({"state": 0, "actor": CHANCE, "ply": 0, "chance": [[1, "0.5"], [2, "0.5"]]}, "[outcome, \"num/den\"]"),
    ({"state": 0, "actor": CHANCE, "ply": 0, "chance": [[1, "0/1"], [2, "1"]]}, "not above 0"),
    ({"state": 0, "actor": CHANCE, "ply": 0, "chance": [[1, "1/2"], [1, "1/2"]]}, "an outcome twice"),
])
def test_a_wrong_node_is_one_line_naming_what_is_wrong(reply: dict[str, Any], words: str) -> None:
    with pytest.raises(ReplyError) as caught:
        decode_node(reply, 2)
    assert words in str(caught.value), str(caught.value)
    assert "\n" not in str(caught.value)


def test_replies_that_are_not_objects_or_say_error() -> None:
    with pytest.raises(ReplyError, match="not JSON: b'hello'"):
        decode_reply(b"hello")
    with pytest.raises(ReplyError, match="not a JSON object"):
        decode_reply(b"[1, 2]")
    with pytest.raises(ReplyError, match="not JSON"):
        decode_reply(b'{"x": NaN}')
    with pytest.raises(ReplyError) as caught:
        decode_reply(b'{"error": "bad\\nstate"}')
    assert caught.value.refusal == "bad state"
    # orjson would make a float of it: refused, as every JSON arena reads (it could not write it back).
    with pytest.raises(ReplyError, match="not arena's JSON: .*64 bits"):
        decode_reply(b'{"n": 123456789012345678901234567890}')
    assert decode_reply(b'{"n": 18446744073709551615}') == {"n": 2**64 - 1}


def test_the_other_replies() -> None:
    assert decode_eliminated({"node": None}, 3) is None
    assert decode_eliminated(node(), 3) is not None
    assert decode_observation({"observation": {"hand": [1]}}) == {"hand": [1]}
    with pytest.raises(ReplyError, match="observation: must be a JSON object"):
        decode_observation({"observation": "x"})
    assert decode_board({"text": "..", "svg": "<svg/>"}) == ("..", "<svg/>")
    assert decode_board({"text": ".."}) == ("..", None)
    with pytest.raises(ReplyError, match="no 'svg'"):
        decode_board({"text": ".."}, want_svg=True)
    assert decode_playout({"returns": [[1, -1], [0, 0]]}, 2, 2) == [(1.0, -1.0), (0.0, 0.0)]
    with pytest.raises(ReplyError, match="list of 3 returns vectors"):
        decode_playout({"returns": [[1, -1]]}, 2, 3)
    with pytest.raises(ReplyError, match="playout: returns"):
        decode_playout({"returns": [[1]]}, 2, 1)
