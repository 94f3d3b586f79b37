"""The SPRT settings of a tournament config with an ``sprt`` key: an SPRT of its first agent (NEW)
against its second (OLD), with the config's game, time control, openings, seed, isolation and
concurrency (``arena run CONFIG`` runs it as ``arena sprt`` would, see :mod:`arena.cli.run_cmd`); for a
game of the general model (``players`` 2) its ``parameters``, referee (``rules``) and ``legalMoves``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arena.games.registry import configured_game, get_game
from arena.tournament.config import TournamentConfig

if TYPE_CHECKING:
    from arena.sprt.run import SprtSettings


def sprt_settings(config: TournamentConfig, concurrency: int | None, isolation: dict[str, bool | None],
                  backend: tuple[str | None, str | None, float | None] = (None, None, None)) -> SprtSettings:
    """The :class:`arena.sprt.run.SprtSettings` of ``config`` (which has ``sprt``). ``concurrency``
    (``--concurrency``), the ``isolation`` overrides and ``backend`` (``--backend``, ``--ray-address``,
    ``--ray-cpus-per-game``; None: the config's) win over the config's.
    Raises ConfigError when the opening book changed since the config was read."""
    from arena.sprt.run import SprtSettings
    from arena.tournament import plan
    from arena.tournament.runner import RunOptions, backend_options, with_overrides

    config = with_overrides(config, RunOptions(ponder=isolation.get("ponder"), sandbox=isolation.get("sandbox"),
                                               inherit_env=isolation.get("inherit_env")))
    s = config.sprt
    assert s is not None
    settings = SprtSettings(
        game=configured_game(config.game, config.players, dict(config.parameters)),
        new=plan.agent_spec(config.agents[0]), old=plan.agent_spec(config.agents[1]),
        elo0=s["elo0"], elo1=s["elo1"], alpha=s["alpha"], beta=s["beta"], model=s["model"],
        time_control=plan.time_control(config), max_moves=config.max_moves, opening_plies=config.opening_plies,
        seed=config.seed, openings_order=plan.openings_order(config),
        max_pairs=s["maxPairs"], concurrency=concurrency or config.concurrency or 1,
        isolation=plan.isolation(config), backend=backend_options(config, *backend),
        base_dir=Path(config.source).resolve().parent if config.source else None,
        players=config.players, parameters=config.parameters, rules=config.rules_command or (),
        legal_moves=config.legal_moves, score=s["score"])
    if config.openings is not None:  # the config refuses them for a game of the general model
        settings.book = plan.opening_book(config, get_game(config.game))
    return settings

