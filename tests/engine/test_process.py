"""The process transport: bounded framing, deadlines, stderr drain, group kill."""

from __future__ import annotations

import shlex
import signal
import sys

import pytest
import trio
import trio.lowlevel
import trio.testing
from engine_support import assert_no_leftovers, processes_matching
from helpers import eventually_async

from arena.errors import BotError
from arena.process.bot import (
    BotGone,
    EndOfOutput,
    ReplyReader,
    ReplyTooLong,
    StderrSink,
    describe_exit,
    kill_all_live_groups,
    live_groups,
    open_bot_process,
)


def _pipe() -> tuple[trio.testing.MemorySendStream, ReplyReader]:
    send, receive = trio.testing.memory_stream_one_way_pair()
    return send, ReplyReader(receive)


async def _feed(send: trio.testing.MemorySendStream, chunks: list[bytes], close: bool = True) -> None:
    for chunk in chunks:
        await send.send_all(chunk)
        await trio.lowlevel.checkpoint()
    if close:
        await send.aclose()


async def _collect(chunks: list[bytes], method: str, count: int, limit: int = 1 << 20) -> list[bytes]:
    send, reader = _pipe()
    results: list[bytes] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_feed, send, chunks)
        for _ in range(count):
            results.append(await getattr(reader, method)(limit))
    return results


async def test_lines_split_across_chunks() -> None:
    chunks = [b"2 3 2", b" 2 3\nsecond", b" line\r\n", b"\nlast\n"]
    assert await _collect(chunks, "read_line", 4) == [b"2 3 2 2 3", b"second line\r", b"", b"last"]


async def test_line_over_the_limit_is_an_error_not_a_buffer() -> None:
    send, reader = _pipe()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_feed, send, [b"x" * 300_000], False)
        with pytest.raises(ReplyTooLong) as info:
            await reader.read_line(1000)
        nursery.cancel_scope.cancel()
    assert info.value.limit == 1000 and info.value.head.startswith(b"xxx")
    assert len(reader.pending()) == 0


async def test_end_of_output_reports_the_partial_reply() -> None:
    send, reader = _pipe()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_feed, send, [b"ok\n", b"half a rep"])
        assert await reader.read_line() == b"ok"
        with pytest.raises(EndOfOutput) as info:
            await reader.read_line()
    assert info.value.partial == b"half a rep"


PRETTY = b'{\n  "type": "turn",\n  "payload": {"a": "}{\\"", "b": [1, {"c": 2}]}\n}'


@pytest.mark.parametrize("cut", [1, 2, 3, 7, 13, 64])
async def test_json_object_any_chunking(cut: int) -> None:
    stream = b"  \n" + PRETTY + b"\n" + b'{"x": "\\\\"}' + b'{"y": 1}\n'
    chunks = [stream[i : i + cut] for i in range(0, len(stream), cut)]
    assert await _collect(chunks, "read_json_object", 3) == [PRETTY, b'{"x": "\\\\"}', b'{"y": 1}']


async def test_json_reader_hands_back_a_non_object_line_at_once() -> None:
    send, reader = _pipe()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_feed, send, [b"hello there\n{\"a\": 1}\n"], False)
        assert await reader.read_json_object() == b"hello there"
        assert await reader.read_json_object() == b'{"a": 1}'
        nursery.cancel_scope.cancel()


async def test_json_object_over_the_limit() -> None:
    send, reader = _pipe()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_feed, send, [b'{"a": "' + b"y" * 200_000], False)
        with pytest.raises(ReplyTooLong):
            await reader.read_json_object(5000)
        nursery.cancel_scope.cancel()


def _py(code: str, *extra: str) -> list[str]:
    return [sys.executable, "-u", "-c", code, *extra]


async def test_group_kill_takes_grandchildren_and_sigterm_ignorers(marker: str) -> None:
    code = (
        "import signal, subprocess, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "subprocess.Popen([sys.executable, '-c', 'import signal, time; "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)', sys.argv[1] + '-gc'])\n"
        "print('ready', flush=True)\n"
        "time.sleep(600)\n"
    )
    async with open_bot_process(_py(code, marker), kill_grace=0.1) as bot:
        assert await bot.read_line() == b"ready"
        assert bot.pid in live_groups()
        for _ in range(100):
            if len(processes_matching(marker)) == 2:
                break
            await trio.sleep(0.01)
        assert len(processes_matching(marker)) == 2
    assert bot.proc.returncode == -signal.SIGKILL
    assert bot.pid not in live_groups()
    assert_no_leftovers(marker)


async def test_write_to_a_bot_that_never_reads_stays_under_the_deadline(marker: str) -> None:
    async with open_bot_process(_py("import time; time.sleep(600)", marker)) as bot:
        with trio.move_on_after(0.3) as scope:
            await bot.send(b"x" * (8 << 20))
        assert scope.cancelled_caught
    assert_no_leftovers(marker)


async def test_write_to_a_dead_bot_is_bot_gone_and_exit_is_named(marker: str) -> None:
    async with open_bot_process(_py("import sys; sys.exit(7)", marker)) as bot:
        assert await bot.exit_description(2.0) == "exited with code 7"
        with pytest.raises(BotGone):
            for _ in range(10):
                await bot.send(b"x" * 100_000)


async def test_signal_death_is_named(marker: str) -> None:
    async with open_bot_process(_py("import os, signal; os.kill(os.getpid(), signal.SIGABRT)", marker)) as bot:
        assert await bot.exit_description(2.0) == "was killed by SIGABRT"
    assert describe_exit(None) == "closed its stdout but kept running"


async def test_stderr_is_drained_into_a_capped_tail(marker: str) -> None:
    code = "import sys\nfor i in range(2000): sys.stderr.write('%05d' % i + 'e' * 995 + '\\n')\nprint('done')"
    sink = StderrSink(tail=4096)
    async with open_bot_process(_py(code, marker), stderr=sink) as bot:
        assert await bot.read_line() == b"done"
        await bot.wait_exit(5.0)
    assert sink.total == 2000 * 1001
    text = sink.text()
    assert len(text) == 4096 and text.endswith("e\n") and "01999" in text


async def test_missing_program_is_a_bot_error() -> None:
    with pytest.raises(BotError, match="cannot start '/no/such/bot'"):
        async with open_bot_process(["/no/such/bot"]):
            pass


async def test_kill_all_live_groups(marker: str) -> None:
    async with open_bot_process(_py("import time; print('up', flush=True); time.sleep(600)", marker)) as bot:
        assert await bot.read_line() == b"up"
        kill_all_live_groups()
        assert await bot.wait_exit(2.0) == -signal.SIGKILL
    assert_no_leftovers(marker)


def test_commands_are_split_like_a_shell(tmp_path: object) -> None:
    from arena.players import split_command

    assert split_command("python3 'my bot.py' --depth 3") == ["python3", "my bot.py", "--depth", "3"]
    assert split_command(shlex.join(["a b", "c"])) == ["a b", "c"]
    with pytest.raises(BotError):
        split_command("python3 'unbalanced")
    with pytest.raises(BotError):
        split_command("   ")


def test_an_executable_path_with_spaces_is_taken_whole(tmp_path: object) -> None:
    import os
    from pathlib import Path

    from arena.players import split_command

    script = Path(str(tmp_path)) / "my bot"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    assert split_command(str(script)) == [str(script)]
    assert os.access(script, os.X_OK)



async def test_a_bot_asleep_reading_for_more_input_is_told_from_one_that_sleeps_on_a_timer(marker: str) -> None:
    """arena.process.waiting, read from /proc as arena's user (root, or the bot's own)."""
    import platform

    if platform.machine() not in ("x86_64", "aarch64"):
        pytest.skip("the read system call's number is known for x86_64 and aarch64 only")
    waits = "import sys; sys.stdin.readline(); print('read', flush=True); sys.stdin.readline()"
    # Reads in a thread while the main one sleeps on a timer: it may wake and reply, so not stuck.
    sleeps = ("import sys, threading, time; sys.stdin.readline(); threading.Thread(target=sys.stdin.readline)"
              ".start(); print('read', flush=True); time.sleep(600)")
    with trio.fail_after(30):
        async with open_bot_process(_py(waits, marker), kill_grace=0.1) as bot:
            await bot.send(b"one line\n")
            assert await bot.read_line() == b"read"
            await eventually_async(lambda: bot.waiting_for_input()[0])
            assert bot.waiting_for_input()[1] > 0  # the CPU ticks it used starting up
        async with open_bot_process(_py(sleeps, marker), kill_grace=0.1) as bot:
            await bot.send(b"one line\n")
            assert await bot.read_line() == b"read"
            for _ in range(20):
                assert bot.waiting_for_input()[0] is False
                await trio.sleep(0.02)
    assert_no_leftovers(marker)
