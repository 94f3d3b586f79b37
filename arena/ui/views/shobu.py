"""Shobu at the terminal: the four framed boards, the push note, the grouped move list, the help."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.text import Text

from arena.games.model import GeneralGame
from arena.ui.boards import shobu_board, shobu_push
from arena.ui.views import AnyGame, GameView

#: A seat's stones: seat 0 is BLACK.
SEAT_GLYPHS = ("●", "○")


class ShobuView(GameView):
    unit = "turn"

    def board(self, game: AnyGame, state: Any, last_move: Any = None, previous: Any = None,
              seat: int | None = None) -> Text:
        return shobu_board(state, last_move, previous)

    def legend(self, game: AnyGame) -> Text:
        return Text("● black  ○ white  [●] last move landed  ◌ it came from  {○} pushed  × pushed off",
                    style="dim")

    def last_move_note(self, game: GeneralGame[Any, Any], previous: Any, state: Any, mover: int) -> str:
        push = shobu_push(previous, state)
        if push is None:
            return ""
        (fx, fy), target = push
        glyph = SEAT_GLYPHS[1 - mover]
        if target is None:
            return f", pushing your {glyph} at {fx}{fy} off the board"
        return f", pushing your {glyph} from {fx}{fy} to {target[0]}{target[1]}"

    def matches_piece(self, game: GeneralGame[Any, Any], move: Any, piece: str) -> bool:
        named = piece.replace(",", "").replace(" ", "")
        return named in (f"{move.passive_origin[0]}{move.passive_origin[1]}",
                         f"{move.aggressive_origin[0]}{move.aggressive_origin[1]}")

    def listing(self, game: GeneralGame[Any, Any], moves: list[Any]) -> RenderableType:
        """Shobu's (often 100+) turns grouped by passive stone and direction, with the aggressive
        stones that may follow."""
        if not moves:
            return Text("No legal move.", style="yellow")
        groups: dict[tuple[str, str], list[str]] = {}
        for move in moves:
            passive, aggressive, direction = game.describe_move(move).split()
            groups.setdefault((passive, direction), []).append(aggressive)
        text = Text(f"{len(moves)} legal turns", style="bold")
        text.append(" by passive stone and direction, then the aggressive stones that can follow"
                    " ('07 N: 43' is typed 07 43 N):", style="dim")
        width = max(len(f"{p} {d}:") for p, d in groups)
        entries = [
            Text.assemble((f"{f'{passive} {direction}:':<{width}} ", "cyan"), " ".join(aggressives))
            # Stable sort: each passive stone's directions together, in the rules' heading order.
            for (passive, direction), aggressives in sorted(groups.items(), key=lambda item: item[0][0])
        ]
        return Group(text, Columns(entries, padding=(0, 3), column_first=True))

    def help_points(self, game: GeneralGame[Any, Any], seat: int) -> tuple[str, list[str]]:
        home = "bottom" if seat == 0 else "top"
        return "A turn is written  <passive stone> <aggressive stone> <direction>[2]", [
            ("A stone is two digits xy: x = column 0-7 (left to right), y = row 0-7 (top to bottom),"
             " as labelled on the board."),
            ("Directions: N NE E SE S SW W NW (N is up the screen, E is right); add 2 to move two"
             " squares (e.g. NE2)."),
            (f"The passive stone is on one of your home boards (the {home} two) and may not push; the"
             " aggressive stone is on a board of the other colour (left <-> right), moves the same"
             " way and may push one enemy stone."),
            "Example: 07 43 N moves the stone at x=0,y=7 one up, then the stone at x=4,y=3 one up.",
        ]


#: The game's terminal view, as :func:`arena.ui.views.view_for` finds it.
VIEW = ShobuView
