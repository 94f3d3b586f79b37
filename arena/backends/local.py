"""The local backend, the default: every game on this machine, in this process or, when more than one
game is played at once, in worker processes (:mod:`arena.backends.pool`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.backends import BackendOptions, GameJob
from arena.games.registry import configured_game
from arena.match.game import play_game
from arena.match.progress import Observer
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION

if TYPE_CHECKING:
    from arena.backends.pool import WorkerPool


class LocalBackend:
    """:func:`arena.match.game.play_game` in the driver's own trio run (``workers`` 0) or in up to
    ``workers`` worker processes (see :mod:`arena.backends` and :mod:`arena.backends.pool`)."""

    name = "local"
    # Class defaults too: a subclass (a test's) that does not call __init__ plays in this process.
    workers = 0
    _pool: WorkerPool | None = None

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: WorkerPool | None = None

    @classmethod
    def from_options(cls, options: BackendOptions) -> LocalBackend:
        """The ``local`` entry point of ``arena.backends``: ``options.workers`` worker processes
        (None or 0: every game in this process)."""
        return cls(options.workers or 0)

    def open(self, agents: list[AgentSpec], *, base_dir: Path | None, logs_dir: Path | None,
             sandbox: bool | str = False) -> None:
        """Nothing to connect to: the config's checks already ran on this machine."""

    def update_agents(self, agents: list[AgentSpec]) -> dict[str, str]:
        """Nothing to ship: games read the files where they are (the league checked the programs)."""
        return {}

    def capacity(self) -> int | None:
        return None

    def describe(self) -> str | None:
        return None

    async def play(self, job: GameJob, *, stderr_dir: Path | None = None,
                   observer: Observer | None = None) -> dict[str, Any]:
        if self.workers < 1:
            return await run_job(job, stderr_dir=stderr_dir, observer=observer)
        if self._pool is None:
            from arena.backends.pool import WorkerPool

            self._pool = WorkerPool(self.workers)
        return await self._pool.play(job, stderr_dir=stderr_dir, observer=observer)

    def worker_pids(self) -> list[int]:
        """The worker processes running now (for benches and tests that measure or watch them)."""
        return self._pool.pids() if self._pool is not None else []

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


async def run_job(job: GameJob, *, stderr_dir: Path | None = None,
                  observer: Observer | None = None) -> dict[str, Any]:
    """``play_game`` for ``job``, its game configured here, where it is played (the one place a job
    becomes a game, for every backend)."""
    if job.rules:  # a worker of another process (Ray) has not met the referee yet
        from arena.referee.registration import register_referee

        register_referee(job.rules)
    game = configured_game(job.game, job.players, dict(job.parameters))
    return await play_game(
        game, *job.agents, time_control=job.time_control, max_moves=job.max_moves, start_state=job.start_state,
        opening_plies=job.opening_plies, seed=job.seed, stderr_dir=stderr_dir, game_index=job.game_index,
        observer=observer, player_opts=job.player_opts, isolation=job.isolation or DEFAULT_ISOLATION,
        legal_moves_for=range(len(job.agents)) if job.legal_moves else ())
