"""Fixtures for the tests of `arena serve`: a real tiny tournament's log folder."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import trio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))
from tournament_support import TEST_BOT, shobu_config

from arena.tournament.config import load_config
from arena.tournament.runner import RunOptions, run_tournament


@pytest.fixture(scope="session")
def played_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Shobu round robin of three test bots (6 short games; b2 crashes on its 2nd move), played once."""
    root = tmp_path_factory.mktemp("served")
    bot = root / "testbot.py"
    bot.write_text(TEST_BOT)
    config_path = shobu_config(root, bot, gamesPerPair=2)
    text = config_path.read_text().replace(f"{bot} --seed 2", f"{bot} --seed 2 --crash-at 2")
    config_path.write_text(text)
    summary = trio.run(run_tournament, load_config(config_path),
                       RunOptions(logs_root=root / "logs", concurrency=2, stats_worker=False, bootstrap_samples=20))
    assert summary.finished == 6
    return summary.folder


@pytest.fixture
def played(played_once: Path, tmp_path: Path) -> Path:
    """A copy of the played folder the test may change."""
    return Path(shutil.copytree(played_once, tmp_path / "t", symlinks=True))
