"""arena's public API: the names that plugin, referee and bot authors import, and the only ones.

Everything else in the ``arena`` package is private: modules move and change between versions.
What is listed here stays, and ``tests/test_api.py`` pins the list, so a change to it is a
decision, not an accident. The examples (``examples/arena-tictactoe``) and the shipped bots import
only from here.

- **Rules** (a plugin's game; standard library only): :class:`GeneralGame` (N seats, chance,
  simultaneous moves, hidden information) with :class:`Parameter` and the ``actor`` values
  :data:`CHANCE`, :data:`SIMULTANEOUS`, :data:`TERMINAL`; :func:`ranks`; :class:`Game`, the
  two-player shortcut (two colours taking turns in plain sight, seen by arena as two seats), with
  :class:`Color`, :class:`Outcome` and :class:`Termination`; the errors a rules method raises
  (:class:`GameError`, :class:`MoveSyntaxError`, :class:`IllegalMoveError`, :class:`StateError`);
  helpers for its messages and states (:func:`cap_text`, :func:`show_value`,
  :func:`read_state_fields`).
- **Registration**: :class:`GameSpec` (what a plugin's ``arena.games`` entry point gives),
  :func:`game_names` and :func:`get_spec` (what arena found installed),
  :func:`register_referee` (an external referee's game), :func:`check_spec` (the conformance
  check a plugin's own tests run).
- **Bots written in Python**: :func:`serve_json`, :func:`serve_seats` and :func:`serve_checkers`
  read what arena sends and write the move a chooser picks; :func:`run_alphabeta_bot` is arena's
  alpha-beta search behind a bot command.
- **Run backends** (a plugin's ``arena.backends`` entry point, docs/extending.md): the
  :class:`Backend` protocol (the contract), the :class:`BackendOptions` a backend is made from,
  the :class:`GameJob` it plays, :func:`run_job` (play a job in this process) and
  :class:`ClusterError` (the place games run cannot be used).
- **Rating methods** (a plugin's ``arena.ratings`` entry point, docs/extending.md): the
  :class:`RatingMethod` protocol, the :class:`RankedResult` games it rates and the :class:`Rating`
  it gives each agent.
- **Sandbox backends** (a plugin's ``arena.sandboxes`` entry point, docs/extending.md): the
  :class:`SandboxBackend` protocol, the :class:`SandboxRequest` it wraps and the
  :class:`SandboxCommand` it returns.
- **Records**: :class:`SeatRecord` (every game's record, format 4) and :class:`Record` (a game of
  two colours, with the Shobu engine's fields), the typed shapes of the JSON files arena writes
  (``schemas/record.schema.json``; :mod:`arena.records.normal` reads formats 1-3 too).

Names are loaded when first used, so importing this module costs nothing a rules plugin would not
pay anyway (a plugin imported while arena lists its games does not pull in the search engine).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Each public name and the private module it lives in today.
_HOMES: dict[str, str] = {
    "CHANCE": "arena.games.model",
    "SIMULTANEOUS": "arena.games.model",
    "TERMINAL": "arena.games.model",
    "GeneralGame": "arena.games.model",
    "Parameter": "arena.games.model",
    "ranks": "arena.games.model",
    "Game": "arena.games.base",
    "Color": "arena.games.base",
    "Outcome": "arena.games.base",
    "Termination": "arena.games.base",
    "GameError": "arena.games.base",
    "MoveSyntaxError": "arena.games.base",
    "IllegalMoveError": "arena.games.base",
    "StateError": "arena.games.base",
    "cap_text": "arena.games.base",
    "show_value": "arena.games.base",
    "read_state_fields": "arena.games.base",
    "GameSpec": "arena.games.registry",
    "game_names": "arena.games.registry",
    "get_spec": "arena.games.registry",
    "check_spec": "arena.games.conformance",
    "register_referee": "arena.referee.registration",
    "serve_json": "arena.agents.protocol_io",
    "serve_seats": "arena.agents.protocol_io",
    "serve_checkers": "arena.agents.protocol_io",
    "run_alphabeta_bot": "arena.agents.search_bot",
    "Backend": "arena.backends",
    "BackendOptions": "arena.backends",
    "ClusterError": "arena.backends",
    "GameJob": "arena.backends",
    "run_job": "arena.backends.local",
    "Rating": "arena.stats.methods",
    "RatingMethod": "arena.stats.methods",
    "RankedResult": "arena.stats.results",
    "SandboxBackend": "arena.process.sandboxes",
    "SandboxCommand": "arena.process.sandboxes",
    "SandboxRequest": "arena.process.sandboxes",
    "Record": "arena.records.types",
    "SeatRecord": "arena.records.types",
}

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Backend",
    "BackendOptions",
    "ClusterError",
    "Color",
    "Game",
    "GameError",
    "GameJob",
    "GameSpec",
    "GeneralGame",
    "IllegalMoveError",
    "MoveSyntaxError",
    "Outcome",
    "Parameter",
    "RankedResult",
    "Rating",
    "RatingMethod",
    "Record",
    "SandboxBackend",
    "SandboxCommand",
    "SandboxRequest",
    "SeatRecord",
    "StateError",
    "Termination",
    "cap_text",
    "check_spec",
    "game_names",
    "get_spec",
    "ranks",
    "read_state_fields",
    "register_referee",
    "run_alphabeta_bot",
    "run_job",
    "serve_checkers",
    "serve_json",
    "serve_seats",
    "show_value",
]
assert sorted(__all__) == sorted(_HOMES)

if TYPE_CHECKING:  # the same names, for type checkers and editors
    from arena.agents.protocol_io import serve_checkers, serve_json, serve_seats
    from arena.agents.search_bot import run_alphabeta_bot
    from arena.backends import Backend, BackendOptions, ClusterError, GameJob
    from arena.backends.local import run_job
    from arena.games.base import (
        Color,
        Game,
        GameError,
        IllegalMoveError,
        MoveSyntaxError,
        Outcome,
        StateError,
        Termination,
        cap_text,
        read_state_fields,
        show_value,
    )
    from arena.games.conformance import check_spec
    from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, Parameter, ranks
    from arena.games.registry import GameSpec, game_names, get_spec
    from arena.process.sandboxes import SandboxBackend, SandboxCommand, SandboxRequest
    from arena.records.types import Record, SeatRecord
    from arena.referee.registration import register_referee
    from arena.stats.methods import Rating, RatingMethod
    from arena.stats.results import RankedResult


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'arena.api' has no attribute {name!r} (its names: {', '.join(__all__)})")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return list(__all__)
