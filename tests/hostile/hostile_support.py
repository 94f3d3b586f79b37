"""Helpers for the hostile-bot tests: the hostile bot (``hostile_bot.py``: one program, one mode per
misbehaviour), the Python any user can run it with, its reports, finding and killing what it left
behind, and the bounds a test puts around an attack it cannot trust arena to contain (a cgroup of
its own for memory and tasks, a small tmpfs for a disk filler).

The bot's argv: marker, game, mode, workdir[, options] (see hostile_bot.py). A bot reports what it
saw by writing files in ``workdir``; with ``-`` it writes ``REPORT <name> <text>`` lines on stderr
(read them from the stderr logs with :func:`reports`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from helpers import eventually

BOT_FILE = Path(__file__).resolve().with_name("hostile_bot.py")


def _runnable_by_anyone(path: str) -> bool:
    """Whether a user other than the owner may execute ``path`` (every folder on the way searchable)."""
    real = Path(os.path.realpath(path))
    try:
        if not real.stat().st_mode & stat.S_IXOTH:
            return False
        return all(parent.stat().st_mode & stat.S_IXOTH for parent in real.parents)
    except OSError:
        return False


def _bot_python() -> str:
    """A Python >= 3.11 that any user can execute: bots may run under a uid of their own (issue 18),
    and this interpreter may live under /root (pyenv). Falls back to ``sys.executable``."""
    if _runnable_by_anyone(sys.executable):
        return sys.executable
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if _runnable_by_anyone(candidate):
            done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                                  capture_output=True, text=True, check=False, timeout=30)
            if done.stdout.strip() == "True":
                return candidate
    return sys.executable


#: The interpreter hostile bots run with (see :func:`_bot_python`).
BOT_PYTHON = _bot_python()


def hostile_argv(marker: str, game: str, mode: str, workdir: Path | str,
                 options: Mapping[str, Any] | None = None) -> list[str]:
    """argv of a hostile bot (``marker`` is in its argv and in its children's; ``options`` as JSON)."""
    argv = [BOT_PYTHON, "-u", str(BOT_FILE), marker, game, mode, str(workdir)]
    if options:
        argv.append(json.dumps(dict(options)).encode().hex())
    return argv


def hostile_command(marker: str, game: str, mode: str, workdir: Path | str,
                    options: Mapping[str, Any] | None = None) -> str:
    """The same as a command string for an AgentSpec or a config's ``path`` (split by shlex)."""
    return shlex.join(hostile_argv(marker, game, mode, workdir, options))


def reports(folder: Path, name: str | None = None) -> list[tuple[str, str, str]]:
    """(log file name, report name, text) of every ``REPORT`` line in the logs under ``folder``
    (only those called ``name`` if given), in file-name order."""
    found = []
    if not folder.is_dir():
        return found
    for log in sorted(folder.rglob("*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("REPORT "):
                _, what, text = (line.split(" ", 2) + [""])[:3]
                if name is None or what == name:
                    found.append((log.name, what, text))
    return found


def kill_marked(marker: str, exclude: Sequence[int] = ()) -> int:
    """SIGKILL every process whose command line carries ``marker`` (by pid; never this process or
    ``exclude``); how many there were."""
    from engine_support import processes_matching

    pids = processes_matching(marker, tuple(exclude))
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)


def survivors(marker: str, exclude: Sequence[int] = (), wait: float = 0.0) -> list[int]:
    """Live processes carrying ``marker`` after up to ``wait`` s for them to go (zombies excluded)."""
    from engine_support import processes_matching

    deadline = time.monotonic() + wait
    while True:
        left = [p for p in processes_matching(marker, tuple(exclude)) if proc_state(p) not in (None, "Z", "X")]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def ids_of(pid: int) -> dict[str, list[int]] | None:
    """``Uid``, ``Gid`` (real, effective, saved, fs) and ``Groups`` of ``pid`` as the kernel reports
    them from outside any namespace (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    found = {}
    for line in lines:
        key, _, value = line.partition(":")
        if key in ("Uid", "Gid", "Groups"):
            found[key] = [int(v) for v in value.split()]
    return found


def argv_of(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [w.decode(errors="replace") for w in f.read().split(b"\0") if w]
    except OSError:
        return []


# -- bounds a test puts around an attack ----------------------------------------------------------


def _v1_hierarchy(controller: str) -> Path | None:
    """Where this process's own cgroup of the v1 ``controller`` is (from /proc/self/mountinfo and
    /proc/self/cgroup), or None without such a hierarchy."""
    mount = None
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields = right.split()
            if len(fields) >= 3 and fields[0] == "cgroup" and controller in fields[2].split(","):
                parts = left.split()
                mount = (parts[3], Path(parts[4]))
                break
    if mount is None:
        return None
    root, point = mount
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            if controller in controllers.split(","):
                relative = path[len(root):] if root != "/" and path.startswith(root) else path
                return point / relative.lstrip("/")
    return None


def cgroups_usable() -> str | None:
    """None when :class:`BoundCgroup` works here, else why not (for a skip)."""
    if os.geteuid() != 0:
        return "a cgroup of the test's own needs root"
    for controller in ("memory", "pids"):
        if _v1_hierarchy(controller) is None:
            return f"no cgroup v1 {controller} hierarchy here"
    return None


class BoundCgroup:
    """A v1 memory and pids cgroup of the test's own, below its own cgroups, holding an arena
    command and everything it starts (unless arena moves its bots elsewhere): the bound of a memory
    hog (``memory_mb``) or a fork bomb (``pids_max``). On exit every process still inside is
    SIGKILLed by pid, and the cgroups are removed."""

    def __init__(self, memory_mb: int | None = None, pids_max: int | None = None) -> None:
        self.name = f"arena-hostile-{uuid.uuid4().hex[:12]}"
        self.paths: dict[str, Path] = {}
        self.limits = {"memory": memory_mb, "pids": pids_max}

    def __enter__(self) -> Self:
        why = cgroups_usable()
        if why is not None:
            raise RuntimeError(why)
        try:
            for controller in ("memory", "pids"):
                base = _v1_hierarchy(controller)
                assert base is not None
                path = base / self.name
                path.mkdir()
                self.paths[controller] = path
            if self.limits["memory"] is not None:
                (self.paths["memory"] / "memory.limit_in_bytes").write_text(str(self.limits["memory"] << 20))
            if self.limits["pids"] is not None:
                (self.paths["pids"] / "pids.max").write_text(str(self.limits["pids"]))
        except BaseException:
            self.__exit__()
            raise
        return self

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """``argv`` run inside the cgroups (a shell writes its pid into them, then execs)."""
        procs = [str(p / "cgroup.procs") for p in self.paths.values()]
        script = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'
        return ["/bin/sh", "-c", script, "sh", *procs, "--", *argv]

    def pids(self) -> list[int]:
        """Every process in the cgroups, those arena put in cgroups of its own below them included."""
        found: set[int] = set()
        for path in self.paths.values():
            for folder, _, _ in os.walk(path):
                with contextlib.suppress(OSError):
                    found.update(int(p) for p in (Path(folder) / "cgroup.procs").read_text().split())
        return sorted(found)

    def oom_kills(self) -> int:
        """Processes the kernel's OOM killer killed in the memory cgroup so far."""
        with contextlib.suppress(OSError, KeyError):
            text = (self.paths["memory"] / "memory.oom_control").read_text()
            return int(dict(line.split() for line in text.splitlines())["oom_kill"])
        return 0

    def task_limit_hits(self) -> int:
        """Forks refused because the pids cgroup was full."""
        with contextlib.suppress(OSError, KeyError, ValueError):
            return int((self.paths["pids"] / "pids.events").read_text().split()[1])
        return 0

    def __exit__(self, *exc: object) -> None:
        deadline = time.monotonic() + 20
        while (left := self.pids()) and time.monotonic() < deadline:
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)
        for path in self.paths.values():
            # Innermost first: cgroups arena made below ours and left behind, then ours.
            for folder in [Path(f) for f, _, _ in os.walk(path, topdown=False)]:
                for _ in range(100):
                    try:
                        folder.rmdir()
                        break
                    except FileNotFoundError:
                        break
                    except OSError:
                        time.sleep(0.05)


@contextlib.contextmanager
def small_tmpfs(size_mb: int) -> Iterator[Path]:
    """A tmpfs of ``size_mb`` mounted for the test (mode 1777, like /tmp): a disk an attack may fill.
    Needs root; unmounted (lazily, should something still hold it) and removed on exit."""
    path = Path(tempfile.mkdtemp(prefix="arena-hostile-tmpfs-"))
    try:
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=1777", "tmpfs", str(path)],
                       check=True, capture_output=True, timeout=30)
    except BaseException:
        path.rmdir()
        raise
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True, timeout=30)
        with contextlib.suppress(OSError):
            path.rmdir()


@contextlib.contextmanager
def public_folder(prefix: str) -> Iterator[Path]:
    """A folder every user may read and enter (a bot with a uid of its own must be able to run in
    it, which pytest's tmp_path, under a 0700 folder, does not allow); removed on exit."""
    import shutil

    path = Path(tempfile.mkdtemp(prefix=prefix + "-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def wait_for_file(path: Path, timeout: float = 10.0) -> str:
    """The text of ``path`` once it exists (hang backstop ``timeout``); AssertionError if it never does."""
    eventually(path.exists, timeout, what=f"{path} appears")
    return path.read_text()


def proc_state(pid: int) -> str | None:
    """The one-letter state of ``pid`` from /proc (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()[0]


def reap_adopted_zombies() -> None:
    """Reap zombie children of this process that it did not start itself.

    A process that spawned bots in-process is a child subreaper (see :mod:`arena.process.spawn`), so the
    bots of an arena subprocess that a test killed with SIGKILL are re-parented to the test process
    once they die. Only processes in state Z are touched, and only by their own pid.
    """
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if fields[0] == "Z" and int(fields[1]) == me:
            try:
                os.waitpid(int(entry), os.WNOHANG)
            except ChildProcessError:
                pass


# -- freezing, as the kernel shows it ----------------------------------------------------------------


def _v2_mount() -> Path | None:
    """Where the cgroup v2 hierarchy is mounted (pure v2 or the hybrid ``.../unified``), or None."""
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            if right.split()[:1] == ["cgroup2"]:
                return Path(left.split()[4])
    return None


def v2_cgroup_of(pid: int) -> Path | None:
    """The folder of ``pid``'s cgroup v2 (from ``/proc/<pid>/cgroup``), or None (gone, no v2)."""
    mount = _v2_mount()
    try:
        with open(f"/proc/{pid}/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("0::") and mount is not None:
            return mount / line[3:].lstrip("/")
    return None


def is_frozen(pid: int) -> bool:
    """Whether ``pid``'s cgroup is frozen: ``frozen 1`` in its ``cgroup.events`` (the kernel writes it
    once every process in it has stopped; a frozen process shows 'S' or 'D' in /proc, not 'T')."""
    folder = v2_cgroup_of(pid)
    if folder is None or folder == _v2_mount():
        return False  # no cgroup of its own: the root cgroup is never frozen
    try:
        events = dict(line.split() for line in (folder / "cgroup.events").read_text().splitlines())
    except (OSError, ValueError):
        return False
    return events.get("frozen") == "1"


def cpu_ticks(pid: int) -> int | None:
    """utime + stime of ``pid`` in clock ticks (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[11]) + int(fields[12])


def frozen_and_idle(pids: Sequence[int], settle: float = 5.0, watch: float = 0.3) -> list[tuple[bool, int | None]]:
    """Per pid: (frozen, CPU ticks gained over ``watch`` s), after up to ``settle`` s for all of them
    to show frozen (freezing is asynchronous). A stopped bot's processes must give (True, 0)."""
    deadline = time.monotonic() + settle
    while not all(is_frozen(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.005)
    before = [cpu_ticks(p) for p in pids]
    time.sleep(watch)
    after = [cpu_ticks(p) for p in pids]
    return [(is_frozen(p), None if b is None or a is None else a - b)
            for p, b, a in zip(pids, before, after, strict=True)]


@contextlib.contextmanager
def busy_loops(marker: str, count: int = 1, seconds: float = 300.0) -> Iterator[list[int]]:
    """``count`` processes spinning on a CPU (the "busy machine" an attack is run beside), each
    ending by itself after ``seconds`` and killed by pid on exit; their argv carry ``marker``."""
    code = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"
    procs = [subprocess.Popen([sys.executable, "-c", code, str(seconds), marker + "-busy"]) for _ in range(count)]
    try:
        yield [p.pid for p in procs]
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
