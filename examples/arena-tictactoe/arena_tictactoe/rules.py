"""The rules of tic-tac-toe as an arena forward model (:class:`arena.games.base.Game`).

Standard library (and :mod:`arena.games.base`) only, like arena's own games.

- The board has 9 cells, numbered 0-8 in reading order: cell ``3 * row + column``, row 0 at the
  top. X is Black and moves first, O is White. A player who makes three in a row (row, column or
  diagonal) wins; a full board without one is a draw (:attr:`Termination.DRAW`).
- State object (records, and the payload arena sends to bots)::

      {"board": ["x.o", ".x.", "..o"], "turn": "BLACK", "turnNumber": 4}

  ``board`` is the three rows from the top, ``"x"``, ``"o"`` or ``"."`` per cell; ``turn`` the side
  to move; ``turnNumber`` the number of marks on the board (arena's ply counter).
- Wire move (what a bot answers in ``{"type": "turn", "payload": ...}``): the cell index, a JSON
  integer 0-8. Cell ``i`` is ``board[i // 3][i % 3]``.
- Notation (records' ``describe_move``, the human player): the square, file ``a``-``c`` from the
  left, rank ``1``-``3`` from the bottom, as on a chess board: ``a3`` is cell 0, ``b2`` cell 4,
  ``c1`` cell 8.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from arena.api import (
    Color,
    Game,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    StateError,
    Termination,
    cap_text,
    read_state_fields,
    show_value,
)

SIZE = 3
CELLS = SIZE * SIZE
EMPTY = "."
MARK = {Color.BLACK: "x", Color.WHITE: "o"}
#: Every line of three cells: rows, columns, diagonals.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)
FILES = "abc"


def square_name(cell: int) -> str:
    """``"a3"`` for cell 0 ... ``"c1"`` for cell 8."""
    return f"{FILES[cell % SIZE]}{SIZE - cell // SIZE}"


def cell_of(name: str) -> int:
    """The cell of a square name (``"b2"`` -> 4, any case, spaces ignored); MoveSyntaxError else."""
    text = "".join(name.split()).lower()
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123":
        raise MoveSyntaxError(f"{cap_text(name.strip())!r} is not a square: expected a1 .. c3 (a3 is top left)")
    return FILES.index(text[0]) + SIZE * (SIZE - int(text[1]))


def winning_line(cells: str) -> tuple[int, int, int] | None:
    """The first complete line of one mark on ``cells`` (9 characters), or None."""
    for line in LINES:
        a, b, c = line
        if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]:
            return line
    return None


class TicTacToeState(NamedTuple):
    """A position: the 9 cells in reading order. The side to move and the ply follow from it."""

    cells: str = EMPTY * CELLS


class TicTacToe(Game[TicTacToeState, int]):
    """Tic-tac-toe; moves are cell indices 0-8 (see the module docstring)."""

    name: ClassVar[str] = "tictactoe"
    default_max_moves: ClassVar[int] = CELLS

    def initial_state(self) -> TicTacToeState:
        return TicTacToeState()

    def ply(self, state: TicTacToeState) -> int:
        return CELLS - state.cells.count(EMPTY)

    def to_move(self, state: TicTacToeState) -> Color:
        return Color.BLACK if self.ply(state) % 2 == 0 else Color.WHITE

    def legal_moves(self, state: TicTacToeState) -> list[int]:
        cells = state.cells
        if winning_line(cells) is not None:
            return []
        return [i for i in range(CELLS) if cells[i] == EMPTY]

    def apply(self, state: TicTacToeState, move: int) -> TicTacToeState:
        mark = MARK[self.to_move(state)]
        return TicTacToeState(state.cells[:move] + mark + state.cells[move + 1:])

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        line = winning_line(state.cells)
        if line is not None:
            winner = Color.BLACK if state.cells[line[0]] == MARK[Color.BLACK] else Color.WHITE
            return Outcome(Termination.WIN, winner, "three in a row: " + "-".join(map(square_name, line)))
        if EMPTY not in state.cells:
            return Outcome(Termination.DRAW, None, "the board is full")
        return None

    # -- moves: the wire form, the record, the notation ---------------------------------------------

    def parse_move(self, wire: Any) -> int:
        """The cell of a bot's move: a JSON integer 0-8 (not a bool, a float or a string)."""
        if type(wire) is not int or not 0 <= wire < CELLS:
            raise MoveSyntaxError(f"a move is a cell number 0-8, got {show_value(wire)}")
        return wire

    def move_to_wire(self, move: int) -> int:
        return move

    def move_to_record(self, move: int) -> dict[str, Any]:
        return {"cell": move, "square": square_name(move)}

    def move_from_record(self, turn: Any) -> int:
        if not isinstance(turn, dict) or "cell" not in turn:
            raise MoveSyntaxError(f'a record turn is {{"cell": n, "square": "b2"}}, got {show_value(turn)}')
        return self.parse_move(turn["cell"])

    def describe_move(self, move: int) -> str:
        return square_name(move)

    def parse_notation(self, text: str, state: TicTacToeState) -> int:
        """The move ``text`` names (``b2``); MoveSyntaxError if it is no square, IllegalMoveError
        if that square is taken or the game is over."""
        return self.validate_move(state, cell_of(text))

    def validate_move(self, state: TicTacToeState, move: int) -> int:
        outcome = self.outcome(state)
        if outcome is not None:
            raise IllegalMoveError(f"the game is over ({outcome.reason})")
        taken = state.cells[move]
        if taken != EMPTY:
            raise IllegalMoveError(f"{square_name(move)} is already taken by {taken.upper()}")
        return move

    # -- the state object ----------------------------------------------------------------------------

    def state_to_json(self, state: TicTacToeState) -> dict[str, Any]:
        cells = state.cells
        rows = [cells[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]
        return {"board": rows, "turn": self.to_move(state).value, "turnNumber": self.ply(state)}

    def state_from_json(self, obj: Any) -> TicTacToeState:
        """The state of a state object; StateError naming the first problem (shape, marks, counts)."""
        board, turn, turn_number = read_state_fields(obj)
        if not isinstance(board, list) or len(board) != SIZE:
            raise StateError(f"board must be a list of 3 rows, got {show_value(board)}")
        for r, row in enumerate(board):
            if not isinstance(row, str) or len(row) != SIZE or set(row) - {EMPTY, "x", "o"}:
                raise StateError(f'board row {r} must be 3 of "x", "o", ".", got {show_value(row)}')
        state = TicTacToeState("".join(board))
        xs, os_ = state.cells.count("x"), state.cells.count("o")
        if xs not in (os_, os_ + 1):
            raise StateError(f"{xs} X and {os_} O cannot happen: X moves first and the sides alternate")
        if turn is not self.to_move(state) or turn_number != xs + os_:
            raise StateError(f"with {xs} X and {os_} O it is {self.to_move(state).value}'s turn "
                             f"and turnNumber {xs + os_}, got {turn.value} and {turn_number}")
        cells = state.cells
        lines = {cells[a] for a, b, c in LINES if cells[a] != EMPTY and cells[a] == cells[b] == cells[c]}
        if len(lines) == 2:
            raise StateError("both X and O have three in a row")
        if MARK[turn] in lines:
            raise StateError(f"{MARK[turn].upper()} has three in a row but is to move again")
        return state

    def board_text(self, state: TicTacToeState) -> str:
        """The board with ranks and files::

            3  X . O
            2  . X .
            1  . . O
               a b c
        """
        cells = state.cells.upper()
        rows = [f"{SIZE - r}  " + " ".join(cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
        return "\n".join([*rows, "   " + " ".join(FILES)])


__all__ = ["CELLS", "LINES", "TicTacToe", "TicTacToeState", "cell_of", "square_name", "winning_line"]
