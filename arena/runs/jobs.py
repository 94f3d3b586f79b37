"""The one job builder: a :class:`arena.backends.GameJob` from what a run's games share, their seats
and their opening. Tournaments (pairs, and tables through :func:`arena.tournament.tables.table_job`), SPRT
runs and SPSA iterations build their jobs here, so a new field of a game reaches every run at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.backends import GameJob
from arena.match.clock import TimeControl
from arena.match.pairs import PairOpening
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation


@dataclass(frozen=True)
class GameSetting:
    """What every game of a run shares: :class:`arena.backends.GameJob`'s fields of the same names."""

    game: str
    time_control: TimeControl
    max_moves: int | None = None
    isolation: Isolation | None = None
    players: int | None = None
    parameters: tuple[tuple[str, int], ...] = ()
    rules: tuple[str, ...] = ()
    legal_moves: bool = False
    player_opts: dict[str, Any] | None = None


def game_job(setting: GameSetting, agents: Sequence[AgentSpec], index: int,
             opening: PairOpening | None = None, *, seed: int | None = None) -> GameJob:
    """The job of game ``index`` of a run of ``setting``, ``agents`` in seat order. With an
    ``opening`` (a pair's), the game starts from its state, plays its random plies and records its
    seed; without, from the game's start with ``seed``."""
    return GameJob(
        game=setting.game, agents=tuple(agents), time_control=setting.time_control, players=setting.players,
        parameters=setting.parameters, max_moves=setting.max_moves,
        start_state=opening.start_state if opening is not None else None,
        opening_plies=opening.plies if opening is not None else 0,
        seed=opening.seed if opening is not None else seed, game_index=index, isolation=setting.isolation,
        player_opts=setting.player_opts, rules=setting.rules, legal_moves=setting.legal_moves)
