"""RankedResult from two-player games and from N-seat games.jsonl rows."""

from __future__ import annotations

import pytest

from arena.stats.ratings import GameResult
from arena.stats.results import RankedResult, ranked_from_game, ranked_from_row


@pytest.mark.parametrize(("score", "ranks"), [(1.0, (1, 2)), (0.0, (2, 1)), (0.5, (1, 1))])
def test_two_player_games_map_to_black_and_white_seats(score: float, ranks: tuple[int, int]) -> None:
    game = GameResult(4, "b", "w", score, termination="win" if score != 0.5 else "draw", pair=2)
    assert ranked_from_game(game) == RankedResult(4, ("b", "w"), ranks, termination=game.termination, group=2)


def test_a_fault_is_the_losers() -> None:
    assert ranked_from_game(GameResult(0, "b", "w", 1.0, termination="timeout")).faults == ((1, "timeout"),)
    assert ranked_from_game(GameResult(0, "b", "w", 0.0, termination="crash")).faults == ((0, "crash"),)
    assert ranked_from_game(GameResult(0, "b", "w", 0.5, termination="timeout")).faults == ()


ROW = {"index": 7, "group": 2, "seats": ["x", "y", "z"], "players": [{"id": "x", "seat": 0}],
       "ranks": [2, 1, 2], "returns": [-1, 2, -1.0], "termination": "crash", "reason": "",
       "eliminations": [{"seat": 2, "termination": "crash"}], "plies": 9, "record": "games/00007.json"}


def test_a_row_reads_into_a_ranked_result() -> None:
    assert ranked_from_row(ROW) == RankedResult(7, ("x", "y", "z"), (2, 1, 2), (-1.0, 2.0, -1.0), "crash", 2,
                                                ((2, "crash"),))
    bare = ranked_from_row({"index": 0, "seats": ["x", "y"], "ranks": [1, 1]})
    assert (bare.returns, bare.group, bare.termination, bare.faults) == (None, None, "win", ())


@pytest.mark.parametrize(("change", "message"), [
    ({"seats": ["x", "x", "z"]}, "different"),
    ({"seats": ["x"], "ranks": [1]}, "at least two"),
    ({"seats": ["x", 3, "z"]}, "agent ids"),
    ({"ranks": [1, 2]}, "3 positive integers"),
    ({"ranks": [0, 1, 2]}, "3 positive integers"),
    ({"ranks": [1, True, 2]}, "3 positive integers"),
    ({"ranks": [1, 2.0, 3]}, "3 positive integers"),
    ({"returns": [1, 2]}, "3 numbers"),
    ({"returns": [1, "2", 3]}, "3 numbers"),
    ({"index": True}, "index"),
    ({"index": -1}, "index"),
])
def test_a_bad_row_is_one_line(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        ranked_from_row({**ROW, **change})
    assert "\n" not in str(caught.value)


def test_a_row_that_is_not_an_object() -> None:
    with pytest.raises(ValueError, match="JSON object"):
        ranked_from_row([1, 2])  # type: ignore[arg-type]
