"""Settings for the whole test suite.

Every record arena builds while the tests run is validated against ``schemas/record.schema.json``
(:func:`arena.records.validate_record`): set here, at import, in ``os.environ``, so arena processes
the tests start (``arena match``, ``arena run`` in a subprocess) inherit it too.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from arena.records import VALIDATE_ENV

os.environ[VALIDATE_ENV] = "1"


def pytest_configure(config: pytest.Config) -> None:
    """Bots run as users of their own, with a private /tmp: test folders (their scripts, and the
    files some write) live in the checkout instead of /tmp, one folder per session, removed after."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        base = Path(str(config.rootpath)) / ".pytest-tmp" / f"session-{os.getpid()}"
        base.parent.mkdir(mode=0o755, exist_ok=True)
        config.option.basetemp = str(base)
        config.add_cleanup(lambda: shutil.rmtree(base, ignore_errors=True))

