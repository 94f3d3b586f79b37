"""Shobu: the rules (``docs/rules/shobu.md``), the wire and record forms of a turn, a notation.

Board: a 64-character string, index ``x + 8*y``, (0,0) upper left; ``x`` black, ``o`` white, ``.``
empty. Sub-boards Q0 top-left, Q1 top-right, Q2 bottom-left, Q3 bottom-right; White's home boards
are the top two, Black's the bottom two; board colours go by column (Q0/Q2 left, Q1/Q3 right).

State: :class:`ShobuState`, an immutable value holding packed bitboards (see
:mod:`arena.games.shobu.core`), the colour to move and the turn counter; ``state.board`` gives the
64-character string. JSON form:
``{"board": "<64 chars>", "turn": "BLACK"|"WHITE", "turnNumber": n}``.

Move: :class:`ShobuMove` ``(passive_origin, aggressive_origin, heading)`` in absolute (x, y)
coordinates. ``aggressive_heading`` is only set (by :meth:`ShobuGame.parse_move`) when a bot sent a
different heading for its aggressive move, which is never legal; legal moves leave it ``None``.
Wire and record form: the protocol's turn payload, ``{"passive": {"origin": {"x", "y"}, "heading":
{"x", "y"}}, "aggressive": {...}}``.

Notation (:func:`describe_move`, :func:`parse_notation`), for people at a terminal:
``<passive origin> <aggressive origin> <direction>[2]``. An origin is two digits ``xy`` (``07`` is
x=0, y=7); the direction is one of N NE E SE S SW W NW (N is y-1, up the board; E is x+1); the
suffix ``2`` makes it a two-step heading. Examples: ``07 43 N`` is passive (0,7) and aggressive
(4,3) both by (0,-1); ``16 55 NE2`` moves both by (2,-2). Parsing ignores case and accepts the
parts with or without spaces or commas between them (``0743n``, ``16,55,ne 2``).

End of the game (:meth:`ShobuGame.outcome`): when a sub-board holds no stones of one colour, the
other colour wins (``WIN``). Play can only ever remove the opponent's stones, so both colours can
lack a board only in a hand-made position; then the player who moved last (``state.turn.other``)
is declared the winner. Otherwise, if the player to move has no legal turn, they lose
(``NO_LEGAL_MOVES``). A won position has no legal moves.

Helpers for bots and search: :func:`stone_counts`, :func:`count_legal_turns`,
:func:`state_from_board`, :func:`board_from_picture`, :func:`parse_notation`,
:func:`describe_move`, :data:`START_BOARD`. The cheapest way to play is ``legal_moves`` plus
``apply``; ``perft`` counts the last ply without building moves.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from arena.games.base import (
    Color,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    StateError,
    Termination,
    TwoColourGame,
    exact_keys,
    show_value,
)
from arena.games.registry import spec_of
from arena.games.shobu import core
from arena.games.shobu.checks import check_move, stones_outcome

START_BOARD = "oooooooo................xxxxxxxxoooooooo................xxxxxxxx"


class ShobuState(NamedTuple):
    """A position: packed stones of each colour, the colour to move, the turn counter (from 0)."""

    black: int
    white: int
    turn: Color
    turn_number: int

    @property
    def board(self) -> str:
        """The 64-character board string."""
        return core.board_from_masks(self.black, self.white)

    def __repr__(self) -> str:
        return (
            f"ShobuState(board={self.board!r}, turn={self.turn.value}, "
            f"turn_number={self.turn_number})"
        )


class ShobuMove(NamedTuple):
    """A turn: both stones move by ``heading``; coordinates are absolute (x, y).

    ``aggressive_heading`` is ``None`` unless a bot sent a different aggressive heading (illegal).
    """

    passive_origin: tuple[int, int]
    aggressive_origin: tuple[int, int]
    heading: tuple[int, int]
    aggressive_heading: tuple[int, int] | None = None


_new_state = tuple.__new__
_new_move = tuple.__new__
_BLACK, _WHITE = Color.BLACK, Color.WHITE
_XY = core.XY_OF_PACKED
_PACKED = core.PACKED_OF_XY
_HEADING_INDEX = core.HEADING_INDEX
_HEADINGS = core.HEADINGS
# Legal moves are shared immutable objects, made once: index packed passive << 10 | packed
# aggressive << 4 | heading. Saves an allocation per move in legal_moves, which search calls a lot.
_INTERNED_MOVES: list[ShobuMove | None] = [None] * (1 << 16)


def _fmt(pair: Any) -> str:
    if isinstance(pair, tuple) and len(pair) == 2:
        return f"({pair[0]},{pair[1]})"
    return repr(pair)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_pair(value: Any, where: str) -> tuple[int, int]:
    pair = exact_keys(value, where, ("x", "y"), MoveSyntaxError)
    for key in ("x", "y"):
        if not _is_int(pair[key]):
            raise MoveSyntaxError(f"{where}.{key} must be an integer, got {show_value(pair[key])}")
    return (pair["x"], pair["y"])


def _plain_pair(value: Any) -> tuple[int, int] | None:
    """``(x, y)`` of a dict of exactly two plain ints ``x`` and ``y`` (what :func:`_parse_pair`
    accepts, bar int subclasses), else None."""
    if type(value) is dict and len(value) == 2:
        x, y = value.get("x"), value.get("y")
        if type(x) is int and type(y) is int:
            return (x, y)
    return None


def _parse_part(value: Any, where: str) -> tuple[tuple[int, int], tuple[int, int]]:
    part = exact_keys(value, where, ("origin", "heading"), MoveSyntaxError)
    return _parse_pair(part["origin"], f"{where}.origin"), _parse_pair(
        part["heading"], f"{where}.heading"
    )


def _exact_pair(value: Any) -> bool:
    """A tuple of two ints that are not bools (nor floats equal to ints, which hash alike)."""
    return type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int


def _wire_pair(pair: tuple[int, int]) -> dict[str, int]:
    return {"x": pair[0], "y": pair[1]}


def _origin_text(pair: tuple[int, int]) -> str:
    if 0 <= pair[0] <= 7 and 0 <= pair[1] <= 7:
        return f"{pair[0]}{pair[1]}"
    return _fmt(pair)


def _heading_text(heading: tuple[int, int]) -> str:
    h = _HEADING_INDEX.get(heading)
    if h is None:
        return _fmt(heading)
    return core.DIRECTION_NAMES[h % 8] + ("2" if h >= 8 else "")


def describe_move(move: ShobuMove) -> str:
    """The move in the terminal notation (module docstring), e.g. ``07 43 N`` or ``16 55 NE2``.

    Never raises: odd headings or off-board origins are shown as ``(x,y)``.
    """
    text = f"{_origin_text(move.passive_origin)} {_origin_text(move.aggressive_origin)} "
    text += _heading_text(move.heading)
    if move.aggressive_heading is not None and move.aggressive_heading != move.heading:
        text += "/" + _heading_text(move.aggressive_heading)
    return text


_NOTATION = re.compile(
    r"\s*([0-7])\s*([0-7])[\s,]*([0-7])\s*([0-7])[\s,]*(NE|NW|SE|SW|N|E|S|W)\s*([12]?)\s*",
    re.IGNORECASE,
)
_DIRECTION_INDEX = {name: i for i, name in enumerate(core.DIRECTION_NAMES)}


def parse_notation(text: str) -> ShobuMove:
    """Read the terminal notation (module docstring); :class:`MoveSyntaxError` when it is not one.

    Only the form is checked; legality is :meth:`ShobuGame.validate_move`'s business.
    """
    found = _NOTATION.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        raise MoveSyntaxError(
            f"cannot read {show_value(text)} as a Shobu turn: expected "
            "'<passive xy> <aggressive xy> <direction>[2]', e.g. '07 43 N' or '16 55 NE2'"
        )
    px, py, ax, ay, direction, steps = found.groups()
    h = _DIRECTION_INDEX[direction.upper()] + (8 if steps == "2" else 0)
    passive = _XY[_PACKED[(int(px), int(py))]]
    aggressive = _XY[_PACKED[(int(ax), int(ay))]]
    return _new_move(ShobuMove, (passive, aggressive, _HEADINGS[h], None))


def state_from_board(board: str, turn: Color = Color.BLACK, turn_number: int = 0) -> ShobuState:
    """A state from a 64-character board; :class:`StateError` if the board is not one."""
    _check_board(board)
    black, white = core.masks_from_board(board)
    return ShobuState(black, white, Color(turn), turn_number)


def board_from_picture(picture: str) -> str:
    """A 64-character board from 8 drawn rows of 8 squares (for tests and hand-made positions).

    Spaces and ``|`` inside a row are ignored, as are blank lines and separator lines made only of
    ``-``, ``+`` and spaces, so sub-boards can be drawn apart::

        oooo|oooo
        ....|....
        ....|....
        xxxx|xxxx
        ----+----
        ...
    """
    rows = []
    for line in picture.splitlines():
        row = line.replace(" ", "").replace("|", "").replace("\t", "")
        if not row or set(row) <= {"-", "+"}:
            continue
        rows.append(row)
    if len(rows) != 8 or any(len(row) != 8 for row in rows):
        lengths = [len(row) for row in rows]
        raise StateError(f"a board picture needs 8 rows of 8 squares, got row lengths {lengths}")
    board = "".join(rows)
    _check_board(board)
    return board


def _check_board(board: Any) -> None:
    if isinstance(board, str) and len(board) == 64 and not board.strip("xo."):
        return  # only x, o and . (str.strip in C): the common case, no loop
    if not isinstance(board, str):
        raise StateError(f"board must be a string, got {show_value(board)}")
    if len(board) != 64:
        raise StateError(f"board must have 64 characters, got {len(board)}")
    for i, char in enumerate(board):
        if char not in "xo.":
            raise StateError(
                f"board has {char!r} at index {i} (square ({i % 8},{i // 8})): "
                "only 'x', 'o' and '.' are allowed"
            )


def stone_counts(state: ShobuState) -> tuple[tuple[int, int], ...]:
    """``(black, white)`` stone counts of each sub-board, Q0..Q3."""
    black, white = state.black, state.white
    return tuple(
        ((black >> (16 * q) & 0xFFFF).bit_count(), (white >> (16 * q) & 0xFFFF).bit_count())
        for q in range(4)
    )


def count_legal_turns(state: ShobuState) -> int:
    """``len(legal_moves(state))`` without building the moves (0 when the game is won)."""
    if state.turn is _BLACK:
        return core.count_turns(state.black, state.white, True)
    return core.count_turns(state.white, state.black, False)


_START_STATE = state_from_board(START_BOARD)


class ShobuGame(TwoColourGame[ShobuState, ShobuMove]):
    """The Shobu forward model; see the module docstring and :class:`arena.games.base.Game`."""

    name = "shobu"
    default_max_moves = 60

    def initial_state(self) -> ShobuState:
        return _START_STATE

    def legal_moves(self, state: ShobuState) -> list[ShobuMove]:
        """Every legal turn, ordered by passive board (left home board first), heading (N, NE, ...
        NW, then the two-step ones), passive origin, aggressive board, aggressive origin."""
        if state.turn is _BLACK:
            groups = core.turn_groups(state.black, state.white, True)
        else:
            groups = core.turn_groups(state.white, state.black, False)
        moves: list[ShobuMove] = []
        append = moves.append
        interned = _INTERNED_MOVES
        for h, passives, aggressors in groups:
            for p in passives:
                base = p << 10 | h
                for a in aggressors:
                    i = base | a << 4
                    move = interned[i]
                    if move is None:
                        move = _new_move(ShobuMove, (_XY[p], _XY[a], _HEADINGS[h], None))
                        interned[i] = move
                    append(move)
        return moves

    def apply(self, state: ShobuState, move: ShobuMove) -> ShobuState:
        """The next state after the legal ``move`` (unchecked: validate first if unsure)."""
        p = _PACKED[move[0]]
        a = _PACKED[move[1]]
        h = _HEADING_INDEX[move[2]]
        if state[2] is _BLACK:
            black, white = core.apply_turn(state[0], state[1], p, a, h)
            return _new_state(ShobuState, (black, white, _WHITE, state[3] + 1))
        white, black = core.apply_turn(state[1], state[0], p, a, h)
        return _new_state(ShobuState, (black, white, _BLACK, state[3] + 1))

    def outcome(self, state: ShobuState) -> Outcome | None:
        # Called every ply by the match: "is there any legal turn" stops at the first one found.
        if state[2] is _BLACK:
            if core.has_turn(state[0], state[1], True):
                return None
        elif core.has_turn(state[1], state[0], False):
            return None
        finished = stones_outcome(state)
        if finished is not None:
            return finished
        return Outcome(
            Termination.NO_LEGAL_MOVES,
            state.turn.other,
            f"{state.turn.value} has no legal turn",
        )

    def parse_move(self, wire: Any) -> ShobuMove:
        """A move from a bot's turn payload (strict shape, integer coordinates), else
        :class:`MoveSyntaxError` naming the problem. Legality is not checked here."""
        # Fast path (every ply of a match, every turn of a replayed record): the exact shape with
        # plain ints; anything else takes the checks below, which name the problem.
        if type(wire) is dict and len(wire) == 2:
            passive, aggressive = wire.get("passive"), wire.get("aggressive")
            if type(passive) is dict and type(aggressive) is dict and len(passive) == 2 and len(aggressive) == 2:
                p_origin, p_heading = _plain_pair(passive.get("origin")), _plain_pair(passive.get("heading"))
                a_origin, a_heading = _plain_pair(aggressive.get("origin")), _plain_pair(aggressive.get("heading"))
                if p_origin is not None and p_heading is not None and a_origin is not None and a_heading is not None:
                    return ShobuMove(p_origin, a_origin, p_heading, None if a_heading == p_heading else a_heading)
        turn = exact_keys(wire, "turn payload", ("passive", "aggressive"), MoveSyntaxError)
        passive_origin, passive_heading = _parse_part(turn["passive"], "passive")
        aggressive_origin, aggressive_heading = _parse_part(turn["aggressive"], "aggressive")
        different = None if aggressive_heading == passive_heading else aggressive_heading
        return ShobuMove(passive_origin, aggressive_origin, passive_heading, different)

    def move_to_wire(self, move: ShobuMove) -> dict[str, Any]:
        aggressive_heading = move.aggressive_heading or move.heading
        return {
            "passive": {
                "origin": _wire_pair(move.passive_origin),
                "heading": _wire_pair(move.heading),
            },
            "aggressive": {
                "origin": _wire_pair(move.aggressive_origin),
                "heading": _wire_pair(aggressive_heading),
            },
        }

    def move_to_record(self, move: ShobuMove) -> dict[str, Any]:
        return self.move_to_wire(move)

    def describe_move(self, move: ShobuMove) -> str:
        return describe_move(move)

    def parse_notation(self, text: str, state: ShobuState) -> ShobuMove:
        """The legal turn ``text`` names (``07 43 N``); MoveSyntaxError when it is not the notation,
        IllegalMoveError with the rules' reason (and a hint when the two stones are swapped)."""
        move = parse_notation(text)
        try:
            return self.validate_move(state, move)
        except IllegalMoveError as exc:
            swapped = move._replace(passive_origin=move.aggressive_origin, aggressive_origin=move.passive_origin)
            if swapped in self.legal_moves(state):
                raise IllegalMoveError(
                    f"{exc}. Did you mean {self.describe_move(swapped)}? The passive stone (on your"
                    " home board) comes first"
                ) from None
            raise

    def board_text(self, state: ShobuState) -> str:
        """Eight rows of ``x`` (black) ``o`` (white) ``.``, y = 0 at the top, a gap between boards."""
        board = core.board_from_masks(state[0], state[1])
        rows = [board[8 * y: 8 * y + 4] + " " + board[8 * y + 4: 8 * y + 8] for y in range(8)]
        return "\n".join(rows[:4] + [""] + rows[4:])

    def board_json(self, state: ShobuState) -> str:
        return core.board_from_masks(state.black, state.white)

    def read_board(self, board: Any, turn: Color, turn_number: int) -> ShobuState:
        """Strict: ``board`` is 64 of ``x o .``; :class:`StateError` naming the first problem."""
        _check_board(board)
        black, white = core.masks_from_board(board)
        return ShobuState(black, white, turn, turn_number)

    def validate_move(self, state: ShobuState, move: ShobuMove) -> ShobuMove:
        """The canonical form of ``move`` if it is legal in ``state``.

        Raises :class:`IllegalMoveError` with the first rule it breaks (squares named as (x,y)),
        or :class:`MoveSyntaxError` if ``move`` is not a ShobuMove of integer pairs at all.
        """
        # Fast path for a well-formed legal move: two cached sub-board analyses say yes, and the
        # move is the interned one legal_moves would list. Anything else goes to check_move, which
        # finds the reason. It saves ~14 us a ply, ~13% of arena's CPU per ply (in-process match
        # loop 40.7 -> 54.9 us without it; bench/engine_overhead.py --cpu-only), so it stays; the
        # tests hold it to check_move.
        if type(move) is ShobuMove and move[3] is None:
            origin, target, heading = move[0], move[1], move[2]
            if _exact_pair(origin) and _exact_pair(target) and _exact_pair(heading):
                p = _PACKED.get(origin)
                a = _PACKED.get(target)
                h = _HEADING_INDEX.get(heading)
                if p is not None and a is not None and h is not None:
                    if state[2] is _BLACK:
                        legal = core.is_legal_turn(state[0], state[1], True, p, a, h)
                    else:
                        legal = core.is_legal_turn(state[1], state[0], False, p, a, h)
                    if legal:
                        i = p << 10 | a << 4 | h
                        interned = _INTERNED_MOVES[i]
                        if interned is None:
                            interned = _INTERNED_MOVES[i] = _new_move(
                                ShobuMove, (_XY[p], _XY[a], _HEADINGS[h], None)
                            )
                        return interned
        p, a, h = check_move(state, move)
        return _new_move(ShobuMove, (_XY[p], _XY[a], _HEADINGS[h], None))

    def count_leaves(self, state: ShobuState, depth: int) -> int:
        """Perft on the masks, counting the last ply in bulk."""
        if state.turn is _BLACK:
            return core.perft(state.black, state.white, True, depth)
        return core.perft(state.white, state.black, False, depth)


SPEC = spec_of(ShobuGame, "Shobu", protocol="shobu-json", svg="arena.games.shobu.svg:board_svg",
               summary="four 4x4 boards; a passive then an aggressive move; push all enemy stones off one board",
               notation="<passive xy> <aggressive xy> <direction>[2], e.g. 07 43 N")
