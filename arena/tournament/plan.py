"""What a tournament config plays, in the engine's terms: each agent as an
:class:`arena.match.game.AgentSpec`, the time control, the isolation and the opening book. Shared by the
tournament runner and by ``arena run`` of a config with an ``sprt`` key, so both play a config's
games the same way."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import ConfigError
from arena.match.clock import TimeControl
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation
from arena.tournament.config import AgentConfig, TournamentConfig

if TYPE_CHECKING:
    from arena.games.base import Game
    from arena.openings.book import Book, Order


def agent_spec(agent: AgentConfig) -> AgentSpec:
    """The player of config agent ``agent`` (an executable's resolved argv joined back into one
    command line, as ``play_game`` splits it)."""
    if agent.type == "executable":
        assert agent.command is not None
        import shlex

        return AgentSpec(agent.id, "executable", command=shlex.join(agent.command), env=agent.env,
                         folder=agent.home, read_only=agent.read_only)
    if agent.type == "player":
        return AgentSpec.from_config_type(agent.id, agent.type, path=agent.path, env=agent.env)
    return AgentSpec.from_config_type(agent.id, agent.type, path=agent.path, env=agent.env,
                                      read_only=agent.read_only)


def time_control(config: TournamentConfig) -> TimeControl:
    """The config's clocks: ``timeLimit``, ``timeMargin``, ``startupTime``, ``moveTimeLimit``,
    ``increment``."""
    return TimeControl(time_limit_ms=config.time_limit_ms, time_margin_ms=config.time_margin_ms,
                       startup_ms=config.startup_ms, move_time_limit_ms=config.move_time_limit_ms,
                       increment_ms=config.increment_ms)


def isolation(config: TournamentConfig) -> Isolation:
    """The config's ``ponder``, ``sandbox`` and ``inheritEnv``."""
    return Isolation(ponder=config.ponder, sandbox=config.sandbox, inherit_env=config.inherit_env,
                     limits=config.limits, read_only=config.read_only)


def opening_book(config: TournamentConfig, game: Game) -> Book | None:
    """The config's ``openings`` book, None without one. ConfigError (one line) when it cannot be
    read or changed since the config was read (its digest is part of the tournament's identity)."""
    if config.openings is None:
        return None
    from arena.openings.book import OpeningsError, load_book

    try:
        book = load_book(game, Path(config.openings))
    except OpeningsError as exc:
        raise ConfigError(f"openings: {exc}") from None
    if book.digest != config.openings_digest:
        raise ConfigError(f"openings: {config.openings} changed since the config was read")
    return book


def openings_order(config: TournamentConfig) -> Order:
    """The config's ``openingsOrder`` (validated when the config was read)."""
    return "sequential" if config.openings_order == "sequential" else "random"
