"""``unshare``: a sandbox backend for arena made of util-linux alone (``unshare``, ``mount``,
``umount``, ``pivot_root``, ``setpriv``: the ``util-linux`` and ``mount`` packages of every Debian
and Ubuntu system, base images included) and ``sh``; no bubblewrap.

The contract is arena's (:mod:`arena.process.sandboxes`); this backend wraps a bot as::

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
   folder of ``hide`` inside a shown path;
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
   read-only), and ``/dev`` holds the six devices above only (no ``/dev/pts``). It needs
   ``/dev/shm`` to exist on the machine (its mount point).
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
from collections.abc import Iterable

from arena.process.sandboxes import SandboxCommand, SandboxRequest

#: The programs the sandbox runs (outside, then inside the new root: they must be in the system).
PROGRAMS = ("unshare", "mount", "umount", "pivot_root", "setpriv", "sh")
#: The system folders every bot sees (arena's own list: :data:`arena.process.view.SYSTEM_FOLDERS`).
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The devices of its ``/dev``.
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
#: Where the new root is built, in the new mount namespace only.
ROOT = "/dev/shm"

#: The shell functions of the setup. ``show PATH``: PATH bound read-only at its place in the new
#: root (skipped when gone, as bubblewrap's ``--ro-bind-try``); ``show_at FROM TO``: FROM at TO.
FUNCTIONS = r"""
set -eu
umask 022
R=$ROOT_DIR
show_at() {
  [ -e "$1" ] || return 0
  if [ -d "$1" ]; then mkdir -p "$R$2"; else mkdir -p "$R$(dirname "$2")"; : > "$R$2"; fi
  mount --bind "$1" "$R$2"
  mount -o remount,bind,ro,nosuid "$R$2"
}
show() { show_at "$1" "$1"; }
scratch() { mkdir -p "$R$1"; mount -t tmpfs -o "mode=1777,nosuid,nodev$SIZE" arena-scratch "$R$1"; }
"""


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


def _system_lines() -> Iterable[str]:
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            yield f"ln -s {_q(os.readlink(folder))} \"$R\"{_q(folder)}"
        elif os.path.isdir(folder):
            yield f"show {_q(folder)}"


def setup_script(request: SandboxRequest) -> str:
    """The ``sh`` script that builds the bot's root, enters it and runs ``"$@"`` (``inner``) as the
    bot (see the module docstring). Every path is quoted."""
    view = request.view
    size = f",size={request.scratch_bytes}" if request.scratch_bytes else ""
    lines = [f"ROOT_DIR={ROOT}", f"SIZE={_q(size)}", FUNCTIONS.strip(),
             'mount -t tmpfs -o mode=0755,nosuid arena-root "$R"']
    lines += _system_lines()
    lines += [f"show {_q(entry)}" for entry in view.etc]
    # /dev: the devices bound from the machine's, the usual links, a private /dev/shm.
    lines += ['mkdir -p "$R/dev" && mount -t tmpfs -o mode=0755,nosuid arena-dev "$R/dev"']
    lines += [f"show /dev/{device}" for device in DEVICES]
    lines += ['ln -s /proc/self/fd "$R/dev/fd"'] + [
        f'ln -s /proc/self/fd/{fd} "$R/dev/{name}"' for fd, name in enumerate(("stdin", "stdout", "stderr"))]
    lines += ["scratch /dev/shm", "scratch /tmp",
              'mkdir -p "$R/proc" && mount -t proc -o nosuid,nodev,noexec proc "$R/proc"']
    lines += [f"show_at {_q(folder)} {_q(point)}" for folder, point in request.cgroup_views]
    lines += [f"show {_q(shown)}" for shown in view.shown]
    if view.empty_workdir:
        lines.append(f'mkdir -p "$R"{_q(view.workdir)}')
    for folder in request.hide:
        if any(_inside(os.fspath(folder), shown) for shown in view.shown):
            lines.append(f'mount -t tmpfs -o mode=0755,nosuid,nodev,size=4096 arena-hidden "$R"{_q(folder)}')
    user = ["--reuid", str(request.uid), "--regid", str(request.uid)] if request.uid is not None else []
    # In a user namespace of its own, setgroups is refused (and its groups are the machine's user's).
    groups = ["--clear-groups"] if request.as_root else []
    setpriv = ["setpriv", *user, *groups, "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"]
    lines += [
        # pivot_root wants its old root's place inside the new one; it is unmounted and removed.
        'mkdir "$R/.old" && cd "$R" && pivot_root . .old && cd / && umount -l /.old && rmdir /.old',
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
