"""This arena process's cgroup folders: the run's folder, the bots' folders in it, and the sweep.

Standard library only (the guardian imports it). Each bot's cgroup is ``<arena's own
cgroup>/arena-<pid>-<start time>-<pid namespace>/bot-<n>`` in every hierarchy used
(:class:`arena.process.cgroups.Layout`; created under arena's own cgroup so the container's limits
still apply; the run's folder names its arena process, so the guardian can find it). Once its bot
is gone, a ``bot-<n>`` folder set goes back to its agent's pool (:meth:`RunCgroups.create` with
``agent``): the agent's later bots reuse it, one bot at a time; the run's end removes it.

Stale run folders (arena killed with its guardian, a Ray worker torn down with its children) are
removed by the next arena's first bot (:func:`sweep_stale`). The cgroup file systems are shared by
every PID namespace on the machine while a pid means something only in its own namespace, so a
run folder's liveness is not judged from its name: its arena holds an exclusive ``flock`` on it
for as long as it lives (:func:`claim_folder`), and a folder whose lock can be taken is stale,
whichever namespace made it.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import time
from collections.abc import Hashable
from pathlib import Path

from arena.process.cgroups import BotCgroup, Layout, _procs, _write, layout

RUN_PREFIX = "arena-"


def start_time(pid: int) -> str | None:
    """The process's start time (clock ticks since boot) from ``/proc/<pid>/stat``: with the pid,
    it names one process for ever (a pid alone may be reused)."""
    try:
        data = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    return data[data.rfind(b")") + 2:].split()[19].decode()


def pid_namespace() -> str:
    """This process's PID namespace (the inode number of ``/proc/self/ns/pid``; '0' if unknown)."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "0"


def run_folder_name(pid: int | None = None, start: str | None = None) -> str:
    """``arena-<pid>-<start time>-<pid namespace>`` of arena process ``pid`` (default: this one;
    another process must be in this one's PID namespace, as the guardian is in its arena's).
    ``start``: its start time, when known (read from ``/proc`` otherwise)."""
    pid = os.getpid() if pid is None else pid
    return f"{RUN_PREFIX}{pid}-{start or start_time(pid) or 0}-{pid_namespace()}"


def _is_run_folder(name: str) -> bool:
    """Whether ``name`` is a :func:`run_folder_name` (so its liveness is its lock). Other names,
    an older arena's ``arena-<pid>-<start time>`` among them, are never swept: their liveness
    cannot be told from another PID namespace."""
    fields = name[len(RUN_PREFIX):].split("-") if name.startswith(RUN_PREFIX) else []
    return len(fields) == 3 and all(f.isdigit() for f in fields)


def claim_folder(folder: Path, mode: int = 0o777, rounds: int = 200) -> int:
    """Make ``folder`` (``mode``, if needed; never through a link) and take its lock for the life
    of this process: the locked descriptor (close-on-exec: no bot inherits it). The lock is how a
    run folder or a scratch root is known to be alive, from any PID namespace. A sweeper may
    remove the folder between the ``mkdir`` and the lock (it was not locked yet): then once more.
    OSError if the kernel refuses, or the folder stays locked by someone else."""
    for _ in range(rounds):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, mode)
        try:
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:
            continue  # removed by a sweeper since the mkdir
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.path.samestat(os.fstat(fd), os.stat(folder, follow_symlinks=False)):
                return fd
        except (BlockingIOError, FileNotFoundError):
            pass  # a sweeper holds it, or removed it after we opened it
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        time.sleep(0.005)
    raise BlockingIOError(f"the folder {folder} stays locked by another process")


def kill_tree(folder: Path, *, v2: bool, rounds: int = 200) -> None:
    """Kill every process in ``folder`` and its sub-cgroups, then remove them all (bounded; never
    raises). v2 uses ``cgroup.kill``; v1 sends SIGKILL to each listed process, repeatedly (a fork
    between the listing and the signal is caught by the next round)."""
    if not folder.is_dir():
        return
    if v2 and (folder / "cgroup.kill").exists():
        with contextlib.suppress(OSError):
            _write(folder / "cgroup.kill", "1")
    children = []
    with contextlib.suppress(OSError):
        children = [folder / e.name for e in os.scandir(folder) if e.is_dir(follow_symlinks=False)]
    for child in children:
        kill_tree(child, v2=v2, rounds=rounds)
    for _ in range(rounds):
        pids = _procs(folder)
        if not pids:
            with contextlib.suppress(OSError):
                os.rmdir(folder)
            if not folder.exists():
                return
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        time.sleep(0.005)


def sweep_stale(current: Layout | None = None) -> int:
    """Kill and remove the run folders of arena processes that are gone (a run killed with its
    guardian, a Ray worker torn down). Returns how many were removed. Never raises."""
    current = layout() if current is None else current
    if current is None:
        return 0
    removed = 0
    for root in current.folders():
        with contextlib.suppress(OSError):
            for entry in os.scandir(root):
                if entry.name.startswith(RUN_PREFIX) and entry.is_dir(follow_symlinks=False):
                    removed += _sweep_one(Path(entry.path), v2=root == current.v2)
    return removed


def _sweep_one(folder: Path, *, v2: bool) -> int:
    """Kill and remove run folder ``folder`` if its arena is gone (holding its lock meanwhile, so
    that no other sweeper works on it at the same time); 1 if it was, else 0."""
    if not _is_run_folder(folder.name):
        return 0
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return 0
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0  # its arena lives
        kill_tree(folder, v2=v2)
        return 1
    finally:
        os.close(fd)


def kill_run_folder(name: str, current: Layout | None = None) -> None:
    """Kill everything in the run folders called ``name`` (:func:`run_folder_name` of an arena
    process) and remove them: the guardian calls this when arena is gone. Never raises."""
    current = layout() if current is None else current
    if current is None:
        return
    for root in current.folders():
        kill_tree(root / name, v2=root == current.v2)


class RunCgroups:
    """This arena process's run folders, made on first use; :meth:`create` makes a bot's cgroup."""

    def __init__(self, current: Layout) -> None:
        self.layout = current
        self.name = run_folder_name()
        self.owner = os.getpid()
        self._made = False
        self._count = 0
        self._locks: dict[Path, int] = {}  # run folder -> its locked descriptor
        # (agent, memory MB, max processes) -> folders given back by that agent's finished bots.
        self._pools: dict[tuple[Hashable, int | None, int | None], list[BotCgroup]] = {}

    def _roots(self) -> dict[str, Path]:
        lay = self.layout
        roots: dict[str, Path] = {}
        if lay.v2 is not None:
            roots["v2"] = lay.v2 / self.name
        elif lay.v1_freezer is not None:
            roots["freezer"] = lay.v1_freezer / self.name
            if lay.v1_cpuacct is not None:
                roots["cpuacct"] = lay.v1_cpuacct / self.name
        if lay.memory == "v1" and lay.v1_memory is not None:
            roots["memory"] = lay.v1_memory / self.name
        if lay.pids == "v1" and lay.v1_pids is not None:
            roots["pids"] = lay.v1_pids / self.name
        return roots

    def create(self, *, memory_mb: int | None, max_processes: int | None, agent: Hashable = None) -> BotCgroup:
        """A cgroup for one bot with these limits (None: no limit), which holds no other process.
        ``agent`` (None: none): what names the bot's agent in this run; its finished bots' folders
        are reused (:meth:`BotCgroup.reborn`): one set per bot alive at a time, so the limits stay
        per bot, and the folders are made once per agent per run, not once per game. OSError if
        the kernel refuses (out of cgroups, say): arena's failure, not the bot's."""
        pool = None
        if agent is not None:
            pool = self._pools.setdefault((agent, memory_mb, max_processes), [])
            if pool:
                return pool.pop().reborn()
        roots = self._roots()
        if not self._made:
            sweep_stale(self.layout)
            for root in roots.values():
                if root not in self._locks:  # a second try after a failure keeps what it holds
                    self._locks[root] = claim_folder(root)
            if "v2" in roots and self.layout.v2_controllers & {"memory", "pids"}:
                wanted = sorted(self.layout.v2_controllers & {"memory", "pids"})
                with contextlib.suppress(OSError):
                    _write(self.layout.v2 / "cgroup.subtree_control", " ".join("+" + c for c in wanted))  # type: ignore[operator]
                with contextlib.suppress(OSError):
                    _write(roots["v2"] / "cgroup.subtree_control", " ".join("+" + c for c in wanted))
            self._made = True
        self._count += 1
        name = f"bot-{self._count}"
        folders: dict[str, Path] = {}
        try:
            for kind, root in roots.items():
                folder = root / name
                with contextlib.suppress(FileExistsError):
                    os.mkdir(folder)
                folders[kind] = folder
            memory_bytes = memory_mb * (1 << 20) if memory_mb else None
            if memory_bytes is not None:
                if "memory" in folders:
                    _write(folders["memory"] / "memory.limit_in_bytes", str(memory_bytes))
                    with contextlib.suppress(OSError):  # no swap past the limit, where swap is accounted
                        _write(folders["memory"] / "memory.memsw.limit_in_bytes", str(memory_bytes))
                elif self.layout.memory == "v2" and (folders["v2"] / "memory.max").exists():
                    _write(folders["v2"] / "memory.max", str(memory_bytes))
                    with contextlib.suppress(OSError):
                        _write(folders["v2"] / "memory.swap.max", "0")
            if max_processes:
                if "pids" in folders:
                    _write(folders["pids"] / "pids.max", str(max_processes))
                elif self.layout.pids == "v2" and (folders["v2"] / "pids.max").exists():
                    _write(folders["v2"] / "pids.max", str(max_processes))
        except OSError:
            for folder in folders.values():
                with contextlib.suppress(OSError):
                    os.rmdir(folder)
            raise
        return BotCgroup(self.layout, folders, memory_bytes, pool=pool)

    def remove(self) -> None:
        """Remove the run folders (at exit, after every bot's teardown), then let go of their
        locks; only in the process that made them (a forked copy of arena exiting runs this too,
        and shares the locks). Never raises."""
        if self.owner != os.getpid():
            return
        for pool in self._pools.values():
            for cgroup in pool:
                cgroup.remove()
        self._pools.clear()
        for root in self._roots().values():
            with contextlib.suppress(OSError):
                os.rmdir(root)
        for fd in self._locks.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._locks.clear()


_run: RunCgroups | None = None
_run_pid = 0  # the process _run was made by


def for_run() -> RunCgroups | None:
    """This process's :class:`RunCgroups` (None when cgroups cannot be used here)."""
    global _run, _run_pid
    current = layout()
    if current is None:
        return None
    # A forked copy of arena starts afresh. (Its pid tells it: the folder's name is a constant of
    # the process, and reading it from /proc again for every bot cost more than the rest of this.)
    if _run is None or _run_pid != os.getpid():
        _run, _run_pid = RunCgroups(current), os.getpid()
        atexit.register(_run.remove)
    return _run

