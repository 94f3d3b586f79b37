"""The rules of every game arena knows, behind one forward-model interface (standard library only).

May import: the standard library and :mod:`arena.limits` only (a test enforces it).
"""

from __future__ import annotations

from arena.games.base import (
    ArenaError,
    Color,
    Game,
    GameError,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    StateError,
    Termination,
    random_opening,
)


def get_game(name: str) -> Game:
    """The rules object of the registered game ``name``; GameError for an unknown or broken game
    (see :mod:`arena.games.registry`)."""
    from arena.games.registry import get_game as registry_get_game

    return registry_get_game(name)


def game_names() -> tuple[str, ...]:
    """Every usable game's name (arena's own, then plugins)."""
    from arena.games.registry import game_names as registry_game_names

    return registry_game_names()


__all__ = [
    "ArenaError",
    "Color",
    "Game",
    "GameError",
    "IllegalMoveError",
    "MoveSyntaxError",
    "Outcome",
    "StateError",
    "Termination",
    "game_names",
    "get_game",
    "random_opening",
]
