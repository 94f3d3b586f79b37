"""The hyperparameters file of arena's built-in search agent: its keys, defaults and checks.

A hyperparameters file is a JSON object; every key is optional:

============================  ==================================================================
key                           meaning
============================  ==================================================================
``algorithm``                 ``"alphabeta"`` (default), ``"minimax"`` (no pruning), ``"greedy"``
                              (best move by the evaluation one move ahead, pending checkers
                              captures played out) or ``"random"`` (uniform among legal moves)
``maxDepth``                  deepest iteration of the search, 1-64 (default 64: the clock decides)
``moveTimeMs``                thinking time per move in ms, 1-600000, or ``null`` (default): derive
                              it from the clock (checkers: the time left; Shobu, which sends no
                              clock: a 60000 ms game budget spread over the turns to play)
``evaluation``                evaluation weights, integers in -100000..100000, by name; the names
                              depend on the game (its search adapter's ``DEFAULT_WEIGHTS``, :func:`weight_names`); unnamed weights keep
                              their defaults. Table weights (the adapter's ``TABLE_WEIGHTS``,
                              e.g. checkers' ``manTable``/``kingTable``) are lists of that many
                              integers in the same range
``transpositionTable``        ``true`` (default) or ``false``
``seed``                      integer seed for tie-breaks and the random/greedy choices, or ``null``
``description``               free text, ignored
============================  ==================================================================

Unknown keys, wrong types and out-of-range values are errors (:class:`arena.errors.ConfigError`)
whose message names the file and the key.

The checkers system's own hyperparameters files (keys ``search_algorithm``, ``max_depth``,
``pawn_value``, ...) are recognized by their keys and translated by
:mod:`arena.agents.checkers_hyperparameters`; what arena cannot honour there is a one-line warning each
on stderr, not an error.
"""

from __future__ import annotations

import errno
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.fileio.files import UnsafeFileError, read_input
from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games.base import cap_text
from arena.limits import MAX_FILE_BYTES

ALGORITHMS = ("alphabeta", "minimax", "greedy", "random")
MAX_DEPTH_LIMIT = 64
MOVE_TIME_LIMIT_MS = 600_000
WEIGHT_LIMIT = 100_000


def search_adapter_class(spec: Any) -> Any:
    """The search adapter class a game's :class:`arena.games.registry.GameSpec` names;
    ConfigError when the game has none or it cannot be loaded."""
    from arena.games.base import GameError
    from arena.games.registry import load_ref

    if spec.search is None:
        raise ConfigError(f"game {spec.name!r} has no search adapter: the hyperparameters agent cannot play it")
    try:
        adapter = load_ref(spec.search)
    except GameError as error:
        raise ConfigError(f"game {spec.name!r}: {error}") from None
    if not isinstance(getattr(adapter, "DEFAULT_WEIGHTS", None), dict):
        raise ConfigError(f"game {spec.name!r}: search adapter {spec.search} has no DEFAULT_WEIGHTS dict")
    return adapter


def table_weights(game: str) -> dict[str, int]:
    """The table weights of registered game ``game`` (its search adapter's ``TABLE_WEIGHTS``: name
    -> number of entries; empty when it has none)."""
    from arena.games.registry import get_spec

    tables = getattr(search_adapter_class(get_spec(game)), "TABLE_WEIGHTS", None)
    return dict(tables) if isinstance(tables, dict) else {}


def weight_names(game: str) -> tuple[str, ...]:
    """The evaluation weight names of registered game ``game`` (its search adapter's
    ``DEFAULT_WEIGHTS``); ConfigError for an unknown game or one without an adapter."""
    from arena.games.base import GameError
    from arena.games.registry import get_spec

    try:
        spec = get_spec(game)
    except GameError as error:
        raise ConfigError(str(error)) from None
    return tuple(search_adapter_class(spec).DEFAULT_WEIGHTS)
KEYS = ("algorithm", "maxDepth", "moveTimeMs", "evaluation", "transpositionTable", "seed", "description")


@dataclass(frozen=True)
class Hyperparameters:
    """A checked hyperparameters file (defaults for absent keys)."""

    algorithm: str = "alphabeta"
    max_depth: int = MAX_DEPTH_LIMIT
    move_time_ms: int | None = None
    #: Integer weights by name, and table weights as tuples of integers.
    evaluation: dict[str, int | tuple[int, ...]] = field(default_factory=dict)
    transposition_table: bool = True
    seed: int | None = None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return cap_text(text)


def check_hyperparameters(obj: Any, game: str, where: str = "hyperparameters",
                          warn: Callable[[str], None] | None = None) -> Hyperparameters:
    """A :class:`Hyperparameters` from a parsed JSON value; ConfigError naming the key otherwise.

    ``where`` prefixes every message (e.g. the file name). A checkers-system file (recognized by its
    keys, :func:`arena.agents.checkers_hyperparameters.is_checkers_system_format`) is translated first; each of its
    keys arena cannot honour is passed to ``warn`` as one line (default: printed to stderr).
    """
    from arena.agents.checkers_hyperparameters import is_checkers_system_format, translate_checkers_system

    try:
        names = weight_names(game)
        tables = table_weights(game)
    except ConfigError as error:
        raise ConfigError(f"{where}: {error}") from None
    if not isinstance(obj, dict):
        raise ConfigError(f"{where}: must be a JSON object, got {_show(obj)}")
    if is_checkers_system_format(obj):
        obj = translate_checkers_system(obj, game, where, warn if warn is not None else _print_warning)
    for key in obj:
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known keys: {', '.join(KEYS)})")

    algorithm = obj.get("algorithm", "alphabeta")
    if algorithm not in ALGORITHMS:
        raise ConfigError(f"{where}: key 'algorithm' must be one of {', '.join(ALGORITHMS)}, got {_show(algorithm)}")

    max_depth = obj.get("maxDepth", MAX_DEPTH_LIMIT)
    if not _is_int(max_depth) or not 1 <= max_depth <= MAX_DEPTH_LIMIT:
        raise ConfigError(f"{where}: key 'maxDepth' must be an integer from 1 to {MAX_DEPTH_LIMIT}, got {_show(max_depth)}")

    move_time = obj.get("moveTimeMs")
    if move_time is not None and (not _is_int(move_time) or not 1 <= move_time <= MOVE_TIME_LIMIT_MS):
        raise ConfigError(
            f"{where}: key 'moveTimeMs' must be an integer from 1 to {MOVE_TIME_LIMIT_MS} or null, got {_show(move_time)}"
        )

    weights = obj.get("evaluation", {})
    if not isinstance(weights, dict):
        raise ConfigError(f"{where}: key 'evaluation' must be an object of weights, got {_show(weights)}")
    checked: dict[str, int | tuple[int, ...]] = {}
    for name, value in weights.items():
        if name in tables:
            checked[name] = _check_table(value, tables[name], f"{where}: key 'evaluation.{name}'")
            continue
        if name not in names:
            known = ", ".join((*names, *tables))
            raise ConfigError(
                f"{where}: key 'evaluation': unknown {game} weight {name!r} (known: {known})"
            )
        checked[name] = value
        if not _is_int(value) or not -WEIGHT_LIMIT <= value <= WEIGHT_LIMIT:
            raise ConfigError(
                f"{where}: key 'evaluation.{name}' must be an integer from {-WEIGHT_LIMIT} to {WEIGHT_LIMIT}, got {_show(value)}"
            )

    table = obj.get("transpositionTable", True)
    if not isinstance(table, bool):
        raise ConfigError(f"{where}: key 'transpositionTable' must be true or false, got {_show(table)}")

    seed = obj.get("seed")
    if seed is not None and not _is_int(seed):
        raise ConfigError(f"{where}: key 'seed' must be an integer or null, got {_show(seed)}")

    description = obj.get("description", "")
    if not isinstance(description, str):
        raise ConfigError(f"{where}: key 'description' must be a string, got {_show(description)}")

    return Hyperparameters(algorithm, max_depth, move_time, checked, table, seed)


def _check_table(value: Any, length: int, where: str) -> tuple[int, ...]:
    if (not isinstance(value, list) or len(value) != length
            or not all(_is_int(v) and -WEIGHT_LIMIT <= v <= WEIGHT_LIMIT for v in value)):
        raise ConfigError(f"{where} must be a list of {length} integers from {-WEIGHT_LIMIT} to {WEIGHT_LIMIT}, "
                          f"got {_show(value)}")
    return tuple(value)


def _print_warning(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def load_hyperparameters(path: str | Path, game: Any, warn: Callable[[str], None] | None = None) -> Hyperparameters:
    """Read and check the hyperparameters file at ``path`` for ``game`` (a registered
    game's name or its :class:`arena.games.base.Game`). Raises ConfigError naming the problem;
    ``warn`` as :func:`check_hyperparameters`. The file must be a regular file (a link to one is
    fine) of at most 16 MiB, decoded by :func:`arena.fileio.jsonfiles.strict_loads` (no key twice,
    nesting at most 64 deep)."""
    game_name = game if isinstance(game, str) else getattr(game, "name", str(game))
    where = f"hyperparameters file {str(path)!r}"
    try:
        data = read_input(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except UnsafeFileError as exc:
        if exc.errno == errno.EISDIR:
            raise ConfigError(f"{where}: is a folder, not a file") from None
        raise ConfigError(f"{where}: {exc.strerror}; not a hyperparameters file") from None
    except OSError as error:
        raise ConfigError(f"{where}: cannot be read ({error.__class__.__name__}: {error})") from None
    try:
        obj = strict_loads(data)
    except JsonInputError as error:
        raise ConfigError(f"{where}: {error}") from None
    return check_hyperparameters(obj, game_name, where, warn)
