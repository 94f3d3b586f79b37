"""Fixtures for the external rules tests: a clean pool, the example referee (helpers: referee_support.py).

Referee processes and registrations are per arena process: every test starts and ends without any
(:func:`arena.referee.registration.forget_referees`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from referee_support import NIM

from arena.referee.registration import forget_referees


@pytest.fixture(autouse=True)
def _no_referee_left() -> Iterator[None]:
    forget_referees()
    yield
    forget_referees()


@pytest.fixture
def nim_argv() -> list[str]:
    """The Nim referee (examples/referees/nim.py), run by this interpreter."""
    import sys

    return [sys.executable, str(NIM)]
