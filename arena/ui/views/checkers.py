"""Checkers at the terminal: the board with PDN numbers, piece filters by square number, the help."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from arena.games.model import GeneralGame
from arena.ui.boards import checkers_board
from arena.ui.views import AnyGame, GameView


class CheckersView(GameView):
    def board(self, game: AnyGame, state: Any, last_move: Any = None, previous: Any = None,
              seat: int | None = None) -> Text:
        return checkers_board(state, last_move)

    def legend(self, game: AnyGame) -> Text:
        return Text("● black  ○ white  ◉ ◎ kings  [●12] last move landed  · it came from / passed  × jumped",
                    style="dim")

    def matches_piece(self, game: GeneralGame[Any, Any], move: Any, piece: str) -> bool:
        first = game.describe_move(move).replace("x", "-").split("-")[0]
        return first == piece.strip().lstrip("0")

    def help_points(self, game: GeneralGame[Any, Any], seat: int) -> tuple[str, list[str]]:
        return "Moves use the square numbers 1-32 shown on the board.", [
            ("11-15 moves the piece on 11 to 15. 22x15x8 jumps from 22 to 15, then on to 8: list every"
             " landing square (22x8 is enough when only one capture fits)."),
            ("Captures are compulsory and a multi-jump must be finished. The protocol form 2 3 2 2 3"
             " (count, then col row pairs) works too."),
        ]


#: The game's terminal view, as :func:`arena.ui.views.view_for` finds it.
VIEW = CheckersView
