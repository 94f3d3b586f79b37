"""The rules of every game arena knows, behind one forward-model interface (standard library only)."""

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

GAME_NAMES = ("shobu", "checkers")

_cache: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The rules object for ``name`` (``"shobu"`` or ``"checkers"``); GameError for anything else."""
    if name not in _cache:
        if name == "shobu":
            from arena.games.shobu import ShobuGame

            _cache[name] = ShobuGame()
        elif name == "checkers":
            from arena.games.checkers import CheckersGame

            _cache[name] = CheckersGame()
        else:
            raise GameError(f"unknown game {name!r}: expected one of {', '.join(GAME_NAMES)}")
    return _cache[name]


__all__ = [
    "ArenaError",
    "Color",
    "Game",
    "GameError",
    "GAME_NAMES",
    "IllegalMoveError",
    "MoveSyntaxError",
    "Outcome",
    "StateError",
    "Termination",
    "get_game",
    "random_opening",
]
