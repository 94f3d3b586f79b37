"""A bot as an operating-system process: spawn, bounded reads, deadlines, stderr drain, group kill.

This module knows nothing about games or protocols: it moves bytes. The contract:

- :func:`open_bot_process` is an async context manager. It starts ``argv`` (a list, never run through
  a shell) in its **own session and process group** (:func:`arena.process.spawn.spawn`: one long-lived
  spawner thread, the exec shim that gives the bot a parent-death signal and, under root, drops its
  capabilities), with stdin/stdout pipes, and drains stderr concurrently into a
  :class:`StderrSink` (a size-capped file or an in-memory tail), so a bot that floods stderr can
  never block on a full pipe. Its environment carries ``ARENA_RUN_TOKEN`` and a fresh
  ``ARENA_GAME_TOKEN``. On exit — normal, error, cancellation or Ctrl-C — it always tears down,
  shielded from cancellation: SIGTERM (and SIGCONT, in case it was stopped) to the whole group, a
  short grace, SIGKILL to the group, reap the leader, then kill and reap the bot's escapees
  (:mod:`arena.process.escapees`). An exception from the body comes out as itself, never wrapped in an
  exception group.
- :meth:`BotProcess.stop` / :meth:`BotProcess.resume` SIGSTOP / SIGCONT the bot's group (no
  pondering: see :mod:`arena.process.isolation`); ``stopped=True`` stops it right after it starts.
  :meth:`BotProcess.rest` stops it only if it could run (:mod:`arena.process.offturn`): a bot
  asleep in a read of its input is left alone, and :meth:`BotProcess.before_input` freezes it after
  every reply from then on if it used CPU meanwhile.
- :class:`BotProcess` ``send``/``read_line``/``read_json_object`` never read more than their byte
  limit into memory (:mod:`arena.process.replies`). Deadlines are the caller's (a cancel scope around the
  call); the write goes under the same deadline as the read so a bot that stops reading stdin
  cannot block us. ``send_nowait`` writes what fits without waiting.
- End of stdout raises :class:`EndOfOutput` (with any partial bytes) — also when the bot's leader
  process exits while a descendant still holds its stdout, within a scheduler pass of the exit
  (a reply complete in the pipe by then is still read); a write to a dead bot raises
  :class:`BotGone`. :meth:`BotProcess.exit_description` then names the exit code or signal.
- Arena's own failures (out of file descriptors, processes, disk) raise
  :class:`arena.errors.ResourceError`; a program that cannot be started raises
  :class:`arena.errors.BotError`.
- Every live process group is in a module registry so :func:`kill_all_live_groups` can SIGKILL
  them all at once (used by the second Ctrl-C, see :mod:`arena.process.signals`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import IO

import trio

from arena.errors import ResourceError
from arena.fileio.files import make_folders, open_beneath
from arena.process import escapees, reclaim, spawn, waiting
from arena.process.cgroups import BotCgroup
from arena.process.confinement import Confinement, start_confined
from arena.process.isolation import BotLimits
from arena.process.offturn import OffTurn
from arena.process.replies import (
    DEFAULT_MAX_REPLY_BYTES,
    RECEIVE_CHUNK,
    BotGone,
    EndOfOutput,
    ReplyReader,
    ReplyTooLong,
    TransportError,
)
from arena.process.view import NO_REACH, Reach

__all__ = [
    "DEFAULT_KILL_GRACE_S", "DEFAULT_MAX_REPLY_BYTES", "BotGone", "BotProcess", "ChildProcess", "EndOfOutput",
    "ReplyReader", "ReplyTooLong", "StderrSink", "TransportError", "describe_exit", "kill_all_live_groups",
    "live_groups", "open_bot_process",
]

DEFAULT_KILL_GRACE_S = 0.2
DEFAULT_STDERR_CAP_BYTES = 1 << 20
DEFAULT_STDERR_TAIL_BYTES = 16 << 10

# pgid -> number of live BotProcess objects in it (one, in practice). Process groups live here from
# spawn until the group has been killed and the leader reaped.
_live_groups: dict[int, int] = {}
# The cgroups of live bots (where bots have them), for the same.
_live_cgroups: set[BotCgroup] = set()


def _forget_groups_in_child() -> None:
    _live_groups.clear()
    _live_cgroups.clear()  # a forked child must never signal its parent's bots


os.register_at_fork(after_in_child=_forget_groups_in_child)


def live_groups() -> list[int]:
    """Process-group ids of bots that are running now (started and not yet torn down)."""
    return list(_live_groups)


def kill_all_live_groups() -> None:
    """SIGKILL every live bot at once: its cgroup, else its process group. Safe to call from
    anywhere, never raises."""
    for cgroup in list(_live_cgroups):
        cgroup.kill()
    for pgid in list(_live_groups):
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)


class StderrSink:
    """Where a bot's stderr goes: a file capped at ``cap`` bytes, or an in-memory tail.

    With ``path``, the first ``cap`` bytes are kept and a note says how much was dropped. The file is
    created afresh without following a symbolic link: whatever is at ``path`` (an old log, a link a
    bot planted) is unlinked — never followed — and the file is created exclusively. Without
    ``path``, the last ``tail`` bytes are kept in memory (:meth:`text`) for a record when the bot
    faulted. ``who`` names the bot in errors ("the BLACK bot 'x'").

    Opening or writing the file can fail only for arena's reasons (disk full, no descriptors,
    folder not writable): opening raises :class:`ResourceError`; a failed write keeps draining
    (so the bot never blocks) and leaves the error in :attr:`failure` for the match to raise.
    """

    def __init__(
        self,
        path: Path | None = None,
        *,
        cap: int = DEFAULT_STDERR_CAP_BYTES,
        tail: int = DEFAULT_STDERR_TAIL_BYTES,
        who: str = "a bot",
    ) -> None:
        self.path = path
        self.cap = cap
        self.tail_cap = tail
        self.who = who
        self.total = 0
        self.failure: ResourceError | None = None
        self._tail = bytearray()
        self._file: IO[bytes] | None = None
        self._written = 0
        if path is not None:
            self._file = os.fdopen(_create_log(path, who), "wb")

    def write(self, data: bytes) -> None:
        self.total += len(data)
        if self._file is not None:
            room = self.cap - self._written
            if room > 0 and self.failure is None:
                chunk = data[:room]
                try:
                    self._file.write(chunk)
                except OSError as exc:
                    self.failure = _log_error(exc, f"writing the stderr log of {self.who}", self.path)
                    return
                self._written += len(chunk)
        else:
            self._tail += data
            if len(self._tail) > 2 * self.tail_cap:
                del self._tail[: len(self._tail) - self.tail_cap]

    def text(self) -> str:
        """The kept tail (in-memory mode) or the start of the file, decoded leniently (read through
        arena's own descriptor, or without following a link once closed: a bot may have replaced
        the file by a link to something it wants quoted in a record)."""
        if self._file is not None and self.path is not None:
            with contextlib.suppress(OSError, ValueError):
                if not self._file.closed:
                    self._file.flush()
                    return os.pread(self._file.fileno(), self.tail_cap, 0).decode("utf-8", "replace")
                fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
                try:
                    return os.pread(fd, self.tail_cap, 0).decode("utf-8", "replace")
                finally:
                    os.close(fd)
            return ""
        return bytes(self._tail[-self.tail_cap :]).decode("utf-8", "replace")

    def close(self) -> None:
        if self._file is not None and not self._file.closed:
            dropped = self.total - self._written
            try:
                if dropped > 0 and self.failure is None:
                    self._file.write(f"\n[arena: {dropped} more bytes of stderr dropped]\n".encode())
                self._file.close()
            except OSError as exc:
                if self.failure is None:
                    self.failure = _log_error(exc, f"writing the stderr log of {self.who}", self.path)
                with contextlib.suppress(OSError):
                    self._file.close()


def _log_error(exc: OSError, doing: str, path: Path | None) -> ResourceError:
    known = spawn.resource_error(exc, doing)
    if known is not None:
        return known
    return ResourceError(f"cannot write {path}: {exc.strerror or exc} (while {doing})")


def _create_log(path: Path, who: str) -> int:
    """A new log file at ``path``, never through a symbolic link (see :class:`StderrSink`): every
    folder below the one the user named is opened without following links (a tournament's
    ``stderr`` folder lives two levels below its logs root), and whatever is at the name is
    unlinked, then the file is created exclusively."""
    root = path.parent.parent.parent if path.parent.name == "stderr" else path.parent
    try:
        make_folders(root)  # the folder the user named: a link is fine there
        return open_beneath(root, path, os.O_RDWR, make_dirs=True, fresh=True)
    except ValueError as exc:
        raise _log_error(OSError(errno.EINVAL, str(exc)), f"opening the stderr log of {who}", path) from None
    except OSError as exc:
        raise _log_error(exc, f"opening the stderr log of {who}", path) from None


class ChildProcess:
    """The bot's leader process: ``pid``, ``returncode`` once it exited (negative: the signal that
    killed it), :meth:`wait`. Its exit is watched through a pidfd by a task of
    :func:`open_bot_process`; the zombie is reaped only at teardown, after the group kill, so the
    process-group id cannot be reused while arena may still signal it."""

    def __init__(self, spawned: spawn.Spawned) -> None:
        self.spawned = spawned
        self.pid = spawned.pid
        self.returncode: int | None = None
        self.exited = trio.Event()
        self._watched = False  # a watcher task owns waiting on the pidfd

    async def wait(self) -> int:
        """Wait for the leader to exit; its status."""
        if self.returncode is None:
            if self._watched:
                await self.exited.wait()
            else:
                await _wait_pidfd(self)
        assert self.returncode is not None
        return self.returncode

    def _set_exited(self) -> bool:
        """Record the exit status if the leader has exited (without reaping it)."""
        if self.returncode is None:
            code = spawn.exit_status(self.pid)
            if code is None:
                return False
            self.returncode = code
        self.exited.set()
        return True


async def _wait_pidfd(child: ChildProcess) -> None:
    """Wait on the pidfd until the exit status is there."""
    while not child._set_exited():
        try:
            await trio.lowlevel.wait_readable(child.spawned.pidfd)
        except (trio.ClosedResourceError, OSError):
            await trio.sleep(0.01)  # the descriptor is gone: poll instead


class BotProcess:
    """The pipes of one running bot. Build it with :func:`open_bot_process`."""

    def __init__(self, spawned: spawn.Spawned, argv: Sequence[str], sink: StderrSink, game_token: str,
                 confinement: Confinement | None = None) -> None:
        self.confinement = confinement if confinement is not None else Confinement()
        self.cgroup = self.confinement.cgroup
        self.proc = ChildProcess(spawned)
        self.argv = list(argv)
        self.stderr = sink
        self.pid = spawned.pid
        self.game_token = game_token
        self._strays = escapees.StrayStopper(spawned.pid, game_token)
        self._killed = False
        self.stopped = False
        self.off_turn = (OffTurn(self.cgroup, spawned.stdin_fd, spawned.pid if self.confinement.wrapped else None)
                         if self.cgroup is not None else None)
        self.drained = trio.Event()
        # The pipes' descriptors (non-blocking): the turn path reads and writes them directly, so
        # that a read can stop waiting when the leader exits (see ReplyReader.gone).
        self._stdin_fd = spawned.stdin_fd
        self._stdout_fd = spawned.stdout_fd
        self._stderr_fd = spawned.stderr_fd
        self.reader = ReplyReader(None, spawned.stdout_fd)
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
        bot's stdin is closed or its leader exited meanwhile. The caller's deadline bounds the wait
        (a bot that stops reading)."""
        view = memoryview(data)
        while view:
            written = self.send_nowait(view)
            view = view[written:]
            if view:
                if self.reader.gone:
                    raise BotGone("the bot exited")
                try:
                    await trio.lowlevel.wait_writable(self._stdin_fd)
                except trio.ClosedResourceError as exc:
                    raise BotGone("the bot's stdin is closed") from exc

    # -- pondering -------------------------------------------------------------------------------

    def stop(self) -> None:
        """Stop every process of the bot (it uses no CPU until :meth:`resume`): freeze its cgroup,
        or, without one, SIGSTOP its process group and the descendants that left the group
        (:class:`arena.process.escapees.StrayStopper`)."""
        if not self.stopped and not self._killed:
            self.stopped = True
            if self.cgroup is not None:
                self.cgroup.freeze()
                return
            _signal_group(self.pid, signal.SIGSTOP)
            self._strays.stop(self.pid, skip=_live_groups)

    def rest(self) -> None:
        """Between its turns: :meth:`stop` the bot if it could use the CPU, else leave it parked in
        the read of its input, where it cannot run until arena writes (see
        :mod:`arena.process.offturn`; without a cgroup it is always stopped). Call
        :meth:`before_input` before its next input is written, :meth:`resume` after."""
        if self.stopped or self._killed:
            return
        if self.off_turn is not None and self.off_turn.parked():
            self.stopped = True  # parked: nothing to thaw, but it is between its turns
            return
        self.stop()

    def before_input(self) -> float | None:
        """Before writing a rested bot's next input: if it was parked and used CPU since (a timer
        woke it, say), it thought on the opponent's time, and from now on it is frozen after every
        reply (:attr:`arena.process.offturn.OffTurn.thinks_off_turn`); it is frozen now too, so
        that nothing it writes can slip in after arena dropped what it wrote early. Returns the
        :meth:`cpu_seconds` read for that (None: none was read), so that the turn need not read
        them again."""
        if not self.stopped or self.off_turn is None:
            return None
        used, cpu = self.off_turn.used_cpu()
        if used:
            self.off_turn.cgroup.freeze()
        return cpu

    def resume(self) -> None:
        """Continue what :meth:`stop` (or :meth:`rest`) stopped."""
        if self.stopped:
            self.stopped = False
            if self.cgroup is not None:
                self.cgroup.thaw()
                return
            self._strays.resume()
            _signal_group(self.pid, signal.SIGCONT)

    # -- accounting ------------------------------------------------------------------------------

    def cpu_seconds(self) -> float | None:
        """CPU time used so far by all the bot's processes (from its cgroup; None without one)."""
        return self.cgroup.cpu_seconds() if self.cgroup is not None else None

    def stall_seconds(self) -> float | None:
        """Time the bot's processes waited for a CPU while they could run (None without a cgroup
        that measures it)."""
        return self.cgroup.stall_seconds() if self.cgroup is not None else None

    def waiting_for_input(self) -> tuple[bool | None, int]:
        """Whether the bot is stuck waiting for input (:func:`arena.process.waiting.blocked_reading`;
        None: cannot tell here), and the CPU ticks its processes used so far."""
        pids = self.cgroup.procs() if self.cgroup is not None else waiting.group_pids(self.pid)
        return waiting.blocked_reading(self._stdin_fd, pids), waiting.cpu_ticks(pids)

    def memory_exceeded(self) -> bool:
        """Whether the kernel killed one of the bot's processes for exceeding its memory limit."""
        return self.cgroup is not None and self.cgroup.oom_kills() > 0

    def task_limit_hit(self) -> bool:
        """Whether the bot tried to run more processes or threads than its limit allows."""
        return self.cgroup is not None and self.cgroup.task_limit_hits() > 0

    # -- exit status -----------------------------------------------------------------------------

    def _leader_exited(self) -> None:
        """The leader is gone: reads and writes must not wait for a descendant holding the pipes."""
        self.reader.gone = True
        for fd in (self._stdout_fd, self._stdin_fd):
            if fd >= 0:
                trio.lowlevel.notify_closing(fd)

    # The bound is part of the answer (None: still running), not a way to cancel: hence a parameter.
    async def wait_exit(self, timeout: float) -> int | None:  # noqa: ASYNC109
        """The exit status (negative: killed by that signal) if the bot exits within ``timeout``."""
        with trio.move_on_after(timeout):
            return await self.proc.wait()
        return self.proc.returncode

    async def exit_description(self, timeout: float = 0.5) -> str:  # noqa: ASYNC109
        """A phrase for a reason: 'exited with code 3', 'was killed by SIGSEGV', or that it is
        still running after closing its output (waits up to ``timeout`` for it to exit)."""
        code = await self.wait_exit(timeout)
        return describe_exit(code, self.confinement.wrapped)

    # -- teardown --------------------------------------------------------------------------------

    async def kill(self, grace: float = DEFAULT_KILL_GRACE_S) -> None:
        """SIGTERM (+SIGCONT) the group, wait up to ``grace``, SIGKILL the group, reap, sweep
        escapees, close our ends of the pipes. Shielded; never raises."""
        if self._killed:
            return
        self._killed = True
        with trio.CancelScope(shield=True):
            if self.cgroup is not None:
                await self._kill_cgroup(grace)
                return
            pgid = self.pid
            # Stopped processes that left the group belong to the bot: they die with it.
            strays = self._strays.kill_stopped()
            self._strays.close()
            if self.proc.returncode is None:
                _signal_group(pgid, signal.SIGTERM)
                if self.stopped:  # a stopped process would act on SIGTERM only once continued
                    self.stopped = False
                    _signal_group(pgid, signal.SIGCONT)
                with trio.move_on_after(grace):
                    await self.proc.wait()
            # Even if the leader is gone, grandchildren may remain in its group.
            _signal_group(pgid, signal.SIGKILL)
            code = await self.proc.wait()
            spawn.reap(self.proc.spawned, code)
            count = _live_groups.get(pgid, 0) - 1
            if count <= 0:
                _live_groups.pop(pgid, None)
            else:
                _live_groups[pgid] = count
            guardian = spawn.guardian_pid()
            skip = {*_live_groups, *([guardian] if guardian else [])}
            with contextlib.suppress(OSError):
                await escapees.sweep_escapees(self.game_token, pgid, skip=skip, killed_already=strays)
            # A closed descriptor's number may be reused at once: never touch these numbers again.
            for fd in (self._stdin_fd, self._stdout_fd):
                _close_fd(fd)
            self._stdin_fd = self._stdout_fd = -1
            self.reader._fd = -1
            await self.confinement.give_back()


    async def _kill_cgroup(self, grace: float) -> None:
        """Teardown with a cgroup: SIGTERM to everything in it, ``grace`` for the leader to exit,
        then ``cgroup.kill``: nothing the bot started survives, whatever it did. The processes held
        are reaped; the cgroup, the user and the scratch space are given back once the kernel has
        emptied the cgroup, off the game's path (:mod:`arena.process.reclaim`)."""
        cgroup = self.cgroup
        assert cgroup is not None
        # Held before any signal: a process that dies of the SIGTERM leaves the cgroup at once.
        held: dict[int, int] = {}
        escapees.hold(held, cgroup.procs(), leader=self.pid)
        if self.proc.returncode is None:
            cgroup.thaw()  # a frozen process acts on SIGTERM only once thawed
            self.stopped = False
            # Not bubblewrap's own processes: they would just go, leaving the bot to the SIGKILL.
            cgroup.signal_all(signal.SIGTERM, skip=self.pid if self.confinement.wrapped else None)
            with trio.move_on_after(grace):
                await self.proc.wait()
        escapees.hold(held, cgroup.procs(), leader=self.pid)  # what it started in the grace
        cgroup.kill()
        # What needs no file to open: out of descriptors, cgroup.kill cannot be written nor
        # cgroup.procs read, and teardown would wait for a leader nobody killed. The pidfds name
        # these very processes; the leader's group is its own while it is unreaped.
        for pidfd in held.values():
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)
        code = await self.proc.wait()
        spawn.reap(self.proc.spawned, code)
        _live_groups.pop(self.pid, None)
        _live_cgroups.discard(cgroup)
        await escapees.reap_orphans(held.values())
        for fd in (self._stdin_fd, self._stdout_fd):
            _close_fd(fd)
        self._stdin_fd = self._stdout_fd = -1
        self.reader._fd = -1
        if self.off_turn is not None:
            self.off_turn.close()
        # Not awaited here: the kernel empties the killed cgroup within a few ms, and the cgroup,
        # the scratch folder and the user are given back once it has (arena.process.reclaim).
        reclaim.defer(self.confinement)


_own_schedstat: tuple[int, int] | None = None  # (thread id, open /proc/thread-self/schedstat)


def arena_run_delay_s() -> float:
    """Time this thread (arena's event loop) has waited for a CPU while it could run, from
    ``/proc/thread-self/schedstat`` (0.0 where it cannot be read): arena's own stalls."""
    global _own_schedstat
    tid = threading.get_ident()  # not get_native_id: that is a system call (gettid), every turn
    try:
        if _own_schedstat is None or _own_schedstat[0] != tid:
            _own_schedstat = (tid, os.open("/proc/thread-self/schedstat", os.O_RDONLY | os.O_CLOEXEC))
        return int(os.pread(_own_schedstat[1], 256, 0).split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _close_fd(fd: int) -> None:
    if fd >= 0:
        trio.lowlevel.notify_closing(fd)
        with contextlib.suppress(OSError):
            os.close(fd)


def describe_exit(code: int | None, wrapped: bool = False) -> str:
    """Human phrase for a process exit status as trio/subprocess reports it. ``wrapped``: the
    status is bubblewrap's, which reports a bot killed by signal N as exit code 128 + N."""
    if code is None:
        return "closed its stdout but kept running"
    if wrapped and 128 < code < 128 + 65:
        code = 128 - code
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


async def _drain(fd: int, sink: StderrSink, done: trio.Event) -> None:
    """Copy the bot's stderr into ``sink`` until end of file (or the descriptor is closed)."""
    try:
        while True:
            try:
                await trio.lowlevel.wait_readable(fd)
                chunk = os.read(fd, RECEIVE_CHUNK)
            except BlockingIOError:
                continue
            except (trio.ClosedResourceError, OSError):
                return
            if not chunk:
                return
            sink.write(chunk)
    finally:
        done.set()


async def _watch_exit(bot: BotProcess) -> None:
    """Note the leader's exit as soon as it happens (so a read never waits on a held pipe)."""
    child = bot.proc
    try:
        await _wait_pidfd(child)
    finally:
        child._watched = False  # from now on, wait() watches the pidfd itself
    bot._leader_exited()


def bot_environment(env: Mapping[str, str] | None, game_token: str) -> dict[str, str]:
    """``env`` (None: arena's own environment) plus this run's and this bot's tokens."""
    result = dict(os.environ if env is None else env)
    result[spawn.RUN_TOKEN_VAR] = spawn.run_token()
    result[spawn.GAME_TOKEN_VAR] = game_token
    return result


@contextlib.asynccontextmanager
async def open_bot_process(
    argv: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    stderr: StderrSink | None = None,
    env: Mapping[str, str] | None = None,
    kill_grace: float = DEFAULT_KILL_GRACE_S,
    stopped: bool = False,
    sandbox: bool | str = False,
    logs_dir: Path | None = None,
    who: str = "a bot",
    limits: BotLimits | None = None,
    reach: Reach = NO_REACH,
) -> AsyncIterator[BotProcess]:
    """Start ``argv`` in a new session and yield its :class:`BotProcess`; always kill it on exit.

    ``env``: the bot's environment (None: arena's own), to which the tokens are added. ``stopped``:
    SIGSTOP the bot as soon as it starts (it starts up when first resumed). ``sandbox``: run it
    in a sandbox (True: the default, bubblewrap; a name: that backend's,
    :mod:`arena.process.sandboxes`; ``logs_dir`` is hidden from it; what it sees of the filesystem:
    :mod:`arena.process.view` with ``reach``), ConfigError if the sandbox is not available here. ``who`` names the bot in errors.

    Raises :class:`BotError` (message names the program) if it cannot be started at all, and
    :class:`ResourceError` if arena ran out of something while starting it.
    """
    sink = stderr if stderr is not None else StderrSink(who=who)
    game_token = spawn.new_game_token()
    try:
        spawned, held = await start_confined(argv, cwd, bot_environment(env, game_token), who, sandbox, logs_dir,
                                             limits if limits is not None else BotLimits(), stopped, reach)
    except BaseException:
        sink.close()
        raise
    _live_groups[spawned.pid] = _live_groups.get(spawned.pid, 0) + 1
    if held.cgroup is not None:
        _live_cgroups.add(held.cgroup)
    bot = BotProcess(spawned, argv, sink, game_token, held)
    if stopped:
        if held.cgroup is not None:
            bot.stopped = True  # frozen already, before its first instruction (the hand-shake)
        else:
            bot.stop()
    failure: BaseException | None = None
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_drain, spawned.stderr_fd, sink, bot.drained)
            bot.proc._watched = True  # now, not when the task first runs: wait() must not race it
            nursery.start_soon(_watch_exit, bot)
            try:
                yield bot
            except BaseException as exc:  # noqa: BLE001 - not swallowed: see the next line
                # Re-raised below, outside the nursery, so that it does not come out wrapped in an
                # exception group.
                failure = exc
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
        _close_fd(spawned.stderr_fd)
        _close_fd(spawned.pidfd)
        sink.close()
    if failure is not None:
        raise failure
