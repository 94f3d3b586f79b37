"""The sandbox (bubblewrap): a bot sees no other process, has no network, can write only its own
scratch folder, cannot read the logs; its descendants die with the game. That freezing reaches a
sandboxed bot and its children (setsid refused or not) is checked in test_ponder.py ([sandbox])."""

from __future__ import annotations

import json
import os
import socket
import tempfile
from pathlib import Path

import pytest
from engine_support import assert_no_leftovers
from hostile_support import hostile_command

import arena.process.isolation as isolation_module
from arena.errors import ConfigError
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation, sandbox_available

TC = TimeControl(time_limit_ms=30000, startup_ms=10000)
SANDBOX = Isolation(sandbox=True)

needs_sandbox = pytest.mark.skipif(sandbox_available() is not None, reason=str(sandbox_available()))


def _reports(log: Path) -> dict[str, str]:
    found = {}
    for line in log.read_text().splitlines():
        if line.startswith("REPORT "):
            _, name, text = line.split(" ", 2)
            found[name] = text
    return found


@needs_sandbox
async def test_a_sandboxed_bot_is_walled_in(marker: str, tmp_path: Path) -> None:
    logs_root = tmp_path / "logs"
    tournament = logs_root / "t1"
    stderr_dir = tournament / "stderr"
    stderr_dir.mkdir(parents=True)
    (tournament / "games.jsonl").write_text("")
    (logs_root / "other").mkdir()
    (logs_root / "other" / "secret.txt").write_text("the other tournament")
    outside = tmp_path / "outside.txt"
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        env = (("PROBE_PORT", str(server.getsockname()[1])), ("PROBE_OUTSIDE", str(outside)),
               ("PROBE_LOGS", os.pathsep.join(map(str, (logs_root, tournament, stderr_dir)))))
        prober = AgentSpec("prober", command=hostile_command(marker, "shobu", "probe", Path("-")), env=env)
        other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", Path("-")))
        record = await play_game(configured_game("shobu"), prober, other, time_control=TC, max_moves=2,
                                 stderr_dir=stderr_dir, game_index=0, isolation=SANDBOX)
    assert record["termination"] == "max_moves", record["reason"]
    probe = json.loads(_reports(stderr_dir / "00000-black-prober.log")["probe.json"])
    assert len(probe["pids"]) <= 3 and os.getpid() not in probe["pids"]  # its own PID namespace
    assert probe["connect"].startswith("failed"), probe["connect"]
    assert probe["write_outside"].startswith("failed") and not outside.exists()
    assert probe["write_scratch"] == "written"
    # Its HOME and TMPDIR are its private /tmp (a tmpfs in its own mount namespace): what it wrote
    # there is seen nowhere else, and went with the game.
    assert probe["home"] == probe["tmpdir"] == "/tmp"
    assert not (Path("/tmp") / f"{marker}-mine.txt").exists()
    assert not list(Path(tempfile.gettempdir()).glob(f"{marker}-mine.txt"))
    listed = probe["logs"]
    # Not in its view at all: only what it needs is (its program's folder, arena's package, the system).
    assert all("No such file" in listed[str(folder)] for folder in (logs_root, tournament, stderr_dir)), listed
    assert_no_leftovers(marker)


@needs_sandbox
async def test_a_sandboxed_bot_cannot_leave_its_group_and_its_descendants_die_with_it(
    marker: str, tmp_path: Path
) -> None:
    escaper = AgentSpec("escaper", command=hostile_command(marker, "shobu", "escapee", Path("-")))
    other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", Path("-")))
    record = await play_game(configured_game("shobu"), escaper, other, time_control=TC, max_moves=4,
                             stderr_dir=tmp_path, game_index=0, isolation=SANDBOX)
    assert record["termination"] == "max_moves", record["reason"]
    # setsid fails (seccomp), so the grandchild stays in the group that is stopped and killed.
    assert _reports(tmp_path / "00000-black-escaper.log").get("escapee-escapee.txt") == "refused"
    assert_no_leftovers(marker, wait=0.0)


def test_the_seccomp_filter_refuses_setsid_and_setpgid_only(tmp_path: Path) -> None:
    import subprocess
    import sys

    from arena.process.sandbox import seccomp_pipe

    if sandbox_available() is not None:
        pytest.skip(str(sandbox_available()))
    fd = seccomp_pipe()
    assert fd is not None, "no filter for this architecture"
    code = ("import os, subprocess\n"
            "for name, call in (('setsid', os.setsid), ('setpgid', lambda: os.setpgid(0, 0))):\n"
            "    try:\n"
            "        call(); print(name, 'allowed')\n"
            "    except OSError as exc:\n"
            "        print(name, exc.errno)\n"
            "print('fork', subprocess.run(['true']).returncode)\n")
    try:
        done = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
                               "--die-with-parent", "--seccomp", str(fd), "--", sys.executable, "-c", code],
                              pass_fds=(fd,), capture_output=True, text=True, check=False, timeout=60)
    finally:
        os.close(fd)
    assert done.stdout.split("\n")[:3] == ["setsid 1", "setpgid 1", "fork 0"], done.stderr


async def test_a_sandbox_asked_for_but_unavailable_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation_module, "sandbox_available", lambda: "bubblewrap is not installed here")
    bot = AgentSpec("x", command="python3 -c pass")
    with pytest.raises(ConfigError, match="^bubblewrap is not installed here$"):
        await play_game(configured_game("shobu"), bot, bot, time_control=TC, isolation=SANDBOX)
