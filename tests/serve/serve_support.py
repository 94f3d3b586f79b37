"""Helpers of the tests of `arena serve`: the app's test client, the rows of a folder, and the
event stream driven as raw ASGI (an endless response, read until the expected event arrives, with
a deadline as the backstop)."""

from __future__ import annotations

import json
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio

from arena.serve.app import create_app

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx is what the test extra has
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def client(folder: Path) -> TestClient:
    """A test client of the app, asking by the address it would be reached at (``testserver``,
    the default, is not a name ``arena serve`` answers)."""
    return TestClient(create_app(folder), base_url="http://127.0.0.1")


def rows(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


@asynccontextmanager
async def sse(app: Any, path: str = "/events",
              kinds: tuple[str, ...] = ("update",)) -> AsyncIterator[trio.MemoryReceiveChannel[dict[str, Any]]]:
    """The events of ``app``'s stream of the ``kinds`` asked for, each its data parsed with the
    event's name as ``event``, while the request is open."""
    events_in, events_out = trio.open_memory_channel[dict[str, Any]](100)
    done = trio.Event()
    buffer = b""

    async def receive() -> dict[str, Any]:
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal buffer
        if message["type"] == "http.response.start":
            assert message["status"] == 200
            assert (b"content-type", b"text/event-stream; charset=utf-8") in message["headers"]
            return
        buffer += message.get("body", b"")
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.decode().splitlines() if not line.startswith(":"))
            if fields.get("event") in kinds:
                await events_in.send({**json.loads(fields["data"]), "event": fields["event"]})

    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "", "headers": [(b"host", b"127.0.0.1")],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(app, scope, receive, send)
        try:
            yield events_out
        finally:
            done.set()


async def next_update(events: trio.MemoryReceiveChannel[dict[str, Any]], games: int) -> dict[str, Any]:
    with trio.fail_after(10):  # a backstop only: the loop returns as soon as the event arrives
        while True:
            event = await events.receive()
            if event["games"] == games:
                return event
