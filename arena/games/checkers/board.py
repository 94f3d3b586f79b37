"""Bitboard core of English draughts: square geometry, move tables, generation and counting.

Standard library only. Everything here works on plain ints so that the search bot and perft can
run without building objects; :mod:`arena.games.checkers.rules` wraps it in the :class:`Game` interface.

Squares. The 32 dark squares are numbered by *index* 0..31 = PDN number - 1, row by row from the
top: index ``i`` is at ``row = i // 4`` and ``col = 2 * (i % 4) + (1 if row is even else 0)``.
A position is three 32-bit masks (bit ``i`` = square index ``i``): the black pieces, the white
pieces and the kings of both colours. Black men move down (towards index 31), white men up.

Functions named ``*_rel`` take the position relative to the side to move: ``me`` (its pieces),
``them`` (the opponent's), ``kings`` (both colours) and ``black`` (True when the mover is black).

Public helpers (the search bot uses them directly): :func:`jumps_rel` and :func:`steps_rel` list
moves as square indices, :func:`count_moves_rel` counts them without building them,
:func:`jumpers_rel` / :func:`has_jump_rel` / :func:`has_step_rel` answer "must it capture?" and
"can it move?", :func:`children_rel` and :func:`perft_rel` walk the move tree. Tables:
``COORDS`` (index -> (col, row)), ``INDEX_OF`` (the inverse, dark squares only), crowning rows
``BLACK_CROWN`` / ``WHITE_CROWN``, per-square step and jump tables.

Why shifts work. Moving one row down from index ``i`` adds 4 for one of the two diagonals and 3 or
5 (depending on the row's parity) for the other; a jump adds 7 or 9. Each such (direction, row
parity) group is a single shift over a mask of the squares where it stays on the board, so all
steps of one group are found with one shift and one AND. The masks are derived from the tables
below rather than written by hand.
"""

from __future__ import annotations

from typing import Final

FULL: Final = (1 << 32) - 1

# Direction vectors (dcol, drow); the order is the order moves are listed in.
UP_LEFT: Final = (-1, -1)
UP_RIGHT: Final = (1, -1)
DOWN_LEFT: Final = (-1, 1)
DOWN_RIGHT: Final = (1, 1)
DIRECTIONS: Final = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)


def index_coords(index: int) -> tuple[int, int]:
    """``(col, row)`` of square index ``index`` (0..31)."""
    row = index // 4
    return 2 * (index % 4) + (1 if row % 2 == 0 else 0), row


COORDS: Final[tuple[tuple[int, int], ...]] = tuple(index_coords(i) for i in range(32))
INDEX_OF: Final[dict[tuple[int, int], int]] = {coords: i for i, coords in enumerate(COORDS)}


def _rows_mask(rows: range | tuple[int, ...]) -> int:
    return sum(1 << i for i, (_, row) in enumerate(COORDS) if row in rows)


ROW0: Final = _rows_mask((0,))
ROW7: Final = _rows_mask((7,))
BLACK_CROWN: Final = ROW7  # black men are crowned on the bottom row
WHITE_CROWN: Final = ROW0


def _neighbour(index: int, direction: tuple[int, int], distance: int) -> int:
    """Index of the square ``distance`` steps away along ``direction``, or -1 off the board."""
    col, row = COORDS[index]
    return INDEX_OF.get((col + distance * direction[0], row + distance * direction[1]), -1)


# STEP_TO[d][i]: neighbour index along DIRECTIONS[d]; JUMP_OVER / JUMP_TO likewise two away.
STEP_TO: Final = tuple(tuple(_neighbour(i, d, 1) for i in range(32)) for d in DIRECTIONS)
JUMP_TO: Final = tuple(tuple(_neighbour(i, d, 2) for i in range(32)) for d in DIRECTIONS)

_DOWN = (DIRECTIONS.index(DOWN_LEFT), DIRECTIONS.index(DOWN_RIGHT))
_UP = (DIRECTIONS.index(UP_LEFT), DIRECTIONS.index(UP_RIGHT))
_ALL = (0, 1, 2, 3)


def _step_table(dirs: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per square: ``(target_bit, target_index)`` for each on-board step along ``dirs``."""
    return tuple(
        tuple((1 << STEP_TO[d][i], STEP_TO[d][i]) for d in dirs if STEP_TO[d][i] >= 0)
        for i in range(32)
    )


def _jump_table(dirs: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per square: ``(over_bit, land_bit, land_index)`` for each on-board jump along ``dirs``."""
    return tuple(
        tuple(
            (1 << STEP_TO[d][i], 1 << JUMP_TO[d][i], JUMP_TO[d][i])
            for d in dirs
            if JUMP_TO[d][i] >= 0
        )
        for i in range(32)
    )


# Tables indexed by square: what a black man, a white man and a king (either colour) may do.
BLACK_MAN_STEPS: Final = _step_table(_DOWN)
WHITE_MAN_STEPS: Final = _step_table(_UP)
KING_STEPS: Final = _step_table(_ALL)
BLACK_MAN_JUMPS: Final = _jump_table(_DOWN)
WHITE_MAN_JUMPS: Final = _jump_table(_UP)
KING_JUMPS: Final = _jump_table(_ALL)


def _step_groups(dirs: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(source_mask, |shift|)`` for every distinct index shift of a step along ``dirs``."""
    groups: dict[int, int] = {}
    for d in dirs:
        for i in range(32):
            if STEP_TO[d][i] >= 0:
                shift = abs(STEP_TO[d][i] - i)
                groups[shift] = groups.get(shift, 0) | (1 << i)
    return tuple(sorted((mask, shift) for shift, mask in groups.items()))


def _jump_groups(dirs: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """``(source_mask, |shift to the jumped square|, |shift on to the landing|)`` per group."""
    groups: dict[tuple[int, int], int] = {}
    for d in dirs:
        for i in range(32):
            if JUMP_TO[d][i] >= 0:
                key = (abs(STEP_TO[d][i] - i), abs(JUMP_TO[d][i] - STEP_TO[d][i]))
                groups[key] = groups.get(key, 0) | (1 << i)
    return tuple(sorted((mask, over, land) for (over, land), mask in groups.items()))


# Down = towards higher indices (left shifts); up = towards lower indices (right shifts).
DOWN_STEP_GROUPS: Final = _step_groups(_DOWN)
UP_STEP_GROUPS: Final = _step_groups(_UP)
DOWN_JUMP_GROUPS: Final = _jump_groups(_DOWN)
UP_JUMP_GROUPS: Final = _jump_groups(_UP)

# The unrolled hot paths below name each group; check the derivation gave the expected shapes.
assert sorted(s for _, s in DOWN_STEP_GROUPS) == [3, 4, 5]
assert sorted(s for _, s in UP_STEP_GROUPS) == [3, 4, 5]
_DS = {s: m for m, s in DOWN_STEP_GROUPS}
_US = {s: m for m, s in UP_STEP_GROUPS}
_DJ = {(o, l): m for m, o, l in DOWN_JUMP_GROUPS}
_UJ = {(o, l): m for m, o, l in UP_JUMP_GROUPS}
assert sorted(_DJ) == [(3, 4), (4, 3), (4, 5), (5, 4)] and sorted(_UJ) == sorted(_DJ)
DS3, DS4, DS5 = _DS[3], _DS[4], _DS[5]
US3, US4, US5 = _US[3], _US[4], _US[5]
DJ34, DJ43, DJ45, DJ54 = _DJ[(3, 4)], _DJ[(4, 3)], _DJ[(4, 5)], _DJ[(5, 4)]
UJ34, UJ43, UJ45, UJ54 = _UJ[(3, 4)], _UJ[(4, 3)], _UJ[(4, 5)], _UJ[(5, 4)]


def has_jump_rel(me: int, them: int, kings: int, black: bool) -> bool:
    """True when the side to move has at least one capture (so it must capture)."""
    empty = FULL ^ (me | them)
    down = me if black else me & kings
    up = me & kings if black else me
    if down and (
        (((down & DJ34) << 3 & them) << 4 & empty)
        or (((down & DJ43) << 4 & them) << 3 & empty)
        or (((down & DJ45) << 4 & them) << 5 & empty)
        or (((down & DJ54) << 5 & them) << 4 & empty)
    ):
        return True
    return bool(
        up
        and (
            (((up & UJ34) >> 3 & them) >> 4 & empty)
            or (((up & UJ43) >> 4 & them) >> 3 & empty)
            or (((up & UJ45) >> 4 & them) >> 5 & empty)
            or (((up & UJ54) >> 5 & them) >> 4 & empty)
        )
    )


def jumpers_rel(me: int, them: int, kings: int, black: bool) -> int:
    """Mask of the pieces of the side to move that can capture (0 when none can)."""
    empty = FULL ^ (me | them)
    down = me if black else me & kings
    up = me & kings if black else me
    found = 0
    if down:
        found = (
            (((down & DJ34) << 3 & them) << 4 & empty) >> 7
            | (((down & DJ43) << 4 & them) << 3 & empty) >> 7
            | (((down & DJ45) << 4 & them) << 5 & empty) >> 9
            | (((down & DJ54) << 5 & them) << 4 & empty) >> 9
        )
    if up:
        found |= (
            (((up & UJ34) >> 3 & them) >> 4 & empty) << 7
            | (((up & UJ43) >> 4 & them) >> 3 & empty) << 7
            | (((up & UJ45) >> 4 & them) >> 5 & empty) << 9
            | (((up & UJ54) >> 5 & them) >> 4 & empty) << 9
        )
    return found


def count_steps_rel(me: int, them: int, kings: int, black: bool) -> int:
    """Number of non-capturing moves of the side to move (ignores the capture obligation)."""
    empty = FULL ^ (me | them)
    down = me if black else me & kings
    up = me & kings if black else me
    count = 0
    if down:
        count = (
            ((down & DS4) << 4 & empty).bit_count()
            + ((down & DS3) << 3 & empty).bit_count()
            + ((down & DS5) << 5 & empty).bit_count()
        )
    if up:
        count += (
            ((up & US4) >> 4 & empty).bit_count()
            + ((up & US3) >> 3 & empty).bit_count()
            + ((up & US5) >> 5 & empty).bit_count()
        )
    return count


def has_step_rel(me: int, them: int, kings: int, black: bool) -> bool:
    """True when the side to move has at least one non-capturing move."""
    empty = FULL ^ (me | them)
    down = me if black else me & kings
    up = me & kings if black else me
    return bool(
        ((down & DS4) << 4 | (down & DS3) << 3 | (down & DS5) << 5) & empty
        or ((up & US4) >> 4 | (up & US3) >> 3 | (up & US5) >> 5) & empty
    )


def _jump_paths(
    index: int,
    path: tuple[int, ...],
    them: int,
    empty: int,
    captured: int,
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    crown: int,
    out: list[tuple[tuple[int, ...], int]],
) -> None:
    """Append every complete jump sequence continuing ``path`` (which ends at ``index``).

    ``them`` holds the enemy pieces not yet jumped (a piece is jumped at most once); jumped pieces
    stay on the board until the move ends, so they are not in ``empty``. ``crown`` is the crowning
    row for a man (0 for a king): a man landing there stops, as crowning ends the move.
    """
    extended = False
    for over, land_bit, land in table[index]:
        if them & over and empty & land_bit:
            extended = True
            if land_bit & crown:
                out.append((path + (land,), captured | over))
            else:
                _jump_paths(
                    land,
                    path + (land,),
                    them ^ over,
                    (empty | (1 << index)) ^ land_bit,
                    captured | over,
                    table,
                    crown,
                    out,
                )
    if not extended:
        out.append((path, captured))


def _count_jump_paths(
    index: int,
    them: int,
    empty: int,
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    crown: int,
) -> int:
    """Number of complete jump sequences from ``index`` (same rules as :func:`_jump_paths`);
    0 when the piece cannot jump at all."""
    count = 0
    for over, land_bit, land in table[index]:
        if them & over and empty & land_bit:
            if land_bit & crown:
                count += 1
            else:
                count += (
                    _count_jump_paths(land, them ^ over, (empty | (1 << index)) ^ land_bit, table, crown)
                    or 1
                )
    return count


def jumps_rel(me: int, them: int, kings: int, black: bool) -> list[tuple[tuple[int, ...], int]]:
    """Every capture of the side to move as ``(path of square indices, captured mask)``.

    Ordered by starting square, then direction (up-left, up-right, down-left, down-right),
    depth first. Empty when there is no capture.
    """
    out: list[tuple[tuple[int, ...], int]] = []
    pieces = jumpers_rel(me, them, kings, black)
    if not pieces:
        return out
    empty = FULL ^ (me | them)
    man_table = BLACK_MAN_JUMPS if black else WHITE_MAN_JUMPS
    crown = BLACK_CROWN if black else WHITE_CROWN
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        index = low.bit_length() - 1
        if kings & low:
            _jump_paths(index, (index,), them, empty | low, 0, KING_JUMPS, 0, out)
        else:
            _jump_paths(index, (index,), them, empty | low, 0, man_table, crown, out)
    return out


def steps_rel(me: int, them: int, kings: int, black: bool) -> list[tuple[int, int]]:
    """Every non-capturing move of the side to move as ``(from_index, to_index)``, ordered by
    starting square then direction (ignores the capture obligation)."""
    empty = FULL ^ (me | them)
    man_table = BLACK_MAN_STEPS if black else WHITE_MAN_STEPS
    out: list[tuple[int, int]] = []
    pieces = me
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        index = low.bit_length() - 1
        for target_bit, target in (KING_STEPS if kings & low else man_table)[index]:
            if empty & target_bit:
                out.append((index, target))
    return out


def count_moves_rel(me: int, them: int, kings: int, black: bool) -> int:
    """Number of legal moves of the side to move (bulk count: no move is built)."""
    pieces = jumpers_rel(me, them, kings, black)
    if not pieces:
        return count_steps_rel(me, them, kings, black)
    empty = FULL ^ (me | them)
    man_table = BLACK_MAN_JUMPS if black else WHITE_MAN_JUMPS
    crown = BLACK_CROWN if black else WHITE_CROWN
    count = 0
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        if kings & low:
            count += _count_jump_paths(low.bit_length() - 1, them, empty | low, KING_JUMPS, 0)
        else:
            count += _count_jump_paths(low.bit_length() - 1, them, empty | low, man_table, crown)
    return count


def children_rel(me: int, them: int, kings: int, black: bool) -> list[tuple[int, int, int]]:
    """The positions after each legal move, as ``(me, them, kings)`` from the *same* side's view
    (the caller swaps the roles for the next ply). Order is unspecified (used by perft)."""
    crown = BLACK_CROWN if black else WHITE_CROWN
    out: list[tuple[int, int, int]] = []
    captures = jumps_rel(me, them, kings, black)
    if captures:
        for path, captured in captures:
            origin = 1 << path[0]
            target = 1 << path[-1]
            new_kings = kings & ~captured
            if new_kings & origin:
                new_kings = (new_kings ^ origin) | target
            elif target & crown:
                new_kings |= target
            out.append(((me ^ origin) | target, them ^ captured, new_kings))
        return out
    empty = FULL ^ (me | them)
    down = me if black else me & kings
    up = me & kings if black else me
    append = out.append
    for mask, shift in DOWN_STEP_GROUPS:
        targets = (down & mask) << shift & empty
        while targets:
            target = targets & -targets
            targets ^= target
            origin = target >> shift
            if kings & origin:
                append((me ^ origin ^ target, them, kings ^ origin ^ target))
            elif target & crown:
                append((me ^ origin ^ target, them, kings | target))
            else:
                append((me ^ origin ^ target, them, kings))
    for mask, shift in UP_STEP_GROUPS:
        targets = (up & mask) >> shift & empty
        while targets:
            target = targets & -targets
            targets ^= target
            origin = target << shift
            if kings & origin:
                append((me ^ origin ^ target, them, kings ^ origin ^ target))
            elif target & crown:
                append((me ^ origin ^ target, them, kings | target))
            else:
                append((me ^ origin ^ target, them, kings))
    return out


def perft_rel(me: int, them: int, kings: int, black: bool, depth: int) -> int:
    """Leaf count of the move tree of ``depth`` plies (``depth >= 1``), bulk-counted at the last ply."""
    if depth == 1:
        return count_moves_rel(me, them, kings, black)
    total = 0
    nxt = depth - 1
    if nxt == 1:
        for mine, theirs, new_kings in children_rel(me, them, kings, black):
            total += count_moves_rel(theirs, mine, new_kings, not black)
    else:
        for mine, theirs, new_kings in children_rel(me, them, kings, black):
            total += perft_rel(theirs, mine, new_kings, not black, nxt)
    return total
