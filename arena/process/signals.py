"""Ctrl-C, SIGTERM and SIGHUP for long trio runs: stop gracefully on the first signal, at once on the second.

Use :func:`run_trio_interruptibly` as the one ``trio.run`` of a command::

    result, interrupted = run_trio_interruptibly(run_tournament, config)
    if interrupted:
        ...                     # finished results were already flushed by the work itself
        sys.exit(130)

Contract:

- ``async_fn(*args)`` runs inside a cancel scope. A watcher task listens for SIGINT, SIGTERM and SIGHUP
  (a closed terminal or ssh session: finished games must be written then too) with
  ``trio.open_signal_receiver`` (so no KeyboardInterrupt is raised into the work and no traceback
  can reach the user).
- **First signal**: the work's scope is cancelled. Code under it unwinds normally: every
  ``async with`` bot context kills its process group (shielded), and results that were already
  finished stay written. ``run_trio_interruptibly`` then returns ``(None, True)`` — or
  ``(result, True)`` if the work returned a value anyway (e.g. it finished just as the signal came).
- **Second signal** (the user insists, or teardown hangs): every live bot process group is
  SIGKILLed (:func:`arena.process.bot.kill_all_live_groups`) and the interpreter leaves at once with
  ``os._exit(exit_code_for(first signal))``: nothing more is written.
- With no signal it returns ``(result, False)``. Exceptions from the work propagate unchanged
  (a single exception is unwrapped from trio's exception group).

:func:`interruptible` is the same machinery as an async context manager for code already inside
``trio.run``: it yields an :class:`Interruption` whose ``interrupted`` flag says whether a signal came;
the body is cancelled on the first signal and the ``async with`` block then exits normally;
``signal_number`` says which signal it was. :func:`exit_code_for` gives the exit status to use:
129 for SIGHUP (128 + 1, as a shell reports it), 130 for SIGINT and SIGTERM (the documented
"interrupted" status). :func:`sigterm_as_keyboard_interrupt` is for work outside trio (the
training loops): SIGTERM then stops it as Ctrl-C does.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import trio

from arena.process.bot import kill_all_live_groups

T = TypeVar("T")

INTERRUPTED_EXIT_CODE = 130
HANGUP_EXIT_CODE = 129
_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def exit_code_for(signal_number: int | None) -> int:
    """The exit status after a stop caused by ``signal_number`` (None: Ctrl-C seen as
    KeyboardInterrupt): 129 for SIGHUP, else 130."""
    return HANGUP_EXIT_CODE if signal_number == signal.SIGHUP else INTERRUPTED_EXIT_CODE


@dataclass
class Interruption:
    """Set by :func:`interruptible`: ``interrupted`` is True once a first signal has arrived."""

    interrupted: bool = False
    signal_number: int | None = None


def _hard_stop(first_signal: int | None) -> None:
    kill_all_live_groups()
    with contextlib.suppress(Exception):
        sys.stderr.write("\narena: interrupted again, killed all bots\n")
        sys.stderr.flush()
    # Bots' escaped descendants: the guardian kills them once this process is gone.
    os._exit(exit_code_for(first_signal))


@contextlib.asynccontextmanager
async def interruptible(
    on_first_signal: Callable[[int], None] | None = None,
    state: Interruption | None = None,
) -> AsyncIterator[Interruption]:
    """Cancel the body on the first SIGINT/SIGTERM/SIGHUP; SIGKILL all bots and ``os._exit`` on the second.

    ``on_first_signal(signum)`` (optional, synchronous) runs when the first signal arrives, e.g. to
    print "stopping...". The block exits normally after a cancellation caused by a signal.
    ``state`` (optional): the :class:`Interruption` to set (and yield), so code that only holds it
    can ask whether a signal came.
    """
    state = Interruption() if state is None else state
    with _unwrap_single():
        async with _watched(state, on_first_signal) as yielded:
            yield yielded


@contextlib.contextmanager
def _unwrap_single() -> Any:
    """Let a lone exception out of trio's exception group so callers see the real error."""
    try:
        yield
    except BaseExceptionGroup as group:
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise


@contextlib.asynccontextmanager
async def _watched(
    state: Interruption, on_first_signal: Callable[[int], None] | None
) -> AsyncIterator[Interruption]:
    async with trio.open_nursery() as nursery:
        with trio.CancelScope() as work_scope:

            async def watch(task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
                with trio.open_signal_receiver(*_SIGNALS) as signals:
                    task_status.started()
                    async for signum in signals:
                        if state.interrupted:
                            _hard_stop(state.signal_number)
                        state.interrupted = True
                        state.signal_number = signum
                        if on_first_signal is not None:
                            on_first_signal(signum)
                        work_scope.cancel()

            await nursery.start(watch)
            try:
                yield state
            finally:
                # The watcher stays alive during the body's teardown so a second signal still works;
                # only now that the body is done do we stop it.
                nursery.cancel_scope.cancel()


def run_trio_interruptibly(
    async_fn: Callable[..., Awaitable[T]],
    *args: Any,
    on_first_signal: Callable[[int], None] | None = None,
    interruption: Interruption | None = None,
) -> tuple[T | None, bool]:
    """``trio.run(async_fn, *args)`` with graceful-then-hard signal handling (see module docstring).

    Returns ``(result, interrupted)``; ``result`` is None when the work was cancelled by a signal.
    A KeyboardInterrupt that slips in before the watcher is installed also counts as interrupted.
    ``interruption`` (optional) is set as the signals come, so the work can read it while it
    unwinds (e.g. to write an "interrupted" summary), and says which signal stopped the run.
    """
    seen = interruption if interruption is not None else Interruption()

    async def main() -> tuple[T | None, bool]:
        result: T | None = None
        async with interruptible(on_first_signal, seen) as state:
            result = await async_fn(*args)
        return result, state.interrupted

    try:
        with _unwrap_single():
            return trio.run(main)
    except KeyboardInterrupt:
        kill_all_live_groups()
        seen.interrupted, seen.signal_number = True, signal.SIGINT
        return None, True


def _sigterm_as_keyboard_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_keyboard_interrupt() -> Iterator[None]:
    """For work outside trio (training loops that catch KeyboardInterrupt to save and stop): SIGTERM
    raises KeyboardInterrupt too, while the block runs (the handler before it is restored)."""
    previous = signal.signal(signal.SIGTERM, _sigterm_as_keyboard_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
