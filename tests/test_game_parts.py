"""A game's parts above the rules are found by the layers that own them (issue 35): the dialects'
two sides by name, arena's own games' search adapters and terminal views in their folders, and a
plugin's own parts from its spec, which win."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arena.agents.parts import BOT_SIDES, bot_side_ref, search_ref
from arena.agents.search_bot import serve_protocol
from arena.errors import ConfigError
from arena.games import registry
from arena.protocols import DIALECTS, Protocol, protocol_for
from arena.ui.views import GameView, view_for


def test_every_dialect_has_both_sides_and_they_load() -> None:
    assert set(DIALECTS) == set(BOT_SIDES) == set(registry.DIALECTS)
    for name in registry.DIALECTS:
        arena_side = registry.load_ref(DIALECTS[name])
        assert issubclass(arena_side, Protocol) and arena_side.name == name
        assert callable(registry.load_ref(BOT_SIDES[name]))


@pytest.mark.parametrize("name", registry.BUILTIN_GAMES)
def test_arena_s_own_games_find_their_parts(name: str) -> None:
    spec = registry.get_spec(name)
    assert spec.search is None and spec.view is None and spec.bot_side is None  # the rules name none
    assert spec.protocol in registry.DIALECTS
    assert protocol_for(name).name == spec.protocol
    assert bot_side_ref(spec) == BOT_SIDES[spec.protocol]
    adapter = search_ref(spec)
    # Every two-player game of arena's own has an evaluation for alpha-beta; no game of seats does.
    assert (adapter is not None) == (spec.model == registry.TWO_PLAYER)
    if adapter is not None:
        assert isinstance(registry.load_ref(adapter).DEFAULT_WEIGHTS, dict)


def test_the_terminal_views_of_arena_s_own_games() -> None:
    views = {name: type(view_for(registry.get_game(name))) for name in registry.game_names()
             if name in registry.BUILTIN_GAMES}
    special = {name for name, kind in views.items() if kind is not GameView}
    assert special == {registry.DEFAULT_MATCH_GAME, registry.DEFAULT_CONFIG_GAME}  # Shobu's and checkers'
    assert all(issubclass(kind, GameView) for kind in views.values())


def test_a_plugin_s_own_parts_win_and_a_name_outside_arena_finds_none() -> None:
    spec = registry.get_spec(registry.DEFAULT_MATCH_GAME)
    plugin = replace(spec, name="plugin_game", search="plugin_pkg.search:Adapter", bot_side="plugin_pkg.bot:serve")
    assert search_ref(plugin) == "plugin_pkg.search:Adapter" and bot_side_ref(plugin) == "plugin_pkg.bot:serve"
    bare = replace(spec, name="plugin_game", protocol="plugin_pkg.proto:Dialect")
    assert search_ref(bare) is None and bot_side_ref(bare) is None  # eval_plugin_game is not looked for
    with pytest.raises(ConfigError, match="names no bot side"):
        serve_protocol(bare, lambda request: None, name="bot")
    assert registry.own_part("plugin_game", "arena.agents.eval_shobu", "ADAPTER") is None
    assert registry.own_part(spec.name, "arena.agents.no_such_module", "ADAPTER") is None
