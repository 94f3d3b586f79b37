"""A real two-node Ray cluster on loopback, driven through ``arena run --backend ray`` (issue 12).

Run by tests/ray/test_ray_cluster.py as the child of PID 1 in fresh network, PID and mount
namespaces (``unshare -n -p -f --mount-proc``): 127.0.0.1 is the only address, /proc shows only
this scenario's processes, and every process it starts dies with the namespace. It never runs
``ray stop`` and kills only PIDs it found in its own namespace.

Phases (each a separate ``arena run``): a bot missing on the workers (refused before any game), an
unreachable address and a game too large for any node (one line, exit 1), a round robin during
which every process of the worker node is SIGKILLed (every game recorded once), one during which a
single Ray worker process is SIGKILLed mid-game, Ctrl-C on the driver then a resume with the local
backend, ``kill -9`` of the driver then a resume. What the scenario's arena processes left (scratch
roots and game folders in the workers' temporary folder, which is the scenario's own; run cgroups
named after processes of its PID namespace) is counted after the kill and at the end. Prints one
JSON object on stdout.

Usage: cluster_scenario.py WORKDIR
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PORT = 6379
ADDRESS = f"127.0.0.1:{PORT}"
HANG_S = 180.0  # backstop for anything that should take seconds
BOT_MARK = "connect4_"  # in the command line of every bot process of this scenario


def procs() -> dict[int, tuple[int, str, str]]:
    """pid -> (ppid, state, command line) of every live process in this namespace."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] in ("Z", "X"):
            continue
        out[int(entry)] = (int(fields[1]), fields[0], cmd)
    return out


def descendants(root: int, table: dict[int, tuple[int, str, str]]) -> set[int]:
    found, frontier = set(), {root}
    while frontier:
        children = {pid for pid, (ppid, _, _) in table.items() if ppid in frontier and pid not in found}
        found |= children
        frontier = children
    return found


def bots() -> set[int]:
    return {pid for pid, (_, _, cmd) in procs().items() if BOT_MARK in cmd and "python" in cmd}


def describe(pids: set[int]) -> list[str]:
    """What a left-over bot is, for a failure's message: pid, state, command, and its parents'."""
    table = procs()
    out = []
    for pid in sorted(pids):
        chain, parent = [], table.get(pid, (0, "?", ""))[0]
        while parent in table and len(chain) < 4:
            chain.append(f"{parent} {table[parent][2][:60]}")
            parent = table[parent][0]
        entry = table.get(pid, (0, "?", "(gone)"))
        out.append(f"{pid} [{entry[1]}] {entry[2][:80]} <- " + " <- ".join(chain))
    return out


def wait_until(predicate: Any, timeout: float = HANG_S, pause: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(pause)
    return bool(predicate())


def bots_seen_once(ready: Any, driver: subprocess.Popen[str]) -> bool:
    """Wait until `ready()` holds while bots are up (or the driver ended); whether bots were seen then."""
    seen: set[int] = set()

    def look() -> bool:
        nonlocal seen
        if driver.poll() is not None:
            return True
        seen = bots() if ready() else set()
        return bool(seen)

    wait_until(look)
    return bool(seen)


def rows(logs: Path, tid: str) -> list[dict[str, Any]]:
    path = logs / tid / "games.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def counts(logs: Path, tid: str, scheduled: int) -> dict[str, Any]:
    got = rows(logs, tid)
    indices = [r["index"] for r in got]
    records = sorted(p.name for p in (logs / tid / "games").glob("*.json"))
    return {"scheduled": scheduled, "recorded": len(set(indices)), "lines": len(indices),
            "retried": sum(r.get("retried", 0) for r in got), "doubled": len(indices) - len(set(indices)),
            "lost": len(set(range(scheduled)) - set(indices)), "record_files": len(records),
            "nodes": sorted({r["node"]["id"] for r in got if "node" in r})}


def terminations(logs: Path, tid: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in (logs / tid / "games").glob("*.json"):
        kind = json.loads(path.read_text())["termination"]
        found[kind] = found.get(kind, 0) + 1
    return found


def leftovers() -> dict[str, list[str]]:
    """What this scenario's arena processes left: folders in the workers' temporary folder (scratch
    roots, which hold the game folders; game folders of older arena), and run cgroup folders named
    after processes of this PID namespace (the cgroup trees are the machine's, shared)."""
    namespace = str(os.stat("/proc/self/ns/pid").st_ino)
    cgroup_folders = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        if right.split()[:1] not in (["cgroup"], ["cgroup2"]):
            continue
        for folder, dirs, _ in os.walk(left.split()[4]):
            cgroup_folders += [os.path.join(folder, d) for d in dirs
                               if d.startswith("arena-") and d.endswith(f"-{namespace}")]
            dirs[:] = [d for d in dirs if not d.startswith("arena-")] if folder.count("/") < 8 else []
    names = os.listdir(tempfile.gettempdir())
    return {"temp": sorted(n for n in names if n.startswith(("arena-sandbox-", "arena-ray-game-"))),
            "cgroups": sorted(cgroup_folders)}


def arena(args: list[str], **kw: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.update(kw.pop("env", {}))
    return subprocess.Popen([sys.executable, "-m", "arena", "run", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kw)


def finish(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=HANG_S)
    return {"code": proc.returncode, "stdout": out[-4000:], "stderr": err[-4000:]}


def config(work: Path, tid: str, games_per_pair: int, agents: list[tuple[str, str]], **extra: Any) -> Path:
    path = work / "cfg" / f"{tid}.json"
    path.write_text(json.dumps({
        "id": tid, "game": "connect4", "tournamentType": "roundRobin", "gamesPerPair": games_per_pair,
        "timeLimit": 20000, "seed": 7, "rayCpusPerGame": 1,
        "agents": [{"type": "executable", "id": aid, "path": cmd} for aid, cmd in agents], **extra}))
    return path


AGENTS = [("random", "python3 bots/connect4_random.py"), ("greedy", "python3 bots/connect4_greedy.py"),
          ("slow1", "python3 bots/connect4_slow.py 0.02"), ("slow2", "python3 bots/connect4_slow.py 0.04")]

# A bot that thinks a little (so that games are in flight when a node dies): a legal random column
# after DELAY seconds.
SLOW_BOT = """\
import json, random, sys, time
delay = float(sys.argv[1])
for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") != "game_state":
        continue
    top = message["payload"]["board"][0]
    time.sleep(delay)
    print(json.dumps({"type": "turn", "payload": random.choice([c for c in range(7) if top[c] == "."])}), flush=True)
"""


def main() -> None:
    work = Path(sys.argv[1])
    (work / "cfg" / "bots").mkdir(parents=True)
    for name in ("connect4_random.py", "connect4_greedy.py"):
        shutil.copy(REPO / "bots" / name, work / "cfg" / "bots" / name)
    (work / "cfg" / "bots" / "connect4_slow.py").write_text(SLOW_BOT)
    # A program only the driver can find: the nodes' PATH lacks its folder.
    (work / "driver-bin").mkdir()
    only_here = work / "driver-bin" / "c4bot"
    only_here.write_text(f"#!/bin/sh\nexec python3 {work / 'cfg' / 'bots' / 'connect4_random.py'}\n")
    only_here.chmod(0o755)
    logs = work / "logs"
    report: dict[str, Any] = {}
    # The workers' temporary folder (their scratch roots and game folders) is the scenario's own,
    # so that what is left there can be counted exactly: /tmp is shared with whatever else runs.
    (work / "t").mkdir()
    os.environ["TMPDIR"] = str(work / "t")
    tempfile.tempdir = None
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # Loopback in a private network namespace: no token authentication, and nothing of Ray's
    # (tokens, ~/.ray) written to the real home folder.
    os.environ["RAY_AUTH_MODE"] = "disabled"
    os.environ["HOME"] = str(work / "home")
    (work / "home").mkdir()
    temp = Path(os.environ.get("ARENA_RAY_TEMP", "/tmp")) / f"ar{os.getpid()}-{os.urandom(3).hex()}"
    report["temp"] = str(temp)
    ray = str(BIN / "ray")
    started = time.monotonic()
    head = subprocess.run([ray, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={PORT}",
                           "--include-dashboard=false", "--num-cpus=2", f"--temp-dir={temp}",
                           "--disable-usage-stats"], check=False, capture_output=True, text=True, timeout=HANG_S)
    before = set(procs())
    worker = subprocess.run([ray, "start", f"--address={ADDRESS}", "--node-ip-address=127.0.0.1",
                             "--num-cpus=2"], check=False, capture_output=True, text=True, timeout=HANG_S)
    worker_daemons = set(procs()) - before
    report["cluster"] = {"head": head.returncode, "worker": worker.returncode,
                         "start_s": round(time.monotonic() - started, 1),
                         "head_err": head.stderr[-800:], "worker_err": worker.stderr[-800:]}
    if head.returncode or worker.returncode:
        print(json.dumps(report))
        shutil.rmtree(temp, ignore_errors=True)
        return
    try:
        phases(work, logs, report, worker_daemons)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    report["total_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(report))
    sys.stdout.flush()


def phases(work: Path, logs: Path, report: dict[str, Any], worker_daemons: set[int]) -> None:
    common = ["--backend", "ray", "--ray-address", ADDRESS, "--logs", str(logs)]

    # 1. A bot missing on the workers: refused before the first game.
    path = config(work, "missing", 1, [("here", "c4bot"), ("random", AGENTS[0][1])])
    env = {"PATH": f"{work / 'driver-bin'}:{os.environ['PATH']}"}
    report["missing"] = {**finish(arena([str(path), *common], env=env)),
                         "rows": len(rows(logs, "missing"))}

    # 2. The cluster's own failures: one line, exit 1.
    path = config(work, "unreachable", 1, AGENTS[:2])
    report["unreachable"] = finish(arena([str(path), "--backend", "ray", "--ray-address", "127.0.0.1:9",
                                          "--logs", str(logs)]))
    report["too_big"] = finish(arena([str(path), *common, "--ray-cpus-per-game", "64"]))

    # 3. The worker node dies mid-run: every game recorded once.
    path = config(work, "killnode", 4, AGENTS)
    driver = arena([str(path), *common, "--json"])
    wait_until(lambda: len(rows(logs, "killnode")) >= 6 or driver.poll() is not None)
    table = procs()
    raylets = [pid for pid in worker_daemons if "raylet" in table.get(pid, (0, "", ""))[2].split(" ")[0]]
    victims: set[int] = set(worker_daemons)
    for raylet in raylets:
        victims |= descendants(raylet, table)
    orphan_bots = {pid for pid in victims if BOT_MARK in table.get(pid, (0, "", ""))[2]}
    # The bots are left alive on purpose: they must die with their Ray worker (pdeathsig, guardian).
    victims = {pid for pid in victims - orphan_bots if pid in table and "arena.process.guardian" not in table[pid][2]}
    in_flight_before = len(rows(logs, "killnode"))
    for pid in sorted(victims):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    killed_at = time.monotonic()
    bots_gone = wait_until(lambda: not (orphan_bots & bots()), timeout=30)
    result = finish(driver)
    report["killnode"] = {**result, **counts(logs, "killnode", 24), "killed_pids": len(victims),
                          "terminations": terminations(logs, "killnode"),
                          "raylets": len(raylets), "rows_at_kill": in_flight_before,
                          "bots_of_killed_workers": len(orphan_bots), "those_bots_gone": bots_gone,
                          "after_kill_s": round(time.monotonic() - killed_at, 1)}
    try:
        report["killnode"]["summary_nodes"] = json.loads(result["stdout"]).get("nodes")
    except ValueError:
        pass

    # 3b. One Ray worker process (not its node) is killed mid-game: its bots die with it, the game
    # is played again, every game recorded once.
    path = config(work, "killworker", 2, AGENTS)
    driver = arena([str(path), *common])
    victim, its_bots = None, set()
    end = time.monotonic() + HANG_S
    while victim is None and driver.poll() is None and time.monotonic() < end:
        table = procs()
        for pid, (_, _, cmd) in table.items():
            children = {c for c in descendants(pid, table) if BOT_MARK in table[c][2]}
            if cmd.startswith("ray::game_task") and len(children) >= 2:
                victim, its_bots = pid, children
                break
        time.sleep(0.05)
    if victim is not None:
        os.kill(victim, signal.SIGKILL)
    bots_gone = wait_until(lambda: not (its_bots & bots()), timeout=30)
    result = finish(driver)
    report["killworker"] = {"code": result["code"], "stderr": result["stderr"][-1500:], "killed": victim is not None,
                            "its_bots": len(its_bots), "those_bots_gone": bots_gone,
                            "terminations": terminations(logs, "killworker"), **counts(logs, "killworker", 12)}

    # 4. Ctrl-C on the driver: exit 130, no bot left anywhere; a resume completes exactly once, and
    # with the local backend (the backend is how to run, not part of the tournament).
    path = config(work, "sigint", 2, AGENTS)
    driver = arena([str(path), *common])
    # Games in flight, bots up (not merely two rows: between games there may be no bot at all).
    # The bots seen are those the predicate saw: a second look could fall between two games.
    playing = bots_seen_once(lambda: len(rows(logs, "sigint")) >= 2, driver)
    driver.send_signal(signal.SIGINT)
    interrupted = finish(driver)
    no_bots = wait_until(lambda: not bots(), timeout=30)
    after = len(rows(logs, "sigint"))
    played_on_ray = terminations(logs, "sigint")
    resumed = finish(arena([str(path), "--logs", str(logs)]))
    report["sigint"] = {"code": interrupted["code"], "stderr": interrupted["stderr"][-1500:],
                        "bots_while_playing": playing, "no_bots_after": no_bots, "rows_at_interrupt": after,
                        "terminations_on_ray": played_on_ray,
                        "bots_left": describe(bots()),
                        "resume_code": resumed["code"], "resume_stderr": resumed["stderr"][-800:],
                        **counts(logs, "sigint", 12)}

    # 5. kill -9 of the driver: its games die with it on the cluster; a resume completes exactly once.
    path = config(work, "kill9", 2, AGENTS)
    driver = arena([str(path), *common])
    playing = bots_seen_once(lambda: len(rows(logs, "kill9")) >= 3, driver)
    # The joined cluster's daemons (raylets and GCS still up), which the driver's death must spare.
    daemons = {pid: cmd for pid, (_, _, cmd) in procs().items() if "/raylet " in cmd or "/gcs_server " in cmd}
    driver.kill()
    driver.communicate(timeout=HANG_S)
    at_kill = len(rows(logs, "kill9"))
    no_bots = wait_until(lambda: not bots(), timeout=60)
    daemons_spared = sorted(pid for pid in daemons if pid in procs())
    # The dead driver's workers are gone, and their guardians removed their cgroups and folders.
    clean_after_kill = wait_until(lambda: not any(leftovers().values()), timeout=30)
    left_after_kill = leftovers()
    resumed = finish(arena([str(path), *common]))
    # After the last run, whose idle workers Ray ends once the driver is gone: nothing left either
    # (folders of every worker killed in the phases above included).
    wait_until(lambda: not any(leftovers().values()), timeout=30)
    report["left"] = leftovers()
    report["kill9"] = {"rows_at_kill": at_kill, "bots_while_playing": playing, "no_bots_after": no_bots,
                       "daemons": len(daemons), "daemons_spared": len(daemons_spared),
                       "temp_kept": Path(report["temp"]).is_dir(),
                       "bots_left": describe(bots()), "clean_after_kill": clean_after_kill,
                       "left_after_kill": left_after_kill, "resume_code": resumed["code"],
                       "resume_stderr": resumed["stderr"][-800:], "terminations": terminations(logs, "kill9"),
                       **counts(logs, "kill9", 12)}


if __name__ == "__main__":
    main()
