"""The local backend's worker processes: games played in N other processes of this machine, so
that arena's own process (the driver: scheduling, the log folder, the live view) is never what
limits games a second (issue 36).

Each worker (:mod:`arena.backends.worker`) runs its own trio loop and plays, each in a task, the
games it is sent; a game goes to the worker with the fewest games in play, and a new worker is
started while every worker is busy and there are fewer than ``size``. The driver reads each
worker's frames (:mod:`arena.backends.wire`) in a task of its own and hands each game its record,
or its error, and calls the game's observer with the events the worker forwards (only for games
that have an observer). An observer that runs anywhere (:func:`arena.match.progress.runs_anywhere`:
the tournament's live trace) is sent with the game instead and called in the worker, so a game
costs the driver nothing a ply.

Scale (bench/speed.py, instant C Breakthrough bots, 59 plies a game, concurrency 2, load 20-25):
the driver's own CPU is 2.96 ms a game (9.96 when every step crossed the pipe for the live trace),
so one driver core keeps up with about 340 games a second. A core of instant bots plays about 20
(arena's worker 0.49 ms and the bots 0.35 ms of CPU a ply): the driver keeps up to about 16 cores.
What is left is mostly writing the record (its file, two ``fsync`` and the row's ``fdatasync``: 1.6 ms
a game under cProfile, the largest part); for 64 cores the design is the workers writing and syncing the
records (in parallel) and the driver syncing the rows of the games that ended together once.

Faults: a worker that dies (killed, crashed) takes only its games with it: each raises
:class:`arena.errors.ResourceError` (an ``arena_error``: the tournament plays it again) and the
next game starts a fresh worker; its bots die with it (parent-death signal, the guardian).
Cancelled, a game is cancelled in its worker and :meth:`WorkerPool.play` returns once the worker
says its bots are gone (at most :data:`CANCEL_GRACE_S`). :meth:`WorkerPool.close` ends every
worker: SIGTERM (each cancels its games and kills their bots), :data:`CLOSE_GRACE_S`, then
SIGKILL, and reaps it, always by the PID it started.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from arena.backends.wire import EventUnpickler, FrameReader, frame
from arena.errors import ResourceError
from arena.match.progress import Observer, runs_anywhere

#: How long a cancelled game may take to end in its worker (its bots' teardown) before play returns.
CANCEL_GRACE_S = 10.0
#: How long a worker has to end its games after SIGTERM before it is SIGKILLed.
CLOSE_GRACE_S = 10.0


@dataclass
class _Game:
    observer: Observer | None
    done: trio.Event = field(default_factory=trio.Event)
    events: EventUnpickler = field(default_factory=EventUnpickler)
    answer: tuple[Any, ...] | None = None


class _Worker:
    """One worker process, the driver's ends of its two pipes and the games it plays."""

    def __init__(self) -> None:
        their_in, to_worker = os.pipe()
        from_worker, their_out = os.pipe()
        try:
            # Its own session: a Ctrl-C at the terminal reaches the driver only (module docstring).
            self.process = subprocess.Popen(
                [sys.executable, "-m", "arena.backends.worker", str(their_in), str(their_out)],
                stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno() if _has_fd(sys.stderr) else subprocess.DEVNULL,
                pass_fds=(their_in, their_out), start_new_session=True)
        except OSError as exc:
            os.close(to_worker)
            os.close(from_worker)
            raise ResourceError(f"cannot start a worker process: {exc.strerror or exc}") from None
        finally:
            os.close(their_in)
            os.close(their_out)
        self.pid = self.process.pid
        self.send_stream = trio.lowlevel.FdStream(to_worker)
        self.from_worker = trio.lowlevel.FdStream(from_worker)
        self.reader = FrameReader(self.from_worker)
        self.send_lock = trio.Lock()
        self.games: dict[int, _Game] = {}
        self.dead: str | None = None

    async def send(self, message: tuple[Any, ...]) -> None:
        async with self.send_lock:
            await self.send_stream.send_all(frame(message))

    async def read(self) -> None:
        """Dispatch the worker's frames until it ends; then fail the games it still had."""
        try:
            while (message := await self.reader.next()) is not None:
                game = self.games.get(message[1])
                if game is None:
                    continue  # a cancelled game's late frame
                if message[0] == "event":
                    if game.observer is not None:
                        try:
                            event = game.events.loads(message[2], message[3])
                        except (pickle.UnpicklingError, IndexError, AttributeError, EOFError, TypeError):
                            continue  # the live view misses one event; the game and the run go on
                        game.observer(event)
                else:
                    game.answer = message
                    game.done.set()
        except (EOFError, ValueError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        self.dead = self.end_status()
        for game in self.games.values():
            if not game.done.is_set():
                game.answer = ("raise", None, "resource", f"worker process {self.pid} {self.dead}")
                game.done.set()

    def end_status(self) -> str:
        """How the worker ended, once it has (it is killed first if it still runs: its pipe is gone)."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGKILL)
        code = self.process.wait()
        return f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"

    def stop(self) -> None:
        """End the worker (SIGTERM, a grace, SIGKILL) and reap it; close the driver's pipe ends."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(CLOSE_GRACE_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.send_stream, self.from_worker):
            # Outside the run that made it a stream closes itself when dropped (trio's __del__).
            with contextlib.suppress(RuntimeError):
                stream.close()


def _has_fd(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


class WorkerPool:
    """Up to ``size`` worker processes playing games (module docstring). Bound to the trio run of
    its first game: a later run starts fresh workers."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self.workers: list[_Worker] = []
        self._ids = itertools.count()
        self._run: object | None = None

    def pids(self) -> list[int]:
        """The PIDs of the workers started and not yet reaped."""
        return [w.pid for w in self.workers if w.process.returncode is None]

    def _worker(self) -> _Worker:
        run = trio.lowlevel.current_root_task()
        if run is not self._run:
            self.close()  # a worker's pipes belong to the run that made them
            self._run = run
        self.workers = [w for w in self.workers if w.dead is None]
        idle = min(self.workers, key=lambda w: len(w.games), default=None)
        if idle is not None and (not idle.games or len(self.workers) >= self.size):
            return idle
        worker = _Worker()
        self.workers.append(worker)
        trio.lowlevel.spawn_system_task(worker.read, name=f"arena worker {worker.pid}")
        return worker

    async def play(self, job: Any, *, stderr_dir: Path | None = None, observer: Observer | None = None) -> dict[str, Any]:
        """Play ``job`` in a worker; its record. Raises as :meth:`arena.backends.Backend.play`."""
        worker = self._worker()
        job_id = next(self._ids)
        # An observer that runs anywhere (a live trace) goes with the job: no event crosses the pipe.
        portable = observer if runs_anywhere(observer) else None
        game = worker.games[job_id] = _Game(None if portable else observer)
        try:
            try:
                await worker.send(("play", job_id, job, stderr_dir, game.observer is not None, portable))
            except (OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                await game.done.wait()  # the worker died: its reader answers for it
            await game.done.wait()
        except trio.Cancelled:
            with trio.move_on_after(CANCEL_GRACE_S) as scope:
                scope.shield = True
                with contextlib.suppress(OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                    await worker.send(("cancel", job_id))
                await game.done.wait()
            raise
        finally:
            del worker.games[job_id]
        return _result(game.answer)

    def close(self) -> None:
        """End every worker and reap it (idempotent)."""
        workers, self.workers = self.workers, []
        for worker in workers:
            with contextlib.suppress(ProcessLookupError):
                if worker.process.poll() is None:
                    worker.process.send_signal(signal.SIGTERM)  # all at once: their graces overlap
        for worker in workers:
            worker.stop()


def _result(answer: tuple[Any, ...] | None) -> dict[str, Any]:
    assert answer is not None
    if answer[0] == "done":
        record: dict[str, Any] = answer[2]
        return record
    if answer[0] == "raise":
        kind, message = answer[2], answer[3]
        if kind == "resource":
            raise ResourceError(message)
        if kind == "os":
            raise OSError(message)
        if kind == "arena":
            raise message  # the worker's ArenaError, of its own class (worker._portable_error)
        raise RuntimeError(f"in a worker process: {kind}: {message}")
    raise ResourceError(f"the worker ended the game without a record ({answer[0]})")
