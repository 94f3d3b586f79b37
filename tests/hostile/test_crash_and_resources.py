"""A bot that exits while a child holds its stdout is a crash, not a timeout; arena's own failures
(out of file descriptors, a log it cannot write) stop with ResourceError, never a bot's loss."""

from __future__ import annotations

import errno
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from engine_support import assert_no_leftovers
from hostile_support import hostile_command

from arena.errors import ResourceError
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process.bot import StderrSink
from arena.process.spawn import resource_error

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ponder", [False, True])
async def test_exit_with_stdout_held_by_a_child_is_a_crash(marker: str, tmp_path: Path, ponder: bool) -> None:
    from arena.process.isolation import Isolation

    # A budget of minutes: without the fix the game would wait it out and record a timeout.
    tc = TimeControl(time_limit_ms=300_000, startup_ms=5000)
    crasher = AgentSpec("crasher", command=hostile_command(marker, "checkers", "crash_holding_stdout", tmp_path))
    other = AgentSpec("other", command=hostile_command(marker, "checkers", "plain", tmp_path))
    record = await play_game(configured_game("checkers"), crasher, other, time_control=tc, max_moves=20,
                             isolation=Isolation(ponder=ponder))
    assert record["termination"] == "crash", record["reason"]
    assert record["winner"] == "WHITE"
    assert "BLACK bot 'crasher' exited with code 5 before replying" in record["reason"]
    assert_no_leftovers(marker)  # the child holding stdout was in the bot's group


def test_resource_errors_name_the_cause_and_what_to_do() -> None:
    error = resource_error(OSError(errno.EMFILE, "Too many open files"), "starting the BLACK bot 'x'")
    assert str(error) == ("too many open files (EMFILE) while starting the BLACK bot 'x'; "
                          "raise `ulimit -n` or lower concurrency")
    assert resource_error(OSError(errno.ENOENT, "No such file"), "starting it") is None
    assert resource_error(OSError(errno.EACCES, "Permission denied"), "starting it") is None


RLIMIT_SCRIPT = textwrap.dedent('''
    import os, resource, sys, trio
    from arena.errors import ResourceError
    from arena.games.registry import configured_game
    from arena.process.isolation import sandbox_available
    from arena.match.clock import TimeControl
    from arena.match.game import play_game
    from arena.players.spec import AgentSpec

    async def main():
        bot = AgentSpec("x", command=sys.argv[1])
        sandbox_available()  # answered (and cached) before the shortage: this test is about starting a bot
        open_now = len(os.listdir("/proc/self/fd"))
        # Room for a few descriptors only: not enough for a bot's three pipes.
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_now + 3, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
        try:
            record = await play_game(configured_game("shobu"), bot, bot, time_control=TimeControl(), max_moves=2)
        except ResourceError as exc:
            print("ResourceError:", exc)
            return
        print("RECORDED:", record["termination"], record["reason"])

    trio.run(main)
''')


def test_out_of_file_descriptors_is_arenas_failure_not_a_crash(marker: str) -> None:
    done = subprocess.run([sys.executable, "-c", RLIMIT_SCRIPT, f"python3 -c pass {marker}"], capture_output=True,
                          text=True, check=False, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout.strip()
    assert out.startswith("ResourceError: too many open files (EMFILE) while "), out
    assert "BLACK bot 'x'" in out and out.endswith("raise `ulimit -n` or lower concurrency"), out
    assert_no_leftovers(marker)


def test_a_stderr_log_that_cannot_be_written_is_arenas_failure(tmp_path: Path) -> None:
    sink = StderrSink(tmp_path / "x.log", who="the WHITE bot 'y'")
    assert sink._file is not None
    sink._file.close()
    # Handed to the sink, which closes it; every write fails with ENOSPC.
    sink._file = open("/dev/full", "wb", buffering=0)  # noqa: SIM115
    sink.write(b"some stderr\n")
    sink.write(b"more, still drained\n")
    sink.close()
    assert isinstance(sink.failure, ResourceError)
    assert str(sink.failure) == ("no space left on device (ENOSPC) while writing the stderr log of "
                                 "the WHITE bot 'y'; free some disk space")
    assert sink.total == len(b"some stderr\nmore, still drained\n")


async def test_a_stderr_log_folder_that_cannot_be_made_is_arenas_failure(marker: str, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    bot = AgentSpec("x", command=hostile_command(marker, "shobu", "plain", tmp_path))
    with pytest.raises(ResourceError, match="while opening the stderr log of the BLACK bot 'x'"):
        await play_game(configured_game("shobu"), bot, bot, time_control=TimeControl(), max_moves=2,
                        stderr_dir=blocker / "stderr")
    assert_no_leftovers(marker)
