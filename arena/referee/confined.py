"""Starting an external referee as a bot is started: a user, cgroups and a sandbox of its own.

:func:`start` is what :class:`arena.referee.client.RefereeClient` calls when arena itself starts a
referee (never for a copy a bot started: that copy runs inside the bot's own confinement). It goes
through :func:`arena.process.confinement.start_confined_sync`, the bots' own path, so a referee gets:

- one of the bot users (arena as root; given back when it ends, as a bot's is);
- a cgroup of its own with the bots' default limits (:class:`arena.process.isolation.BotLimits`),
  killed whole when the referee is closed, so nothing it starts outlives it;
- the sandbox when bubblewrap works here (the policy's default, :meth:`Isolation.use_sandbox`):
  no network, the file system read-only, a private ``/tmp``, its program and the files its command
  names shown read-only; with seccomp, no ``setsid``, no keyring, no user namespace of its own;
- the minimal environment bots get (``PATH``, ``HOME``, ``LANG``, ``TMPDIR``) and arena's run
  token (the guardian kills it with the bots if arena dies), never arena's whole environment.

Where the machine offers less, it falls back as bots do: no root, no user of its own; no
bubblewrap, no sandbox (one note on stderr says so, as for bots); no cgroups, its process group
only. Started from the spawner thread, so its parent-death signal is tied to a thread that never
exits; the caller waits for the start synchronously (a request is in progress).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence

from arena.process import spawn
from arena.process.confinement import Confinement, start_confined_sync
from arena.process.isolation import DEFAULT_ISOLATION, bot_environment, sandbox_available


def start(argv: Sequence[str], who: str) -> tuple[spawn.Spawned, Callable[[], None]]:
    """Start ``argv`` (from the current folder) confined; return it and what ends it: kill all it
    started (its cgroup), reap it, give back its cgroup and user. Raises ConfigError (its user
    cannot reach its program), BotError (no such program) or ResourceError, as for a bot."""
    isolation = DEFAULT_ISOLATION
    sandbox = isolation.sandbox_choice()
    if not sandbox:
        spawn.note_once(f"no sandbox for external referees: {sandbox_available()}; a referee runs with its own "
                        "user where arena is root, and can use the network and read any file anyone may read")
    env = {**bot_environment(isolation), spawn.RUN_TOKEN_VAR: spawn.run_token()}
    spawned, held = start_confined_sync(list(argv), None, env, who, sandbox, isolation.limits)

    def end() -> None:
        _end(spawned, held)

    return spawned, end


def _end(spawned: spawn.Spawned, held: Confinement) -> None:
    if held.cgroup is not None:
        held.cgroup.kill()  # whatever the referee started, in its group or not
        with contextlib.suppress(Exception):
            _wait_empty(held)
    spawn.reap(spawned, spawned.popen.returncode)
    with contextlib.suppress(OSError):
        os.close(spawned.pidfd)
    held.release()


def _wait_empty(held: Confinement) -> None:
    """Until the kernel has emptied the killed cgroup (a few ms; at most 2 s): only an empty one
    is removed, and only then is its user handed out again."""
    cgroup = held.cgroup
    assert cgroup is not None
    deadline = time.monotonic() + 2.0
    while cgroup.populated() and time.monotonic() < deadline:
        time.sleep(0.0005)
