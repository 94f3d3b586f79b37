"""The C Breakthrough referee (examples/referees/breakthrough-c) against arena's own Breakthrough.

Over its pipes only (tests/referees/driver.py): perft 1-4 from the start equal to arena's, and
perft 5 below a sample of first moves (the whole perft 5 is 140,000 round trips: bench/referee_ply.py
runs it),
random games identical move for move (legal lists, notation, states, winner), seeded fused
playouts with the right distribution, and one JSON line for every request, garbage included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any

import orjson
import pytest

from arena.games.base import Color
from arena.games.breakthrough.rules import BreakthroughGame, BreakthroughMove, BreakthroughState
from tests.helpers import bench_module
from tests.referees.driver import Referee, perft

GAME = BreakthroughGame()
#: Seeded random games checked move for move (the issue asks for 1,000).
GAMES = 1000


@pytest.fixture(scope="module")
def referee(breakthrough_command: list[str]) -> Iterator[Referee]:
    with Referee(breakthrough_command) as running:
        yield running


def test_info_declares_the_protocol(referee: Referee) -> None:
    info = referee.ask({"cmd": "info"})
    assert info["protocol"] == 1
    assert (info["min_players"], info["max_players"], info["default_players"]) == (2, 2, 2)
    assert info["parameters"] == {}
    assert info["default_max_moves"] == GAME.default_max_moves
    assert set(info["features"]) == {"hash", "board", "playout", "perfect_information"}


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_from_the_start_equals_arenas(referee: Referee, depth: int) -> None:
    start = referee.ask({"cmd": "new", "players": 2, "params": {}})
    assert perft(referee, start, depth) == GAME.perft(GAME.initial_state(), depth)


@pytest.mark.parametrize("first", [0, 7, 14, 21])
def test_perft_5_below_a_first_move_equals_arenas(referee: Referee, first: int) -> None:
    """One term of perft 5 from the start: perft 4 after the ``first``-th of the 22 first moves
    (the edge files and the centre; a1 = 0 order)."""
    start = referee.ask({"cmd": "new", "players": 2, "params": {}})
    move = GAME.legal_moves(GAME.initial_state())[first]
    child = referee.ask({"cmd": "apply", "state": start["state"], "move": GAME.move_to_wire(move)})
    assert perft(referee, child, 4) == GAME.perft(GAME.apply(GAME.initial_state(), move), 4)


def check_node(node: dict[str, Any], state: BreakthroughState, legal: list[BreakthroughMove]) -> None:
    """``node`` is arena's ``state`` (whose legal moves are ``legal``) exactly: the state's JSON, the
    actor, the legal moves with their notation (as sorted lists), the returns at the end, the
    observation, the ply."""
    assert node["state"] == GAME.state_to_json(state)
    assert node["ply"] == state.turn_number
    if not legal:
        outcome = GAME.outcome(state)
        assert outcome is not None and node["actor"] == -4 and node["legal"] == {}
        assert node["returns"] == ([1, -1] if outcome.winner is Color.BLACK else [-1, 1])
        return
    seat = "0" if state.turn is Color.BLACK else "1"
    assert node["actor"] == int(seat) and "returns" not in node
    # arena's notation names both squares ("b4xc5"), so it gives the wire move too.
    expected = sorted((n[:2], n[3:], n) for n in map(GAME.describe_move, legal))
    moves = node["legal"][seat]
    assert all(move.keys() == {"from", "to"} for move in moves)
    assert sorted((m["from"], m["to"], n) for m, n in zip(moves, node["notation"][seat], strict=True)) == expected
    assert node["observations"] == {seat: node["state"]}


def test_random_games_are_arenas_move_for_move(referee: Referee) -> None:
    """GAMES seeded random games, played in lockstep (one pipelined batch of applies per ply);
    every node is checked against arena's rules, and the hash is a function of the position."""
    start = referee.ask({"cmd": "new", "players": 2, "params": {}})
    games = {seed: (random.Random(seed), GAME.initial_state(), start) for seed in range(GAMES)}
    hashes: dict[tuple[int, int, Color], str] = {}
    winners = {Color.BLACK: 0, Color.WHITE: 0}
    plies = 0
    while games:
        requests, moved = [], {}
        for seed, (rng, state, node) in games.items():
            legal = GAME.legal_moves(state)
            check_node(node, state, legal)
            position = (state.black, state.white, state.turn)
            assert hashes.setdefault(position, node["hash"]) == node["hash"]
            if not legal:
                outcome = GAME.outcome(state)
                assert outcome is not None and outcome.winner is not None
                winners[outcome.winner] += 1
                continue
            move = rng.choice(legal)
            requests.append({"cmd": "apply", "state": node["state"], "move": GAME.move_to_wire(move)})
            moved[seed] = (rng, GAME.apply(state, move))
        replies = referee.many(requests)
        plies += len(replies)
        games = {seed: (rng, state, reply) for (seed, (rng, state)), reply in zip(moved.items(), replies, strict=True)}
    assert sum(winners.values()) == GAMES and min(winners.values()) > 0
    assert len(set(hashes.values())) == len(hashes), "two positions share a hash"
    assert plies > 20 * GAMES


def test_node_reads_a_state_back(referee: Referee) -> None:
    start = referee.ask({"cmd": "new", "players": 2, "params": {}})
    after = referee.ask({"cmd": "apply", "state": start["state"], "move": {"from": "d2", "to": "e3"}})
    assert referee.ask({"cmd": "node", "state": after["state"]}) == after
    assert after["actor"] == 1 and after["ply"] == 1


@pytest.mark.parametrize("seat", [0, 1])
def test_observation_is_the_whole_state_and_board_is_arenas_text(referee: Referee, seat: int) -> None:
    state = GAME.apply(GAME.initial_state(), GAME.legal_moves(GAME.initial_state())[5])
    as_json = GAME.state_to_json(state)
    assert referee.ask({"cmd": "observation", "state": as_json, "seat": seat}) == {"observation": as_json}
    assert referee.ask({"cmd": "board", "state": as_json, "seat": seat}) == {"text": GAME.board_text(state)}
    assert referee.ask({"cmd": "board", "state": as_json, "seat": None}) == {"text": GAME.board_text(state)}


def endgame() -> BreakthroughState:
    """Black b4 c5, White b7 g5, Black to move: small enough to solve exactly, yet undecided."""
    return GAME.state_from_json({"board": ["........", ".w......", "........", "..b...w.", ".b......",
                                           "........", "........", "........"], "turn": "BLACK", "turnNumber": 30})


@cache
def black_wins(state: BreakthroughState) -> Fraction:
    """The exact chance that Black wins from ``state`` when both sides play uniformly at random."""
    legal = GAME.legal_moves(state)
    if not legal:
        outcome = GAME.outcome(state)
        assert outcome is not None
        return Fraction(int(outcome.winner is Color.BLACK))
    return sum((black_wins(GAME.apply(state, move)) for move in legal), Fraction()) / len(legal)


def test_playouts_are_seeded_and_uniformly_random(referee: Referee) -> None:
    state = GAME.state_to_json(endgame())
    count = 20_000
    first = referee.ask({"cmd": "playout", "state": state, "seed": 7, "count": count})["returns"]
    assert referee.ask({"cmd": "playout", "state": state, "seed": 7, "count": count})["returns"] == first
    assert referee.ask({"cmd": "playout", "state": state, "seed": 8, "count": count})["returns"] != first
    assert set(map(tuple, first)) == {(1, -1), (-1, 1)}
    exact = float(black_wins(endgame()))
    assert 0.1 < exact < 0.9
    observed = sum(r == [1, -1] for r in first) / count
    sigma = (exact * (1 - exact) / count) ** 0.5
    assert abs(observed - exact) < 5 * sigma, (observed, exact)
    assert referee.ask({"cmd": "playout", "state": state, "seed": 1, "count": 0}) == {"returns": []}


def test_a_playout_from_the_end_returns_the_result(referee: Referee) -> None:
    over = {"board": ["...b....", "........", "........", "........", "........", "........", "w.......",
                      "........"], "turn": "WHITE", "turnNumber": 41}
    assert referee.ask({"cmd": "node", "state": over})["returns"] == [1, -1]
    assert referee.ask({"cmd": "playout", "state": over, "seed": 3, "count": 3}) == {"returns": [[1, -1]] * 3}


START = GAME.state_to_json(GAME.initial_state())
BAD_REQUESTS = [
    b"garbage", b"{", b"[]", b'"info"', b"{}", b'{"cmd": 3}', b'{"cmd": "perft"}', b'{"cmd": "info"} {}',
    b'{"cmd": "new", "players": 3}', b'{"cmd": "new", "params": {"size": 6}}',
    b'{"cmd": "node", "state": null}', b'{"cmd": "node"}',
    b'{"cmd": "node", "state": {"board": [], "turn": "BLACK", "turnNumber": 0}}',
    orjson.dumps({"cmd": "node", "state": {**START, "turn": "RED"}}),
    orjson.dumps({"cmd": "node", "state": {**START, "turnNumber": -1}}),
    orjson.dumps({"cmd": "node", "state": {**START, "turnNumber": 1.5}}),
    orjson.dumps({"cmd": "node", "state": {**START, "extra": 1}}),
    orjson.dumps({"cmd": "node", "state": {**START, "board": ["bbbbbbbb"] * 8}}),
    orjson.dumps({"cmd": "apply", "state": START, "move": {"from": "a2", "to": "a4"}}),
    orjson.dumps({"cmd": "apply", "state": START, "move": "a2-a3"}),
    orjson.dumps({"cmd": "apply", "state": START, "move": {"from": "A2", "to": "a3"}}),
    orjson.dumps({"cmd": "observation", "state": START, "seat": 2}),
    orjson.dumps({"cmd": "playout", "state": START, "seed": "x", "count": 1}),
    orjson.dumps({"cmd": "playout", "state": START, "seed": 1, "count": -1}),
    b'{"cmd": "\\ud800"}', b'{"cmd": "\xff\xfe"}', b'{"cmd": "a\x00b"}', b"[" * 10_000, b"1e999",
    b'{"cmd": "' + b"x" * 2_000_000 + b'"}',
]


@pytest.mark.parametrize("raw", BAD_REQUESTS, ids=[repr(r[:40]) for r in BAD_REQUESTS])
def test_a_bad_request_gets_one_error_line_and_the_referee_goes_on(referee: Referee, raw: bytes) -> None:
    referee.answers_with_an_error(raw)


def test_unicode_escapes_and_spacing_are_read(referee: Referee) -> None:
    reply = referee.ask({"cmd": "info"})
    referee.send_raw(b' \t{ "cmd" : "\\u0069nfo" , "extra": [1, -2.5e3, true, false, null, "\\ud83d\\ude00"] }\r\n')
    assert referee.read_reply() == reply


def test_the_ply_benchmark_measures_one_round_trip_a_ply(breakthrough_command: list[str]) -> None:
    figures = bench_module("referee_ply").measure(breakthrough_command, games=3, playouts=5)
    assert figures["round_trips_per_ply"] == 1.0 and figures["plies"] > 3 * 20 and figures["playouts"] == 5
    assert figures["referee_us_per_ply"] > 0 and figures["inprocess_us_per_ply"] > 0
