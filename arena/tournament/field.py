"""The schedule of a field that changes, and what a run says about a change: results are kept per
(pairing, versions) (which rows count now: :mod:`arena.records.field`).

Each game of a folder kept by pairing is named by its key ``(black, white, round)``; rounds ``2k`` and
``2k + 1`` of a couple form a colour-swapped pair whose number (:func:`pairing_number`) and opening
seed depend on the couple, ``k`` and the tournament's seed only, so a game is the same game whatever
else is in the field and a row's ``index`` is only the order it was written in. So adding an agent
schedules only its games (:func:`missing_games`); a replaced bot (a new version) has its games played
again, the old ones staying in ``games.jsonl`` as history; a withdrawn agent's games stay there too
and count no more; and a resumed run plays exactly the keys that have no counting row: none is lost
or played twice. :class:`FieldChange` is what changed and what will be played, printed before play;
:func:`refusal` the one line of a change that cannot be made.

Folders written before (no ``resultsBy``), random matches and games of N seats keep results by
index (:mod:`arena.tournament.resume`): their field cannot change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from arena.games.base import opening_seed
from arena.records.field import PAIRING, RESULTS_BY_KEY, Field, keyed, row_key
from arena.tournament.schedule import ScheduledGame

#: The tournament types whose field may change (random matches draw their games from the field).
FIELD_TYPES = ("roundRobin", "gauntlet")


def pairing_number(first: str, second: str, k: int) -> int:
    """The ``pair`` of rounds ``2k`` and ``2k + 1`` of the couple ``(first, second)``: a 48-bit digest
    of the three, the same in any field (two couples sharing one is harmless: they share an opening
    seed)."""
    data = f"arena-pairing/{first}/{second}/{k}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:6], "big")


def field_games(field: Field) -> Iterator[ScheduledGame]:
    """Every game of ``field`` in play order (round by round, couples in config order, so early
    games cover every couple), each with ``index`` -1 (the runner numbers what it plays)."""
    couples = list(field.couples())
    for round_ in range(field.games_per_pair):
        for first, second in couples:
            pair = pairing_number(first, second, round_ // 2)
            black, white = (first, second) if round_ % 2 == 0 else (second, first)
            yield ScheduledGame(-1, black, white, pair, opening_seed(field.seed, pair), round_)


def missing_games(field: Field, rows: Iterable[Mapping[str, Any]]) -> Iterator[ScheduledGame]:
    """The games of ``field`` that no row of ``rows`` plays with today's versions, in play order:
    what is left to play (``index`` -1)."""
    done = {row_key(row) for row in rows if field.counts(row)}
    return (g for g in field_games(field) if (g.black, g.white, g.round) not in done)


def scheduled_game(row: Mapping[str, Any], seed: int) -> ScheduledGame | None:
    """The game a keyed row says it is (its pair and opening seed worked out from its key), with the
    row's index; None when the row has no key."""
    key = row_key(row)
    index = row.get("index")
    if key is None or not isinstance(index, int):
        return None
    black, white, round_ = key
    first, second = (black, white) if round_ % 2 == 0 else (white, black)
    pair = pairing_number(first, second, round_ // 2)
    return ScheduledGame(index, black, white, pair, opening_seed(seed, pair), round_)


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


def with_index(game: ScheduledGame, index: int) -> ScheduledGame:
    return replace(game, index=index)


__all__ = ["FIELD_TYPES", "PAIRING", "RESULTS_BY_KEY", "Field", "FieldChange", "field_change", "field_games", "keyed",
           "missing_games", "pairing_number", "refusal", "row_key", "scheduled_game", "with_index"]
