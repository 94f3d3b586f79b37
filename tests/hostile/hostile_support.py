"""Hostile bots for the isolation tests: each plays legal moves (arena's own rules, first legal
move) and misbehaves in one way. They are real processes started by arena like any user's bot.

argv: marker, game, mode, workdir (a folder the test and the bot share for reports; never inside
arena's logs). A bot reports what it saw by writing files in ``workdir``; with ``-`` (a sandboxed
bot cannot write outside its scratch folder) it writes ``REPORT <name> <text>`` lines on stderr.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

HOSTILE_SOURCE = r'''
import json, os, signal, subprocess, sys, time
marker, game_name, mode, workdir = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
from arena.games import get_game
game = get_game(game_name)
out = sys.stdout.buffer
inp = sys.stdin.buffer

def report(name, text):
    if workdir == "-":
        sys.stderr.write(f"REPORT {name} {text}\n")
        sys.stderr.flush()
        return
    path = os.path.join(workdir, name)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)

scratch = workdir if workdir != "-" else os.environ.get("TMPDIR", "/tmp")

def busy_forever(tag, leave_session=False):
    # A child that burns CPU (after leaving the bot's session, if asked and allowed); its argv
    # carries the marker so the test can find it.
    if not leave_session:
        return subprocess.Popen([sys.executable, "-c", "while True: pass", marker + "-" + tag])
    # It says when it has tried to leave: we go on only then, else a stop of our group could
    # catch it still inside.
    code = ("import os, sys\ntry:\n    os.setsid()\nexcept OSError:\n    pass\n"
            "os.write(int(sys.argv[2]), b'x')\nos.close(int(sys.argv[2]))\nwhile True: pass\n")
    r, w = os.pipe()
    child = subprocess.Popen([sys.executable, "-c", code, marker + "-" + tag, str(w)], pass_fds=(w,))
    os.close(w)
    os.read(r, 1)
    os.close(r)
    return child

def sabotage():
    """Write a fake move into every pipe of arena except our own stdin/stdout."""
    arena = os.getppid()
    own = {os.readlink("/proc/self/fd/0"), os.readlink("/proc/self/fd/1")}
    done, errors = 0, []
    try:
        names = os.listdir(f"/proc/{arena}/fd")
    except OSError as exc:
        report("sabotage.txt", f"denied listing /proc/{arena}/fd: {exc}")
        return
    fake = b'{"type": "turn", "payload": "fake"}\n' if game_name == "shobu" else b"fake move\n"
    for name in names:
        try:
            target = os.readlink(f"/proc/{arena}/fd/{name}")
        except OSError as exc:
            errors.append(str(exc))
            continue
        if not target.startswith("pipe:") or target in own:
            continue
        try:
            fd = os.open(f"/proc/{arena}/fd/{name}", os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, fake)
            os.close(fd)
            done += 1
        except OSError as exc:
            errors.append(str(exc))
    report("sabotage.txt", f"wrote into {done} pipes; errors: {errors}")

def spawn_escapee(tag, wait=True):
    """A grandchild that leaves the bot's session (if it may) and ignores TERM, HUP and end of
    input; with ``wait``, the bot goes on only once it has tried, and reports ``left`` or
    ``refused`` (a sandbox refuses setsid)."""
    ready = os.path.join(scratch, f"escapee-ready-{tag}-{os.getpid()}")
    code = ("import os, signal, sys, time\n"
            "for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT): signal.signal(s, signal.SIG_IGN)\n"
            "try:\n"
            "    os.setsid(); outcome = 'left'\n"
            "except OSError:\n"
            "    outcome = 'refused'\n"
            "with open(sys.argv[2] + '.tmp', 'w') as f: f.write(outcome)\n"
            "os.replace(sys.argv[2] + '.tmp', sys.argv[2])\n"
            "time.sleep(600)\n")
    subprocess.Popen([sys.executable, "-c", code, marker + "-" + tag, ready], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while wait and not os.path.exists(ready) and time.monotonic() < deadline:
        time.sleep(0.005)
    if wait:
        report(f"escapee-{tag}.txt", open(ready).read() if os.path.exists(ready) else "never started")


def stat_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[11]) + int(fields[12])  # state, utime + stime (ticks)

def watch_thief(wait_for_stop):
    """On our turn: are the thief's children stopped, and do they get CPU while we think?"""
    pids_file = os.path.join(workdir, "thief-pids.txt")
    if not os.path.exists(pids_file):
        return
    pids = [int(p) for p in open(pids_file).read().split()]
    deadline = time.monotonic() + 5.0
    # SIGSTOP is delivered asynchronously: give it a moment to land before measuring.
    while wait_for_stop and time.monotonic() < deadline and any(stat_of(p)[0] != "T" for p in pids):
        time.sleep(0.01)
    before = [stat_of(p) for p in pids]
    time.sleep(0.3)
    after = [stat_of(p) for p in pids]
    lines = [f"{p} {b[0]} {a[0]} {a[1] - b[1]}" for p, b, a in zip(pids, before, after)]
    with open(os.path.join(workdir, "watch.txt"), "a") as f:
        f.write("\n".join(lines) + "\n--\n")

def probe():
    """What a sandboxed bot can see and do (paths and port from its env), reported as JSON."""
    import socket
    result = {"pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
              "home": os.environ.get("HOME"), "tmpdir": os.environ.get("TMPDIR")}
    try:
        with socket.create_connection(("127.0.0.1", int(os.environ["PROBE_PORT"])), timeout=2):
            result["connect"] = "connected"
    except OSError as exc:
        result["connect"] = f"failed: {exc}"
    try:
        with open(os.environ["PROBE_OUTSIDE"], "w") as f:
            f.write("escaped")
        result["write_outside"] = "written"
    except OSError as exc:
        result["write_outside"] = f"failed: {exc}"
    try:
        with open(os.path.join(os.environ["TMPDIR"], "mine.txt"), "w") as f:
            f.write("ok")
        result["write_scratch"] = "written"
    except OSError as exc:
        result["write_scratch"] = f"failed: {exc}"
    listed = {}
    for folder in os.environ["PROBE_LOGS"].split(os.pathsep):
        try:
            listed[folder] = sorted(os.listdir(folder))
        except OSError as exc:
            listed[folder] = f"failed: {exc}"
    result["logs"] = listed
    report("probe.json", json.dumps(result))

if mode == "probe":
    probe()
if mode == "ignore_signals":
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, signal.SIG_IGN)
if mode == "env":
    report("env.txt", json.dumps(dict(os.environ)))
    caps = [l.split()[1] for l in open("/proc/self/status") if l.startswith("CapEff:")]
    report("caps.txt", caps[0] if caps else "?")
if mode == "startup_busy":
    report("startup.txt", str(os.getpid()))
colour = None
if game_name == "checkers":
    inp.readline()
    colour = inp.readline().decode().strip().upper()
n = 0
while True:
    if game_name == "shobu":
        line = inp.readline()
        if not line:
            break
        state = game.state_from_json(json.loads(line)["payload"])
    else:
        first = inp.readline()
        if not first:
            break
        board = [inp.readline().decode() for _ in range(8)]
        state = game.state_from_json({"board": board, "turn": colour, "turnNumber": 0})
    if mode == "sabotage" and n == 0:
        sabotage()
    if mode == "scan_environ" and n == 0:
        # Every process whose environment we can read and that holds the secret (arena's helpers).
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/environ", "rb") as f:
                        if b"ARENA_TEST_SECRET=" in f.read():
                            found.append(open(f"/proc/{entry}/cmdline", "rb").read().replace(b"\0", b" ").decode())
                except OSError:
                    pass
        report("environ-scan.txt", "\n".join(found))
    if mode == "escapee" and n == 0:
        spawn_escapee("escapee")
    if mode in ("watch", "watch_now"):
        watch_thief(mode == "watch")
    if mode == "crash_holding_stdout" and n == 1:
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", marker + "-holder"])
        os._exit(5)
    move = game.legal_moves(state)[0]
    wire = game.move_to_wire(move)
    text = json.dumps({"type": "turn", "payload": wire}) if game_name == "shobu" else wire
    if mode in ("thief", "thief_setsid") and n == 0:
        children = [busy_forever("busy", mode == "thief_setsid") for _ in range(2)]
        report("thief-pids.txt", " ".join(str(c.pid) for c in children))
    if mode == "thief_orphan" and n == 0:
        # Busy processes that leave the session and whose parent exits: re-parented to arena.
        r, w = os.pipe()
        middle = os.fork()
        if middle == 0:
            kids = [busy_forever("busy", True) for _ in range(2)]
            os.write(w, " ".join(str(c.pid) for c in kids).encode())
            os._exit(0)
        os.close(w)
        pids = os.read(r, 1000).decode()
        os.waitpid(middle, 0)
        report("thief-pids.txt", pids)
    out.write(text.encode() + b"\n")
    out.flush()
    n += 1
if mode in ("ignore_eof", "ignore_signals", "escapee"):
    if mode == "escapee":
        spawn_escapee("escapee-late", wait=False)
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, signal.SIG_IGN)
    time.sleep(600)
'''


def hostile_argv(marker: str, game: str, mode: str, workdir: Path) -> list[str]:
    """argv of a hostile bot (``marker`` is in its argv and in its children's)."""
    return [sys.executable, "-u", "-c", HOSTILE_SOURCE, marker, game, mode, str(workdir)]


def hostile_command(marker: str, game: str, mode: str, workdir: Path) -> str:
    """The same as a command string for an AgentSpec (split by shlex in arena)."""
    return shlex.join(hostile_argv(marker, game, mode, workdir))


def wait_for_file(path: Path, timeout: float = 10.0) -> str:
    """The text of ``path`` once it exists (hang backstop ``timeout``); AssertionError if it never does."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.01)
    return path.read_text()


def proc_state(pid: int) -> str | None:
    """The one-letter state of ``pid`` from /proc (None if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()[0]


def reap_adopted_zombies() -> None:
    """Reap zombie children of this process that it did not start itself.

    A process that spawned bots in-process is a child subreaper (see :mod:`arena.spawn`), so the
    bots of an arena subprocess that a test killed with SIGKILL are re-parented to the test process
    once they die. Only processes in state Z are touched, and only by their own pid.
    """
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        if fields[0] == "Z" and int(fields[1]) == me:
            try:
                os.waitpid(int(entry), os.WNOHANG)
            except ChildProcessError:
                pass
