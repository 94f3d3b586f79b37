"""A run's lifecycle (arena.runs.lifecycle) against a fake run: start prepares it, the set-up notes
say what it holds, and play_to_the_end always runs the final flush and says a failure in one line.
Signals on a real run are tested in tests/cli/test_run_signals.py."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pytest

from arena.errors import ResourceError
from arena.runs import lifecycle
from arena.runs.lifecycle import play_to_the_end, set_up_notes, start


@dataclass
class Change:
    changed: bool = True
    kept: bool = False
    history: bool = False

    def lines(self) -> list[str]:
        return ["field: b changed (version 2)"]


@dataclass
class Backend:
    def describe(self) -> str | None:
        return "ray: 2 nodes"


@dataclass
class FakeRun:
    fails_with: BaseException | None = None
    field_change: Any = None
    concurrency: int = 1
    concurrency_note: str | None = None
    backend: Any = None
    calls: list[str] = field(default_factory=list)

    def prepare(self) -> None:
        self.calls.append("prepare")

    async def play(self) -> None:
        self.calls.append("play")
        if self.fails_with is not None:
            raise self.fails_with

    async def finish(self, *, interrupted: bool) -> dict[str, Any]:
        self.calls.append("finish")
        return {"interrupted": interrupted}


def test_start_prepares_the_run_and_the_spawner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lifecycle, "prepare_spawning", lambda: run.calls.append("spawner"))
    run = FakeRun()
    assert start(run) is run
    assert run.calls == ["prepare", "spawner"]


def test_play_to_the_end_plays_then_flushes() -> None:
    run = FakeRun()
    ended = play_to_the_end(run)
    assert run.calls == ["play", "finish"]
    assert (ended.summary, ended.failure, ended.signal_number) == ({"interrupted": False}, None, None)


@pytest.mark.parametrize(("error", "line"), [
    (ResourceError("out of file descriptors"), "out of file descriptors"),
    (KeyError("seat"), "KeyError: 'seat'"),
])
def test_a_failure_in_play_still_flushes_and_is_one_line(error: BaseException, line: str) -> None:
    run = FakeRun(fails_with=error)
    ended = play_to_the_end(run)
    assert run.calls == ["play", "finish"]
    assert ended.failure == line


def test_the_set_up_notes_say_what_the_run_holds() -> None:
    cores = os.cpu_count() or 1
    run = FakeRun(field_change=Change(), concurrency=cores + 1, concurrency_note="capped at 4", backend=Backend())
    assert set_up_notes(run, local=True, isolation_note="bots run unprotected") == [
        "field: b changed (version 2)", "warning: bots run unprotected", "note: capped at 4", "note: ray: 2 nodes",
        (f"note: concurrency {cores + 1} is above the {cores} cores: bots thinking at the same time share "
        "cores while their clocks run")]
    assert set_up_notes(FakeRun(field_change=Change(changed=False), concurrency=cores + 1), local=False,
                        isolation_note=None) == []
