"""A finished bot's confinement given back off the game's path.

Teardown (:mod:`arena.process.bot`) ends a bot with ``cgroup.kill`` and reaps the processes it
held a pidfd for; the kernel empties the cgroup a few milliseconds later. Waiting for that in the
game, and then removing the cgroup's folders, the scratch folder and unlocking the uid, cost the
game a poll every half millisecond and the ``rmdir`` calls. Instead teardown hands the
:class:`~arena.process.confinement.Confinement` to :func:`defer`, and it is given back
(:meth:`~arena.process.confinement.Confinement.release`) once its cgroup is empty:

- :func:`collect` (the next bot's start calls it: one read of ``cgroup.events`` a pending bot,
  no wake-up of its own) gives back every pending confinement whose cgroup is empty;
- :func:`settle` waits (bounded) until none is pending: when the uid pool is exhausted, at exit
  (registered with :mod:`atexit`), and wherever a caller needs everything given back now (tests).

The contract that makes this safe is :meth:`Confinement.release`'s own: a uid is unlocked only
once its cgroup holds no process and its scratch folder is gone, so a later bot given the same uid
never meets anything of an earlier one. A forked copy of arena forgets what its parent deferred.
"""

from __future__ import annotations

import atexit
import os
import time
from typing import TYPE_CHECKING

import trio

if TYPE_CHECKING:
    from arena.process.confinement import Confinement

#: How long :func:`settle` waits for the kernel to empty the killed cgroups (it takes a few ms;
#: this bounds a bug). What is still not empty then keeps its uid locked until arena exits.
SETTLE_S = 5.0

_pending: list[Confinement] = []
_at_exit = False


def _forget_in_child() -> None:
    _pending.clear()  # the parent gives these back, never a forked copy


os.register_at_fork(after_in_child=_forget_in_child)


def defer(held: Confinement) -> None:
    """Give ``held`` back once its cgroup is empty. Its bot must be killed already (``cgroup.kill``
    written); without a cgroup there is nothing to wait for: it is given back now."""
    global _at_exit
    if held.cgroup is None:
        held.release()
        return
    if not _at_exit:
        _at_exit = True
        atexit.register(settle)  # after the run's cgroups registered theirs: so it runs before
    _pending.append(held)


def pending() -> int:
    """How many finished bots' confinements are waiting to be given back."""
    return len(_pending)


def _ready() -> list[Confinement]:
    """Take out of the pending list those whose cgroup is empty."""
    ready = [held for held in _pending if held.cgroup is None or not held.cgroup.populated()]
    if ready:
        _pending[:] = [held for held in _pending if held not in ready]
    return ready


def _release_all(ready: list[Confinement]) -> None:
    for held in ready:
        held.release()


def collect() -> int:
    """Give back every pending confinement whose cgroup is empty, now; how many. Never raises."""
    ready = _ready()
    _release_all(ready)
    return len(ready)


async def collect_async() -> int:
    """:func:`collect` from trio: in a worker thread only when there is a scratch folder to remove
    (its files are the bot's, any number of them)."""
    ready = _ready()
    if any(held.scratch is not None for held in ready):
        await trio.to_thread.run_sync(_release_all, ready)
    else:
        _release_all(ready)
    return len(ready)


def settle(timeout: float = SETTLE_S) -> int:
    """Wait up to ``timeout`` seconds until every pending confinement is given back; how many are
    left (their cgroups still hold a process: their uids stay locked). Never raises."""
    deadline = time.monotonic() + timeout
    while True:
        collect()
        if not _pending or time.monotonic() >= deadline:
            return len(_pending)
        time.sleep(0.001)
