"""Graceful-then-hard signal handling: SIGINT, SIGTERM and SIGHUP alike; which one is reported."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
import trio

from arena.process.signals import HANGUP_EXIT_CODE, INTERRUPTED_EXIT_CODE, exit_code_for, interruptible


def test_exit_codes() -> None:
    assert exit_code_for(signal.SIGHUP) == HANGUP_EXIT_CODE == 129
    assert exit_code_for(signal.SIGINT) == exit_code_for(signal.SIGTERM) == INTERRUPTED_EXIT_CODE == 130
    assert exit_code_for(None) == 130


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
async def test_a_first_signal_cancels_the_body_and_names_itself(signum: int) -> None:
    seen: list[int] = []
    async with interruptible(seen.append) as state:
        os.kill(os.getpid(), signum)
        await trio.sleep(30)  # cancelled by the signal
    assert state.interrupted and state.signal_number == signum and seen == [signum]


SECOND_SIGNAL = textwrap.dedent("""
    import os, signal, sys, trio
    from arena.process.signals import interruptible

    async def main():
        async with interruptible() as state:
            os.kill(os.getpid(), signal.SIGHUP)
            with trio.CancelScope(shield=True):  # a teardown that hangs
                await trio.sleep(0.2)
                os.kill(os.getpid(), signal.SIGTERM)
                await trio.sleep(30)

    trio.run(main)
""")


def test_a_second_signal_exits_at_once_with_the_first_signals_code() -> None:
    done = subprocess.run([sys.executable, "-c", SECOND_SIGNAL], capture_output=True, text=True, check=False,
                          timeout=60)
    assert done.returncode == 129, done.stderr
    assert "interrupted again" in done.stderr and "Traceback" not in done.stderr
