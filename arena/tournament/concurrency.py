"""How many games a run plays at once: the bounds and the note that says when one applied.

The concurrency a user asks for (``--concurrency``, the config's ``concurrency``, else the number of
cores) is capped, in this order:

1. at :data:`MAX_CONCURRENCY` (256): beyond it arena's own bookkeeping and the machine's process
   table, not the bots, would decide how games go (``concurrency`` 10^8 once took 24 GB);
2. by the open-file limit (``RLIMIT_NOFILE``, ``ulimit -n``): each running game needs about
   :data:`FDS_PER_GAME` descriptors (pipes and logs of two bots, the engine's bookkeeping) and arena
   keeps :data:`FD_RESERVE` for itself. The soft limit is first raised as far as the hard limit
   allows (as Go programs do), so this cap only bites when the hard limit is low;
3. by the number of games left (silently: nothing is lost).

A human player means one game at a time. Without these caps a run at ``ulimit -n 150`` and
concurrency 30 ran out of descriptors mid-game.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass

from arena.limits import MAX_CONCURRENCY

#: Descriptors one running game may hold open (two bots: stdin, stdout, stderr and their logs,
#: process handles, the cgroup files kept open for the clocks and the off-turn look, the live
#: trace; at teardown a pidfd for each of a bot's processes). Measured: about 24 per game of two
#: sandboxed bots (150 open at concurrency 6), up to 32 while both bots' teardowns hold pidfds.
FDS_PER_GAME = 32
#: Descriptors arena keeps for itself (stdio, trio, the log files, the lock, the standings worker):
#: about 20 measured, with room to spare.
FD_RESERVE = 48


@dataclass(frozen=True)
class ConcurrencyPlan:
    """``value``: games at once; ``note``: one line saying why it is lower than asked, or None."""

    value: int
    note: str | None = None


def plan_concurrency(wanted: int, *, human: bool = False, games_left: int | None = None,
                     raise_fd_limit: bool = True, asked: bool = True) -> ConcurrencyPlan:
    """Cap ``wanted`` (module docstring). ``raise_fd_limit``: first raise this process's soft
    open-file limit towards the hard one as far as ``wanted`` games need. ``asked`` False: ``wanted``
    is a default, not the user's number (no note for a human player then)."""
    wanted = max(1, wanted)
    if human:
        note = "one game at a time: a human player is in the tournament" if wanted > 1 and asked else None
        return ConcurrencyPlan(1, note)
    value, notes = wanted, []
    if value > MAX_CONCURRENCY:
        value = MAX_CONCURRENCY
        notes.append(f"concurrency capped at {MAX_CONCURRENCY} (asked for {wanted:,}), arena's maximum")
    capacity, soft = fd_capacity(value, raise_fd_limit)
    if value > capacity:
        notes.append(f"concurrency capped at {capacity} (asked for {wanted:,}): the open-file limit "
                     f"(ulimit -n) is {soft}, and each game needs about {FDS_PER_GAME}; raise the "
                     "limit to play more games at once")
        value = capacity
    if games_left is not None and 0 < games_left < value:
        value = games_left
    return ConcurrencyPlan(value, "; ".join(notes) or None)


def fd_capacity(games: int, raise_limit: bool = True) -> tuple[int, int]:
    """``(games the open-file limit allows at once, the soft limit)``, after raising the soft limit
    towards the hard one as far as ``games`` need when ``raise_limit``."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return games, -1
    needed = FD_RESERVE + FDS_PER_GAME * games
    if raise_limit and soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        if target > soft:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
            except (OSError, ValueError):
                pass
    if soft == resource.RLIM_INFINITY:
        return games, soft
    return max(1, (soft - FD_RESERVE) // FDS_PER_GAME), soft


def default_concurrency() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def local_workers(asked: int | None, concurrency: int) -> int:
    """The local backend's worker processes for ``concurrency`` games at once: ``asked`` (the
    ``--workers`` option) where given, else one a core up to one a game. Never more than the games
    played at once, and none for one game at a time: that game is played in arena's own process
    (where a human player has the terminal)."""
    if concurrency <= 1:
        return 0
    return min(default_concurrency() if asked is None else asked, concurrency)
