"""Shobu for the search engine: a fast adapter over :mod:`arena.games.shobu.core` and its evaluation.

Standard library only. A position is ``(me, them, black_to_move, turn_number)`` where ``me`` and
``them`` are the packed stone masks (16 bits per sub-board) of the side to move and of its
opponent; a move is core's ``(packed passive origin, packed aggressive origin, heading index)``.

The evaluation, from the side to move's view, adds up (weights by name, see :data:`DEFAULT_WEIGHTS`):

- ``stone``: every stone;
- ``lastStones``: a penalty for a sub-board down to its last stones (2x for one stone, 1x for two):
  a colour loses when it loses any one board, so a stone on a thin board is worth more;
- ``weakest``: the difference between the two sides' weakest boards (fewest stones);
- ``threat``: the side to move can push an enemy stone off a board next turn (a turn's passive and
  aggressive moves never interact, so this is exact); each further such stone counts a quarter.
  If the threatened stone is the last of its board, the side to move wins next turn: a score near
  (but below) a proven win;
- ``danger``: each of our stones the opponent could push off if it were its turn;
- ``mobility``: the difference in legal turns, per ten turns;
- ``centre``: stones on the four middle squares of their board, which cannot be pushed off at once.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from arena.games.shobu import core

Position = tuple[int, int, bool, int]
Move = tuple[int, int, int]

DEFAULT_WEIGHTS: dict[str, int] = {
    "stone": 100,
    "lastStones": 60,
    "weakest": 40,
    "threat": 60,
    "danger": 25,
    "mobility": 2,
    "centre": 8,
}

THREAT_WIN = 200_000  # a win next turn, not yet proven by search: far above any material score

_LOCAL_DIRECTIONS = tuple(core.HEADING_DIRECTION[h] for h in range(16))
_LOCAL_STEPS = core.HEADING_STEPS
_CENTRE_LOCAL = sum(1 << (x + 4 * y) for x in (1, 2) for y in (1, 2))
_CENTRE = sum(_CENTRE_LOCAL << (16 * q) for q in range(4))
_QUADRANT_SHIFTS = (0, 16, 32, 48)
# For a passive move on the left home board the aggressive board is in the right column (Q1, Q3),
# and the other way round.
_RIGHT_COLUMN, _LEFT_COLUMN = (1, 3), (0, 2)


def _push_offs(own: int, opp: int) -> tuple[int, ...]:
    """Per heading: the local mask of ``opp`` stones that some aggressive move of ``own`` with that
    heading pushes off this 4x4 board."""
    result = []
    for h in range(16):
        (dx, dy), steps = _LOCAL_DIRECTIONS[h], _LOCAL_STEPS[h]
        found = 0
        for origin in range(16):
            if not own >> origin & 1:
                continue
            x, y = origin & 3, origin >> 2
            if not (0 <= x + steps * dx < 4 and 0 <= y + steps * dy < 4):
                continue  # the aggressor itself would leave the board
            pushed, legal = -1, True
            for step in range(1, steps + 1):
                square = (x + step * dx) + 4 * (y + step * dy)
                if own >> square & 1 or (opp >> square & 1 and pushed >= 0):
                    legal = False
                    break
                if opp >> square & 1:
                    pushed = square
            bx, by = x + (steps + 1) * dx, y + (steps + 1) * dy
            if legal and pushed >= 0 and not (0 <= bx < 4 and 0 <= by < 4):
                found |= 1 << pushed
        result.append(found)
    return tuple(result)


# The local-board functions below are pure and see the same few thousand boards over and over:
# functools' bounded cache (C-implemented) keeps them cheap without unbounded memory.
_CACHE_LIMIT = 1 << 16


@functools.lru_cache(maxsize=_CACHE_LIMIT)
def push_offs(own: int, opp: int) -> tuple[int, ...]:
    """Cached :func:`_push_offs` of one local board."""
    return _push_offs(own, opp)


@functools.lru_cache(maxsize=_CACHE_LIMIT)
def passive_headings(own: int, opp: int) -> int:
    """Bit mask of the headings with at least one passive move on this local board."""
    counts = core.analyse(own, opp)[2]
    return sum(1 << h for h in range(16) if counts[h])


@functools.lru_cache(maxsize=_CACHE_LIMIT)
def _local_threats(own: int, opp: int, avail: int) -> int:
    """Local mask of ``opp`` stones pushed off by an aggressive move with a heading in ``avail``."""
    table = push_offs(own, opp)
    found = 0
    while avail:
        low = avail & -avail
        avail ^= low
        found |= table[low.bit_length() - 1]
    return found


def threatened(own: int, opp: int, black: bool) -> tuple[int, int]:
    """Enemy stones that ``own`` (Black if ``black``) could push off the board on its next turn.

    Returns ``(packed mask of those stones, number of boards where the threatened stone is the
    last enemy stone there)``.
    """
    left_home, right_home = (2, 3) if black else (0, 1)
    mask = lethal = 0
    for home, targets in ((left_home, _RIGHT_COLUMN), (right_home, _LEFT_COLUMN)):
        shift = _QUADRANT_SHIFTS[home]
        avail = passive_headings(own >> shift & 0xFFFF, opp >> shift & 0xFFFF)
        if not avail:
            continue
        for q in targets:
            qs = _QUADRANT_SHIFTS[q]
            opp_local = opp >> qs & 0xFFFF
            local = _local_threats(own >> qs & 0xFFFF, opp_local, avail)
            if local:
                mask |= local << qs
                if local == opp_local and opp_local & (opp_local - 1) == 0:
                    lethal += 1
    return mask, lethal


class ShobuSearch:
    """The :class:`arena.agents.search.SearchGame` adapter for Shobu with evaluation ``weights``."""

    DEFAULT_WEIGHTS = DEFAULT_WEIGHTS
    extend_single_reply = False

    def __init__(self, weights: Mapping[str, int] | None = None) -> None:
        merged = dict(DEFAULT_WEIGHTS)
        merged.update(weights or {})
        self.weights = merged
        w = merged
        self._stone, self._last, self._weakest = w["stone"], w["lastStones"], w["weakest"]
        self._threat, self._danger = w["threat"], w["danger"]
        self._mobility, self._centre = w["mobility"], w["centre"]
        # Value of a board holding n stones of one colour (n = 0 never reaches the evaluation).
        self._counted: tuple[Position | None, int] = (None, 0)
        self._board_value = (0, self._stone - 2 * self._last, 2 * self._stone - self._last,
                             3 * self._stone, 4 * self._stone)

    def from_state(self, state: Any) -> Position:
        """The adapter's position of a :class:`arena.games.shobu.rules.ShobuState`."""
        return self.position(state.black, state.white, state.turn.value == "BLACK", state.turn_number)

    def to_game_move(self, move: Move) -> Any:
        """The :class:`arena.games.shobu.rules.ShobuMove` of a raw ``(passive, aggressive, heading)``."""
        from arena.games.shobu.rules import ShobuMove

        passive, aggressive, heading = move
        return ShobuMove(core.XY_OF_PACKED[passive], core.XY_OF_PACKED[aggressive], core.HEADINGS[heading], None)

    @staticmethod
    def position(black: int, white: int, black_to_move: bool, turn_number: int) -> Position:
        """The adapter's position from arena's masks (``ShobuState.black``/``white``)."""
        if black_to_move:
            return (black, white, True, turn_number)
        return (white, black, False, turn_number)

    def moves(self, pos: Position) -> list[Move]:
        return core.turns(pos[0], pos[1], pos[2])

    def play(self, pos: Position, move: Move) -> Position:
        me, them = core.apply_turn(pos[0], pos[1], move[0], move[1], move[2])
        return (them, me, not pos[2], pos[3] + 1)

    def key(self, pos: Position) -> Position:
        return pos

    def ply(self, pos: Position) -> int:
        return pos[3]

    def has_moves(self, pos: Position) -> bool:
        count = core.count_turns(pos[0], pos[1], pos[2])
        self._counted = (pos, count)  # evaluate() of the same position reuses it for mobility
        return count > 0

    def quiet(self, pos: Position) -> bool:
        return True  # threats are scored statically instead of searched

    def tactical(self, pos: Position, move: Move) -> int:
        i = 16 * move[1] + move[2]
        hit = pos[1] & core.PATH[i]
        if not hit:
            return 0
        if core.BEYOND[i]:
            return 1  # a push that keeps the stone on the board
        shift = 16 * (move[1] >> 4)
        left = (pos[1] >> shift & 0xFFFF).bit_count()
        return 10 if left == 1 else 6 - min(left, 4)  # a win, else thinner boards first

    def evaluate(self, pos: Position) -> int:
        me, them, black = pos[0], pos[1], pos[2]
        my_threats, my_lethal = threatened(me, them, black)
        if my_lethal:
            return THREAT_WIN
        value = self._board_value
        mine = [(me >> s & 0xFFFF).bit_count() for s in _QUADRANT_SHIFTS]
        theirs = [(them >> s & 0xFFFF).bit_count() for s in _QUADRANT_SHIFTS]
        score = sum(value[n] for n in mine) - sum(value[n] for n in theirs)
        score += self._weakest * (min(mine) - min(theirs))
        if my_threats:
            score += self._threat + (self._threat >> 2) * (my_threats.bit_count() - 1)
        their_threats, their_lethal = threatened(them, me, not black)
        score -= self._danger * (their_threats.bit_count() + 2 * their_lethal)
        if self._mobility:
            counted_pos, my_moves = self._counted
            if counted_pos is not pos:
                my_moves = core.count_turns(me, them, black)
            their_moves = core.count_turns(them, me, not black)
            score += self._mobility * (my_moves - their_moves) // 10
        score += self._centre * ((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count())
        return score


#: The linear-feature contract (:mod:`arena.train`), over the evaluation's linear part: where the
#: side to move threatens a board's last stone ``evaluate`` returns ``THREAT_WIN``; elsewhere it
#: equals ``sum(weights[n] * features(pos)[n])`` up to its integer roundings (``threat >> 2`` and
#: the mobility's ``// 10``).
FEATURE_NAMES: tuple[str, ...] = tuple(DEFAULT_WEIGHTS)


def features(pos: Position) -> dict[str, float]:
    """The evaluation's weighted terms for the side to move of ``pos``, by weight name."""
    me, them, black = pos[0], pos[1], pos[2]
    mine = [(me >> s & 0xFFFF).bit_count() for s in _QUADRANT_SHIFTS]
    theirs = [(them >> s & 0xFFFF).bit_count() for s in _QUADRANT_SHIFTS]

    def thin(counts: list[int]) -> int:  # the lastStones penalty units: 2 per lone stone, 1 per pair
        return sum(2 if n == 1 else 1 if n == 2 else 0 for n in counts)

    my_threats, _ = threatened(me, them, black)
    their_threats, their_lethal = threatened(them, me, not black)
    return {
        "stone": float(sum(mine) - sum(theirs)),
        "lastStones": float(thin(theirs) - thin(mine)),
        "weakest": float(min(mine) - min(theirs)),
        "threat": 1.0 + (my_threats.bit_count() - 1) / 4 if my_threats else 0.0,
        "danger": -float(their_threats.bit_count() + 2 * their_lethal),
        "mobility": (core.count_turns(me, them, black) - core.count_turns(them, me, not black)) / 10,
        "centre": float((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count()),
    }


#: The game's search adapter, as :func:`arena.agents.parts.search_ref` finds it.
ADAPTER = ShobuSearch
