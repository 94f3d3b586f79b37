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

from dataclasses import dataclass


@dataclass(frozen=True)
class Isolation:
    """The isolation policy of a match or tournament (see the module docstring)."""

    ponder: bool = False
    sandbox: bool = False
    inherit_env: bool = False


DEFAULT_ISOLATION = Isolation()
