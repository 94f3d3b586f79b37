"""Every registered game of the general model passes the conformance check for 2, 3 and 4 players
(arena.games.table_conformance): observations, chance, simultaneous moves, returns, replay."""

from __future__ import annotations

import pytest

from arena.games.registry import get_spec, table_game_names
from arena.games.table_conformance import check_table_spec


@pytest.mark.parametrize("name", table_game_names())
def test_the_game_conforms(name: str) -> None:
    assert check_table_spec(get_spec(name), games=20).endswith(": ok")


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "love_letter"])
def test_a_game_that_shows_other_hands_fails_the_leak_check(name: str) -> None:
    """The hidden-information games give variants, so a leak cannot pass unseen."""
    from arena.games.registry import load_ref
    from arena.games.table_conformance import TableConformanceError, check_table_game

    rules = load_ref(get_spec(name).rules)

    class Leaky(rules):  # type: ignore[misc, valid-type]
        def observation(self, state, seat):  # type: ignore[no-untyped-def]
            return {**super().observation(state, seat), "everything": self.state_to_json(state)}

    with pytest.raises(TableConformanceError, match="changes with what it may not see"):
        check_table_game(lambda n: Leaky(n), [3], games=5)
