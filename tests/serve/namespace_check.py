"""Run inside `unshare -n -p -f --mount-proc` with loopback up (test_cli.py): the real `arena serve`
on 127.0.0.1. Prints one line per check; exits non-zero at the first failure.

argv: LOGDIR. Checks: a port in use is one line and exit 2; the served page and its event stream
over real HTTP; a game appended to games.jsonl arrives as an update."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

folder = Path(sys.argv[1])
arena = [sys.executable, "-m", "arena", "serve", str(folder)]

taken = socket.socket()
taken.bind(("127.0.0.1", 0))
taken.listen()
port = taken.getsockname()[1]
done = subprocess.run([*arena, "--port", str(port)], capture_output=True, text=True, timeout=300, check=False)
assert done.returncode == 2, done
assert done.stderr.splitlines() == [(f"arena: error: cannot listen on 127.0.0.1:{port}: port {port} is in use by "
                                    "another program; pass --port N (0: any free port)")], done.stderr
taken.close()
print("port in use: one line, exit 2")

games = folder / "games.jsonl"
lines = games.read_bytes().splitlines(keepends=True)
games.write_bytes(b"".join(lines[:-1]))
server = subprocess.Popen([*arena, "--port", "8765"], stderr=subprocess.PIPE, text=True)
try:
    assert server.stderr is not None
    banner = server.stderr.readline()  # printed once the socket listens
    assert banner.startswith(f"serving {folder} on http://127.0.0.1:8765/"), banner
    page = httpx.get("http://127.0.0.1:8765/", timeout=120)
    assert page.status_code == 200 and "5 games finished" in page.text
    seen = []
    deadline = time.monotonic() + 20  # a backstop: the loop ends when the update arrives
    with httpx.stream("GET", "http://127.0.0.1:8765/events", timeout=120) as stream:
        event = ""
        for line in stream.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "update":
                seen.append(json.loads(line[6:])["games"])
                if seen == [5]:
                    with games.open("ab") as out:
                        out.write(lines[-1])
                elif seen[-1] == 6:
                    break
            assert time.monotonic() < deadline, seen
    print(f"events over HTTP: {seen}")
finally:
    server.terminate()
    server.wait(10)
