"""A checkers bot that spends wall time: each turn it busy-waits ``wall_ms`` of wall-clock time
from its turn's first byte of input, then plays the first legal move (arena's own rules). With
``procs`` > 1 it keeps ``procs - 1`` busy child processes of its own from its first turn on (they
spin only while it is allowed to run: arena stops its whole cgroup between turns), raising its own
cgroup's CPU pressure: the attack on the fair clock's stall credit (issue 33).

argv: marker, procs, wall_ms. Each turn it writes ``REPORT wall <ms> <cpu ms>`` on stderr: its own
measure of the turn's wall time, and the CPU time it and its children have used so far (from /proc).
Every child carries the marker in its argv and ends by itself after 120 s.

Standard library only (and ``arena.games``, found from this file's place in the repository).
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from arena.games import get_game  # after the line above: arena may not be installed

SPIN = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end:\n    pass\n"



def on_cpu_s(pid: int) -> float:
    """The time ``pid`` has run on a CPU so far, in seconds (``/proc/<pid>/schedstat``, in
    nanoseconds: clock ticks would be 10 ms coarse for each child); 0 if gone."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as f:
            return int(f.read().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


marker, procs, wall_s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) / 1000.0
game = get_game("checkers")
inp, out = sys.stdin.buffer, sys.stdout.buffer
inp.readline()
colour = inp.readline().decode().strip().upper()
children: list[subprocess.Popen[bytes]] = []
while True:
    if not inp.readline():
        break
    begun = time.monotonic()
    board = [inp.readline().decode() for _ in range(8)]
    if not children and procs > 1:
        children = [subprocess.Popen([sys.executable, "-c", SPIN, marker + "-spin"]) for _ in range(procs - 1)]
    state = game.state_from_json({"board": board, "turn": colour, "turnNumber": 0})
    move = game.legal_moves(state)[0]
    while time.monotonic() - begun < wall_s:
        pass
    out.write(game.move_to_wire(move).encode() + b"\n")
    out.flush()
    cpu = on_cpu_s(os.getpid()) + sum(on_cpu_s(child.pid) for child in children)
    sys.stderr.write(f"REPORT wall {(time.monotonic() - begun) * 1000:.1f} {cpu * 1000:.1f}\n")
    sys.stderr.flush()
