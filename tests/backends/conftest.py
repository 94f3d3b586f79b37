"""Fixtures for the backend tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tournament"))

from tournament_support import TEST_BOT


@pytest.fixture
def bot_file(tmp_path: Path) -> Path:
    path = tmp_path / "testbot.py"
    path.write_text(TEST_BOT)
    return path
