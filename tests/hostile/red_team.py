"""The red-team scenarios of issue 18: each attack played by real ``arena match`` / ``arena run``
commands (``sys.executable -m arena``) with real hostile bots (``hostile_bot.py``), measured from
what an outsider sees: the records, the exit code, the bots' ``REPORT`` lines, ``/proc``.

One home for each attack: the tests (``test_red_team_*.py``) assert the fixed behaviour on these
figures and ``bench/redteam.py`` prints them as a table. Each scenario takes:

- ``marker``: unique per call; every process of the scenario carries it in its argv (the bots aim
  only at processes carrying it, and cleanup kills only those);
- ``folder``: a folder for the records and logs, which every user may enter (bots may run under a
  uid of their own and run from the tournament's folder);
- ``flags``: arena options for the isolation under test (``[]`` the default, ``["--sandbox"]``,
  ``["--no-sandbox"]``) plus any limits (``--memory-mb 256``).

and returns a :class:`Measured`: the one-line figure for the table, the run, and the numbers the
tests assert on. Running arena and reading its records is :mod:`arena_runs`. Every scenario bounds itself (timeouts; a cgroup of its own around a memory hog or
a fork bomb; a small tmpfs under a disk filler) and kills what its bots left behind, by pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena_runs import (
    ARENA,
    GAME,
    ROOT,
    ArenaRun,
    count_losses,
    cpu_ms_of,
    loser,
    lost_by,
    mode_of,
    options_of,
    own_and_charged,
    play_match,
    play_tournament,
)
from hostile_support import (
    BOT_PYTHON,
    BoundCgroup,
    argv_of,
    hostile_command,
    ids_of,
    kill_marked,
    reap_adopted_zombies,
    small_tmpfs,
    survivors,
)

#: Terminations by which a fake move decides a game.
FAKE_MOVE_LOSSES = ("illegal_move", "malformed_reply")


@dataclass
class Measured:
    """A scenario's result: ``figure`` for the table, ``run`` and the numbers behind the figure."""

    figure: str
    run: ArenaRun | None = None
    numbers: dict[str, Any] = field(default_factory=dict)


def _plain(marker: str, **options: Any) -> str:
    return hostile_command(marker, GAME, "plain", "-", options or None)


def _cleanup(marker: str) -> None:
    """Kill (by pid) whatever carries ``marker`` still: what the attack left behind."""
    kill_marked(marker)
    reap_adopted_zombies()


# -- 1. move injection ----------------------------------------------------------------------------


def injection_match(marker: str, folder: Path, flags: Sequence[str], games: int = 6) -> Measured:
    """A bot writes a fake move into its opponent's stdout (/proc/<pid>/fd/1, found by the run token)."""
    try:
        run = play_match(hostile_command(marker, GAME, "inject", "-"), _plain(marker), folder, flags=flags,
                         games=games, max_moves=20)
    finally:
        _cleanup(marker)
    decided = count_losses(run.records, "plain", FAKE_MOVE_LOSSES)
    return Measured(f"games decided by injection {decided}/{games}", run, {"decided": decided, "games": games})


def injection_tournament(marker: str, folder: Path, flags: Sequence[str], others: int = 3,
                         concurrency: int = 2) -> Measured:
    """The injector writes a fake move into every bot of the run it can see, its opponents or not."""
    agents = {"injector": hostile_command(marker, GAME, "inject", "-", {"persistent": True, "seconds": 30})}
    agents.update({f"honest{i}": _plain(marker, sleep_ms=2) for i in range(1, others + 1)})
    try:
        run = play_tournament(marker, agents, folder, flags=flags,
                              config={"maxMoves": 30, "concurrency": concurrency, "gamesPerPair": 2})
    finally:
        _cleanup(marker)
    decided = [r for r in run.records if r["termination"] in FAKE_MOVE_LOSSES
               and (loser(r) or {}).get("id") != "injector"]
    between = [r for r in decided if all(p["id"] != "injector" for p in r["players"])]
    total = len(run.records)
    return Measured(f"games decided by injection {len(decided)}/{total}, {len(between)} between two other bots",
                    run, {"decided": len(decided), "between_others": len(between), "games": total})


def early_reply(marker: str, folder: Path, flags: Sequence[str], games: int = 2) -> Measured:
    """A bot writes, with each reply, a line meant for its next turn, before that turn's input."""
    try:
        run = play_match(hostile_command(marker, GAME, "early", "-"), _plain(marker), folder, flags=flags,
                         games=games, max_moves=10)
    finally:
        _cleanup(marker)
    taken = count_losses(run.records, "early", FAKE_MOVE_LOSSES)
    return Measured(f"replies written before their input taken as the move {taken}/{games} games", run,
                    {"taken": taken, "games": games})


# -- 2. signals -----------------------------------------------------------------------------------


def stop_arena(marker: str, folder: Path, flags: Sequence[str], games: int = 2, seconds: float = 2.0) -> Measured:
    """A helper of the bot (detached, so not stopped with it) SIGSTOPs arena during the opponent's
    turn for ``seconds``; the opponent thinks 50 ms a move and has 1.5 s for the whole game."""
    try:
        run = play_match(hostile_command(marker, GAME, "stop_arena", "-", {"seconds": seconds, "sleep_ms": 30}),
                         _plain(marker, sleep_ms=50), folder, flags=flags, games=games, max_moves=10, time_limit=1500,
                         timeout=60 + games * seconds)
    finally:
        _cleanup(marker)
    lost = count_losses(run.records, "plain", ("timeout",))
    stopped = sum(text == "ok" for *_, text in run.reports("stop_arena"))
    return Measured(f"arena stopped {stopped}x for {seconds:g} s; opponent lost on time {lost}/{games}", run,
                    {"lost_on_time": lost, "stopped": stopped, "games": games})


def kill_arena(marker: str, folder: Path, flags: Sequence[str], games: int = 4) -> Measured:
    """The bot SIGKILLs arena on its second turn."""
    try:
        run = play_match(hostile_command(marker, GAME, "kill_arena", "-"), _plain(marker), folder, flags=flags,
                         games=games, max_moves=10)
    finally:
        _cleanup(marker)
    return Measured(f"arena exit {run.returncode}; records kept {len(run.records)}/{games}", run,
                    {"records": len(run.records), "games": games})


def kill_guardian(marker: str, folder: Path, flags: Sequence[str], wait: float = 10.0) -> Measured:
    """The bot SIGKILLs arena's guardian and starts a child (alive ``hold`` = 60 s unless killed);
    then arena is killed with SIGKILL from outside: who is left ``wait`` s later?"""
    killed_at: list[float] = []
    guardian_alive: list[bool] = []

    def watch(proc: subprocess.Popen[bytes], logs: Path) -> None:
        # The bot's stderr log may be written only at the game's end: look for its child in /proc.
        if not killed_at and survivors(marker + "-child", (proc.pid,)):
            time.sleep(0.2)  # the bot has long tried to kill the guardian: it did so before the child
            guardian_alive.append(_guardian_of(proc.pid) is not None)
            os.kill(proc.pid, signal.SIGKILL)
            killed_at.append(time.monotonic())

    slow = {"sleep_ms": 20}
    try:
        run = play_match(hostile_command(marker, GAME, "kill_guardian", "-", {"hold": 60, **slow}),
                         _plain(marker, **slow), folder, flags=flags, games=2, max_moves=2000, watch=watch,
                         timeout=60)
        left = survivors(marker, (run.pid,), wait=wait) if killed_at else []
        if killed_at and left:
            time.sleep(max(0.0, wait - (time.monotonic() - killed_at[0])))  # a full ``wait`` s after the kill
            left = survivors(marker, (run.pid,))
    finally:
        _cleanup(marker)
    alive = "alive" if guardian_alive == [True] else "KILLED" if guardian_alive else "?"
    return Measured(f"guardian {alive} when arena got kill -9; bot processes alive {wait:g} s later: {len(left)}",
                    run, {"survivors": len(left), "guardian_alive": guardian_alive == [True],
                          "killed_arena": bool(killed_at)})


def _guardian_of(pid: int) -> int | None:
    for entry in os.listdir("/proc"):
        if entry.isdigit() and "arena.process.guardian" in argv_of(int(entry)):
            with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    return int(entry)
    return None


def other_guardians(marker: str, folder: Path, flags: Sequence[str]) -> Measured:
    """Another arena run (plain bots, same marker) is going on; the bot SIGKILLs the guardians of
    every arena but its own. Is the other run's guardian still alive after?"""
    slow = _plain(marker, sleep_ms=20)
    other_logs = folder / "other"
    other = subprocess.Popen([*ARENA, "match", slow, slow, "--game", GAME, "--games", "100", "--max-moves", "2000",
                              "--quiet", "--out", str(folder / "other.json"), "--stderr-dir", str(other_logs),
                              *flags], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        guardian = None
        while guardian is None and time.monotonic() < deadline and other.poll() is None:
            guardian = _guardian_of(other.pid)
            time.sleep(0.05)
        run = play_match(hostile_command(marker, GAME, "kill_other_guardians", "-"), _plain(marker),
                         folder / "attack", flags=flags, games=1, max_moves=4)
        time.sleep(0.2)
        alive = guardian is not None and os.path.exists(f"/proc/{guardian}") and _guardian_of(other.pid) == guardian
    finally:
        if other.poll() is None:
            other.send_signal(signal.SIGTERM)
            try:
                other.wait(30)
            except subprocess.TimeoutExpired:
                other.kill()
                other.wait()
        _cleanup(marker)
    result = " ".join(text for *_, text in run.reports("other_guardians")) or "no report"
    return Measured(f"other run's guardian {'alive' if alive else 'KILLED'} (bot: {result})", run,
                    {"other_guardian_alive": alive, "found_guardian": guardian is not None, "report": result})


# -- 3. escapes -----------------------------------------------------------------------------------


def escape_burn(marker: str, folder: Path, flags: Sequence[str], games: int = 6, burners: int = 2,
                wait: float = 10.0, victim_cpu_ms: int = 30, move_time_limit: int | None = 60, max_moves: int = 20,
                watch: bool = False) -> Measured:
    """The bot leaves ``burners`` CPU burners per game (double fork, setsid, exec with an empty
    environment; each ends by itself after 60 s); the victim needs ``victim_cpu_ms`` of CPU per move
    with ``move_time_limit`` ms per move (``watch``: and measures the burners' CPU on each of its
    turns). Counted: the most burners alive at once during the run, those alive when arena has
    exited and ``wait`` s later."""
    victim_options: dict[str, Any] = {"cpu_ms": victim_cpu_ms}
    if watch:
        victim_options["watch"] = "burn"
    victim = hostile_command(marker, GAME, "plain", "-", victim_options)
    most = [0]

    def count(proc: subprocess.Popen[bytes], logs: Path) -> None:
        most[0] = max(most[0], len(survivors(marker + "-burn", (proc.pid,))))

    try:
        run = play_match(hostile_command(marker, GAME, "escape_burn", "-", {"burners": burners, "seconds": 60}),
                         victim, folder, flags=flags, games=games, max_moves=max_moves, watch=count,
                         extra=["--move-time-limit", str(move_time_limit)] if move_time_limit else [])
        at_exit = len(survivors(marker + "-burn", (run.pid,)))
        time.sleep(wait)
        left = len(survivors(marker + "-burn", (run.pid,)))
    finally:
        _cleanup(marker)
    timeouts = count_losses(run.records, "plain", ("timeout",))
    watched = [tuple(int(v) for v in text.split()) for *_, text in run.reports("watch")]
    return Measured(f"escapees alive at arena's exit {at_exit}, {wait:g} s later {left}; "
                    f"victim lost on time {timeouts}/{games}", run,
                    {"at_exit": at_exit, "survivors": left, "victim_timeouts": timeouts, "games": games,
                     "most_alive": most[0], "watched": watched})


# -- 4. resources ---------------------------------------------------------------------------------


def _killed(record: Mapping[str, Any], mode: str) -> bool:
    reason = str(record.get("reason", ""))
    return lost_by(record, mode, ("crash",)) and ("SIGKILL" in reason or "code 137" in reason)


def memory_hog(marker: str, folder: Path, flags: Sequence[str], games: int = 2, bound_mb: int = 1500,
               hog_procs: int = 20, hog_mb: int = 100, fat_mb: int = 150) -> Measured:
    """The hog spreads ``hog_procs`` x ``hog_mb`` MiB over child processes, each smaller than its
    honest opponent (``fat_mb``); the whole run is bounded by a memory cgroup of ``bound_mb``."""
    try:
        with BoundCgroup(memory_mb=bound_mb) as cgroup:
            run = play_match(hostile_command(marker, GAME, "hog", "-", {"procs": hog_procs, "mb": hog_mb, "hold": 60}),
                             hostile_command(marker, GAME, "fat", "-", {"mb": fat_mb}), folder, flags=flags,
                             games=games, max_moves=10, cgroup=cgroup)
            oom = cgroup.oom_kills()
    finally:
        _cleanup(marker)
    victims = sum(_killed(r, "fat") for r in run.records)
    limit = count_losses(run.records, "hog", ("memory_limit",))
    return Measured(f"honest bot OOM-killed {victims}/{games}; hog lost by memory_limit {limit}/{games}; "
                    f"OOM kills {oom}; arena exit {run.returncode}", run,
                    {"victims": victims, "memory_limit": limit, "oom_kills": oom, "games": games})


def fork_bomb(marker: str, folder: Path, flags: Sequence[str], kind: str = "procs", games: int = 4,
              bound_tasks: int = 400, hold: float = 20.0) -> Measured:
    """The bomb's detached helper takes up to 3,000 tasks (``kind``: processes or threads), each held
    ``hold`` s; the run is bounded by a pids cgroup of ``bound_tasks``. Do the honest bots of the
    next games start?"""
    try:
        with BoundCgroup(pids_max=bound_tasks) as cgroup:
            run = play_match(hostile_command(marker, GAME, "bomb", "-", {"kind": kind, "limit": 3000, "hold": hold}),
                             _plain(marker), folder, flags=flags, games=games, max_moves=10, cgroup=cgroup)
            refused = cgroup.task_limit_hits()
    finally:
        _cleanup(marker)
    crashed = count_losses(run.records, "plain", ("crash",))
    bombs = " ".join(text for *_, text in run.reports("bomb")) or "no report"
    return Measured(f"honest bot lost by crash {crashed}/{games}; games recorded {len(run.records)}/{games}; "
                    f"arena exit {run.returncode}; bomb took {bombs}", run,
                    {"crashed": crashed, "records": len(run.records), "games": games, "refused": refused})


def disk_filler(marker: str, folder: Path, flags: Sequence[str], disk_mb: int = 64, fill_mb: int = 256,
                config: Mapping[str, Any] | None = None) -> Measured:
    """The filler writes into its TMPDIR (HOME) until ENOSPC (at most ``fill_mb``). The "disk" is a
    tmpfs of ``disk_mb`` mounted for the scenario, holding arena's TMPDIR and the tournament's logs."""
    agents = {"filler": hostile_command(marker, GAME, "disk_fill", "-", {"mb": fill_mb}), "honest": _plain(marker)}
    settings = {"gamesPerPair": 4, **(config or {})}
    games = int(settings["gamesPerPair"])  # one pair
    try:
        with small_tmpfs(disk_mb) as disk:
            env = {**os.environ, "TMPDIR": str(disk)}
            run = play_tournament(marker, agents, folder, flags=flags, config=settings,
                                  logs_root=disk / "logs", env=env)
            # The logs go with the tmpfs: keep what the figures need. Its stderr log may be empty (the
            # disk was full): what is left of its file on the shared disk tells the rest.
            filled = [text for *_, text in run.reports("disk_fill")]
            left = sum(p.stat().st_size for p in disk.glob(f"{marker}-fill")) >> 20
    finally:
        _cleanup(marker)
    written = max((int(text.split()[0]) for text in filled), default=0)
    why = filled[0].split()[1] if filled else "no report"
    error = next((line for line in run.stderr.splitlines() if line.startswith("arena: error")), "")
    return Measured(f"arena exit {run.returncode}; games recorded {len(run.records)}/{games}; filler wrote "
                    f"{written} MiB ({why}), {left} MiB of it left on the shared disk" + (f"; {error}" if error else ""),
                    run, {"records": len(run.records), "games": games, "written_mb": written, "left_mb": left})


def dev_shm(marker: str, folder: Path, flags: Sequence[str], mb: int = 200) -> Measured:
    """The bot writes up to ``mb`` MiB into /dev/shm and leaves it there."""
    try:
        run = play_match(hostile_command(marker, GAME, "shm", "-", {"mb": mb}), _plain(marker), folder, flags=flags,
                         games=1, max_moves=4)
        time.sleep(0.2)
        left = sum(p.stat().st_size for p in Path("/dev/shm").glob(f"{marker}*")) >> 20
    finally:
        for path in Path("/dev/shm").glob(f"{marker}*"):
            with contextlib.suppress(OSError):
                path.unlink()
        _cleanup(marker)
    written = max((int(text.split()[0]) for *_, text in run.reports("shm")), default=0)
    return Measured(f"wrote {written} MiB into /dev/shm, {left} MiB left after arena", run,
                    {"written_mb": written, "left_mb": left})


def stopped_threads(marker: str, folder: Path, flags: Sequence[str], threads: int = 700, games: int = 2,
                    cpu_ms: int = 20) -> Measured:
    """A bot with ``threads`` idle threads (stopped and continued every turn) against a bot needing
    ``cpu_ms`` of CPU per move; the same against a one-thread bot. Medians per move of the timed
    bot's own measure (wall time from its first byte of input to its reply) and of arena's charge."""
    timed = hostile_command(marker, GAME, "plain", "-", {"cpu_ms": cpu_ms, "think": True})
    medians: dict[str, tuple[float, float]] = {}
    made = "?"
    try:
        for label, opponent in (("threads", hostile_command(marker, GAME, "threads", "-", {"threads": threads})),
                                ("one", _plain(marker))):
            run = play_match(opponent, timed, folder / label, flags=flags, games=games, max_moves=40)
            own, charged = own_and_charged(run)
            nan = float("nan")
            medians[label] = (statistics.median(own) if own else nan, statistics.median(charged) if charged else nan)
            if label == "threads":
                made = next((text for *_, text in run.reports("threads")), "?")
                threads_run = run
    finally:
        _cleanup(marker)
    (own_t, charged_t), (own_1, charged_1) = medians["threads"], medians["one"]
    return Measured(f"opponent of a {made}-thread bot: own {own_t:.1f} ms, charged {charged_t:.1f} ms per move; "
                    f"of a 1-thread bot: own {own_1:.1f} ms, charged {charged_1:.1f} ms ({cpu_ms} ms of CPU)",
                    threads_run, {"own": own_t, "charged": charged_t, "own_one": own_1, "charged_one": charged_1})


# -- 6. root stays root ---------------------------------------------------------------------------


def root_probe(marker: str, folder: Path, flags: Sequence[str]) -> Measured:
    """In a tournament: the bot reads /etc/shadow, lists /root, writes into a root-owned folder,
    appends a row to games.jsonl and connects to a listener on 127.0.0.1; meanwhile the ids of every
    bot process are read from /proc (as the kernel sees them, outside any namespace)."""
    rootdir = folder / "root-owned"
    rootdir.mkdir(parents=True, exist_ok=True)
    rootdir.chmod(0o755)
    games_file = folder / "logs" / "redteam" / "games.jsonl"
    seen: dict[int, tuple[str | None, dict[str, list[int]]]] = {}

    def watch(proc: subprocess.Popen[bytes], logs: Path) -> None:
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in seen or int(entry) == proc.pid:
                continue
            argv = argv_of(int(entry))
            if argv and argv[0] == BOT_PYTHON and any(marker in word for word in argv):
                ids = ids_of(int(entry))
                if ids is not None:
                    seen[int(entry)] = (argv[5] if len(argv) > 5 else None, ids)

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        options = {"rootdir": str(rootdir), "games": str(games_file), "port": server.getsockname()[1],
                   "sleep_ms": 100}
        agents = {"prober": hostile_command(marker, GAME, "root_probe", "-", options),
                  "honest": _plain(marker, sleep_ms=100)}
        try:
            run = play_tournament(marker, agents, folder, flags=flags, config={"gamesPerPair": 1, "maxMoves": 6},
                                  watch=watch)
        finally:
            _cleanup(marker)
    probes = [json.loads(text) for *_, text in run.reports("root_probe")]
    probe = probes[0] if probes else {}
    forged = games_file.exists() and marker in games_file.read_text(errors="replace")
    written = any(rootdir.iterdir())
    uids = sorted({ids["Uid"][0] for _, ids in seen.values()})
    numbers = {"probe": probe, "forged_row_in_file": forged, "root_owned_written": written, "ids": seen,
               "uids": uids}  # ids: pid -> (the bot's mode, its Uid/Gid/Groups as the kernel sees them)
    shown = ", ".join(f"{key} {str(probe.get(key, '?')).split()[0]}"
                      for key in ("shadow", "root_home", "root_write", "forge", "connect"))
    return Measured(f"bot uids {uids}; {shown}", run, numbers)


# -- verdicts and records -------------------------------------------------------------------------


def stdout_flood(marker: str, folder: Path, flags: Sequence[str], games: int = 2, mb: int = 20) -> Measured:
    """The bot writes ``mb`` MiB without a newline on stdout on its first turn."""
    try:
        run = play_match(hostile_command(marker, GAME, "flood_stdout", "-", {"mb": mb, "hold": 30}), _plain(marker),
                         folder, flags=flags, games=games, max_moves=6)
    finally:
        _cleanup(marker)
    verdicts = sorted({r["termination"] for r in run.records if (loser(r) and mode_of(loser(r) or {}) == "flood_stdout")})
    return Measured(f"flooder lost by {', '.join(verdicts) or 'nothing'}", run,
                    {"output_limit": count_losses(run.records, "flood_stdout", ("output_limit",)), "games": games})


def cpu_time(marker: str, folder: Path, flags: Sequence[str], cpu_ms: int = 50, max_moves: int = 10) -> Measured:
    """A bot needing ``cpu_ms`` of CPU per move against one that answers at once: each side's CPU
    time as the records give it."""
    worker = hostile_command(marker, GAME, "plain", "-", {"cpu_ms": cpu_ms})
    try:
        run = play_match(worker, _plain(marker), folder, flags=flags, games=1, max_moves=max_moves)
    finally:
        _cleanup(marker)
    record = run.records[0] if run.records else {}
    sides = {("worker" if "cpu_ms" in options_of(p) else "idle"): cpu_ms_of(record, p["colour"])
             for p in record.get("players", [])}
    return Measured(f"cpuMs worker {sides.get('worker')}, idle {sides.get('idle')} "
                    f"(worker needs {cpu_ms * (max_moves // 2)} ms)", run,
                    {**sides, "needed": cpu_ms * (max_moves // 2)})
