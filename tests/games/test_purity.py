"""The rules package stands on the standard library alone (style.md, habit 1)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from arena.games.registry import BUILTIN_GAMES, game_names


@pytest.mark.parametrize("game", game_names())
def test_games_import_only_the_standard_library(game: str) -> None:
    code = f"""
import sys
import arena.games
from arena.games import get_game
g = get_game({game!r})
s = g.initial_state()
g.legal_moves(s)
g.describe_move(g.legal_moves(s)[0])
from arena.games.registry import get_spec, load_ref
spec = get_spec({game!r})
if spec.svg:
    load_ref(spec.svg)(s)
banned = sorted(m for m in sys.modules if m.split('.')[0] in {{'trio', 'click', 'rich', 'orjson', 'outcome', 'sniffio'}})
print(','.join(banned))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"arena.games loaded {out.stdout.strip()}"


def test_every_builtin_game_is_usable() -> None:
    """A built-in game whose module fails to import would silently vanish from the registry."""
    from arena.games.registry import all_game_names, problems

    assert set(all_game_names()) == set(BUILTIN_GAMES), problems()
