"""The schedule of a field that changes, and what a run says about a change: results are kept per
(pairing, versions) (which rows count now: :mod:`arena.records.field`).

Each game of a folder kept by pairing is named by its key ``(black, white, round)``; rounds ``2k`` and
``2k + 1`` of a couple form a colour-swapped pair whose number (:func:`pairing_number`) and opening
seed depend on the couple, ``k`` and the tournament's seed only, so a game is the same game whatever
else is in the field and a row's ``index`` is only the order it was written in. So adding an agent
schedules only its games (:meth:`PlayOrder.missing`); a replaced bot (a new version) has its games played
again, the old ones staying in ``games.jsonl`` as history; a withdrawn agent's games stay there too
and count no more; and a resumed run plays exactly the keys that have no counting row: none is lost
or played twice. :class:`FieldChange` is what changed and what will be played, printed before play;
:func:`refusal` the one line of a change that cannot be made.

Folders written before (no ``resultsBy``) and random matches keep results by index (:mod:`arena.tournament.resume`): their field cannot change.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from arena.games.base import opening_seed
from arena.records.field import PAIRING, RESULTS_BY_KEY, Field, Key, keyed, rotated, row_key, unrotated
from arena.tournament.schedule import ScheduledGame, ScheduledTable

#: The tournament types whose field may change (random matches draw their games from the field);
#: two players or N seats alike.
FIELD_TYPES = ("roundRobin", "gauntlet")


def pairing_number(group: tuple[str, ...], k: int) -> int:
    """The ``pair`` (two players) or ``group`` (N seats) of the ``k``-th rotation cycle of ``group``
    (canonical order): a 48-bit digest of both, the same in any field (two groups sharing one is
    harmless: they share an opening seed)."""
    data = f"arena-pairing/{'/'.join(group)}/{k}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:6], "big")


@functools.lru_cache(maxsize=1 << 14)  # rows come round by round: a cycle's rounds are a field's groups apart
def _pairing(group: tuple[str, ...], k: int, seed: int) -> tuple[int, int]:
    """``(pairing_number(group, k), its opening seed)``, kept for the other rounds of the cycle."""
    number = pairing_number(group, k)
    return number, opening_seed(seed, number)


def field_games(field: Field) -> Iterator[ScheduledGame | ScheduledTable]:
    """Every game of ``field`` in play order (round by round, groups in config order, so early
    games cover every group), each with ``index`` -1 (the runner numbers what it plays):
    :class:`ScheduledGame` for two players, :class:`ScheduledTable` for N seats."""
    return (_game(field.players, group, round_, -1, field.seed) for group, round_ in _rounds(field))


def _rounds(field: Field) -> Iterator[tuple[tuple[str, ...], int]]:
    """``(group, round)`` of every game of ``field`` in play order."""
    groups = list(field.groups())
    for round_ in range(field.games_per_pair):
        for group in groups:
            yield group, round_


def _game(seats: int | None, group: tuple[str, ...], round_: int, index: int,
          seed: int) -> ScheduledGame | ScheduledTable:
    """Round ``round_`` of ``group`` (canonical order) at ``index``: two players (``seats`` None)
    or N seats."""
    n = len(group)
    number, game_seed = _pairing(group, round_ // n, seed)
    order = rotated(group, round_ % n)
    if seats is None:
        return ScheduledGame(index, order[0], order[1], number, game_seed, round_)
    return ScheduledTable(index, order, number, game_seed, round_)


def game_key(game: ScheduledGame | ScheduledTable) -> Key:
    """The key of a scheduled game (:func:`arena.records.field.row_key` of its row)."""
    seats = (game.black, game.white) if isinstance(game, ScheduledGame) else game.seats
    assert game.round is not None, "a game of a field has a round"
    return seats, game.round


class PlayOrder:
    """The games of ``field`` numbered by their place in play order (:func:`field_games`): place
    ``p`` is round ``p // G`` of the ``p % G``-th group (``G`` groups). A set of places is kept as a
    bitmap (bit ``p % 8`` of byte ``p // 8``): what a resume needs of which games are done, in
    about one bit a game (:mod:`arena.tournament.checked`)."""

    def __init__(self, field: Field) -> None:
        self.field = field
        self.groups = list(field.groups())
        self._group_number = {group: number for number, group in enumerate(self.groups)}

    def __len__(self) -> int:
        return len(self.groups) * self.field.games_per_pair

    def place(self, key: Key) -> int | None:
        """The place of the game ``key`` in play order; None when the field does not schedule it."""
        seats, round_ = key
        if len(seats) != self.field.seats or not 0 <= round_ < self.field.games_per_pair:
            return None
        number = self._group_number.get(unrotated(seats, round_ % len(seats)))
        return None if number is None else round_ * len(self.groups) + number

    def empty(self) -> bytearray:
        """A bitmap of no place."""
        return bytearray((len(self) + 7) // 8)

    def missing(self, done: bytes | bytearray) -> Iterator[ScheduledGame | ScheduledTable]:
        """The games whose place is not in the bitmap ``done``, in play order (``index`` -1): built
        one by one as they are asked for, after a scan of the done places at about a byte a
        microsecond."""
        field, groups, total = self.field, self.groups, len(self)
        for byte_number, byte in enumerate(done):
            if byte == 0xFF:
                continue
            for bit in range(8):
                place = byte_number * 8 + bit
                if place < total and not byte >> bit & 1:
                    round_, number = divmod(place, len(groups))
                    yield _game(field.players, groups[number], round_, -1, field.seed)


def mark(done: bytearray, place: int) -> None:
    """Put ``place`` in the bitmap ``done`` (:class:`PlayOrder`)."""
    done[place >> 3] |= 1 << (place & 7)


def scheduled_game(row: Mapping[str, Any], seed: int) -> ScheduledGame | ScheduledTable | None:
    """The game a keyed row says it is (its pair or group and seed worked out from its key), with
    the row's index; None when the row has no key."""
    key = row_key(row)
    index = row.get("index")
    if key is None or not isinstance(index, int) or isinstance(index, bool) or len(key[0]) < 2:
        return None
    seats, round_ = key
    return _game(None if "seats" not in row else len(seats), unrotated(seats, round_ % len(seats)), round_,
                 index, seed)


@dataclass(frozen=True)
class FieldChange:
    """What changed between the folder's last field and this run's, and what will be played."""

    added: tuple[str, ...] = ()
    replaced: tuple[str, ...] = ()
    withdrawn: tuple[str, ...] = ()
    kept: int = 0
    to_play: int = 0
    history: int = 0  # rows in games.jsonl that do not count now

    @property
    def changed(self) -> bool:
        return bool(self.added or self.replaced or self.withdrawn)

    def lines(self) -> list[str]:
        """What to print before play: the changes (if any), then the games kept and to play."""
        out = []
        for what, ids in (("added", self.added), ("replaced (a new version)", self.replaced),
                          ("withdrawn", self.withdrawn)):
            if ids:
                out.append(f"field: {what}: {', '.join(ids)}")
        out.append(f"games: {self.kept} kept, {self.to_play} to play"
                   + (f", {self.history} in the history that no longer count" if self.history else ""))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"added": list(self.added), "replaced": list(self.replaced), "withdrawn": list(self.withdrawn),
                "kept": self.kept, "to_play": self.to_play, "history": self.history}


def field_change(old: Mapping[str, Any] | None, new: Field, kept: int, history: int) -> FieldChange:
    """The change from the folder's ``config.json`` ``old`` (None: a new folder) to ``new``."""
    before = Field.from_json(old) if old else None
    if before is None:
        return FieldChange(kept=kept, to_play=len(new) - kept, history=history)
    added = tuple(a for a in new.agents if a not in before.agents)
    withdrawn = tuple(a for a in before.agents if a not in new.agents)
    replaced = tuple(a for a in new.agents if a in before.agents and before.versions.get(a) != new.versions.get(a))
    return FieldChange(added, replaced, withdrawn, kept, len(new) - kept, history)


def refusal(old: Mapping[str, Any] | None, new: Field) -> str | None:
    """Why the field ``new`` cannot take over a keyed folder whose ``config.json`` is ``old``, in one
    line (None: it can)."""
    if not old:
        return None
    before = Field.from_json(old)
    if before.hero is not None and new.hero is not None and before.hero != new.hero:
        return (f"the gauntlet's hero (its first agent) was {before.hero}, now {new.hero}: every game would be "
                "another; list it first again")
    return None


def with_index(game: ScheduledGame | ScheduledTable, index: int) -> ScheduledGame | ScheduledTable:
    return replace(game, index=index)


__all__ = [
    "FIELD_TYPES",
    "PAIRING",
    "RESULTS_BY_KEY",
    "Field",
    "FieldChange",
    "PlayOrder",
    "field_change",
    "field_games",
    "game_key",
    "keyed",
    "mark",
    "pairing_number",
    "refusal",
    "row_key",
    "scheduled_game",
    "with_index",
]
