"""Run backends are the ``arena.backends`` entry-point group: arena's own (local, ray) are registered
there by arena's pyproject.toml exactly as a plugin's are, a plugin's backend is found through an
installed distribution's entry point and plays a tournament from the CLI, and names that are not
backends, clashes and broken plugins are one line each."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from tournament_support import read_jsonl, shobu_config

from arena.backends import BACKEND_SEAM, BackendOptions, backend_names, make_backend
from arena.backends.local import LocalBackend
from arena.cli import cli
from arena.errors import ConfigError
from arena.tournament.config import load_config
from tests.helpers import installed_plugin, own_entry_points

REPO = Path(__file__).resolve().parents[2]

#: A third party's backend: docs/extending.md's example, as written there.
PLUGIN = re.search(r"```python\n# arena_counting_backend.py\n(.*?)```", (REPO / "docs" / "extending.md").read_text(),
                   re.DOTALL).group(1)  # type: ignore[union-attr]
ENTRY_POINTS = """\
[arena.backends]
counting = arena_counting_backend:CountingBackend
local = arena_counting_backend:CountingBackend
broken = arena_counting_backend:no_such_factory
notcallable = arena_counting_backend:__doc__
"""


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The counting backend installed (a dist-info on sys.path), the seam scanned afresh; undone after."""
    with installed_plugin(monkeypatch, tmp_path / "site", BACKEND_SEAM, "arena-counting-backend", ENTRY_POINTS,
                          {"arena_counting_backend.py": PLUGIN}) as site:
        yield site


def test_arena_own_backends_are_entry_points_of_its_distribution() -> None:
    assert set(own_entry_points("arena.backends")) == {"local", "ray"}
    assert backend_names()[:2] == ("local", "ray")
    assert all(part.own for part in BACKEND_SEAM.parts().values())
    assert type(make_backend()) is LocalBackend and make_backend(BackendOptions(workers=3)).workers == 3  # type: ignore[attr-defined]
    assert type(make_backend(BackendOptions(kind="ray"))).__name__ == "RayBackend"


def test_stale_metadata_reads_the_checkouts_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install made before the group existed: arena's own parts from pyproject.toml."""
    import arena.plugins

    monkeypatch.setattr(arena.plugins, "_entry_points", lambda group: [])
    BACKEND_SEAM.reload()
    try:
        assert backend_names() == ("local", "ray")
        assert type(make_backend()) is LocalBackend
    finally:
        monkeypatch.undo()
        BACKEND_SEAM.reload()


def test_an_unknown_backend_is_one_line_listing_the_known(tmp_path: Path, bot_file: Path) -> None:
    with pytest.raises(ConfigError, match=r"^backend: 'spark' is not one of local, ray$"):
        make_backend(BackendOptions(kind="spark"))
    config = shobu_config(tmp_path, bot_file, backend="spark")
    with pytest.raises(ConfigError, match=r"^backend: 'spark' is not one of local, ray$"):
        load_config(str(config))
    result = CliRunner().invoke(cli, ["run", str(config), "--backend", "spark"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "Invalid value for '--backend': 'spark' is not one of local, ray" in result.output


def test_a_plugins_backend_plays_a_run_from_the_cli(plugin: Path, tmp_path: Path, bot_file: Path) -> None:
    assert backend_names() == ("local", "ray", "counting", "broken", "notcallable")
    assert BACKEND_SEAM.parts()["counting"].origin == "arena-counting-backend"
    config = shobu_config(tmp_path, bot_file, id="plugged", agents=2, gamesPerPair=2)
    result = CliRunner().invoke(cli, ["run", str(config), "--backend", "counting", "--concurrency", "1",
                                      "--logs", str(tmp_path / "logs")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = read_jsonl(tmp_path / "logs" / "plugged" / "games.jsonl")
    backend = BACKEND_SEAM.load("counting")(BackendOptions(kind="counting"))
    assert len(rows) == 2 and type(backend).played == 2  # type: ignore[attr-defined]
    # The config's key names it the same way.
    config.write_text(json.dumps({**json.loads(config.read_text()), "backend": "counting"}))
    assert load_config(str(config)).backend == "counting"


def test_clashes_and_broken_plugins_are_one_line_each(plugin: Path) -> None:
    problems = BACKEND_SEAM.problems()
    assert problems["local"] == ("backend 'local' (arena_counting_backend:CountingBackend, from arena-counting-backend): "
                                 "already registered by arena-bots")
    assert type(make_backend()) is LocalBackend, "a plugin never replaces arena's own backend"
    with pytest.raises(ConfigError, match=r"^backend 'broken' \(arena_counting_backend:no_such_factory, from "
                                          r"arena-counting-backend\): cannot load: AttributeError: .*no_such_factory"):
        make_backend(BackendOptions(kind="broken"))
    with pytest.raises(ConfigError, match=r"^backend 'notcallable' .*: not a callable that makes a backend"):
        make_backend(BackendOptions(kind="notcallable"))
