"""Fixtures for the hostile-bot tests (helpers live in hostile_support.py; the engine's in
tests/engine/engine_support.py, put on the path here)."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

_ENGINE_TESTS = str(Path(__file__).resolve().parents[1] / "engine")
if _ENGINE_TESTS not in sys.path:
    sys.path.insert(0, _ENGINE_TESTS)


@pytest.fixture
def marker() -> str:
    return f"arena-hostile-{uuid.uuid4().hex}"


@pytest.fixture
def public_dir(marker: str) -> Iterator[Path]:
    """A folder every user may enter (bots may run under a uid of their own), removed after."""
    from hostile_support import public_folder

    with public_folder(marker) as path:
        yield path
