"""A field that changes: results kept per (pairing, versions), not by position in a schedule.

A log folder whose ``config.json`` says ``"resultsBy": "pairing"`` (every new two-player round robin
or gauntlet) names each game by its *key*, ``(black, white, round)``: round ``r`` of the couple
``(a, b)`` has ``a`` black when ``r`` is even (``a`` the gauntlet's hero, else the smaller id), and
rounds ``2k`` and ``2k + 1`` form a colour-swapped pair whose number (:func:`pairing_number`) and
opening seed depend on ``a``, ``b``, ``k`` and the tournament's seed only. So a game is the same game
whatever else is in the field, and its row's ``index`` is only the order it was written in.

Every row also carries ``versions`` (each player's :func:`arena.tournament.versions.agent_version`).
A game *counts now* (:meth:`Field.counts`) when its key is one the current field schedules (both
agents in it, the round below ``gamesPerPair``, the gauntlet's hero in it) and its versions are the
agents' current ones. So adding an agent schedules only its games; a replaced bot (a new version)
has its games played again, the old ones staying in ``games.jsonl`` as history; a withdrawn agent's
games stay there too and count no more; and a resumed run plays exactly the keys that have no
counting row: none is lost or played twice.

Standings of a field are computed over the counting games in the canonical order of
:meth:`Field.standings_rows` (round, then black, then white, indices renumbered in that order), so
they are the same as those of a fresh run of the same field whatever order the games were played in.

Folders written before (no ``resultsBy``), random matches and games of N seats keep results by
index (:mod:`arena.tournament.resume`): their field cannot change.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena.games.base import opening_seed
from arena.tournament.schedule import ScheduledGame

#: ``config.json``'s key and value for a folder whose results are kept by pairing.
RESULTS_BY_KEY = "resultsBy"
PAIRING = "pairing"
#: The tournament types whose field may change (random matches draw their games from the field).
FIELD_TYPES = ("roundRobin", "gauntlet")

Key = tuple[str, str, int]


def pairing_number(first: str, second: str, k: int) -> int:
    """The ``pair`` of rounds ``2k`` and ``2k + 1`` of the couple ``(first, second)``: a 48-bit digest
    of the three, the same in any field (two couples sharing one is harmless: they share an opening
    seed)."""
    data = f"arena-pairing/{first}/{second}/{k}".encode()
    return int.from_bytes(hashlib.sha256(data).digest()[:6], "big")


def keyed(config_json: Mapping[str, Any] | None) -> bool:
    """Whether a ``config.json`` object keeps its results by pairing."""
    return bool(config_json) and config_json.get(RESULTS_BY_KEY) == PAIRING  # type: ignore[union-attr]


@dataclass(frozen=True)
class Field:
    """The agents of a two-player round robin or gauntlet as they are now: ids in config order,
    each one's version, ``games_per_pair`` rounds per couple, the tournament's ``seed``."""

    tournament_type: str
    agents: tuple[str, ...]
    versions: Mapping[str, str] = field(default_factory=dict)
    games_per_pair: int = 2
    seed: int = 0

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Field:
        """The field a ``config.json`` object describes (``agents``, ``versions``...)."""
        agents = tuple(a["id"] for a in obj.get("agents", ()) if isinstance(a, dict) and isinstance(a.get("id"), str))
        versions = obj.get("versions") if isinstance(obj.get("versions"), dict) else {}
        per_pair, seed = obj.get("gamesPerPair"), obj.get("seed")
        return cls(str(obj.get("tournamentType")), agents, dict(versions or {}),
                   per_pair if isinstance(per_pair, int) else 2, seed if isinstance(seed, int) else 0)

    @property
    def hero(self) -> str | None:
        return self.agents[0] if self.tournament_type == "gauntlet" and self.agents else None

    def couples(self) -> Iterator[tuple[str, str]]:
        """Every couple the field schedules, first agent black in even rounds, in config order."""
        if self.hero is not None:
            return ((self.hero, other) for other in self.agents[1:])
        return (tuple(sorted(pair)) for pair in itertools.combinations(self.agents, 2))  # type: ignore[misc]

    def games(self) -> Iterator[ScheduledGame]:
        """Every game of the field in play order (round by round, couples in config order, so early
        games cover every couple), each with ``index`` -1 (the runner numbers what it plays)."""
        couples = list(self.couples())
        for round_ in range(self.games_per_pair):
            for first, second in couples:
                pair = pairing_number(first, second, round_ // 2)
                black, white = (first, second) if round_ % 2 == 0 else (second, first)
                yield ScheduledGame(-1, black, white, pair, opening_seed(self.seed, pair), round_)

    def __len__(self) -> int:
        n = len(self.agents)
        couples = n - 1 if self.hero is not None else n * (n - 1) // 2
        return couples * self.games_per_pair

    def scheduled(self, key: Key) -> bool:
        """Whether the game ``key`` is one of this field's (whatever its versions)."""
        black, white, round_ = key
        if not 0 <= round_ < self.games_per_pair or black == white:
            return False
        first, second = (black, white) if round_ % 2 == 0 else (white, black)
        if self.hero is not None:
            return first == self.hero and second in self.agents[1:]
        return first < second and first in self.agents and second in self.agents

    def counts(self, row: Mapping[str, Any]) -> bool:
        """Whether the game of ``row`` counts now: one of this field's, played by today's versions."""
        key = row_key(row)
        if key is None or not self.scheduled(key):
            return False
        versions = row.get("versions")
        return isinstance(versions, dict) and all(versions.get(a) == self.versions.get(a) for a in key[:2])

    def counting(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The rows of ``rows`` that count now, in file order."""
        return [dict(row) for row in rows if self.counts(row)]

    def standings_rows(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The counting rows in the canonical order (module docstring), ``index`` renumbered 0, 1...:
        what standings are computed over."""
        ordered = sorted(self.counting(rows), key=lambda r: (r["round"], r["black"], r["white"]))
        return [{**row, "index": number} for number, row in enumerate(ordered)]

    def to_json(self) -> dict[str, Any]:
        return {"tournamentType": self.tournament_type, "agents": [{"id": a} for a in self.agents],
                "versions": dict(self.versions), "gamesPerPair": self.games_per_pair, "seed": self.seed}


def row_key(row: Mapping[str, Any]) -> Key | None:
    """The key ``(black, white, round)`` of a row (None when it has none: an index-kept row)."""
    black, white, round_ = row.get("black"), row.get("white"), row.get("round")
    if not (isinstance(black, str) and isinstance(white, str) and isinstance(round_, int)) or isinstance(round_, bool):
        return None
    return black, white, round_


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


__all__ = ["FIELD_TYPES", "PAIRING", "RESULTS_BY_KEY", "Field", "FieldChange", "field_change", "keyed",
           "pairing_number", "refusal", "row_key", "scheduled_game", "with_index"]
