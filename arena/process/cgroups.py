"""A control group per bot: freeze and thaw, kill everything in it, limits, CPU time, OOM events.

Standard library only (the guardian imports it). Linux; arena must be able to write the cgroup
file systems (root, or a delegated subtree): otherwise :func:`layout` is None and arena falls back
to process groups and signals (:mod:`arena.process.bot`).

Machines differ. :func:`layout` reads ``/proc/self/mountinfo`` and ``/proc/self/cgroup`` and finds:

- a cgroup v2 hierarchy (pure v2 at ``/sys/fs/cgroup`` or the hybrid ``.../unified``). Even with no
  controller enabled it offers ``cgroup.freeze`` (Linux 5.2), ``cgroup.kill`` (5.14) and
  ``cpu.stat``; on a pure v2 machine it also offers the ``memory`` and ``pids`` controllers;
- the v1 controllers ``memory``, ``pids``, ``freezer`` and ``cpuacct`` where v2 lacks them.

Where a bot's folders are made, kept and swept (a run's folder under arena's own cgroup, pools
per agent): :mod:`arena.process.runcgroups`.

A process is put into its cgroups by pid (:meth:`BotCgroup.attach`) before it may run any code of
the bot's: see :mod:`arena.process.spawn` for the hand-shake.
"""

from __future__ import annotations

import contextlib
import functools
import os
from dataclasses import dataclass, field
from pathlib import Path

#: Defaults for the per-bot limits (config ``memoryMb``, ``maxProcesses``, ``scratchMb``).
DEFAULT_MEMORY_MB = 1024
DEFAULT_MAX_PROCESSES = 128
DEFAULT_SCRATCH_MB = 256

@dataclass(frozen=True)
class Layout:
    """Where each feature lives: the folder of arena's own cgroup in that hierarchy, or None.

    ``v2`` is the unified hierarchy (freeze, kill, CPU time; memory and pids too when
    ``v2_controllers`` has them); the ``v1_*`` folders are v1 controllers used for what v2 lacks.
    """

    v2: Path | None
    v2_controllers: frozenset[str] = frozenset()
    v1_memory: Path | None = None
    v1_pids: Path | None = None
    v1_freezer: Path | None = None
    v1_cpuacct: Path | None = None

    @property
    def memory(self) -> str | None:
        if self.v2 is not None and "memory" in self.v2_controllers:
            return "v2"
        return "v1" if self.v1_memory is not None else None

    @property
    def pids(self) -> str | None:
        if self.v2 is not None and "pids" in self.v2_controllers:
            return "v2"
        return "v1" if self.v1_pids is not None else None

    def describe(self) -> str:
        """One line for a run header and ``arena doctor``: which hierarchy does what."""
        parts = []
        if self.v2 is not None:
            parts.append("freeze, kill and CPU time from cgroup v2")
        elif self.v1_freezer is not None:
            parts.append("freeze from the v1 freezer")
        parts.append(f"memory limit from {'cgroup ' + self.memory if self.memory else 'nothing (none set)'}")
        parts.append(f"task limit from {'cgroup ' + self.pids if self.pids else 'nothing (none set)'}")
        return "; ".join(parts)

    def folders(self) -> list[Path]:
        """Every hierarchy folder this layout uses (arena's own cgroup in each)."""
        found = [self.v2, self.v1_memory if self.memory == "v1" else None,
                 self.v1_pids if self.pids == "v1" else None,
                 self.v1_freezer if self.v2 is None else None,
                 self.v1_cpuacct if self.v2 is None else None]
        return [f for f in found if f is not None]


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, fs type, super options) of every cgroup mount."""
    found: list[tuple[str, str, set[str]]] = []
    try:
        text = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return found
    for line in text.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        if fields[3] != "/":  # a bind of a sub-folder (a container's view): paths would not match
            continue
        point = fields[4].replace("\\040", " ")
        found.append((point, tail[0], set(tail[2].split(","))))
    return found


@functools.cache  # the machine's mounts do not move during a run; asked for every bot
def mount_roots() -> tuple[str, ...]:
    """The folders to cover so that no cgroup file system can be reached below them: each cgroup
    mount point, or the tmpfs that holds them (``/sys/fs/cgroup`` of a v1 or hybrid machine), the
    outermost only. A bot shown none of them learns nothing of its opponent's cgroup or other runs'."""
    kinds: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) >= 5 and tail:
                kinds[fields[4].replace("\\040", " ")] = tail[0]
    found = set()
    for point, kind in kinds.items():
        if kind in ("cgroup", "cgroup2"):
            parent = os.path.dirname(point)
            found.add(parent if kinds.get(parent) == "tmpfs" and parent not in ("/", "/sys", "/sys/fs") else point)
    return tuple(sorted(p for p in found if not any(p != o and p.startswith(o.rstrip("/") + "/") for o in found)))


@functools.cache
def _mount_points() -> tuple[str, ...]:
    """The cgroup mount points this process sees, longest first."""
    return tuple(sorted((point for point, _, _ in _mounts()), key=len, reverse=True))


def own_views(cgroup: BotCgroup) -> list[tuple[str, str]]:
    """(folder, the mount point of its hierarchy) for each of the bot's cgroup folders: bound there
    read-only over the hidden cgroup file systems (:func:`mount_roots`), they show the bot its own
    cgroup as a container's (a JVM or Go runtime finds its memory limit) and nothing else."""
    views = []
    for folder in cgroup.folders.values():
        text = str(folder)
        point = next((p for p in _mount_points() if text.startswith(p.rstrip("/") + "/")), None)
        if point is not None:
            views.append((text, point))
    return views


def _own_paths() -> dict[str, str]:
    """arena's cgroup in each hierarchy: '' for v2, else each v1 controller name."""
    paths: dict[str, str] = {}
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return paths
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if not controllers:
            paths[""] = path
        for name in controllers.split(","):
            paths[name] = path
    return paths


def _usable(folder: Path, needs: str) -> bool:
    return os.access(folder, os.W_OK | os.X_OK) and (folder / needs).exists()


def detect() -> Layout | None:
    """The cgroup layout arena can use here, or None (not Linux, no cgroups, not writable)."""
    own = _own_paths()
    v2 = controllers = None
    v1: dict[str, Path] = {}
    for point, kind, options in _mounts():
        if kind == "cgroup2" and "" in own:
            folder = Path(point) / own[""].lstrip("/")
            if _usable(folder, "cgroup.procs"):  # a child folder will have cgroup.freeze and .kill
                v2 = folder
                with contextlib.suppress(OSError):
                    controllers = frozenset((Path(point) / "cgroup.controllers").read_text().split())
        elif kind == "cgroup":
            for name in ("memory", "pids", "freezer", "cpuacct"):
                if name in options and name in own:
                    folder = Path(point) / own[name].lstrip("/")
                    if _usable(folder, "cgroup.procs"):
                        v1[name] = folder
    if v2 is None and "freezer" not in v1:
        return None
    return Layout(v2=v2, v2_controllers=controllers or frozenset(), v1_memory=v1.get("memory"),
                  v1_pids=v1.get("pids"), v1_freezer=v1.get("freezer"), v1_cpuacct=v1.get("cpuacct"))


_layout: Layout | None = None
_layout_read = False


def layout() -> Layout | None:
    """:func:`detect`, once per process."""
    global _layout, _layout_read
    if not _layout_read:
        _layout, _layout_read = detect(), True
    return _layout


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _read(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, 65536).decode()
    finally:
        os.close(fd)


def _keyed(path: Path) -> dict[str, int]:
    """A flat-keyed cgroup file (``cpu.stat``, ``memory.events``...) as a dict; {} if unreadable."""
    result: dict[str, int] = {}
    with contextlib.suppress(OSError):
        for line in _read(path).splitlines():
            key, _, value = line.partition(" ")
            with contextlib.suppress(ValueError):
                result[key] = int(value)
    return result


def _procs(folder: Path) -> list[int]:
    """The pids in ``folder``, as this PID namespace sees them. A process outside the namespace is
    listed as 0 (v1): left out, since ``kill(0, ...)`` would signal our own process group."""
    with contextlib.suppress(OSError):
        return [pid for pid in map(int, _read(folder / "cgroup.procs").split()) if pid > 0]
    return []


@dataclass(eq=False)  # one object per bot: compared and hashed by identity
class BotCgroup:
    """One bot's cgroups (one folder per hierarchy used). Build with :meth:`arena.process.runcgroups.RunCgroups.create`.

    With a ``pool`` (one agent's, for one set of limits), the folders outlive the bot: once the
    bot's processes are gone, :meth:`recycle` puts them back there and the agent's next bot gets
    them through :meth:`reborn`, a new object whose counters (CPU time, stalls, OOM kills, refused
    forks) start from zero. The old object is closed: it never reads, signals or freezes again.
    """

    layout: Layout
    folders: dict[str, Path]  # "v2", "memory", "pids", "freezer", "cpuacct" -> folder
    memory_bytes: int | None
    frozen: bool = False
    pool: list[BotCgroup] | None = field(default=None, repr=False)
    # The counters when this bot got the folders (cpu s, stall s, OOM kills, refused forks).
    _base: tuple[float, float, int, int] = (0.0, 0.0, 0, 0)
    _cpu_fd: int = -1
    _stall_fd: int = -1
    _oom_fd: int = -1
    _freeze_fd: int = -1
    _events_fd: int = -1
    _closed: bool = field(default=False, repr=False)

    def attach(self, pid: int) -> None:
        """Move process ``pid`` into every folder (OSError if one refuses)."""
        for folder in self.folders.values():
            _write(folder / "cgroup.procs", str(pid))

    # -- freezing ---------------------------------------------------------------------------------

    def freeze(self) -> None:
        """Stop every process of the bot, whatever it did (setsid, a scrubbed environment...)."""
        if self.frozen or self._closed:
            return
        self.frozen = True
        with contextlib.suppress(OSError):
            os.pwrite(self._freezer(), b"1" if "v2" in self.folders else b"FROZEN", 0)

    def thaw(self) -> None:
        if not self.frozen or self._closed:
            return
        self.frozen = False
        with contextlib.suppress(OSError):
            os.pwrite(self._freezer(), b"0" if "v2" in self.folders else b"THAWED", 0)

    def _freezer(self) -> int:
        if self._freeze_fd < 0:
            name = "cgroup.freeze" if "v2" in self.folders else "freezer.state"
            self._freeze_fd = os.open(self.folders["v2" if "v2" in self.folders else "freezer"] / name,
                                      os.O_WRONLY | os.O_CLOEXEC)
        return self._freeze_fd

    # -- accounting --------------------------------------------------------------------------------

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) used so far by every process of the bot, or None if unknown."""
        used = self._cpu_total()
        return used - self._base[0] if used is not None else None

    def _cpu_total(self) -> float | None:
        if self._closed:
            return None
        try:
            if self._cpu_fd < 0:
                if "v2" in self.folders:
                    self._cpu_fd = os.open(self.folders["v2"] / "cpu.stat", os.O_RDONLY | os.O_CLOEXEC)
                elif "cpuacct" in self.folders:
                    self._cpu_fd = os.open(self.folders["cpuacct"] / "cpuacct.usage", os.O_RDONLY | os.O_CLOEXEC)
                else:
                    return None
            data = os.pread(self._cpu_fd, 4096, 0)
        except OSError:
            return None
        if "v2" in self.folders:
            head = data.split(b"\n", 1)[0]  # usage_usec N
            return int(head.split()[1]) / 1e6 if head.startswith(b"usage_usec") else None
        return int(data) / 1e9

    def stall_seconds(self) -> float | None:
        """Time so far during which some process of the bot could run but waited for a CPU (the
        kernel's pressure stall information, ``cpu.pressure``), or None where it is not offered."""
        stalled = self._stall_total()
        return stalled - self._base[1] if stalled is not None else None

    def _stall_total(self) -> float | None:
        if self._closed:
            return None
        try:
            if self._stall_fd < 0:
                if "v2" not in self.folders:
                    return None
                self._stall_fd = os.open(self.folders["v2"] / "cpu.pressure", os.O_RDONLY | os.O_CLOEXEC)
            head = os.pread(self._stall_fd, 4096, 0).split(b"\n", 1)[0]  # some avg10=... total=N
        except OSError:
            return None
        total = head.rpartition(b"total=")[2]
        return int(total) / 1e6 if total.isdigit() else None

    def oom_kills(self) -> int:
        """How many of the bot's processes the kernel killed for exceeding its memory limit (read
        every turn: the file stays open)."""
        return self._oom_total() - self._base[2] if not self._closed else 0

    def _oom_total(self) -> int:
        if self._closed:
            return 0
        try:
            if self._oom_fd < 0:
                if "memory" in self.folders:
                    path = self.folders["memory"] / "memory.oom_control"
                elif self.layout.memory == "v2":
                    path = self.folders["v2"] / "memory.events"
                else:
                    return 0
                self._oom_fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            data = os.pread(self._oom_fd, 4096, 0)
        except OSError:
            return 0
        found = data.rpartition(b"oom_kill ")[2].split(b"\n", 1)[0]
        return int(found) if found.isdigit() else 0

    def task_limit_hits(self) -> int:
        """How many forks the task limit refused."""
        return self._refused_total() - self._base[3] if not self._closed else 0

    def _refused_total(self) -> int:
        if self._closed:
            return 0
        if "pids" in self.folders:
            return _keyed(self.folders["pids"] / "pids.events").get("max", 0)
        if self.layout.pids == "v2":
            return _keyed(self.folders["v2"] / "pids.events").get("max", 0)
        return 0

    def procs(self) -> list[int]:
        """The bot's processes now."""
        if self._closed:
            return []
        return _procs(next(iter(self.folders.values())))

    def populated(self) -> bool:
        """Whether any process is left in the bot's cgroup."""
        if "v2" in self.folders:
            # Kept open: teardown asks this every half millisecond until the kernel has emptied it.
            try:
                if self._events_fd < 0:
                    self._events_fd = os.open(self.folders["v2"] / "cgroup.events", os.O_RDONLY | os.O_CLOEXEC)
                data = os.pread(self._events_fd, 4096, 0)
            except OSError:
                return False
            return b"populated 1" in data
        return any(_procs(folder) for folder in self.folders.values())

    # -- the end -----------------------------------------------------------------------------------

    def signal_all(self, sig: int, skip: int | None = None) -> None:
        """Send ``sig`` to every process of the bot but ``skip`` (never raises)."""
        for pid in self.procs():
            if pid != skip:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)

    def kill(self) -> None:
        """SIGKILL every process of the bot at once (frozen ones included). Never raises."""
        if self._closed:
            return  # given back: the folders may hold another bot of the same agent by now
        if "v2" in self.folders:
            with contextlib.suppress(OSError):  # no cgroup.kill before Linux 5.14: one by one below
                _write(self.folders["v2"] / "cgroup.kill", "1")
                return
        for folder in self.folders.values():
            for pid in _procs(folder):
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
        self.frozen = True
        self.thaw()  # v1: a frozen process acts on SIGKILL only once thawed

    def recycle(self) -> bool:
        """Give the folders back once the bot's processes are gone (True), to its :attr:`pool`
        if it has one (thawed, for :meth:`reborn`), else by :meth:`remove`. A folder that still
        holds a process is never pooled: it is removed if it can be (False when it cannot)."""
        if self.pool is None or self._closed or self.populated():
            return self.remove()
        self.thaw()  # a bot killed while frozen leaves its folder frozen
        self._close()  # a pooled folder set holds no descriptor: a run may be short of them
        self.pool.append(self)
        return True

    def reborn(self) -> BotCgroup:
        """A new object over these (pooled, empty) folders for the agent's next bot; its counters
        start from what they are now."""
        new = BotCgroup(self.layout, self.folders, self.memory_bytes, pool=self.pool)
        new._base = (new._cpu_total() or 0.0, new._stall_total() or 0.0, new._oom_total(), new._refused_total())
        return new

    def _close(self) -> None:
        self._closed = True
        for fd in (self._cpu_fd, self._stall_fd, self._oom_fd, self._freeze_fd, self._events_fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._cpu_fd = self._stall_fd = self._oom_fd = self._freeze_fd = self._events_fd = -1

    def remove(self) -> bool:
        """Close our descriptors and remove the folders (True when all are gone). The bot's
        processes must be dead: a folder that still holds one stays (and False is returned)."""
        self._close()
        gone = True
        for folder in self.folders.values():
            try:
                os.rmdir(folder)
            except FileNotFoundError:
                pass
            except OSError:
                gone = False
        return gone
