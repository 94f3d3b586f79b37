"""Tic-tac-toe for arena, shipped as a plugin: the model for packaging a game of your own.

arena finds this package through its entry point (``pyproject.toml``)::

    [project.entry-points."arena.games"]
    tictactoe = "arena_tictactoe:SPEC"

and reads :data:`SPEC`. Importing this module must stay cheap and standard-library only: ``arena
games`` imports it just to list the game. The parts are named as ``"module:attr"`` strings and
imported only when a command needs them (the rules for a match, the SVG for a report, the search
adapter for arena's own search agent).
"""

from __future__ import annotations

from arena.api import GameSpec

SPEC = GameSpec(
    name="tictactoe",
    title="Tic-tac-toe",
    rules="arena_tictactoe.rules:TicTacToe",
    default_max_moves=9,
    summary="3x3 noughts and crosses: X (Black) moves first, three in a row wins, a full board draws",
    # The generic JSON envelope: no protocol code here. The wire move is the cell index 0-8.
    protocol="json",
    notation="a square, files a-c, ranks 1-3 (a3 top left, c1 bottom right): b2",
    svg="arena_tictactoe.svg:board_svg",
    search="arena_tictactoe.search:TicTacToeSearch",
)

__all__ = ["SPEC"]
