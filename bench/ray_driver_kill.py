"""The Ray driver killed mid-run (issue 18): does anything of its games outlive it?

    .venv/bin/python bench/ray_driver_kill.py [--trials 10] [--wait 10] [--no-sandbox] [--json]

Each trial runs in fresh network, PID and mount namespaces (``unshare -n -p -f --mount-proc``, so
/proc shows only the trial's processes and 127.0.0.1 is the only address) and reuses the machinery
of tests/ray/cluster_scenario.py: a two-node Ray cluster on loopback (``ray start`` of a head and a
worker node, 2 CPUs each), then ``arena run --backend ray`` of a round robin whose four bots each
start a child and a double-forked grandchild that calls ``setsid`` (refused under the sandbox's
seccomp filter, so it then stays in the bot's session) and execs with an empty environment. Once
games are in flight with every kind of process alive, three runs per trial each lose something:

- ``sigint``: Ctrl-C on the driver (arena cancels its Ray tasks with ``force=True``);
- ``kill9``: SIGKILL of the driver (Ray ends the dead driver's job and its workers on its own);
- ``worker``: SIGKILL of one Ray worker playing a game *and of its guardian* (the driver lives
  and plays the game again): nothing is left to clean up after that worker but later arenas.

``--wait`` seconds later (default 10; the folders also half a second after the kill) it counts,
inside the trial's namespace:

- survivors: processes of the bots (bot, child, grandchild) still alive;
- leftover folders: Ray's game folders (``ray-game-*`` in a worker's scratch root; older arena made
  them as ``arena-ray-game-*``) and arena's scratch roots (``arena-sandbox-*``) in the workers'
  temporary folder (private to the trial: ``TMPDIR`` of the cluster), and run cgroup folders of this trial's arena processes (``arena-*-<the trial's PID
  namespace>``, found under every cgroup mount of /proc/self/mountinfo: the cgroup trees are the
  machine's, shared with other namespaces, and only folders named after this trial's processes
  are counted).

Then the run is resumed on the cluster (``worker``: the run goes on), each game must end up
recorded once, and the folders are counted again (once that run's own idle workers are gone too,
``--wait`` seconds at most): what a killed worker left must be gone after the next run. Prints a line per trial and the totals (or JSON with ``--json``); exit
status 1 when anything survived, when the driver's death left a folder even for a moment past
``--wait``, or when anything was left after the next run.
"""

from __future__ import annotations

import argparse
import contextlib
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "ray"))
import cluster_scenario as scenario  # noqa: E402  (the scenario's helpers: procs, rows, arena, ...)

BIN = Path(sys.executable).parent
PORT = 6379
ADDRESS = f"127.0.0.1:{PORT}"
TAGS = ("connect4_spawner", "connect4_child", "connect4_grandchild")

# Plays legal random columns after DELAY seconds a move; first starts a child and a grandchild
# that leaves its session and environment (both sleep for ever). Their argv carry the scenario's
# bot mark ("connect4_") so scenario.bots() finds all three kinds.
SPAWNER_BOT = """\
import json, os, random, subprocess, sys, time
delay = float(sys.argv[1])
sleeper = "import time\\nwhile True: time.sleep(1)"
subprocess.Popen([sys.executable, "-c", sleeper, "connect4_child"], stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    try:
        os.setsid()
    except OSError:
        pass
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execve(sys.executable, [sys.executable, "-c", sleeper, "connect4_grandchild"], {})
    os._exit(0)
os.wait()
for line in sys.stdin:
    message = json.loads(line)
    if message.get("type") != "game_state":
        continue
    top = message["payload"]["board"][0]
    time.sleep(delay)
    print(json.dumps({"type": "turn", "payload": random.choice([c for c in range(7) if top[c] == "."])}), flush=True)
"""


def in_namespace(argv: list[str], timeout: float) -> dict[str, Any]:
    """One trial (this script with ``--inside``) as the child of PID 1 (bash, which reaps orphans)
    in fresh namespaces; its JSON report."""
    script = f"ip link set lo up && {sys.executable} {Path(__file__).resolve()} --inside {' '.join(argv)}; true"
    done = subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", script], capture_output=True,
                          text=True, timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"error": f"trial failed ({done.returncode}): {done.stderr[-2000:]}"}
    report: dict[str, Any] = json.loads(lines[-1])
    return report


# -- inside a trial's namespaces -------------------------------------------------------------------


def pid_namespace() -> str:
    return str(os.stat("/proc/self/ns/pid").st_ino)


def cgroup_folders(namespace: str, depth: int = 4) -> list[str]:
    """Run cgroup folders (``arena-<pid>-<start>-<namespace>``) of this PID namespace's arena
    processes, under every cgroup mount point of /proc/self/mountinfo."""
    mounts = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        if right.split()[:1] in (["cgroup"], ["cgroup2"]):
            mounts.append(left.split()[4])
    found = []
    for mount in mounts:
        base = len(Path(mount).parts)
        for folder, dirs, _ in os.walk(mount):
            if len(Path(folder).parts) - base >= depth:
                dirs[:] = []
            for name in dirs:
                if name.startswith("arena-") and name.endswith(f"-{namespace}"):
                    found.append(os.path.join(folder, name))
            dirs[:] = [d for d in dirs if not d.startswith("arena-")]
    return sorted(found)


def folders(temp: Path, namespace: str) -> dict[str, list[str]]:
    """What is left in the workers' temporary folder and the cgroup trees: Ray game folders (in a
    scratch root; at the top, as older arena made them), scratch roots, run cgroup folders."""
    names = sorted(os.listdir(temp))
    roots = [n for n in names if n.startswith("arena-sandbox-")]
    games = [n for n in names if n.startswith("arena-ray-game-")]
    for root in roots:
        with contextlib.suppress(OSError):
            games += [f"{root}/{n}" for n in sorted(os.listdir(temp / root)) if n.startswith("ray-game-")]
    return {"game_folders": games, "scratch_folders": roots, "cgroup_folders": cgroup_folders(namespace)}


def owners(left: dict[str, list[str]]) -> dict[str, str]:
    """For each left folder, the process its name names (pid -> state and command), if it lives."""
    table = scenario.procs()
    found = {}
    for path in (p for paths in left.values() for p in paths):
        name = Path(path.split("/")[0] if not path.startswith("/") else path).name
        pid = name.split("-")[2] if name.startswith("arena-sandbox-") else name.split("-")[1]
        entry = table.get(int(pid)) if pid.isdigit() else None
        below = scenario.descendants(int(pid), table) if entry else set()
        found[name] = "gone" if entry is None else \
            f"{entry[1]} {entry[2][:60]}; children: {[table[c][2][:40] for c in below if table[c][0] == int(pid)]}"
    return found


def terminations(logs: Path, tid: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in (logs / tid / "games").glob("*.json"):
        kind = json.loads(path.read_text())["termination"]
        found[kind] = found.get(kind, 0) + 1
    return found


def by_tag(pids: set[int]) -> dict[str, int]:
    table = scenario.procs()
    return {tag: sum(1 for pid in pids if tag in table.get(pid, (0, "", ""))[2]) for tag in TAGS}


def guardians() -> int:
    return sum(1 for _, _, cmd in scenario.procs().values() if "arena.process.guardian" in cmd)


def game_worker() -> tuple[int, int | None] | None:
    """A Ray worker playing a game whose bots are all up (bot, child, grandchild), and its
    guardian (None if it has none)."""
    table = scenario.procs()
    for pid, (_, _, cmd) in table.items():
        if not cmd.startswith("ray::game_task"):
            continue
        below = scenario.descendants(pid, table)
        if all(by_tag(below).values()):
            guardian = next((c for c in below if "arena.process.guardian" in table[c][2] and table[c][0] == pid), None)
            return pid, guardian
    return None


def lose_something(how: str, work: Path, logs: Path, common: list[str], wait: float) -> dict[str, Any]:
    """One run of 12 games, ``how`` hit once games are in flight; counts ``wait`` s later and after
    the next run."""
    tid = how
    path = scenario.config(work, tid, 2, [(f"s{i}", "python3 bots/connect4_spawner.py 0.05") for i in range(4)])
    driver = scenario.arena([str(path), *common])
    ready = scenario.wait_until(lambda: driver.poll() is not None or (
        len(scenario.rows(logs, tid)) >= 1 and game_worker() is not None), timeout=120)
    at_kill = by_tag(scenario.bots())
    guards_before = guardians()
    err = ""
    watched: set[int] | None = None  # None: every bot process of the namespace
    if how == "worker":
        found = game_worker()
        victims = [pid for pid in (found or (0, None)) if pid]
        if victims:
            # Only that worker's bots: the other games go on.
            watched = {pid for pid in scenario.descendants(victims[0], scenario.procs()) if pid in scenario.bots()}
            at_kill = by_tag(watched)
        for pid in reversed(victims):  # the guardian first: it must not clean up after the worker
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        killed = len(victims)
    else:
        driver.send_signal(signal.SIGINT if how == "sigint" else signal.SIGKILL)
        _, err = driver.communicate(timeout=120)
        killed = 1
    stopped = time.monotonic()
    time.sleep(0.5)
    just_after = {k: len(v) for k, v in folders(Path(tempfile.gettempdir()), pid_namespace()).items()}
    time.sleep(max(0.0, wait - 0.5))
    left = scenario.bots() if watched is None else scenario.bots() & watched
    now = folders(Path(tempfile.gettempdir()), pid_namespace())
    report: dict[str, Any] = {
        "ready": ready, "killed": killed, "code": driver.returncode, "rows_at_kill": len(scenario.rows(logs, tid)),
        "bots_at_kill": at_kill, "guardians_at_kill": guards_before, "survivors": len(left),
        "survivors_by_kind": by_tag(left), "survivors_described": scenario.describe(left),
        "guardians_after": guardians(), "after_s": round(time.monotonic() - stopped, 1), "just_after": just_after,
        **{k: len(v) for k, v in now.items()}, "folders_after": now, "owners": owners(now),
        "stderr": err[-600:] if driver.returncode not in (None, 130, -9) else "",
    }
    # The next run on the cluster (for "worker": the rest of the same run): every game recorded
    # once, and what the killed workers left swept by the next workers.
    resumed = scenario.finish(driver if how == "worker" else scenario.arena([str(path), *common]))
    counts = scenario.counts(logs, tid, 12)
    # That run's own workers live on for a moment after its driver is done (Ray ends them): they
    # and their guardians get ``wait`` seconds too.
    scenario.wait_until(lambda: not any(folders(Path(tempfile.gettempdir()), pid_namespace()).values()),
                        timeout=wait)
    after = folders(Path(tempfile.gettempdir()), pid_namespace())
    report["resume"] = {"code": resumed["code"], "recorded": counts["recorded"], "doubled": counts["doubled"],
                        "lost": counts["lost"], "retried": counts["retried"], "survivors": len(scenario.bots()),
                        "terminations": terminations(logs, tid), **{k: len(v) for k, v in after.items()},
                        "folders": after, "owners": owners(after),
                        "stderr": resumed["stderr"][-600:] if resumed["code"] else ""}
    return report


def trial(work: Path, wait: float, sandbox: bool) -> dict[str, Any]:
    (work / "cfg" / "bots").mkdir(parents=True)
    (work / "cfg" / "bots" / "connect4_spawner.py").write_text(SPAWNER_BOT)
    (work / "home").mkdir()
    temp = work / "t"  # the cluster's TMPDIR: the workers' game and scratch folders land here
    temp.mkdir()
    for folder in (work, temp):
        folder.chmod(0o755)
    os.environ.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled", HOME=str(work / "home"),
                      TMPDIR=str(temp))
    tempfile.tempdir = None
    ray = str(BIN / "ray")
    session = work / "r"
    head = subprocess.run([ray, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={PORT}",
                           "--include-dashboard=false", "--num-cpus=2", f"--temp-dir={session}",
                           "--disable-usage-stats"], check=False, capture_output=True, text=True, timeout=300)
    node = subprocess.run([ray, "start", f"--address={ADDRESS}", "--node-ip-address=127.0.0.1", "--num-cpus=2"],
                          check=False, capture_output=True, text=True, timeout=300)
    if head.returncode or node.returncode:
        return {"error": f"cluster: {head.stderr[-800:]} {node.stderr[-800:]}"}
    logs = work / "logs"
    common = ["--backend", "ray", "--ray-address", ADDRESS, "--logs", str(logs),
              *([] if sandbox else ["--no-sandbox"])]
    return {how: lose_something(how, work, logs, common, wait) for how in HOWS}


# -- outside ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--wait", type=float, default=10.0, help="seconds between the kill and the count")
    parser.add_argument("--no-sandbox", action="store_true", help="run the bots with --no-sandbox")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inside", nargs=3, metavar=("WORK", "WAIT", "SANDBOX"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        work, wait, sandbox = Path(args.inside[0]), float(args.inside[1]), args.inside[2] == "1"
        print(json.dumps(trial(work, wait, sandbox)), flush=True)
        return
    results = []
    for number in range(args.trials):
        work = Path(tempfile.mkdtemp(prefix="ardk-", dir="/tmp"))  # short: Ray's socket paths are bounded
        try:
            began = time.monotonic()
            report = in_namespace([str(work), str(args.wait), "0" if args.no_sandbox else "1"], timeout=900)
            report["trial"], report["s"] = number + 1, round(time.monotonic() - began, 1)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        results.append(report)
        if not args.json:
            print(line(report), flush=True)
    failed = summarize(results, args)
    sys.exit(1 if failed else 0)


KEYS = ("survivors", "game_folders", "scratch_folders", "cgroup_folders")
HOWS = ("sigint", "kill9", "worker")


def line(report: dict[str, Any]) -> str:
    if "error" in report:
        return f"trial {report['trial']}: ERROR {report['error']}"
    parts = []
    for how in HOWS:
        r = report[how]
        at = "/".join(str(r["bots_at_kill"][t]) for t in TAGS)
        after = " ".join(f"{r[k]}" for k in KEYS)
        resumed = " ".join(f"{r['resume'][k]}" for k in KEYS)
        right = " ".join(f"{r['just_after'][k]}" for k in KEYS[1:])
        parts.append(f"{how}: at kill {at}; +0.5s [{right}]; +{r['after_s']:g}s [{after}]; next run [{resumed}] "
                     f"{r['resume']['recorded']}/12 once")
    return f"trial {report['trial']} ({report['s']:g} s): " + " | ".join(parts)


def summarize(results: list[dict[str, Any]], args: argparse.Namespace) -> bool:
    good = [r for r in results if "error" not in r]
    totals = {how: {key: sum(r[how][key] for r in good) for key in KEYS} for how in HOWS}
    resumed = {how: {key: sum(r[how]["resume"][key] for r in good) for key in KEYS} for how in HOWS}
    records_ok = all(r[how]["resume"]["recorded"] == 12 and r[how]["resume"]["doubled"] == 0
                     for r in good for how in HOWS)
    played = {how: sum(n for r in good for t, n in r[how]["resume"]["terminations"].items() if t != "crash")
              for how in HOWS}
    crashed = {how: sum(r[how]["resume"]["terminations"].get("crash", 0) for r in good) for how in HOWS}
    hit = {how: sum(1 for r in good if r[how]["ready"] and r[how]["killed"]) for how in HOWS}
    # The driver stopped: nothing may survive, no folder may be left even before a next run. A worker
    # and its guardian SIGKILLed: nothing may survive; what they left must be gone after the run.
    failed = len(good) < len(results) or any(totals[h]["survivors"] for h in HOWS) or \
        any(totals[h][k] for h in ("sigint", "kill9") for k in KEYS) or \
        any(v for h in HOWS for v in resumed[h].values()) or not records_ok
    summary = {"trials": len(results), "errors": len(results) - len(good), "sandbox": not args.no_sandbox,
               "wait_s": args.wait, "hit_mid_game": hit, "after_kill": totals, "after_next_run": resumed,
               "each_game_recorded_once": records_ok, "games_played": played, "games_crashed": crashed}
    if args.json:
        print(json.dumps({"summary": summary, "trials": results}))
    else:
        print(f"\n{len(good)} of {len(results)} trials ran (sandbox {'on' if not args.no_sandbox else 'off'}); "
              f"[{' '.join(KEYS)}] summed over the trials:")
        for how in HOWS:
            print(f"  {how}: hit mid-game {hit[how]}x; {args.wait:g} s later {list(totals[how].values())}; "
                  f"after the next run {list(resumed[how].values())}; games played to the end {played[how]}, "
                  f"crashed {crashed[how]}")
        print(f"  every game recorded exactly once: {records_ok}")
    return failed


if __name__ == "__main__":
    main()
