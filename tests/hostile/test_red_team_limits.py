"""Issue 18, item 4 and the new verdicts: resources a bot takes are its own (memory, tasks, scratch
space, /dev/shm), charged to it and bounded per bot; its faults are verdicts a judge would give
(``memory_limit``, ``output_limit``); records carry each side's CPU time.

Every attack runs inside a bound of the test's own (a memory or pids cgroup, a small tmpfs:
:mod:`hostile_support`), so that on code without the per-bot limits it cannot hurt the machine.
Each test failed on the code before the fixes of issue 18 (``REDTEAM_BEFORE`` in bench/redteam.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import red_team
from hostile_support import cgroups_usable

from arena.process.isolation import sandbox_available

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="issue 18's guarantees are for arena running as root"),
    pytest.mark.timeout(180),
]

ISOLATION = [pytest.param([], id="default"), pytest.param(["--no-sandbox"], id="no-sandbox")]

needs_cgroups = pytest.mark.skipif(cgroups_usable() is not None, reason=str(cgroups_usable()))
needs_sandbox = pytest.mark.skipif(sandbox_available() is not None, reason=str(sandbox_available()))


def _records_ok(measured: red_team.Measured, games: int) -> None:
    run = measured.run
    assert run is not None
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(run.records) == games, run.stderr[-2000:]


@needs_cgroups
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_memory_hog_loses_by_memory_limit_and_its_opponent_lives(marker: str, public_dir: Path,
                                                                    flags: list[str]) -> None:
    # 12 x 100 MiB in child processes, each smaller than the honest bot's 150 MiB: without a limit per
    # bot, the OOM killer of the test's 900 MiB bound picks the honest bot.
    measured = red_team.memory_hog(marker, public_dir, [*flags, "--memory-mb", "256"], games=2, bound_mb=900,
                                   hog_procs=12, hog_mb=100, fat_mb=150)
    _records_ok(measured, 2)
    assert measured.numbers["victims"] == 0, measured.figure
    assert measured.numbers["memory_limit"] == 2, measured.figure


@needs_cgroups
@pytest.mark.parametrize("kind", ["procs", "threads"])
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_fork_bomb_does_not_keep_the_next_games_bots_from_starting(marker: str, public_dir: Path, flags: list[str],
                                                                      kind: str) -> None:
    # The bomb's detached helper grabs every task it can (processes, or threads in one process) for
    # 10 s; the test's pids cgroup of 400 tasks stands for the machine's limit.
    measured = red_team.fork_bomb(marker, public_dir, [*flags, "--max-processes", "64"], kind=kind, games=4,
                                  bound_tasks=400, hold=10.0)
    _records_ok(measured, 4)
    assert measured.numbers["crashed"] == 0, measured.figure


@needs_sandbox
def test_a_disk_filler_fills_only_its_own_scratch(marker: str, public_dir: Path) -> None:
    # The tournament's logs and arena's TMPDIR are on a 64 MiB tmpfs; the filler writes into its
    # TMPDIR up to 256 MiB: it must hit its own 16 MiB bound, and the run go on.
    measured = red_team.disk_filler(marker, public_dir, [], disk_mb=64, fill_mb=256, config={"scratchMb": 16})
    _records_ok(measured, 4)
    assert 0 < measured.numbers["written_mb"] <= 16, measured.figure
    assert measured.numbers["left_mb"] == 0, measured.figure


@needs_sandbox
def test_dev_shm_is_private_and_bounded(marker: str, public_dir: Path) -> None:
    measured = red_team.dev_shm(marker, public_dir, ["--scratch-mb", "32"], mb=200)
    _records_ok(measured, 1)
    assert 0 < measured.numbers["written_mb"] <= 32, measured.figure
    assert measured.numbers["left_mb"] == 0, measured.figure


@pytest.mark.parametrize("flags", ISOLATION)
def test_flooding_stdout_is_an_output_limit(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.stdout_flood(marker, public_dir, flags, games=2)
    _records_ok(measured, 2)
    assert measured.numbers["output_limit"] == 2, measured.figure


@pytest.mark.parametrize("flags", ISOLATION)
def test_records_carry_each_sides_cpu_time(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.cpu_time(marker, public_dir, flags, cpu_ms=50, max_moves=10)
    _records_ok(measured, 1)
    worker, idle, needed = (measured.numbers[k] for k in ("worker", "idle", "needed"))
    assert worker is not None and idle is not None, measured.figure
    assert worker >= 0.9 * needed, measured.figure  # 5 moves x 50 ms, start-up on top
    assert 0 <= idle < worker - 0.5 * needed, measured.figure
