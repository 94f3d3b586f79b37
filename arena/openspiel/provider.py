"""The registry's provider of the ``spiel:`` games (:data:`arena.games.registry.PROVIDERS`).

Cheap to import: pyspiel is imported by :func:`names` and :func:`spec` only, so ``arena --help`` and
every command of arena's own games never load it. Without the extra each entry point raises
GameError with the one line to install it.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from arena import install_hint
from arena.games.base import GameError
from arena.games.registry import GameSpec, spec_of

PREFIX = "spiel"
INSTALL_HINT = install_hint("openspiel")


def installed() -> bool:
    """Whether pyspiel can be imported (found without importing it)."""
    try:
        return importlib.util.find_spec("pyspiel") is not None
    except (ImportError, ValueError):  # a broken installation counts as none
        return False


def _require(what: str) -> None:
    if not installed():
        raise GameError(f"{what}, and OpenSpiel is not installed: {INSTALL_HINT}")


def names() -> tuple[str, ...]:
    """The full names (``spiel:hex``) of every OpenSpiel game arena can play, in pyspiel's order.
    Read from pyspiel's game types: a game is not loaded until it is asked for."""
    _require(f"{PREFIX}:NAME games are OpenSpiel's")
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    from arena.openspiel.game import unplayable

    return tuple(f"{PREFIX}:{t.short_name}" for t in pyspiel.registered_games() if unplayable(t) is None)


def unplayable_games() -> dict[str, str]:
    """The OpenSpiel games arena cannot play, with the reason (one line each)."""
    _require(f"{PREFIX}:NAME games are OpenSpiel's")
    import pyspiel

    from arena.openspiel.game import unplayable

    found = {f"{PREFIX}:{t.short_name}": unplayable(t) for t in pyspiel.registered_games()}
    return {name: why for name, why in found.items() if why}


def spec(short_name: str) -> GameSpec:
    """The registry line of the OpenSpiel game ``short_name``; GameError when OpenSpiel is not
    installed, has no such game, or has one arena cannot play."""
    _require(f"{PREFIX}:{short_name} is one of OpenSpiel's games")
    from arena.openspiel.game import game_class

    cls = game_class(short_name)
    kind = cls.game_type
    players = str(cls.min_players) if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
    summary = f"OpenSpiel's {kind.long_name}: {players} players"
    summary += ", chance" if not str(kind.chance_mode).endswith("DETERMINISTIC") else ""
    summary += ", simultaneous moves" if str(kind.dynamics).endswith("SIMULTANEOUS") else ""
    summary += ", hidden information" if not str(kind.information).endswith("PERFECT_INFORMATION") else ""
    return spec_of(cls, f"{kind.long_name} (OpenSpiel)", rules=f"{__name__}:classes.{short_name}", summary=summary,
                   notation="OpenSpiel's action name (action_to_string) or id", origin=f"open_spiel {_version()}")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open-spiel")
    except PackageNotFoundError:
        return "(version unknown)"


class _Classes:
    """``classes.hex``: the adapter class of an OpenSpiel game, for a GameSpec's ``rules`` reference
    (``"arena.openspiel.provider:classes.hex"``, resolved by :func:`arena.games.registry.load_ref`)."""

    def __getattr__(self, short_name: str) -> Any:
        if short_name.startswith("__"):
            raise AttributeError(short_name)
        from arena.openspiel.game import game_class

        try:
            return game_class(short_name)
        except GameError as exc:
            raise AttributeError(str(exc)) from None


classes = _Classes()
