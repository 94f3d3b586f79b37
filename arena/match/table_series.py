"""A series of N-seat games between the same agents, as ``arena match --players N`` plays it: no
files, no terminal.

Game ``i`` seats the agents rotated by ``i`` (agent ``k`` at seat ``(k + i) % N``), so over N games
every agent sits at every seat once. Each game's chance draws are seeded with
``opening_seed(seed, i)`` (recorded). Played one game at a time under
:func:`arena.process.signals.run_trio_interruptibly`, like two-player series
(:mod:`arena.match.series`): the first Ctrl-C drops the game being played and keeps the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.games.base import opening_seed
from arena.games.model import GeneralGame
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.match.progress import Observer
from arena.match.series import SeriesOutcome
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.process.signals import Interruption, run_trio_interruptibly


@dataclass(frozen=True)
class TableSeries:
    """``games`` games of ``game`` (configured with its players) between ``agents`` (one per seat)."""

    game: GeneralGame[Any, Any]
    agents: tuple[AgentSpec, ...]
    games: int
    time_control: TimeControl
    seed: int
    max_moves: int | None = None
    #: Every seat's messages carry its legal moves (``--legal-moves``).
    legal_moves: bool = False
    stderr_dir: Path | None = None
    isolation: Isolation = DEFAULT_ISOLATION

    def seating(self, index: int) -> list[AgentSpec]:
        """The agents in seat order for game ``index``."""
        n = len(self.agents)
        return [self.agents[(seat - index) % n] for seat in range(n)]


async def play_table_series(series: TableSeries, outcome: SeriesOutcome, observer: Observer | None = None,
                            on_record: Callable[[dict[str, Any]], None] | None = None) -> None:
    """Play ``series`` game by game into ``outcome.records`` (``on_record`` is told of each as it
    ends); an ArenaError stops it (``failure``)."""
    seats = range(series.game.players) if series.legal_moves else ()
    try:
        for index in range(series.games):
            record = await play_game(
                series.game, *series.seating(index), time_control=series.time_control, max_moves=series.max_moves,
                seed=opening_seed(series.seed, index), stderr_dir=series.stderr_dir, game_index=index,
                observer=observer, legal_moves_for=seats, isolation=series.isolation)
            outcome.records.append(record)
            if on_record is not None:
                on_record(record)
    except ArenaError as exc:
        outcome.failure = str(exc)


def run_table_series(series: TableSeries, observer: Observer | None = None,
                     on_signal: Callable[[int], None] | None = None,
                     on_record: Callable[[dict[str, Any]], None] | None = None) -> SeriesOutcome:
    """Play ``series`` in its own ``trio.run``, interruptibly (module docstring)."""
    outcome = SeriesOutcome()
    seen = Interruption()
    run_trio_interruptibly(play_table_series, series, outcome, observer, on_record, on_first_signal=on_signal,
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


__all__ = ["TableSeries", "describe", "play_table_series", "run_table_series", "standings"]
