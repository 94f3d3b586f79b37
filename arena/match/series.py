"""A series of games between the same agents, as ``arena match`` plays it: no files, no terminal.

A two-player game of its own wire dialect (``game.seat_envelope`` False: BLACK and WHITE, with random
or book openings): game ``i`` is game ``i % 2`` of colour-swapped pair ``i // 2``
(:func:`arena.match.pairs.pair_games`): the first agent is BLACK in even games, and both games of a
pair start from the same opening. A game of the N-seat envelope: game ``i`` seats the agents
rotated by ``i`` (agent ``k`` at seat ``(k + i) % N``), so over N games every agent sits at every
seat once, and its chance draws are seeded with ``opening_seed(seed, i)`` (recorded).

A series is played one game at a time under :func:`arena.process.signals.run_trio_interruptibly`:
the first Ctrl-C (SIGTERM, SIGHUP) drops the game being played and keeps the finished ones; an
:class:`arena.errors.ArenaError` (arena's own failure, e.g. out of file descriptors) stops the
series the same way, with its message kept. Writing the records and printing are the caller's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.games.base import opening_seed
from arena.games.model import GeneralGame
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.match.pairs import Openings, PairOpening, pair_games
from arena.match.progress import Observer
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.process.signals import Interruption, exit_code_for, run_trio_interruptibly


def draw_seed() -> int:
    """A fresh seed for a run given none (recorded, so the run can be replayed)."""
    return random.SystemRandom().randrange(2**31)


@dataclass(frozen=True)
class Series:
    """What a series plays: ``games`` games of ``game`` between ``agents`` (module docstring)."""

    game: GeneralGame[Any, Any]
    agents: tuple[AgentSpec, ...]
    games: int
    time_control: TimeControl
    max_moves: int | None = None
    #: Seeds the openings (random plies, or a book's random order) of a two-player game, None: no
    #: random opening; the chance draws of an N-seat game (it needs one).
    seed: int | None = None
    openings: Openings = field(default_factory=Openings)
    #: Every seat's messages carry its legal moves (``--legal-moves``, N-seat games).
    legal_moves: bool = False
    #: Each bot's stderr, one file per game and seat (``play_game``'s ``stderr_dir``).
    stderr_dir: Path | None = None
    isolation: Isolation = DEFAULT_ISOLATION

    def planned(self) -> Iterator[tuple[int, tuple[AgentSpec, ...], PairOpening]]:
        """``(index, agents in seat order, opening)`` for every game, in order."""
        n = len(self.agents)
        for index in range(self.games):
            if not self.game.seat_envelope:
                # The tournaments' seed scheme: one opening per colour-swapped pair, recorded as `seed`.
                pair = pair_games(self.agents[0], self.agents[1], index // 2, self.seed, self.openings,
                                  always_record_seed=True)[index % 2]
                yield index, (pair.black, pair.white), pair.opening
            else:
                seed = opening_seed(self.seed, index) if self.seed is not None else None
                yield index, tuple(self.agents[(seat - index) % n] for seat in range(n)), PairOpening(None, 0, seed, None)


@dataclass
class SeriesOutcome:
    """How a series ended: the finished games' ``records`` (in order), arena's ``failure`` message
    (None when none), and whether a signal stopped it (``signal_number``: which)."""

    records: list[dict[str, Any]] = field(default_factory=list)
    failure: str | None = None
    interrupted: bool = False
    signal_number: int | None = None

    @property
    def interrupted_exit_code(self) -> int:
        """The exit status of an interrupted series: 129 after SIGHUP, else 130."""
        return exit_code_for(self.signal_number)


async def play_series(series: Series, outcome: SeriesOutcome, observer: Observer | None = None,
                      on_record: Callable[[dict[str, Any]], None] | None = None) -> None:
    """Play ``series`` game by game, appending each record to ``outcome.records`` when it ends
    (``on_record`` is told of each); an ArenaError stops it with ``outcome.failure`` set."""
    # A two-player record holds a game index only in a series of several games, or with log files.
    indexed = series.game.seat_envelope or series.games > 1 or series.stderr_dir is not None
    seats = range(len(series.agents)) if series.legal_moves else ()
    try:
        for index, agents, opening in series.planned():
            record = await play_game(
                series.game, *agents, time_control=series.time_control, max_moves=series.max_moves,
                start_state=opening.start_state, opening_plies=opening.plies, seed=opening.seed,
                stderr_dir=series.stderr_dir, game_index=index if indexed else None, observer=observer,
                isolation=series.isolation, legal_moves_for=seats)
            outcome.records.append(record)
            if on_record is not None:
                on_record(record)
    except ArenaError as exc:  # arena's own failure (e.g. out of file descriptors)
        outcome.failure = str(exc)


def run_series(series: Series, observer: Observer | None = None, on_signal: Callable[[int], None] | None = None,
               on_record: Callable[[dict[str, Any]], None] | None = None) -> SeriesOutcome:
    """Play ``series`` in its own ``trio.run``, interruptibly (module docstring)."""
    outcome = SeriesOutcome()
    seen = Interruption()
    run_trio_interruptibly(play_series, series, outcome, observer, on_record, on_first_signal=on_signal,
                           interruption=seen)
    outcome.interrupted, outcome.signal_number = seen.interrupted, seen.signal_number
    return outcome


def standings(records: list[dict[str, Any]]) -> list[tuple[str, float, int]]:
    """``(agent id, average rank, games)`` per agent over N-seat records, best first."""
    totals: dict[str, list[int]] = {}
    for record in records:
        for entry, rank in zip(record["seats"], record["ranks"], strict=True):
            totals.setdefault(entry["id"], []).append(rank)
    rows = [(agent, sum(r) / len(r), len(r)) for agent, r in totals.items()]
    return sorted(rows, key=lambda row: (row[1], row[0]))


def describe(record: dict[str, Any]) -> str:
    """One line for a finished N-seat game: the seats by rank, and how it ended."""
    order = sorted(range(len(record["seats"])), key=lambda s: (record["ranks"][s], s))
    placed = ", ".join(f"{record['ranks'][s]}. {record['seats'][s]['id']} (seat {s})" for s in order)
    return f"{placed}: {record['termination']}: {record['reason']}"


__all__ = ["Series", "SeriesOutcome", "describe", "draw_seed", "play_series", "run_series", "standings"]
