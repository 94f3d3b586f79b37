"""A referee process kept for many games, and every way it can fail: one line naming the program."""

from __future__ import annotations

import os
import select
import sys
from pathlib import Path

import pytest
from helpers import eventually
from referee_support import hostile_argv

from arena.errors import ResourceError
from arena.referee.client import RefereeClient, RefereeError, client_for, close_all
from arena.referee.protocol import request

INFO = request("info")


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie does not: it was reaped or is dead)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def failure(client: RefereeClient, line: bytes = INFO, cmd: str = "info") -> str:
    with pytest.raises(RefereeError) as caught:
        client.call(line, cmd)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"rules program {client.command!r}: ")
    assert cmd in message
    return message


def test_one_process_answers_many_requests_and_counts_them(nim_argv: list[str]) -> None:
    client = client_for(nim_argv)
    assert client_for(nim_argv) is client and client.pid is None  # started lazily
    assert client.call(INFO, "info")["name"] == "nim"
    pid = client.pid
    for _ in range(5):
        client.call(request("new", players=2, params={}), "new")
    assert (client.round_trips, client.starts, client.pid) == (6, 1, pid)
    assert client.info().name == "nim" and client.round_trips == 7
    assert client.info() is client.info() and client.round_trips == 7  # asked once
    close_all()
    assert client.pid is None and pid is not None and not alive(pid)


def test_a_crash_names_the_program_its_status_and_stderr_then_it_is_restarted() -> None:
    client = RefereeClient(hostile_argv("crash", 3))
    client.call(INFO, "info")
    client.call(INFO, "info")
    message = failure(client)
    assert "exited with status 3 during info" in message
    assert "hostile referee: deliberate crash" in message
    assert isinstance(RefereeError("x"), ResourceError)
    assert client.call(INFO, "info")["name"] == "nim"  # a new process: its requests count from 1
    assert client.starts == 2
    client.close()


def test_silence_past_the_deadline_kills_it() -> None:
    client = RefereeClient(hostile_argv("hang", 2), timeout_s=0.3)
    client.call(INFO, "info")
    pid = client.pid
    assert pid is not None
    assert "info: no reply within 0.3 s" in failure(client)
    assert not alive(pid) and client.pid is None


def test_the_first_request_waits_for_a_slow_start(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("import sys, time\ntime.sleep(0.5)\nfor line in sys.stdin:\n    print('{\"ok\": 1}', flush=True)\n")
    client = RefereeClient([sys.executable, str(slow)], timeout_s=0.2, start_timeout_s=5)
    assert client.call(INFO, "info") == {"ok": 1}
    assert client.call(INFO, "info") == {"ok": 1}
    client.close()


@pytest.mark.parametrize(("mode", "words"), [
    ("garbage", "info: the reply is not JSON: b'this is not json'"),
    ("silent-exit", "exited with status 0 during info"),
])
def test_garbage_and_a_quiet_exit(mode: str, words: str) -> None:
    client = RefereeClient(hostile_argv(mode, 1))
    assert words in failure(client)
    assert client.pid is None


def test_two_lines_for_one_request_are_refused() -> None:
    client = RefereeClient(hostile_argv("chatty", 1))
    assert "info: the reply came before the request was read, or with more after it" in failure(client)


def test_output_between_requests_is_refused(tmp_path: Path) -> None:
    late = tmp_path / "late.py"
    late.write_text("import sys, time\nfor line in sys.stdin:\n    print('{\"a\": 1}', flush=True)\n"
                    "    time.sleep(0.1)\n    print('{\"b\": 2}', flush=True)\n")
    client = RefereeClient([sys.executable, str(late)])
    assert client.call(INFO, "info") == {"a": 1}
    assert eventually(lambda: select.select([client._proc.stdout_fd], [], [], 0)[0])  # type: ignore[union-attr]
    assert "wrote to stdout between requests" in failure(client, cmd="")


def test_an_error_answer_keeps_the_process() -> None:
    client = RefereeClient(hostile_argv("error", 2))
    client.call(INFO, "info")
    pid = client.pid
    with pytest.raises(RefereeError) as caught:
        client.call(INFO, "info")
    assert caught.value.refusal == "deliberate refusal"
    assert "info: the referee answered an error: deliberate refusal" in str(caught.value)
    assert client.pid == pid
    client.close()


def test_a_flood_on_stderr_never_blocks_it() -> None:
    client = RefereeClient(hostile_argv("flood", 1), timeout_s=10)
    for _ in range(3):
        assert client.call(INFO, "info")["name"] == "nim"
    client.close()


def test_a_reply_line_over_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.referee.client.MAX_REPLY_BYTES", 100)
    client = RefereeClient([sys.executable, "-c", "import sys\nfor l in sys.stdin: print('x' * 100000, flush=True)"])
    assert "a reply line over 100 bytes" in failure(client)


def test_a_program_that_cannot_start(tmp_path: Path) -> None:
    client = RefereeClient([str(tmp_path / "no-such-referee")])
    with pytest.raises(RefereeError, match="cannot start it: no such file or (directory|program)"):
        client.call(INFO, "info")


def test_a_forked_child_starts_its_own(nim_argv: list[str]) -> None:
    client = RefereeClient(nim_argv)
    client.call(INFO, "info")
    parent = client.pid
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports by its exit status
        ok = client.call(INFO, "info")["name"] == "nim" and client.pid not in (None, parent)
        client.close()
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert client.pid == parent and alive(parent)
    client.close()
