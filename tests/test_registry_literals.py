"""Everything reads the game registry: no module spells a game's name outside that game's own
modules (issue 9): its package under ``arena/games`` or a module named after it. A name is "spelled" when it appears as a quoted string literal."""

from __future__ import annotations

import re
from pathlib import Path

from arena.games.registry import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parents[1] / "arena"
REGISTRY = ROOT / "games" / "registry.py"


def test_no_game_name_literal_outside_its_own_modules() -> None:
    offenders = []
    for name in BUILTIN_GAMES:
        literal = re.compile(rf"""(["']){re.escape(name)}\1""")
        for path in sorted(ROOT.rglob("*.py")):
            if path == REGISTRY or name in path.stem or name in path.parent.name:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if literal.search(line):
                    offenders.append(f"{path.relative_to(ROOT.parent)}:{number}: {line.strip()}")
    assert not offenders, "game names outside their own modules:\n" + "\n".join(offenders)
