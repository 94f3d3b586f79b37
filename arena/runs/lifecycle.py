"""A run's life, whatever its schedule (a tournament, a league): set-up, play under stop signals
with the final flush, and stop signals that exit at once outside play.

The order a caller follows (``arena run``, ``arena league``)::

    with signals_exit_at_once():          # before the first game: nothing to flush
        run = make(...); start(run)       # logs opened, the folder resumed, the backend opened
        for line in set_up_notes(run, ...): say(line)
        ended = play_to_the_end(run, on_first_signal=...)

A first SIGINT, SIGTERM or SIGHUP while games run cancels them (they are not counted) and lets
the final flush (:meth:`Run.finish`: standings, per-agent files) run shielded; a second one stops
at once. The exit status of the signal is :func:`arena.process.signals.exit_code_for`.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from arena.errors import ArenaError
from arena.process.bot import kill_all_live_groups
from arena.process.signals import Interruption, exit_code_for, run_trio_interruptibly
from arena.process.spawn import prepare as prepare_spawning

#: Where a run's log folders go unless told (``<DEFAULT_LOGS>/<id>/``).
DEFAULT_LOGS = Path("tournament_logs")

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)


class Run(Protocol[S_co]):
    """What the lifecycle drives: :class:`arena.tournament.runner.Tournament` and its league."""

    field_change: Any  # what changed in the field since the folder's last run (None: nothing to say)
    concurrency: int
    concurrency_note: str | None
    backend: Any  # the opened backend (its describe() says what a cluster needs), or None

    def prepare(self) -> None:
        """Open the logs (resuming the folder), check the programs, open the backend. Raises
        ArenaError (ClusterError when the cluster cannot be used)."""

    async def play(self) -> None:
        """Play every game the schedule gives, each written as it ends."""

    async def finish(self, *, interrupted: bool) -> S_co:
        """The final flush (standings, per-agent files), shielded by the caller; the run's summary."""
        ...


R = TypeVar("R", bound=Run[Any])


def start(run: R) -> R:
    """:meth:`Run.prepare` ``run``, then start the spawning machinery (the guardian and the spawner
    thread) now rather than while the first games' clocks run. Returns ``run``; raises as prepare."""
    run.prepare()
    prepare_spawning()
    return run


def set_up_notes(run: Run[Any], *, local: bool, isolation_note: str | None) -> list[str]:
    """The lines a prepared ``run`` says before play: what changed in its field and what will be
    played, the unprotected-bots warning ``isolation_note``, the concurrency and backend notes, and
    (``local``: games run on this machine) more games at once than cores."""
    lines: list[str] = []
    change = run.field_change
    if change is not None and (change.changed or change.kept or change.history):
        lines.extend(change.lines())
    if isolation_note:
        lines.append(f"warning: {isolation_note}")
    if run.concurrency_note:
        lines.append(f"note: {run.concurrency_note}")
    described = run.backend.describe() if run.backend is not None else None
    if described:
        lines.append(f"note: {described}")
    cores = os.cpu_count() or 1
    if run.concurrency > cores and local:
        lines.append(f"note: concurrency {run.concurrency} is above the {cores} cores: bots thinking "
                     "at the same time share cores while their clocks run")
    return lines


@dataclass(frozen=True)
class Ended(Generic[S]):
    """How a run ended: its ``summary`` (from the final flush), the ``failure`` that stopped it (one
    line; None when it was not stopped by one) and the ``signal_number`` that stopped it, if any."""

    summary: S
    failure: str | None
    signal_number: int | None


def play_to_the_end(run: Run[S], *, on_first_signal: Callable[[int], None] | None = None) -> Ended[S]:
    """Play ``run`` under signal handling and always run its final flush (module docstring).
    ``on_first_signal(signum)`` is told of the first stop signal (a view says "stopping"). A failure
    in play (an ArenaError, or a bug: it must not lose the finished games' statistics nor show a
    traceback) ends the run with the flush done and is returned as one line."""
    outcome: dict[str, Any] = {}
    seen = Interruption()

    async def main() -> None:
        failure: str | None = None
        try:
            await run.play()
        except Exception as exc:  # noqa: BLE001 - said as the run's failure, after the flush below
            failure = str(exc) if isinstance(exc, ArenaError) else f"{type(exc).__name__}: {exc}"
        finally:
            outcome["summary"] = await run.finish(interrupted=seen.interrupted)
            outcome["failure"] = failure

    run_trio_interruptibly(main, on_first_signal=on_first_signal, interruption=seen)
    return Ended(outcome["summary"], outcome["failure"], seen.signal_number)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _exit_now(signum: int, frame: Any) -> None:
    """A stop signal outside the run's own watcher: before the first game or after the last write,
    so there is nothing left to flush."""
    kill_all_live_groups()
    os.write(2, b"\narena: interrupted\n")
    os._exit(exit_code_for(signum))


@contextlib.contextmanager
def signals_exit_at_once() -> Iterator[None]:
    """Exit at once (killing any bot started) on SIGINT, SIGTERM and SIGHUP while inside (restored
    afterwards). trio keeps a handler it finds installed, and the watcher replaces it only while
    games run."""
    previous = {sig: signal.signal(sig, _exit_now) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
