"""No pondering by default: a bot and all its children are frozen while the opponent's clock runs
(and before their first turn), so an opponent cannot steal CPU; ``ponder`` restores free running.
Checked from outside, as the kernel shows it (the bot's cgroup ``frozen 1``, CPU ticks in /proc),
never by timing a move: arena runs as root here, so every bot has its own cgroup (frozen with
``cgroup.freeze``: its processes show 'S' or 'D', not 'T') and its own PID namespace (a bot cannot
see its opponent's processes at all, so the test watches them, not the other bot)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from engine_support import assert_no_leftovers, processes_matching
from hostile_support import frozen_and_idle, hostile_command, is_frozen

from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.match.progress import GameStarted, StepPlayed
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation

TC = TimeControl(time_limit_ms=30000, startup_ms=5000)


def _busy(marker: str, count: int = 2, timeout: float = 5.0) -> list[int]:
    """The thief's busy children (they carry marker-busy), once ``count`` of them are there."""
    deadline = time.monotonic() + timeout
    while len(pids := processes_matching(marker + "-busy")) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return pids


@pytest.mark.parametrize("sandbox", [True, False], ids=["sandbox", "no-sandbox"])
@pytest.mark.parametrize("mode", ["thief", "thief_setsid", "thief_orphan"])
async def test_a_cpu_thiefs_children_are_frozen_while_the_opponent_thinks(marker: str, mode: str,
                                                                          sandbox: bool) -> None:
    # thief_setsid: the children leave the bot's session and group (the sandbox refuses it);
    # thief_orphan: also their parent exits, so they are re-parented. A bot is every process it
    # started: all are frozen with it, the moment its reply has been read.
    seen: list[list[tuple[bool, int | None]]] = []

    def observer(event: object) -> None:
        # Called in arena's loop after the thief's reply was read (and the thief frozen), before
        # the opponent's turn: arena waits while we watch, the opponent's clock not yet running.
        if isinstance(event, StepPlayed) and event.step["seat"] == 0:  # BLACK moved
            busy = _busy(marker)
            assert len(busy) == 2, busy
            seen.append(frozen_and_idle(busy))

    thief = AgentSpec("thief", command=hostile_command(marker, "shobu", mode, "-"))
    other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", "-", {"sleep_ms": 50}))
    record = await play_game(configured_game("shobu"), thief, other, time_control=TC, max_moves=4, observer=observer,
                             isolation=Isolation(sandbox=sandbox))
    assert record["termination"] == "max_moves", record["reason"]
    assert seen == [[(True, 0), (True, 0)]] * 2  # frozen the whole time: no CPU at all
    assert_no_leftovers(marker)


async def test_with_ponder_the_thiefs_children_run_while_the_opponent_thinks(marker: str) -> None:
    seen: list[list[tuple[bool, int | None]]] = []

    def observer(event: object) -> None:
        if isinstance(event, StepPlayed) and event.step["seat"] == 0:  # BLACK moved
            busy = _busy(marker)
            assert len(busy) == 2, busy
            seen.append(frozen_and_idle(busy, settle=0.0))

    thief = AgentSpec("thief", command=hostile_command(marker, "shobu", "thief", "-"))
    other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", "-"))
    record = await play_game(configured_game("shobu"), thief, other, time_control=TC, max_moves=4, observer=observer,
                             isolation=Isolation(ponder=True))
    assert record["termination"] == "max_moves", record["reason"]
    assert len(seen) == 2 and not any(frozen for turn in seen for frozen, _ in turn)
    assert sum(ticks or 0 for turn in seen for _, ticks in turn) > 0  # busy loops got CPU in 0.3 s
    assert_no_leftovers(marker)


async def test_bots_are_frozen_until_their_first_turn(marker: str) -> None:
    seen: dict[str, list[tuple[bool, int | None]]] = {}

    def observer(event: object) -> None:
        if isinstance(event, GameStarted):  # both started, nobody asked to move yet
            for side in ("black", "white"):
                # Every process of the bot: the shim it is frozen in before its first instruction,
                # or the bot itself (bubblewrap's own processes are arena's, not the bot's).
                deadline = time.monotonic() + 5
                pids = processes_matching(f"{marker}-{side}")
                while not (pids and all(is_frozen(p) for p in pids)) and time.monotonic() < deadline:
                    time.sleep(0.01)
                    pids = processes_matching(f"{marker}-{side}")
                assert pids
                seen[side] = frozen_and_idle(pids, settle=0.0)

    black = AgentSpec("b", command=hostile_command(marker + "-black", "shobu", "plain", "-"))
    white = AgentSpec("w", command=hostile_command(marker + "-white", "shobu", "plain", "-"))
    record = await play_game(configured_game("shobu"), black, white, time_control=TC, max_moves=2, observer=observer)
    assert record["termination"] == "max_moves", record["reason"]
    assert set(seen) == {"black", "white"}
    assert all(state == (True, 0) for states in seen.values() for state in states), seen
    assert_no_leftovers(marker)


async def test_a_stopped_bot_that_ignores_sigterm_is_still_torn_down(marker: str, tmp_path: Path) -> None:
    # The game ends on WHITE's reply while BLACK is frozen (and ignores SIGTERM): thaw, TERM, kill.
    black = AgentSpec("b", command=hostile_command(marker, "checkers", "ignore_signals", tmp_path))
    white = AgentSpec("w", command=hostile_command(marker, "checkers", "ignore_signals", tmp_path))
    record = await play_game(configured_game("checkers"), black, white, time_control=TC, max_moves=3)
    assert record["termination"] == "max_moves" and record["plies"] == 3
    assert record["winner"] == "NONE"
    assert_no_leftovers(marker, wait=0.0)
