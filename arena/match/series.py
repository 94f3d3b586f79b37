"""A series of games between two agents, as ``arena match`` plays it: no files, no terminal.

Game ``i`` is game ``i % 2`` of colour-swapped pair ``i // 2`` (:func:`arena.match.pairs.pair_games`):
the first agent is BLACK in even games, and both games of a pair start from the same opening. A
series is played one game at a time under :func:`arena.process.signals.run_trio_interruptibly`:
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
from arena.games.base import Game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.match.pairs import Openings, PairGame, pair_games
from arena.match.progress import Observer
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.process.signals import Interruption, exit_code_for, run_trio_interruptibly


def draw_seed() -> int:
    """A fresh seed for a run given none (recorded, so the run can be replayed)."""
    return random.SystemRandom().randrange(2**31)


@dataclass(frozen=True)
class Series:
    """What a series plays: ``games`` games of ``first`` against ``second`` (module docstring)."""

    game: Game
    first: AgentSpec
    second: AgentSpec
    games: int
    time_control: TimeControl
    max_moves: int | None = None
    #: Seeds the openings (random plies, or a book's random order); None: no random opening.
    seed: int | None = None
    openings: Openings = field(default_factory=Openings)
    #: Each bot's stderr, one file per game and colour (``play_game``'s ``stderr_dir``).
    stderr_dir: Path | None = None
    isolation: Isolation = DEFAULT_ISOLATION

    def planned(self) -> Iterator[tuple[int, PairGame[AgentSpec]]]:
        """``(index, game)`` for every game, in order."""
        for index in range(self.games):
            # The tournaments' seed scheme: one opening per colour-swapped pair, recorded as `seed`.
            pair = pair_games(self.first, self.second, index // 2, self.seed, self.openings,
                              always_record_seed=True)
            yield index, pair[index % 2]


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


async def play_series(series: Series, outcome: SeriesOutcome, observer: Observer | None = None) -> None:
    """Play ``series`` game by game, appending each record to ``outcome.records`` when it ends;
    an ArenaError stops it with ``outcome.failure`` set."""
    indexed = series.games > 1 or series.stderr_dir is not None
    try:
        for index, planned in series.planned():
            opening = planned.opening
            record = await play_game(
                series.game, planned.black, planned.white, time_control=series.time_control,
                max_moves=series.max_moves, start_state=opening.start_state,
                opening_plies=opening.plies, seed=opening.seed, stderr_dir=series.stderr_dir,
                game_index=index if indexed else None, observer=observer, isolation=series.isolation)
            outcome.records.append(record)
    except ArenaError as exc:  # arena's own failure (e.g. out of file descriptors)
        outcome.failure = str(exc)


def run_series(series: Series, observer: Observer | None = None,
               on_signal: Callable[[int], None] | None = None) -> SeriesOutcome:
    """Play ``series`` in its own ``trio.run``, interruptibly (module docstring)."""
    outcome = SeriesOutcome()
    seen = Interruption()
    run_trio_interruptibly(play_series, series, outcome, observer, on_first_signal=on_signal, interruption=seen)
    outcome.interrupted, outcome.signal_number = seen.interrupted, seen.signal_number
    return outcome


__all__ = ["Series", "SeriesOutcome", "draw_seed", "play_series", "run_series"]
