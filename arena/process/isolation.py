"""How bots are kept apart from arena and from each other: the policy object every layer passes on.

This module holds the shared vocabulary (the engine and the tournament layer both read it) and the
environment rule (:func:`bot_environment`); the mechanisms live with the process transport
(:mod:`arena.process.bot`, :mod:`arena.process.spawn`, :mod:`arena.process.sandbox`, :mod:`arena.process.escapees`,
:mod:`arena.process.guardian`).

:class:`Isolation` is chosen once per match or tournament (config keys ``ponder``, ``sandbox``,
``inheritEnv``; CLI ``--ponder``, ``--sandbox``, ``--inherit-env``) and handed to
:func:`arena.match.game.play_game`:

- ``ponder`` False (the default): a bot's whole process group is stopped (SIGSTOP) after it replies
  and continued (SIGCONT) once its next input is in the pipe; its clock starts after that. So
  the waiting side cannot use CPU while its opponent's clock runs. True: bots run freely between
  turns (they may think in the opponent's time, "pondering").
- ``sandbox`` True: each bot runs in the default sandbox, bubblewrap (own PID namespace, no network,
  read-only filesystem except a private scratch directory, the tournament logs invisible); a name:
  that sandbox backend's (the ``arena.sandboxes`` group, :mod:`arena.process.sandboxes`); False: none.
- ``inherit_env`` True: bots get arena's whole environment; otherwise a minimal one (PATH, HOME,
  LANG, TMPDIR) plus the agent's own ``env`` map (:attr:`arena.match.game.AgentSpec.env`).

Whatever the policy, every bot also gets ``ARENA_RUN_TOKEN`` (one per arena process) and
``ARENA_GAME_TOKEN`` (one per bot), by which arena finds and kills processes a bot left behind.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

from arena.errors import ConfigError
from arena.process.cgroups import DEFAULT_MAX_PROCESSES, DEFAULT_MEMORY_MB, DEFAULT_SCRATCH_MB


@dataclass(frozen=True)
class BotLimits:
    """What one bot may use (config ``memoryMb``, ``maxProcesses``, ``scratchMb``; None or 0: no
    limit). Enforced by the bot's cgroup and its scratch tmpfs where the machine offers them."""

    memory_mb: int | None = DEFAULT_MEMORY_MB
    max_processes: int | None = DEFAULT_MAX_PROCESSES
    scratch_mb: int | None = DEFAULT_SCRATCH_MB


@dataclass(frozen=True)
class Isolation:
    """The isolation policy of a match or tournament (see the module docstring). ``sandbox`` None
    means the default: the default sandbox when it can run here (:meth:`use_sandbox`); otherwise
    False (none), True (the default backend) or another backend's name
    (:func:`arena.process.sandboxes.normal_sandbox`)."""

    ponder: bool = False
    sandbox: bool | str | None = None
    inherit_env: bool = False
    limits: BotLimits = field(default_factory=BotLimits)
    #: Paths (absolute) every bot is shown read-only in the sandbox besides what it needs (config
    #: ``readOnlyPaths``, ``--read-only``; :mod:`arena.process.view`).
    read_only: tuple[str, ...] = ()

    def use_sandbox(self) -> bool:
        """Whether bots run in a sandbox: as asked, or by default when it is available."""
        return bool(self.sandbox_choice())

    def sandbox_choice(self) -> bool | str:
        """The sandbox bots run in: False (none), True (the default backend) or a backend's name."""
        if self.sandbox is None:
            from arena.process.sandboxes import DEFAULT_SANDBOX, unavailable

            return unavailable(DEFAULT_SANDBOX) is None
        return self.sandbox


DEFAULT_ISOLATION = Isolation()

#: What a bot gets of arena's environment unless ``inherit_env`` is set (those that are set).
MINIMAL_ENV_VARS = ("PATH", "HOME", "LANG", "TMPDIR")


def bot_environment(isolation: Isolation, agent_env: Mapping[str, str] | None = None) -> dict[str, str]:
    """A bot's environment under ``isolation``: arena's whole environment (``inherit_env``) or just
    :data:`MINIMAL_ENV_VARS`, then ``agent_env`` on top (the agent's own ``env`` map wins).
    The tokens are added when the process starts (:func:`arena.process.bot.bot_environment`)."""
    if isolation.inherit_env:
        env = dict(os.environ)
    else:
        env = {name: os.environ[name] for name in MINIMAL_ENV_VARS if name in os.environ}
    if agent_env:
        env.update(agent_env)
    return env


def helper_environment() -> dict[str, str]:
    """The environment of arena's own helper processes (the guardian, the standings worker): the
    minimal one plus PYTHONPATH, so that a bot reading a helper's ``/proc/<pid>/environ`` (they run
    as the same user) learns nothing arena itself was given."""
    return {name: os.environ[name] for name in (*MINIMAL_ENV_VARS, "PYTHONPATH") if name in os.environ}


def make_undumpable() -> None:
    """``prctl(PR_SET_DUMPABLE, 0)`` (Linux; never raises): other processes of the same user, bots
    included, can no longer open this process's ``/proc`` files (``fd``, ``environ``, ``mem``), so
    they cannot write into its pipes. Each of arena's processes calls it first thing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 4
    except (OSError, AttributeError):
        pass


_BWRAP_PROBE = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
                "--unshare-net", "--die-with-parent", "--", "true")


def find_program(name: str) -> str | None:
    """``shutil.which(name)`` on arena's PATH, looked up once per PATH value: the helpers every bot
    is started through (bubblewrap, setpriv, sh) do not move during a run, and looking them up cost
    about 0.1 ms each, several times a bot, every game."""
    return _find_program(name, os.environ.get("PATH"))


@functools.lru_cache(maxsize=64)
def _find_program(name: str, path: str | None) -> str | None:
    return shutil.which(name, path=path)


@functools.cache
def sandbox_available() -> str | None:
    """None when ``sandbox`` can be used here, else one line saying why not (and what to do).

    Checks that bubblewrap is installed and can make its namespaces on this machine (a container
    may forbid them); the answer is cached for the life of the process.
    """
    bwrap = find_program("bwrap")
    if bwrap is None:
        return ("the sandbox needs bubblewrap, which is not installed "
                "(Debian/Ubuntu: apt-get install bubblewrap)")
    try:
        done = subprocess.run([bwrap, *_BWRAP_PROBE], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=10, check=False)
    except OSError as exc:
        from arena.process.spawn import resource_error

        problem = resource_error(exc, "checking that bubblewrap works")
        if problem is not None:
            raise problem from None  # arena's shortage, not the machine's answer: not cached
        return f"the sandbox needs bubblewrap, which failed to run ({exc})"
    except subprocess.TimeoutExpired as exc:
        return f"the sandbox needs bubblewrap, which failed to run ({exc})"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = why[-1] if why else f"exit status {done.returncode}"
        return f"bubblewrap cannot create its namespaces on this machine ({detail})"
    return None


def require_sandbox(where: str | None = None, choice: bool | str = True) -> None:
    """The one check that the sandbox ``choice`` names (True: the default backend) can be used
    here: ConfigError when it cannot, whose message is the backend's reason (``<where>: <reason>``
    with ``where``, e.g. a config key)."""
    from arena.process.sandboxes import sandbox_name, unavailable

    reason = unavailable(sandbox_name(choice))
    if reason is not None:
        raise ConfigError(reason if where is None else f"{where}: {reason}")


def unprotected_note(isolation: Isolation) -> str | None:
    """One line saying what is unprotected when bots run without the sandbox (None with it)."""
    if isolation.use_sandbox():
        return None
    users = "as their own users" if os.geteuid() == 0 else "as your user (arena is not root: no user per bot)"
    if isolation.sandbox is None:
        why = sandbox_available() or "unavailable"
        return (f"no sandbox: {why}; bots run {users} and can use the network and read any file anyone "
                "may read")
    return f"--no-sandbox: bots run {users} and can use the network and read any file anyone may read"
