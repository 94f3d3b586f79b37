"""A bot cannot reach into arena: no writing into arena's pipes through /proc, no secrets from
arena's environment, no capabilities under root, no planting a link where its stderr log goes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from engine_support import assert_no_leftovers, bot_writable
from hostile_support import hostile_command, reports

from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation
from arena.process.spawn import is_hardened, shim_prefix

TC = TimeControl(time_limit_ms=20000, startup_ms=5000)


@pytest.mark.parametrize("sandbox", [True, False], ids=["sandbox", "no-sandbox"])
async def test_a_bot_cannot_write_fake_moves_into_arenas_pipes(marker: str, tmp_path: Path, sandbox: bool) -> None:
    # The saboteur aims at arena's pid as arena knows it (as root, the bot has its own PID namespace,
    # where its parent is bubblewrap's: the real pid is all it could try).
    logs = tmp_path / "stderr"
    saboteur = AgentSpec("saboteur", command=hostile_command(marker, "shobu", "sabotage", "-",
                                                              {"arena": os.getpid()}))
    victim = AgentSpec("victim", command=hostile_command(marker, "shobu", "plain", "-"))
    record = await play_game(configured_game("shobu"), saboteur, victim, time_control=TC, max_moves=6, stderr_dir=logs,
                             game_index=0, isolation=Isolation(sandbox=sandbox))
    found = reports(logs, "sabotage.txt")
    assert len(found) == 1, found
    report = found[0][2]
    # Without protection the saboteur writes into every pipe of arena and the victim is forfeited
    # for a malformed reply it never sent.
    assert report.startswith(("denied listing /proc/", "wrote into 0 pipes")), report
    assert record["termination"] == "max_moves", record["reason"]
    assert is_hardened() == (True, True)
    assert_no_leftovers(marker)


def test_a_bot_of_a_capless_root_arena_cannot_write_into_arenas_pipes(marker: str, tmp_path: Path) -> None:
    """Root without capabilities (no user per bot, no PID namespace: the old way): the bot runs as
    arena's uid and finds arena as its parent; arena's non-dumpability still keeps it out."""
    import shutil
    import subprocess
    import sys

    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv")
    work = bot_writable(tmp_path / "work")
    out = tmp_path / "records.json"
    done = subprocess.run(["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--", sys.executable, "-m", "arena",
                           "match", hostile_command(marker, "shobu", "sabotage", work),
                           hostile_command(marker, "shobu", "plain", work), "--game", "shobu", "--max-moves", "6", "--quiet",
                           "--out", str(out)], cwd=Path(__file__).resolve().parents[2], stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    report = (work / "sabotage.txt").read_text()
    assert report.startswith(("denied listing /proc/", "wrote into 0 pipes")), report
    record = json.loads(out.read_text())
    assert record["termination"] == "max_moves", record["reason"]
    assert_no_leftovers(marker)


@pytest.mark.skipif(os.geteuid() != 0, reason="capabilities are dropped only when arena runs as root")
@pytest.mark.parametrize("sandbox", [True, False], ids=["sandbox", "no-sandbox"])
async def test_a_bot_started_by_root_has_no_capabilities(marker: str, tmp_path: Path, sandbox: bool) -> None:
    assert "--bounding-set=-all" in shim_prefix()
    logs = tmp_path / "stderr"
    spy = AgentSpec("spy", command=hostile_command(marker, "shobu", "env", "-"))
    other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", "-"))
    await play_game(configured_game("shobu"), spy, other, time_control=TC, max_moves=2, stderr_dir=logs, game_index=0,
                    isolation=Isolation(sandbox=sandbox))
    caps = reports(logs, "caps.txt")
    assert len(caps) == 1 and int(caps[0][2], 16) == 0, caps
    assert_no_leftovers(marker)


async def test_a_secret_in_arenas_environment_is_invisible_to_bots(
    marker: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def env_seen(logs: Path) -> dict[str, str]:
        found = reports(logs, "env.txt")
        assert len(found) == 1, found
        return dict(json.loads(found[0][2]))

    monkeypatch.setenv("ARENA_TEST_SECRET", "hunter2")
    spy = AgentSpec("spy", command=hostile_command(marker, "shobu", "env", "-"), env=(("BOT_OPTION", "7"),))
    other = AgentSpec("other", command=hostile_command(marker, "shobu", "plain", "-"))
    await play_game(configured_game("shobu"), spy, other, time_control=TC, max_moves=2, stderr_dir=tmp_path / "one",
                    game_index=0)
    env = env_seen(tmp_path / "one")
    assert "ARENA_TEST_SECRET" not in env
    assert "hunter2" not in json.dumps(env)
    assert env["BOT_OPTION"] == "7"
    assert env["PATH"] == os.environ["PATH"]
    assert {"ARENA_RUN_TOKEN", "ARENA_GAME_TOKEN"} <= set(env)
    assert set(env) <= {"PATH", "HOME", "LANG", "TMPDIR", "BOT_OPTION", "ARENA_RUN_TOKEN", "ARENA_GAME_TOKEN",
                        "LC_CTYPE"}  # LC_CTYPE: Python may set it itself (PEP 538)

    # --inherit-env passes everything on (the agent's own map still wins).
    await play_game(configured_game("shobu"), spy, other, time_control=TC, max_moves=2, stderr_dir=tmp_path / "two",
                    game_index=0, isolation=Isolation(inherit_env=True))
    env = env_seen(tmp_path / "two")
    assert env["ARENA_TEST_SECRET"] == "hunter2" and env["BOT_OPTION"] == "7"
    assert_no_leftovers(marker)


async def test_arenas_search_bot_starts_with_the_minimal_environment(tmp_path: Path) -> None:
    hyper = tmp_path / "hyper.json"
    hyper.write_text("{}")
    bot = AgentSpec("search", kind="hyperparameters", path=str(hyper))
    record = await play_game(configured_game("checkers"), bot, bot, time_control=TimeControl(time_limit_ms=4000),
                             max_moves=4)
    assert record["termination"] in ("max_moves", "win", "no_legal_moves"), record["reason"]


async def test_a_planted_link_at_the_stderr_log_is_replaced_not_followed(marker: str, tmp_path: Path) -> None:
    logs = tmp_path / "stderr"
    logs.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (logs / "00000-black-a.log").symlink_to(victim)
    (logs / "00000-white-b.log").symlink_to(tmp_path / "does-not-exist.txt")
    flood = "import sys; sys.stderr.write('from the bot\\n' * 10); sys.stderr.flush(); sys.exit(3)"
    black = AgentSpec("a", command=f"python3 -c \"{flood}\" {marker}")
    white = AgentSpec("b", command=hostile_command(marker, "shobu", "plain", tmp_path))
    record = await play_game(configured_game("shobu"), black, white, time_control=TC, max_moves=4, stderr_dir=logs,
                             game_index=0)
    assert record["termination"] == "crash"
    assert victim.read_text() == "precious\n"
    assert not (tmp_path / "does-not-exist.txt").exists()
    log = logs / "00000-black-a.log"
    assert not log.is_symlink() and "from the bot" in log.read_text()
    assert not (logs / "00000-white-b.log").is_symlink()
    assert_no_leftovers(marker)


async def test_a_record_never_quotes_a_file_a_bot_links_its_log_to(marker: str, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the password is hunter2\n")
    # The attack needs a log folder the bot may write and see: no sandbox (it hides the logs) and a
    # folder open to the bot's user (a user per bot cannot touch arena's own folders otherwise).
    logs = bot_writable(tmp_path / "stderr")
    logs.chmod(0o777)  # not sticky: the bot may remove the log arena made
    log = logs / "00000-black-a.log"
    # The bot replaces its own log by a link to the secret, then crashes: the crash reason quotes
    # the last line of its stderr, which must come from what it wrote, not from the link's target.
    code = (f"import os, sys; sys.stderr.write('my own words\\n'); sys.stderr.flush(); "
            f"os.unlink({str(log)!r}); os.symlink({str(secret)!r}, {str(log)!r}); sys.exit(3)")
    black = AgentSpec("a", command=f"python3 -c \"{code}\" {marker}")
    white = AgentSpec("b", command=hostile_command(marker, "shobu", "plain", tmp_path))
    record = await play_game(configured_game("shobu"), black, white, time_control=TC, max_moves=4, stderr_dir=logs,
                             game_index=0, isolation=Isolation(sandbox=False))
    assert record["termination"] == "crash"
    assert log.is_symlink()  # the attack was made
    assert "hunter2" not in json.dumps(record)
    assert "my own words" in record["reason"]
    assert_no_leftovers(marker)


def test_arenas_helper_processes_do_not_carry_its_secrets(marker: str, tmp_path: Path) -> None:
    """The guardian and the standings worker run as the bots' user: they get the minimal environment
    (and are non-dumpable), so a bot scanning /proc/*/environ finds no secret of arena's. Arena runs
    without capabilities here, as any non-root user does (as root, capless bots are kept out anyway)."""
    import os
    import shutil
    import subprocess
    import sys

    from hostile_support import hostile_command, wait_for_file

    prefix: list[str] = []
    if os.geteuid() == 0 and shutil.which("setpriv"):
        prefix = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--"]
    config = tmp_path / "t.json"
    config.write_text(json.dumps({
        "id": "secrets", "game": "shobu", "gamesPerPair": 2, "maxMoves": 4, "timeLimit": 30000,
        "concurrency": 1, "agents": [
            {"id": "scan", "path": hostile_command(marker, "shobu", "scan_environ", tmp_path)},
            {"id": "plain", "path": hostile_command(marker, "shobu", "plain", tmp_path)}]}))
    # A name of its own: another test deliberately passes ARENA_TEST_SECRET on to its bots
    # (--inherit-env), and those may run beside this one (pytest-xdist).
    env = {**os.environ, "ARENA_SCAN_SECRET": "hunter2"}
    done = subprocess.run([*prefix, sys.executable, "-m", "arena", "run", str(config), "--logs",
                           str(tmp_path / "logs")], env=env, cwd=tmp_path, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert wait_for_file(tmp_path / "environ-scan.txt", timeout=5) == ""
