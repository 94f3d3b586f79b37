"""Shobu's geometry and fast move generation on packed bitboards (standard library only).

This is the engine room of :mod:`arena.games.shobu.rules`; nothing here knows about JSON, Colors or move
objects, only ints.

Packed layout: the stones of one colour are one int of 64 bits, 16 bits per sub-board. The square
``(x, y)`` is bit ``16*q + lx + 4*ly`` where ``q = x//4 + 2*(y//4)`` is its sub-board (Q0 top-left,
Q1 top-right, Q2 bottom-left, Q3 bottom-right) and ``lx, ly = x % 4, y % 4`` its place on it. Every
sub-board is thus a 16-bit "local" board, and a move never leaves its sub-board, so all move
generation happens on 16-bit local boards with shifts.

Headings are numbered 0..15 (:data:`HEADINGS`): 0..7 are the one-step moves N, NE, E, SE, S, SW, W,
NW (N is y-1, up the board; E is x+1), 8..15 the same directions two steps.

The analysis of one local board, from the point of view of the player whose stones are ``own``
(:func:`analyse`), lists for every heading the stones that can make a passive move and the stones
that can make an aggressive move. It is cached: a search meets the same local boards again and
again.
"""

from __future__ import annotations

from operator import add, mul

QUADRANT_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
HEADINGS: tuple[tuple[int, int], ...] = tuple(
    (dx * k, dy * k) for k in (1, 2) for dx, dy in DIRECTIONS
)
HEADING_INDEX: dict[tuple[int, int], int] = {heading: i for i, heading in enumerate(HEADINGS)}
HEADING_STEPS = tuple(1 if i < 8 else 2 for i in range(16))
HEADING_DIRECTION = tuple(DIRECTIONS[i % 8] for i in range(16))

WHITE_HOME = (0, 1)
BLACK_HOME = (2, 3)
# Aggressive boards for a passive move on quadrant q: the other column (the other board colour).
OTHER_COLUMN = ((1, 3), (0, 2), (1, 3), (0, 2))

LOCAL_MASK = 0xFFFF


def quadrant_of(x: int, y: int) -> int:
    """The sub-board (0..3) of the on-board square (x, y)."""
    return (x >> 2) + 2 * (y >> 2)


def packed_index(x: int, y: int) -> int:
    """The packed bit index of the on-board square (x, y)."""
    return 16 * quadrant_of(x, y) + (x & 3) + 4 * (y & 3)


XY_OF_PACKED: tuple[tuple[int, int], ...] = tuple(
    sorted(((x, y) for y in range(8) for x in range(8)), key=lambda xy: packed_index(*xy))
)
PACKED_OF_XY: dict[tuple[int, int], int] = {xy: i for i, xy in enumerate(XY_OF_PACKED)}
# BIT_OF_BOARD_INDEX[x + 8*y] is the packed bit of the board string's character at that index.
BIT_OF_BOARD_INDEX: tuple[int, ...] = tuple(
    1 << packed_index(i % 8, i // 8) for i in range(64)
)


def _in_quadrant(x: int, y: int, quadrant: int) -> bool:
    """Whether (x, y) is on the board and in sub-board ``quadrant``."""
    return 0 <= x < 8 and 0 <= y < 8 and quadrant_of(x, y) == quadrant


def _build_move_tables() -> tuple[list[int], list[int], list[int]]:
    """Per (packed origin, heading), index ``16*origin + heading``: origin|landing bits (0 when
    the move leaves its sub-board), the bits of the squares passed over and landed on, and the bit
    of the square beyond the landing square (0 when that square is off the sub-board)."""
    from_to = [0] * (64 * 16)
    path = [0] * (64 * 16)
    beyond = [0] * (64 * 16)
    for origin, (x, y) in enumerate(XY_OF_PACKED):
        quadrant = quadrant_of(x, y)
        for h in range(16):
            (dx, dy), steps = HEADING_DIRECTION[h], HEADING_STEPS[h]
            lx, ly = x + steps * dx, y + steps * dy
            if not _in_quadrant(lx, ly, quadrant):
                continue
            i = 16 * origin + h
            from_to[i] = (1 << origin) | (1 << PACKED_OF_XY[(lx, ly)])
            for j in range(1, steps + 1):
                path[i] |= 1 << PACKED_OF_XY[(x + j * dx, y + j * dy)]
            bx, by = lx + dx, ly + dy
            if _in_quadrant(bx, by, quadrant):
                beyond[i] = 1 << PACKED_OF_XY[(bx, by)]
    return from_to, path, beyond


FROM_TO, PATH, BEYOND = _build_move_tables()


def _local_valid_mask(dx: int, dy: int, steps: int) -> int:
    """Local squares from which ``steps`` steps in direction (dx, dy) stay on the 4x4 board."""
    mask = 0
    for ly in range(4):
        for lx in range(4):
            if 0 <= lx + steps * dx < 4 and 0 <= ly + steps * dy < 4:
                mask |= 1 << (lx + 4 * ly)
    return mask


def _shifts(step: int) -> tuple[int, int]:
    """Right and left shift amounts (one is 0) so that ``mask >> right << left`` puts at bit ``o``
    what ``mask`` holds at bit ``o + step``: branch-free "look ``step`` squares ahead"."""
    return (step, 0) if step > 0 else (0, -step)


# Per heading: steps, shifts that look 1, 2 and 3 squares ahead, and the masks of the local
# origins from which 1, 2 and 3 squares ahead are still on the 4x4 board.
_GEOMETRY = tuple(
    (
        HEADING_STEPS[h],
        *_shifts(HEADING_DIRECTION[h][0] + 4 * HEADING_DIRECTION[h][1]),
        *_shifts(2 * (HEADING_DIRECTION[h][0] + 4 * HEADING_DIRECTION[h][1])),
        *_shifts(3 * (HEADING_DIRECTION[h][0] + 4 * HEADING_DIRECTION[h][1])),
        _local_valid_mask(*HEADING_DIRECTION[h], 1),
        _local_valid_mask(*HEADING_DIRECTION[h], 2),
        _local_valid_mask(*HEADING_DIRECTION[h], 3),
    )
    for h in range(16)
)

# _BITS[mask]: the set bit indices of a 16-bit mask, ascending; filled on first use and shared.
_BITS: list[tuple[int, ...] | None] = [None] * (1 << 16)
_BITS[0] = ()


def _bits(mask: int) -> tuple[int, ...]:
    found = _BITS[mask]
    if found is None:
        found = _BITS[mask] = tuple(i for i in range(16) if mask >> i & 1)
    return found


Analysis = tuple[
    tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]
]


def _analyse(own: int, opp: int) -> Analysis:
    occupied = own | opp
    bits = _BITS
    passive: list[tuple[int, ...]] = []
    aggressive: list[tuple[int, ...]] = []
    for steps, r1, l1, r2, l2, r3, l3, valid1, valid2, valid3 in _GEOMETRY:
        occ1 = occupied >> r1 << l1
        if steps == 1:
            passive_mask = own & valid1 & ~occ1
            # Landing on an own stone is never allowed; landing on an opposing stone pushes it one
            # square on, which must be off the board or empty.
            blocked_push = opp >> r1 << l1 & valid2 & occupied >> r2 << l2
            aggressive_mask = own & valid1 & ~(own >> r1 << l1) & ~blocked_push
        else:
            occ2 = occupied >> r2 << l2
            passive_mask = own & valid2 & ~(occ1 | occ2)
            own_in_path = own >> r1 << l1 | own >> r2 << l2
            blocked_push = (occ1 | occ2) & valid3 & occupied >> r3 << l3
            aggressive_mask = own & valid2 & ~own_in_path & ~(occ1 & occ2) & ~blocked_push
        found = bits[passive_mask]
        passive.append(found if found is not None else _bits(passive_mask))
        found = bits[aggressive_mask]
        aggressive.append(found if found is not None else _bits(aggressive_mask))
    return (
        tuple(passive),
        tuple(aggressive),
        tuple(map(len, passive)),
        tuple(map(len, aggressive)),
    )


_ANALYSIS_CACHE: dict[int, Analysis] = {}
# About half a kilobyte per entry; clearing wholesale is crude but cheap, and searches refill it.
_ANALYSIS_CACHE_LIMIT = 1 << 15


def analyse(own: int, opp: int) -> Analysis:
    """What the owner of ``own`` can do on one local (16-bit) board holding ``own`` and ``opp``.

    Returns ``(passive, aggressive, passive_counts, aggressive_counts)``: for each heading index,
    the local indices (``lx + 4*ly``, ascending) of the own stones that can make a passive move, the
    same for an aggressive move, and the lengths of those tuples.
    """
    key = own << 16 | opp
    found = _ANALYSIS_CACHE.get(key)
    if found is None:
        if len(_ANALYSIS_CACHE) >= _ANALYSIS_CACHE_LIMIT:
            _ANALYSIS_CACHE.clear()
        found = _ANALYSIS_CACHE[key] = _analyse(own, opp)
    return found


def every_quadrant_occupied(stones: int) -> bool:
    """True when each of the four sub-boards holds at least one of ``stones``."""
    return bool(
        stones & 0xFFFF
        and stones & 0xFFFF0000
        and stones & 0xFFFF00000000
        and stones & 0xFFFF000000000000
    )


def quadrant_analyses(own: int, opp: int) -> tuple[Analysis, Analysis, Analysis, Analysis]:
    """:func:`analyse` of the four sub-boards, Q0..Q3."""
    # The cache is read here directly (keys as analyse makes them: own << 16 | opp, per sub-board);
    # this runs for every position the match or a search looks at.
    get = _ANALYSIS_CACHE.get
    q0 = get((own & LOCAL_MASK) << 16 | opp & LOCAL_MASK)
    if q0 is None:
        q0 = analyse(own & LOCAL_MASK, opp & LOCAL_MASK)
    q1 = get(own & 0xFFFF0000 | opp >> 16 & LOCAL_MASK)
    if q1 is None:
        q1 = analyse(own >> 16 & LOCAL_MASK, opp >> 16 & LOCAL_MASK)
    q2 = get(own >> 16 & 0xFFFF0000 | opp >> 32 & LOCAL_MASK)
    if q2 is None:
        q2 = analyse(own >> 32 & LOCAL_MASK, opp >> 32 & LOCAL_MASK)
    q3 = get(own >> 32 & 0xFFFF0000 | opp >> 48)
    if q3 is None:
        q3 = analyse(own >> 48, opp >> 48)
    return q0, q1, q2, q3


def count_turns(own: int, opp: int, black_to_move: bool) -> int:
    """Number of legal turns for the mover (stones ``own``) without building them.

    0 when the game is already won (a sub-board lacks a colour). A turn is a passive move on a home
    board times an aggressive move with the same heading on a board of the other column, and the
    two never interact, so the count per heading is a product.
    """
    if not (every_quadrant_occupied(own) and every_quadrant_occupied(opp)):
        return 0
    q0, q1, q2, q3 = quadrant_analyses(own, opp)
    left_home, right_home = (q2, q3) if black_to_move else (q0, q1)
    return sum(map(mul, left_home[2], map(add, q1[3], q3[3]))) + sum(
        map(mul, right_home[2], map(add, q0[3], q2[3]))
    )


def has_turn(own: int, opp: int, black_to_move: bool) -> bool:
    """``count_turns(own, opp, black_to_move) > 0``, stopping at the first heading that has a turn."""
    if not (
        own & 0xFFFF and own & 0xFFFF0000 and own & 0xFFFF00000000 and own & 0xFFFF000000000000
        and opp & 0xFFFF and opp & 0xFFFF0000 and opp & 0xFFFF00000000 and opp & 0xFFFF000000000000
    ):
        return False
    q0, q1, q2, q3 = quadrant_analyses(own, opp)
    left_home, right_home = (q2, q3) if black_to_move else (q0, q1)
    # A heading has a turn when a home board has a passive move and the other column an aggressive
    # one with that heading.
    for passive, upper, lower in zip(left_home[2], q1[3], q3[3], strict=True):
        if passive and (upper or lower):
            return True
    for passive, upper, lower in zip(right_home[2], q0[3], q2[3], strict=True):
        if passive and (upper or lower):
            return True
    return False


def is_legal_turn(own: int, opp: int, black_to_move: bool, passive: int, aggressive: int,
                  heading: int) -> bool:
    """Whether the turn given as packed origins and a heading index is legal for the mover (stones
    ``own``): the same answer as looking for it in :func:`turns`, from two cached analyses."""
    passive_board, aggressive_board = passive >> 4, aggressive >> 4
    if passive_board not in (BLACK_HOME if black_to_move else WHITE_HOME):
        return False
    if not (passive_board ^ aggressive_board) & 1:  # the aggressive board must be of the other column
        return False
    if not (every_quadrant_occupied(own) and every_quadrant_occupied(opp)):
        return False
    shift = 16 * passive_board
    if passive & 15 not in analyse(own >> shift & LOCAL_MASK, opp >> shift & LOCAL_MASK)[0][heading]:
        return False
    shift = 16 * aggressive_board
    return aggressive & 15 in analyse(own >> shift & LOCAL_MASK, opp >> shift & LOCAL_MASK)[1][heading]


def apply_turn(own: int, opp: int, passive: int, aggressive: int, heading: int) -> tuple[int, int]:
    """The mover's and the opponent's stones after a legal turn given as packed origins."""
    i = 16 * aggressive + heading
    own ^= FROM_TO[16 * passive + heading] ^ FROM_TO[i]
    hit = opp & PATH[i]
    if hit:
        opp = (opp ^ hit) | BEYOND[i]
    return own, opp


def turn_groups(
    own: int, opp: int, black_to_move: bool
) -> list[tuple[int, list[int], list[int]]]:
    """Every legal turn, grouped: ``(heading index, packed passive origins, packed aggressive
    origins)``; each passive origin combines with each aggressive origin of its group.

    Order: passive board (the mover's left home board first), heading index; origins ascend, the
    aggressive ones top board first. Empty when the game is already won.
    """
    if not (every_quadrant_occupied(own) and every_quadrant_occupied(opp)):
        return []
    analyses = quadrant_analyses(own, opp)
    groups: list[tuple[int, list[int], list[int]]] = []
    for home in BLACK_HOME if black_to_move else WHITE_HOME:
        passive = analyses[home][0]
        targets = OTHER_COLUMN[home]
        upper, lower = analyses[targets[0]][1], analyses[targets[1]][1]
        upper_base, lower_base, home_base = 16 * targets[0], 16 * targets[1], 16 * home
        for h in range(16):
            if not passive[h] or not (upper[h] or lower[h]):
                continue
            groups.append(
                (
                    h,
                    [home_base + p for p in passive[h]],
                    [upper_base + a for a in upper[h]] + [lower_base + a for a in lower[h]],
                )
            )
    return groups


def turns(own: int, opp: int, black_to_move: bool) -> list[tuple[int, int, int]]:
    """Every legal turn as ``(packed passive origin, packed aggressive origin, heading index)``,
    in :func:`turn_groups` order."""
    return [
        (p, a, h)
        for h, passives, aggressors in turn_groups(own, opp, black_to_move)
        for p in passives
        for a in aggressors
    ]


def perft(own: int, opp: int, black_to_move: bool, depth: int) -> int:
    """Leaf count of the game tree ``depth`` turns deep; the last ply is counted, not played."""
    if depth == 0:
        return 1
    if depth == 1:
        return count_turns(own, opp, black_to_move)
    total = 0
    for h, passives, aggressors in turn_groups(own, opp, black_to_move):
        for p in passives:
            passive_own = own ^ FROM_TO[16 * p + h]
            for a in aggressors:
                i = 16 * a + h
                child_own = passive_own ^ FROM_TO[i]
                hit = opp & PATH[i]
                child_opp = (opp ^ hit) | BEYOND[i] if hit else opp
                total += perft(child_opp, child_own, not black_to_move, depth - 1)
    return total


def masks_from_board(board: str) -> tuple[int, int]:
    """(black, white) packed masks of a 64-character board already known to be valid."""
    black = white = 0
    for char, bit in zip(board, BIT_OF_BOARD_INDEX, strict=True):
        if char == "x":
            black |= bit
        elif char == "o":
            white |= bit
    return black, white


def _quadrant_row_text(key: int) -> str:
    black, white = key >> 4, key & 15
    return "".join("x" if black >> i & 1 else "o" if white >> i & 1 else "." for i in range(4))


# _QUADRANT_ROW[black4 << 4 | white4]: the 4 characters of one row of one sub-board (black wins a
# square both hold, as board_from_masks always did). _ROW_SHIFTS: where each board row's left and
# right halves sit in the packed masks, top row first.
_QUADRANT_ROW: tuple[str, ...] = tuple(_quadrant_row_text(key) for key in range(256))
_ROW_SHIFTS: tuple[int, ...] = tuple(
    16 * (2 * (y >> 2) + half) + 4 * (y & 3) for y in range(8) for half in (0, 1)
)


def board_from_masks(black: int, white: int) -> str:
    """The 64-character board string of two packed masks."""
    # 16 table look-ups (one per sub-board row) instead of 64 tests: this runs every ply.
    rows = _QUADRANT_ROW
    return "".join([rows[(black >> s & 15) << 4 | white >> s & 15] for s in _ROW_SHIFTS])
