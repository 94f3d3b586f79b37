"""A referee of the external rules protocol (v1) spoken to directly over its pipes.

Independent of arena's own client on purpose: these tests check the example referees against the
protocol's text, not against one reading of it. :class:`Referee` sends one JSON line and reads one
line back, and insists every reply is exactly one line holding one JSON object (anything else is
an AssertionError quoting it). :meth:`Referee.many` pipelines a batch of requests (a writer thread
feeds stdin while the replies are read, so neither pipe can fill up and deadlock), which is how
the perft and random-game checks stay fast. :func:`build` compiles an example with its Makefile.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

import orjson

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "referees"
#: Where the tests build the examples (the checkout's build folder, ignored by git).
BUILD = ROOT / "build" / "referees"


def build(example: str, tools: Sequence[str]) -> Path:
    """``make -C examples/referees/<example> OUT=build/referees/<example>``; the output folder.
    Raises LookupError naming the first of ``tools`` missing on PATH. Serialised by a lock file, so
    pytest-xdist workers that ask at once build once (make skips what is up to date)."""
    for tool in ("make", *tools):
        if shutil.which(tool) is None:
            raise LookupError(tool)
    out = BUILD / example
    out.mkdir(parents=True, exist_ok=True)
    with open(BUILD / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(["make", "-s", "-C", str(EXAMPLES / example), f"OUT={out}"],
                              capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"building {example} failed:\n{done.stdout}{done.stderr}"
    return out


def parse_reply(line: bytes) -> dict[str, Any]:
    """The object of one reply line; AssertionError unless it is one JSON object ending in a newline."""
    assert line.endswith(b"\n"), f"reply not a whole line (the referee died?): {line[:200]!r}"
    assert line.count(b"\n") == 1
    try:
        reply = orjson.loads(line)
    except orjson.JSONDecodeError as error:
        raise AssertionError(f"reply is not JSON ({error}): {line[:200]!r}") from None
    assert isinstance(reply, dict), f"reply is not an object: {line[:200]!r}"
    return reply


class Referee:
    """One running referee; use as a context manager (the exit closes stdin and reaps it)."""

    def __init__(self, command: Sequence[str | Path]) -> None:
        self.process = subprocess.Popen([str(part) for part in command], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin = self.process.stdin
        self.stdout = self.process.stdout
        #: Requests answered so far (each is one round trip).
        self.round_trips = 0

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close stdin (the referee ends at EOF) and wait; kill it if it lingers."""
        if self.process.poll() is None:
            self.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stdout.close()

    def send_raw(self, data: bytes) -> None:
        self.stdin.write(data)
        self.stdin.flush()

    def read_reply(self) -> dict[str, Any]:
        reply = parse_reply(self.stdout.readline())
        self.round_trips += 1
        return reply

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """One round trip."""
        self.send_raw(orjson.dumps(request) + b"\n")
        return self.read_reply()

    def answers_with_an_error(self, raw: bytes) -> None:
        """Send the bytes ``raw`` as one line: AssertionError unless the reply is one line
        ``{"error": "<non-empty text>"}`` and the referee still answers ``info`` after it."""
        self.send_raw(raw + b"\n")
        reply = self.read_reply()
        assert set(reply) == {"error"} and isinstance(reply["error"], str) and reply["error"], reply
        assert self.ask({"cmd": "info"})["protocol"] == 1

    def many(self, requests: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """The replies to ``requests``, in order, written by a thread while they are read."""
        payload = b"".join(orjson.dumps(request) + b"\n" for request in requests)
        writer = threading.Thread(target=self.send_raw, args=(payload,), daemon=True)
        writer.start()
        replies = [self.read_reply() for _ in requests]
        writer.join()
        return replies


def perft(referee: Referee, node: dict[str, Any], depth: int, batch: int = 4096) -> int:
    """Leaves of the move tree ``depth`` plies deep below ``node``, by round trips alone. Each
    level's distinct states are expanded once (with their multiplicities), and the last level is
    counted from the legal lists, so the round trips are the distinct states of levels 1..depth-1."""
    if depth == 0:
        return 1
    level: dict[bytes, tuple[dict[str, Any], int]] = {orjson.dumps(node["state"]): (node, 1)}
    for _ in range(depth - 1):
        requests, weights = [], []
        for parent, weight in level.values():
            for moves in parent["legal"].values():
                for move in moves:
                    requests.append({"cmd": "apply", "state": parent["state"], "move": move})
                    weights.append(weight)
        following: dict[bytes, tuple[dict[str, Any], int]] = {}
        for start in range(0, len(requests), batch):
            chunk = referee.many(requests[start:start + batch])
            for child, weight in zip(chunk, weights[start:start + batch], strict=True):
                key = orjson.dumps(child["state"])
                seen = following.get(key)
                following[key] = (child, weight + (seen[1] if seen else 0))
        level = following
    return sum(weight * sum(len(moves) for moves in parent["legal"].values()) for parent, weight in level.values())
