"""The Abalone board as bit masks: cells, directions, move generation and moves applied (stdlib only).

Cells. The 61 cells carry their standard names: rows ``A`` (bottom, Black's side) to ``I`` (top),
and the north-west/south-east diagonals ``1`` to ``9``. Row ``A`` holds A1-A5, ``B`` B1-B6, ``C``
C1-C7, ``D`` D1-D8, ``E`` E1-E9, ``F`` F2-F9, ``G`` G3-G9, ``H`` H4-H9, ``I`` I5-I9; E5 is the centre.

Representation (why: speed for search). A cell of row ``r`` (0 for A ... 8 for I) and diagonal
``c`` (1-9) is bit ``(r + 1) * 11 + c`` of a Python int: an 11 x 11 grid with a ring of unused
cells round the hexagon, so that every direction is one constant shift (E +1, NE +12, NW +11,
W -1, SW -12, SE -11) and a shift that leaves the board lands on an unused bit, never on another
cell. A side's marbles are one mask; the generator works on whole masks (all heads of all lines
in one direction at a time), never cell by cell.

A raw move is ``(moved, offset, pushed)``: the mask of the 1-3 own marbles that move, the shift of
the direction, and the mask of the enemy marbles they push (0 for none). It is what the search
adapter plays; :mod:`arena.games.abalone.rules` turns it into the rules' move objects.
"""

from __future__ import annotations

ROWS = "ABCDEFGHI"
STRIDE = 11
GRID = (1 << (STRIDE * STRIDE)) - 1

#: Direction names, counter-clockwise from east; ``(i + 3) % 6`` is the opposite of ``i``.
DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
#: The bit shift of each direction (same order).
OFFSETS = (1, 12, 11, -1, -12, -11)
#: The three line axes, as the offsets of E, NE and NW.
AXES = (1, 12, 11)
#: Marbles a side starts with; a side left with LOSING_COUNT (six pushed off) has lost.
START_MARBLES = 14
LOSING_COUNT = 8


def bit_index(row: int, diagonal: int) -> int:
    """The bit of the cell on row ``row`` (0 = A) and diagonal ``diagonal`` (1-9)."""
    return (row + 1) * STRIDE + diagonal


def row_span(row: int) -> range:
    """The diagonals present on row ``row`` (0 = A): 1-5 on A, 1-9 on E, 5-9 on I."""
    return range(max(1, row - 3), min(9, row + 5) + 1)


#: Every cell's bit, in reading order of the names: A1..A5, B1..B6, ..., I5..I9.
CELLS: tuple[int, ...] = tuple(bit_index(r, c) for r in range(9) for c in row_span(r))
VALID = sum(1 << i for i in CELLS)
NAMES: dict[int, str] = {bit_index(r, c): f"{ROWS[r]}{c}" for r in range(9) for c in row_span(r)}
INDEX: dict[str, int] = {name: i for i, name in NAMES.items()}
#: Bits of the unused ring (and everything else off the board) inside the grid.
OFF = GRID & ~VALID


def _start() -> tuple[int, int]:
    black = [f"A{c}" for c in range(1, 6)] + [f"B{c}" for c in range(1, 7)] + ["C3", "C4", "C5"]
    white = [f"I{c}" for c in range(5, 10)] + [f"H{c}" for c in range(4, 10)] + ["G5", "G6", "G7"]
    return sum(1 << INDEX[n] for n in black), sum(1 << INDEX[n] for n in white)


#: The standard start: Black on A1-A5, B1-B6, C3-C5; White on I5-I9, H4-H9, G5-G7.
START_BLACK, START_WHITE = _start()


def hex_distance(index: int, other: int) -> int:
    """Steps between two cells (hex distance)."""
    r1, c1 = divmod(index, STRIDE)
    r2, c2 = divmod(other, STRIDE)
    dr, dc = r2 - r1, c2 - c1
    return max(abs(dr), abs(dc), abs(dr - dc))


CENTRE = INDEX["E5"]
#: Distance of every cell from E5 (0 for the centre, 4 on the border).
DISTANCE: dict[int, int] = {i: hex_distance(i, CENTRE) for i in CELLS}
#: The 24 cells of the edge ring, the only ones a marble is pushed off from.
EDGE = sum(1 << i for i in CELLS if DISTANCE[i] == 4)


def shift(mask: int, offset: int) -> int:
    """``mask`` moved one step by ``offset`` (bits falling below 0 are dropped)."""
    return mask << offset if offset > 0 else mask >> -offset


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _inline_heads(mine: int, theirs: int, offset: int) -> tuple[int, int, int, int, int, int]:
    """Heads (front marbles) of the inline moves of ``mine`` in direction ``offset``, one mask per
    kind: (1 to empty, 2 to empty, 3 to empty, 2 push 1, 3 push 1, 3 push 2).

    A pushed line is contiguous enemy marbles followed by a cell that holds no marble (empty or off
    the board): an own marble behind them blocks, as does a longer enemy line."""
    occupied = mine | theirs
    empty = VALID & ~occupied
    free = GRID & ~occupied  # empty or off the board
    back = -offset
    two = mine & shift(mine, offset)  # h with h - offset own
    three = two & shift(mine, 2 * offset)
    ahead_empty = shift(empty, back)
    ahead_enemy = shift(theirs, back)
    free_2 = shift(free, 2 * back)
    enemy_2 = ahead_enemy & shift(theirs, 2 * back)
    push_1 = ahead_enemy & free_2
    return (mine & ahead_empty, two & ahead_empty, three & ahead_empty,
            two & push_1, three & push_1, three & enemy_2 & shift(free, 3 * back))


def _broadside_anchors(mine: int, empty: int, axis: int, offset: int) -> tuple[int, int]:
    """Low ends of the 2- and 3-marble lines along ``axis`` whose every marble can step ``offset``
    onto an empty cell: (pairs, triples)."""
    can = mine & shift(empty, -offset)  # own marbles whose neighbour that way is empty
    pairs = can & shift(can, -axis)
    return pairs, pairs & shift(can, -2 * axis)


def _line(head: int, offset: int, length: int) -> int:
    """The mask of ``length`` cells ending at bit ``head``, stepping back against ``offset``."""
    mask = 0
    cell = head
    for _ in range(length):
        mask |= 1 << cell
        cell -= offset
    return mask


def count_moves(mine: int, theirs: int) -> int:
    """The number of legal moves of ``mine`` (the game-over test is the caller's)."""
    total = 0
    empty = VALID & ~(mine | theirs)
    for offset in OFFSETS:
        for heads in _inline_heads(mine, theirs, offset)[1:]:
            total += heads.bit_count()
    # A single marble's step counts once per direction (it is no line, so not a broadside too).
    for offset in OFFSETS:
        total += (mine & shift(empty, -offset)).bit_count()
        for axis in AXES:
            if axis in (offset, -offset):
                continue
            pairs, triples = _broadside_anchors(mine, empty, axis, offset)
            total += pairs.bit_count() + triples.bit_count()
    return total


def raw_moves(mine: int, theirs: int) -> list[tuple[int, int, int]]:
    """Every legal move of ``mine`` as ``(moved, offset, pushed)`` (module docstring), inline moves
    first; the game-over test is the caller's."""
    moves: list[tuple[int, int, int]] = []
    empty = VALID & ~(mine | theirs)
    for offset in OFFSETS:
        one, two, three, two_push, three_push, three_push_two = _inline_heads(mine, theirs, offset)
        for length, heads in ((1, one), (2, two), (3, three)):
            for head in bits(heads):
                moves.append((_line(head, offset, length), offset, 0))
        for length, pushed, heads in ((2, 1, two_push), (3, 1, three_push), (3, 2, three_push_two)):
            for head in bits(heads):
                moves.append((_line(head, offset, length), offset, _line(head + pushed * offset, offset, pushed)))
        for axis in AXES:
            if axis in (offset, -offset):
                continue
            pairs, triples = _broadside_anchors(mine, empty, axis, offset)
            for length, lows in ((2, pairs), (3, triples)):
                for low in bits(lows):
                    moves.append((_line(low + (length - 1) * axis, axis, length), offset, 0))
    return moves


def play(mine: int, theirs: int, move: tuple[int, int, int]) -> tuple[int, int]:
    """``(mine, theirs)`` after the legal raw ``move``; a marble pushed off the board disappears."""
    moved, offset, pushed = move
    mine = (mine & ~moved) | shift(moved, offset)
    if pushed:
        theirs = (theirs & ~pushed) | (shift(pushed, offset) & VALID)
    return mine, theirs


def push_off_targets(attacker: int, defender: int) -> int:
    """The marbles of ``defender`` that ``attacker`` could push off the board with one move: 2 or 3
    against 1 at the edge (that marble goes off), 3 against 2 (the second one goes off).

    Written out per sign of the direction, without :func:`shift`: it runs at every leaf of a search.
    (Counting pushes onto the edge ring as threats too made the search agent no better against the
    greedy bot: bench/abalone_strength.py.)"""
    threatened = 0
    for a in AXES:
        a2, a3 = 2 * a, 3 * a
        # Towards +a: the line's head h has h - a own, h + a enemy, then the edge or a second enemy.
        ahead = attacker & (attacker << a) & (defender >> a)
        if ahead:
            threatened |= (ahead & (OFF >> a2)) << a
            threatened |= (ahead & (attacker << a2) & (defender >> a2) & (OFF >> a3)) << a2
        # Towards -a.
        ahead = attacker & (attacker >> a) & (defender << a)
        if ahead:
            threatened |= (ahead & (OFF << a2)) >> a
            threatened |= (ahead & (attacker >> a2) & (defender << a2) & (OFF << a3)) >> a2
    return threatened & defender


def can_step(mine: int, theirs: int) -> bool:
    """Whether some marble of ``mine`` has an empty neighbour (then a one-marble move exists)."""
    empty = VALID & ~(mine | theirs)
    near = 0
    for a in AXES:
        near |= (empty << a) | (empty >> a)
    return bool(mine & near)


def perft(mine: int, theirs: int, depth: int) -> int:
    """Leaf count of the move tree ``depth`` plies deep (``depth >= 1``) from ``mine`` to move;
    a side left with :data:`LOSING_COUNT` marbles has lost and has no moves."""
    if mine.bit_count() <= LOSING_COUNT:
        return 0
    if depth == 1:
        return count_moves(mine, theirs)
    total = 0
    for move in raw_moves(mine, theirs):
        after_mine, after_theirs = play(mine, theirs, move)
        total += perft(after_theirs, after_mine, depth - 1)
    return total


__all__ = [
    "AXES",
    "CELLS",
    "CENTRE",
    "DIRECTIONS",
    "DISTANCE",
    "EDGE",
    "INDEX",
    "LOSING_COUNT",
    "NAMES",
    "OFF",
    "OFFSETS",
    "ROWS",
    "START_BLACK",
    "START_MARBLES",
    "START_WHITE",
    "VALID",
    "bit_index",
    "bits",
    "can_step",
    "count_moves",
    "hex_distance",
    "perft",
    "play",
    "push_off_targets",
    "raw_moves",
    "row_span",
    "shift",
]
