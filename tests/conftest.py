"""Settings for the whole test suite.

Every record arena builds while the tests run is validated against ``schemas/record.schema.json``
(:func:`arena.records.format.validate_record`): set here, at import, in ``os.environ``, so arena processes
the tests start (``arena match``, ``arena run`` in a subprocess) inherit it too. Hypothesis runs
under one profile, ``arena``, with no time-based checks. Under PYTHONDONTWRITEBYTECODE, the rewritten
test modules are cached in .pytest_cache/pycache (nothing beside the sources).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from arena.records.format import VALIDATE_ENV
from arena.tournament import runner
from arena.tournament.concurrency import local_workers

os.environ[VALIDATE_ENV] = "1"

# Property tests judge the code, not the machine: no per-example deadline and no "generation is
# slow" failure, both of which trip only when the machine is busy. Per-test settings inherit these.
settings.register_profile("arena", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("arena")

if sys.dont_write_bytecode:
    # PYTHONDONTWRITEBYTECODE also stops pytest from caching the test modules it rewrites for
    # assertions, so every xdist worker rewrote all of them on every run (about 9 s of CPU each on
    # this machine, of 12 s to collect). The bytecode goes to one folder of pytest's cache instead:
    # still nothing beside the sources, as the variable asks. (Set here, before any test module is
    # imported; the processes the tests start inherit the variable, not this.)
    sys.pycache_prefix = str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    """Bots run as users of their own, with a private /tmp: test folders (their scripts, and the
    files some write) live in the checkout instead of /tmp, one folder per session, removed after."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        base = Path(str(config.rootpath)) / ".pytest-tmp" / f"session-{os.getpid()}"
        base.parent.mkdir(mode=0o755, exist_ok=True)
        config.option.basetemp = str(base)
        config.add_cleanup(lambda: shutil.rmtree(base, ignore_errors=True))


def _open_to_bots(path: Path) -> None:
    """Bots run as users of their own: a test's folder (pytest makes it mode 0700) must be
    readable by them, as a user's bot folder is, and so must the folders above it."""
    for folder in (path, *path.parents):
        if folder.name == ".pytest-tmp":
            break
        if folder.stat().st_mode & 0o005 != 0o005:
            folder.chmod(0o755)


@pytest.fixture(autouse=True)
def _bots_may_read_test_folders(request: pytest.FixtureRequest) -> None:
    """A test's ``tmp_path`` is open to the bots' users (:func:`_open_to_bots`)."""
    if "tmp_path" in request.fixturenames:
        _open_to_bots(Path(request.getfixturevalue("tmp_path")))


@pytest.fixture(scope="session", autouse=True)
def _bots_may_read_factory_folders(tmp_path_factory: pytest.TempPathFactory) -> None:
    """So is every folder a module's fixture makes with ``tmp_path_factory.mktemp`` (without this, a
    module whose fixture ran first on a pytest-xdist worker found the worker's folder still 0700)."""
    make = tmp_path_factory.mktemp

    def mktemp(basename: str, numbered: bool = True) -> Path:
        path = make(basename, numbered)
        _open_to_bots(path)
        return path

    tmp_path_factory.mktemp = mktemp  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def _games_in_this_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament run in the test's own process plays its games there, as at ``-j 1``, unless
    the test asks for worker processes (``workers`` given, or the ``workers`` marker). Each worker
    is a fresh interpreter that imports arena (about 0.35 s of CPU): 174 of them were 61 of the
    224 CPU seconds of tests/tournament, whose tests are about schedules, logs and resumes, not
    about where a game is played. The pool has tests of its own (tests/backends/test_pool.py), and
    ``arena run`` started as a command (the docs' examples, the signal tests) still uses it."""
    if request.node.get_closest_marker("workers") is None:
        monkeypatch.setattr(runner, "local_workers",
                            lambda asked, concurrency: 0 if asked is None else local_workers(asked, concurrency))


#: Folders (and files) whose tests are ``slow``: real Ray clusters, Chromium, hostile bots, the starter
#: kits' compilers. ``make test`` runs them; ``make test-quick`` (``pytest -m 'not slow'``) leaves them out.
SLOW_PARTS = ("tests/ray/", "tests/hostile/", "tests/kits/", "tests/serve/test_serve_browser.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the tests under :data:`SLOW_PARTS` ``slow``."""
    root = Path(str(config.rootpath))
    for item in items:
        where = Path(str(item.path)).relative_to(root).as_posix() if Path(str(item.path)).is_relative_to(root) else ""
        if where.startswith(SLOW_PARTS):
            item.add_marker(pytest.mark.slow)
