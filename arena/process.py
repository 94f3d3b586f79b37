"""A bot as an operating-system process: spawn, bounded reads, deadlines, stderr drain, group kill.

This module knows nothing about games or protocols: it moves bytes. The contract:

- :func:`open_bot_process` is an async context manager. It starts ``argv`` (a list, never run through
  a shell) in its **own session and process group**, with stdin/stdout pipes, and drains stderr
  concurrently into a :class:`StderrSink` (a size-capped file or an in-memory tail), so a bot that
  floods stderr can never block on a full pipe. On exit — normal, error, cancellation or Ctrl-C —
  it always tears down, shielded from cancellation: SIGTERM to the whole group, a short grace,
  SIGKILL to the group, then it reaps the child. Grandchildren in the group die with it.
- :class:`BotProcess` ``send``/``read_line``/``read_json_object`` never read more than their byte
  limit into memory: an over-long reply raises :class:`ReplyTooLong` rather than growing a buffer.
  Deadlines are the caller's (a cancel scope around the call); the write goes under the same
  deadline as the read so a bot that stops reading stdin cannot block us. ``send_nowait`` writes
  what fits without waiting (the common case: a turn's input fits in the pipe).
- End of stdout raises :class:`EndOfOutput` (with any partial bytes); a write to a dead bot raises
  :class:`BotGone`. :meth:`BotProcess.exit_description` then names the exit code or signal.
- Every live process group is in a module registry so :func:`kill_all_live_groups` can SIGKILL
  them all at once (used by the second Ctrl-C, see :mod:`arena.signals`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import subprocess
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import orjson
import trio

from arena.errors import ArenaError, BotError

DEFAULT_MAX_REPLY_BYTES = 1 << 20  # 1 MiB: far above any real reply, far below trouble
DEFAULT_KILL_GRACE_S = 0.2
DEFAULT_STDERR_CAP_BYTES = 1 << 20
DEFAULT_STDERR_TAIL_BYTES = 16 << 10
_RECEIVE_CHUNK = 65536

# pgid -> number of live BotProcess objects in it (one, in practice). Process groups live here from
# spawn until the group has been killed and the leader reaped.
_live_groups: dict[int, int] = {}


def live_groups() -> list[int]:
    """Process-group ids of bots that are running now (started and not yet torn down)."""
    return list(_live_groups)


def kill_all_live_groups() -> None:
    """SIGKILL every live bot process group at once. Safe to call from anywhere, never raises."""
    for pgid in list(_live_groups):
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)


class TransportError(ArenaError):
    """A bot's pipes failed us: it closed stdout, died, or sent too much."""


class EndOfOutput(TransportError):
    """The bot's stdout reached end of file. ``partial`` is what it sent of an unfinished reply."""

    def __init__(self, partial: bytes) -> None:
        super().__init__("the bot closed its stdout")
        self.partial = partial


class ReplyTooLong(TransportError):
    """A reply grew past the byte limit before it ended. ``head`` is its start (for the reason)."""

    def __init__(self, limit: int, head: bytes) -> None:
        super().__init__(f"reply longer than {limit} bytes")
        self.limit = limit
        self.head = head


class BotGone(TransportError):
    """Writing to the bot failed: its stdin is closed (usually because it exited)."""


class StderrSink:
    """Where a bot's stderr goes: a file capped at ``cap`` bytes, or an in-memory tail.

    With ``path``, the first ``cap`` bytes are kept and a note says how much was dropped. Without it,
    the last ``tail`` bytes are kept in memory (:meth:`text`) for a record when the bot faulted.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        cap: int = DEFAULT_STDERR_CAP_BYTES,
        tail: int = DEFAULT_STDERR_TAIL_BYTES,
    ) -> None:
        self.path = path
        self.cap = cap
        self.tail_cap = tail
        self.total = 0
        self._tail = bytearray()
        self._file = None
        self._written = 0
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(path, "wb")  # noqa: SIM115 - closed in close()

    def write(self, data: bytes) -> None:
        self.total += len(data)
        if self._file is not None:
            room = self.cap - self._written
            if room > 0:
                chunk = data[:room]
                self._file.write(chunk)
                self._written += len(chunk)
        else:
            self._tail += data
            if len(self._tail) > 2 * self.tail_cap:
                del self._tail[: len(self._tail) - self.tail_cap]

    def text(self) -> str:
        """The kept tail (in-memory mode) or the start of the file, decoded leniently."""
        if self._file is not None and self.path is not None:
            self._file.flush()
            with open(self.path, "rb") as f:
                return f.read(self.tail_cap).decode("utf-8", "replace")
        return bytes(self._tail[-self.tail_cap :]).decode("utf-8", "replace")

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            dropped = self.total - self._written
            if dropped > 0:
                self._file.write(f"\n[arena: {dropped} more bytes of stderr dropped]\n".encode())
            self._file.close()


# Scanners for the JSON-object reader: outside strings the interesting bytes are braces and quotes;
# inside a string, quotes and backslashes.
_OUTSIDE = re.compile(rb'[{}"]')
_INSIDE = re.compile(rb'["\\]')
_NON_SPACE = re.compile(rb"[^ \t\r\n]")


class ReplyReader:
    """Bounded framing over a receive stream: lines, or JSON objects found by brace matching.

    Memory stays bounded by about ``limit`` plus one receive chunk, whatever the peer sends.

    With ``fd`` (the stream's non-blocking file descriptor) the reader waits with
    ``trio.lowlevel.wait_readable`` and calls ``os.read`` itself: one pass of the scheduler per
    chunk instead of the two or three that ``receive_some`` costs (its checkpoint, a read that
    fails, then the wait). ``waits`` counts the waits (in either mode), so a caller can tell whether
    a read gave other tasks a turn: a reply already in the buffer is returned without one.
    """

    def __init__(self, stream: trio.abc.ReceiveStream, fd: int | None = None) -> None:
        self._stream = stream
        self._fd = fd
        self._buffer = bytearray()
        self._eof = False
        self.waits = 0
        self.last_parsed: tuple[bytes, Any] | None = None

    def pending(self) -> bytes:
        """Bytes received but not consumed yet (e.g. half a reply at a timeout)."""
        return bytes(self._buffer)

    async def _fill(self, limit: int) -> None:
        """Receive one more chunk into the buffer; EndOfOutput at EOF."""
        if self._eof:
            raise EndOfOutput(bytes(self._buffer))
        # Never ask for more than the limit allows, so memory stays bounded by ~limit + one chunk.
        want = max(1, min(_RECEIVE_CHUNK, limit + 1 - len(self._buffer)))
        fd = self._fd
        if fd is not None:
            # Wait first: we come here right after writing a turn's input, when the reply is
            # almost never there yet, and a read that fails with EAGAIN costs an exception.
            while True:
                self.waits += 1
                try:
                    await trio.lowlevel.wait_readable(fd)
                    chunk = os.read(fd, want)
                    break
                except BlockingIOError:
                    continue
                except (OSError, trio.ClosedResourceError):
                    # EBADF (closed under us) or EIO: as good as end of output.
                    chunk = b""
                    break
        else:
            self.waits += 1
            try:
                chunk = await self._stream.receive_some(want)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                chunk = b""
        if not chunk:
            self._eof = True
            raise EndOfOutput(bytes(self._buffer))
        self._buffer += chunk

    def _too_long(self, limit: int) -> ReplyTooLong:
        head = bytes(self._buffer[:200])
        # The rest of the over-long line is junk; the game is over for this bot anyway.
        self._buffer.clear()
        return ReplyTooLong(limit, head)

    async def read_line(self, limit: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """The next line without its ``\\n``. ReplyTooLong past ``limit`` bytes; EndOfOutput at EOF."""
        scanned = 0
        while True:
            index = self._buffer.find(b"\n", scanned)
            if index >= 0:
                if index > limit:
                    raise self._too_long(limit)
                line = bytes(self._buffer[:index])
                del self._buffer[: index + 1]
                return line
            scanned = len(self._buffer)
            if scanned > limit:
                raise self._too_long(limit)
            await self._fill(limit)

    async def read_json_object(self, limit: int = DEFAULT_MAX_REPLY_BYTES) -> bytes:
        """The next JSON object's bytes, found by matching braces outside strings.

        Whitespace before the object is skipped, so an object may be one line or pretty-printed
        over many. If the next non-blank byte is not ``{``, the rest of that line is returned as it
        is (the caller's parser then calls it malformed) instead of waiting for a brace that may
        never come. Raises ReplyTooLong past ``limit`` bytes, EndOfOutput at EOF.

        When the object was a whole line that parsed as JSON, :attr:`last_parsed` is
        ``(returned bytes, parsed dict)``, so the caller need not parse it again.
        """
        buffer = self._buffer
        if not buffer:
            await self._fill(limit)
        # Fast path for the common reply, one object on one line arriving at once: a first line
        # that parses as a whole JSON object is exactly the object brace matching would find.
        if buffer[0] == 0x7B:
            newline = buffer.find(b"\n")
            if 0 < newline <= limit:
                line = bytes(buffer[:newline])
                try:
                    parsed = orjson.loads(line)
                except orjson.JSONDecodeError:
                    parsed = None
                if type(parsed) is dict:
                    del buffer[: newline + 1]
                    line = line.rstrip()
                    self.last_parsed = (line, parsed)
                    return line
        while True:
            match = _NON_SPACE.search(self._buffer)
            if match is not None:
                del self._buffer[: match.start()]
                break
            self._buffer.clear()
            await self._fill(limit)
        if self._buffer[0] != 0x7B:  # not "{": hand back the line
            return await self.read_line(limit)
        depth = 0
        in_string = False
        pos = 0
        while True:
            while True:
                if in_string:
                    found = _INSIDE.search(self._buffer, pos)
                    if found is None:
                        break
                    pos = found.end()
                    if found.group() == b"\\":
                        if pos >= len(self._buffer):
                            pos -= 1  # the escaped byte has not arrived yet: rescan later
                            break
                        pos += 1
                    else:
                        in_string = False
                else:
                    found = _OUTSIDE.search(self._buffer, pos)
                    if found is None:
                        break
                    pos = found.end()
                    byte = found.group()
                    if byte == b'"':
                        in_string = True
                    elif byte == b"{":
                        depth += 1
                    else:
                        depth -= 1
                        if depth == 0:
                            if pos > limit:
                                raise self._too_long(limit)
                            obj = bytes(self._buffer[:pos])
                            del self._buffer[:pos]
                            return obj
            if len(self._buffer) > limit:
                raise self._too_long(limit)
            pos = max(0, min(pos, len(self._buffer)))
            await self._fill(limit)


class BotProcess:
    """The pipes of one running bot. Build it with :func:`open_bot_process`."""

    def __init__(self, proc: trio.Process, argv: Sequence[str], sink: StderrSink) -> None:
        self.proc = proc
        self.argv = list(argv)
        self.stderr = sink
        self.pid = proc.pid
        self._killed = False
        self.drained = trio.Event()
        assert proc.stdin is not None and proc.stdout is not None
        self._stdin = proc.stdin
        self._stdout = proc.stdout
        # The pipes' descriptors (trio made them non-blocking): the turn path reads and writes them
        # directly, which saves scheduler passes (see ReplyReader).
        self._stdin_fd = proc.stdin.fileno()
        self.reader = ReplyReader(proc.stdout, proc.stdout.fileno())
        # The reader's methods, directly on the process for callers' convenience.
        self.read_line = self.reader.read_line
        self.read_json_object = self.reader.read_json_object
        self.pending = self.reader.pending

    # -- writing ---------------------------------------------------------------------------------

    def send_nowait(self, data: bytes | memoryview) -> int:
        """Write what the pipe takes of ``data`` now, without waiting; the number of bytes written.

        A turn's input nearly always fits in the pipe, so this usually writes it all and the turn
        costs no extra pass of the scheduler. Raises :class:`BotGone` if the bot's stdin is closed.
        """
        try:
            return os.write(self._stdin_fd, data)
        except BlockingIOError:
            return 0
        except OSError as exc:  # EPIPE: the bot is gone; EBADF: we closed the pipe
            raise BotGone("the bot's stdin is closed") from exc

    async def send(self, data: bytes | memoryview) -> None:
        """Write all of ``data``, waiting while the pipe is full. Raises :class:`BotGone` if the
        bot's stdin is closed. The caller's deadline bounds the wait (a bot that stops reading)."""
        view = memoryview(data)
        while view:
            written = self.send_nowait(view)
            view = view[written:]
            if view:
                try:
                    await trio.lowlevel.wait_writable(self._stdin_fd)
                except trio.ClosedResourceError as exc:
                    raise BotGone("the bot's stdin is closed") from exc

    # -- exit status -----------------------------------------------------------------------------

    async def wait_exit(self, timeout: float) -> int | None:
        """The exit status (negative: killed by that signal) if the bot exits within ``timeout``."""
        with trio.move_on_after(timeout):
            return await self.proc.wait()
        return self.proc.returncode

    async def exit_description(self, timeout: float = 0.5) -> str:
        """A phrase for a reason: 'exited with code 3', 'was killed by SIGSEGV', or that it is
        still running after closing its output (waits up to ``timeout`` for it to exit)."""
        code = await self.wait_exit(timeout)
        return describe_exit(code)

    # -- teardown --------------------------------------------------------------------------------

    async def kill(self, grace: float = DEFAULT_KILL_GRACE_S) -> None:
        """SIGTERM the group, wait up to ``grace``, SIGKILL the group, reap. Shielded; never raises."""
        if self._killed:
            return
        self._killed = True
        with trio.CancelScope(shield=True):
            pgid = self.pid
            if self.proc.returncode is None:
                _signal_group(pgid, signal.SIGTERM)
                with trio.move_on_after(grace):
                    await self.proc.wait()
            # Even if the leader is gone, grandchildren may remain in its group.
            _signal_group(pgid, signal.SIGKILL)
            await self.proc.wait()
            # A closed descriptor's number may be reused at once: never touch these numbers again.
            self._stdin_fd = -1
            self.reader._fd = -1
            for stream in (self._stdin, self._stdout):
                with contextlib.suppress(Exception):
                    await stream.aclose()
            count = _live_groups.get(pgid, 0) - 1
            if count <= 0:
                _live_groups.pop(pgid, None)
            else:
                _live_groups[pgid] = count


def describe_exit(code: int | None) -> str:
    """Human phrase for a process exit status as trio/subprocess reports it."""
    if code is None:
        return "closed its stdout but kept running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with code {code}"


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass
    except PermissionError:
        # A pid reused by someone else's group would be EPERM: never our bot, leave it alone.
        pass


async def _drain(stream: trio.abc.ReceiveStream, sink: StderrSink, done: trio.Event) -> None:
    try:
        while True:
            try:
                chunk = await stream.receive_some(_RECEIVE_CHUNK)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                return
            if not chunk:
                return
            sink.write(chunk)
    finally:
        done.set()


@contextlib.asynccontextmanager
async def open_bot_process(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    stderr: StderrSink | None = None,
    env: dict[str, str] | None = None,
    kill_grace: float = DEFAULT_KILL_GRACE_S,
) -> AsyncIterator[BotProcess]:
    """Start ``argv`` in a new session and yield its :class:`BotProcess`; always kill it on exit.

    Raises :class:`BotError` (message names the program) if it cannot be started at all.
    """
    if not argv:
        raise BotError("empty bot command")
    sink = stderr if stderr is not None else StderrSink()
    try:
        proc = await trio.lowlevel.open_process(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=cwd,
            env=env,
        )
    except OSError as exc:
        sink.close()
        why = exc.strerror or str(exc)
        if exc.errno == errno.ENOENT:
            why = "no such file or program"
        raise BotError(f"cannot start {argv[0]!r}: {why}") from exc
    _live_groups[proc.pid] = _live_groups.get(proc.pid, 0) + 1
    bot = BotProcess(proc, argv, sink)
    try:
        async with trio.open_nursery() as nursery:
            assert proc.stderr is not None
            nursery.start_soon(_drain, proc.stderr, sink, bot.drained)
            try:
                yield bot
            finally:
                await bot.kill(kill_grace)
                # The group is dead, so stderr reaches EOF soon; bound the wait anyway.
                with trio.CancelScope(shield=True), trio.move_on_after(1.0) as scope:
                    await bot.drained.wait()
                if scope.cancelled_caught:
                    nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            await bot.kill(kill_grace)  # no-op when already done; covers a failing nursery
            with contextlib.suppress(Exception):
                await proc.stderr.aclose()  # type: ignore[union-attr]
        sink.close()

