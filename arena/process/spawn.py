"""Starting bot processes: a hardened arena, one long-lived spawner thread, an exec shim.

Contract:

- :func:`harden_arena_process` (idempotent; called by the first :func:`spawn`, or with the guardian
  by :func:`prepare`, which a CLI calls at start) makes arena **non-dumpable**, so a bot running as the same user cannot open
  ``/proc/<arena>/fd/N`` and write into the pipes arena reads other bots from, and a **child
  subreaper**, so a bot's descendants that lose their parent are re-parented to arena (where
  :mod:`arena.process.escapees` finds them) rather than to init. Linux only; a no-op elsewhere.
- :func:`spawn` starts one bot: own session and process group, stdin/stdout/stderr pipes (arena's
  ends non-blocking), a pidfd to wait for its exit. It runs ``subprocess.Popen`` in **one dedicated
  daemon thread that never exits**: a parent-death signal (``setpriv --pdeathsig``, bwrap
  ``--die-with-parent``) fires when the *thread* that forked the child exits, and trio's worker
  threads exit after ~10 s idle, which would kill bots in the middle of a game.
- Every bot goes through the exec shim ``setpriv --pdeathsig KILL`` (util-linux): it dies with
  arena. When arena has capabilities (root), the shim also sets no-new-privs and clears the
  inheritable and bounding capability sets, so a root bot has no ``CAP_SYS_PTRACE`` and arena's
  non-dumpability holds against it. Without setpriv, bots start directly and a note says so once.
- The **guardian** (:mod:`arena.process.guardian`) is started once, lazily, from the same thread: when
  arena dies, even by SIGKILL, it kills every process that carries this run's
  ``ARENA_RUN_TOKEN`` (:func:`run_token`). Bots get the token in their environment; the guardian
  gets it on its stdin, not in its environment, so it never kills itself.
- Failures: a program that does not exist, is not executable, or a bad ``cwd`` raise
  :class:`arena.errors.BotError` (the game records a ``crash``); arena running out of something
  (EMFILE, ENFILE, EAGAIN, ENOMEM, ENOSPC) raises :class:`arena.errors.ResourceError` naming the
  cause, what arena was doing and what to do.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import outcome
import trio

from arena.errors import BotError, ResourceError
from arena.process.cgroups import BotCgroup
from arena.process.isolation import find_program, helper_environment, make_undumpable

T = TypeVar("T")

_PR_SET_PDEATHSIG = 1
_PR_GET_DUMPABLE = 3
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
_CAP_SETPCAP = 8

RUN_TOKEN_VAR = "ARENA_RUN_TOKEN"
GAME_TOKEN_VAR = "ARENA_GAME_TOKEN"

# errno -> (what ran out, what to do). Anything here is arena's failure, never a bot's.
_RESOURCE_ERRNOS: dict[int, tuple[str, str]] = {
    errno.EMFILE: ("too many open files (EMFILE)", "raise `ulimit -n` or lower concurrency"),
    errno.ENFILE: ("the system's table of open files is full (ENFILE)", "lower concurrency"),
    errno.EAGAIN: ("cannot create another process (EAGAIN)", "raise `ulimit -u` or lower concurrency"),
    errno.ENOMEM: ("out of memory (ENOMEM)", "lower concurrency or free memory"),
    errno.ENOSPC: ("no space left on device (ENOSPC)", "free some disk space"),
    errno.EDQUOT: ("disk quota exceeded (EDQUOT)", "free some disk space"),
}


def resource_error(exc: OSError, doing: str) -> ResourceError | None:
    """A :class:`ResourceError` for ``exc`` if arena ran out of something (else None).

    ``doing`` completes "... while ``doing``", e.g. "starting the BLACK bot 'x'".
    """
    known = _RESOURCE_ERRNOS.get(exc.errno or 0)
    if known is None:
        return None
    what, hint = known
    return ResourceError(f"{what} while {doing}; {hint}")


# -- the arena process ---------------------------------------------------------------------------

_hardened = False
_harden_lock = threading.Lock()


@functools.cache
def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> int:
    return int(_libc().prctl(option, value, 0, 0, 0))


def harden_arena_process() -> None:
    """Make this process non-dumpable and a child subreaper (Linux; idempotent; never raises).

    Non-dumpable: other processes of the same user (bots) can no longer open ``/proc/<pid>/fd``,
    ``mem`` or ``environ`` of arena (core dumps are off too). Subreaper: orphaned descendants of
    bots are re-parented to arena, so teardown can find and reap them.
    """
    global _hardened
    if _hardened or not sys.platform.startswith("linux"):
        return
    with _harden_lock:
        if _hardened:
            return
        with contextlib.suppress(OSError, AttributeError):
            make_undumpable()
            _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        _hardened = True


def prepare() -> None:
    """Harden arena and start the spawner thread and the guardian now, rather than with the first
    bot (a CLI calls this at start, so the guardian's own start-up does not overlap a game).
    Never raises; idempotent."""
    harden_arena_process()
    if sys.platform.startswith("linux"):
        _get_spawner().submit(_get_spawner().ensure_guardian)


def guardian_started(timeout: float = 10.0) -> None:
    """Start the guardian if it is not running, and return once it has been started (or after
    ``timeout`` seconds): for what must not exist unless a guardian will remove it should arena be
    killed (the scratch root, :func:`arena.process.sandbox.scratch_root`). Never raises."""
    if not sys.platform.startswith("linux"):
        return
    spawner = _get_spawner()
    if threading.current_thread() is spawner.thread:
        spawner.ensure_guardian()
        return
    done = threading.Event()

    def job() -> None:
        try:
            spawner.ensure_guardian()
        finally:
            done.set()

    spawner.submit(job)
    done.wait(timeout)


def is_hardened() -> tuple[bool, bool]:
    """(non-dumpable, subreaper) as the kernel reports them now (for tests and diagnostics)."""
    if not sys.platform.startswith("linux"):
        return False, False
    dumpable = _prctl(_PR_GET_DUMPABLE, 0)
    flag = ctypes.c_int(0)
    _libc().prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0)
    return dumpable == 0, flag.value == 1


@functools.cache
def run_token() -> str:
    """This arena process's run token (random, made once): every bot carries it in its environment
    as ``ARENA_RUN_TOKEN``, so the guardian can find them all if arena dies."""
    return secrets.token_hex(16)


def new_game_token() -> str:
    """A fresh token for one bot (``ARENA_GAME_TOKEN``): teardown finds that bot's escapees by it."""
    return secrets.token_hex(12)


def arena_import_root() -> str:
    """The folder that holds the ``arena`` package (put on PYTHONPATH of arena's own children)."""
    return str(Path(__file__).resolve().parents[2])


# -- the exec shim ---------------------------------------------------------------------------------


def _effective_caps() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("CapEff:"):
                    return int(line.split()[1], 16)
    except (OSError, ValueError):
        pass
    return 0


_notes: list[str] = []
_noted: set[str] = set()


def note_once(text: str) -> None:
    """Say ``text`` once per process on stderr (a degraded protection the user should know of)."""
    if text in _noted:
        return
    _noted.add(text)
    _notes.append(text)
    with contextlib.suppress(Exception):
        sys.stderr.write(f"arena: note: {text}\n")
        sys.stderr.flush()


def notes() -> list[str]:
    """The notes said so far (e.g. setpriv is missing), for a CLI or a test."""
    return list(_notes)


@functools.cache
def shim_prefix() -> tuple[str, ...]:
    """The argv prefix every bot is started through (empty when setpriv is not installed).

    ``setpriv --pdeathsig KILL``: the bot dies with the thread that started it, which never exits
    before arena. When arena has capabilities: ``--no-new-privs --inh-caps=-all`` and, if arena may
    (CAP_SETPCAP), ``--bounding-set=-all``: a bot run as root then gets no capabilities at exec.
    """
    if not sys.platform.startswith("linux"):
        return ()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        note_once("setpriv (util-linux) is not installed: bots start without a parent-death signal "
                   "and, when arena runs as root, keep root's capabilities")
        return ()
    prefix = [setpriv, "--pdeathsig", "KILL"]
    caps = _effective_caps()
    if os.geteuid() == 0 or caps:
        prefix += ["--no-new-privs", "--inh-caps=-all"]
        if caps & (1 << _CAP_SETPCAP):
            prefix.append("--bounding-set=-all")
        else:
            note_once("arena lacks CAP_SETPCAP, so bots started as root keep the capability bounding set")
    prefix.append("--")
    return tuple(prefix)


@functools.cache
def pdeathsig_prefix() -> tuple[str, ...]:
    """``setpriv --pdeathsig KILL --`` alone (empty without setpriv): for bubblewrap, which needs
    arena's capabilities to make its namespaces and drops them itself (``--cap-drop ALL``)."""
    prefix = shim_prefix()
    return (prefix[0], "--pdeathsig", "KILL", "--") if prefix else ()


def check_program(program: str, cwd: str | os.PathLike[str] | None, env: Mapping[str, str] | None) -> None:
    """Raise BotError unless ``program`` (argv[0]) names an executable file, found as exec would.

    A name with a slash is taken relative to ``cwd``; a bare name is searched on the PATH of
    ``env`` (the bot's environment), as ``execvp`` in the shim will.
    """
    if "/" in program:
        path = os.path.join(cwd, program) if cwd is not None and not os.path.isabs(program) else program
        candidates = [path]
    else:
        search = (env if env is not None else os.environ).get("PATH", os.defpath)
        candidates = [os.path.join(d or ".", program) for d in search.split(os.pathsep)]
        if cwd is not None:
            candidates = [c if os.path.isabs(c) else os.path.join(cwd, c) for c in candidates]
    denied = None
    for path in candidates:
        if os.path.isdir(path):
            denied = denied or "is a directory"
            continue
        if os.path.exists(path):
            if os.access(path, os.X_OK):
                return
            denied = "permission denied (not executable)"
    raise BotError(f"cannot start {program!r}: {denied or 'no such file or program'}")


# -- the spawner thread ----------------------------------------------------------------------------


@dataclass
class Spawned:
    """A started bot: ``pid`` (its process group and session too), arena's ends of its pipes
    (non-blocking), a pidfd that becomes readable when it exits, and the Popen object (kept only so
    that ``subprocess`` never reaps the pid behind our back)."""

    pid: int
    popen: subprocess.Popen[bytes]
    stdin_fd: int
    stdout_fd: int
    stderr_fd: int
    pidfd: int


class _Spawner:
    """The one thread that forks every bot (and the guardian). Jobs are plain callables."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="arena-spawner", daemon=True)
        self.thread.start()
        self.guardian: subprocess.Popen[bytes] | None = None
        self._guardian_pipe: int | None = None

    def _loop(self) -> None:
        while True:  # never returns: the bots' parent-death signal is tied to this thread
            job = self._jobs.get()
            with contextlib.suppress(BaseException):
                job()

    def submit(self, job: Callable[[], None]) -> None:
        self._jobs.put(job)

    def ensure_guardian(self) -> None:
        """Start the guardian if it is not running (in this thread). Failure is not fatal."""
        if self.guardian is not None and self.guardian.poll() is None:
            return
        if self._guardian_pipe is not None:
            with contextlib.suppress(OSError):
                os.close(self._guardian_pipe)
            self._guardian_pipe = None
        try:
            read_end, write_end = os.pipe2(os.O_CLOEXEC)
        except OSError:
            return
        env = helper_environment()  # never arena's secrets: bots can read a helper's environ
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [arena_import_root(), env.get("PYTHONPATH")]))
        try:
            self.guardian = subprocess.Popen(
                [sys.executable, "-m", "arena.process.guardian"], stdin=read_end, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True, env=env, cwd="/")
        except OSError:
            os.close(write_end)
            return
        finally:
            os.close(read_end)
        from arena.process.runcgroups import start_time

        me = os.getpid()
        started = start_time(me)
        line = f"{run_token()} {me} {started}" if started else run_token()  # see arena.process.guardian
        os.write(write_end, line.encode() + b"\n")
        self._guardian_pipe = write_end  # held, never written again: its closing is arena's death


_spawner: _Spawner | None = None
_spawner_lock = threading.Lock()
# Pids of bots started and not reaped yet (a leak shows up here; tests look).
_unreaped: set[int] = set()


def unreaped_pids() -> set[int]:
    """Pids of bots this process started and has not reaped yet (running ones included)."""
    return set(_unreaped)


def spawner_thread() -> threading.Thread:
    """The spawner thread (started on first use)."""
    return _get_spawner().thread


def _reset_in_forked_child() -> None:
    """A forked copy of arena has no spawner thread, is not a subreaper (the flag is not
    inherited) and must not hold the guardian's pipe: start afresh on first use. Its run token is
    its own too: the guardian it starts kills what carries that token when the copy exits, which
    must not be its parent's bots (or referees)."""
    global _spawner, _hardened, _spawner_lock, _harden_lock
    run_token.cache_clear()
    spawner, _spawner, _hardened = _spawner, None, False
    _spawner_lock, _harden_lock = threading.Lock(), threading.Lock()  # another thread may have held them
    _unreaped.clear()
    if spawner is not None and spawner._guardian_pipe is not None:
        with contextlib.suppress(OSError):
            os.close(spawner._guardian_pipe)


os.register_at_fork(after_in_child=_reset_in_forked_child)


def guardian_pid() -> int | None:
    """The guardian's pid, if it has been started."""
    spawner = _spawner
    if spawner is None or spawner.guardian is None:
        return None
    return spawner.guardian.pid


def _get_spawner() -> _Spawner:
    global _spawner
    if _spawner is None:
        with _spawner_lock:
            if _spawner is None:
                _spawner = _Spawner()
    return _spawner


async def run_in_spawner(fn: Callable[[], T]) -> T:
    """Run ``fn()`` in the spawner thread and return its result (or raise its exception).

    Not cancellable while ``fn`` runs (a started process must not be lost); a cancellation is
    delivered at the caller's next checkpoint. If the trio run ended meanwhile, the result is
    passed to ``fn``'s owner nowhere: :func:`spawn` cleans up after itself in that case.
    """
    token = trio.lowlevel.current_trio_token()
    task = trio.lowlevel.current_task()

    def job() -> None:
        result = outcome.capture(fn)
        try:
            token.run_sync_soon(trio.lowlevel.reschedule, task, result)
        except trio.RunFinishedError:
            if isinstance(result, outcome.Value) and isinstance(result.value, Spawned):
                _abandon(result.value)

    _get_spawner().submit(job)
    value: T = await trio.lowlevel.wait_task_rescheduled(lambda _: trio.lowlevel.Abort.FAILED)
    return value


def _abandon(spawned: Spawned) -> None:
    """Kill and reap a process nobody will ever use (its trio run is gone)."""
    with contextlib.suppress(OSError):
        os.killpg(spawned.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(spawned.pid, 0)
    _unreaped.discard(spawned.pid)
    spawned.popen.returncode = -signal.SIGKILL
    for fd in (spawned.stdin_fd, spawned.stdout_fd, spawned.stderr_fd, spawned.pidfd):
        with contextlib.suppress(OSError):
            os.close(fd)


#: The hand-shake (POSIX sh): wait for one line on stdin, which arena writes once it has put the
#: shim's pid into the bot's cgroups. So nothing of the bot runs outside its cgroups, not even a fork
#: in its first microsecond. sh's ``read`` takes one byte at a time from a pipe: the bot's first
#: input is left whole. No line (arena died first): give up.
HANDSHAKE = "read -r _ || exit 125; "
#: Moving the pipes past bubblewrap: its own processes keep their stdin and stdout open for the
#: bot's whole life, so a bot that closes its stdout would never show end of file. They get
#: /dev/null; the pipes travel as descriptors 3 and 4, which bubblewrap closes in its own
#: processes, and :data:`PIPES_BACK` (run inside, as the bot) makes them stdin and stdout again.
PIPES_AWAY = "exec 3<&0 4>&1 0</dev/null 1>/dev/null; "
PIPES_BACK = "exec 0<&3 1>&4 3<&- 4>&-; "
# The first free descriptor for what else the child inherits (above 3 and 4, and below 10 for sh).
PASSED_FDS_FROM = 5


def sh_prefix(script: str) -> tuple[str, ...]:
    """``sh -c '<script>exec "$@"' arena-bot``: run ``script``, then become the rest of argv
    (without the ``PWD`` a shell exports: the bot's environment is exactly the one arena chose)."""
    return (find_program("sh") or "/bin/sh", "-c", "unset PWD; " + script + 'exec "$@"', "arena-bot")


def _start(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str],
           doing: str, pass_fds: Sequence[int] = (), cgroup: BotCgroup | None = None,
           frozen: bool = False) -> Spawned:
    """In the spawner thread: pipes, Popen, pidfd; with ``cgroup``, the hand-shake (the child is
    put into ``cgroup``, frozen there if ``frozen``, then let go). Raises BotError or ResourceError."""
    spawner = _get_spawner()
    spawner.ensure_guardian()
    opened: list[int] = []
    try:
        try:
            stdin_r, stdin_w = os.pipe2(os.O_CLOEXEC)
            opened += [stdin_r, stdin_w]
            stdout_r, stdout_w = os.pipe2(os.O_CLOEXEC)
            opened += [stdout_r, stdout_w]
            stderr_r, stderr_w = os.pipe2(os.O_CLOEXEC)
            opened += [stderr_r, stderr_w]
        except OSError as exc:
            raise resource_error(exc, doing) or exc from None
        try:
            popen = subprocess.Popen(list(argv), stdin=stdin_r, stdout=stdout_w, stderr=stderr_w, cwd=cwd,
                                     env=dict(env), start_new_session=True, close_fds=True,
                                     pass_fds=tuple(pass_fds))
        except OSError as exc:
            problem = resource_error(exc, doing)
            if problem is not None:
                raise problem from None
            why = exc.strerror or str(exc)
            if exc.errno == errno.ENOENT:
                why = "no such file or directory" if exc.filename == cwd and cwd else "no such file or program"
                if exc.filename == cwd and cwd:
                    why += f" (its folder {os.fspath(cwd)!r})"
            raise BotError(f"cannot start {argv[0]!r}: {why}") from None
        _unreaped.add(popen.pid)
        for fd in (stdin_r, stdout_w, stderr_w):
            os.close(fd)
            opened.remove(fd)
        if cgroup is not None:
            try:
                cgroup.attach(popen.pid)
                if frozen:
                    cgroup.freeze()
                os.write(stdin_w, b"\n")
            except OSError as exc:
                _abandon(Spawned(popen.pid, popen, -1, -1, -1, -1))
                raise resource_error(exc, doing) or ResourceError(
                    f"cannot put a bot into its cgroup ({exc.strerror or exc}) while {doing}") from None
        try:
            pidfd = os.pidfd_open(popen.pid)
        except OSError as exc:
            _abandon(Spawned(popen.pid, popen, -1, -1, -1, -1))
            raise resource_error(exc, doing) or ResourceError(f"cannot watch a bot's exit ({exc}) while {doing}") \
                from None
        for fd in (stdin_w, stdout_r, stderr_r):
            os.set_blocking(fd, False)
        opened.clear()
        return Spawned(popen.pid, popen, stdin_w, stdout_r, stderr_r, pidfd)
    finally:
        for fd in opened:
            with contextlib.suppress(OSError):
                os.close(fd)


async def spawn(argv: Sequence[str], *, cwd: str | os.PathLike[str] | None, env: Mapping[str, str],
                doing: str = "starting a bot", sandboxed: bool = False, pass_fds: Sequence[int] = (),
                cgroup: BotCgroup | None = None, frozen: bool = False, bubblewrap: bool = False) -> Spawned:
    """Start ``argv`` through the exec shim in its own session (``sandboxed``: ``argv`` is a
    bubblewrap command line, which gets the parent-death signal only, see :func:`pdeathsig_prefix`).
    ``pass_fds``: descriptors the child inherits (same numbers), e.g. bubblewrap's seccomp program.

    ``cgroup``: the bot's cgroups, entered before any of its code runs (``frozen``: and frozen
    there until thawed; see :data:`HANDSHAKE`). ``bubblewrap``: ``argv`` is a bubblewrap command
    whose inner command starts with :data:`PIPES_BACK` (descriptors in ``pass_fds`` must then be
    at least :data:`PASSED_FDS_FROM`).

    ``env`` is the bot's whole environment. ``doing`` names the bot in a ResourceError
    ("starting the BLACK bot 'x'"). Raises BotError (cannot be started) or ResourceError (arena
    ran out of something). Hardens arena first (:func:`harden_arena_process`).
    """
    full = _shimmed(argv, cwd, env, sandboxed=sandboxed, cgroup=cgroup, bubblewrap=bubblewrap)
    return await run_in_spawner(lambda: _start(full, cwd, env, doing, pass_fds, cgroup, frozen))


def spawn_sync(argv: Sequence[str], *, cwd: str | os.PathLike[str] | None, env: Mapping[str, str],
               doing: str = "starting a bot", sandboxed: bool = False, pass_fds: Sequence[int] = (),
               cgroup: BotCgroup | None = None, bubblewrap: bool = False) -> Spawned:
    """:func:`spawn` for a caller outside trio (an external referee, started in the middle of a
    synchronous request): the same start in the spawner thread, waited for by blocking."""
    full = _shimmed(argv, cwd, env, sandboxed=sandboxed, cgroup=cgroup, bubblewrap=bubblewrap)
    spawner = _get_spawner()
    if threading.current_thread() is spawner.thread:
        return _start(full, cwd, env, doing, pass_fds, cgroup, False)
    done = threading.Event()
    result: list[outcome.Outcome[Spawned]] = []

    def job() -> None:
        result.append(outcome.capture(_start, full, cwd, env, doing, pass_fds, cgroup, False))
        done.set()

    spawner.submit(job)
    done.wait()  # the job always ends: _start raises or returns, it never blocks on the bot
    return result[0].unwrap()


def _shimmed(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str], *,
             sandboxed: bool, cgroup: BotCgroup | None, bubblewrap: bool) -> list[str]:
    """``argv`` behind the hand-shake, the pipes' move and the exec shim (see :func:`spawn`)."""
    if not argv:
        raise BotError("empty bot command")
    harden_arena_process()
    check_program(argv[0], cwd, env)
    script = (HANDSHAKE if cgroup is not None else "") + (PIPES_AWAY if bubblewrap else "")
    return [*(sh_prefix(script) if script else ()), *(pdeathsig_prefix() if sandboxed else shim_prefix()), *argv]


def exit_status(pid: int) -> int | None:
    """The exit status of child ``pid`` if it has exited (negative: killed by that signal), without
    reaping it: the zombie keeps the pid and process-group id from being reused until
    :func:`reap`."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return None
    if info is None:
        return None
    if info.si_code == os.CLD_EXITED:
        return int(info.si_status)
    return -int(info.si_status)


def reap(spawned: Spawned, status: int | None) -> None:
    """Collect the exited child's zombie (idempotent)."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(spawned.pid, os.WNOHANG)
    _unreaped.discard(spawned.pid)
    if spawned.popen.returncode is None:
        spawned.popen.returncode = status if status is not None else -signal.SIGKILL
