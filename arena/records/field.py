"""Which games of a log folder count now: a folder whose results are kept per (pairing, versions).

A log folder whose ``config.json`` says ``"resultsBy": "pairing"`` names each game by its *key*
``(seats, round)``: its agents in seat order (``black``, ``white`` for two players; ``seats`` for N)
and its ``round`` within its group. A group is listed in a canonical order (ids sorted; a gauntlet's
hero first, then the others sorted) and round ``r`` seats it rotated by ``r % N`` (the ``k``-th agent
at seat ``(k + r) % N``: for two players, the first is black in even rounds). Each row also carries
``versions``, each player's version (:mod:`arena.tournament.versions`). A game *counts now*
(:meth:`Field.counts`) when its key is one the folder's current field schedules (every agent in it,
the round below ``gamesPerPair``/``gamesPerGroup``, the gauntlet's hero in it) and its versions are
the agents' versions now; the other rows are history (a replaced bot's old games, a withdrawn
agent's).

A league (``tournamentType`` ``"league"``, :mod:`arena.tournament.league`) has no schedule: its
games are chosen as it goes, its rows have no ``round`` and every one of them may count. In a league
a game counts now when its players are agents of the field now and its versions are theirs now.

Standings of a field are computed over the counting games in the canonical order of
:meth:`Field.standings_rows` (round, then the seats, indices renumbered in that order), so
they do not depend on the order the games were played in: a fresh run of the same field gives the
same. This is the one answer to "which games count now" for every reader of a log folder (the runner,
the standings worker, ``arena standings``, ``arena check-logs``, a league); the schedule of a field
and what a run prints about a change are :mod:`arena.tournament.field`'s.

Pure: no I/O.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

#: ``config.json``'s key and value for a folder whose results are kept by pairing.
RESULTS_BY_KEY = "resultsBy"
PAIRING = "pairing"

#: ``tournamentType`` of a league: a field with no schedule, where every game of today's agents and
#: versions counts (module docstring).
LEAGUE = "league"

#: A game's agents in seat order, and its round.
Key = tuple[tuple[str, ...], int]


def keyed(config_json: Mapping[str, Any] | None) -> bool:
    """Whether a ``config.json`` object keeps its results by pairing."""
    return isinstance(config_json, Mapping) and config_json.get(RESULTS_BY_KEY) == PAIRING


def row_key(row: Mapping[str, Any]) -> Key | None:
    """The key ``(seats, round)`` of a row of either shape (None when it has none: an index-kept row)."""
    round_ = row.get("round")
    seats = row_seats(row)
    if not isinstance(round_, int) or isinstance(round_, bool) or seats is None:
        return None
    return seats, round_


def row_seats(row: Mapping[str, Any]) -> tuple[str, ...] | None:
    """A row's agents in seat order, of either shape (None when it names none)."""
    seats = row.get("seats") if "seats" in row else [row.get("black"), row.get("white")]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        return None
    return tuple(seats)


def rotated(group: tuple[str, ...], turn: int) -> tuple[str, ...]:
    """``group`` in seat order for rotation ``turn``: the ``k``-th agent at seat ``(k + turn) % N``
    (:func:`arena.tournament.schedule.rotated`'s convention)."""
    n = len(group)
    return tuple(group[(seat - turn) % n] for seat in range(n))


def unrotated(seats: tuple[str, ...], turn: int) -> tuple[str, ...]:
    """The group whose rotation ``turn`` is ``seats``."""
    n = len(seats)
    return tuple(seats[(k + turn) % n] for k in range(n))


@dataclass(frozen=True)
class Field:
    """The agents of a round robin, gauntlet or league as they are now: ids in config order, each
    one's version, ``games_per_pair`` rounds per group (``gamesPerPair`` or ``gamesPerGroup``; a
    league's count all), the tournament's ``seed``, and ``players`` (None: a two-player game; else
    the seats of a game of the general model)."""

    tournament_type: str
    agents: tuple[str, ...]
    versions: Mapping[str, str] = field(default_factory=dict)
    games_per_pair: int = 2
    seed: int = 0
    players: int | None = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Field:
        """The field a ``config.json`` object describes (``tournamentType``, ``agents``,
        ``versions``, ``gamesPerPair``, ``seed``)."""
        agents = tuple(a["id"] for a in obj.get("agents", ()) if isinstance(a, dict) and isinstance(a.get("id"), str))
        versions = obj.get("versions") if isinstance(obj.get("versions"), dict) else {}
        players = obj.get("players") if isinstance(obj.get("players"), int) else None
        per_pair = obj.get("gamesPerPair" if players is None else "gamesPerGroup")
        seed = obj.get("seed")
        return cls(str(obj.get("tournamentType")), agents, dict(versions or {}),
                   per_pair if isinstance(per_pair, int) else players or 2, seed if isinstance(seed, int) else 0,
                   players)

    def to_json(self) -> dict[str, Any]:
        """What :meth:`from_json` reads back."""
        return {"tournamentType": self.tournament_type, "agents": [{"id": a} for a in self.agents],
                "versions": dict(self.versions), "seed": self.seed,
                **({"gamesPerPair": self.games_per_pair} if self.players is None
                   else {"players": self.players, "gamesPerGroup": self.games_per_pair})}

    @property
    def seats(self) -> int:
        return self.players or 2

    @property
    def hero(self) -> str | None:
        return self.agents[0] if self.tournament_type == "gauntlet" and self.agents else None

    def groups(self) -> Iterator[tuple[str, ...]]:
        """Every group the field schedules, in its canonical order (module docstring), in the order
        of the agents in the config."""
        if self.hero is not None:
            return ((self.hero, *sorted(rest)) for rest in itertools.combinations(self.agents[1:], self.seats - 1))
        return (tuple(sorted(group)) for group in itertools.combinations(self.agents, self.seats))

    def __len__(self) -> int:
        """The games the field schedules (a league schedules none ahead: not used for one)."""
        n, k = len(self.agents), self.seats
        groups = math.comb(n - 1, k - 1) if self.hero is not None else math.comb(n, k)
        return groups * self.games_per_pair

    def scheduled(self, key: Key) -> bool:
        """Whether the game ``key`` is one of this field's (whatever its versions)."""
        seats, round_ = key
        if len(seats) != self.seats or not 0 <= round_ < self.games_per_pair:
            return False
        group = unrotated(seats, round_ % self.seats)
        rest = group
        if self.hero is not None:
            if group[0] != self.hero:
                return False
            rest = group[1:]
        return all(a < b for a, b in itertools.pairwise(rest)) and self._others.issuperset(rest)

    @functools.cached_property
    def _others(self) -> frozenset[str]:
        """The agents a group lists after its hero (all of them without one): a set, since every row
        of a folder asks (a cached property works on a frozen dataclass: it writes the instance dict)."""
        return frozenset(self.agents[1:] if self.hero is not None else self.agents)

    @property
    def league(self) -> bool:
        """Whether this is a league's field: no schedule, every game of today's agents counts."""
        return self.tournament_type == LEAGUE

    def counts(self, row: Mapping[str, Any]) -> bool:
        """Whether the game of ``row`` counts now: one of this field's (a league: of its agents, any
        round), played by today's versions."""
        if self.league:
            seats = row_seats(row)
            if seats is None or len(seats) != self.seats or len(set(seats)) != len(seats) \
                    or not all(a in self.agents for a in seats):
                return False
        else:
            key = row_key(row)
            if key is None or not self.scheduled(key):
                return False
            seats = key[0]
        versions = row.get("versions")
        return isinstance(versions, dict) and all(versions.get(a) == self.versions.get(a) for a in seats)

    def counting(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The rows of ``rows`` that count now, in file order."""
        return [dict(row) for row in rows if self.counts(row)]

    def standings_rows(self, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The counting rows in the canonical order (module docstring), ``index`` renumbered 0, 1...:
        what standings are computed over. A league's in the order they were played (their own
        ``index``): it has no canonical order, and its games are the ones it chose."""
        if self.league:
            return sorted(self.counting(rows), key=lambda r: r["index"])
        ordered = sorted(self.counting(rows), key=lambda r: (r["round"], row_key(r)))
        return [{**row, "index": number} for number, row in enumerate(ordered)]


__all__ = ["LEAGUE", "PAIRING", "RESULTS_BY_KEY", "Field", "Key", "keyed", "rotated", "row_key", "row_seats", "unrotated"]
