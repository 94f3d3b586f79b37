"""Golden playthroughs (tests/golden/playthroughs.py says what they hold and what is normalised):
each game's fixed-seed match and perft counts, played again now, must equal the stored files byte
for byte. They show that a change alters nothing a user sees, or exactly what it meant to.

Nothing compared depends on timing: clock readings, durations, timestamps and CPU times are blanked,
and every bot is seeded. A failure prints a diff of the file; if the change is meant, rewrite the
files and review their diff::

    .venv/bin/python -m tests.golden.playthroughs [CASE ...] [--perft]

A case whose toolchain (cc, javac, OpenSpiel) is missing is skipped, saying what to install.
"""

from __future__ import annotations

import difflib

import pytest

from tests.golden.playthroughs import CASES, Case, Missing, golden_path, produce


@pytest.mark.parametrize("kind", ["match", "perft"])
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_playthrough_equals_its_golden_file(case: Case, kind: str) -> None:
    path = golden_path(case, kind)
    assert path.is_file(), f"{path} is missing: python -m tests.golden.playthroughs {case.name}"
    try:
        now = produce(case, kind)
    except Missing as missing:
        pytest.skip(f"SKIPPED LOUDLY: {missing}; the golden {kind} of {case.name} is NOT checked")
    stored = path.read_text(encoding="utf-8")
    if now != stored:
        diff = "".join(difflib.unified_diff(stored.splitlines(True), now.splitlines(True), str(path), "now", n=2))
        pytest.fail(f"{case.name} {kind} differs from {path.name} (regenerate only if meant: "
                    f"python -m tests.golden.playthroughs {case.name}):\n{diff[:6000]}")


def test_every_game_arena_lists_has_a_golden_case() -> None:
    """A game added to arena (built in) without a golden playthrough fails here."""
    from arena.games.registry import BUILTIN_GAMES

    covered = {arg for case in CASES for i, arg in enumerate(case.game) if i and case.game[i - 1] == "--game"}
    assert set(BUILTIN_GAMES) <= covered, sorted(set(BUILTIN_GAMES) - covered)
