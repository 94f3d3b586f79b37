#!/usr/bin/env python3
"""A referee that passes every request to a real one, and fails at its N-th request when it runs
in a bot (``ARENA_GAME_TOKEN`` in its environment): arena's own copy plays on, while the copy an
MCTS agent starts for its search fails mid-game.

    failing_proxy.py MODE N REAL_COMMAND...

MODE: ``crash`` (a line on stderr, exit 3) or ``garbage`` (a line that is not JSON). Standard
library only.
"""

from __future__ import annotations

import os
import subprocess
import sys


def main() -> None:
    mode, n, real = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    armed = "ARENA_GAME_TOKEN" in os.environ
    child = subprocess.Popen(real, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    for count, line in enumerate(sys.stdin.buffer, start=1):
        if armed and count >= n:
            if mode == "crash":
                sys.stderr.write("failing proxy: deliberate crash\n")
                sys.stderr.flush()
                child.kill()
                os._exit(3)
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        child.stdin.write(line)
        child.stdin.flush()
        sys.stdout.buffer.write(child.stdout.readline())
        sys.stdout.flush()
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
