"""Run inside `unshare -n -p -f --mount-proc` with loopback up (test_cli.py): `arena league --serve`
on 127.0.0.1. Prints one line per check; exits non-zero at the first failure.

argv: CONFIG LOGS (a league config over a roster of connect4 bots, and where its logs go). Checks:
the page serves the league's folder while it plays (an update with a finished game, then that
game's agent's page); Ctrl-C ends the league with 130 and its page with it."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

config, logs = Path(sys.argv[1]), Path(sys.argv[2])
league = subprocess.Popen([sys.executable, "-m", "arena", "league", str(config), "--logs", str(logs), "--rescan", "0",
                           "-j", "1", "--serve", "--port", "8766"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
try:
    assert league.stderr is not None
    banner = ""
    while not banner.startswith("serving "):  # printed by the page once its socket listens
        banner = league.stderr.readline()
        assert banner, "the league ended before its page listened"
    assert banner.startswith(f"serving {logs / 'lg'} on http://127.0.0.1:8766/"), banner
    print("the page listens")
    deadline = time.monotonic() + 60  # a backstop: the loop ends when a finished game arrives
    with httpx.stream("GET", "http://127.0.0.1:8766/events", timeout=120) as stream:
        event = ""
        for line in stream.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "update" and json.loads(line[6:])["games"] >= 1:
                break
            assert time.monotonic() < deadline
    first = json.loads((logs / "lg" / "games.jsonl").read_text().splitlines()[0])
    page = httpx.get(f"http://127.0.0.1:8766/agent/{first['black']}", timeout=120)
    assert page.status_code == 200 and 'id="versus"' in page.text, page.status_code
    print("a finished game and its agent's page")
    league.send_signal(signal.SIGINT)
    assert league.wait(60) == 130
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", 8766)) != 0, "the page outlived the league"
    print("Ctrl-C: exit 130, the page gone")
finally:
    if league.poll() is None:
        league.kill()
        league.wait()
