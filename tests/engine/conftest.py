"""Fixtures for the engine tests (helpers live in engine_support.py: a module name of its own,
because `from conftest import ...` is ambiguous when several test folders have a conftest)."""

from __future__ import annotations

import uuid

import pytest


@pytest.fixture
def marker() -> str:
    return f"arena-test-{uuid.uuid4().hex}"
