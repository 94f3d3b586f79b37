#!/usr/bin/env python3
"""A referee that plays Nim (examples/referees/nim.py) until its N-th request, then misbehaves.

    hostile.py MODE N [--while FILE] [--in-bot] [--nim FOLDER] [nim options]

MODE: ``crash`` (a line on stderr, exit 3), ``hang`` (never answers), ``garbage`` (a line that is not
JSON), ``wrong`` (a node whose actor is no seat), ``error`` (``{"error": ...}``), ``silent-exit``
(exit 0 without a word), ``chatty`` (two lines for one request), ``flood`` (a megabyte on stderr,
then a good answer). Requests are counted per process from 1. With ``--while FILE`` it misbehaves
only while FILE exists (so that a resumed run, the file gone, plays on); with ``--in-bot``, only in
a copy a bot started (one with ``ARENA_GAME_TOKEN`` in its environment: arena's own copy plays on).
Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
import time

# Where nim.py is: named on the command line (``--nim FOLDER``), because a confined referee sees only
# the paths its command names, not the checkout around its own folder.
_NIM = (sys.argv[sys.argv.index("--nim") + 1] if "--nim" in sys.argv
        else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "referees"))
sys.path.insert(0, _NIM)

import nim  # noqa: E402


def misbehave(mode: str, request: dict) -> bool:
    """Do the mode's harm; True when the request is answered (or never will be) by it."""
    if mode == "crash":
        sys.stderr.write("hostile referee: deliberate crash\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "silent-exit":
        os._exit(0)
    if mode == "hang":
        while True:
            time.sleep(60)
    if mode == "garbage":
        print("this is not json", flush=True)
        return True
    if mode == "wrong":
        print(json.dumps({"state": request.get("state"), "actor": 7, "legal": {}, "ply": 0}), flush=True)
        return True
    if mode == "error":
        print(json.dumps({"error": "deliberate refusal"}), flush=True)
        return True
    if mode == "chatty":  # both lines in one write (under PIPE_BUF): arena reads them together
        line = json.dumps(nim.answer(request)) + "\n"
        sys.stdout.write(line + line)
        sys.stdout.flush()
        return True
    if mode == "flood":
        sys.stderr.write("x" * (1 << 20) + "\n")
        sys.stderr.flush()
        return False
    raise SystemExit(f"unknown mode {mode}")


def main() -> None:
    mode, n = sys.argv[1], int(sys.argv[2])
    flag = sys.argv[sys.argv.index("--while") + 1] if "--while" in sys.argv else None
    armed = "--in-bot" not in sys.argv or "ARENA_GAME_TOKEN" in os.environ
    for count, line in enumerate(sys.stdin, start=1):
        request = json.loads(line)
        if armed and count >= n and (flag is None or os.path.exists(flag)) and misbehave(mode, request):
            continue
        try:
            reply = nim.answer(request)
        except (nim.Refused, ValueError, KeyError, TypeError) as exc:
            reply = {"error": str(exc)}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
