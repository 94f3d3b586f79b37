"""Which games of a log folder count now: a folder whose results are kept per (pairing, versions).

A log folder whose ``config.json`` says ``"resultsBy": "pairing"`` names each two-player game by its
*key* ``(black, white, round)``: round ``r`` of the couple ``(a, b)`` has ``a`` black when ``r`` is
even, ``a`` being the gauntlet's hero, else the smaller id. Each row also carries ``versions``, each
player's version (:mod:`arena.tournament.versions`). A game *counts now* (:meth:`Field.counts`) when
its key is one the folder's current field schedules (both agents in it, the round below
``gamesPerPair``, the gauntlet's hero in it) and its versions are the agents' versions now; the other
rows are history (a replaced bot's old games, a withdrawn agent's).

Standings of a field are computed over the counting games in the canonical order of
:meth:`Field.standings_rows` (round, then black, then white, indices renumbered in that order), so
they do not depend on the order the games were played in: a fresh run of the same field gives the
same. This is the one answer to "which games count now" for every reader of a log folder (the runner,
the standings worker, ``arena standings``, ``arena check-logs``, a league); the schedule of a field
and what a run prints about a change are :mod:`arena.tournament.field`'s.

Pure: no I/O.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

#: ``config.json``'s key and value for a folder whose results are kept by pairing.
RESULTS_BY_KEY = "resultsBy"
PAIRING = "pairing"

Key = tuple[str, str, int]


def keyed(config_json: Mapping[str, Any] | None) -> bool:
    """Whether a ``config.json`` object keeps its results by pairing."""
    return isinstance(config_json, Mapping) and config_json.get(RESULTS_BY_KEY) == PAIRING


def row_key(row: Mapping[str, Any]) -> Key | None:
    """The key ``(black, white, round)`` of a row (None when it has none: an index-kept row)."""
    black, white, round_ = row.get("black"), row.get("white"), row.get("round")
    if not (isinstance(black, str) and isinstance(white, str) and isinstance(round_, int)) or isinstance(round_, bool):
        return None
    return black, white, round_


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
        """The field a ``config.json`` object describes (``tournamentType``, ``agents``,
        ``versions``, ``gamesPerPair``, ``seed``)."""
        agents = tuple(a["id"] for a in obj.get("agents", ()) if isinstance(a, dict) and isinstance(a.get("id"), str))
        versions = obj.get("versions") if isinstance(obj.get("versions"), dict) else {}
        per_pair, seed = obj.get("gamesPerPair"), obj.get("seed")
        return cls(str(obj.get("tournamentType")), agents, dict(versions or {}),
                   per_pair if isinstance(per_pair, int) else 2, seed if isinstance(seed, int) else 0)

    def to_json(self) -> dict[str, Any]:
        """What :meth:`from_json` reads back."""
        return {"tournamentType": self.tournament_type, "agents": [{"id": a} for a in self.agents],
                "versions": dict(self.versions), "gamesPerPair": self.games_per_pair, "seed": self.seed}

    @property
    def hero(self) -> str | None:
        return self.agents[0] if self.tournament_type == "gauntlet" and self.agents else None

    def couples(self) -> Iterator[tuple[str, str]]:
        """Every couple the field schedules, its first agent black in even rounds, in config order."""
        if self.hero is not None:
            return ((self.hero, other) for other in self.agents[1:])
        return ((min(a, b), max(a, b)) for a, b in itertools.combinations(self.agents, 2))

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


__all__ = ["PAIRING", "RESULTS_BY_KEY", "Field", "Key", "keyed", "row_key"]
