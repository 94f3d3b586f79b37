"""The example sandbox plugin (examples/plugins/unshare-sandbox: util-linux ``unshare`` instead of
bubblewrap), installed from its own files as pip would (its module, the entry point its
pyproject.toml declares): a match plays in it, and a probing bot inside finds what the contract
promises: its own PID namespace, no network, nothing written outside /tmp, a private /tmp, the
hidden log folder empty, files outside its view absent, its own user with no capability."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import socket
import subprocess
import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.process.botuser import CommandNeeds
from arena.process.sandboxes import SANDBOX_SEAM, SandboxRequest, names
from arena.process.spawn import PIPES_AWAY, PIPES_BACK, sh_prefix
from arena.process.view import BotView
from tests.helpers import BACKSTOP_S, eventually, installed_plugin

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "plugins" / "unshare-sandbox"
RANDOM_BOT = REPO / "bots" / "connect4_random.py"

#: What the probing bot finds before it plays (a random connect4 bot): one JSON line on stderr.
PROBE = '''\
import json, os, runpy, socket, sys

found = {"uid": os.getuid(), "caps": [l.split()[1] for l in open("/proc/self/status") if l.startswith("Cap")]}
found["pids"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
try:
    socket.create_connection(("127.0.0.1", PORT), timeout=5).close()
    found["net"] = "connected"
except OSError as exc:
    found["net"] = type(exc).__name__
found["before"] = os.path.exists("/tmp/MARK")  # the other bot's, were /tmp shared
found["written"] = []
for path in (__file__ + ".new", "/usr/arena-probe", "/arena-probe", "/tmp/MARK"):
    try:
        with open(path, "w") as f:
            f.write("x")
        found["written"].append(path)
    except OSError:
        pass
found["logs"] = os.listdir(LOGS) if os.path.isdir(LOGS) else None
found["secret"] = os.path.exists(SECRET)
found["home"] = os.environ.get("HOME")
print(json.dumps(found), file=sys.stderr, flush=True)
sys.argv = [RANDOM]
runpy.run_path(RANDOM, run_name="__main__")
'''


def entry_points_of(example: Path) -> str:
    """The example's ``arena.sandboxes`` entry points, in the ini form an installation writes."""
    declared = tomllib.loads((example / "pyproject.toml").read_text())["project"]["entry-points"]
    return "".join(f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in parts.items())
                   for group, parts in declared.items())


@pytest.fixture
def unshare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    module = "arena_unshare_sandbox.py"
    with installed_plugin(monkeypatch, tmp_path / "site", SANDBOX_SEAM, "arena-unshare-sandbox",
                          entry_points_of(EXAMPLE), {module: (EXAMPLE / module).read_text()}):
        backend = SANDBOX_SEAM.load("unshare")
        why = backend.available()
        if why is not None:
            pytest.skip(why)
        if os.geteuid() != 0:
            pytest.skip("runs as root: the bots get users of their own, the wrapper is also run as nobody")
        yield backend


def match(*args: str) -> Any:
    return CliRunner().invoke(cli, ["match", "--game", "connect4", "--json", "--sandbox-backend", "unshare", *args],
                              catch_exceptions=False)


def test_the_examples_entry_point_is_a_sandbox_named_unshare(unshare: Any) -> None:
    assert "unshare" in names() and type(unshare).__name__ == "UnshareSandbox"
    result = CliRunner().invoke(cli, ["doctor", "--json"], catch_exceptions=False)
    assert {"what": "sandbox unshare", "ok": True} in [{k: f[k] for k in ("what", "ok")} for f in json.loads(result.stdout)]


def test_the_docs_match_plays_in_it(unshare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/extending.md's command, verbatim from the repository's root (the docs test leaves it to this one)."""
    line = next(line for line in (REPO / "docs" / "extending.md").read_text().splitlines()
                if line.startswith("arena match") and "--sandbox-backend unshare" in line)
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(cli, [*shlex.split(line)[1:], "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["termination"] in ("win", "draw")


def test_a_bot_inside_finds_what_the_contract_promises(unshare: Any, tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    logs = folder / "logs"  # a log folder inside the bot's own: the sandbox covers it
    logs.mkdir(parents=True)
    (logs / "planted.txt").write_text("the organiser's")
    secret = tmp_path / "secret.txt"  # beside the bot's folder: outside its view
    secret.write_text("x")
    shutil.copy(RANDOM_BOT, folder / "random_bot.py")
    mark = f"/tmp/arena-unshare-{uuid.uuid4().hex}"
    with socket.create_server(("127.0.0.1", 0)) as server:  # reachable from any process outside
        source = (PROBE.replace("PORT", str(server.getsockname()[1])).replace("LOGS", repr(str(logs)))
                  .replace("SECRET", repr(str(secret))).replace("RANDOM", repr(str(folder / "random_bot.py")))
                  .replace("/tmp/MARK", mark))
        (folder / "probe.py").write_text(source)
        bot = f"python3 {folder / 'probe.py'}"
        result = match(bot, bot, "--stderr-dir", str(logs))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["termination"] in ("win", "draw")
    reports = [json.loads(p.read_text().splitlines()[0]) for p in logs.glob("*") if p.name != "planted.txt"]
    assert len(reports) == 2, list(logs.iterdir())
    for found in reports:
        assert found["uid"] != 0 and set(found["caps"]) == {"0000000000000000"}, found  # its own user, no capability
        assert len(found["pids"]) <= 3 and found["pids"][0] == 1, found  # its namespace: PID 1 (the setup shell) and itself
        assert found["net"] != "connected", found
        assert found["written"] == [mark] and found["before"] is False, found  # /tmp only, its own
        assert found["logs"] == [], found  # the log folder is covered
        assert found["secret"] is False and found["home"] == "/tmp", found
    assert not os.path.exists(mark), "its /tmp is its own"
    assert not (folder / "probe.py.new").exists()


def request(script: str, *, uid: int | None = None, as_root: bool = True) -> SandboxRequest:
    """A bot that is ``sh -c script``, shown nothing but the system, started in /tmp."""
    view = BotView(argv=(), shown=(), etc=(), workdir="/tmp", empty_workdir=False)
    inner = (*sh_prefix(PIPES_BACK), "sh", "-c", script)
    return SandboxRequest(inner, CommandNeeds(inner), view, (), uid, as_root, 1 << 20)


def test_without_root_a_user_namespace_builds_the_view(unshare: Any) -> None:
    """arena not root (here: the wrapped command run as ``nobody``): ``--user --map-root-user``
    gives the setup its mounts; the bot has no capability, a read-only root, its own processes
    only, and the wrapper exits as it does."""
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) runs the wrapper as nobody")
    script = ("grep CapEff /proc/self/status; touch /x 2>/dev/null || echo read-only; "
              "ls /proc | grep -c '^[0-9]'; exit 7")
    wrapped = unshare.wrap(request(script, as_root=False))
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    done = subprocess.run([*nobody, *sh_prefix(PIPES_AWAY), *wrapped.argv], capture_output=True, text=True,
                          timeout=BACKSTOP_S, check=False)
    lines = done.stdout.split("\n")
    assert done.returncode == 7, (done.stdout, done.stderr)
    assert lines[0].split() == ["CapEff:", "0000000000000000"] and lines[1] == "read-only", lines
    assert int(lines[2]) <= 4, lines  # PID 1, the bot's shell, ls, grep


def in_namespace(namespace: str) -> dict[int, str]:
    """The live processes (zombies left out) whose PID namespace is ``namespace`` (``pid:[inode]``),
    each with its /proc status."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if os.readlink(entry / "ns" / "pid") == namespace:
                    status = (entry / "status").read_text()
                    if "\nState:\tZ" not in status:
                        found[int(entry.name)] = status
    return found


def test_killing_the_wrapper_kills_everything_inside(unshare: Any) -> None:
    """SIGKILL to ``unshare`` alone (what arena's parent-death signal does when arena dies): the bot,
    switched to its own user, and what it started in the background die with the namespace."""
    script = "sleep 600 & sleep 600 & readlink /proc/self/ns/pid; wait"
    with subprocess.Popen([*sh_prefix(PIPES_AWAY), *unshare.wrap(request(script, uid=65534)).argv],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True) as wrapper:
        try:
            assert wrapper.stdout is not None and wrapper.stderr is not None
            namespace = wrapper.stdout.readline().strip()
            assert namespace.startswith("pid:["), wrapper.stderr.read()
            inside: dict[int, str] = {}

            def started() -> bool:
                inside.update(in_namespace(namespace))
                return len(inside) >= 4

            eventually(started, what="PID 1, the bot's shell and its two sleeps in the namespace")
            assert any("\nUid:\t65534\t" in status for status in inside.values()), inside
        finally:
            wrapper.kill()  # the process this test started, by its pid
            wrapper.wait()
    eventually(lambda: not in_namespace(namespace), what="every process of the namespace gone")
    for pid in inside:  # reparented to this process where arena made it a subreaper: reap them
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_odd_names_are_shown_at_their_places(unshare: Any, tmp_path: Path) -> None:
    """A shown folder and file whose names hold a blank and a backslash (escaped in the fstab
    lines), inside what becomes the bot's /tmp; a file beside them is not shown."""
    folder, file, beside = tmp_path / "a b\\c", tmp_path / "one\tfile", tmp_path / "beside"
    folder.mkdir()
    (folder / "inner").write_text("in the folder")
    file.write_text("a file")
    beside.write_text("not shown")
    view = BotView(argv=(), shown=(str(folder), str(file)), etc=(), workdir=str(folder), empty_workdir=False)
    script = 'cat inner; echo; cat "$FILE"; echo; test -e "$BESIDE" || echo absent'
    inner = (*sh_prefix(PIPES_BACK), "sh", "-c", script)
    wrapped = unshare.wrap(SandboxRequest(inner, CommandNeeds(inner), view, (), 65534, True, 1 << 20))
    done = subprocess.run([*sh_prefix(PIPES_AWAY), *wrapped.argv], capture_output=True, text=True, check=False,
                          timeout=BACKSTOP_S, env={"PATH": os.environ["PATH"], "FILE": str(file), "BESIDE": str(beside)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == ["in the folder", "a file", "absent", ""]


def test_a_config_names_it(unshare: Any, tmp_path: Path) -> None:
    from arena.tournament.config import load_config

    path = tmp_path / "c.json"
    bot = f"python3 {RANDOM_BOT}"
    path.write_text(json.dumps({"id": "u", "game": "connect4", "sandbox": "unshare",
                                "agents": [{"id": "a", "path": bot}, {"id": "b", "path": bot}]}))
    assert load_config(str(path)).sandbox == "unshare"


def test_a_run_of_a_config_naming_it_plays(unshare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run plays its games in worker processes: they find the plugin as an installed one would be
    found, on their path (PYTHONPATH here)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path / "site"), os.environ.get("PYTHONPATH")])))
    path = tmp_path / "c.json"
    bot = f"python3 {RANDOM_BOT}"
    path.write_text(json.dumps({"id": "u", "game": "connect4", "sandbox": "unshare", "gamesPerPair": 2,
                                "agents": [{"id": "a", "path": bot}, {"id": "b", "path": bot}]}))
    result = CliRunner().invoke(cli, ["run", str(path), "--logs", str(tmp_path / "logs")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    games = [json.loads(line) for line in next((tmp_path / "logs").rglob("games.jsonl")).read_text().splitlines()]
    assert len(games) == 2 and all(g["termination"] in ("win", "draw") for g in games), games
