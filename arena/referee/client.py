"""A referee process, kept for many games: :class:`RefereeClient`, and the pool of them.

One referee runs per command per arena process (:func:`client_for`), started on the first request
and kept: the protocol is stateless (every request carries its state), so every game, and every
game played at the same time in one trio loop, shares it. Requests are blocking: write one line,
wait for one line, with a deadline, polling the pipes (no thread). A request holds the event loop for
its round trip (about 0.17 ms to the Python Nim referee); bots think in their own processes meanwhile.

Never trusted: a crash, silence past the deadline, a line over :data:`MAX_REPLY_BYTES`, garbage, a
reply that breaks the protocol and an ``{"error"}`` answer all raise :class:`RefereeError`, one
line naming the rules program and what went wrong (with the tail of its stderr when it died). After
any failure but an ``{"error"}`` answer the process is killed, and the next request starts a new
one. (Protocol v1 has no request ids: a second line that comes after its reply was read is caught
at the next request, or as the line after that request's reply.) Its stderr is read while waiting (a referee that logs a lot never blocks) and only its last
:data:`STDERR_TAIL_BYTES` kept. The process runs in a session of its own and is killed with its
group (and its cgroup), by PID, when :func:`close_all` runs: at arena's exit (``atexit``), or when
a caller closes the pool. It is started with the argv it is given, never through a shell. Started
by arena itself, it is confined as a bot is (its own user, cgroup and sandbox:
:mod:`arena.referee.confined`); a copy a bot started runs inside that bot's confinement.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from arena.errors import BotError, ConfigError, ResourceError
from arena.referee.protocol import Info, ReplyError, decode_info, decode_reply, request

#: Seconds a referee has to answer one request, and its first one (a JVM starts slowly).
DEFAULT_TIMEOUT_S = 10.0
START_TIMEOUT_S = 30.0
#: The longest reply line arena reads (a state, its moves and observations).
MAX_REPLY_BYTES = 16 << 20
#: How much of a referee's stderr is kept for the message of its crash.
STDERR_TAIL_BYTES = 4096
_CHUNK = 1 << 16
#: What every bot has in its environment (:data:`arena.process.spawn.GAME_TOKEN_VAR`; named here, not
#: imported: a search bot that starts its own copy of a referee would import trio for it).
BOT_MARK = "ARENA_GAME_TOKEN"


class RefereeError(ResourceError):
    """A referee failed (crashed, timed out, sent garbage or a wrong reply, answered an error): one
    line naming the rules program. A :class:`ResourceError`: a game it interrupts is not recorded
    and is played again. ``refusal`` is the referee's own message when it answered ``{"error"}``."""

    def __init__(self, message: str, refusal: str | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


class RefereeClient:
    """One referee command and the process that runs it (started on the first request).

    ``round_trips`` counts the requests answered (the tests and benchmarks read it), ``starts`` the
    processes started. ``argv`` is run as given, from the current folder. ``confine`` (default: unless
    this process is a bot): started as a bot is, its own user, cgroup, sandbox and the bots' minimal
    environment (:mod:`arena.referee.confined`); else a plain child with this process's environment.
    """

    def __init__(self, argv: Sequence[str], *, timeout_s: float = DEFAULT_TIMEOUT_S,
                 start_timeout_s: float = START_TIMEOUT_S, confine: bool | None = None) -> None:
        if not argv:
            raise ValueError("a referee needs a command")
        self.argv = tuple(argv)
        # A copy a bot started (ARENA_GAME_TOKEN is in every bot's environment) is held by the
        # bot's own user, cgroup and sandbox: it is not confined again.
        self.confine = BOT_MARK not in os.environ if confine is None else confine
        self.command = shlex.join(self.argv)
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self.round_trips = 0
        self.starts = 0
        self._proc: _Process | None = None
        self._owner = 0  # the PID that started _proc: a forked child starts its own
        self._fresh = False  # no request answered yet by _proc
        self._out = bytearray()
        self._err = bytearray()
        self._info: Info | None = None

    # -- the requests ----------------------------------------------------------------------------

    def info(self) -> Info:
        """The referee's ``info`` (asked once per client; checked by the protocol)."""
        if self._info is None:
            reply = self.call(request("info"), "info")
            try:
                self._info = decode_info(reply)
            except ReplyError as exc:
                self._fail(str(exc))
        return self._info

    def call(self, line: bytes, cmd: str, timeout_s: float | None = None) -> dict[str, Any]:
        """Send one request line (``cmd`` names it in messages) and return the reply's JSON object.
        RefereeError for every failure (see the module docstring)."""
        proc = self._ensure_started()
        limit = self.start_timeout_s if self._fresh else (timeout_s or self.timeout_s)
        raw = self._exchange(proc, line, cmd, limit)
        self._fresh = False
        self.round_trips += 1
        try:
            return decode_reply(raw)
        except ReplyError as exc:
            if exc.refusal is not None:  # a well-formed answer: the process stays
                raise RefereeError(f"{self._who()}: {cmd}: {exc}", refusal=exc.refusal) from None
            self._fail(f"{cmd}: {exc}")

    def decoded(self, decode: Any, reply: dict[str, Any], cmd: str, *args: Any) -> Any:
        """``decode(reply, *args)``, a protocol decoder; its ReplyError becomes this referee's
        failure (the process is ended)."""
        try:
            return decode(reply, *args)
        except ReplyError as exc:
            self._fail(f"{cmd}: {exc}")

    def fail(self, what: str) -> NoReturn:
        """End the process and raise RefereeError naming the program and ``what`` (for a reply the
        protocol accepts but the game cannot, e.g. a node of the wrong seat count)."""
        self._fail(what)

    # -- the process -------------------------------------------------------------------------------

    def _spawn_plain(self, *, new_session: bool) -> _Process:
        popen = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 bufsize=0, close_fds=True, start_new_session=new_session)
        assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
        # close() kills the group only when it is the referee's own
        return _Process(popen, popen.stdin.fileno(), popen.stdout.fileno(), popen.stderr.fileno(), new_session)

    def _start(self) -> _Process:
        """Start the referee: confined like a bot (:func:`arena.referee.confined.start`) when arena
        itself starts it; as a plain child when a bot does (the bot's confinement holds its copy)."""
        if self.confine:
            from arena.referee.confined import start

            spawned, ended = start(self.argv, self._who())
            return _Process(spawned.popen, spawned.stdin_fd, spawned.stdout_fd, spawned.stderr_fd, True, ended)
        try:
            return self._spawn_plain(new_session=True)
        except PermissionError:
            # Inside a bot's sandbox (arena's own search bot starting its referee) a new session is
            # refused; the bot's cgroup ends the referee with the bot anyway.
            return self._spawn_plain(new_session=False)

    def _ensure_started(self) -> _Process:
        proc = self._proc
        if proc is not None and self._owner == os.getpid():
            if proc.popen.poll() is None:
                self._check_quiet(proc)
                return proc
            self._died(proc, "between requests")
        try:
            proc = self._start()
        except BotError as exc:  # the bots' one line, "cannot start 'prog': why"
            why = str(exc).removeprefix(f"cannot start {self.argv[0]!r}: ")
            raise RefereeError(f"{self._who()}: cannot start it: {why}") from None
        except ConfigError as exc:  # its user cannot reach its program: the message names the referee
            raise RefereeError(str(exc)) from None
        except OSError as exc:
            raise RefereeError(f"{self._who()}: cannot start it: {exc.strerror or exc}") from None
        for fd in (proc.stdin_fd, proc.stdout_fd, proc.stderr_fd):
            os.set_blocking(fd, False)
        self._proc, self._owner, self._fresh = proc, os.getpid(), True
        self._out.clear()
        self._err.clear()
        self.starts += 1
        _pool_opened()
        return proc

    def _exchange(self, proc: _Process, line: bytes, cmd: str, limit_s: float) -> bytes:
        """Write ``line``, read one reply line, under one deadline (a referee that stops reading
        cannot block the write either)."""
        fd_in, fd_out, fd_err = proc.stdin_fd, proc.stdout_fd, proc.stderr_fd
        pending = memoryview(line)
        poller = select.poll()
        poller.register(fd_in, select.POLLOUT)
        poller.register(fd_out, select.POLLIN)
        poller.register(fd_err, select.POLLIN)
        deadline = time.monotonic() + limit_s
        while True:
            end = self._out.find(b"\n")
            if end >= 0:
                reply = bytes(self._out[:end])
                del self._out[:end + 1]
                if pending or self._out:
                    self._fail(f"{cmd}: the reply came before the request was read, or with more after it "
                               "(one request, one line)")
                return reply
            if len(self._out) > MAX_REPLY_BYTES:
                self._fail(f"{cmd}: a reply line over {MAX_REPLY_BYTES} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(f"{cmd}: no reply within {limit_s:g} s")
            for fd, events in poller.poll(max(1, int(left * 1000))):
                if fd == fd_in:
                    try:
                        written = os.write(fd_in, pending[:_CHUNK])
                    except BrokenPipeError:
                        written = len(pending)  # it closed its stdin: what it says is read below
                    except BlockingIOError:
                        written = 0
                    pending = pending[written:]
                    if not pending:
                        poller.unregister(fd_in)
                elif fd == fd_err:
                    if not self._read_stderr(fd_err):
                        poller.unregister(fd_err)
                elif events & (select.POLLIN | select.POLLHUP | select.POLLERR):
                    chunk = _read(fd_out)
                    if chunk == b"":
                        self._drain_stderr(fd_err)
                        self._died(proc, f"during {cmd}")
                    self._out += chunk or b""

    def _read_stderr(self, fd: int) -> bool:
        """Keep the tail of what the referee wrote to stderr; False at the end of its stderr."""
        chunk = _read(fd)
        if chunk:
            self._err += chunk
            del self._err[:-STDERR_TAIL_BYTES]
        return chunk is None or bool(chunk)

    def _drain_stderr(self, fd: int) -> None:
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline and select.select([fd], [], [], 0.05)[0]:
            if not self._read_stderr(fd):
                return

    def _check_quiet(self, proc: _Process) -> None:
        """Fail when the referee wrote to stdout while nobody asked (the next reply would be wrong)."""
        if self._out or select.select([proc.stdout_fd], [], [], 0)[0]:
            chunk = _read(proc.stdout_fd)
            if chunk == b"":
                self._died(proc, "between requests")
            if chunk is not None or self._out:
                self._fail("wrote to stdout between requests (one request, one line)")

    def _died(self, proc: _Process, when: str) -> NoReturn:
        try:
            status = proc.popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        if status is None:
            how = "closed its stdout"
        elif status < 0:
            how = f"was killed by signal {signal.Signals(-status).name}" if -status in signal.valid_signals() \
                else f"was killed by signal {-status}"
        else:
            how = f"exited with status {status}"
        self._fail(f"{how} {when}{self._stderr_tail()}")

    def _stderr_tail(self) -> str:
        text = " / ".join(line.strip() for line in self._err.decode("utf-8", "replace").splitlines() if line.strip())
        return f" (stderr: ...{text[-300:]})" if len(text) > 300 else (f" (stderr: {text})" if text else "")

    def _fail(self, what: str) -> NoReturn:
        self.close()
        raise RefereeError(f"{self._who()}: {what}")

    def _who(self) -> str:
        return f"rules program {self.command!r}"

    def close(self) -> None:
        """Kill the process and everything it started (by its group, and its cgroup when it has
        one), reap it and give back its user and cgroup. Idempotent."""
        proc, self._proc = self._proc, None
        if proc is None or self._owner != os.getpid():
            return
        proc.end()

    @property
    def pid(self) -> int | None:
        """The running process's PID (None when none runs)."""
        return self._proc.popen.pid if self._proc is not None and self._proc.popen.poll() is None else None


class _Process:
    """A running referee: its Popen (for its exit status), arena's ends of its pipes and, when it
    was started confined, what holds it (:class:`arena.process.confinement.Confinement`)."""

    def __init__(self, popen: subprocess.Popen[bytes], stdin_fd: int, stdout_fd: int, stderr_fd: int,
                 own_group: bool, ended: Callable[[], None] | None = None) -> None:
        self.popen = popen
        self.stdin_fd, self.stdout_fd, self.stderr_fd = stdin_fd, stdout_fd, stderr_fd
        self.own_group = own_group
        self._ended = ended

    def end(self) -> None:
        """Kill it and all it started, close the pipes, reap it, then run what it was started
        with asked for at its end (its cgroup emptied and removed, its user given back)."""
        if self.popen.poll() is None:
            try:
                if self.own_group:
                    os.killpg(self.popen.pid, signal.SIGKILL)
                else:
                    self.popen.kill()
            except ProcessLookupError:
                pass
        if self.popen.stdin is not None:  # a plain child: its pipes are Popen's files
            streams = (self.popen.stdin, self.popen.stdout, self.popen.stderr)
            for stream in streams:
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        else:
            for fd in (self.stdin_fd, self.stdout_fd, self.stderr_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
        try:
            self.popen.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        if self._ended is not None:
            self._ended()


def _read(fd: int) -> bytes | None:
    """What ``fd`` has: bytes, b"" at the end of the stream, None when nothing yet (a spurious wake-up)."""
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


# -- the pool --------------------------------------------------------------------------------------

_clients: dict[tuple[str, ...], RefereeClient] = {}
_atexit_registered = False


def client_for(argv: Sequence[str], *, timeout_s: float | None = None) -> RefereeClient:
    """The pool's client of ``argv`` (created on first use; its process starts on its first
    request). ``timeout_s`` sets its per-request deadline."""
    key = tuple(argv)
    client = _clients.get(key)
    if client is None:
        client = _clients[key] = RefereeClient(key)
    if timeout_s is not None:
        client.timeout_s = timeout_s
    return client


def close_all(forget: bool = False) -> None:
    """End every referee process of the pool (at exit); ``forget``: empty the pool too (tests)."""
    for client in list(_clients.values()):
        client.close()
    if forget:
        _clients.clear()


def _pool_opened() -> None:
    global _atexit_registered
    if not _atexit_registered:
        atexit.register(close_all)
        _atexit_registered = True


__all__ = ["DEFAULT_TIMEOUT_S", "MAX_REPLY_BYTES", "START_TIMEOUT_S", "RefereeClient", "RefereeError", "client_for",
           "close_all"]
