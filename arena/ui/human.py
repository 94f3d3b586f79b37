"""A person at the terminal as a :class:`~arena.players.base.Player` (agent kind ``human``), at any
seat of any game: a two-player board game or a game of N seats with chance, simultaneous moves and
hidden information.

Each turn the person sees the board as the game's terminal view draws it (:mod:`arena.ui.views`;
a game of hidden information shows only the seat's observation, ``board_text(state, seat)``), the
last move of the other side marked and written in notation when the game hides nothing and one move
led here, their clock, the legal moves when there are few, and a prompt. They type a move in the
game's notation (``parse_notation``):

- checkers: PDN square numbers, ``11-15`` for a step, ``22x15x8`` for a capture (every landing
  square; ``22x8`` is enough when only one capture matches); the protocol form ``2 3 2 2 3`` works;
- Shobu: ``<passive stone> <aggressive stone> <direction>[2]``, e.g. ``07 43 N`` or ``16 55 NE2``,
  where a stone is two digits ``xy`` (x = column 0-7 left to right, y = row 0-7 top to bottom) and
  the direction is one of N NE E SE S SW W NW (N = up the screen), ``2`` for a two-square move;
- a game of N seats: the move as a bot would send it (``bet``, ``7``, ``guard 2 priest``; JSON
  works too) or as the legal-move list writes it.

Commands at the prompt: ``?`` (or ``moves``) lists the legal moves, ``? 11`` / ``? 07`` only those of
one piece; ``board`` draws the board again; ``help`` explains the notation; ``resign`` (or ``quit``)
resigns after a confirmation. A wrong entry is explained (unreadable, or illegal and why, with the
rules' own reason) and asked again.

What the match sees: :meth:`HumanPlayer.request_move` returns the move in wire form (the Shobu turn
payload, the checkers path string, the N-seat move), so it is checked like any bot's. The person
loses by a :class:`~arena.players.base.Fault` (a seat of a game that goes on without it is out) when
they

- resign: termination ``resign`` (the record's reason says "resigned at the terminal");
- close the input (end of file on stdin, e.g. nobody at the terminal): ``resign`` as well, the
  reason says so; at a terminal Ctrl-D first asks for a confirmation (anything but y goes on);
- let their clock run out: ``timeout``.

Output goes to the console given (default: a rich Console on stderr, as stdout carries records);
input comes from a :class:`LineSource` (default: stdin, read in a worker thread so that trio keeps
running: timeouts and Ctrl-C work while the person thinks).
"""

from __future__ import annotations

import collections
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import trio
from rich.console import Console, Group
from rich.text import Text

from arena.games.base import GameError, IllegalMoveError, Termination
from arena.games.model import SIMULTANEOUS, GeneralGame, color_of
from arena.players import register_human_player
from arena.players.base import ClockView, MoveReply, Player
from arena.ui.views import view_for

if TYPE_CHECKING:
    from arena.players.spec import AgentSpec

# Longest line kept from stdin: a human never types more; piped garbage is cut, not buffered.
MAX_LINE_CHARS = 4096
#: The mark of a seat named by a colour, shown with its name (the boards draw its pieces so).
SEAT_GLYPHS = {"BLACK": "●", "WHITE": "○"}
RESIGN_WORDS = frozenset({"resign", "quit", "q", "exit", "forfeit"})
MOVES_WORDS = frozenset({"?", "moves", "m", "legal"})
#: At most this many legal moves are listed under the board unasked.
LIST_UNASKED = 12
#: Time left (ms) at which the prompt says so again: the clock visibly counts down.
COUNTDOWN_MS = (60_000, 30_000, 10_000, 5_000)


class LineSource(Protocol):
    """Where the human's lines come from: ``readline`` returns one line without its newline, or
    ``None`` at end of input (and on every call after it)."""

    async def readline(self) -> str | None: ...


class ThreadedLines:
    """Lines from a blocking ``read_line`` (returns ``""`` at end of input, like ``file.readline``).

    One daemon thread at a time runs ``read_line``, started only when a line is wanted, so nothing
    is read ahead of need. A wait that is cancelled (timeout, Ctrl-C) leaves the thread blocked;
    the line it reads later is kept for the next ``readline`` rather than lost. Works across
    successive ``trio.run`` calls.
    """

    def __init__(self, read_line: Callable[[], str], *, eof_is_final: bool = True) -> None:
        self._read_line = read_line
        #: False for a terminal, where Ctrl-D ends one read but the person can go on typing:
        #: each end of input is reported once, then reading resumes.
        self.eof_is_final = eof_is_final
        self._lock = threading.Lock()
        self._ready: collections.deque[str] = collections.deque()
        self._reading = False
        self._eof = False
        self._waiter: tuple[trio.lowlevel.TrioToken, trio.Event] | None = None

    async def readline(self) -> str | None:
        while True:
            event = trio.Event()
            with self._lock:
                if self._ready:
                    return self._ready.popleft()
                if self._eof:
                    if not self.eof_is_final:
                        self._eof = False
                    return None
                self._waiter = (trio.lowlevel.current_trio_token(), event)
                if not self._reading:
                    self._reading = True
                    threading.Thread(target=self._read_one, name="arena-human-input", daemon=True).start()
            try:
                await event.wait()
            finally:
                with self._lock:
                    if self._waiter is not None and self._waiter[1] is event:
                        self._waiter = None

    def _read_one(self) -> None:
        try:
            line = self._read_line()
        except Exception:  # noqa: BLE001 - see below
            # A terminal gone (EIO), a closed file, or any other failure to read: the same as end
            # of input. Letting it escape would kill this thread and leave readline() waiting.
            line = ""
        with self._lock:
            self._reading = False
            if line:
                self._ready.append(line.rstrip("\r\n")[:MAX_LINE_CHARS])
            else:
                self._eof = True
            waiter = self._waiter
        if waiter is not None:
            token, event = waiter
            try:
                trio.from_thread.run_sync(event.set, trio_token=token)
            except trio.RunFinishedError:
                pass  # that trio.run is over; the line waits in _ready for the next one


class FdLineReader:
    """A blocking line reader on a raw file descriptor, for :class:`ThreadedLines`.

    Reads with ``os.read`` rather than ``sys.stdin``: a daemon thread blocked inside a buffered
    file's lock can abort the interpreter at exit, a thread blocked in ``os.read`` cannot.
    Returns ``""`` at end of input; bytes that are not UTF-8 become U+FFFD.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()

    def __call__(self) -> str:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0 or len(self._buffer) > MAX_LINE_CHARS:
                end = newline + 1 if newline >= 0 else len(self._buffer)
                line = bytes(self._buffer[:end])
                del self._buffer[:end]
                return line.decode("utf-8", "replace")
            chunk = os.read(self._fd, 4096)
            if not chunk:
                rest = bytes(self._buffer)
                self._buffer.clear()
                return rest.decode("utf-8", "replace")
            self._buffer += chunk


_stdin_lines: ThreadedLines | None = None


def stdin_is_terminal() -> bool:
    try:
        return os.isatty(0)
    except OSError:
        return False


def stdin_lines() -> ThreadedLines:
    """The process-wide reader of stdin (fd 0), shared by every human player so that two of them
    (human against human) never race for the same line."""
    global _stdin_lines
    if _stdin_lines is None:
        _stdin_lines = ThreadedLines(FdLineReader(0), eof_is_final=not stdin_is_terminal())
    return _stdin_lines


# --- notation ---------------------------------------------------------------------------------


def parse_human_move(game: GeneralGame[Any, Any], state: Any, text: str,
                     seat: int | None = None) -> Any:
    """The legal move of ``seat`` (default: the one to move) that ``text`` names in ``state``, read
    by the game's view in its notation.

    Raises :class:`MoveSyntaxError` when ``text`` is not a move in the game's notation and
    :class:`IllegalMoveError` (with the rules' reason) when it names a move that is not legal.
    """
    return view_for(game).parse(game, state, text, game.actor(state) if seat is None else seat)


def format_clock(ms: float) -> str:
    """``m:ss.s`` (``h:mm:ss`` from an hour on) for a clock of ``ms`` milliseconds; never negative."""
    tenths = int(max(ms, 0.0) // 100)  # rounded down: never show time the player does not have
    if tenths >= 36_000:
        whole = tenths // 10
        return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
    return f"{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}"


# --- the player -------------------------------------------------------------------------------


class HumanPlayer(Player):
    """A person at ``seat`` of ``game`` (any :class:`GeneralGame`; in a two-player game seat 0 is
    BLACK and 1 WHITE) at the terminal.

    Built by :func:`arena.players.make_player` as ``HumanPlayer(spec, game, seat, **opts)``;
    options meant for bot processes (``stderr_path``, ``max_reply_bytes``, ``kill_grace``, ``env``)
    are accepted and ignored. ``console`` (default: a new Console on stderr) is where everything is
    drawn; ``lines`` (default: :func:`stdin_lines`) is where the typed lines come from. ``echo``
    repeats each line read after its prompt, so a transcript reads well when the input is not typed
    at a terminal (default: on for a given ``lines``, and for stdin when it is not a terminal).
    """

    def __init__(
        self,
        spec: AgentSpec | str,
        game: GeneralGame[Any, Any],
        seat: int,
        *,
        console: Console | None = None,
        lines: LineSource | None = None,
        echo: bool | None = None,
        **_process_options: Any,
    ) -> None:
        agent_id = spec if isinstance(spec, str) else spec.id
        super().__init__(agent_id, color_of(seat), command="(human at the terminal)")
        self.game = game
        self.seat = seat
        self.view = view_for(self.game)
        self.console = console if console is not None else Console(stderr=True)
        self.lines: LineSource = lines if lines is not None else stdin_lines()
        self.echo = echo if echo is not None else (lines is not None or not stdin_is_terminal())
        name = self.game.seat_names[seat]
        glyph = SEAT_GLYPHS.get(name)
        #: The seat as the prompt names it: ``BLACK ●``, ``P1``.
        self.label = f"{name} {glyph}" if glyph else name
        # The position right after our last move: the other side's reply is found from it.
        self._after_mine: Any = None

    async def start(self) -> None:
        game, name = self.game, self.game.seat_names[self.seat]
        glyph = SEAT_GLYPHS.get(name)
        where = f"{name} ({glyph})" if glyph else f"{name} (seat {self.seat} of {game.players})"
        params = ", ".join(f"{k}={v}" for k, v in sorted(game.params.items()))
        self.console.print(
            Text.assemble(
                (f"{self.id}: ", "bold"),
                f"you play {where} in {game.name}{f' ({params})' if params else ''}. ",
                ("Type help for the notation, ? for the legal moves.", "dim"),
            )
        )

    async def aclose(self) -> None:
        """Nothing to release: the stdin reader is shared and outlives a game."""

    # request_move stops waiting for the human at ``clock.allowance_s`` after showing the board.
    enforces_allowance = True

    async def request_move(self, state: Any, clock: ClockView, *,
                           state_json: dict[str, Any] | None = None) -> MoveReply:
        self._show_position(state)
        sent_at = trio.current_time()
        deadline = sent_at + clock.allowance_s
        reply: MoveReply | None = None
        with trio.move_on_at(deadline):
            reply = await self._ask(state, clock, sent_at)
        if reply is None:
            now = trio.current_time()
            self.console.print(Text("\nTime is up: you lose on time.", style="bold red"))
            return MoveReply.failed(Termination.TIMEOUT, "did not move in time", sent_at=sent_at, received_at=now)
        if reply.fault is None and self.game.perfect_information and self.game.actor(state) == self.seat:
            self._after_mine = self.game.apply(state, self.game.parse_move(reply.wire))
        return reply

    # -- showing ------------------------------------------------------------------------------

    def _last_move(self, state: Any) -> tuple[Any, Any, int]:
        """``(state before, move, mover)`` of the one move that led to ``state`` from the position
        after our own last move (or from the start, when another seat moved first), when the game
        hides nothing; ``(None, None, -1)`` when it cannot be known."""
        game = self.game
        before = self._after_mine
        if before is None and game.ply(state) == 1:
            before = game.initial_state()
        if not game.perfect_information or before is None or before == state:
            return None, None, -1
        try:
            mover = game.actor(before)
            if mover >= 0:
                for move in game.legal_moves(before, mover):
                    if game.apply(before, move) == state:
                        return before, move, mover
        except GameError:
            pass
        return None, None, -1

    def _show_position(self, state: Any) -> None:
        game, view = self.game, self.view
        number = game.ply(state) + 1
        self.console.print()
        self.console.rule(Text(f"{game.name} · {view.unit} {number} · {self.id} plays {self.label}"), style="dim")
        previous, last_move, mover = self._last_move(state)
        lines: list[Any] = [view.board(game, state, last_move, previous, self.seat), view.legend(game)]
        if last_move is not None:
            said = Text.assemble(
                (f"{game.seat_names[mover]} played ", ""),
                (game.describe_move(last_move), "bold cyan"),
            )
            said.append(view.last_move_note(game, previous, state, mover))
            lines.append(said)
        elif number > 1 and self._after_mine is None and game.perfect_information:
            lines.append(Text("(the moves before this one are not shown here)", style="dim"))
        if game.actor(state) == SIMULTANEOUS:
            lines.append(Text("The other seats choose at the same time.", style="dim"))
        moves = game.legal_moves(state, self.seat)
        if 0 < len(moves) <= LIST_UNASKED:
            lines.append(view.listing(game, moves))
        example = f"e.g. {game.describe_move(moves[0])} · " if moves else ""
        lines.append(
            Text.assemble(
                ("Your move", "bold"),
                (f" — {example}? legal moves · help · resign", "dim"),
            )
        )
        self.console.print(Group(*lines))

    def _prompt(self, clock: ClockView, sent_at: float) -> None:
        left = clock.time_left_ms - 1000.0 * (trio.current_time() - sent_at)
        self.console.print(
            Text.assemble(
                (f"{self.label} ", "bold"),
                (format_clock(left), "yellow" if left < 30_000 else "green"),
                " > ",
            ),
            end="",
        )

    # -- asking -------------------------------------------------------------------------------

    async def _ask(self, state: Any, clock: ClockView, sent_at: float) -> MoveReply:
        """Prompt until a legal move, a resignation or the end of input."""
        game = self.game
        while True:
            self._prompt(clock, sent_at)
            line = await self._read_move_line(clock, sent_at)
            if line is None and not getattr(self.lines, "eof_is_final", True):
                # Ctrl-D at a terminal: ask first, a person may have pressed it by mistake.
                self.console.print()
                if not await self._confirm_resign(prompt="End of input (Ctrl-D). Resign this game? Type y to confirm: "):
                    continue
                self.console.print(Text("You resigned.", style="bold red"))
                return MoveReply.failed(Termination.RESIGN, "resigned at the terminal (Ctrl-D, confirmed)",
                                        sent_at=sent_at, received_at=trio.current_time())
            if line is None:
                self.console.print(Text("End of input: nobody to play, so you resign.", style="bold red"))
                return MoveReply.failed(
                    Termination.RESIGN,
                    "resigned: its input ended (end of file on stdin, nobody at the terminal?)",
                    sent_at=sent_at, received_at=trio.current_time(),
                )
            received_at = trio.current_time()
            text = line.strip()
            word, _, argument = text.partition(" ")
            command = word.lower()
            if not text:
                continue
            if command in MOVES_WORDS or (text.startswith("?") and not argument):
                piece = argument.strip() or text[1:].strip()
                self._list_moves(state, piece)
                continue
            if command in ("help", "h"):
                self.console.print(self.view.help(game, self.seat))
                continue
            if command in ("board", "b"):
                self._show_position(state)
                continue
            if command in RESIGN_WORDS:
                if await self._confirm_resign():
                    self.console.print(Text("You resigned.", style="bold red"))
                    return MoveReply.failed(Termination.RESIGN, f"resigned at the terminal (typed {word!r})",
                                            sent_at=sent_at, received_at=trio.current_time())
                continue
            try:
                move = self.view.parse(game, state, text, self.seat)
            except IllegalMoveError as exc:
                self._explain("Not legal", str(exc))
                continue
            except GameError as exc:  # MoveSyntaxError, or an external referee's refusal
                self._explain(None, str(exc))
                continue
            self.console.print(
                Text.assemble("You played ", (game.describe_move(move), "bold"), (". Waiting for the reply…", "dim"))
            )
            return MoveReply(wire=game.move_to_wire(move), raw=line.encode("utf-8", "replace"),
                             sent_at=sent_at, received_at=received_at)

    async def _read_move_line(self, clock: ClockView, sent_at: float) -> str | None:
        """A line, while the clock counts down: at each of :data:`COUNTDOWN_MS` still ahead, a line
        says how much time is left and the prompt is shown again."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._count_down, clock, sent_at)
            line = await self._read_line()
            nursery.cancel_scope.cancel()
        return line

    async def _count_down(self, clock: ClockView, sent_at: float) -> None:
        for mark in COUNTDOWN_MS:
            at = sent_at + (clock.time_left_ms - mark) / 1000.0
            if at <= trio.current_time():
                continue  # already below this mark
            await trio.sleep_until(at)
            self.console.print()
            self.console.print(Text(f"{format_clock(mark)} left", style="bold yellow"))
            self._prompt(clock, sent_at)

    async def _read_line(self) -> str | None:
        line = await self.lines.readline()
        if self.echo:
            self.console.print(Text("" if line is None else line))
        elif line is None:
            self.console.print()  # Ctrl-D at a terminal leaves the cursor after the prompt
        return line

    def _list_moves(self, state: Any, piece: str) -> None:
        moves = self.game.legal_moves(state, self.seat)
        if piece:
            chosen = [m for m in moves if self.view.matches_piece(self.game, m, piece)]
            if not chosen:
                self.console.print(Text(f"No legal move with the piece on {piece}.", style="yellow"))
                return
            moves = chosen
        self.console.print(self.view.listing(self.game, moves))

    def _explain(self, what: str | None, reason: str) -> None:
        """One line (wrapped by the console) saying what was wrong with an entry."""
        line = Text("✗ ", style="bold red")
        if what:
            line.append(f"{what}: ", style="bold red")
        line.append(reason)
        if what is None:
            line.append(" (? lists the legal moves, help explains the notation)", style="dim")
        self.console.print(line)

    async def _confirm_resign(self, prompt: str = "Resign this game? Type y to confirm: ") -> bool:
        self.console.print(Text(prompt, style="bold yellow"), end="")
        answer = await self._read_line()
        if answer is None:
            return True
        return answer.strip().lower() in ("y", "yes")


__all__ = [
    "FdLineReader",
    "HumanPlayer",
    "LineSource",
    "ThreadedLines",
    "format_clock",
    "parse_human_move",
    "stdin_lines",
]

register_human_player(HumanPlayer)
