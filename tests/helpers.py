"""Helpers for every test directory (``tests/`` is on ``sys.path``: its conftest is there).

:func:`eventually` is the one way a test waits for something another process or task does: it
polls, so it is as fast as the event, and its timeout is only a hang backstop, never a speed
requirement (a busy machine must not fail a test). :func:`bench_module` loads a script of
``bench/`` that a test checks. :func:`perft_profile` counts perft by arena's convention over any
implementation's states (:func:`spiel_perft_profile`: OpenSpiel's). :func:`fake_distribution`
writes what ``pip install`` of a plugin would leave, for tests of entry-point groups.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import trio

T = TypeVar("T")

#: How long :func:`eventually` waits by default: far longer than anything takes on a busy machine.
BACKSTOP_S = 180.0


def eventually(predicate: Callable[[], T], timeout: float = BACKSTOP_S, *, what: str | None = None,
               pause: float = 0.01) -> T:
    """``predicate()``'s first truthy value, polling every ``pause`` seconds; AssertionError
    (naming ``what``) if it is still falsy after ``timeout`` seconds. An exception from
    ``predicate`` (e.g. an assertion that the process under test is still running) propagates."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what or getattr(predicate, '__name__', 'predicate')}")
        time.sleep(pause)


async def eventually_async(predicate: Callable[[], T], *, pause: float = 0.01) -> T:
    """:func:`eventually` inside trio, under the caller's ``trio.fail_after`` (the backstop):
    waits with ``trio.sleep``, so other tasks run meanwhile."""
    while not (value := predicate()):  # noqa: ASYNC110 (polls what another process does: no event to wait on)
        await trio.sleep(pause)
    return value


def fake_distribution(site: Path, name: str, entry_points: str, modules: dict[str, str] | None = None) -> Path:
    """``site`` (created) holding what installing the distribution ``name`` would leave, as
    :mod:`importlib.metadata` reads it: ``NAME-0.1.0.dist-info`` with ``METADATA`` and
    ``entry_points.txt`` (``entry_points``, the ini form), and ``modules`` (file name -> source)
    beside it. Put ``site`` on ``sys.path`` to install it."""
    dist = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(entry_points)
    for file, source in (modules or {}).items():
        (site / file).write_text(source)
    return site


@contextlib.contextmanager
def installed_plugin(monkeypatch: Any, site: Path, seam: Any, name: str, entry_points: str,
                     modules: dict[str, str]) -> Iterator[Path]:
    """The distribution ``name`` (:func:`fake_distribution` in ``site``) installed, ``seam`` (an
    :class:`arena.plugins.Seam`) scanned afresh; on exit uninstalled, scanned again and its modules
    forgotten."""
    fake_distribution(site, name, entry_points, modules)
    monkeypatch.syspath_prepend(str(site))
    seam.reload()
    try:
        yield site
    finally:
        monkeypatch.undo()
        seam.reload()
        for file in modules:
            sys.modules.pop(Path(file).stem, None)


def own_entry_points(group: str) -> dict[str, str]:
    """arena's own entry points of ``group`` as its pyproject.toml declares them, after checking that
    the installed metadata has each, from arena's distribution (a plugin's are found the same way)."""
    import tomllib
    from importlib.metadata import entry_points

    root = Path(__file__).resolve().parents[1]
    declared: dict[str, str] = tomllib.loads((root / "pyproject.toml").read_text())["project"]["entry-points"][group]
    installed = {e.name: (e.value, e.dist.name if e.dist else None) for e in entry_points(group=group)}
    for name, value in declared.items():
        assert installed.get(name) == (value, "arena-bots"), f"{group} {name}: reinstall arena (pip install -e .)"
    return declared


def bench_module(name: str) -> ModuleType:
    """``bench/<name>.py``, loaded by path (``bench/`` is not a package)."""
    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def perft_profile(state: Any, depth: int, children: Callable[[Any], Sequence[Any]],
                  terminal: Callable[[Any], bool]) -> list[int]:
    """Perft at every depth 1..``depth`` in one walk, by arena's convention (chess's: a game that
    ended before a depth contributes nothing to it); ``children`` and ``terminal`` make it walk any
    implementation (:func:`spiel_children` for OpenSpiel's states)."""
    counts = [0] * (depth + 1)

    def visit(node: Any, level: int) -> None:
        counts[level] += 1
        if level < depth and not terminal(node):
            for child in children(node):
                visit(child, level + 1)

    visit(state, 0)
    return counts[1:]


def spiel_children(state: Any) -> list[Any]:
    """An OpenSpiel state's children as arena's perft counts them: one per chance outcome (whatever
    its probability), per action of the player to move, or per flat joint action of a simultaneous
    node."""
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    return [state.child(action) for action in actions]


def spiel_perft_profile(state: Any, depth: int) -> list[int]:
    """:func:`perft_profile` of an OpenSpiel state."""
    return perft_profile(state, depth, spiel_children, lambda s: s.is_terminal())


def as_format_1(record: dict[str, Any]) -> dict[str, Any]:
    """A format-4 ``record`` of two colours as arena wrote it before complete records (format 1):
    no opening plies in turns (its states start after them), the game's bare turn objects,
    ``plies`` counting the bots' moves only, clocks by colour, and none of format 4's fields in
    seats."""
    from arena.games.registry import get_game
    from arena.records.format import turn_move

    game = get_game(record["game"])
    opening = sum(1 for t in record["turns"] if t["opening"])
    old = {k: v for k, v in record.items() if k not in (
        "record_format", "seats", "steps", "ranks", "returns", "eliminations", "game_identity")}
    old["turns"] = [game.move_to_record(turn_move(game, t)) for t in record["turns"][opening:]]
    old["game_states"] = record["game_states"][opening:]
    old["plies"] = len(old["turns"])
    old["clocks_left_ms"] = dict(zip(("BLACK", "WHITE"), record["clocks_left_ms"], strict=True))
    for key in ("stderr_logs", "stderr_tail"):
        if key in old:
            old[key] = {("BLACK", "WHITE")[int(seat)]: value for seat, value in old[key].items()}
    return old
