"""``arena run CONFIG`` for a config with an ``sprt`` key: an SPRT of its first agent (NEW) against
its second (OLD), with the config's game, time control, openings, seed, isolation and concurrency,
logged in ``<logs>/<id>/`` as ``arena sprt`` logs (records in ``games/``, state in ``sprt.json``)
and reported the same way, exit statuses included."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from arena.tournament.config import AgentConfig, TournamentConfig

if TYPE_CHECKING:
    from arena.match import AgentSpec
    from arena.sprt_run import SprtSettings


def _spec(agent: AgentConfig) -> AgentSpec:
    from arena.match import AgentSpec

    if agent.type == "executable":
        assert agent.command is not None
        return AgentSpec(agent.id, "executable", command=shlex.join(agent.command), env=agent.env)
    return AgentSpec(agent.id, agent.type, path=agent.path, env=agent.env)


def sprt_settings(config: TournamentConfig, concurrency: int | None, isolation: dict[str, bool | None],
                  backend: tuple[str | None, str | None, float | None] = (None, None, None)) -> SprtSettings:
    """The :class:`arena.sprt_run.SprtSettings` of ``config`` (which has ``sprt``). ``concurrency``
    (``--concurrency``), the ``isolation`` overrides and ``backend`` (``--backend``, ``--ray-address``,
    ``--ray-cpus-per-game``; None: the config's) win over the config's.
    Raises ConfigError when the opening book changed since the config was read."""
    from arena.errors import ConfigError
    from arena.games import get_game
    from arena.isolation import Isolation
    from arena.match import TimeControl
    from arena.openings import OpeningsError, load_book
    from arena.sprt_run import SprtSettings
    from arena.tournament.runner import backend_options

    assert config.sprt is not None
    game = get_game(config.game)
    book = None
    if config.openings is not None:
        try:
            book = load_book(game, Path(config.openings))
        except OpeningsError as exc:
            raise ConfigError(f"openings: {exc}") from None
        if book.digest != config.openings_digest:
            raise ConfigError(f"openings: {config.openings} changed since the config was read")
    tc = TimeControl(time_limit_ms=config.time_limit_ms, time_margin_ms=config.time_margin_ms,
                     startup_ms=config.startup_ms, move_time_limit_ms=config.move_time_limit_ms,
                     increment_ms=config.increment_ms)

    def pick(name: str, value: bool) -> bool:
        override = isolation.get(name)
        return value if override is None else override

    s = config.sprt
    return SprtSettings(
        game=game, new=_spec(config.agents[0]), old=_spec(config.agents[1]),
        elo0=s["elo0"], elo1=s["elo1"], alpha=s["alpha"], beta=s["beta"], model=s["model"],
        time_control=tc, max_moves=config.max_moves, opening_plies=config.opening_plies,
        seed=config.seed, book=book,
        openings_order="sequential" if config.openings_order == "sequential" else "random",
        max_pairs=s["maxPairs"], concurrency=concurrency or config.concurrency or 1,
        isolation=Isolation(ponder=pick("ponder", config.ponder), sandbox=pick("sandbox", config.sandbox),
                            inherit_env=pick("inherit_env", config.inherit_env)),
        backend=backend_options(config, *backend),
        base_dir=Path(config.source).resolve().parent if config.source else None)


def run_config_sprt(config: TournamentConfig, logs_root: Path, concurrency: int | None,
                    isolation: dict[str, bool | None],
                    backend: tuple[str | None, str | None, float | None] = (None, None, None), *,
                    as_json: bool) -> NoReturn:
    """Run the SPRT of ``config`` in ``logs_root/<id>/`` and exit as ``arena sprt`` does."""
    from arena.cli.sprt_cmd import run_sprt
    from arena.tournament.config import check_sandbox

    settings = sprt_settings(config, concurrency, isolation, backend)
    if settings.isolation.sandbox:
        check_sandbox("sandbox")
    run_sprt(settings, logs_root / config.id, as_json=as_json, needs_seed=False, command="arena run")
