"""The Ray backend: each game is one Ray task that plays it on a worker and returns its record.

The task (:func:`game_task`) runs the very :func:`arena.match.game.play_game` of the local backend in its
own ``trio.run`` on the worker: both bots start there, with the same clocks, faults and records.
The worker keeps the bots' stderr in a folder of its scratch root (:func:`arena.process.sandbox.scratch_root`)
and sends the logs back with the record; the driver writes them into its own ``stderr/`` folder, so
the driver remains the only writer of the log folder.

Resources. Each task asks Ray for ``cpus_per_game`` CPUs (default 2, one per bot; the config's
``rayCpusPerGame``), so Ray never starts more games on a node than its CPUs allow. The driver keeps
at most :meth:`RayBackend.capacity` games in flight (the CPUs of the live nodes at start divided
per game): games beyond it would only wait in Ray's queue.

Faults (issue 12):

- A game lost with its worker or node (``WorkerCrashedError``, ``NodeDiedError``,
  ``ObjectLostError``, Ray's ``OutOfMemoryError``) is submitted again — Ray's own retries are off so
  the driver sees and logs every loss — up to ``max_retries`` times. The lost attempt's partial play
  is discarded (its bots died with the worker: they run under ``setpriv --pdeathsig KILL`` and the
  worker's guardian, :mod:`arena.process.spawn`), and the record that comes back says so in
  ``ray_retries`` (one line per lost attempt); its ``games.jsonl`` row carries ``retried``.
- A bot's fault is a record like any other (``play_game`` never raises for one).
- Cancellation (Ctrl-C, the run stopping): the task is cancelled with ``force=True``, which kills
  its worker process and so every bot of that game, and ``trio.Cancelled`` propagates.
- The driver's death (``kill -9``, a lost connection): Ray ends its job and the job's workers. The
  worker's guardian (:mod:`arena.process.guardian`) then kills its bots' cgroups and removes its scratch
  root (game folders included); the bots also die with their worker on their own (parent-death
  signal, bubblewrap's PID namespace). For that the guardian must outlive the worker: Ray's own
  killing of a worker's children is off for arena's workers (:data:`WORKER_ENV`). What a killed
  worker and guardian still leave (cgroups, a scratch root) the next arena's sweep removes.
- The embedded instance (``address`` ``local``) lives in a folder of its own, watched by a reaper
  process (:mod:`arena.backends.ray_reaper`): when the driver ends, even by ``kill -9``, every
  process of the instance ends and its folder is removed (Ray alone leaves two agents and its
  session folder). A cluster arena joined is never touched: only the run's job ends with it.
- The cluster's own failure (no reachable address, no node with enough CPUs, losses past the
  retries, anything else Ray raises) is a :class:`arena.backends.ClusterError`.

Imports on the workers: Ray puts the shipped folder first on a worker's import path, where a folder
named ``arena`` (a clone beside the tournament folder) would shadow the package. Every task therefore
runs through :func:`arena.backends.ray_entry.run_task`, shipped by value, which makes arena's own
package the one ``import arena`` finds before anything of arena is unpickled there.

Waiting never blocks trio: a done-callback on the task's future wakes the trio task through
:meth:`trio.lowlevel.TrioToken.run_sync_soon`, so thousands of games in flight cost no threads.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import trio

from arena import install_hint
from arena.backends import EMBEDDED_ADDRESS, BackendOptions, ClusterError, GameJob
from arena.backends.ray_files import (
    DEFAULT_EXCLUDES,
    MAX_SHIP_BYTES,
    default_working_dir,
    missing_on_this_node,
    ray_excludes,
    remap_spec,
    ship_size,
)
from arena.errors import ConfigError
from arena.match.progress import Observer
from arena.players.spec import AgentSpec

#: CPUs reserved per game by default: one per bot.
DEFAULT_CPUS_PER_GAME = 2.0
#: How long the start-up check of every node may take (first contact ships the working folder).
PROBE_TIMEOUT_S = 300.0
#: Stderr bytes per bot brought back from a worker (the local cap, arena.process.bot).
STDERR_CAP_BYTES = 1 << 20
#: The environment of arena's Ray workers. Ray's own child killing off: a worker that exits
#: SIGKILLs its direct children, arena's guardian among them, which then cannot remove the bots'
#: cgroups and the worker's folders (issue 18). The bots need no help from Ray: they die with
#: their worker (parent-death signal, bubblewrap's PID namespace) and the guardian kills their
#: cgroups. (Ray's documented switch, read by each worker process.)
WORKER_ENV = {"RAY_kill_child_processes_on_worker_exit": "false"}
_RETRIABLE_NAMES = ("WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OutOfMemoryError")


def import_ray() -> Any:
    """The ``ray`` module; ClusterError when it is not installed. Usage statistics are off: arena
    never asks Ray to contact anything but the cluster."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise ClusterError(f"the ray backend needs Ray: {install_hint('ray')} (on the driver and every "
                           "worker)") from None
    return ray


def _one_line(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text[:limit]}"


# -- on the worker ---------------------------------------------------------------------------------


def node_info() -> dict[str, Any]:
    """Which node and process run this task: Ray's node id, the node's address, host name, pid."""
    import ray

    return {"id": ray.get_runtime_context().get_node_id(), "ip": ray.util.get_node_ip_address(),
            "hostname": socket.gethostname(), "pid": os.getpid()}


def _unmap_command(command: Any, here: str, root: str | None) -> Any:
    """A record's command with the worker's copy of the shipped folder named as on the driver."""
    if root is None:
        return command
    if isinstance(command, str):
        return command.replace(here, root)
    if isinstance(command, list):
        return [w.replace(here, root) if isinstance(w, str) else w for w in command]
    return command


def game_task(job: GameJob, root: str | None, keep_logs: bool = True) -> dict[str, Any]:
    """Play ``job`` here (a Ray worker): ``{"record", "stderr": {file name: bytes}, "node"}``.
    ``root`` is the driver's shipped folder (None: shared files, paths used as they are).
    ``keep_logs`` False: no stderr files; a faulting bot's stderr tail is in the record instead."""
    from arena.backends.local import run_job

    here = os.getcwd()
    job = dataclasses.replace(job, agents=tuple(remap_spec(spec, root, here) for spec in job.agents))
    from arena.process.sandbox import scratch_root

    # In this worker's scratch root: removed by its guardian if the worker is killed mid-game, by
    # a later arena's sweep if the guardian was killed too.
    folder = tempfile.mkdtemp(prefix=GAME_FOLDER_PREFIX, dir=scratch_root())
    try:
        record = trio.run(functools.partial(run_job, job, stderr_dir=Path(folder) if keep_logs else None))
        stderr: dict[str, bytes] = {}
        logs = record.get("stderr_logs")
        if isinstance(logs, dict):
            for colour, path in list(logs.items()):
                name = os.path.basename(str(path))
                try:
                    with open(path, "rb") as handle:
                        stderr[name] = handle.read(STDERR_CAP_BYTES)
                except OSError:
                    pass
                logs[colour] = name
        # Records list "seats", those of two colours "players" too: both name each bot's command.
        for player in (record.get("players") or []) + (record.get("seats") or []):
            if isinstance(player, dict) and "command" in player:
                player["command"] = _unmap_command(player["command"], here, root)
        return {"record": record, "stderr": stderr, "node": node_info()}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: The start of a game's folder (its bots' stderr logs) in the worker's scratch root.
GAME_FOLDER_PREFIX = "ray-game-"


def probe_task(specs: list[AgentSpec], root: str | None, sandbox: bool | str = False) -> dict[str, Any]:
    """On one node: ``{"node", "problems": [[agent id, why it cannot start here], ...]}`` (the
    sandbox's own problem, when ``sandbox`` (True: the default backend, or a backend's name) is
    asked for and unavailable, is listed for every agent)."""
    here = os.getcwd()
    problems = []
    if sandbox:
        from arena.process.sandboxes import sandbox_name, unavailable

        reason = unavailable(sandbox_name(sandbox))
        if reason is not None:
            return {"node": node_info(), "problems": [[spec.id, f"sandbox: {reason}"] for spec in specs]}
    for spec in specs:
        why = missing_on_this_node(remap_spec(spec, root, here), here if root is not None else None)
        if why is not None:
            problems.append([spec.id, why])
    return {"node": node_info(), "problems": problems}


# -- on the driver ---------------------------------------------------------------------------------


class RayBackend:
    """Games as Ray tasks (see the module docstring and :mod:`arena.backends` for the contract)."""

    name = "ray"

    def __init__(self, options: BackendOptions) -> None:
        self.options = options
        self.cpus_per_game = options.cpus_per_game or DEFAULT_CPUS_PER_GAME
        self._ray: Any = None
        self._started_ray = False
        self._reaper: Reaper | None = None
        self._remote: Any = None
        self._root: str | None = None
        self._capacity = 1
        self._nodes: list[dict[str, Any]] = []
        # What open was given, for update_agents: the folder shipping starts from, the log folder
        # never shipped, the sandbox asked for, and every agent so far by id.
        self._base_dir: Path | None = None
        self._logs_dir: Path | None = None
        self._sandbox: bool | str = False
        self._agents: dict[str, AgentSpec] = {}

    # -- open / close ------------------------------------------------------------------------------

    def open(self, agents: list[AgentSpec], *, base_dir: Path | None, logs_dir: Path | None,
             sandbox: bool | str = False) -> None:
        for agent in agents:
            if agent.is_human:
                raise ConfigError(f"backend: {agent.id!r} is a human player, who plays at this terminal, not on a "
                                  "Ray worker; use the local backend")
        ray = self._ray = import_ray()
        self._base_dir, self._logs_dir, self._sandbox = base_dir, logs_dir, sandbox
        self._agents = {agent.id: agent for agent in agents}
        runtime_env: dict[str, Any] = {"env_vars": dict(WORKER_ENV)}
        if not self.options.shared_files:
            root, excludes = self._shipping(agents)
            self._root = str(root)
            runtime_env.update(working_dir=str(root), excludes=excludes)
        self._connect(ray, runtime_env)
        self._check_nodes(ray)
        self._remote = self._game_remote(ray, None)
        self._raise_problems(self._probe(ray, agents, sandbox))

    def _shipping(self, agents: list[AgentSpec]) -> tuple[Path, list[str]]:
        """The folder to ship for ``agents`` and its excludes in Ray's form; ConfigError when it is
        too large."""
        root = (self.options.working_dir or default_working_dir(self._base_dir or Path.cwd(), agents)).resolve()
        patterns = DEFAULT_EXCLUDES + tuple(self.options.excludes)
        skip = [self._logs_dir] if self._logs_dir is not None else []
        size = ship_size(root, patterns, skip)
        if size > MAX_SHIP_BYTES:
            raise ConfigError(
                f"rayWorkingDir: {root} holds more than {MAX_SHIP_BYTES // (1 << 20)} MiB to ship to the "
                "workers; name a smaller folder with 'rayWorkingDir', list what to leave out in a "
                ".gitignore there, or set 'raySharedFiles' when the files are on every node")
        return root, ray_excludes(root, patterns, skip)

    def _game_remote(self, ray: Any, runtime_env: dict[str, Any] | None) -> Any:
        """The remote function every game runs through (with ``runtime_env`` instead of the job's,
        once the folder was shipped anew)."""
        # Named as before (a worker's process title is ray::game_task) though every task runs
        # through ray_entry.run_task.
        options: dict[str, Any] = {"name": "game_task", "num_cpus": self.cpus_per_game, "max_retries": 0}
        if runtime_env is not None:
            options["runtime_env"] = runtime_env
        return ray.remote(_entry(ray)).options(**options)

    def update_agents(self, agents: list[AgentSpec]) -> dict[str, str]:
        """``agents`` joined the field or changed their files since :meth:`open` (a league's field):
        unless files are shared, the folder is packaged and shipped anew (widened when a new agent
        lies outside it; Ray uploads only a package it does not hold yet) and every later game runs
        in that copy, games in flight finishing in theirs; then each of ``agents`` is checked on
        every node as :meth:`open` checks them. Returns why an agent cannot start on some node,
        by id (those agents must not play); raises ConfigError (the folder grew too large) or
        ClusterError."""
        if self._remote is None:
            raise RuntimeError("RayBackend.update_agents before open")
        ray = self._ray
        self._agents.update((agent.id, agent) for agent in agents)
        runtime_env: dict[str, Any] | None = None
        if not self.options.shared_files:
            root, excludes = self._shipping(list(self._agents.values()))
            runtime_env = {"working_dir": _upload(ray, root, excludes), "env_vars": dict(WORKER_ENV)}
            self._root = str(root)
            self._remote = self._game_remote(ray, runtime_env)
        problems: dict[str, str] = {}
        for answer in self._probe(ray, agents, self._sandbox, runtime_env):
            for agent_id, why in answer["problems"]:
                problems.setdefault(agent_id, _cannot_start(answer["node"], why))
        return problems

    def _connect(self, ray: Any, runtime_env: dict[str, Any]) -> None:
        address = self.options.address
        kwargs: dict[str, Any] = {"runtime_env": runtime_env or None, "log_to_driver": False,
                                  "logging_level": logging.WARNING, "include_dashboard": False}
        if address == EMBEDDED_ADDRESS:
            # A private instance on loopback only, in a folder of its own; it ends with this process
            # (close, or the reaper when the driver is killed).
            kwargs.update(address="local", _node_ip_address="127.0.0.1", num_cpus=self.options.num_cpus)
        else:
            if address != "auto":
                _check_reachable(address)
                if address.split(":")[0] in ("127.0.0.1", "localhost"):
                    kwargs["_node_ip_address"] = "127.0.0.1"
            kwargs.update(address=address)
            kwargs.pop("include_dashboard")
        if ray.is_initialized():
            return  # e.g. a caller that set Ray up itself: use it as it is
        if address == EMBEDDED_ADDRESS:
            self._reaper = Reaper.start()
            kwargs["_temp_dir"] = self._reaper.folder
        # ray.init installs its own SIGTERM handler: arena's (flush, then exit 130) must stay.
        previous = signal.getsignal(signal.SIGTERM)
        try:
            ray.init(**kwargs)
        except Exception as exc:  # noqa: BLE001 - Ray raises many kinds; each becomes one line
            self._stop_reaper()
            where = "start an embedded Ray instance" if address == EMBEDDED_ADDRESS else \
                f"connect to the Ray cluster at {address!r}"
            raise ClusterError(f"cannot {where}: {_one_line(exc)}") from None
        finally:
            with contextlib.suppress(Exception):
                signal.signal(signal.SIGTERM, previous)
        self._started_ray = True

    def _check_nodes(self, ray: Any) -> None:
        self._nodes = [n for n in ray.nodes() if n.get("Alive")]
        fits = [n for n in self._nodes if n.get("Resources", {}).get("CPU", 0) >= self.cpus_per_game]
        if not fits:
            most = max((n.get("Resources", {}).get("CPU", 0) for n in self._nodes), default=0)
            raise ClusterError(
                f"no node of the Ray cluster has {self.cpus_per_game:g} CPUs for a game (the largest has "
                f"{most:g}); lower 'rayCpusPerGame' or add nodes")
        self._set_nodes(fits)

    def _set_nodes(self, nodes: list[dict[str, Any]]) -> None:
        self._nodes = nodes
        self._capacity = max(1, sum(int(n["Resources"]["CPU"] // self.cpus_per_game) for n in nodes))

    def _probe(self, ray: Any, agents: list[AgentSpec], sandbox: bool | str = False,
               runtime_env: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Each node's :func:`probe_task` answer for ``agents`` (in ``runtime_env`` when given, else
        the job's). A node that vanished meanwhile (Ray still listed it) is left out."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        probe = ray.remote(_entry(ray))
        payload = _payload(ray, probe_task, agents, self._root, sandbox)
        extra: dict[str, Any] = {"runtime_env": runtime_env} if runtime_env is not None else {}
        refs = [probe.options(name="probe_task", num_cpus=0, max_retries=0,
                              scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False),
                              **extra).remote(payload) for node in self._nodes]
        gone = (ray.exceptions.TaskUnschedulableError, ray.exceptions.NodeDiedError,
                ray.exceptions.WorkerCrashedError)
        answers, alive = [], []
        for node, ref in zip(self._nodes, refs, strict=True):
            try:
                answers.append(ray.get(ref, timeout=PROBE_TIMEOUT_S))
                alive.append(node)
            except gone:
                continue
            except ray.exceptions.RayTaskError as exc:
                # ray_entry's ImportError names the worker's Python and what to install where.
                cause = getattr(exc, "cause", None) or exc
                text = str(cause) if isinstance(cause, ImportError) else _one_line(cause)
                raise ClusterError(f"a Ray worker on {node.get('NodeManagerAddress', '?')} cannot run arena's "
                                   f"games: {text}") from None
            except Exception as exc:  # noqa: BLE001 - a timeout, a runtime_env failure...
                raise ClusterError(f"checking the Ray nodes failed: {_one_line(exc)}") from None
        if not alive:
            raise ClusterError("every node of the Ray cluster vanished while arena checked them")
        self._set_nodes(alive)
        return answers

    @staticmethod
    def _raise_problems(answers: list[dict[str, Any]]) -> None:
        """Every agent must be able to start on every node that may run a game: one line otherwise."""
        for answer in answers:
            for agent_id, why in answer["problems"]:
                raise ConfigError(f"agent {agent_id!r} {_cannot_start(answer['node'], why)}")

    def capacity(self) -> int | None:
        return self._capacity

    def describe(self) -> str | None:
        cpus = sum(n["Resources"].get("CPU", 0) for n in self._nodes)
        shipped = f"shipping {self._root}" if self._root else "shared files"
        return (f"ray: {len(self._nodes)} node(s), {cpus:g} CPUs, {self.cpus_per_game:g} per game, "
                f"up to {self._capacity} games at once; {shipped}")

    def close(self) -> None:
        if self._started_ray and self._ray is not None:
            self._started_ray = False
            with contextlib.suppress(Exception):
                self._ray.shutdown()
        self._stop_reaper()

    def _stop_reaper(self) -> None:
        if self._reaper is not None:
            reaper, self._reaper = self._reaper, None
            reaper.stop()

    # -- playing ---------------------------------------------------------------------------------

    async def play(self, job: GameJob, *, stderr_dir: Path | None = None,
                   observer: Observer | None = None) -> dict[str, Any]:
        """Play ``job`` on the cluster (``observer`` is not supported remotely and is ignored)."""
        if self._remote is None:
            raise RuntimeError("RayBackend.play before open")
        ray = self._ray
        retriable = tuple(getattr(ray.exceptions, n) for n in _RETRIABLE_NAMES)
        lost: list[str] = []
        while True:
            # game_task is looked up now, not at open: bench/ray_memory.py puts a stand-in there.
            ref = self._remote.remote(_payload(ray, game_task, job, self._root, stderr_dir is not None))
            try:
                result = await wait_for(ref, ray)
            except retriable as exc:
                lost.append(_one_line(exc, 200))
                if len(lost) > self.options.max_retries:
                    raise ClusterError(f"game {job.game_index} was lost {len(lost)} times with its Ray worker "
                                       f"or node; last: {lost[-1]}") from None
                continue
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None  # e.g. ResourceError on the worker: the run stops as locally
                raise ClusterError(f"game {job.game_index} failed on a Ray worker: {_one_line(exc)}") from None
            except ray.exceptions.RayError as exc:
                raise ClusterError(f"the Ray cluster failed: {_one_line(exc)}") from None
            break
        record: dict[str, Any] = result["record"]
        record["node"] = result["node"]
        if lost:
            record["ray_retries"] = [f"attempt {n + 1} discarded (its partial play was lost with it): {why}"
                                     for n, why in enumerate(lost)]
        self._write_stderr(record, result.get("stderr") or {}, stderr_dir)
        return record

    @staticmethod
    def _write_stderr(record: dict[str, Any], stderr: dict[str, bytes], stderr_dir: Path | None) -> None:
        logs = record.get("stderr_logs")
        if not isinstance(logs, dict):
            return
        if stderr_dir is None:
            del record["stderr_logs"]
            return
        from arena.fileio.files import open_beneath

        # stderr_dir is a log folder's stderr/ (<logs root>/<id>/stderr): no link is followed below
        # the logs root, and whatever is at the name is replaced, never written through.
        root = Path(stderr_dir).parent.parent
        for colour, name in list(logs.items()):
            name = os.path.basename(str(name))
            if name in ("", ".", ".."):
                del logs[colour]
                continue
            path = Path(stderr_dir) / name
            # Synchronous, like the record that follows: small files, written once.
            with open(open_beneath(root, path, os.O_WRONLY, make_dirs=True, fresh=True), "wb") as handle:
                handle.write(stderr.get(name, b""))
            logs[colour] = str(path)


class Reaper:
    """The reaper of an embedded instance (:mod:`arena.backends.ray_reaper`): ``folder`` is the
    instance's (``ray.init(_temp_dir=folder)``), ``process`` the reaper watching this driver."""

    #: How long :meth:`stop` waits for the reaper's sweep (its own bound, and a margin).
    STOP_WAIT_S = 40.0

    def __init__(self, folder: str, process: subprocess.Popen[bytes]) -> None:
        self.folder = folder
        self.process = process

    @classmethod
    def start(cls) -> Reaper:
        """A fresh folder ``ray-*`` (mode 0700, under ``RAY_TMPDIR`` or the temporary folder, where
        Ray's own ``ray/`` would be) and its reaper, started. Raises ClusterError."""
        base = os.environ.get("RAY_TMPDIR") or tempfile.gettempdir()
        try:
            folder = tempfile.mkdtemp(prefix="ray-", dir=base)  # short: Ray's socket paths are bounded
        except OSError as exc:
            raise ClusterError(f"cannot make a folder for the embedded Ray instance in {base}: "
                               f"{exc.strerror or exc}") from None
        script = str(Path(__file__).with_name("ray_reaper.py"))
        try:
            process = subprocess.Popen([sys.executable, "-I", script, str(os.getpid()), folder],
                                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True)
        except OSError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise ClusterError(f"cannot start the reaper of the embedded Ray instance: {exc.strerror or exc}") from None
        return cls(folder, process)

    def stop(self) -> None:
        """Tell the reaper the driver is done (Ray shut down), and wait for its sweep."""
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.write(b"close\n")
                self.process.stdin.close()
        try:
            self.process.wait(self.STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            shutil.rmtree(self.folder, ignore_errors=True)


def _cannot_start(node: dict[str, Any], why: str) -> str:
    return (f"cannot start on Ray node {node['ip']} ({node['id'][:8]}, {node['hostname']}): {why}; ship it "
            "(rayWorkingDir) or install it there")


def _upload(ray: Any, root: Path, excludes: list[str]) -> str:
    """The URI of ``root`` packaged for Ray (uploaded to the cluster unless it holds that package
    already: the name is a digest of the files), as ``ray.init`` packages the job's folder. A
    task's own ``runtime_env`` must name a URI, not a local folder, and Ray has no public call
    for this step: its own helper is used, and its absence (a Ray that moved it) is one line."""
    try:
        from ray._private.runtime_env.working_dir import upload_working_dir_if_needed

        scratch = ray._private.worker.global_worker.node.get_runtime_env_dir_path()
        env = upload_working_dir_if_needed({"working_dir": str(root), "excludes": excludes}, include_gitignore=True,
                                           scratch_dir=scratch, logger=logging.getLogger(__name__))
    except Exception as exc:  # noqa: BLE001 - an ImportError (another Ray) or an upload failure: one line
        raise ClusterError(f"cannot ship {root} to the Ray workers again: {_one_line(exc)}") from None
    return str(env["working_dir"])


def _entry(ray: Any) -> Any:
    """:func:`arena.backends.ray_entry.run_task`, which Ray is to ship by value (see that module)."""
    from arena.backends import ray_entry

    ray.cloudpickle.register_pickle_by_value(ray_entry)
    return ray_entry.run_task


def _payload(ray: Any, function: Any, *args: Any) -> bytes:
    """``(function, args)`` pickled for :func:`arena.backends.ray_entry.run_task`."""
    return bytes(ray.cloudpickle.dumps((function, args)))


async def wait_for(ref: Any, ray: Any) -> Any:
    """The value of the ObjectRef ``ref`` without blocking trio. Cancelled: the task is cancelled
    with ``force=True`` (its worker process and bots are killed) and Cancelled propagates."""
    future = ref.future()
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def wake(_: Any) -> None:
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass

    future.add_done_callback(wake)
    try:
        await done.wait()
    except BaseException:
        _cancel(ray, ref)
        raise
    return future.result()


def _cancel(ray: Any, ref: Any) -> None:
    try:
        ray.cancel(ref, force=True)
    except Exception:  # noqa: BLE001, S110 - already finished, or the cluster is gone: nothing to kill
        pass


def _check_reachable(address: str, timeout_s: float = 10.0) -> None:
    """ClusterError now, rather than Ray's minute of retries, when ``HOST:PORT`` does not answer."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"--ray-address: {address!r} is not HOST:PORT, 'auto' or '{EMBEDDED_ADDRESS}'")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {why}") from None


def preflight(options: BackendOptions) -> None:
    """The checks that need no cluster, for a driver with long work to do before its first game
    (``arena train evolve`` breeds and trains players first): Ray can be imported here, and a
    ``HOST:PORT`` address is well formed and answers. ClusterError otherwise (the line
    :meth:`RayBackend.open` would give later); connecting and checking the nodes stay in ``open``."""
    import_ray()
    if options.address not in (EMBEDDED_ADDRESS, "auto"):
        _check_reachable(options.address)


__all__ = ["DEFAULT_CPUS_PER_GAME", "RayBackend", "game_task", "import_ray", "node_info", "preflight", "probe_task",
           "wait_for"]
