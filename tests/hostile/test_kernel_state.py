"""Nothing a bot leaves in the kernel outlives its game, a bot sees only its own cgroup and makes no
user namespace, and the fair clock credits no stall a bot caused itself (issue 33, items 3, 4, 6).

Each attack is a real bot started by arena (its own uid, cgroup and bubblewrap), with the sandbox on
and off. The "later bot under the same uid" is made certain by a pool of one uid."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
from engine_support import assert_no_leftovers
from hostile_support import BOT_PYTHON, busy_loops, hostile_command

from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.process import botuser, cgroups
from arena.process.bot import open_bot_process
from arena.process.isolation import Isolation, sandbox_available

pytestmark = pytest.mark.skipif(
    not botuser.can_switch_users() or cgroups.layout() is None or sandbox_available() is not None,
    reason="needs arena as root with cgroups and bubblewrap (bots get users, cgroups and namespaces only then)")

SANDBOX = [pytest.param(True, id="sandbox"), pytest.param(False, id="no-sandbox")]

# Leaves something in every kernel place a uid can keep it (a key in its user keyring, a System V
# shared memory segment, message queue and semaphore set, a POSIX message queue, a file in a folder
# anyone may write), then, run again ("look"), looks for each. Prints one line: what it saw, by name.
KERNEL = r'''
import ctypes, errno, os, platform, sys
marker, action = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]  # not in libc itself
libc.syscall.restype = ctypes.c_long
KEY = 0x41524E41
NAME = ("/" + marker[-20:]).encode()
def call(fn, *args):
    result = fn(*args)
    return errno.errorcode.get(ctypes.get_errno(), "?") if result == -1 else "ok"
seen = {}
if action == "leave":
    ring = libc.syscall(ADD_KEY, b"user", marker.encode(), b"x" * 16000, 16000, -4)  # KEY_SPEC_USER_KEYRING
    seen["key"] = errno.errorcode.get(ctypes.get_errno(), "?") if ring == -1 else "stored"
    seen["shm"] = call(libc.shmget, KEY, 4096, 0o1600)  # IPC_CREAT | 0600
    seen["msg"] = call(libc.msgget, KEY, 0o1600)
    seen["sem"] = call(libc.semget, KEY, 1, 0o1600)
    rt = ctypes.CDLL("librt.so.1", use_errno=True)
    seen["mq"] = call(rt.mq_open, NAME, os.O_CREAT | os.O_RDWR, 0o600, None)
    for folder in ("/var/tmp", "/run/lock", "/tmp", "/dev/shm"):
        try:
            with open(os.path.join(folder, marker), "w") as f:
                f.write("left")
            seen[folder] = "ok"
        except OSError as exc:
            seen[folder] = errno.errorcode.get(exc.errno, "?")
else:
    found = libc.syscall(KEYCTL, 10, -4, b"user", marker.encode(), 0)  # KEYCTL_SEARCH, the user keyring
    seen["key"] = errno.errorcode.get(ctypes.get_errno(), "?") if found == -1 else "found"
    seen["shm"] = call(libc.shmget, KEY, 0, 0)
    seen["msg"] = call(libc.msgget, KEY, 0)
    seen["sem"] = call(libc.semget, KEY, 0, 0)
    rt = ctypes.CDLL("librt.so.1", use_errno=True)
    seen["mq"] = call(rt.mq_open, NAME, os.O_RDONLY, 0, None)
    for folder in ("/var/tmp", "/run/lock", "/tmp", "/dev/shm"):
        seen[folder] = "found" if os.path.exists(os.path.join(folder, marker)) else "none"
print(" ".join(f"{k}={v}" for k, v in sorted(seen.items())), flush=True)
sys.stdin.readline()
'''


@pytest.fixture
def one_uid(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A pool of one uid (picked at random from the real pool, so that parallel runs do not meet):
    every bot of the test gets it, one after the other."""
    first, count = botuser.pool()
    uid = first + random.randrange(count)
    monkeypatch.setattr(botuser, "pool", lambda: (uid, 1))
    yield uid


def _key_users(uid: int) -> str | None:
    """The kernel's line for ``uid`` in /proc/key-users (None: it holds no key)."""
    for line in Path("/proc/key-users").read_text().splitlines():
        if line.split(":")[0].strip() == str(uid):
            return line
    return None


async def _run(argv: list[str], sandbox: bool) -> dict[str, str]:
    async with open_bot_process(argv, sandbox=sandbox) as bot:
        with trio.fail_after(60):
            line = (await bot.read_line()).decode()
    return dict(item.split("=", 1) for item in line.split())


@pytest.mark.parametrize("sandbox", SANDBOX)
async def test_nothing_a_bot_leaves_in_the_kernel_reaches_a_later_bot_of_its_uid(
        marker: str, one_uid: int, sandbox: bool) -> None:
    left = await _run([sys.executable, "-c", KERNEL, marker, "leave"], sandbox)
    # The keyring is refused outright; the IPC objects are made, in an IPC namespace of its own.
    assert left["key"] == "EPERM", left
    assert left["shm"] == left["msg"] == left["sem"] == left["mq"] == "ok", left
    assert _key_users(one_uid) is None  # the kernel holds nothing for the uid
    for folder in ("/var/tmp", "/run/lock"):
        assert not os.path.exists(os.path.join(folder, marker))
        if not sandbox and os.path.isdir(folder) and os.stat(folder).st_mode & 0o002:
            assert left[folder] == "ok", left  # written, to a private copy gone with the game
    looked = await _run([sys.executable, "-c", KERNEL, marker, "look"], sandbox)
    assert looked["key"] == "EPERM", looked
    assert looked["shm"] == looked["msg"] == looked["sem"] == looked["mq"] == "ENOENT", looked
    assert {looked[f] for f in ("/var/tmp", "/run/lock", "/tmp", "/dev/shm")} == {"none"}, looked
    assert_no_leftovers(marker)


# Reads what it is given of its opponent's cgroup, lists the cgroup file systems and reads its own
# memory limit, then tries a user namespace of its own (the way round its scratch cap: a tmpfs).
PEEK = r'''
import ctypes, errno, json, os, subprocess, sys
marker = sys.argv[1]
seen = {"self": open("/proc/self/cgroup").read().split()}
for path in sys.argv[2:]:
    try:
        seen[path] = "read " + open(path).read(60)
    except OSError as exc:
        seen[path] = errno.errorcode.get(exc.errno, "?")
listed = {}
for root, dirs, files in os.walk("/sys/fs/cgroup"):
    listed[root] = len(dirs) + len(files)
seen["listed"] = listed
for limit in ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory.max",
              "/sys/fs/cgroup/unified/memory.max"):
    if os.path.exists(limit):
        seen["limit"] = open(limit).read().strip()
        break
libc = ctypes.CDLL(None, use_errno=True)
seen["unshare"] = "ok" if libc.unshare(0x10020000) == 0 else errno.errorcode.get(ctypes.get_errno(), "?")
done = subprocess.run(["unshare", "-Ur", "sh", "-c", "mount -t tmpfs none /tmp && echo mounted"],
                      capture_output=True, text=True)
seen["unshare -Ur"] = [done.returncode, done.stdout.strip()]
print(json.dumps(seen), flush=True)
sys.stdin.readline()
'''


@pytest.mark.parametrize("sandbox", SANDBOX)
async def test_a_bot_sees_no_cgroup_but_its_own_and_makes_no_user_namespace(marker: str, sandbox: bool) -> None:
    import json

    async with open_bot_process([sys.executable, "-c", "import sys; sys.stdin.readline()", marker],
                                sandbox=sandbox) as victim:
        assert victim.cgroup is not None
        theirs = [str(folder / name) for folder in victim.cgroup.folders.values()
                  for name in ("cgroup.procs", "cpu.stat", "cpu.pressure", "cgroup.freeze", "memory.usage_in_bytes")
                  if (folder / name).exists()]
        runs = [str(folder.parent.parent) for folder in victim.cgroup.folders.values()]
        assert theirs
        async with open_bot_process([sys.executable, "-c", PEEK, marker, *theirs, *runs], sandbox=sandbox) as peeker:
            with trio.fail_after(60):
                seen = json.loads(await peeker.read_line())
    for path in [*theirs, *runs]:
        assert not seen[path].startswith("read"), (path, seen[path])
    # Its own cgroup alone, where its hierarchy was mounted: no folder below it (other cgroups).
    assert all(root.count("/") <= 4 and "arena-" not in root for root in seen["listed"]), seen["listed"]
    assert not any("arena-" in line for line in seen["self"]), seen["self"]  # its own cgroup is its root
    if "limit" in seen:  # it finds its own memory limit, as in a container (a JVM sizes its heap by it)
        assert seen["limit"] == str(1024 << 20), seen["limit"]
    assert seen["unshare"] == "EPERM"
    assert seen["unshare -Ur"][0] != 0 and seen["unshare -Ur"][1] != "mounted", seen["unshare -Ur"]
    assert_no_leftovers(marker)


SPENDER = Path(__file__).resolve().with_name("spender_bot.py")


def spender(marker: str, procs: int, wall_ms: int) -> str:
    import shlex

    return shlex.join([BOT_PYTHON, "-u", str(SPENDER), marker, str(procs), str(wall_ms)])


def spent(log: Path) -> list[tuple[float, float]]:
    """(wall ms of the turn, CPU ms used so far) of each turn a spender bot replied to."""
    return [(float(line.split()[2]), float(line.split()[3])) for line in log.read_text().splitlines()
            if line.startswith("REPORT wall ")]


async def test_a_bot_gains_no_time_from_its_own_cpu_pressure(marker: str, tmp_path: Path) -> None:
    # Six busy processes of one bot beside a busy loop, each turn spinning 400 ms of wall time on a
    # game budget of 1.5 s. Its own processes keep its cgroup's CPU pressure near 100%, which the
    # stall credit gave back: it was charged a tenth of its turns and played on. It is owed only the
    # CPU it did not get (of one), so it runs out of time however busy the machine is.
    hog = AgentSpec("hog", command=spender(marker, 6, 400))
    other = AgentSpec("other", command=hostile_command(marker, "checkers", "plain", "-"))
    budget_ms, margin_ms = 1500, 20
    with busy_loops(marker, 1, seconds=300):
        record = await play_game(configured_game("checkers"), hog, other, time_control=TimeControl(
            time_limit_ms=budget_ms, time_margin_ms=margin_ms, startup_ms=10000), max_moves=400,
            stderr_dir=tmp_path, game_index=0, isolation=Isolation(sandbox=True))
    assert record["termination"] == "timeout" and record["winner"] == "WHITE", record["reason"]
    turns = spent(tmp_path / "00000-black-hog.log")
    assert len(turns) >= 2, turns
    # A turn is charged its wall time, or when that is late, at least the CPU the bot used: the
    # lesser of the two, summed over the turns after the first (charged after the start-up
    # allowance), stays within the budget (each turn may end up to the margin late, and 15 ms a turn
    # for what arena's and the bot's clocks see differently). Before the fix: 12 s and more.
    owed = [min(wall, cpu - before) for (wall, cpu), (_, before) in zip(turns[1:], turns, strict=False)]
    assert sum(owed) <= budget_ms + len(owed) * (margin_ms + 15), turns
    assert_no_leftovers(marker, wait=5.0)
