"""The Java Othello referee (examples/referees/othello-java), over its pipes only.

perft 1-7 from the standard start against the published figures; random games on 8 x 8 and 6 x 6
move for move against a plain reference written here (:class:`Reference`: slow and obvious, sharing
no code with the referee); forced passes and the end; seeded playouts with the exact win chance of a
small position; text and SVG boards; one JSON line for every request, garbage included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any
from xml.etree import ElementTree

import orjson
import pytest

from tests.referees.driver import Referee, perft

#: Othello perft from the standard start, depths 1-7 (published; a forced pass counts as a move).
PERFT = [4, 12, 56, 244, 1396, 8200, 55092]
LINES = [(dr, df) for dr in (-1, 0, 1) for df in (-1, 0, 1) if (dr, df) != (0, 0)]


class Reference:
    """Othello by the book on the referee's state JSON (rows of "b"/"w"/".", row 1 first)."""

    @staticmethod
    def flips(board: tuple[str, ...], row: int, col: int, me: str) -> list[tuple[int, int]]:
        n, them = len(board), "w" if me == "b" else "b"
        flipped: list[tuple[int, int]] = []
        for dr, df in LINES:
            run, r, f = [], row + dr, col + df
            while 0 <= r < n and 0 <= f < n and board[r][f] == them:
                run.append((r, f))
                r, f = r + dr, f + df
            if run and 0 <= r < n and 0 <= f < n and board[r][f] == me:
                flipped += run
        return flipped

    @classmethod
    def placements(cls, board: tuple[str, ...], me: str) -> list[str]:
        n = len(board)
        return [f"{'abcdefghijklmnop'[c]}{r + 1}" for r in range(n) for c in range(n)
                if board[r][c] == "." and cls.flips(board, r, c, me)]

    @classmethod
    def legal(cls, board: tuple[str, ...], turn: str) -> list[str]:
        me, them = ("b", "w") if turn == "black" else ("w", "b")
        moves = cls.placements(board, me)
        return moves or (["pass"] if cls.placements(board, them) else [])

    @classmethod
    def apply(cls, board: tuple[str, ...], turn: str, move: str) -> tuple[tuple[str, ...], str]:
        me, other = ("b", "white") if turn == "black" else ("w", "black")
        if move == "pass":
            return board, other
        col, row = "abcdefghijklmnop".index(move[0]), int(move[1:]) - 1
        rows = [list(line) for line in board]
        for r, f in [(row, col), *cls.flips(board, row, col, me)]:
            rows[r][f] = me
        return tuple("".join(line) for line in rows), other

    @staticmethod
    def returns(board: tuple[str, ...]) -> list[int]:
        text = "".join(board)
        black = (text.count("b") > text.count("w")) - (text.count("b") < text.count("w"))
        return [black, -black]


@pytest.fixture(scope="module")
def referee(othello_command: list[str]) -> Iterator[Referee]:
    with Referee(othello_command) as running:
        yield running


def new(referee: Referee, size: int | None = None) -> dict[str, Any]:
    return referee.ask({"cmd": "new", "players": 2, "params": {} if size is None else {"size": size}})


def test_info_declares_the_protocol_and_the_size_parameter(referee: Referee) -> None:
    info = referee.ask({"cmd": "info"})
    assert (info["protocol"], info["name"], info["min_players"], info["max_players"]) == (1, "othello", 2, 2)
    assert info["parameters"] == {"size": {"default": 8, "low": 4, "high": 16}}
    assert set(info["features"]) == {"hash", "board", "svg", "playout", "perfect_information"}


def test_the_start(referee: Referee) -> None:
    start = new(referee)
    assert start["state"] == {"board": ["........", "........", "........", "...wb...", "...bw...", "........",
                                        "........", "........"], "turn": "black", "ply": 0}
    assert (start["actor"], start["legal"], start["notation"]) == (0, {"0": ["d3", "c4", "f5", "e6"]},
                                                                    {"0": ["d3", "c4", "f5", "e6"]})
    assert start["observations"] == {"0": start["state"]}


@pytest.mark.parametrize("depth", range(1, 8))
def test_perft_from_the_start(referee: Referee, depth: int) -> None:
    assert perft(referee, new(referee), depth) == PERFT[depth - 1]


@pytest.mark.parametrize(("size", "games"), [(8, 150), (6, 150), (4, 100)])
def test_random_games_follow_the_reference(referee: Referee, size: int, games: int) -> None:
    """Seeded random games in lockstep (one pipelined batch per ply): every node's state, legal
    moves (sorted) and result agree with :class:`Reference`; passes and draws both occur."""
    start = new(referee, size)
    live = {seed: (random.Random(seed), start) for seed in range(games)}
    seen_pass = results = 0
    draws = 0
    while live:
        requests, moving = [], []
        for seed, (rng, node) in live.items():
            state = node["state"]
            board, turn = tuple(state["board"]), state["turn"]
            legal = Reference.legal(board, turn)
            if not legal:
                assert node["actor"] == -4 and node["legal"] == {}
                assert node["returns"] == Reference.returns(board)
                results += 1
                draws += node["returns"] == [0, 0]
                continue
            seat = "0" if turn == "black" else "1"
            assert node["actor"] == int(seat)
            assert sorted(node["legal"][seat]) == sorted(legal)
            move = rng.choice(legal)
            seen_pass += move == "pass"
            following, other = Reference.apply(board, turn, move)
            requests.append({"cmd": "apply", "state": state, "move": move})
            moving.append((seed, rng, {"board": list(following), "turn": other, "ply": state["ply"] + 1}))
        replies = referee.many(requests)
        live = {}
        for (seed, rng, expected), reply in zip(moving, replies, strict=True):
            assert reply["state"] == expected
            live[seed] = (rng, reply)
    assert results == games and seen_pass > 0
    if size == 4:
        assert draws > 0


PASSING: dict[str, Any] = {"board": ["wwww", "wwww", "wwb.", "...."], "turn": "black", "ply": 9}


def test_a_forced_pass_and_the_end(referee: Referee) -> None:
    """Black has no placement but White has: Black's one move is "pass"; when neither side can
    move the game is over and the discs decide (a full board of one colour here)."""
    assert Reference.legal(tuple(PASSING["board"]), "black") == ["pass"]
    node = referee.ask({"cmd": "node", "state": PASSING})
    assert (node["actor"], node["legal"]) == (0, {"0": ["pass"]})
    after = referee.ask({"cmd": "apply", "state": PASSING, "move": "pass"})
    assert after["state"] == {**PASSING, "turn": "white", "ply": 10} and after["actor"] == 1
    over = {"board": ["wwww", "wwww", "wwww", "...."], "turn": "black", "ply": 12}
    assert referee.ask({"cmd": "node", "state": over})["returns"] == [-1, 1]
    drawn = {"board": ["bbbb", "bbbb", "wwww", "wwww"], "turn": "white", "ply": 12}
    end = referee.ask({"cmd": "node", "state": drawn})
    assert (end["actor"], end["legal"], end["returns"]) == (-4, {}, [0, 0])
    assert referee.ask({"cmd": "playout", "state": drawn, "seed": 5, "count": 2}) == {"returns": [[0, 0]] * 2}


SMALL = ("b.w.", "bbw.", "wbbw", "....")


@cache
def black_wins(board: tuple[str, ...], turn: str) -> Fraction:
    """The exact chance that Black wins from the position when both sides play uniformly at random."""
    legal = Reference.legal(board, turn)
    if not legal:
        return Fraction(int(Reference.returns(board)[0] == 1))
    return sum((black_wins(*Reference.apply(board, turn, m)) for m in legal), Fraction()) / len(legal)


def test_playouts_are_seeded_and_uniformly_random(referee: Referee) -> None:
    state = {"board": list(SMALL), "turn": "white", "ply": 6}
    count = 20_000
    first = referee.ask({"cmd": "playout", "state": state, "seed": 11, "count": count})["returns"]
    assert referee.ask({"cmd": "playout", "state": state, "seed": 11, "count": count})["returns"] == first
    assert referee.ask({"cmd": "playout", "state": state, "seed": 12, "count": count})["returns"] != first
    exact = float(black_wins(SMALL, "white"))
    assert 0.1 < exact < 0.9
    observed = sum(r == [1, -1] for r in first) / count
    assert abs(observed - exact) < 5 * (exact * (1 - exact) / count) ** 0.5, (observed, exact)


def test_sizes_hashes_and_reading_back(referee: Referee) -> None:
    six = new(referee, 6)
    assert six["state"]["board"] == ["......", "......", "..wb..", "..bw..", "......", "......"]
    assert referee.ask({"cmd": "node", "state": six["state"]}) == six
    a = referee.ask({"cmd": "apply", "state": six["state"], "move": six["legal"]["0"][0]})
    b = referee.ask({"cmd": "apply", "state": six["state"], "move": six["legal"]["0"][1]})
    assert a["hash"] != b["hash"] and a["hash"] != six["hash"]
    assert referee.ask({"cmd": "node", "state": {**a["state"], "ply": 40}})["hash"] == a["hash"]


@pytest.mark.parametrize("seat", [0, 1, None])
def test_board_text_and_svg(referee: Referee, seat: int | None) -> None:
    board = referee.ask({"cmd": "board", "state": new(referee)["state"], "seat": seat})
    assert board["text"].splitlines()[4] == " 4 . . . w b . . . 4"
    picture = ElementTree.fromstring(board["svg"])
    circles = [e for e in picture.iter() if e.tag.endswith("circle")]
    assert sorted(str(c.get("class")) for c in circles) == ["black", "black", "white", "white"]
    if seat is not None:
        observed = referee.ask({"cmd": "observation", "state": new(referee)["state"], "seat": seat})
        assert observed == {"observation": new(referee)["state"]}


START = {"board": ["........", "........", "........", "...wb...", "...bw...", "........", "........",
                   "........"], "turn": "black", "ply": 0}
BAD_REQUESTS = [
    b"garbage", b"{", b"[]", b'"info"', b"{}", b'{"cmd": 3}', b'{"cmd": "perft"}', b'{"cmd": "info"} {}',
    b'{"cmd": "new", "players": 3}', b'{"cmd": "new", "params": {"size": 5}}',
    b'{"cmd": "new", "params": {"size": 18}}', b'{"cmd": "new", "params": {"colour": 1}}',
    b'{"cmd": "node", "state": null}', b'{"cmd": "node"}',
    orjson.dumps({"cmd": "node", "state": {**START, "turn": "BLACK"}}),
    orjson.dumps({"cmd": "node", "state": {**START, "ply": -1}}),
    orjson.dumps({"cmd": "node", "state": {**START, "ply": 0.5}}),
    orjson.dumps({"cmd": "node", "state": {**START, "extra": 1}}),
    orjson.dumps({"cmd": "node", "state": {**START, "board": ["xxxxxxxx"] * 8}}),
    orjson.dumps({"cmd": "node", "state": {**START, "board": ["....."] * 5}}),
    orjson.dumps({"cmd": "apply", "state": START, "move": "a1"}),
    orjson.dumps({"cmd": "apply", "state": START, "move": "pass"}),
    orjson.dumps({"cmd": "apply", "state": START, "move": "z9"}),
    orjson.dumps({"cmd": "apply", "state": START, "move": "d03"}),
    orjson.dumps({"cmd": "apply", "state": START, "move": 19}),
    orjson.dumps({"cmd": "observation", "state": START, "seat": 2}),
    orjson.dumps({"cmd": "playout", "state": START, "seed": 1.5, "count": 1}),
    orjson.dumps({"cmd": "playout", "state": START, "seed": 1, "count": 10_000_000}),
    b'{"cmd": "\\ud800"}', b'{"cmd": "\xff\xfe"}', b"[" * 10_000, b"1e999",
    b'{"cmd": "' + b"x" * 2_000_000 + b'"}',
]


@pytest.mark.parametrize("raw", BAD_REQUESTS, ids=[repr(r[:40]) for r in BAD_REQUESTS])
def test_a_bad_request_gets_one_error_line_and_the_referee_goes_on(referee: Referee, raw: bytes) -> None:
    referee.answers_with_an_error(raw)
