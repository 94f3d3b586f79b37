"""Sandbox backends: the ``arena.sandboxes`` entry-point group (:data:`SANDBOX_SEAM`) and its contract.

Every bot is confined by arena itself whatever the sandbox: its own user (arena as root), its own
cgroup (memory, processes, CPU accounting, frozen between turns), its own session and process
group killed at the end, a minimal environment, and, where bubblewrap runs, a PID namespace and
private ``/tmp`` (:mod:`arena.process.confinement`). A **sandbox** is the layer on top that keeps a
bot from the machine: a backend wraps the bot's command so that it guarantees, for the bot and
everything it starts (docs/extending.md, docs/isolation.md):

1. **Processes**: its own PID namespace (it sees only its own processes), all of it killed when
   the wrapper is killed or arena dies; no new session or process group (arena stops and kills
   the group).
2. **Network**: none (a private loopback at most).
3. **Files**: only the paths of :attr:`SandboxRequest.view` (read-only, at their own places: the
   system, the bot's interpreter and files), a private ``/tmp`` and ``/dev/shm`` of at most
   ``scratch_bytes`` each (``HOME`` and ``TMPDIR`` are ``/tmp``), the log folders of ``hide``
   covered, ``/proc`` of its own namespace, and its own cgroup read-only where
   ``cgroup_views`` says; it starts in ``view.workdir``.
4. **User**: it runs as ``uid`` (with no capability and no-new-privs) when that is given; as
   arena's user without any capability otherwise.
5. **Descriptors**: the bot's stdin and stdout arrive as descriptors 3 and 4 (arena moves them
   there, so a wrapper's own processes never hold the pipes) and :attr:`SandboxRequest.inner`
   (run inside, as the bot) moves them back; stderr is passed through; nothing else but
   :attr:`SandboxCommand.pass_fds` is inherited.

A backend is an object (or a class arena calls with no arguments) with ``available()`` (None when it
works on this machine, else one line saying why not and what to install; asked before every bot
is started, so it keeps what costs: bubblewrap's probe runs once per process)
and ``wrap(request)`` (a :class:`SandboxCommand`, or None for no sandbox: arena's own confinement
only). arena's own: ``bubblewrap`` (:class:`arena.process.sandbox.BubblewrapSandbox`, the default)
and ``none`` (:class:`NoSandbox`).

Configs and commands name a sandbox as before: ``"sandbox": true`` (``--sandbox``) is the default
backend, ``false`` (``--no-sandbox``) is ``none``, and a name picks a backend (``"sandbox":
"bubblewrap"``, ``--sandbox-backend NAME``). :func:`normal_sandbox` folds the names into that
form: False, True (the default backend) or another backend's name, so a config naming
``bubblewrap`` is the same config as one saying ``true``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from arena.errors import ConfigError
from arena.plugins import Seam, made

if TYPE_CHECKING:
    from arena.process.botuser import CommandNeeds
    from arena.process.view import BotView

#: The backend ``--sandbox`` and ``"sandbox": true`` mean.
DEFAULT_SANDBOX = "bubblewrap"
#: The backend ``--no-sandbox`` and ``"sandbox": false`` mean.
NO_SANDBOX = "none"

#: What a sandbox choice is once read: False (none), True (the default backend) or a backend's name.
SandboxChoice = bool | str


@dataclass(frozen=True)
class SandboxRequest:
    """One bot to wrap. ``inner``: the command to run inside, as the bot (it first moves descriptors
    3 and 4 back to stdin and stdout); ``needs``: the bot's command as its user must run it, and
    the folders it must be shown (:class:`arena.process.botuser.CommandNeeds`); ``view``: every
    path the bot is shown (:class:`arena.process.view.BotView`); ``hide``: log folders inside
    those to cover; ``uid``: the bot's own user (None: arena's, whose capabilities must go);
    ``as_root``: arena runs as root; ``scratch_bytes``: the size of its ``/tmp`` and ``/dev/shm``
    (None: unbounded); ``cgroup_views``: (its own cgroup folder, where to show it) pairs; ``cwd``:
    the folder it was started from."""

    inner: tuple[str, ...]
    needs: CommandNeeds
    view: BotView
    hide: tuple[Path, ...]
    uid: int | None
    as_root: bool
    scratch_bytes: int | None
    cgroup_views: tuple[tuple[str, str], ...] = ()
    cwd: str | None = None


@dataclass(frozen=True)
class SandboxCommand:
    """The wrapped command line, and the descriptors it inherits (the same numbers, at least 5:
    :data:`arena.process.spawn.PASSED_FDS_FROM`), which arena closes once the bot is started."""

    argv: tuple[str, ...]
    pass_fds: tuple[int, ...] = ()


class SandboxBackend(Protocol):
    """What an ``arena.sandboxes`` entry point gives (the contract: the module docstring)."""

    def available(self) -> str | None:
        """None when the sandbox can run here, else one line saying why not (and what to do)."""
        ...

    def wrap(self, request: SandboxRequest) -> SandboxCommand | None:
        """``request``'s bot wrapped in the sandbox (None: no sandbox). May raise OSError (arena's
        own shortage of descriptors or memory) or ConfigError (this bot cannot be sandboxed)."""
        ...


class NoSandbox:
    """``none``: no sandbox; arena's own confinement only (see the module docstring)."""

    def available(self) -> str | None:
        return None

    def wrap(self, request: SandboxRequest) -> SandboxCommand | None:
        return None


def _check_backend(obj: Any, where: str) -> SandboxBackend:
    obj = made(obj, where)
    if not callable(getattr(obj, "available", None)) or not callable(getattr(obj, "wrap", None)):
        raise ConfigError(f"{where}: not a sandbox backend (it needs available() and wrap(request))")
    return obj


#: The seam of sandbox backends: the ``arena.sandboxes`` entry-point group.
SANDBOX_SEAM: Seam[SandboxBackend] = Seam("arena.sandboxes", "sandbox", _check_backend)


def normal_sandbox(value: bool | str | None, where: str = "sandbox") -> SandboxChoice | None:
    """A sandbox as given (a config's ``sandbox``: a boolean or a name; None: not given) in its
    one form: None, False (``none``), True (:data:`DEFAULT_SANDBOX`) or another backend's name.
    Raises ConfigError (``where: ...``) for a name no backend has."""
    if value is None or isinstance(value, bool):
        return value
    if value not in SANDBOX_SEAM.parts():
        raise ConfigError(f"{where}: {SANDBOX_SEAM.unknown(value)}")
    return False if value == NO_SANDBOX else True if value == DEFAULT_SANDBOX else value


def sandbox_field(obj: dict[str, Any], key: str = "sandbox") -> SandboxChoice | None:
    """A config's ``key`` (absent or null: None): ``true``, ``false`` or a sandbox backend's name,
    read by :func:`normal_sandbox`. Raises ConfigError naming the key."""
    value = obj.get(key)
    if value is None or isinstance(value, bool | str):
        return normal_sandbox(value, key)
    from arena.fileio.fields import show

    raise ConfigError(f"{key}: must be true, false or a sandbox backend's name ({', '.join(names())}), "
                      f"got {show(value)}")


def sandbox_name(choice: SandboxChoice) -> str:
    """The backend's name of a choice (False: ``none``, True: the default backend)."""
    if isinstance(choice, str):
        return choice
    return DEFAULT_SANDBOX if choice else NO_SANDBOX


def backend_of(choice: SandboxChoice) -> SandboxBackend:
    """The backend a choice names (loaded). Raises ConfigError when it is unknown or cannot load."""
    return SANDBOX_SEAM.load(sandbox_name(choice))


def unavailable(name: str) -> str | None:
    """Why the backend ``name`` cannot run here (None: it can). An unknown backend, or one that
    cannot be loaded, says so."""
    try:
        backend = SANDBOX_SEAM.load(name)
    except ConfigError as exc:
        return str(exc)
    return backend.available()


def wrap(choice: SandboxChoice, request: SandboxRequest) -> SandboxCommand | None:
    """``request`` wrapped by the backend of ``choice`` (None: no sandbox)."""
    command = backend_of(choice).wrap(request)
    if command is not None and any(fd < 5 for fd in command.pass_fds):
        for fd in command.pass_fds:
            os.close(fd)
        raise ConfigError(f"sandbox {sandbox_name(choice)!r}: passes descriptors below 5, where the bot's pipes travel")
    return command


def names() -> Sequence[str]:
    """The sandbox backends a config or ``--sandbox-backend`` may name."""
    return SANDBOX_SEAM.names()


__all__ = ["DEFAULT_SANDBOX", "NO_SANDBOX", "SANDBOX_SEAM", "NoSandbox", "SandboxBackend", "SandboxChoice",
           "SandboxCommand", "SandboxRequest", "backend_of", "names", "normal_sandbox", "sandbox_field", "sandbox_name", "unavailable",
           "wrap"]
