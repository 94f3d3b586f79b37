"""The ``bubblewrap`` sandbox backend (:class:`BubblewrapSandbox`, the default of the
``arena.sandboxes`` group: :mod:`arena.process.sandboxes` holds the contract), the bubblewrap command
line arena's own confinement uses without a sandbox too, and the bots' private scratch folders.

:func:`bot_argv` wraps a bot's argv in ``bwrap`` with:

- ``--unshare-pid``: the bot is in its own PID namespace. It sees only its own processes, and every
  descendant dies with the namespace when the game's teardown kills the group (``setsid`` does not
  escape it); ``--die-with-parent``: the namespace dies with arena's spawner thread (see
  :mod:`arena.process.spawn` for why a thread) — the exec shim's ``--pdeathsig`` covers the outer bwrap;
- ``--unshare-net``, ``--unshare-uts``: no network (a private loopback only);
- ``--unshare-ipc`` (with the sandbox off too): System V IPC and POSIX message queues of its own,
  gone with the game (a queue or segment left behind would reach a later bot given the same uid);
- ``--unshare-cgroup-try`` and an empty tmpfs over the cgroup file systems (with the sandbox off
  too), its own cgroup shown read-only where its hierarchy was mounted: a bot sees neither its
  opponent's cgroup (frozen or not, CPU time, pressure) nor other runs', and finds its own limits
  as in a container (:func:`arena.process.cgroups.mount_roots`, :func:`~arena.process.cgroups.own_views`);
- an empty read-only root showing only what the bot needs (:mod:`arena.process.view`:
  :func:`system_mounts`, :func:`view_mounts`), ``--dev /dev``, ``--proc /proc``, and its private
  ``/tmp`` and ``/dev/shm`` (size-bounded tmpfs, its ``HOME`` and ``TMPDIR``); with the sandbox
  off, the real filesystem (``--dev-bind / /``) and those private folders;
- a log folder inside what it is shown covered (an empty tmpfs): the bot's stderr folder, the
  tournament folder that holds it and, when it can be told, the folder of all tournaments;
- ``--cap-drop ALL`` when arena runs as root;
- ``--seccomp FD`` (:mod:`arena.process.seccomp`): ``setsid`` and ``setpgid`` fail with EPERM, so every
  process the bot starts stays in its process group, stopped between turns with the bot; with the
  sandbox off too: no kernel keyring (it outlives the game) and no user namespace of its own.

No ``--new-session``: the bot stays in the process group that arena stops (SIGSTOP) between turns
and kills at the end.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import os
import shutil
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from arena.process import isolation
from arena.process.botuser import PRIVATE_FOLDERS, CommandNeeds
from arena.process.cgroups import mount_roots
from arena.process.guardian import SCRATCH_PREFIX, scratch_root_name
from arena.process.isolation import find_program
from arena.process.runcgroups import claim_folder
from arena.process.sandboxes import SandboxCommand, SandboxRequest
from arena.process.spawn import PASSED_FDS_FROM, PIPES_BACK, guardian_started, run_token, sh_prefix
from arena.process.view import SYSTEM_FOLDERS, BotView

_scratch_root: Path | None = None
_scratch_lock = threading.Lock()


def scratch_root() -> Path:
    """The folder that holds this arena process's scratch folders (made once, removed at exit; if
    arena is killed, by its guardian). It is held locked (``flock``) for as long as this process
    lives, so that :func:`sweep_stale_scratch`, called first, can tell the roots of dead arena
    processes (whose guardian died too) from live ones, whichever PID namespace made them."""
    global _scratch_root
    with _scratch_lock:
        if _scratch_root is None:
            sweep_stale_scratch()
            guardian_started()  # first: a root of a killed arena that no guardian removes would stay
            root = Path(scratch_root_name(os.getpid(), run_token()))
            claim_folder(root, 0o700)  # held (never closed) for this process's life
            _scratch_root = root
            atexit.register(shutil.rmtree, root, True)
        return _scratch_root


def sweep_stale_scratch() -> int:
    """Remove the scratch roots (:func:`scratch_root`) in the temporary folder whose arena process
    is gone (its lock is free): what a killed arena and its killed guardian left, a Ray worker
    torn down with its children by older Ray settings. Returns how many. Never raises."""
    removed = 0
    base = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for name in os.listdir(base):
            fields = name[len(SCRATCH_PREFIX):].split("-") if name.startswith(SCRATCH_PREFIX) else []
            # Only names of this form: an older arena's roots are not locked, so not judged.
            if len(fields) != 3 or not (fields[0].isdigit() and fields[1].isdigit()):
                continue
            path = os.path.join(base, name)
            try:
                fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue  # its arena lives
            try:
                shutil.rmtree(path, ignore_errors=True)
                removed += 1
            finally:
                os.close(fd)
    return removed


def make_scratch() -> Path:
    """A new private scratch folder for one bot (remove it with :func:`remove_scratch`)."""
    return Path(tempfile.mkdtemp(prefix="bot-", dir=scratch_root()))


def remove_scratch(path: Path) -> None:
    """Remove a scratch folder and everything in it (never raises)."""
    with contextlib.suppress(OSError):
        shutil.rmtree(path, ignore_errors=True)


def _real(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.realpath(path))


def _contains(folder: Path, path: Path) -> bool:
    """Whether ``path`` is ``folder`` or inside it (both resolved)."""
    inner, outer = str(path), str(folder)
    return inner == outer or inner.startswith(outer.rstrip("/") + "/")


def folders_to_hide(stderr_dir: Path | None, keep_visible: Sequence[Path]) -> list[Path]:
    """The log folders a bot must not see: ``stderr_dir``; its parent when it is a tournament's
    ``stderr`` folder; that tournament folder's parent when it looks like the logs root (it holds
    other tournament folders). A folder that holds one of ``keep_visible`` (the bot's program or
    working folder) or is ``/`` is left visible."""
    if stderr_dir is None:
        return []
    candidates = [_real(stderr_dir)]
    if candidates[0].name == "stderr":
        tournament = candidates[0].parent
        candidates.append(tournament)
        root = tournament.parent
        if (tournament / "games.jsonl").exists() or (tournament / "config.json").exists():
            candidates.append(root)
    hidden = []
    kept = [_real(p) for p in keep_visible]  # resolved once, not once per candidate
    home = Path.home()
    for folder in candidates:
        if folder == Path("/") or folder == home or not folder.is_dir():
            continue
        if any(_contains(folder, p) for p in kept):
            continue
        hidden.append(folder)
    # Hide outermost first: a tmpfs over a parent makes the inner paths vanish anyway.
    return sorted(set(hidden), key=lambda p: len(p.parts))[:1] if hidden else []


def _intermediate_dirs(shown: str, hidden: Sequence[str]) -> list[str]:
    """The folders between the first folder of ``hidden`` (tmpfs mount points) that holds
    ``shown`` and ``shown`` itself, outermost first (bubblewrap would make them mode 0700, which
    the bot's user could not pass)."""
    for folder in hidden:
        if shown.startswith(folder.rstrip("/") + "/"):
            parts = Path(shown).relative_to(folder).parts[:-1]
            return [os.path.join(folder, *parts[: i + 1]) for i in range(len(parts))]
    return []


def bot_argv(argv: Sequence[str], *, bwrap: str, sandbox: bool, needs: CommandNeeds,
             cwd: str | os.PathLike[str] | None, hide: Sequence[Path], uid: int | None, as_root: bool,
             scratch_bytes: int | None, seccomp_fd: int | None = None,
             cgroup_views: Sequence[tuple[str, str]] = (), view: BotView | None = None) -> list[str]:
    """``argv`` (as :class:`arena.process.botuser.CommandNeeds` resolved it) wrapped in bubblewrap.

    ``sandbox``: the whole sandbox (see the module docstring), whose filesystem is ``view``
    (:func:`arena.process.view.bot_view`; ``hide``: the log folders to cover inside what it
    shows). Otherwise only what keeps bots apart and makes nothing outlive them: a PID namespace
    that dies with arena, IPC and cgroup namespaces of its own, no cgroup file system, a private
    ``/tmp`` and ``/dev/shm`` and an empty private copy of every other folder anyone may write
    (:data:`SHARED_WRITABLE`), the real filesystem otherwise (which the bot's own user may read
    only where anyone may; the folders ``needs`` lists are shown read-only). Both: ``/tmp`` and
    ``/dev/shm`` are tmpfs of ``scratch_bytes`` each (charged to the bot's memory cgroup), ``HOME``
    and ``TMPDIR`` are ``/tmp``; ``cgroup_views``: (its own cgroup folder, where to show it) pairs
    (:func:`arena.process.cgroups.own_views`); ``uid``: the bot's own user, switched to inside
    (``setpriv``), which needs bubblewrap to keep root's capabilities until then (``setpriv`` drops
    them all).
    """
    args = [bwrap, "--unshare-pid", "--die-with-parent", "--unshare-ipc", "--unshare-cgroup-try"]
    if sandbox:
        args += ["--unshare-net", "--unshare-uts"]
    if view is not None:
        args += system_mounts()
    else:
        args += ["--dev-bind", "/", "/"]
    args += ["--proc", "/proc"]
    made = {"/", *PRIVATE_FOLDERS, *SYSTEM_FOLDERS, "/dev", "/proc"}
    for cgroup_root in mount_roots():
        if view is not None:  # in the view's empty root the folders on the way are made 0755
            args += _parents(cgroup_root, made)
        args += ["--tmpfs", cgroup_root]
    for folder, point in cgroup_views:
        args += ["--perms", "0755", "--dir", point, "--ro-bind", folder, point]
    if not sandbox:
        for shared in shared_writable(needs.argv, cwd):
            if scratch_bytes:
                args += ["--size", str(scratch_bytes)]
            args += ["--perms", "1777", "--tmpfs", shared]
    for place in PRIVATE_FOLDERS:
        if scratch_bytes:
            args += ["--size", str(scratch_bytes)]
        args += ["--perms", "1777", "--tmpfs", place]
    if view is not None:
        args += view_mounts(view, hide, sorted(made))
        workdir = view.workdir
    else:
        # Folders bubblewrap makes on the way to a mount point inside a tmpfs are mode 0700, which
        # the bot's user could not pass: those are made 0755 first, innermost tmpfs counted.
        for blocked in needs.hidden:
            for between in _intermediate_dirs(blocked, PRIVATE_FOLDERS):
                args += ["--perms", "0755", "--dir", between]
            args += ["--tmpfs", blocked]
        covers = sorted([*needs.hidden, *PRIVATE_FOLDERS], key=len, reverse=True)
        for shown in needs.shown:
            for between in _intermediate_dirs(shown, covers):
                args += ["--perms", "0755", "--dir", between]
            args += ["--ro-bind", shown, shown]
        workdir = os.fspath(cwd) if cwd is not None else os.getcwd()
    args += ["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--chdir", workdir]
    if as_root and uid is None:
        args += ["--cap-drop", "ALL"]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    args.append("--")
    if uid is not None:
        args += user_prefix(uid)
    return [*args, *sh_prefix(PIPES_BACK), *needs.argv]


#: Folders any user may write besides :data:`arena.process.botuser.PRIVATE_FOLDERS`: what a bot
#: leaves there (a file, a POSIX message queue in ``/dev/mqueue``) would outlive its game and reach a
#: later bot given the same uid. With the sandbox off each is replaced by an empty private tmpfs
#: (the sandbox shows none of them, and a fresh ``/dev``).
SHARED_WRITABLE = ("/var/tmp", "/dev/mqueue", "/run/lock", "/var/lock", "/var/crash")


def shared_writable(argv: Sequence[str], cwd: str | os.PathLike[str] | None) -> list[str]:
    """The folders of :data:`SHARED_WRITABLE` that exist here, anyone may write and hold neither the
    bot's folder nor its program (a bot kept in ``/var/tmp`` still starts)."""
    needed = [_real(os.fspath(cwd) if cwd is not None else os.getcwd()), _real(argv[0])] if argv else []
    found = []
    for folder in SHARED_WRITABLE:
        try:
            info = os.stat(folder)
        except OSError:
            continue
        real = _real(folder)
        if info.st_mode & 0o002 and str(real) == folder and not any(_contains(real, p) for p in needed):
            found.append(folder)
    return found


@functools.cache
def system_mounts() -> tuple[str, ...]:
    """The bubblewrap arguments that show every sandboxed bot the system
    (:data:`arena.process.view.SYSTEM_FOLDERS`: a folder bound read-only, a link such as ``/bin ->
    usr/bin`` made the same link) and ``/dev``; the same for the life of the process."""
    args: list[str] = []
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    return (*args, "--dev", "/dev")


def _parents(path: str, made: set[str]) -> list[str]:
    """``--dir`` arguments (mode 0755) for the folders on the way to ``path`` not in ``made``
    (added to it): bubblewrap would make them 0700, which the bot's user could not pass."""
    args: list[str] = []
    parts = path.split("/")[1:-1]
    for i in range(len(parts)):
        folder = "/" + "/".join(parts[: i + 1])
        if folder not in made:
            made.add(folder)
            args += ["--perms", "0755", "--dir", folder]
    return args


def view_mounts(view: BotView, hide: Sequence[Path], made_already: Sequence[str] = ()) -> list[str]:
    """The bubblewrap arguments that show a bot ``view`` (after :func:`system_mounts` and its
    private folders): ``/etc``'s entries, each shown path at its place (the folders on the way
    made mode 0755: bubblewrap would make them 0700, which the bot's user could not pass), its
    working folder (empty when nothing shown holds it), a tmpfs over each log folder of ``hide``
    inside a shown folder, then the root made read-only."""
    args: list[str] = []
    made = {"/", *PRIVATE_FOLDERS, *SYSTEM_FOLDERS, "/dev", "/proc", *made_already}
    for entry in view.etc:
        args += [*_parents(entry, made), "--ro-bind-try", entry, entry]
    for shown in view.shown:
        # "-try": a path may be gone since the view was worked out (plans are reused for a moment,
        # a flag file named in a command is removed); then there is nothing to show, not a failure.
        args += [*_parents(shown, made), "--ro-bind-try", shown, shown]
        made.add(shown)
    if view.empty_workdir and view.workdir not in made:
        args += [*_parents(view.workdir, made), "--perms", "0755", "--dir", view.workdir]
    for log_folder in hide:
        if any(_contains(Path(shown), log_folder) for shown in view.shown):
            args += ["--tmpfs", str(log_folder)]
    return [*args, "--remount-ro", "/"]


def user_prefix(uid: int) -> list[str]:
    """``setpriv`` switching to ``uid`` (and the gid of the same number) with no supplementary
    group, no capability left in any set and no-new-privs: run as root, it leaves nothing of root."""
    return [find_program("setpriv") or "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"]


def seccomp_pipe(*, sandbox: bool = True) -> int | None:
    """A pipe's read end holding the seccomp program (None on an unknown architecture); the caller
    passes it to bwrap and closes it after the spawn. ``sandbox`` False: the filter without its
    process-group part (:data:`arena.process.seccomp.KEEP_GROUP`)."""
    from arena.process.seccomp import filter_program

    program = filter_program(keep_group=sandbox)
    if program is None:
        return None
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    try:
        os.write(write_end, program)  # a few hundred bytes: always fits in the pipe
    finally:
        os.close(write_end)
    # Above the descriptors the bot's pipes travel in (see arena.process.spawn.PIPES_AWAY).
    high = fcntl.fcntl(read_end, fcntl.F_DUPFD_CLOEXEC, PASSED_FDS_FROM)
    os.close(read_end)
    return high


class BubblewrapSandbox:
    """``bubblewrap``: the sandbox of the module docstring (:func:`bot_argv` with ``sandbox``), with
    the seccomp filter that keeps every process in the bot's process group."""

    def available(self) -> str | None:
        return isolation.sandbox_available()  # looked up when called: tests stand in for it

    def wrap(self, request: SandboxRequest) -> SandboxCommand:
        seccomp_fd = seccomp_pipe(sandbox=True)
        try:
            argv = bot_argv(request.needs.argv, bwrap=find_program("bwrap") or "bwrap", sandbox=True,
                            needs=request.needs, cwd=request.cwd, hide=request.hide, uid=request.uid,
                            as_root=request.as_root, scratch_bytes=request.scratch_bytes, seccomp_fd=seccomp_fd,
                            cgroup_views=request.cgroup_views, view=request.view)
        except BaseException:
            if seccomp_fd is not None:
                os.close(seccomp_fd)
            raise
        return SandboxCommand(tuple(argv), (seccomp_fd,) if seccomp_fd is not None else ())
