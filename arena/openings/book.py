"""Opening books: JSONL files of start positions for matches, SPRT runs and tournaments.

Format: one JSON value per line (blank lines and lines starting with ``#`` are skipped). A line is

- a state object of the game (as ``Game.state_to_json`` writes it and bots receive it), or
- ``{"moves": [<wire move>, ...]}``: moves in the bots' wire format, played from the start.

Every opening is checked when the book is read: a bad line raises :class:`OpeningsError` whose
one-line message names the file and the line. A position where the game is already over is
refused (the bots would have nothing to play), and so is a move counter (``turnNumber``) above
:data:`arena.limits.MAX_TURN_NUMBER`. The book must be a regular file of at most
:data:`arena.limits.MAX_BOOK_BYTES` (64 MiB); each line is decoded by
:func:`arena.fileio.jsonfiles.strict_loads` (no key twice, bounded nesting).

Order (``--openings-order``): ``sequential`` plays the book's openings in file order, pair by pair,
wrapping around; ``random`` picks the opening of pair ``p`` with ``random.Random(opening_seed(seed,
p))``, so a run (and its resume) is a pure function of the seed. Either way both games of a
colour-swapped pair start from the same opening.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from arena.errors import ArenaError, GameError
from arena.fileio.files import UnsafeFileError, read_input
from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games.base import Game, opening_seed
from arena.limits import MAX_BOOK_BYTES, MAX_TURN_NUMBER

Order = Literal["random", "sequential"]
ORDERS: tuple[str, ...] = ("random", "sequential")


class OpeningsError(ArenaError):
    """An opening book that cannot be used (the message names the file and line). Exit status 2."""


@dataclass(frozen=True)
class Opening:
    """One opening: ``state`` is the game's state where the bots take over; ``line`` is its line
    number in the book (1-based)."""

    state: Any
    line: int


@dataclass(frozen=True)
class Book:
    """A read and checked opening book: ``digest`` (SHA-256 of the file's bytes) lets a resumed run
    refuse a book that changed."""

    path: Path
    openings: tuple[Opening, ...]
    digest: str

    def pick(self, pair: int, order: Order, seed: int) -> Opening:
        """The opening of colour-swapped pair ``pair`` (0-based)."""
        if order == "sequential":
            return self.openings[pair % len(self.openings)]
        return self.openings[random.Random(opening_seed(seed, pair)).randrange(len(self.openings))]


def _opening_from_value(game: Game, value: Any) -> Any:
    """The state an opening line describes. Raises GameError or ValueError with a short reason."""
    if isinstance(value, dict) and set(value) == {"moves"}:
        moves = value["moves"]
        if not isinstance(moves, list):
            raise ValueError("'moves' must be a list of moves")
        state = game.initial_state()
        for number, wire in enumerate(moves, start=1):
            if game.outcome(state) is not None:
                raise ValueError(f"move {number}: the game is already over")
            try:
                _, state = game.play_wire(state, wire)
            except GameError as exc:
                raise ValueError(f"move {number} ({json.dumps(wire)}): {exc}") from None
        return state
    if not isinstance(value, dict):
        raise TypeError('expected a state object or {"moves": [...]}')
    return game.state_from_json(value)


def parse_book(game: Game, data: bytes, path: Path) -> Book:
    """Read a book's bytes (see the module docstring). Raises OpeningsError."""
    openings: list[Opening] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise OpeningsError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{path} line {number}"
        try:
            value = strict_loads(line)
        except JsonInputError as exc:
            raise OpeningsError(f"{where}: not JSON ({exc.syntax})" if exc.syntax else f"{where}: {exc}") from None
        try:
            state = _opening_from_value(game, value)
        except (GameError, ValueError, TypeError, KeyError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise OpeningsError(f"{where}: {reason}") from None
        if game.outcome(state) is not None:
            raise OpeningsError(f"{where}: the game is already over in this position")
        if game.ply(state) > MAX_TURN_NUMBER:  # a plugin game may not bound it itself
            raise OpeningsError(f"{where}: turnNumber must be at most {MAX_TURN_NUMBER:,}")
        openings.append(Opening(state, number))
    if not openings:
        raise OpeningsError(f"{path}: no opening in this file")
    return Book(path, tuple(openings), hashlib.sha256(data).hexdigest())


def load_book(game: Game, path: Path) -> Book:
    """Read and check the book at ``path`` (a regular file of at most 64 MiB; a link to one is
    fine). Raises OpeningsError (one line) when it cannot be read or a line is bad."""
    try:
        data = read_input(path, MAX_BOOK_BYTES)
    except FileNotFoundError:
        raise OpeningsError(f"{path}: no such file") from None
    except UnsafeFileError as exc:  # a FIFO, a device, a folder, over 64 MiB
        raise OpeningsError(f"{path}: {exc.strerror}; not an opening book") from None
    except OSError as exc:
        raise OpeningsError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return parse_book(game, data, path)
