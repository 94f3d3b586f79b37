"""A hostile bot: it plays legal moves (arena's own rules, the first legal move) and misbehaves in
one way, chosen by ``mode``. It is a real program, started by arena like any user's bot.

argv: marker, game, mode, workdir[, options]. ``marker`` is in its argv and in the argv of every
process it starts (tests find them by it); each attack aims only at processes that carry the marker
(or this run's token), never at anything else on the machine. ``workdir`` is a folder the test and
the bot share for reports; with ``-`` (a sandboxed or unprivileged bot cannot write outside its
scratch) it writes ``REPORT <name> <text>`` lines on stderr instead. ``options`` is a JSON object
written in hex (a command word with a ``/`` in it would be taken for a file by a tournament config).

Every process an attack leaves behind ends by itself after a bounded time (``hold``, ``seconds``),
so a test that fails cannot leave a CPU burner or a memory hog running for ever.

Standard library only (and ``arena.games``, found from this file's place in the repository), so
that it runs under any Python >= 3.11 any user may execute (see ``hostile_support.BOT_PYTHON``).
"""
import errno
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from hostile_helpers import BOMB, BURN, INJECT, STOP_ARENA  # beside this file (sys.path[0])

from arena.games import get_game  # after the line above: the interpreter may not have arena installed

marker, game_name, mode, workdir = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
opts = json.loads(bytes.fromhex(sys.argv[5])) if len(sys.argv) > 5 else {}
game = get_game(game_name)
out = sys.stdout.buffer
inp = sys.stdin.buffer

def read_text(path, binary=False):
    with open(path, "rb" if binary else "r") as f:
        return f.read()

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
    """Write a fake move into every pipe of arena (option ``arena``, else our parent) except our own
    stdin/stdout."""
    arena = opts.get("arena") or os.getppid()
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
        report(f"escapee-{tag}.txt", read_text(ready) if os.path.exists(ready) else "never started")


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
    pids = [int(p) for p in read_text(pids_file).split()]
    deadline = time.monotonic() + 5.0
    # SIGSTOP is delivered asynchronously: give it a moment to land before measuring.
    while wait_for_stop and time.monotonic() < deadline and any(stat_of(p)[0] != "T" for p in pids):
        time.sleep(0.01)
    before = [stat_of(p) for p in pids]
    time.sleep(0.3)
    after = [stat_of(p) for p in pids]
    lines = [f"{p} {b[0]} {a[0]} {a[1] - b[1]}" for p, b, a in zip(pids, before, after, strict=True)]
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
        with open(os.path.join(os.environ["TMPDIR"], marker + "-mine.txt"), "w") as f:
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

# -- the red-team attacks (issue 18) ---------------------------------------------------------------

def proc_bytes(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read()
    except OSError:
        return None

def ppid_of(pid):
    stat = proc_bytes(pid, "stat")
    return int(stat[stat.rindex(b")") + 2:].split()[1]) if stat else 0

def all_pids():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]

def carries_marker(pid):
    return marker.encode() in (proc_bytes(pid, "cmdline") or b"")

def is_arena(pid):
    # `python -m arena ...` whose arguments carry our marker (a bot command or a config path).
    words = (proc_bytes(pid, "cmdline") or b"").split(b"\0")
    return b"arena" in words and b"-m" in words and carries_marker(pid)

def find_arena():
    """Our arena: up the parent chain, else (a sandbox's own PID namespace) a search of /proc."""
    pid = os.getppid()
    while pid > 1:
        if is_arena(pid):
            return pid
        pid = ppid_of(pid)
    found = [p for p in all_pids() if is_arena(p)]
    return found[0] if len(found) == 1 else None

def guardians():
    """(pid, its arena) of every guardian whose arena carries our marker."""
    found = []
    for pid in all_pids():
        if b"arena.process.guardian" in (proc_bytes(pid, "cmdline") or b""):
            parent = ppid_of(pid)
            if is_arena(parent):
                found.append((pid, parent))
    return found

def signal_result(pid, sig):
    try:
        os.kill(pid, sig)
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))

def detach(code, tag, *args, wait=10.0):
    """Start ``code`` as a process nothing of arena's recognises: double fork, setsid (a sandbox may
    refuse it), exec with an empty environment. Its argv: marker-tag, a descriptor to write one
    byte to when it is ready, then ``args``. Returns once it is ready (or ``wait`` s passed)."""
    r, w = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            os.close(r)
            if os.fork() == 0:
                try:
                    os.setsid()
                except OSError:
                    pass
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)
                os.dup2(null, 1)  # stderr stays: its REPORT lines go to the bot's log
                os.set_inheritable(w, True)
                os.execve(sys.executable, [sys.executable, "-c", code, marker + "-" + tag, str(w),
                                           *map(str, args)], {})
        finally:
            os._exit(0)
    os.close(w)
    os.waitpid(middle, 0)
    ready, _, _ = select.select([r], [], [], wait)
    if ready:
        os.read(r, 1)
    os.close(r)

injected = set()

def fake_move():
    if game_name == "shobu":
        wire = {"passive": {"origin": {"x": 0, "y": 0}, "heading": {"x": 0, "y": 3}},
                "aggressive": {"origin": {"x": 4, "y": 0}, "heading": {"x": 0, "y": 3}}}
        return json.dumps({"type": "turn", "payload": wire}).encode() + b"\n"
    return b"2 0 0 7 7\n"

def inject():
    """Write a fake move into the stdout of every other bot of this run we can see (same run
    token, our marker), as if that bot had sent it."""
    token = os.environ.get("ARENA_RUN_TOKEN", "").encode()
    me, hits, errors = os.getpid(), 0, []
    own = os.readlink("/proc/self/fd/1")
    for pid in all_pids():
        if pid == me or pid in injected or not token:
            continue
        env = proc_bytes(pid, "environ")
        if env is None or b"\0ARENA_RUN_TOKEN=" + token + b"\0" not in b"\0" + env or not carries_marker(pid):
            continue
        try:
            if os.readlink(f"/proc/{pid}/fd/1") == own:
                continue  # our own pipe (a sandbox's init holds it too): no use
        except OSError:
            pass
        try:
            fd = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
            try:
                os.write(fd, fake_move())
            finally:
                os.close(fd)
            injected.add(pid)
            hits += 1
        except OSError as exc:
            errors.append(errno.errorcode.get(exc.errno, str(exc.errno)))
    report("inject", f"{hits} {','.join(errors) or '-'}")

def fill(path, limit_mb):
    """Write ``path`` 1 MiB at a time up to ``limit_mb``; (MiB written, the error or "none"). The file
    is left behind: that is the attack."""
    chunk, written, why = b"\1" * (1 << 20), 0, "none"
    try:
        with open(path, "wb", buffering=0) as f:
            while written < limit_mb:
                f.write(chunk)
                written += 1
    except OSError as exc:
        why = errno.errorcode.get(exc.errno, str(exc.errno))
    return written, why

def hog(procs, mb, hold):
    """``procs`` children of ``mb`` MiB each (every page touched), each smaller than a fat honest
    bot, so an out-of-memory killer choosing the biggest process picks the honest one."""
    r, w = os.pipe()
    for _ in range(procs):
        if os.fork() == 0:
            os.close(r)
            try:
                block = b"\1" * (mb << 20)
                os.write(w, b"x" if block else b"")
                time.sleep(hold)
            finally:
                os._exit(0)
    os.close(w)
    got, deadline = 0, time.monotonic() + 10
    while time.monotonic() < deadline:
        ready, _, _ = select.select([r], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        data = os.read(r, procs)
        if not data:
            break
        got += len(data)
    os.close(r)
    report("hog", f"{got} of {procs} x {mb} MiB")

def root_probe():
    result = {"pids_seen": len(all_pids()),
              "status": {line.split(":")[0]: line.split(":", 1)[1].split()
                         for line in read_text("/proc/self/status").splitlines()
                         if line.startswith(("Uid:", "Gid:", "Groups:"))}}
    def attempt(name, action):
        try:
            result[name] = action()
        except OSError as exc:
            result[name] = "denied " + errno.errorcode.get(exc.errno, str(exc.errno))
    attempt("shadow", lambda: f"read {len(read_text('/etc/shadow', binary=True))} bytes")
    attempt("root_home", lambda: f"listed {len(os.listdir('/root'))} entries")
    attempt("root_entries", lambda: sorted(os.listdir("/root")))
    if opts.get("rootdir"):
        def write_root_owned():
            with open(os.path.join(opts["rootdir"], marker + "-written"), "w") as f:
                f.write("owned")
            return "written"
        attempt("root_write", write_root_owned)
    if opts.get("games"):
        def forge():
            with open(opts["games"], "a") as f:
                f.write(json.dumps({"forged": marker}) + "\n")
            return "appended"
        attempt("forge", forge)
    if opts.get("port"):
        import socket
        def connect():
            with socket.create_connection(("127.0.0.1", int(opts["port"])), timeout=2):
                return "connected"
        attempt("connect", connect)
    report("root_probe", json.dumps(result, sort_keys=True))

def read_paths(paths):
    """Try to read each of ``paths`` (a file: its bytes; a folder: its names): what another run or
    bot left. Reports {path: "read N bytes" | "listed N" | "denied EACCES" | ...}."""
    result = {}
    for path in paths:
        try:
            if os.path.isdir(path):
                result[path] = f"listed {len(os.listdir(path))}"
            else:
                result[path] = f"read {len(read_text(path, binary=True))} bytes"
        except OSError as exc:
            result[path] = "denied " + errno.errorcode.get(exc.errno, str(exc.errno))
    report("read_paths", json.dumps(result, sort_keys=True))

def attack(n):
    """The attack of ``mode`` on our turn ``n`` (0 = first), before we reply."""
    if mode == "inject":
        inject()
        if opts.get("persistent") and n == 0:
            detach(INJECT, "injector", os.environ.get("ARENA_RUN_TOKEN", ""), fake_move().hex(),
                   opts.get("seconds", 30), os.readlink("/proc/self/fd/1"))
    if mode == "stop_arena" and n == 0:
        arena = find_arena()
        report("arena", str(arena))
        if arena is not None:
            detach(STOP_ARENA, "helper", arena, os.getpid(), opts.get("seconds", 2))
    if mode == "kill_arena" and n == 1:
        arena = find_arena()
        report("kill_arena", "not found" if arena is None else "trying")
        if arena is not None:
            report("kill_arena", signal_result(arena, signal.SIGKILL))
    if mode == "kill_guardian" and n == 0:
        arena = find_arena()
        mine = [g for g, parent in guardians() if parent == arena]
        report("guardian", " ".join(f"{g}:{signal_result(g, signal.SIGKILL)}" for g in mine) or "none")
        child = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({opts.get('hold', 60)})",
                                  marker + "-child"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        report("child", str(child.pid))
    if mode == "kill_other_guardians" and n == 0:
        arena = find_arena()
        others = [g for g, parent in guardians() if parent != arena]
        report("other_guardians", " ".join(f"{g}:{signal_result(g, signal.SIGKILL)}" for g in others) or "none")
    if mode == "escape_burn" and n == 0:
        for _ in range(opts.get("burners", 2)):
            detach(BURN, "burn", opts.get("seconds", 60))
        report("burners", str(opts.get("burners", 2)))
    if mode == "bomb" and n == 0:
        try:
            detach(BOMB, "bomb", opts.get("kind", "procs"), opts.get("limit", 3000), opts.get("hold", 20), wait=30)
        except OSError as exc:  # our own earlier bomb holds every task: play on all the same
            report("bomb", f"0 {errno.errorcode.get(exc.errno, str(exc.errno))}")
    if mode == "hog" and n == 0:
        hog(opts.get("procs", 12), opts.get("mb", 100), opts.get("hold", 60))
    if mode == "disk_fill" and n == 0:
        where = os.environ.get("TMPDIR") or os.environ.get("HOME") or "/tmp"
        written, why = fill(os.path.join(where, marker + "-fill"), opts.get("mb", 256))
        report("disk_fill", f"{written} {why} {where}")
    if mode == "shm" and n == 0:
        written, why = fill(os.path.join("/dev/shm", marker + "-shm"), opts.get("mb", 200))
        report("shm", f"{written} {why}")
    if mode == "threads" and n == 0:
        release = threading.Event()
        made = 0
        for _ in range(opts.get("threads", 700)):
            try:
                threading.Thread(target=release.wait, args=(opts.get("hold", 120),), daemon=True).start()
                made += 1
            except RuntimeError:
                break
        report("threads", str(made))
    if mode == "root_probe" and n == 0:
        root_probe()
    if mode == "read_paths" and n == 0:
        read_paths(opts.get("paths", []))
    if mode == "flood_stdout" and n == opts.get("at", 0):
        out.write(b"x" * (opts.get("mb", 20) << 20))
        out.flush()
        time.sleep(opts.get("hold", 60))

def watch_marked(tag):
    """On our turn: how much CPU do the processes carrying marker-tag get in 100 ms?"""
    needle = f"{marker}-{tag}".encode()
    watched = [p for p in all_pids() if needle in (proc_bytes(p, "cmdline") or b"")]
    def ticks():
        total = 0
        for pid in watched:
            try:
                total += stat_of(pid)[1]
            except (OSError, ValueError, IndexError):
                pass
        return total
    before = ticks()
    time.sleep(0.1)
    report("watch", f"{len(watched)} {ticks() - before}")

def work(turn_cpu):
    """``cpu_ms`` of our own CPU time per move (counted from our turn's first byte of input), then
    ``sleep_ms`` of sleep; with ``watch``, a look at the CPU the processes marker-<watch> get meanwhile."""
    if "cpu_ms" in opts:
        while time.process_time() - turn_cpu < opts["cpu_ms"] / 1000.0:
            pass
    if "sleep_ms" in opts:
        time.sleep(opts["sleep_ms"] / 1000.0)
    if "watch" in opts:
        watch_marked(opts["watch"])

if mode == "fat":
    fat = b"\1" * (opts.get("mb", 150) << 20)  # an honest bot with a big table

if mode == "probe":
    probe()
if mode == "ignore_signals":
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, signal.SIG_IGN)
if mode == "env":
    report("env.txt", json.dumps(dict(os.environ)))
    caps = [line.split()[1] for line in read_text("/proc/self/status").splitlines() if line.startswith("CapEff:")]
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
        turn_wall, turn_cpu = time.perf_counter(), time.process_time()
        state = game.state_from_json(json.loads(line)["payload"])
    else:
        first = inp.readline()
        if not first:
            break
        turn_wall, turn_cpu = time.perf_counter(), time.process_time()
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
                        if b"ARENA_SCAN_SECRET=" in f.read():
                            found.append(read_text(f"/proc/{entry}/cmdline", True).replace(b"\0", b" ").decode())
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
    attack(n)
    move = game.legal_moves(state)[0]
    work(turn_cpu)
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
    # "early": the reply and, in the same write, a move for a turn whose input is not written yet.
    out.write(text.encode() + b"\n" + (fake_move() if mode == "early" else b""))
    out.flush()
    if opts.get("think"):  # our own measure of this move, from its first byte of input to the reply
        report("think", f"{(time.perf_counter() - turn_wall) * 1000:.3f}")
    n += 1
if mode in ("ignore_eof", "ignore_signals", "escapee"):
    if mode == "escapee":
        spawn_escapee("escapee-late", wait=False)
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, signal.SIG_IGN)
    time.sleep(600)
