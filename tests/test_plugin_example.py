"""The example plugin (examples/arena-tictactoe) is found through its entry point, without pip.

An installed distribution is, to :mod:`importlib.metadata`, a ``*.dist-info`` folder on
``sys.path`` holding ``METADATA`` and ``entry_points.txt``. The tests build such a folder in a
temporary directory (what ``pip install`` would write, plus two broken plugins), put it and the
example's source on the path, and check that the registry, the CLI and the conformance check see
the game, and that the broken plugins are reported in one line each without hiding any game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.games import registry
from arena.games.conformance import check_spec
from tests.helpers import fake_distribution

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "arena-tictactoe"
BOT = EXAMPLE / "bots" / "tictactoe_random.py"
#: What the example's pyproject.toml declares, plus two plugins that cannot load.
ENTRY_POINTS = """\
[arena.games]
tictactoe = arena_tictactoe:SPEC
ghost = arena_no_such_plugin_module:SPEC
notaspec = arena_tictactoe.rules:TicTacToe
"""


def fake_site(root: Path) -> Path:
    """A folder holding the ``dist-info`` an installation of the example would leave."""
    return fake_distribution(root, "arena-tictactoe", ENTRY_POINTS)


@pytest.fixture
def plugin_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The example importable and its entry points visible, with a fresh registry; undone after."""
    site = fake_site(tmp_path / "site")
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.syspath_prepend(str(site))
    # The registry loads once per process: start from empty so it scans the entry points again.
    registry.reload()
    yield site
    monkeypatch.undo()  # the entry points gone from sys.path before the registry scans again
    registry.reload()
    for name in [m for m in sys.modules if m == "arena_tictactoe" or m.startswith("arena_tictactoe.")]:
        del sys.modules[name]


def subprocess_env(site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(EXAMPLE), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # leave no __pycache__ in the example's folder
    return env


def test_entry_point_makes_the_game_known(plugin_on_path: Path) -> None:
    names = registry.game_names()
    assert "tictactoe" in names
    assert set(registry.BUILTIN_GAMES) <= set(registry.all_game_names()), "a plugin never hides arena's own games"
    every = registry.all_game_names()
    assert every[: len(registry.BUILTIN_GAMES)] == tuple(registry.BUILTIN_GAMES), "arena's own first"
    spec = registry.get_spec("tictactoe")
    assert spec.origin == "arena-tictactoe"
    assert registry.get_game("tictactoe").name == "tictactoe"
    report = check_spec(spec, games=100)
    assert report.endings.get("win") and report.endings.get("draw")


def test_broken_plugins_are_reported_in_one_line(plugin_on_path: Path) -> None:
    problems = registry.problems()
    assert "No module named 'arena_no_such_plugin_module'" in problems["ghost"]
    assert "is not an arena.games.registry.GameSpec" in problems["notaspec"]
    assert all("\n" not in why for why in problems.values())
    assert "ghost" not in registry.game_names() and "notaspec" not in registry.game_names()
    with pytest.raises(registry.GameError, match="game 'ghost' cannot be used: plugin 'ghost'"):
        registry.get_spec("ghost")


def test_the_cli_lists_and_plays_the_plugin(tmp_path: Path) -> None:
    env = subprocess_env(fake_site(tmp_path / "site"))
    listed = subprocess.run([sys.executable, "-m", "arena", "games"], check=False, env=env,
                            capture_output=True, text=True, timeout=120)  # a hang backstop, not a speed limit
    assert "tictactoe" in listed.stdout and "arena-tictactoe" in listed.stdout, listed.stderr
    assert "ghost" in listed.stderr and "Traceback" not in listed.stderr
    bot = f'"{sys.executable}" "{BOT}"'
    played = subprocess.run([sys.executable, "-m", "arena", "match", "--game", "tictactoe", "--games", "2", "-q",
                             f"{bot} --seed 1", f"{bot} --seed 2"],
                            check=False, env=env, capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    records = json.loads(played.stdout)
    assert len(records) == 2
    for record in records:
        assert record["termination"] in ("win", "draw"), record
        assert 5 <= len(record["turns"]) <= 9


def test_the_examples_own_tests_pass(tmp_path: Path) -> None:
    env = subprocess_env(fake_site(tmp_path / "site"))  # the entry-point test in there runs too
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                            check=False, cwd=EXAMPLE, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout, result.stdout[-2000:]
