"""The standings worker: ``standings.json`` and the per-agent files, computed outside arena's process.

Why a process. Arena's event loop times the bots. The Bradley–Terry fit and its bootstrap are pure
Python and take seconds for a big tournament; in a thread they hold the GIL, and the event loop then
waits up to the interpreter's switch interval (5 ms) every time it needs the GIL back, many times
per move: 8-18 of 300 games were lost on time that way (issue 8). Forty small file writes after each
game cost 3 ms on their own. Here both happen in a child process at the lowest CPU priority
(``SCHED_IDLE``, else nice 19), so a bot that wants a CPU always gets it first.

Protocol (JSON lines on the child's stdin; the child is ``python -m arena.tournament.stats_worker
<folder>``, the folder only naming it in ``ps``):

- ``{"init": {...}}`` first: the folder, the tournament's id, game, seed, agents ``[[id, type,
  path], ...]``, bootstrap samples, ``games_bytes`` (how much of ``games.jsonl`` was finished when
  the run began: the worker reads those games itself), ``players`` (None for a two-player game, else
  the seats of the general model's game: rows and standings of that shape), ``hero`` (a
  gauntlet's first agent, rated against the field too, or None), the throttling intervals,
  ``low_priority`` (default true; false keeps the normal priority, for tests on a busy machine),
  ``field`` (a folder kept by pairing: :meth:`arena.records.field.Field.to_json`, the games
  that count; None: every game counts) and ``checked`` (with a field: ``{"context", "sha256"}``,
  the config's and the first ``games_bytes``' hashes of ``games.checked.json``, which the worker
  then keeps up to date: :class:`arena.tournament.checked.Tracker`; None: it does not).
- ``{"row": {...}, "pending": n, "checked": [bytes, sha256]}`` for every game finished in this
  run, with the lowest index that may still finish (for the seed's online Elo, see
  :class:`arena.tournament.logs.LegacyEloStats`) and, with ``checked``, ``games.jsonl``'s length
  and hash once the row is written.
- ``{"field": {...}, "agents": [[id, type, path], ...]}`` (a league whose field changed): from now
  on the standings are of those agents, on the games that count in that field (every row so far
  counted again).
- ``{"finish": true}``: write the final ``standings.json``, print ``{"done": <games>}`` on stdout
  and exit 0.

The worker writes ``<agentId>.json`` at most every ``agent_files_interval_s``, ``games.checked.json``
at most every ``checked_interval_s`` (default :data:`CHECKED_INTERVAL_S`) and ``standings.json``
at most every ``standings_interval_s`` (or, when a fit takes longer than that, no more often than
it takes, so it is busy at most half the time), always atomically. End of input without ``finish``
means arena is gone or gave up on it: it exits at once, even in the middle of a fit, so it never
outlives arena. Problems (a full disk) are reported as ``{"warning": "..."}`` lines on stdout, each
once; arena shows them at the end.

Arena's side is :class:`StatsWorker` (trio). If the worker cannot start or dies, arena writes the
final files itself at finish, when no clock runs (:meth:`arena.tournament.runner.Tournament.finish`).
At finish arena lifts the worker back to the normal priority (root can; an ordinary user needs a
``RLIMIT_NICE`` of 20); when it cannot, it ends the worker and computes the final files itself.
"""

from __future__ import annotations

import math
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import orjson

MODULE = "arena.tournament.stats_worker"
#: How often, at most, the worker rewrites ``games.checked.json`` during play (seconds).
CHECKED_INTERVAL_S = 5.0


# -- the child -----------------------------------------------------------------------------------


def lower_priority(pid: int = 0) -> None:
    """Make ``pid`` (0: this process) run only when a CPU would otherwise be idle, or failing that
    at nice 19. Lowering one's own priority needs no privilege."""
    try:
        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
        return
    except (AttributeError, OSError):
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, pid, 19)
    except OSError:
        pass


def restore_priority(pid: int) -> bool:
    """Give ``pid`` the normal policy and nice 0 again; False when not allowed. Leaving
    ``SCHED_IDLE`` needs ``CAP_SYS_NICE`` (root has it) or a ``RLIMIT_NICE`` of at least 20."""
    try:
        os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))
        os.setpriority(os.PRIO_PROCESS, pid, 0)
    except (AttributeError, OSError):
        return False
    return True


def _reader(fd: int, inbox: queue.SimpleQueue[dict[str, Any] | None]) -> None:
    """Drain stdin into ``inbox`` (a thread: arena's pipe never fills while a fit runs).

    Raw ``os.read`` on the descriptor, not ``sys.stdin.buffer``: this daemon thread may still be
    blocked reading when the main thread returns, and a thread holding the buffered reader's lock
    at interpreter shutdown aborts the process (``_enter_buffered_busy``, SIGABRT)."""
    finishing = False
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop() if chunk else b""
        for line in lines:
            if not line.strip():
                continue
            try:
                message = orjson.loads(line)
            except ValueError:
                os._exit(4)  # not arena talking to us
            if not isinstance(message, dict):
                os._exit(4)
            finishing = finishing or bool(message.get("finish"))
            inbox.put(message)
        if not chunk:
            break
    if not finishing:
        os._exit(0)  # arena is gone (or gave up on us): never outlive it, not even by one fit
    inbox.put(None)


class _Worker:
    def __init__(self, init: dict[str, Any]) -> None:
        from arena.fileio.files import open_beneath
        from arena.records.logstore import log_root, parse_rows
        from arena.records.reader import GAMES_FILE

        self.folder = Path(init["folder"])
        self.init = init
        self.players: int | None = init.get("players")
        self.pending: int | None = None
        self.warned: set[str] = set()
        #: The last refresh's fit, where the next one starts (standings_object's ``warm``).
        self.warm: dict[str, Any] = {}
        #: A folder kept by pairing: every row (the field may change: a league), of which only
        #: those that count now are tallied, standings in the field's order.
        self.rows: list[dict[str, Any]] = []
        path = self.folder / GAMES_FILE
        # Only the bytes arena had written when it started us (whole lines), read without following
        # a link below the logs root (a link or FIFO planted there is refused: no standings then).
        with open(open_beneath(log_root(self.folder), path, os.O_RDONLY), "rb") as handle:
            data = handle.read(int(init["games_bytes"]))
        self.set_field(init["agents"], init.get("field"))
        for row in parse_rows(data, path).rows:
            self.add_row(row)
        self.tracker: Any = None
        if init.get("checked") and self.field is not None:
            from arena.tournament.checked import Tracker

            self.tracker = Tracker(self.field, init["checked"]["context"], self.rows, len(data),
                                   init["checked"]["sha256"])
        self.agents_dirty = False
        # The files already there are as good as arena's were: the first write follows a new game.
        self.standings_games = len(self.results)
        self.standings_written = False

    @property
    def standings_dirty(self) -> bool:
        return self.standings_games != len(self.results)

    def set_field(self, agents: list[Any], field: dict[str, Any] | None) -> None:
        """Tally anew for ``agents`` and ``field`` (:meth:`Field.to_json`; None: every row counts)
        the rows taken in so far: those that count in it (a league's field changed)."""
        from arena.records.field import Field
        from arena.tournament.logs import load_results, online_tally

        self.agents: list[tuple[str, str, str | None]] = [tuple(a) for a in agents]
        self.field = Field.from_json(field) if field else None
        self.stats = online_tally([a[0] for a in self.agents], self.players)
        self.results: list[Any] = []
        if self.field is not None:
            for result in load_results(self.field.counting(self.rows), self.players):
                self.add(result)
        self.standings_games = -1  # the field changed: the standings are due
        self.agents_dirty = True

    def add_row(self, row: dict[str, Any]) -> None:
        """Take in one finished game's row (one that does not count now is kept, not tallied)."""
        from arena.tournament.logs import load_results

        if self.field is not None:
            self.rows.append(row)
            if not self.field.counts(row):
                return
        self.add(load_results([row], self.players)[0])

    def add(self, result: Any) -> None:
        self.results.append(result)
        self.stats.add(result)

    def write_checked(self) -> None:
        from arena.records.logstore import log_root

        try:
            self.tracker.write(self.folder, log_root(self.folder), self.stats)
        except OSError:
            self.tracker.dirty = False  # arena writes it at the end, and says so if it cannot

    def warn(self, text: str) -> None:
        if text not in self.warned and len(self.warned) < 10:
            self.warned.add(text)
            sys.stdout.buffer.write(orjson.dumps({"warning": text}) + b"\n")
            sys.stdout.flush()

    def write_agent_files(self) -> None:
        from arena.records.logstore import write_failure
        from arena.tournament.logs import write_agent_files

        try:
            write_agent_files(self.folder, self.agents, self.stats.snapshot(self.pending))
        except OSError as exc:
            self.warn(str(write_failure(self.folder, exc, "write the per-agent files in")))
        self.agents_dirty = False

    def write_standings(self) -> None:
        from arena.records.logstore import STANDINGS_FILE, write_failure, write_standings
        from arena.tournament.logs import load_results, standings_object

        init = self.init
        results = (load_results(self.field.standings_rows(self.rows), self.players) if self.field is not None
                   else sorted(self.results, key=lambda g: g.index))
        standings = standings_object(init["id"], init["game"], [a[0] for a in self.agents], results,
                                     seed=init["seed"], bootstrap_samples=init["bootstrap"], players=self.players,
                                     hero=init.get("hero"), warm=self.warm)
        try:
            write_standings(self.folder, standings)
        except OSError as exc:
            self.warn(str(write_failure(self.folder / STANDINGS_FILE, exc)))
            self.standings_written = False
            return
        self.standings_games = len(results)
        self.standings_written = True


def main() -> int:
    """The child's life: read messages, write files when due, exit on ``finish`` or end of input."""
    import signal

    from arena.process.isolation import make_undumpable

    # Bots run as the same user: they must not write forged games into our stdin via /proc.
    make_undumpable()
    # Ctrl-C on the terminal reaches the whole foreground group: arena decides what happens to us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    inbox: queue.SimpleQueue[dict[str, Any] | None] = queue.SimpleQueue()
    threading.Thread(target=_reader, args=(sys.stdin.fileno(), inbox), daemon=True).start()
    first = inbox.get()
    if not first or "init" not in first:
        return 4

    init = first["init"]
    if init.get("low_priority", True):
        lower_priority()
    worker = _Worker(init)
    agent_every = float(init.get("agent_files_interval_s", 2.0))
    standings_every = float(init.get("standings_interval_s", 2.0))
    checked_every = float(init.get("checked_interval_s", CHECKED_INTERVAL_S))
    next_agents = next_standings = next_checked = time.monotonic()
    while True:
        due = [t for t, dirty in ((next_agents, worker.agents_dirty),
                                  (next_standings, worker.standings_dirty),
                                  (next_checked, worker.tracker is not None and worker.tracker.dirty)) if dirty]
        try:
            message = inbox.get(timeout=max(0.0, min(due) - time.monotonic()) if due else None)
        except queue.Empty:
            message = {}
        while True:
            if message is None:  # end of input right after finish: nothing more to do
                return 0
            if message.get("finish"):
                if worker.standings_dirty or not worker.standings_written:
                    worker.write_standings()
                done = len(worker.results) if worker.standings_written else None
                sys.stdout.buffer.write(orjson.dumps({"done": done}) + b"\n")
                sys.stdout.flush()
                return 0
            if "row" in message:
                worker.add_row(message["row"])
                worker.pending = message.get("pending")
                worker.agents_dirty = True
                if worker.tracker is not None and isinstance(message.get("checked"), list):
                    worker.tracker.add(message["row"], *message["checked"])
            if "field" in message:
                worker.set_field(message["agents"], message["field"])
            try:
                message = inbox.get_nowait()
            except queue.Empty:
                break
        now = time.monotonic()
        if worker.agents_dirty and now >= next_agents:
            worker.write_agent_files()
            next_agents = now + agent_every
        if worker.tracker is not None and worker.tracker.dirty and now >= next_checked:
            worker.write_checked()
            next_checked = time.monotonic() + checked_every
        if worker.standings_dirty and now >= next_standings:
            worker.write_standings()
            took = time.monotonic() - now
            next_standings = time.monotonic() + max(standings_every, took)


# -- arena's side --------------------------------------------------------------------------------


def _worker_environment() -> dict[str, str]:
    """The worker's environment: a helper's (never arena's secrets: bots can read a helper's
    environ), with this arena importable even when it runs from a source tree, not installed."""
    from arena.process.isolation import helper_environment

    env = helper_environment()
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


class StatsWorker:
    """Arena's handle on the worker process (all methods run in the trio thread).

    :meth:`start` spawns it; :meth:`game_finished` queues a row without waiting; :meth:`feed` (a task
    for the run's nursery) writes queued rows to the pipe; :meth:`finish` hands over the rest, asks
    for the final standings and returns them (``None`` when the worker failed: the caller computes
    them itself). :meth:`kill` is the synchronous last resort.
    """

    def __init__(self, init: dict[str, Any], stderr_path: Path | None = None) -> None:
        import trio

        self.init = init
        self.stderr_path = stderr_path
        self.process: Any = None
        self.alive = False
        self.warnings: list[str] = []
        self._send, self._receive = trio.open_memory_channel[bytes](math.inf)

    async def start(self) -> bool:
        """Spawn the worker and send ``init``. False (and no worker) when it cannot be started."""
        import trio

        env = _worker_environment()
        stderr: Any = subprocess.DEVNULL
        try:
            if self.stderr_path is not None:
                # In the log folder's stderr/: no link followed below the logs root, a fresh file.
                from arena.fileio.files import open_beneath
                from arena.records.logstore import log_root

                stderr = open_beneath(log_root(self.stderr_path.parent.parent), self.stderr_path, os.O_WRONLY,
                                      fresh=True)
        except (OSError, ValueError):
            stderr = subprocess.DEVNULL
        try:
            # Its own session: the terminal's signals are arena's to handle; it ends with its input.
            self.process = await trio.lowlevel.open_process(
                # The folder in argv names the worker in `ps` (and lets tests find it in /proc).
                [sys.executable, "-m", MODULE, str(self.init["folder"])], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=stderr, env=env, start_new_session=True)
        except OSError:
            return False
        finally:
            if isinstance(stderr, int) and stderr >= 0:
                os.close(stderr)
        if self.init.get("low_priority", True):
            lower_priority(self.process.pid)
        self.alive = True
        self._send.send_nowait(orjson.dumps({"init": self.init}) + b"\n")
        return True

    def game_finished(self, row: dict[str, Any], pending: int | None, checked: tuple[int, str] | None = None) -> None:
        """Queue one finished game (never waits: called between a game's end and its report);
        ``checked``: ``games.jsonl``'s length and hash with its row (``init``'s ``checked``)."""
        if self.alive:
            message = {"row": row, "pending": pending, **({"checked": checked} if checked is not None else {})}
            self._send.send_nowait(orjson.dumps(message) + b"\n")

    def field_changed(self, agents: list[list[Any]], field: dict[str, Any]) -> None:
        """Queue a league's new field (``[id, type, path]`` each, and :meth:`Field.to_json`)."""
        if self.alive:
            self._send.send_nowait(orjson.dumps({"field": field, "agents": agents}) + b"\n")

    async def feed(self) -> None:
        """Write queued messages to the worker until cancelled (a task of the run's nursery)."""
        async for data in self._receive:
            if not await self._write(data):
                return

    async def _write(self, data: bytes) -> bool:
        import trio

        if not self.alive:
            return False
        # Shielded, so a cancellation never leaves half a line in the pipe; bounded, so a worker
        # that stopped reading cannot hold up arena (it is given up and killed).
        with trio.CancelScope(shield=True):
            with trio.move_on_after(10):
                try:
                    await self.process.stdin.send_all(data)
                    return True
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass
        self.alive = False
        self.kill()
        return False

    async def finish(self) -> dict[str, Any] | None:
        """Send what is queued and ``finish``, wait for the final standings (shielded: runs after a
        Ctrl-C too) and return them as read back from ``standings.json``; None if the worker failed."""
        import trio

        if self.process is None:
            return None
        with trio.CancelScope(shield=True):
            done: Any = None
            # No clock runs any more, but other load on the machine can starve a SCHED_IDLE
            # process for good (a CI run beside 30 busy processes gave it nothing in 30 s). The
            # final standings are computed at normal priority: by the worker when its priority
            # can be lifted, else by arena itself (the caller, on None).
            if self.alive and self.init.get("low_priority", True) and not restore_priority(self.process.pid):
                self.kill()
            if self.alive:
                pending: list[bytes] = []
                while True:
                    try:
                        pending.append(self._receive.receive_nowait())
                    except trio.WouldBlock:
                        break
                ok = True
                for data in [*pending, orjson.dumps({"finish": True}) + b"\n"]:
                    ok = ok and await self._write(data)
                if ok:
                    try:
                        await self.process.stdin.aclose()
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        pass
                    done = await self._read_answers()
            else:
                self.kill()
            await self.process.wait()
        self.alive = False
        if not isinstance(done, int):
            return None
        from arena.records.logstore import LogError, log_root, read_standings

        folder = Path(self.init["folder"])
        try:
            standings = read_standings(folder, log_root(folder))
        except LogError:
            return None
        return standings if standings is not None and standings.get("games") == done else None

    async def _read_answers(self) -> Any:
        """Read the worker's stdout to its end: keep warnings, return the ``done`` value."""
        import trio

        buffer = bytearray()
        while True:
            try:
                chunk = await self.process.stdout.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                chunk = b""
            if not chunk:
                break
            buffer.extend(chunk)
            if len(buffer) > 1 << 20:  # not our worker's few lines: stop listening
                self.kill()
                return None
        done: Any = None
        for line in bytes(buffer).splitlines():
            try:
                message = orjson.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and isinstance(message.get("warning"), str):
                self.warnings.append(message["warning"])
            elif isinstance(message, dict) and "done" in message:
                done = message["done"]
        return done

    def kill(self) -> None:
        """Kill the worker at once (synchronous; safe to call more than once)."""
        self.alive = False
        if self.process is not None and self.process.returncode is None:
            try:
                self.process.kill()
            except OSError:
                pass

    def reap(self, timeout: float = 2.0) -> None:
        """After :meth:`kill`, outside trio: wait a little for the worker to be gone (no zombie)."""
        if self.process is None:
            return
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)


if __name__ == "__main__":
    sys.exit(main())
