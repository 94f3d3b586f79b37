"""Shared helpers for the engine tests: small real bots and a /proc scan for leftovers."""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

# One script for every fake bot: argv = marker, game, mode, at (own move index where the mode
# kicks in). Before that it plays the first legal move, using arena's own rules.
BOT_SOURCE = r'''
import json, os, signal, subprocess, sys, time
marker, game_name, mode, at = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
from arena.games import get_game
game = get_game(game_name)
out = sys.stdout.buffer
inp = sys.stdin.buffer

def misbehave(kind):
    if kind == "crash":
        sys.exit(3)
    if kind == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if kind == "silent":
        time.sleep(600)
    if kind == "garbage":
        out.write(b"hello, arena\n"); out.flush(); time.sleep(600)
    if kind == "huge":
        out.write(b"x" * 20_000_000 + b"\n"); out.flush(); time.sleep(600)
    if kind == "close_stdout":
        sys.stdout.close(); os.close(1); time.sleep(600)
    if kind == "ignore_term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)
    if kind == "grandchild":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", marker + "-grandchild"])
        time.sleep(600)
    if kind == "half":
        out.write(b'{"type": "turn", "pay' if game_name == "shobu" else b"2 3 2"); out.flush(); time.sleep(600)
    if kind == "bad_utf8":
        out.write(b"\xff\xfe\xfd not utf-8\n"); out.flush(); time.sleep(600)
    if kind == "illegal":
        if game_name == "shobu":
            wire = {"passive": {"origin": {"x": 0, "y": 0}, "heading": {"x": 0, "y": 1}},
                    "aggressive": {"origin": {"x": 4, "y": 0}, "heading": {"x": 0, "y": 1}}}
            out.write(json.dumps({"type": "turn", "payload": wire}).encode() + b"\n")
        else:
            out.write(b"2 0 5 1 4\n")
        out.flush(); time.sleep(600)
    if kind == "slow":
        time.sleep(5)

def flood(total):
    chunk = b"e" * (1 << 20)
    for _ in range(total >> 20):
        sys.stderr.buffer.write(chunk)
    sys.stderr.buffer.flush()

if mode == "crash" and at < 0:
    sys.exit(3)
if mode == "flood":
    flood(25 << 20)
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
    if n == at and mode != "flood":
        misbehave(mode)
    if mode == "flood" and n < 25:
        flood(1 << 20)
    move = game.legal_moves(state)[0]
    wire = game.move_to_wire(move)
    if game_name == "shobu":
        message = {"type": "turn", "payload": wire}
        text = json.dumps(message, indent=2) if mode == "pretty" else json.dumps(message)
        out.write(text.encode() + b"\n")
    else:
        out.write(wire.encode() + b"\n")
    out.flush()
    n += 1
'''


def bot_command(marker: str, game: str, mode: str = "good", at: int = 0) -> str:
    """A shell-style command string for a fake bot (split by shlex in arena)."""
    return shlex.join([sys.executable, "-u", "-c", BOT_SOURCE, marker, game, mode, str(at)])


def processes_matching(marker: str, exclude: tuple[int, ...] = (), wrappers: bool = False) -> list[int]:
    """Pids whose command line contains ``marker`` (zombies have an empty cmdline: see below),
    except this process and ``exclude`` (e.g. an `arena match` whose arguments carry the marker)."""
    found = []
    skip = {os.getpid(), *exclude}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in skip:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        # bubblewrap's own processes carry the bot's command line too; they are arena's wrappers,
        # counted by assert_no_leftovers (with ``wrappers``) but not as the bot's processes.
        if marker.encode() in cmdline and (wrappers or os.path.basename(cmdline.split(b"\0", 1)[0]) != b"bwrap"):
            found.append(int(entry))
    return found


def unreaped_children() -> list[int]:
    """Bots this test process started (in-process arena) and never reaped.

    Arena makes its process a child subreaper, so a zombie child of the test process may also be
    an adopted orphan (e.g. the guardian of an `arena` subprocess, exiting after it): only the pids
    arena itself started count here.
    """
    from arena.process.spawn import unreaped_pids

    return sorted(unreaped_pids())


def assert_no_leftovers(*markers: str, wait: float = 1.0) -> None:
    """No live process carries any marker and no child is left unreaped (polls up to ``wait`` s for
    processes reparented to init to be reaped)."""
    deadline = time.monotonic() + wait
    while True:
        left = {m: processes_matching(m, wrappers=True) for m in markers}
        left = {m: p for m, p in left.items() if p}
        zombies = unreaped_children()
        if not left and not zombies:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"processes left behind: {left}, unreaped children: {zombies}")
        time.sleep(0.02)


def bot_writable(folder: Path) -> Path:
    """Make ``folder`` (a test's own) writable by any bot's user, and the test folders above it
    (pytest makes them mode 0700) passable; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o1777)
    for parent in folder.resolve().parents:
        if parent.name == ".pytest-tmp" or parent.stat().st_mode & 0o077:
            break
        parent.chmod(0o755)
    return folder


def uid_locked(uid: int) -> bool:
    """Whether some arena process holds ``uid`` for a bot now (its lock in the pool's folder)."""
    import fcntl

    from arena.process import botuser

    fd = os.open(os.path.join(botuser._lock_folder(), str(uid)), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
