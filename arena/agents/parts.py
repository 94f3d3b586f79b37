"""The agents' parts of a game: the search adapter that lets arena's alpha-beta and MCTS agents play
it on its own evaluation, and the bot side of its wire dialect. This layer owns them; the rules
layer names none.

- arena's own games: the search adapter of game ``G`` is ``ADAPTER`` in ``arena/agents/eval_G.py``,
  where that module exists (a game without one is played by MCTS on the rules alone); the bot side
  of each dialect is in :data:`BOT_SIDES`, by the dialect's name.
- a plugin game gives its own in its :class:`arena.games.registry.GameSpec` (``search``,
  ``bot_side``), which win over these (docs/plugins.md).

Both are ``"module:attr"`` references, loaded with :func:`arena.games.registry.load_ref` when used.
"""

from __future__ import annotations

from arena.games.registry import GameSpec, own_part

#: The bot side of each wire dialect (:data:`arena.games.registry.DIALECTS`) for arena's own agents:
#: ``function(game, choose, *, name) -> int`` of :mod:`arena.agents.protocol_io`.
BOT_SIDES: dict[str, str] = {
    "json": "arena.agents.protocol_io:serve_json",
    "shobu-json": "arena.agents.protocol_io:serve_json",
    "checkers-lines": "arena.agents.protocol_io:serve_checkers",
    "json-seats": "arena.agents.protocol_io:serve_json",
}


def search_ref(spec: GameSpec) -> str | None:
    """``"module:Class"`` of the search adapter of game ``spec``: the spec's own (a plugin's), else
    arena's ``arena.agents.eval_<name>:ADAPTER`` for one of arena's own games; None when it has none."""
    return spec.search or own_part(spec.name, f"arena.agents.eval_{spec.name}", "ADAPTER")


def bot_side_ref(spec: GameSpec) -> str | None:
    """``"module:function"`` of the bot side of game ``spec``'s protocol for arena's own agents: the
    spec's own (a plugin's custom protocol), else its dialect's; None for a custom protocol without one."""
    return spec.bot_side or BOT_SIDES.get(spec.protocol)


__all__ = ["BOT_SIDES", "bot_side_ref", "search_ref"]
