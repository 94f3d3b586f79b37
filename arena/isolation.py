"""How bots are kept apart from arena and from each other: the policy object every layer passes on.

This module holds the shared vocabulary only (the engine and the tournament layer both read it);
the mechanisms live with the process transport (:mod:`arena.process`).

:class:`Isolation` is chosen once per match or tournament (config keys ``ponder``, ``sandbox``,
``inheritEnv``; CLI ``--ponder``, ``--sandbox``, ``--inherit-env``) and handed to
:func:`arena.match.play_game`:

- ``ponder`` False (the default): a bot's whole process group is stopped (SIGSTOP) after it replies
  and continued (SIGCONT) just before its next input is written; its clock starts after that. So
  the waiting side cannot use CPU while its opponent's clock runs. True: bots run freely between
  turns (they may think in the opponent's time, "pondering").
- ``sandbox`` True: each bot runs under bubblewrap (own PID namespace, no network, read-only
  filesystem except a private scratch directory, the tournament logs invisible).
- ``inherit_env`` True: bots get arena's whole environment; otherwise a minimal one (PATH, HOME,
  LANG, TMPDIR) plus the agent's own ``env`` map (:attr:`arena.match.AgentSpec.env`).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass


@dataclass(frozen=True)
class Isolation:
    """The isolation policy of a match or tournament (see the module docstring)."""

    ponder: bool = False
    sandbox: bool = False
    inherit_env: bool = False


DEFAULT_ISOLATION = Isolation()


_BWRAP_PROBE = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
                "--unshare-net", "--die-with-parent", "--", "true")


@functools.cache
def sandbox_available() -> str | None:
    """None when ``sandbox`` can be used here, else one line saying why not (and what to do).

    Checks that bubblewrap is installed and can make its namespaces on this machine (a container
    may forbid them); the answer is cached for the life of the process.
    """
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return ("the sandbox needs bubblewrap, which is not installed "
                "(Debian/Ubuntu: apt-get install bubblewrap)")
    try:
        done = subprocess.run([bwrap, *_BWRAP_PROBE], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the sandbox needs bubblewrap, which failed to run ({exc})"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = why[-1] if why else f"exit status {done.returncode}"
        return f"bubblewrap cannot create its namespaces on this machine ({detail})"
    return None
