"""What the CLI shows of matches. The core never imports this; the CLI hands a view in as observer.

:class:`MatchView` is a :func:`arena.match.game.play_game` observer. On a terminal it shows a live panel
(the board, the last move, both clocks) refreshed a few times per second however fast the bots
play; otherwise it prints one line per finished game. :func:`result_line` summarises a series.

rich is imported only for a terminal (or for rich tables): `arena match` written to a pipe or a file
prints plain lines through :class:`PlainConsole` and skips rich's ~50 ms import.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.live import Live

    from arena.match.progress import GameEnded, GameStarted, StepPlayed

PLAIN_OUTPUT_WIDTH = 120


class PlainConsole:
    """The part of rich's Console that `arena match` uses, for output that is not a terminal: each
    ``print`` writes its objects' text as one line (rich markup is never interpreted)."""

    is_terminal = False
    width = PLAIN_OUTPUT_WIDTH

    def __init__(self, stderr: bool = True) -> None:
        self.stderr = stderr

    def print(self, *objects: Any, end: str = "\n", **_options: Any) -> None:
        stream = sys.stderr if self.stderr else sys.stdout
        text = " ".join(getattr(o, "plain", None) or str(o) for o in objects)
        try:
            stream.write(text + end)
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass  # the reader went away: what is lost is only our commentary


def cli_console(stderr: bool = True, *, plain_when_piped: bool = False) -> Any:
    """The CLI's console. On a terminal it takes the terminal's width; written to a file or a pipe
    (where rich would assume 80 columns) it is wide enough for the standings tables not to be cut.
    With ``plain_when_piped``, output that is not a terminal gets a :class:`PlainConsole` (no rich)."""
    stream = sys.stderr if stderr else sys.stdout
    if plain_when_piped and not _is_terminal(stream):
        return PlainConsole(stderr=stderr)
    from rich.console import Console

    console = Console(stderr=stderr)
    if not console.is_terminal and console.width < PLAIN_OUTPUT_WIDTH:
        console = Console(stderr=stderr, width=PLAIN_OUTPUT_WIDTH)
    return console


def _is_terminal(stream: Any) -> bool:
    # What rich decides by, roughly: FORCE_COLOR / TTY_COMPATIBLE make it draw for a non-tty.
    if os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE") == "1":
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def describe_result(record: dict[str, Any]) -> str:
    """'BLACK (alpha) wins: <reason>' / 'draw: <reason>' for one record."""
    names = {p["colour"]: p["id"] for p in record["players"]}
    winner = record["winner"]
    if winner == "NONE":
        head = "interrupted" if record["termination"] == "interrupted" else "draw"
    else:
        head = f"{winner} ({names[winner]}) wins"
    took = record.get("duration_s")
    timing = f" in {took:.1f} s" if isinstance(took, (int, float)) else ""
    return f"{head} [{record['termination']}] after {record['plies']} plies{timing}: {record['reason']}"


def result_line(records: list[dict[str, Any]], ids: tuple[str, str]) -> str:
    """'alpha 2.5 - 1.5 beta (W-D-L 2-1-1)' over a series, from the first id's point of view."""
    wins = draws = losses = 0
    for record in records:
        names = {p["colour"]: p["id"] for p in record["players"]}
        if record["winner"] == "NONE":
            draws += 1
        elif names[record["winner"]] == ids[0]:
            wins += 1
        else:
            losses += 1
    first = wins + draws / 2
    second = losses + draws / 2
    return f"{ids[0]} {first:g} - {second:g} {ids[1]}  (W-D-L {wins}-{draws}-{losses} for {ids[0]})"


class _LivePanel:
    """Renders the latest event lazily, at the refresh rate, not at the move rate."""

    def __init__(self) -> None:
        self.started: GameStarted | None = None
        self.last: StepPlayed | None = None
        self.before_last: Any = None  # the state the last step was played from
        self.header = ""

    def stepped(self, event: StepPlayed) -> None:
        current = self.last.state if self.last is not None else (self.started.state if self.started else None)
        self.before_last, self.last = current, event

    def last_move(self) -> Any:
        """The move that led to the shown state (read from its record form at the refresh rate)."""
        if self.last is None or self.before_last is None or self.last.step["kind"] != "move":
            return None
        try:
            return self.last.game.move_from_record(self.last.step["move"])
        except Exception:  # noqa: BLE001 - a drawing aid: never let it break the match
            return None

    def __rich__(self) -> RenderableType:
        from rich.console import Group
        from rich.text import Text

        from arena.ui.boards import render_board

        if self.started is None:
            return Text("")
        game = self.started.game
        state = self.last.state if self.last is not None else self.started.state
        lines: list[RenderableType] = [Text(self.header, style="bold"),
                                       render_board(game, state, self.last_move(), self.before_last)]
        if self.last is not None:
            last, step = self.last, self.last.step
            clocks = "  ".join(f"{name} {ms / 1000:.1f}s" for name, ms in zip(game.seat_names, last.clocks_left_ms,
                                                                               strict=True))
            if step["kind"] == "move":
                seat = step["seat"]
                lines.append(Text(f"ply {step['ply'] + 1}: {game.seat_names[seat]} ({last.players[seat].id}) "
                                  f"played {last.notation} in {step['charged_ms']:.0f} ms"))
            else:
                lines.append(Text(f"ply {step['ply'] + 1}: {step['kind']}: {last.notation}"))
            lines.append(Text(f"clocks: {clocks}", style="dim"))
        else:
            lines.append(Text("waiting for the first move...", style="dim"))
        return Group(*lines)


class MatchView:
    """Observer for a series of games. ``live`` defaults to whether the console is a terminal.

    ``final_board`` prints the final position when a game ends (for a human at the terminal, whose
    own prompts replace the live panel).
    """

    def __init__(self, console: Console | PlainConsole, *, total_games: int = 1, live: bool | None = None,
                 final_board: bool = False) -> None:
        self.console = console
        self.final_board = final_board
        self.total = total_games
        self.live_mode = console.is_terminal if live is None else live
        self._live: Live | None = None
        self._panel = _LivePanel()

    def __call__(self, event: Any) -> None:
        # Imported here, not above: `arena standings` prints through cli_console and needs no trio.
        from arena.match.progress import GameEnded, GameStarted, StepPlayed

        if isinstance(event, GameStarted):
            self._on_start(event)
        elif isinstance(event, StepPlayed):
            self._panel.stepped(event)
        elif isinstance(event, GameEnded):
            self._on_end(event)

    def _label(self, index: int | None) -> str:
        # The record's own index (from 0, as `arena replay --game N` and the tournaments' logs
        # count), after the progress count, as a tournament's lines put it: "[1/4] game 0".
        index = index or 0
        return f"[{index + 1}/{self.total}] game {index}" if self.total > 1 else "game"

    def _on_start(self, event: GameStarted) -> None:
        seats = " vs ".join(f"{spec.id} ({name})" for spec, name in zip(event.players, event.game.seat_names,
                                                                        strict=True))
        self._panel = _LivePanel()
        self._panel.started = event
        self._panel.header = f"{self._label(event.game_index)}: {event.game.name}, {seats}"
        if self.live_mode:
            from rich.console import Console
            from rich.live import Live

            assert isinstance(self.console, Console), "a live panel needs a terminal's rich console"
            self._live = Live(self._panel, console=self.console, refresh_per_second=8, transient=False)
            self._live.start()

    def _on_end(self, event: GameEnded) -> None:
        if self._live is not None:
            self._live.update(self._panel, refresh=True)
            self._live.stop()
            self._live = None
        if self.final_board:
            from arena.ui.boards import render_board

            self.console.print(render_board(event.game, event.state))
        self.console.print(f"{self._label(event.game_index)}: {describe_result(event.record)}",
                           markup=False, highlight=False, soft_wrap=not self.console.is_terminal)

    def close(self) -> None:
        """Stop a live display left running (e.g. after an interruption)."""
        if self._live is not None:
            self._live.stop()
            self._live = None
