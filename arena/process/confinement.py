"""Starting one bot confined: its own user, its own cgroups and, with bubblewrap, its namespaces.

:func:`start_confined` is the process layer's way in (:func:`arena.process.bot.open_bot_process` calls
it); :class:`Confinement` is what it hands back to be given back at teardown. The mechanisms live
in :mod:`arena.process.botuser` (the uid pool, what a bot's user must be shown), :mod:`arena.process.cgroups`,
:mod:`arena.process.sandbox` (the bubblewrap command line) and the sandbox backend a ``sandbox``
choice names (:mod:`arena.process.sandboxes`); this module only puts them together.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import trio

from arena.errors import ConfigError, ResourceError
from arena.process import botuser, cgroups, reclaim, runcgroups, spawn
from arena.process.cgroups import BotCgroup
from arena.process.isolation import BotLimits, find_program
from arena.process.sandboxes import SandboxChoice, SandboxRequest
from arena.process.view import NO_REACH, BotView, Reach, bot_view, python_path


class Confinement:
    """What holds one bot apart, given back at teardown: its user, its cgroup, its scratch folder."""

    def __init__(self) -> None:
        self.user: botuser.BotUser | None = None
        self.cgroup: BotCgroup | None = None
        self.scratch: Path | None = None
        self.wrapped = False  # started through bubblewrap, whose exit status stands for the bot's

    def release(self) -> None:
        """Give the cgroup back (to its agent's pool, :meth:`arena.process.cgroups.BotCgroup.recycle`)
        and remove the scratch folder, then free the user (only once no process of the bot is
        left: a uid still running something is never handed out again). Never raises."""
        from arena.process.sandbox import remove_scratch

        empty = True
        if self.cgroup is not None:
            empty = self.cgroup.recycle()
            self.cgroup = None
        if self.scratch is not None:
            remove_scratch(self.scratch)
            self.scratch = None
        if self.user is not None and empty:
            self.user.release()
            self.user = None

    async def give_back(self) -> None:
        """:meth:`release` from trio: in a worker thread only when a scratch folder is to be removed
        (its files are the bot's, any number of them); the rest is a few ``rmdir`` of emptied
        cgroups and a ``close``, cheaper than the hand-off to a thread and back."""
        if self.scratch is not None:
            await trio.to_thread.run_sync(self.release)
        else:
            self.release()


class _Start:
    """One confined start worked out (:func:`_plan`): what to spawn and how."""

    def __init__(self, held: Confinement) -> None:
        self.held = held
        self.argv: list[str] = []
        self.env: dict[str, str] = {}
        self.use_bwrap = False  # the pipes travel as descriptors 3 and 4 (a sandbox, or bubblewrap without one)
        self.extra_fds: list[int] = []  # the seccomp filter's pipe, or what a sandbox backend passes
        self.plain: list[str] = []  # without bubblewrap: the command, behind setpriv with a user

    def finish_plain(self, scratch: Path) -> None:
        """Without bubblewrap: ``scratch`` becomes the bot's HOME and TMPDIR (its user's own)."""
        self.held.scratch = scratch
        uid = self.held.user.uid if self.held.user is not None else None
        if uid is not None:
            os.chown(scratch, uid, uid)
        self.env = {**self.env, "HOME": str(scratch), "TMPDIR": str(scratch)}
        self.argv = [*(_user_prefix(uid) if uid is not None else ()), *self.plain]

    def close_seccomp(self) -> None:
        while self.extra_fds:
            os.close(self.extra_fds.pop())

    @property
    def pass_fds(self) -> tuple[int, ...]:
        """The descriptors the spawned process inherits: the seccomp filter's pipe, or the sandbox's."""
        return tuple(self.extra_fds)

    @property
    def sandboxed(self) -> bool:
        """Whether the process is started under bubblewrap or as a user of its own."""
        return self.use_bwrap or self.held.user is not None

    @contextlib.contextmanager
    def spawning(self, who: str) -> Iterator[None]:
        """Around the spawn of the async and the sync start alike: on any failure the user and
        the cgroup are given back (an OSError as arena's ResourceError where it is one); the
        seccomp pipe is closed either way (the child holds its own copy)."""
        try:
            yield
        except BaseException as exc:
            self.held.release()
            if isinstance(exc, OSError):
                raise spawn.resource_error(exc, f"starting {who}") or exc from None
            raise
        finally:
            self.close_seccomp()


def _user_prefix(uid: int) -> list[str]:
    from arena.process import sandbox as box

    return box.user_prefix(uid)


def _allocate_user() -> botuser.BotUser:
    """A uid from the pool; if none is free, once the finished bots that still hold theirs are
    given back (:func:`arena.process.reclaim.settle`)."""
    try:
        return botuser.allocate()
    except ResourceError:
        if not reclaim.pending():
            raise
        reclaim.settle()
        return botuser.allocate()


def _plan(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: dict[str, str], who: str,
          sandbox: SandboxChoice, logs_dir: Path | None, limits: BotLimits, reach: Reach = NO_REACH) -> _Start:
    """Allocate the user and the cgroup and work out the command line (the caller spawns it, makes
    the scratch folder when :attr:`_Start.use_bwrap` is False, and closes the seccomp pipe); in a
    sandbox (``sandbox``: False, True for the default backend, or a backend's name), the bot's
    filesystem is the view of :mod:`arena.process.view` with ``reach``."""
    from arena.process import sandbox as box
    from arena.process import sandboxes
    from arena.process.isolation import require_sandbox, sandbox_available

    if sandbox:
        require_sandbox(choice=sandbox)
    spawn.check_program(argv[0], cwd, env)
    held = Confinement()
    start = _Start(held)
    start.env = env
    try:
        if botuser.can_switch_users():
            # In the event loop: an open and a flock on a memory file system (about 60 us) cost
            # less than the hand-off to a worker thread and back.
            held.user = _allocate_user()
        run = runcgroups.for_run()
        if run is not None:
            try:
                # The same command in the same folder is the same agent: its bots take turns
                # with one set of cgroup folders (made once per run) for each of its live bots.
                held.cgroup = run.create(memory_mb=limits.memory_mb, max_processes=limits.max_processes,
                                         agent=(tuple(argv), os.fspath(cwd) if cwd is not None else None))
            except OSError as exc:
                raise spawn.resource_error(exc, f"making a cgroup for {who}") or ResourceError(
                    f"cannot make a cgroup for {who}: {exc.strerror or exc}") from None
        uid = held.user.uid if held.user is not None else None
        # Without a sandbox, bubblewrap still gives a bot of its own user a PID namespace and private folders.
        base_bwrap = uid is not None and sandbox_available() is None
        start.use_bwrap = bool(sandbox) or base_bwrap
        needs, hide, view = path_plan(argv, cwd, env, who, own_user=uid is not None,
                                      resolve=uid is not None or start.use_bwrap, sandbox=bool(sandbox),
                                      logs_dir=logs_dir, reach=reach)
        scratch_bytes = limits.scratch_mb << 20 if limits.scratch_mb else None
        cgroup_views = tuple(cgroups.own_views(held.cgroup)) if held.cgroup is not None else ()
        boxed = None
        if sandbox and view is not None:
            boxed = sandboxes.wrap(sandbox, SandboxRequest(
                (*spawn.sh_prefix(spawn.PIPES_BACK), *needs.argv), needs, view, tuple(hide), uid,
                os.geteuid() == 0, scratch_bytes, cgroup_views, os.fspath(cwd) if cwd is not None else None))
            start.use_bwrap = boxed is not None or base_bwrap  # a backend that wraps nothing: as without one
        if boxed is not None:
            held.wrapped = True
            start.extra_fds = list(boxed.pass_fds)
            start.argv = list(boxed.argv)
        elif start.use_bwrap:
            held.wrapped = True
            seccomp_fd = box.seccomp_pipe(sandbox=False)
            start.extra_fds = [seccomp_fd] if seccomp_fd is not None else []
            start.argv = box.bot_argv(
                needs.argv, bwrap=find_program("bwrap") or "bwrap", sandbox=False, needs=needs, cwd=cwd, hide=hide,
                uid=uid, as_root=os.geteuid() == 0, scratch_bytes=scratch_bytes, seccomp_fd=seccomp_fd,
                cgroup_views=cgroup_views)
        elif needs.hidden:
            raise ConfigError(
                f"{who}: its own user cannot reach {needs.hidden[0]} (which its command needs), and "
                "without bubblewrap arena cannot show it: install bubblewrap, or put the program where "
                "any user may run it")
        else:
            start.plain = list(needs.argv)
        return start
    except BaseException:
        start.close_seccomp()
        held.release()
        raise


async def start_confined(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: dict[str, str], who: str,
                 sandbox: SandboxChoice, logs_dir: Path | None, limits: BotLimits, stopped: bool,
                 reach: Reach = NO_REACH) -> tuple[spawn.Spawned, Confinement]:
    """Spawn the bot confined: its own user (arena as root), its own cgroup (where arena can make
    one) and, with bubblewrap, its namespaces (the whole sandbox when ``sandbox``, its filesystem
    the view of :mod:`arena.process.view` with ``reach``). Returns what was spawned and the
    :class:`Confinement` to give back at teardown."""
    from arena.process import sandbox as box

    await reclaim.collect_async()  # what finished bots left, given back before taking more
    start = _plan(argv, cwd, env, who, sandbox, logs_dir, limits, reach)
    with start.spawning(who):
        if not start.use_bwrap:
            start.finish_plain(await trio.to_thread.run_sync(box.make_scratch))
        spawned = await spawn.spawn(start.argv, cwd=cwd, env=start.env, doing=f"starting {who}",
                                    sandboxed=start.sandboxed, pass_fds=start.pass_fds, cgroup=start.held.cgroup,
                                    frozen=stopped, bubblewrap=start.use_bwrap)
    return spawned, start.held


def start_confined_sync(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: dict[str, str], who: str,
                        sandbox: SandboxChoice, limits: BotLimits) -> tuple[spawn.Spawned, Confinement]:
    """:func:`start_confined` outside trio, never stopped, no logs to hide (an external referee,
    started in the middle of a synchronous request): the same user, cgroup and sandbox."""
    from arena.process import sandbox as box

    reclaim.collect()
    start = _plan(argv, cwd, env, who, sandbox, None, limits)
    with start.spawning(who):
        if not start.use_bwrap:
            start.finish_plain(box.make_scratch())
        spawned = spawn.spawn_sync(start.argv, cwd=cwd, env=start.env, doing=f"starting {who}",
                                   sandboxed=start.sandboxed, pass_fds=start.pass_fds, cgroup=start.held.cgroup,
                                   bubblewrap=start.use_bwrap)
    return spawned, start.held


#: How long a bot's path plan (:func:`path_plan`) is reused for the next bot with the same command,
#: folder, PATH and logs. Working it out costs about 0.45 ms a bot (paths resolved one component at
#: a time), every game; a tournament starts the same few commands again and again. The plan is a
#: function of the file system, which may change meanwhile (a folder made unreadable, a tournament
#: folder that gains its games.jsonl): within this bound the change is seen by the next bot started.
PLAN_REUSE_S = 2.0
_PLANS_KEPT = 256
_plans: dict[tuple[object, ...], tuple[float, botuser.CommandNeeds, list[Path], BotView | None]] = {}


def path_plan(argv: Sequence[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str], who: str, *,
              own_user: bool, resolve: bool, sandbox: bool, logs_dir: Path | None, reach: Reach = NO_REACH,
              ) -> tuple[botuser.CommandNeeds, list[Path], BotView | None]:
    """What the bot's user must be shown (:func:`arena.process.botuser.command_needs`; ``resolve``
    False: nothing, the command as it is), the log folders to hide from it and, with ``sandbox``,
    its whole view of the filesystem (:func:`arena.process.view.bot_view` with ``reach``; the
    log folders: :func:`arena.process.sandbox.folders_to_hide`; else none: finding them would be
    thrown away). The same answer as working it out now, as of at most :data:`PLAN_REUSE_S`
    seconds ago. ``own_user``: the bot runs as its own user, so a folder its command needs that
    such a user cannot enter is a ConfigError (never remembered: the next bot asks again)."""
    here = os.fspath(cwd) if cwd is not None else os.getcwd()
    key = (tuple(argv), here, env.get("PATH"), env.get("PYTHONPATH"), own_user, resolve, sandbox,
           os.fspath(logs_dir) if logs_dir is not None else None, reach)
    now = time.monotonic()
    kept = _plans.get(key)
    if kept is not None and now - kept[0] < PLAN_REUSE_S:
        return kept[1], list(kept[2]), kept[3]
    from arena.process import sandbox as box

    needs = botuser.command_needs(argv, cwd, env, extra=python_path(env)) if resolve \
        else botuser.CommandNeeds(tuple(argv))
    view = bot_view(needs.argv, here, env, reach) if sandbox else None
    checked = view.shown if view is not None else needs.shown
    if own_user and (closed := botuser.closed_folder(checked)) is not None:
        raise ConfigError(f"{who}: its own user cannot enter {closed} (mode {os.stat(closed).st_mode & 0o777:o}), "
                          "which its command needs: make it readable by other users (chmod a+rX)")
    hide = box.folders_to_hide(logs_dir, [Path(needs.argv[0]), *_existing_paths(argv[1:], cwd), Path(here)]) \
        if sandbox else []
    if len(_plans) >= _PLANS_KEPT:
        _plans.clear()
    _plans[key] = (now, needs, hide, view)
    return needs, list(hide), view


def forget_plans() -> None:
    """Work every bot's path plan out afresh from now on (tests; a caller that changed the files)."""
    _plans.clear()


def _existing_paths(argv: Sequence[str], cwd: str | os.PathLike[str] | None) -> list[Path]:
    """Paths named by ``argv`` that exist (the program, a script...), for the sandbox to keep visible."""
    found = []
    for arg in argv:
        if not arg or arg.startswith("-") or len(arg) > 4096:
            continue
        path = Path(arg) if os.path.isabs(arg) or cwd is None else Path(cwd) / arg
        with contextlib.suppress(OSError, ValueError):
            if path.exists():
                found.append(path)
    return found
