"""The rules package stands on the standard library alone (style.md, habit 1)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from arena.games import GAME_NAMES


@pytest.mark.parametrize("game", GAME_NAMES)
def test_games_import_only_the_standard_library(game: str) -> None:
    code = f"""
import sys
import arena.games
from arena.games import get_game
g = get_game({game!r})
s = g.initial_state()
g.legal_moves(s)
banned = sorted(m for m in sys.modules if m.split('.')[0] in {{'trio', 'click', 'rich', 'orjson', 'outcome', 'sniffio'}})
print(','.join(banned))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"arena.games loaded {out.stdout.strip()}"
