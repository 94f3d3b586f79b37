"""One agent's record in a tournament: its games, its results against each opponent, its faults.
Pure functions over ``games.jsonl`` rows of either shape (two players: ``black``/``white``; N
seats: ``seats``/``ranks``), read as :class:`arena.stats.results.RankedResult`.

Against an opponent met in a game of N seats, finishing ahead counts a win, level a draw, behind a
loss (the pairwise score of ``standings.json``).

Versions: a row names the version each agent played (a digest of its command and files) in
``versions``, by agent id, as the runner writes it and :meth:`arena.records.field.Field.counts`
reads it; the agent's page lists each version met with its games. Rows without them have no versions.
A version's games and score are those of its own rows, whether they count now or not (an earlier
version's never do: its score is still what it scored), and :attr:`VersionRecord.counting` says how
many of them count now, by the same rule as the standings.

What counts. In a folder whose field changes (``"resultsBy": "pairing"``: a changed field, a
league) only some games count now (:meth:`arena.records.field.Field.counts`, the one answer): the
results by opponent tally those, as the standings do; the other games (an old version's, a withdrawn
opponent's) are history, counted apart (:attr:`AgentRecord.history`) and still listed with the
agent's versions, faults and games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.records.field import Field
from arena.stats.ratings import result_from_row
from arena.stats.results import RankedResult, ranked_from_game, ranked_from_row


def ranked(row: Mapping[str, Any]) -> RankedResult | None:
    """The row as seats and ranks; None for a row that is not a game (never in a folder arena wrote)."""
    try:
        return ranked_from_row(row) if "seats" in row else ranked_from_game(result_from_row(row))
    except ValueError:
        return None


@dataclass
class VersusRecord:
    """Results against one opponent."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def score_pct(self) -> float:
        return 100.0 * (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass(frozen=True)
class Fault:
    """A game the agent lost by a fault: ``termination`` (timeout, crash...), the game's ``reason``,
    and ``stderr``: its stderr file's name in the folder's ``stderr/``."""

    index: int
    termination: str
    reason: str
    stderr: str


@dataclass
class VersionRecord:
    """The games one version of the agent played: how many, how many of them count now
    (``counting``), the first and last game's index, and its score over them all (wins and draws as
    against each opponent)."""

    version: str
    games: int = 0
    first: int = 0
    last: int = 0
    points: float = 0.0
    meetings: int = 0
    counting: int = 0

    @property
    def score_pct(self) -> float:
        return 100.0 * self.points / self.meetings if self.meetings else 0.0


@dataclass
class AgentRecord:
    """``games``: (row, the agent's seat) in the order they ended; ``versus``: by opponent id, of
    the games that count now; ``versions``: by version, in the order first played (empty when rows
    carry none); ``history``: its games that count no more (module docstring)."""

    id: str
    games: list[tuple[dict[str, Any], int]] = field(default_factory=list)
    versus: dict[str, VersusRecord] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    versions: dict[str, VersionRecord] = field(default_factory=dict)
    history: int = 0


def version_of(row: Mapping[str, Any], agent: str) -> str | None:
    """The version ``agent`` played in ``row``, None when the row does not say."""
    versions = row.get("versions")
    found = versions.get(agent) if isinstance(versions, Mapping) else None
    return found if isinstance(found, str) and found else None


def agent_record(agent: str, rows: Iterable[dict[str, Any]], now: Field | None = None) -> AgentRecord:
    """Everything the agent's page shows, from every finished game's row; ``now`` is the folder's
    field when it changes (None: every game counts)."""
    record = AgentRecord(agent)
    for row in rows:
        game = ranked(row)
        if game is None or agent not in game.seats:
            continue
        seat = game.seats.index(agent)
        record.games.append((row, seat))
        mine = game.ranks[seat]
        version = version_of(row, agent)
        mark = None
        if version is not None:
            mark = record.versions.setdefault(version, VersionRecord(version, first=game.index))
            mark.games += 1
            mark.last = game.index
        counts = now is None or now.counts(row)
        if not counts:
            record.history += 1
        elif mark is not None:
            mark.counting += 1
        for other, rank in zip(game.seats, game.ranks, strict=True):
            if other == agent:
                continue
            if mark is not None:  # the version's own rows, counting now or not
                mark.points += 1.0 if mine < rank else 0.5 if mine == rank else 0.0
                mark.meetings += 1
            if not counts:
                continue
            versus = record.versus.setdefault(other, VersusRecord())
            versus.games += 1
            if mine < rank:
                versus.wins += 1
            elif mine == rank:
                versus.draws += 1
            else:
                versus.losses += 1
        for fault_seat, termination in game.faults:
            if fault_seat == seat:
                record.faults.append(Fault(game.index, termination, str(row.get("reason", "")),
                                           stderr_name(row, game, seat)))
    record.versus = dict(sorted(record.versus.items()))
    return record


def stderr_name(row: Mapping[str, Any], game: RankedResult, seat: int) -> str:
    """The name of the seat's stderr file in ``stderr/``, as the match engines write it:
    ``00012-black-a.log`` in a two-player game, ``00012-seat2-a.log`` in a game of N seats."""
    where = f"seat{seat}" if "seats" in row else ("black", "white")[seat]
    return f"{game.index:05d}-{where}-{game.seats[seat]}.log"


def agents_of(rows: Iterable[dict[str, Any]]) -> list[str]:
    """Every agent id that played, in order of first appearance."""
    seen: dict[str, None] = {}
    for row in rows:
        game = ranked(row)
        if game is not None:
            seen.update(dict.fromkeys(game.seats))
    return list(seen)
