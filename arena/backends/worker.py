"""A worker process of the local backend: plays the games its driver sends, each in its own task
of this process's trio run (``python -m arena.backends.worker IN_FD OUT_FD``; frames of
:mod:`arena.backends.wire`).

Its life is its driver's: it ends when the driver's pipe ends (the driver closed it or died, even
by ``kill -9``) or at SIGTERM/SIGINT (the driver's close), and ending cancels every game, whose
bots ``play_game`` kills and reaps, shielded, before the process exits. Started in a session of
its own, so a Ctrl-C at the terminal reaches the driver alone, which cancels the games it wants
cancelled. A bot also dies with its worker if the worker is killed outright (parent-death signal
and the guardian: :mod:`arena.process.spawn`).
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import trio

from arena.backends.local import run_job
from arena.backends.wire import EventPickler, FrameReader, frame
from arena.errors import ArenaError, ResourceError


class Worker:
    """The games in play (by the driver's job id) and the one queue of frames to the driver."""

    def __init__(self, out: trio.abc.SendStream) -> None:
        self.out = out
        self.send, self.frames = trio.open_memory_channel[bytes](math.inf)
        self.games: dict[int, trio.CancelScope] = {}

    def put(self, message: tuple[Any, ...]) -> None:
        self.send.send_nowait(frame(message))

    async def writer(self) -> None:
        """Send queued frames, everything queued at once in one write (events of many plies)."""
        async for first in self.frames:
            batch = [first]
            while True:
                try:
                    batch.append(self.frames.receive_nowait())
                except trio.WouldBlock:
                    break
            await self.out.send_all(b"".join(batch))

    def observer(self, job_id: int) -> Any:
        pickler = EventPickler()

        def forward(event: Any) -> None:
            # An event that cannot be pickled (a game holding a handle) is missed by the live view only.
            with contextlib.suppress(Exception):
                self.put(("event", job_id, *pickler.dumps(event)))

        return forward

    async def play(self, job_id: int, job: Any, stderr_dir: Path | None, events: bool, portable: Any = None) -> None:
        """Play ``job``; forward its events when ``events``; call ``portable`` (an observer that
        runs anywhere, sent with the job) here, and close it when the game is over."""
        observer = portable if portable is not None else self.observer(job_id) if events else None
        with trio.CancelScope() as scope, _closing(portable):
            self.games[job_id] = scope
            try:
                record = await run_job(job, stderr_dir=stderr_dir, observer=observer)
            except ResourceError as exc:
                self.put(("raise", job_id, "resource", str(exc)))
                return
            except OSError as exc:
                self.put(("raise", job_id, "os", str(exc)))
                return
            except ArenaError as exc:  # a user's error (a plugin that cannot load here...): its own class
                self.put(("raise", job_id, "arena", _portable_error(exc)))
                return
            except Exception as exc:  # noqa: BLE001 - a bug: the driver raises it as its own
                self.put(("raise", job_id, type(exc).__name__, str(exc)))
                return
            finally:
                del self.games[job_id]
            self.put(("done", job_id, record))
        if scope.cancelled_caught:
            self.put(("cancelled", job_id))


def _portable_error(exc: ArenaError) -> ArenaError:
    """``exc`` as it can cross the pipe: itself when it pickles back to its class and message,
    else an :class:`ArenaError` of its message (one line either way, as the CLI prints it)."""
    try:
        back = pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - an error class with its own constructor: its words are enough
        return ArenaError(str(exc))
    return exc if type(back) is type(exc) and str(back) == str(exc) else ArenaError(str(exc))


@contextlib.contextmanager
def _closing(observer: Any) -> Iterator[None]:
    try:
        yield
    finally:
        close = getattr(observer, "close", None)
        if close is not None:
            close()


async def serve(in_fd: int, out_fd: int) -> None:
    """Play what arrives on ``in_fd`` until it ends or a signal comes; answer on ``out_fd``."""
    worker = Worker(trio.lowlevel.FdStream(out_fd))
    reader = FrameReader(trio.lowlevel.FdStream(in_fd))
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async with trio.open_nursery() as nursery:

            async def write() -> None:
                await worker.writer()
                nursery.cancel_scope.cancel()  # everything is sent: stop listening for signals

            nursery.start_soon(write)

            async def on_signal() -> None:
                async for _ in signals:
                    nursery.cancel_scope.cancel()

            nursery.start_soon(on_signal)
            try:
                async with trio.open_nursery() as games:
                    while (message := await reader.next()) is not None:
                        if message[0] == "play":
                            games.start_soon(worker.play, *message[1:])
                        elif message[0] == "cancel" and message[1] in worker.games:
                            worker.games[message[1]].cancel()
                    games.cancel_scope.cancel()  # the driver is gone: so are its games
            except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            # Every game has answered: the writer sends the last frames, then stops (a driver that
            # no longer reads gets a few seconds).
            worker.send.close()
            nursery.cancel_scope.deadline = trio.current_time() + 5


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m arena.backends.worker IN_FD OUT_FD", file=sys.stderr)
        return 2
    trio.run(serve, int(argv[0]), int(argv[1]))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main(sys.argv[1:]))
