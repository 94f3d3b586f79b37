"""The N-seat engine and a failing referee: the failure is arena's (RefereeError, no record), never
a seat's fault, also at a simultaneous node (where every acting seat is asked at once)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from referee_support import ROOT, hostile_argv

from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.referee.client import RefereeError
from arena.referee.registration import register_referee

FAST = TimeControl(time_limit_ms=20_000, time_margin_ms=200, startup_ms=5_000, move_time_limit_ms=3_000)
RANDOM = f"{sys.executable} {ROOT / 'examples' / 'referees' / 'nim_random.py'}"


def seats(n: int) -> list[AgentSpec]:
    return [AgentSpec(f"r{i}", command=RANDOM) for i in range(n)]


async def test_a_referee_failing_at_a_simultaneous_node_is_not_an_exception_group() -> None:
    # Requests: 1 info, 2 new (the count-off: every seat acts at once), 3 the first seat's observation.
    game = register_referee(hostile_argv("error", 3, "--no-observations")).table(3, {"opening": 1})
    with pytest.raises(RefereeError, match="observation: the referee answered an error: deliberate refusal"):
        await play_game(game, *seats(3), time_control=FAST, seed=1)


async def test_a_referee_crashing_mid_game_raises_for_arena_not_for_a_seat(tmp_path: Path) -> None:
    flag = tmp_path / "crash"
    flag.touch()
    game = register_referee(hostile_argv("crash", 6, "--while", str(flag))).table(2)
    with pytest.raises(RefereeError, match="exited with status 3 during apply"):
        await play_game(game, *seats(2), time_control=FAST, seed=1)
    flag.unlink()  # the next game starts a new referee process, and is played to its end
    record = await play_game(game, *seats(2), time_control=FAST, seed=1)
    assert record["termination"] == "win" and game.client.starts == 2
