"""The forward model every game implements, and the data that describes how a game ends.

This module, like all of :mod:`arena.games`, imports only the standard library: the rules can be
used (and tested) without trio, click or rich.

Contract of a :class:`Game` (one stateless rules object per game; states are immutable values):

- ``initial_state()`` -> the start position.
- ``to_move(state)`` -> the :class:`Color` whose turn it is; ``ply(state)`` -> the move counter
  (the protocol's ``turnNumber``).
- ``legal_moves(state)`` -> every legal move, in a deterministic order, empty when the game is over.
- ``apply(state, move)`` -> the next state. ``move`` must be legal (from ``legal_moves`` or checked
  by ``validate_move``); ``state`` is never modified.
- ``outcome(state)`` -> ``None`` while the game goes on by the rules, else an :class:`Outcome`
  (``WIN`` or ``NO_LEGAL_MOVES`` with the winner, or ``DRAW`` with none). A state is terminal
  exactly when it has no legal moves. The move cap (``maxMoves``) is the match's business.
- ``parse_move(wire)`` -> a move from what a bot sends (Shobu: the turn payload object; checkers:
  the protocol string), raising :class:`MoveSyntaxError` when its shape is wrong.
- ``validate_move(state, move)`` -> the canonical legal move, or :class:`IllegalMoveError` saying why.
- ``move_to_wire(move)`` / ``move_to_record(move)`` / ``describe_move(move)``: the bot's form, the
  record's turn object, the game's human notation; ``parse_notation(text, state)`` reads that
  notation back (the human player); ``board_text(state)`` is a plain-text board.
- ``state_to_json(state)`` / ``state_from_json(obj)``: the record's state object
  (``{"board", "turn", "turnNumber"}``); the latter raises :class:`StateError` naming the problem.
"""

from __future__ import annotations

import abc
import enum
import functools
import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

# A leaf module of plain constants (no import of its own): the rules package still stands alone.
from arena.limits import MAX_TURN_NUMBER


class ArenaError(Exception):
    """Root of every error arena raises on purpose (re-exported by :mod:`arena.errors`)."""


class GameError(ArenaError):
    """A rules-level error."""


class MoveSyntaxError(GameError):
    """A move whose wire form has the wrong shape (not a move at all): a malformed reply."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules do not allow in this position."""


class StateError(GameError):
    """A state object (JSON form) that does not describe a valid position."""


class Color(enum.StrEnum):
    """A side. Black moves first in both shipped games. A str: ``Color.BLACK == "BLACK"``, and
    ``color.lower()`` is ``"black"``."""

    BLACK = "BLACK"
    WHITE = "WHITE"

    @property
    def other(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK


class Termination(enum.StrEnum):
    """How a game ended: exactly the record's ``termination`` values."""

    WIN = "win"
    NO_LEGAL_MOVES = "no_legal_moves"
    DRAW = "draw"  # a draw by the game's own rules (Connect Four's full board)
    MAX_MOVES = "max_moves"
    TIMEOUT = "timeout"
    ILLEGAL_MOVE = "illegal_move"
    MALFORMED_REPLY = "malformed_reply"
    CRASH = "crash"
    MEMORY_LIMIT = "memory_limit"  # the bot's processes used more memory than its limit (judges' MLE)
    OUTPUT_LIMIT = "output_limit"  # a reply longer than the reply size limit (judges' OLE)
    RESIGN = "resign"  # a person at the terminal gave up (typed resign, or their input ended)
    INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class Outcome:
    """The end of a game as data. ``winner`` is ``None`` for a draw or an interrupted game."""

    termination: Termination
    winner: Color | None
    reason: str = ""

    @property
    def winner_name(self) -> str:
        """``"BLACK"``, ``"WHITE"`` or ``"NONE"``, as records spell it."""
        return self.winner.value if self.winner is not None else "NONE"


S = TypeVar("S")
M = TypeVar("M")


class Game(abc.ABC, Generic[S, M]):
    """The forward model. See the module docstring for the full contract."""

    name: ClassVar[str]
    default_max_moves: ClassVar[int]

    @abc.abstractmethod
    def initial_state(self) -> S: ...

    @abc.abstractmethod
    def to_move(self, state: S) -> Color: ...

    @abc.abstractmethod
    def ply(self, state: S) -> int: ...

    @abc.abstractmethod
    def legal_moves(self, state: S) -> list[M]: ...

    @abc.abstractmethod
    def apply(self, state: S, move: M) -> S: ...

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abc.abstractmethod
    def parse_move(self, wire: Any) -> M: ...

    @abc.abstractmethod
    def move_to_wire(self, move: M) -> Any: ...

    @abc.abstractmethod
    def move_to_record(self, move: M) -> Any: ...

    @abc.abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]: ...

    @abc.abstractmethod
    def state_from_json(self, obj: Any) -> S: ...

    def describe_move(self, move: M) -> str:
        """A short human notation of ``move`` (defaults to its wire form)."""
        return str(self.move_to_wire(move))

    def move_from_record(self, turn: Any) -> M:
        """The move a record's turn object (:meth:`move_to_record`) stands for; MoveSyntaxError
        when it is not one. The default suits games whose record form is the wire form."""
        return self.parse_move(turn)

    def parse_notation(self, text: str, state: S) -> M:
        """The legal move in ``state`` that ``text`` names in the game's notation.

        The default compares ``text`` with :meth:`describe_move` of each legal move, ignoring case
        and spaces. Raises :class:`MoveSyntaxError` when ``text`` names no legal move.
        """
        wanted = "".join(text.split()).lower()
        if not wanted:
            raise MoveSyntaxError("no move given")
        for move in self.legal_moves(state):
            if "".join(self.describe_move(move).split()).lower() == wanted:
                return move
        raise MoveSyntaxError(f"{cap_text(text.strip())!r} is not one of the legal moves")

    def board_text(self, state: S) -> str:
        """The board as plain monospace text (no colour); the default shows the JSON board."""
        board = self.state_to_json(state).get("board")
        if isinstance(board, list) and all(isinstance(row, str) for row in board):
            return "\n".join(board)
        return json.dumps(board)

    def validate_move(self, state: S, move: M) -> M:
        """Return ``move`` if legal in ``state``; raise :class:`IllegalMoveError` otherwise.

        Games override this to say precisely why a move is illegal.
        """
        if move in self.legal_moves(state):
            return move
        raise IllegalMoveError(f"{self.describe_move(move)} is not a legal move in this position")

    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None

    def play_wire(self, state: S, wire: Any) -> tuple[M, S]:
        """Parse, check and apply a bot's move. Raises MoveSyntaxError or IllegalMoveError."""
        move = self.validate_move(state, self.parse_move(wire))
        return move, self.apply(state, move)

    def perft(self, state: S, depth: int) -> int:
        """Number of move sequences of exactly ``depth`` moves from ``state`` (plain recursion):
        chess's convention, a game that ends before ``depth`` contributes nothing.

        Games override this with a faster counter; the result must be the same.
        """
        if depth == 0:
            return 1
        if self.is_terminal(state):  # not left to legal_moves: a game may end with moves still listed
            return 0
        moves = self.legal_moves(state)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.apply(state, m), depth - 1) for m in moves)

    def divide(self, state: S, depth: int) -> list[tuple[M, int]]:
        """perft(depth - 1) below each legal move, in ``legal_moves`` order (``depth >= 1``)."""
        return [(m, self.perft(self.apply(state, m), depth - 1)) for m in self.legal_moves(state)]


class TurnState(Protocol):
    """A state of a :class:`TwoColourGame`: a named tuple with these fields among its own."""

    @property
    def turn(self) -> Color: ...

    @property
    def turn_number(self) -> int: ...


T = TypeVar("T", bound=TurnState)


class TwoColourGame(Game[T, M]):
    """A board game of Black and White whose states carry ``turn`` and ``turn_number`` (arena's
    Shobu, checkers, Breakthrough, Connect Four and Abalone): who moves, the ply, the state's JSON
    form from :meth:`board_json` and back through :meth:`read_board`, and perft's bounds around the
    game's own fast counter (:meth:`count_leaves`) are the same for each."""

    @abc.abstractmethod
    def board_json(self, state: T) -> Any:
        """The JSON form's ``board``."""

    @abc.abstractmethod
    def read_board(self, board: Any, turn: Color, turn_number: int) -> T:
        """The state of the JSON form's ``board`` with ``turn`` and ``turn_number`` (already read):
        strict, refusing what no game reaches; :class:`StateError` naming the problem."""

    @abc.abstractmethod
    def count_leaves(self, state: T, depth: int) -> int:
        """:meth:`perft` for ``depth`` >= 1, fast (on the game's bitboards)."""

    def to_move(self, state: T) -> Color:
        return state.turn

    def ply(self, state: T) -> int:
        return state.turn_number

    def state_to_json(self, state: T) -> dict[str, Any]:
        # Once a ply: the turn's name without the enum's ``value`` property (a descriptor call).
        return {"board": self.board_json(state), "turn": "BLACK" if state.turn is _BLACK else "WHITE",
                "turnNumber": state.turn_number}

    def state_from_json(self, obj: Any) -> T:
        """Exactly ``{"board", "turn", "turnNumber"}`` (:func:`read_state_fields`), the board as
        :meth:`read_board` reads it; :class:`StateError` naming the first problem."""
        return self.read_board(*read_state_fields(obj))

    def perft(self, state: T, depth: int) -> int:
        """Leaf count of the move tree ``depth`` plies deep (the same result as :meth:`Game.perft`,
        faster); ValueError for a negative depth."""
        if depth < 0:
            raise ValueError(f"perft depth must be >= 0, got {depth}")
        return 1 if depth == 0 else self.count_leaves(state, depth)


_BLACK = Color.BLACK


STATE_KEYS = ("board", "turn", "turnNumber")


def read_state_fields(obj: Any) -> tuple[Any, Color, int]:
    """The common envelope of every game's state object: ``{"board", "turn", "turnNumber"}``.

    Checks that ``obj`` is a dict with exactly those keys, ``turn`` is ``"BLACK"`` or ``"WHITE"``
    (spelled so) and ``turnNumber`` an integer from 0 to :data:`arena.limits.MAX_TURN_NUMBER` (not a
    bool or a float: a larger one would overflow 64 bits when written back). Returns
    ``(board, turn, turn_number)`` with the board unchecked (each game reads its own form), or
    raises :class:`StateError` naming the first problem.
    """
    exact_keys(obj, "game state", STATE_KEYS, StateError)
    turn, turn_number = obj["turn"], obj["turnNumber"]
    if not (isinstance(turn, str) and turn in ("BLACK", "WHITE")):
        raise StateError(f'turn must be "BLACK" or "WHITE", got {show_value(turn)}')
    if type(turn_number) is not int or turn_number < 0:
        raise StateError(f"turnNumber must be a non-negative integer, got {show_value(turn_number)}")
    if turn_number > MAX_TURN_NUMBER:
        raise StateError(f"turnNumber must be at most {MAX_TURN_NUMBER:,}, got {show_value(turn_number)}")
    return obj["board"], Color(turn), turn_number


def exact_keys(value: Any, where: str, keys: tuple[str, ...], error: type[GameError]) -> dict[str, Any]:
    """``value`` if it is a dict with exactly ``keys``; else ``error`` naming ``where`` and the key."""
    if not isinstance(value, dict):
        raise error(f"{where} must be an object, got {show_value(value)}")
    for key in keys:
        if key not in value:
            raise error(f"{where}: missing key {key!r}")
    for key in value:
        if key not in keys:
            raise error(f"{where}: unexpected key {cap_text(repr(key))}")
    return value


def cap_text(text: str, limit: int = 40) -> str:
    """``text`` cut to at most ``limit`` characters (ending in an ellipsis when cut): arena's one
    way of shortening a value quoted in a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show_value(value: Any) -> str:
    """A value as a bot or a user wrote it (JSON spelling where possible), capped for messages."""
    try:
        return cap_text(json.dumps(value))
    except (TypeError, ValueError):
        return cap_text(repr(value))


@functools.lru_cache(maxsize=1 << 14)  # a schedule asks once per game: twice per pair, a round of couples apart
def opening_seed(seed: int, pair: int) -> int:
    """The seed of the random opening of colour-swapped pair ``pair`` in a match or tournament
    seeded ``seed``: a pure function of both (the one seed scheme of arena). A record's ``seed`` is
    this value: ``random_opening(game, openingPlies, random.Random(seed))`` replays its opening."""
    # String seeds hash with SHA-512 inside random, independent of PYTHONHASHSEED.
    return random.Random(f"arena-opening/{seed}/{pair}").getrandbits(63)


def random_opening_moves(game: Game[S, M], plies: int, rng: random.Random, state: S | None = None) -> list[M]:
    """``plies`` uniformly random legal moves from ``state`` (default: the start), as played.

    Stops early, before a position where the game would be over, so the bots always get a live game:
    a move that ends the game is avoided when another exists. Records list these moves as the opening.
    """
    current = game.initial_state() if state is None else state
    moves: list[M] = []
    for _ in range(plies):
        legal = game.legal_moves(current)
        if not legal:
            break
        rng.shuffle(legal)
        chosen: tuple[M, S] | None = None
        for move in legal:
            candidate = game.apply(current, move)
            if game.outcome(candidate) is None:
                chosen = move, candidate
                break
        if chosen is None:
            break
        moves.append(chosen[0])
        current = chosen[1]
    return moves


def random_opening(game: Game[S, M], plies: int, rng: random.Random, state: S | None = None) -> S:
    """The position after :func:`random_opening_moves` (same arguments, same random draws)."""
    current = game.initial_state() if state is None else state
    for move in random_opening_moves(game, plies, rng, current):
        current = game.apply(current, move)
    return current
