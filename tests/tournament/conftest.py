"""Fixtures for the tournament tests (helpers live in tournament_support.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tournament_support import TEST_BOT


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "testbot.py"
    path.write_text(TEST_BOT)
    return path
