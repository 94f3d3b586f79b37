"""The registry lines of arena's games of the general model (N seats, chance, hidden information):
each game's module describes itself in ``SPEC_FIELDS``; this module adds what every such game
shares (the N-seat envelope, the general model) and its move cap."""

from __future__ import annotations

import importlib

from arena.games.registry import GENERAL, GameSpec


def _spec(module: str) -> GameSpec:
    fields = dict(importlib.import_module(f"arena.games.{module}").SPEC_FIELDS)
    rules = importlib.import_module(f"arena.games.{module}")
    cls = getattr(rules, fields["rules"].partition(":")[2])
    return GameSpec(**fields, default_max_moves=cls.default_max_moves, protocol="json-seats", model=GENERAL)


def goofspiel() -> GameSpec:
    return _spec("goofspiel")


def kuhn_poker() -> GameSpec:
    return _spec("kuhn_poker")


def leduc_poker() -> GameSpec:
    return _spec("leduc_poker")


def love_letter() -> GameSpec:
    return _spec("love_letter")
