"""Stop only what could run (:mod:`arena.process.offturn`): between its turns a bot asleep in the read
of its input is left alone (no freeze, and still no CPU), a bot that keeps running after its reply is
frozen at once, and a bot that used CPU while left alone (a timer woke it) is frozen from then on.

Driven at the process layer, turn by turn as the process player does (``before_input``, write,
``resume``, read the reply, ``rest``). Before ``rest`` a test waits, bounded, until the kernel shows
the bot asleep in its read: a bot just past its reply may not be there yet, and is then frozen (the
right answer, but not the case under test)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import pytest
import trio

from arena.process import botuser, cgroups
from arena.process.bot import BotProcess, open_bot_process

pytestmark = pytest.mark.skipif(not botuser.can_switch_users() or cgroups.layout() is None,
                                reason="needs arena as root with cgroups (bots get cgroups only then)")

PYTHON = os.path.realpath(sys.executable)
ECHO = "import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n"
# Replies, then spins: it would think on the opponent's time.
SPINNER = "import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n    while True: pass\n"
# Replies, then sleeps reading its input; a timer wakes it 0.1 s later to think for 50 ms.
ALARMED = ("import signal, sys, time\n"
           "def think(*_):\n    t = time.process_time()\n    while time.process_time() - t < 0.05: pass\n"
           "signal.signal(signal.SIGALRM, think)\n"
           "for line in sys.stdin:\n    print(line.strip(), flush=True)\n"
           "    signal.setitimer(signal.ITIMER_REAL, 0.1)\n")
# Replies from the main thread while another thread sleeps on a lock nobody else holds.
THREADED = ("import sys, threading\nthreading.Thread(target=threading.Event().wait, daemon=True).start()\n"
            "for line in sys.stdin:\n    print(line.strip(), flush=True)\n")
SANDBOX = pytest.mark.parametrize("sandbox", [True, False], ids=["sandbox", "no-sandbox"])


async def _turn(bot: BotProcess, text: bytes) -> None:
    """One turn as the process player plays it, up to the reply (not the rest after it)."""
    bot.before_input()
    bot.send_nowait(text + b"\n")
    bot.resume()
    with trio.fail_after(30):
        assert await bot.read_line() == text


async def _until(condition: Callable[[], bool]) -> None:
    """Poll the kernel's view until ``condition`` holds (bounded): it offers no event to wait on."""
    with trio.fail_after(30):
        while not condition():  # noqa: ASYNC110 - see above
            await trio.sleep(0.001)


async def _asleep_reading(bot: BotProcess) -> None:
    await _until(lambda: bool(bot.waiting_for_input()[0]))


def _frozen(bot: BotProcess) -> bool:
    assert bot.cgroup is not None
    folder = bot.cgroup.folders.get("v2")
    if folder is None:
        return bot.cgroup.frozen
    return "frozen 1" in (folder / "cgroup.events").read_text()


async def _usage_over(bot: BotProcess, seconds: float) -> float:
    """CPU seconds the bot used over a watch of ``seconds`` (the opponent's turn)."""
    before = bot.cpu_seconds()
    await trio.sleep(seconds)
    after = bot.cpu_seconds()
    assert before is not None and after is not None
    return after - before


async def _until_frozen(bot: BotProcess) -> None:
    await _until(lambda: _frozen(bot))  # the kernel freezes asynchronously, in microseconds


@SANDBOX
async def test_a_bot_asleep_reading_its_input_is_left_alone(sandbox: bool) -> None:
    async with open_bot_process([PYTHON, "-c", ECHO], stopped=True, sandbox=sandbox) as bot:
        assert bot.off_turn is not None
        for turn in range(3):
            await _turn(bot, b"move %d" % turn)
            await _asleep_reading(bot)
            bot.rest()
            assert bot.stopped and not bot.cgroup.frozen  # type: ignore[union-attr]
            assert await _usage_over(bot, 0.1) == 0.0 and not _frozen(bot)
        # The CPU time read to see that it used none is handed on (the turn's reading at its input).
        assert bot.before_input() == bot.cpu_seconds() and bot.before_input() is None
        assert (bot.off_turn.parks, bot.off_turn.freezes, bot.off_turn.thinks_off_turn) == (3, 0, False)


@SANDBOX
async def test_a_bot_that_spins_after_replying_is_frozen_at_once(sandbox: bool) -> None:
    async with open_bot_process([PYTHON, "-c", SPINNER], stopped=True, sandbox=sandbox) as bot:
        assert bot.off_turn is not None
        await _turn(bot, b"move")
        bot.rest()  # it is running: no wait for anything
        await _until_frozen(bot)
        assert await _usage_over(bot, 0.2) == 0.0
        assert (bot.off_turn.parks, bot.off_turn.freezes) == (0, 1)


async def test_a_bot_with_a_thread_asleep_elsewhere_is_frozen() -> None:
    async with open_bot_process([PYTHON, "-c", THREADED], stopped=True) as bot:
        assert bot.off_turn is not None
        await _turn(bot, b"move")
        await _asleep_reading(bot)
        bot.rest()
        await _until_frozen(bot)
        assert (bot.off_turn.parks, bot.off_turn.freezes) == (0, 1)


@SANDBOX
async def test_a_bot_woken_by_a_timer_between_turns_is_frozen_from_then_on(sandbox: bool) -> None:
    async with open_bot_process([PYTHON, "-c", ALARMED], stopped=True, sandbox=sandbox) as bot:
        off_turn = bot.off_turn
        assert off_turn is not None
        await _turn(bot, b"one")
        await _asleep_reading(bot)
        bot.rest()
        assert off_turn.parks == 1 and not bot.cgroup.frozen  # type: ignore[union-attr]
        parked_at = bot.cpu_seconds()
        await _until(lambda: bot.cpu_seconds() != parked_at)  # its timer fires 0.1 s after its reply
        used_at = bot.before_input()  # the next turn begins: it thought on the opponent's time
        assert off_turn.thinks_off_turn and used_at is not None and parked_at is not None and used_at > parked_at
        await _until_frozen(bot)
        bot.resume()
        bot.send_nowait(b"two\n")
        with trio.fail_after(30):
            assert await bot.read_line() == b"two"
        await _asleep_reading(bot)
        bot.rest()  # asleep reading, as before, but it has shown what it does: frozen
        await _until_frozen(bot)
        # Its next timer finds it frozen: the kernel wakes it for the signal and puts it back (a few
        # microseconds), but its 50 ms of thinking never run.
        assert await _usage_over(bot, 0.3) < 0.001
        assert (off_turn.parks, off_turn.freezes) == (1, 1)
