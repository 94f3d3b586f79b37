"""The SPRT settings of a tournament config with an ``sprt`` key: an SPRT of its first agent (NEW)
against its second (OLD), with the config's game, time control, openings, seed, isolation and
concurrency (``arena run CONFIG`` runs it as ``arena sprt`` would, see :mod:`arena.cli.run_cmd`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arena.tournament.config import TournamentConfig

if TYPE_CHECKING:
    from arena.sprt.run import SprtSettings


def sprt_settings(config: TournamentConfig, concurrency: int | None, isolation: dict[str, bool | None],
                  backend: tuple[str | None, str | None, float | None] = (None, None, None)) -> SprtSettings:
    """The :class:`arena.sprt.run.SprtSettings` of ``config`` (which has ``sprt``). ``concurrency``
    (``--concurrency``), the ``isolation`` overrides and ``backend`` (``--backend``, ``--ray-address``,
    ``--ray-cpus-per-game``; None: the config's) win over the config's.
    Raises ConfigError when the opening book changed since the config was read."""
    from arena.games import get_game
    from arena.sprt.run import SprtSettings
    from arena.tournament import plan
    from arena.tournament.runner import RunOptions, backend_options, with_overrides

    config = with_overrides(config, RunOptions(ponder=isolation.get("ponder"), sandbox=isolation.get("sandbox"),
                                               inherit_env=isolation.get("inherit_env")))
    game = get_game(config.game)
    s = config.sprt
    assert s is not None
    return SprtSettings(
        game=game, new=plan.agent_spec(config.agents[0]), old=plan.agent_spec(config.agents[1]),
        elo0=s["elo0"], elo1=s["elo1"], alpha=s["alpha"], beta=s["beta"], model=s["model"],
        time_control=plan.time_control(config), max_moves=config.max_moves, opening_plies=config.opening_plies,
        seed=config.seed, book=plan.opening_book(config, game),
        openings_order=plan.openings_order(config),
        max_pairs=s["maxPairs"], concurrency=concurrency or config.concurrency or 1,
        isolation=plan.isolation(config), backend=backend_options(config, *backend),
        base_dir=Path(config.source).resolve().parent if config.source else None)

