"""Terminal views of the games: how a board is drawn and how a person writes a move.

This layer owns the views: one of arena's own games ``G`` has ``VIEW`` in ``arena/ui/views/G.py``
where that module exists, a plugin game may name its own :class:`GameView` subclass in its
:class:`arena.games.registry.GameSpec` (``view``); a game without either gets :class:`GameView`
itself, which works for any game:
it draws ``board_text`` (a seat's observation, when a seat is given), lists moves as
``describe_move`` writes them and reads them back with the general model's ``parse_notation``
(:class:`arena.games.model.GeneralGame`). Views return rich renderables and never print; the board
view (:mod:`arena.ui.boards`), the human player and the match and tournament displays use them.

May import: the games and rich.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from arena.games.base import Game
from arena.games.model import GeneralGame

#: A game as the views take it: the legend and boards of :mod:`arena.ui.boards` may pass a
#: two-player Game; the replay and the human player pass every game in the general model.
AnyGame = Game[Any, Any] | GeneralGame[Any, Any]


class GameView:
    """The generic view; games override what they draw or explain better. Stateless."""

    #: What one move is called at the prompt ("move"; Shobu says "turn").
    unit = "move"

    def board(self, game: AnyGame, state: Any, last_move: Any = None, previous: Any = None,
              seat: int | None = None) -> Text:
        """The board of ``state`` (as ``seat`` of a general game sees it, when given);
        ``last_move`` (from ``previous``) marked where the view can."""
        text = Text(game.board_text(state) if seat is None else game.board_text(state, seat))  # type: ignore[call-arg]
        if last_move is not None:
            text.append(f"\nlast move: {game.describe_move(last_move)}", style="dim")
        return text

    def legend(self, game: AnyGame) -> Text:
        """One line explaining the board's symbols (empty when there is nothing to explain)."""
        return Text("")

    def last_move_note(self, game: GeneralGame[Any, Any], previous: Any, state: Any, mover: int) -> str:
        """Words added after "<seat> played <move>" (e.g. what a Shobu push did); default none."""
        return ""

    def parse(self, game: GeneralGame[Any, Any], state: Any, text: str, seat: int) -> Any:
        """The legal move of ``seat`` that ``text`` names; MoveSyntaxError or IllegalMoveError
        saying why not."""
        return game.parse_notation(text, state, seat)

    def matches_piece(self, game: GeneralGame[Any, Any], move: Any, piece: str) -> bool:
        """Whether ``move`` moves the piece named ``piece`` (``? <piece>`` at the prompt); the
        default: its notation starts with ``piece``."""
        wanted = "".join(piece.split()).lower()
        return bool(wanted) and "".join(game.describe_move(move).split()).lower().startswith(wanted)

    def listing(self, game: GeneralGame[Any, Any], moves: list[Any]) -> RenderableType:
        """The legal ``moves`` in the game's notation."""
        if not moves:
            return Text("No legal move.", style="yellow")
        text = Text(f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}: ", style="bold")
        text.append(", ".join(game.describe_move(m) for m in moves))
        return text

    def help_points(self, game: GeneralGame[Any, Any], seat: int) -> tuple[str, list[str]]:
        """A title and bullet points saying how ``seat`` writes a move."""
        from arena.games.base import GameError
        from arena.games.registry import get_spec

        try:
            notation = get_spec(game.name).notation
        except GameError:  # a game outside the registry (tests)
            notation = ""
        title = f"Moves are written {notation}." if notation else "Type a move as the legal-move list (?) writes it."
        return title, ["? lists every legal move in that notation."]

    def help(self, game: GeneralGame[Any, Any], seat: int) -> RenderableType:
        """How ``seat`` writes a move and what the prompt's commands are."""
        title, points = self.help_points(game, seat)
        commands = Text(
            "Commands: ? lists the legal moves (? <piece>: only those of one piece), board draws the"
            " board again, help shows this, resign (or quit) gives up the game.",
            style="dim",
        )
        # Indented as a block, so that wrapped lines keep the indentation.
        return Group(Text(title, style="bold"),
                     *(Padding(Text(point), (0, 0, 0, 2), expand=False) for point in points), commands)


_views: dict[str, GameView] = {}


def view_for(game: AnyGame) -> GameView:
    """The terminal view of ``game``: a plugin's own (its spec's ``view``), arena's own game's
    (``VIEW`` of ``arena.ui.views.<name>``), else the generic one."""
    view = _views.get(game.name)
    if view is None:
        from arena.games.base import GameError
        from arena.games.registry import get_spec, load_ref, own_part

        view = GameView()
        try:
            ref = get_spec(game.name).view or own_part(game.name, f"arena.ui.views.{game.name}", "VIEW")
            if ref is not None:
                view = load_ref(ref)()
        except GameError:
            pass  # a game outside the registry (tests) or a broken plugin view: the generic one
        _views[game.name] = view
    return view


__all__ = ["GameView", "view_for"]
