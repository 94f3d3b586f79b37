"""``unshare``: a sandbox backend for arena made of util-linux alone (``unshare``, ``mount``,
``umount``, ``mountpoint``, ``pivot_root``, ``setpriv``: the ``util-linux`` and ``mount`` packages
of every Debian and Ubuntu system, base images included) and ``sh``; no bubblewrap.

The contract is arena's (:mod:`arena.process.sandboxes`, its names in :mod:`arena.api`); this backend wraps a bot as::

    unshare --pid --fork --kill-child --net --ipc --uts --cgroup --mount [--user --map-root-user]
        -- sh -c SETUP arena-unshare INNER...

``SETUP`` runs as root of the new namespaces (PID 1 of the new PID namespace) and:

1. mounts an empty tmpfs over ``/dev/shm`` (of the new mount namespace only: nothing on the
   machine changes) to be the bot's root, and binds into it, read-only and each at its own place,
   the system folders (``/usr`` and the ``/bin``, ``/lib*`` beside it, made the same links where
   they are links), ``/etc``'s entries of the view, every path of ``view.shown``, and its own
   cgroup folders where ``cgroup_views`` says; makes ``/dev`` (``null``, ``zero``, ``full``,
   ``random``, ``urandom``, ``tty`` and the ``fd``/``stdin``/``stdout``/``stderr`` links), a
   ``/proc`` of the new PID namespace, ``/tmp`` and ``/dev/shm`` as tmpfs of ``scratch_bytes``
   (mode 1777), an empty working folder when the view says so, and an empty tmpfs over each
   folder of ``hide`` inside a shown path (checked: the bot does not start without it);
2. ``pivot_root`` into it, unmounts the old root (lazily) and makes the new root read-only;
3. starts ``INNER`` in ``view.workdir`` with ``HOME`` and ``TMPDIR`` set to ``/tmp``, through
   ``setpriv --reuid=UID --regid=UID --clear-groups --no-new-privs --inh-caps=-all
   --bounding-set=-all`` (without a uid: the same without ``--reuid``/``--regid``), closes its
   own copies of descriptors 3 and 4, waits for the bot and exits with its status.

What it guarantees, against the contract's five points:

1. **Processes**: its own PID namespace. The setup shell stays its PID 1 (as bubblewrap's own init
   does), so that ``--kill-child`` (SIGKILL to PID 1 when ``unshare`` dies) still holds once the
   bot has switched users, which clears a parent-death signal; when PID 1 dies the kernel kills
   every process of the namespace. No new session or process group is made. *Unlike bubblewrap:*
   no seccomp filter, so a bot may call ``setsid``/``setpgid`` itself; its processes stay in its
   PID namespace and its cgroup (arena freezes and kills through both), and orphans it leaves are
   reaped only when the game ends.
2. **Network**: a network namespace of its own (its loopback down): none.
3. **Files**: as bubblewrap's view, with two differences: a mount below a shown path is not
   shown (the binds are not recursive: util-linux 2.38's ``mount`` cannot make a recursive bind
   read-only); ``/dev`` holds the six devices above only (no ``/dev/pts``); a path of the view
   gone when ``wrap`` runs is left out, as bubblewrap's ``--ro-bind-try`` does, but one that goes
   between ``wrap`` and the start makes the start fail. It needs ``/dev/shm`` to exist on the
   machine (its mount point).
4. **User**: ``setpriv`` as above: the bot's uid with no capability in any set and no-new-privs.
   When arena is not root: a user namespace (``--user --map-root-user``) gives the setup its
   mounts, and the bot runs as that namespace's root with every capability dropped, which is
   arena's user outside (needs unprivileged user namespaces; ``uid`` cannot be switched to there).
5. **Descriptors**: ``INNER`` gets 3 and 4 and moves them back; the setup shell closes its copies
   once the bot has started. ``unshare``'s parent keeps them until the namespace is gone (it only
   waits for PID 1), so it never delays the end of the bot's output. No descriptor is passed.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess

from arena.api import SandboxCommand, SandboxRequest

#: The programs the sandbox runs (outside, then inside the new root: they must be in the system).
PROGRAMS = ("unshare", "mount", "umount", "mountpoint", "pivot_root", "setpriv", "sh")
#: The system folders every bot sees (arena's own list: :data:`arena.process.view.SYSTEM_FOLDERS`).
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The devices of its ``/dev``.
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
#: Where the new root is built, in the new mount namespace only.
ROOT = "/dev/shm"

#: How each kind of mount of the root is made (the options of an fstab line).
SHOWN = "none bind,ro,nosuid"
DEVICE = "none bind,nosuid"
SCRATCH = "tmpfs mode=1777,nosuid,nodev"
COVER = "tmpfs mode=0755,nosuid,nodev,size=4096"


@functools.cache
def _missing_programs() -> tuple[str, ...]:
    return tuple(p for p in PROGRAMS if shutil.which(p) is None)


@functools.cache
def _user_namespaces_work() -> str | None:
    """None when this (unprivileged) user may make the namespaces, else why not (asked once)."""
    try:
        done = subprocess.run(["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount", "--net",
                               "--", "true"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["failed"])[-1]


class UnshareSandbox:
    """The sandbox of the module docstring."""

    def available(self) -> str | None:
        missing = _missing_programs()
        if missing:
            return f"the unshare sandbox needs {', '.join(missing)} (apt-get install util-linux mount)"
        if not os.path.isdir(ROOT):
            return f"the unshare sandbox builds the bot's root on {ROOT}, which this machine lacks"
        if os.geteuid() != 0:
            why = _user_namespaces_work()
            if why is not None:
                return f"the unshare sandbox needs root or unprivileged user namespaces: {why}"
        return None

    def wrap(self, request: SandboxRequest) -> SandboxCommand:
        outer = ["unshare", "--pid", "--fork", "--kill-child", "--net", "--ipc", "--uts", "--cgroup", "--mount"]
        if not request.as_root:
            outer += ["--user", "--map-root-user"]
        return SandboxCommand((*outer, "--", "sh", "-c", setup_script(request), "arena-unshare", *request.inner))


def _q(path: str | os.PathLike[str]) -> str:
    return shlex.quote(os.fspath(path))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _field(path: str) -> str:
    """``path`` as one field of an fstab line (blanks and backslashes as octal escapes)."""
    return "".join(f"\\{ord(c):03o}" if c in " \t\n\\" else c for c in path)


class _Stage:
    """Mounts made by one ``mount -a``: the folders and files their targets need made first, and
    the fstab lines, in order."""

    def __init__(self) -> None:
        self.folders: list[str] = []
        self.files: list[str] = []
        self.lines: list[str] = []

    def mount(self, source: str, target: str, how: str, *, is_file: bool = False) -> None:
        place = ROOT + target
        if is_file:
            self.folders.append(os.path.dirname(place))
            self.files.append(place)
        else:
            self.folders.append(place)
        kind, options = how.split()
        self.lines.append(f"{_field(source)} {_field(place)} {kind} {options} 0 0\n")

    def show(self, path: str, at: str | None = None, how: str = SHOWN) -> None:
        if os.path.exists(path):  # gone since the view was worked out: nothing to show (bubblewrap's -try)
            self.mount(path, at or path, how, is_file=not os.path.isdir(path))

    def make(self) -> list[str]:
        """The shell lines that make the targets (one ``mkdir``, builtins for the files)."""
        lines = [f"mkdir -p {' '.join(_q(f) for f in dict.fromkeys(self.folders))}"] if self.folders else []
        return lines + [f": > {_q(f)}" for f in self.files]

    def fstab(self) -> str:
        return "".join(self.lines)


def _links() -> list[str]:
    """``ln`` lines for the system folders that are links (``/bin -> usr/bin``) and ``/dev``'s."""
    lines, alike = [], []  # alike: links named as what they point to (bin -> usr/bin), made by one ln
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            target = os.readlink(folder)
            if os.path.basename(target) == os.path.basename(folder) and os.path.dirname(folder) == "/":
                alike.append(target)
            else:
                lines.append(f"ln -s {_q(target)} {_q(ROOT + folder)}")
    if alike:
        lines.append(f"cd {ROOT} && ln -s {' '.join(_q(t) for t in alike)} . && cd /")
    lines.append(f"ln -s /proc/self/fd {_q(ROOT + '/dev/fd')}")
    lines += [f"ln -s /proc/self/fd/{fd} {_q(ROOT + '/dev/' + name)}"
              for fd, name in enumerate(("stdin", "stdout", "stderr"))]
    return lines


def setup_script(request: SandboxRequest) -> str:
    """The ``sh`` script that builds the bot's root, enters it and runs ``"$@"`` (``inner``) as the
    bot (see the module docstring). Two ``mount -a`` make its mounts (a ``mount`` command per
    mount cost 71 ms of CPU time a bot, these 22; bubblewrap's whole start 2.5): first the system, ``/dev``, ``/proc``, the scratch folders and
    the cgroup views; then what lies in the bot's view, which may be inside its ``/tmp``, and the
    covers over hidden log folders. Their fstabs are written in the new root's ``/tmp`` before its
    scratch tmpfs covers them (the second one held open as descriptor 9 meanwhile)."""
    view = request.view
    size = f",size={request.scratch_bytes}" if request.scratch_bytes else ""
    system, own = _Stage(), _Stage()
    for folder in SYSTEM_FOLDERS:
        if os.path.isdir(folder) and not os.path.islink(folder):
            system.show(folder)
    for entry in view.etc:
        system.show(entry)
    system.folders.append(ROOT + "/dev")
    for device in DEVICES:
        system.show(f"/dev/{device}", how=DEVICE)
    system.mount("arena-scratch", "/dev/shm", SCRATCH + size)
    system.mount("arena-scratch", "/tmp", SCRATCH + size)
    system.mount("proc", "/proc", "proc nosuid,nodev,noexec")
    for cgroup, point in request.cgroup_views:
        system.show(cgroup, point)
    for shown in view.shown:
        own.show(shown)
    if view.empty_workdir:
        own.folders.append(ROOT + view.workdir)
    covers = [os.fspath(f) for f in request.hide if any(_inside(os.fspath(f), shown) for shown in view.shown)]
    for log_folder in covers:
        own.mount("arena-hidden", log_folder, COVER)
    first, second = f"{ROOT}/tmp/.fstab-1", f"{ROOT}/tmp/.fstab-2"
    lines = ["set -eu", "umask 022", f"mount -t tmpfs -o mode=0755,nosuid arena-root {ROOT}"]
    system.folders += [ROOT + "/.old"]
    lines += system.make() + _links()
    lines += [f"printf %s {_q(system.fstab())} > {first}", f"printf %s {_q(own.fstab())} > {second}",
              f"exec 9< {second}", f"mount -a -T {first}"]
    lines += own.make()
    if own.lines:
        lines.append("mount -a -T /dev/fd/9")
    # A log folder left uncovered would be shown: the bot does not start unless each cover is there.
    lines += [f"mountpoint -q {_q(ROOT + log_folder)}" for log_folder in covers]
    user = ["--reuid", str(request.uid), "--regid", str(request.uid)] if request.uid is not None else []
    # In a user namespace of its own, setgroups is refused (and its groups are the machine's user's).
    groups = ["--clear-groups"] if request.as_root else []
    setpriv = ["setpriv", *user, *groups, "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"]
    lines += [
        "exec 9<&-",
        # pivot_root wants its old root's place inside the new one; it is unmounted and removed.
        f"cd {ROOT} && pivot_root . .old && cd / && umount -l /.old && rmdir /.old",
        "mount -o remount,ro,bind /",
        f"cd {_q(view.workdir)}",
        "export HOME=/tmp TMPDIR=/tmp",
        # The bot is a child (not exec'd): PID 1 keeps --kill-child's signal and reaps at the end.
        f'{shlex.join(setpriv)} "$@" &',
        "exec 3<&- 4>&-",
        "set +e",
        'wait "$!"',
    ]
    return "\n".join(lines) + "\n"


__all__ = ["UnshareSandbox", "setup_script"]
