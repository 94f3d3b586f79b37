"""Builds the example referees once per session (their Makefiles, into build/referees/).

A missing toolchain skips the tests that need it, loudly: CI (.ci/run) installs gcc, make and a
JDK, so there they always run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.referees.driver import build


def _built(example: str, tools: tuple[str, ...], install: str) -> Path:
    try:
        return build(example, tools)
    except LookupError as missing:
        pytest.skip(f"SKIPPED LOUDLY: `{missing}` is not installed, so examples/referees/{example} is NOT"
                    f" built or tested. Install it (Debian: `apt-get install -y {install}`; .ci/run does"
                    " this as root) and run again.")


@pytest.fixture(scope="session")
def breakthrough_command() -> list[str]:
    """The command that runs the C Breakthrough referee."""
    return [str(_built("breakthrough-c", ("cc",), "gcc make") / "breakthrough-referee")]


@pytest.fixture(scope="session")
def othello_command() -> list[str]:
    """The command that runs the Java Othello referee."""
    folder = _built("othello-java", ("javac", "java"), "default-jdk-headless make")
    return ["java", "-cp", str(folder), "OthelloReferee"]
