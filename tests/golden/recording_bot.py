#!/usr/bin/env python3
"""A recording wrapper around a bot: ``recording_bot.py CMD [ARGS...]`` runs CMD as its child and
passes every byte between arena and CMD through unchanged, writing each complete line (and a last
partial one) on its own stderr as one JSON object: ``{"sent": LINE}`` for what arena sent,
``{"back": LINE}`` for what CMD answered; LINE keeps its newline. arena keeps the wrapper's stderr
(``--stderr-dir``), so the golden test reads the exact bytes of both directions from there. CMD's
own stderr is dropped. A leading ``python3`` in CMD runs under this interpreter (the bot's user may
not be able to run the shim that ``python3`` names).

SIGTERM is ignored so that a line arena wrote just before it closed stdin is still recorded: the
wrapper ends when its stdin ends, and arena's SIGKILL after its grace covers a wrapper that hangs.
Standard library only: it runs in the bot's sandbox.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator

LOCK = threading.Lock()


def log(direction: str, line: bytes) -> None:
    text = json.dumps({direction: line.decode("utf-8", errors="surrogateescape")}, ensure_ascii=True)
    with LOCK:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


def lines(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """Complete lines from a raw reader, then a last partial line (if any) at end of input."""
    buffer = b""
    while True:
        chunk = read(65536)
        if not chunk:
            break
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line + b"\n"
    if buffer:
        yield buffer


def forward_input(child: subprocess.Popen[bytes]) -> None:
    assert child.stdin is not None
    for line in lines(lambda n: os.read(0, n)):
        log("sent", line)
        try:
            child.stdin.write(line)
            child.stdin.flush()
        except BrokenPipeError:
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if argv and argv[0] == "python3":
        argv = [sys.executable, *argv[1:]]
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0)
    threading.Thread(target=forward_input, args=(child,), daemon=True).start()
    assert child.stdout is not None
    for line in lines(child.stdout.read):
        log("back", line)
        os.write(1, line)
    return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
