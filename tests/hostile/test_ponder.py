"""No pondering by default: a bot and all its children are stopped while the opponent's clock runs
(and before their first turn), so an opponent cannot steal CPU; ``ponder`` restores free running.
Checked from /proc (process state and CPU ticks), never by timing a move."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from engine_support import assert_no_leftovers, processes_matching
from hostile_support import hostile_command, proc_state

from arena.games import get_game
from arena.isolation import Isolation
from arena.match import AgentSpec, GameStarted, TimeControl, play_game

TC = TimeControl(time_limit_ms=30000, startup_ms=5000)


def _watch_report(workdir: Path) -> list[list[tuple[int, str, str, int]]]:
    """The watcher bot's measurements: per turn, (pid, state before, state after, CPU ticks used)."""
    turns = []
    for block in (workdir / "watch.txt").read_text().split("--\n"):
        rows = [line.split() for line in block.splitlines() if line.strip()]
        if rows:
            turns.append([(int(r[0]), r[1], r[2], int(r[3])) for r in rows])
    return turns


@pytest.mark.parametrize("mode", ["thief", "thief_setsid", "thief_orphan"])
async def test_a_cpu_thiefs_children_are_stopped_while_the_opponent_thinks(marker: str, tmp_path: Path,
                                                                           mode: str) -> None:
    # thief_setsid: the children leave the bot's session and group; thief_orphan: also their parent
    # exits, so they are re-parented to arena. A bot is every process it started: all are stopped.
    thief = AgentSpec("thief", command=hostile_command(marker, "shobu", mode, tmp_path))
    watcher = AgentSpec("watcher", command=hostile_command(marker, "shobu", "watch", tmp_path))
    record = await play_game(get_game("shobu"), thief, watcher, time_control=TC, max_moves=4)
    assert record["termination"] == "max_moves", record["reason"]
    turns = _watch_report(tmp_path)
    assert len(turns) == 2 and all(len(turn) == 2 for turn in turns)
    for turn in turns:
        for _pid, before, after, ticks in turn:
            assert (before, after, ticks) == ("T", "T", 0)  # stopped the whole time: no CPU at all
    assert_no_leftovers(marker)


async def test_with_ponder_the_thiefs_children_run_while_the_opponent_thinks(marker: str, tmp_path: Path) -> None:
    thief = AgentSpec("thief", command=hostile_command(marker, "shobu", "thief", tmp_path))
    watcher = AgentSpec("watcher", command=hostile_command(marker, "shobu", "watch_now", tmp_path))
    record = await play_game(get_game("shobu"), thief, watcher, time_control=TC, max_moves=4,
                             isolation=Isolation(ponder=True))
    assert record["termination"] == "max_moves", record["reason"]
    turns = _watch_report(tmp_path)
    assert turns and all(after != "T" for turn in turns for _, _, after, _ in turn)
    assert sum(ticks for turn in turns for *_, ticks in turn) > 0  # busy loops got CPU in 0.3 s
    assert_no_leftovers(marker)


async def test_bots_are_stopped_until_their_first_turn(marker: str, tmp_path: Path) -> None:
    states: dict[str, str | None] = {}

    def observer(event: object) -> None:
        if isinstance(event, GameStarted):  # both started, nobody asked to move yet
            for side in ("black", "white"):
                # Started, but on a busy machine maybe not yet through exec (argv still arena's).
                deadline = time.monotonic() + 5
                pids = processes_matching(f"{marker}-{side}")
                while not pids and time.monotonic() < deadline:
                    time.sleep(0.01)
                    pids = processes_matching(f"{marker}-{side}")
                assert len(pids) == 1
                while proc_state(pids[0]) != "T" and time.monotonic() < deadline:
                    time.sleep(0.01)
                states[side] = proc_state(pids[0])

    black = AgentSpec("b", command=hostile_command(marker + "-black", "shobu", "plain", tmp_path))
    white = AgentSpec("w", command=hostile_command(marker + "-white", "shobu", "plain", tmp_path))
    record = await play_game(get_game("shobu"), black, white, time_control=TC, max_moves=2, observer=observer)
    assert record["termination"] == "max_moves", record["reason"]
    assert states == {"black": "T", "white": "T"}
    assert_no_leftovers(marker)


async def test_a_stopped_bot_that_ignores_sigterm_is_still_torn_down(marker: str, tmp_path: Path) -> None:
    # The game ends on WHITE's reply while BLACK is stopped (and ignores SIGTERM): TERM, CONT, KILL.
    black = AgentSpec("b", command=hostile_command(marker, "checkers", "ignore_signals", tmp_path))
    white = AgentSpec("w", command=hostile_command(marker, "checkers", "ignore_signals", tmp_path))
    record = await play_game(get_game("checkers"), black, white, time_control=TC, max_moves=3)
    assert record["termination"] == "max_moves" and record["plies"] == 3
    assert record["winner"] == "NONE"
    assert_no_leftovers(marker, wait=0.0)
