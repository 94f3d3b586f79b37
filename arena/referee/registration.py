"""Registering a referee's game: :func:`register_referee`.

The referee is asked its ``info`` once (its process then stays, for the games), and its game is
added to the registry for this process as a :class:`arena.games.registry.GameSpec` of the general
model, under the name the referee gives: from then on ``get_spec(name).table(players, params)``
makes an :class:`arena.referee.game.ExternalGame` of it, like any game's. The spec names its parts
as every spec does, by ``"module:attribute"`` references: here into :data:`referees`, which holds
per game its class (``Game``) and, when the referee draws SVG pictures, the report's ``svg``
function.

How commands get here: ``--rules CMD`` (:func:`arena.cli.options.rules_option`), a tournament
config's ``"rules"`` key (:mod:`arena.tournament.config`), ``python -m arena.games.conformance
--rules CMD``; a package registers its referee through an ``arena.games`` entry point whose object
is a callable returning ``register_referee([...])`` (docs/referees.md).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from arena.games.base import GameError
from arena.games.registry import GENERAL, GameSpec, get_spec, register
from arena.referee.client import client_for
from arena.referee.game import ExternalGame, external_game_class

#: Per registered external game (an attribute named as the game): ``Game``, its ExternalGame
#: class, and ``svg``, its picture function for reports (None when the referee draws none).
referees = SimpleNamespace()

#: How a referee's game names where it comes from (``GameSpec.origin``), before its command.
REFEREE_ORIGIN = "rules program "


def register_referee(argv: Sequence[str], *, timeout_s: float | None = None) -> GameSpec:
    """Ask the referee ``argv`` (a command's words, run as they are) its ``info`` and register its
    game for this process; the spec. The same command again is the same game (nothing is asked
    again). RefereeError when the referee fails; GameError when another referee already registered
    a game of the same name (a game of arena or of a plugin with that name is replaced: the command
    line asked for this one)."""
    client = client_for(argv, timeout_s=timeout_s)
    game_class = external_game_class(client)
    name = game_class.name
    known: Any = getattr(referees, name, None)
    if known is not None and known.Game.client is not client:
        raise GameError(f"two rules programs give the game {name!r}: {known.Game.client.command!r} and "
                        f"{client.command!r}")
    if known is not None:
        return get_spec(name)
    svg = _svg_function(game_class) if game_class.has_feature("svg") else None
    setattr(referees, name, SimpleNamespace(Game=game_class, svg=svg))
    spec = GameSpec(
        name=name,
        title=name,
        rules=f"{__name__}:referees.{name}.Game",
        default_max_moves=game_class.default_max_moves,
        summary=f"external rules: {client.command}",
        protocol="json-seats",
        svg=f"{__name__}:referees.{name}.svg" if svg is not None else None,
        model=GENERAL,
        origin=f"{REFEREE_ORIGIN}{client.command}",
    )
    register(spec)
    return spec


def register_command(command: str, *, timeout_s: float | None = None) -> GameSpec:
    """:func:`register_referee` of a command line, split as a shell would (never run through one)."""
    return register_referee(shlex.split(command), timeout_s=timeout_s)


def rules_command(game: str) -> str | None:
    """The command of the referee that plays the registered game ``game`` (None: not an external
    game): what a process that must play it too (e.g. one of arena's own agents) is given as
    ``--rules``."""
    known: Any = getattr(referees, game, None)
    return None if known is None else str(known.Game.client.command)


def forget_referees() -> None:
    """Unregister every external game, end every referee process and empty the pool (tests)."""
    from arena.games.registry import unregister
    from arena.referee.client import close_all

    for name in list(vars(referees)):
        delattr(referees, name)
        unregister(name)
    close_all(forget=True)


def _svg_function(game_class: type[ExternalGame]) -> Any:
    def svg(state_json: Any, seat: int | None = None) -> str:
        game = game_class()
        picture = game.board(state_json, seat, want_svg=True)[1]
        return picture or ""

    return svg


__all__ = ["forget_referees", "referees", "register_command", "register_referee", "rules_command"]
