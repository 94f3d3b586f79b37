"""The one run loop: a schedule played by a pool of workers, for tournaments, SPRT and SPSA runs.

A run is a schedule, a backend and a log folder with one writer. The schedule is a function that
gives the next thing to play (a game, a colour-swapped pair...), or None when there is nothing
more: it may be fixed (a round robin's games in index order) or adaptive (an SPRT's pairs until the
test decides), and since it is asked each time a worker is free, it may grow while the run goes on.
``play(item)`` plays one item and writes what it gives (the caller's one writer); it returns True
to stop the run, which cancels the items in flight (an SPRT that decided, a tournament whose
writer failed).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

T = TypeVar("T")

#: A schedule: called each time a worker is free, it gives the next item to play, or None when
#: there is nothing more now (the run ends once every worker has asked and got None). The
#: schedules handed to the loop: a tournament's or a league's games (arena.tournament.runner, the
#: evolutionary bootstrap's rounds being tournaments), an SPRT's colour-swapped pairs until the test
#: decides (arena.sprt.run), an SPSA iteration's pairs (arena.train.spsa_play).
Schedule = Callable[[], T | None]
#: What plays one item and writes what it gives; True stops the run (module docstring).
PlayItem = Callable[[T], Awaitable[bool]]


async def play_schedule(next_item: Schedule[T], play: PlayItem[T], workers: int) -> None:
    """Play the schedule ``next_item`` with ``workers`` items at once (module docstring); returns
    when it is exhausted or ``play`` asked to stop. Exceptions from ``play`` propagate."""
    async with trio.open_nursery() as nursery:

        async def worker() -> None:
            while (item := next_item()) is not None:
                if await play(item):
                    nursery.cancel_scope.cancel()
                    return

        for _ in range(max(1, workers)):
            nursery.start_soon(worker)


__all__ = ["PlayItem", "Schedule", "play_schedule"]
