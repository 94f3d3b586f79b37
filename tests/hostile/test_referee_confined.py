"""An external referee is confined as a bot is (issue 33, item 7): its own user, cgroup and sandbox.

A hostile referee, started by arena's referee client beside a busy loop, tries at its first request
to read a file only arena's user may read, to signal arena, and to leave processes behind (one in a
session of its own, one double-forked); it answers with what it got (an ``{"error"}`` refusal, so its
findings come back as the message). Confined, with the sandbox, without it, and without bubblewrap
at all (own user and cgroup only): it reads nothing, arena receives no signal, and once the client
is closed no process of it is left. The same referee unconfined (as arena ran referees before) gets
all three, which shows the attacks are real.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_support import BOT_PYTHON, busy_loops, kill_marked, public_folder, survivors

from arena.process import botuser, cgroups, spawn
from arena.process.isolation import Isolation, sandbox_available
from arena.referee.client import RefereeClient, RefereeError
from arena.referee.protocol import request

pytestmark = [
    pytest.mark.skipif(
        not botuser.can_switch_users() or cgroups.layout() is None or sandbox_available() is not None,
        reason="needs arena as root with cgroups and bubblewrap (a referee gets a user, a cgroup and a "
               "sandbox only then)"),
    pytest.mark.timeout(120),
]

HOSTILE = r'''
import json, os, signal, subprocess, sys, time
arena_pid, marker = int(sys.argv[1]), sys.argv[2]
secret = SECRET  # not in its argv: a file its command names is shown to it
found = {"uid": os.getuid()}
try:
    with open(secret) as f:
        found["secret"] = f.read()
except OSError as exc:
    found["secret"] = None
try:
    os.kill(arena_pid, signal.SIGUSR1)
    found["signalled"] = True
except OSError:
    found["signalled"] = False
sleeper = [sys.executable, "-c", "import time; time.sleep(300)", marker]
try:
    subprocess.Popen(sleeper, start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
except OSError:
    subprocess.Popen(sleeper, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    if os.fork() == 0:
        os.execv(sys.executable, sleeper)
    os._exit(0)
for line in sys.stdin:
    print(json.dumps({"error": json.dumps(found)}), flush=True)
'''

MODES = [pytest.param("sandbox", id="sandbox"), pytest.param("no-sandbox", id="no-sandbox"),
         pytest.param("no-bubblewrap", id="no-bubblewrap")]


@pytest.fixture
def signals_to_arena() -> Iterator[list[int]]:
    """SIGUSR1s this process receives while the test runs (a referee's attempt to signal arena)."""
    got: list[int] = []
    before = signal.signal(signal.SIGUSR1, lambda signum, frame: got.append(signum))
    try:
        yield got
    finally:
        signal.signal(signal.SIGUSR1, before)


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file only arena's user may read (in a folder closed to others)."""
    folder = tmp_path / "closed"
    folder.mkdir(mode=0o700)
    path = folder / "secret.txt"
    path.write_text("the organiser's secret")
    path.chmod(0o600)
    return path


def _attack(marker: str, secret: Path, *, confine: bool) -> dict[str, object]:
    """Start the hostile referee (its script in a folder anyone may read), ask it once, close it;
    what it found."""
    with public_folder(marker) as folder, busy_loops(marker):
        script = folder / "hostile_referee.py"
        script.write_text(HOSTILE.replace("SECRET", repr(str(secret))))
        script.chmod(0o644)
        client = RefereeClient([BOT_PYTHON, str(script), str(os.getpid()), marker], confine=confine)
        try:
            with pytest.raises(RefereeError) as failed:
                client.call(request("info"), "info")
        finally:
            client.close()
        assert failed.value.refusal is not None, str(failed.value)
        found: dict[str, object] = json.loads(failed.value.refusal)
        return found


@pytest.mark.parametrize("mode", MODES)
def test_a_confined_referee_reads_nothing_signals_nothing_and_leaves_nothing(
        mode: str, secret: Path, signals_to_arena: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    marker = f"arena-hostile-referee-{os.getpid()}-{mode}"
    if mode == "no-sandbox":
        monkeypatch.setattr("arena.referee.confined.DEFAULT_ISOLATION", Isolation(sandbox=False))
    elif mode == "no-bubblewrap":
        if botuser.blocked_folder(os.path.realpath(sys.base_prefix)) is not None:
            pytest.skip("arena's Python is under a folder closed to other users: without bubblewrap no bot "
                        "or referee can be shown it (they are refused in one line, as bots are)")
        monkeypatch.setattr("arena.process.isolation.sandbox_available", lambda: "bubblewrap is missing (test)")
        monkeypatch.setattr("arena.referee.confined.sandbox_available", lambda: "bubblewrap is missing (test)")
        # Without bubblewrap nothing under a closed folder can be shown: no PATH entry under /root.
        monkeypatch.setenv("PATH", os.pathsep.join(p for p in ("/usr/local/bin", "/usr/bin", "/bin") if os.path.isdir(p)))
    try:
        found = _attack(marker, secret, confine=True)
        left = survivors(marker, wait=5.0)
    finally:
        kill_marked(marker)
    assert found["uid"] != os.getuid()
    assert found["secret"] is None
    assert found["signalled"] is False and signals_to_arena == []
    assert left == []
    if mode == "no-bubblewrap":
        assert any("no sandbox for external referees: bubblewrap is missing (test)" in n for n in spawn.notes())


def test_the_same_referee_unconfined_gets_everything(secret: Path, signals_to_arena: list[int]) -> None:
    marker = f"arena-hostile-referee-{os.getpid()}-plain"
    try:
        found = _attack(marker, secret, confine=False)
        left = survivors(marker)
    finally:
        kill_marked(marker)
    assert found["uid"] == os.getuid()
    assert found["secret"] == "the organiser's secret"
    assert found["signalled"] is True
    assert left != []
