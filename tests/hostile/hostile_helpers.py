"""The programs the hostile bot (hostile_bot.py) starts detached from itself (double fork, setsid,
an empty environment: nothing of arena's recognises them), as source text for ``python -c``.

Each gets argv: marker-tag, a descriptor to write one byte to once it is ready, then its own
arguments; ``say`` writes a ``REPORT`` line on the stderr it inherited from the bot. Each ends by
itself after a bounded time.
"""

# A detached helper's prelude: argv[2] is the ready descriptor; say() reports on the bot's stderr.
HELPER = """import errno, os, signal, sys, time
ready = int(sys.argv[2])
def say(name, text):
    try:
        os.write(2, f"REPORT {name} {text}\\n".encode())
    except OSError:
        pass
def done():
    try:
        os.write(ready, b"x"); os.close(ready)
    except OSError:
        pass
def result(pid, sig):
    try:
        os.kill(pid, sig); return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))
def state(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(b")") + 2:].split()[0].decode()
"""

# Stops arena (argv[3]) for argv[5] s while the bot (argv[4]) is stopped, i.e. during the opponent's
# turn: its second turn after this one (the opponent's first reply has a start-up allowance).
STOP_ARENA = HELPER + """arena, bot, seconds = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
done()
deadline = time.monotonic() + 20
for wanted in (("T", "t", None), ("R", "S", "D", None), ("T", "t", None)):
    while state(bot) not in wanted and time.monotonic() < deadline:
        time.sleep(0.0005)
time.sleep(0.01)  # the opponent's clock has started by now (it thinks for longer: see red_team.stop_arena)
outcome = result(arena, signal.SIGSTOP) if state(bot) in ("T", "t") else "bot never stopped"
say("stop_arena", outcome)
time.sleep(seconds if outcome == "ok" else 0)
if outcome == "ok":
    say("cont_arena", result(arena, signal.SIGCONT))
"""

# Burns CPU for argv[3] seconds at most.
BURN = HELPER + """end = time.monotonic() + float(sys.argv[3])
done()
os.close(2)
while time.monotonic() < end:
    pass
"""

# Takes tasks: argv[3] processes or threads ("procs"/"threads"), up to argv[4], held for argv[5] s;
# after the first refusal it says how many it has, then keeps taking every task that comes free.
BOMB = HELPER + """import threading
kind, limit, hold = sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
end = time.monotonic() + hold
made, why = 0, None
def take():
    if kind == "threads":
        threading.Thread(target=time.sleep, args=(max(0.0, end - time.monotonic()),), daemon=True).start()
    elif os.fork() == 0:
        os.close(2)
        time.sleep(max(0.0, end - time.monotonic()))
        os._exit(0)
while time.monotonic() < end:
    try:
        if made < limit:
            take()
            made += 1
            continue
    except (OSError, RuntimeError) as exc:
        if why is None:
            why = errno.errorcode.get(getattr(exc, "errno", None) or 0, type(exc).__name__)
            say("bomb", f"{made} {why}")
            done()
            os.close(2)
    if made >= limit and why is None:
        say("bomb", f"{made} none")
        done()
        os.close(2)
        why = "none"
    time.sleep(0.001)
"""

# Writes a fake move (argv[4], hex) into the stdout of every process that carries the run token
# (argv[3]) and the marker, is not an injector and holds no pipe of ours, again and again for
# argv[5] s: every bot of the run, whichever game it plays. argv[6]: our bot's own stdout pipe.
INJECT = HELPER + """token, fake, seconds, own = sys.argv[3].encode(), bytes.fromhex(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
marker = sys.argv[1].rsplit("-", 1)[0].encode()
def read(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read()
    except OSError:
        return b""
def link(path):
    try:
        return os.readlink(path)
    except OSError:
        return None
done()
seen, hits, end = set(), 0, time.monotonic() + seconds
while time.monotonic() < end:
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or entry in seen:
            continue
        argv = read(entry, "cmdline").split(b"\\0")
        if marker not in b" ".join(argv) or b"inject" in argv or not b"ARENA_RUN_TOKEN=" + token in read(entry, "environ"):
            continue
        seen.add(entry)
        if link(f"/proc/{entry}/fd/1") == own:
            continue
        try:
            fd = os.open(f"/proc/{entry}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, fake)
            os.close(fd)
            hits += 1
        except OSError:
            pass
    time.sleep(0.002)
say("injected", str(hits))
"""
