"""A referee's failure is never a bot's loss (issue 33, item 7): the copy of the referee that
arena's MCTS agent starts for its own search failing mid-game makes the game an ``arena_error``
(ResourceError: no record, played again by a tournament), not the agent's ``crash``; a user's bot
that exits with the same status is still a crash."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.errors import AGENT_ARENA_FAILURE_EXIT, ResourceError
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.referee.registration import forget_referees, register_referee
from tests.referee.referee_support import ROOT, hostile_argv

FAST = TimeControl(time_limit_ms=30_000, time_margin_ms=200, startup_ms=10_000, move_time_limit_ms=5_000)
RANDOM = f"{sys.executable} {ROOT / 'bots' / 'legal_random.py'} --seed 2"
PROXY = ROOT / "tests" / "referees" / "failing_proxy.py"


@pytest.fixture(autouse=True)
def _no_referee_left() -> Iterator[None]:
    forget_referees()
    yield
    forget_referees()


def mcts_spec(folder: Path) -> AgentSpec:
    settings = folder / "mcts.json"
    settings.write_text(json.dumps({"algorithm": "mcts", "iterations": 30, "seed": 3}))
    return AgentSpec("mcts", kind="hyperparameters", path=str(settings))


@pytest.mark.parametrize("mode", ["crash", "garbage"])
async def test_the_mcts_agents_referee_copy_failing_mid_game_is_arenas_failure(
        breakthrough_command: list[str], tmp_path: Path, mode: str) -> None:
    # Only the copies a bot starts fail, from their 40th request: mid-game, after the agent has
    # searched with it. Arena's own copy plays on: the failure is the agent's copy's alone.
    game = register_referee([sys.executable, str(PROXY), mode, "40", *breakthrough_command]).table(2)
    for mcts_first in (True, False):
        seats = [mcts_spec(tmp_path), AgentSpec("random", command=RANDOM)]
        try:
            record = await play_game(game, *seats if mcts_first else seats[::-1], time_control=FAST, seed=1,
                                      legal_moves_for=[1 if mcts_first else 0])
        except ResourceError as exc:
            assert "(arena's own agent) stopped for arena's reasons: rules program" in str(exc), exc
        else:
            raise AssertionError(f"recorded as {record['termination']}: {record['reason']}")


async def test_a_users_bot_exiting_with_the_agents_status_is_still_a_crash(tmp_path: Path) -> None:
    game = register_referee(hostile_argv("crash", 10**6, "--no-observations")).table(2)
    quitter = AgentSpec("quitter", command=f"{sys.executable} -c 'import sys; sys.exit({AGENT_ARENA_FAILURE_EXIT})'")
    nim_random = f"{sys.executable} {ROOT / 'examples' / 'referees' / 'nim_random.py'}"
    record = await play_game(game, *[quitter, AgentSpec("random", command=nim_random)], time_control=FAST, seed=1)
    assert record["termination"] == "crash", record["reason"]
