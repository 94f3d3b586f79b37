"""The local backend: every game in this process, on this machine (the default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.backends import GameJob
from arena.games.registry import configured_game
from arena.match.game import play_game
from arena.match.progress import Observer
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION


class LocalBackend:
    """:func:`arena.match.game.play_game` in the driver's own trio run (see :mod:`arena.backends`)."""

    name = "local"

    def open(self, agents: list[AgentSpec], *, base_dir: Path | None, logs_dir: Path | None,
             sandbox: bool = False) -> None:
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
        return await run_job(job, stderr_dir=stderr_dir, observer=observer)

    def close(self) -> None:
        pass


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
