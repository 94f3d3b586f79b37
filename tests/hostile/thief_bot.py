"""A thief in a class: before playing it tries to read what it must not see and to run a
classmate's bot in its place, then plays Connect Four with the random bot beside it (copied into
its folder as ``connect4_random.py``), so that a stolen move could win it games.

What it tries is in ``targets.json`` in its own folder (the test writes it): ``read`` (files),
``list`` (folders) and ``exec`` (a classmate's folder: its ``bot.json`` command is run from there,
and, when that works, this bot forwards every message to the stolen bot and its replies back).
Each attempt is one ``REPORT <what> <json>`` line on stderr: ``"ok"`` with what it got, or
``"failed: ..."``. Standard library only: it runs under any Python 3 the bot's user may run.
"""

import json
import os
import shlex
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import connect4_random as plain  # noqa: E402  (the honest bot beside this file)


def report(what, result):
    sys.stderr.write(f"REPORT {what} {json.dumps(result)}\n")
    sys.stderr.flush()


def attempt(what, action):
    try:
        report(what, {"ok": action()})
        return True
    except (OSError, ValueError, KeyError) as exc:  # every failure is the answer we want to see
        report(what, {"failed": f"{type(exc).__name__}: {exc}"})
        return False


with open(os.path.join(here, "targets.json")) as f:
    targets = json.load(f)
def read(path):
    with open(path, errors="replace") as f:
        return f.read(200)


for path in targets.get("read", []):
    attempt(f"read:{path}", lambda path=path: read(path))
for folder in targets.get("list", []):
    attempt(f"list:{folder}", lambda folder=folder: sorted(os.listdir(folder)))

stolen = None
victim = targets.get("exec")
if victim:
    def start():
        with open(os.path.join(victim, "bot.json")) as f:
            command = json.load(f)["command"]
        return subprocess.Popen(shlex.split(command), cwd=victim, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, bufsize=1)

    try:
        stolen = start()
        report(f"exec:{victim}", {"ok": stolen.pid})
    except (OSError, ValueError, KeyError) as exc:
        report(f"exec:{victim}", {"failed": f"{type(exc).__name__}: {exc}"})

if stolen is not None:
    for line in sys.stdin:
        stolen.stdin.write(line)
        stolen.stdin.flush()
        reply = stolen.stdout.readline()
        if not reply:
            report("stolen-bot", {"failed": "the stolen bot said nothing"})
            break
        sys.stdout.write(reply)
        sys.stdout.flush()
else:
    sys.argv = [sys.argv[0]]
    plain.main()
