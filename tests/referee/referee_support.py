"""Helpers of the external rules tests: where the referees are (a module name of its own, because
`from conftest import ...` is ambiguous when several test folders have a conftest)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NIM = ROOT / "examples" / "referees" / "nim.py"
HOSTILE = ROOT / "tests" / "referees" / "hostile.py"


def hostile_argv(mode: str, at: int, *extra: str) -> list[str]:
    """The hostile referee: Nim until request ``at``, then ``mode`` (tests/referees/hostile.py); the
    folder of nim.py named on its command line, so that a confined referee is shown it."""
    return [sys.executable, str(HOSTILE), mode, str(at), *extra, "--nim", str(NIM.parent)]
