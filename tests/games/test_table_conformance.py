"""Every registered game of the general model passes the conformance check for 2, 3 and 4 players
(arena.games.table_conformance): observations, chance, simultaneous moves, returns, replay."""

from __future__ import annotations

import pytest

from arena.games.registry import get_spec, table_game_names
from arena.games.table_conformance import check_table_spec


@pytest.mark.parametrize("name", table_game_names())
def test_the_game_conforms(name: str) -> None:
    assert check_table_spec(get_spec(name), games=40).endswith(": ok")
