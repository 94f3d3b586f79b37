"""The hyperparameters file of arena's built-in search agent: its keys, defaults and checks.

A hyperparameters file is a JSON object; every key is optional:

============================  ==================================================================
key                           meaning
============================  ==================================================================
``algorithm``                 ``"alphabeta"`` (default), ``"minimax"`` (no pruning), ``"greedy"``
                              (best move by the evaluation one move ahead, pending checkers
                              captures played out), ``"random"`` (uniform among legal moves) or
                              ``"mcts"`` (Monte Carlo tree search, :mod:`arena.agents.mcts`: needs
                              no search adapter, so it plays every registered game, N-seat,
                              chance and hidden-information games included)
``maxDepth``                  deepest iteration of the search, 1-64 (default 64: the clock decides)
``moveTimeMs``                thinking time per move in ms, 1-600000, or ``null`` (default): derive
                              it from the clock (checkers: the time left; Shobu, which sends no
                              clock: a 60000 ms game budget spread over the turns to play)
``iterations``                ``mcts`` only: iterations (playouts) per move, 1-10000000, or
                              ``null`` (default). Alone, the search runs exactly that many (the
                              same moves for the same ``seed``, whatever the machine's speed);
                              with ``moveTimeMs``, whichever ends first; neither: the clock
``exploration``               ``mcts`` only: UCB1's exploration constant for returns scaled to
                              0..1, a number from 0 to 100 (default sqrt(2) = 1.414...)
``evaluation``                evaluation weights, integers in -100000..100000, by name; the names
                              depend on the game (its search adapter's ``DEFAULT_WEIGHTS``, :func:`weight_names`); unnamed weights keep
                              their defaults. Table weights (the adapter's ``TABLE_WEIGHTS``,
                              e.g. checkers' ``manTable``/``kingTable``) are lists of that many
                              integers in the same range
``transpositionTable``        ``true`` (default) or ``false``
``seed``                      integer seed for tie-breaks and the random/greedy choices (``mcts``:
                              its playouts and samples), or ``null``
``description``               free text, ignored
============================  ==================================================================

``maxDepth``, ``evaluation`` and ``transpositionTable`` belong to the searches with an evaluation,
``iterations`` and ``exploration`` to ``mcts``: a key of the other kind is an error. Unknown keys,
wrong types and out-of-range values are errors (:class:`arena.errors.ConfigError`) whose message
names the file and the key.

The checkers system's own hyperparameters files (keys ``search_algorithm``, ``max_depth``,
``pawn_value``, ...) are recognized by their keys and translated by
:mod:`arena.agents.checkers_hyperparameters`; what arena cannot honour there is a one-line warning each
on stderr, not an error.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.agents.mcts import DEFAULT_EXPLORATION
from arena.errors import ConfigError
from arena.fileio import fields
from arena.fileio.files import UnsafeFileError, read_input
from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.limits import MAX_FILE_BYTES, MAX_SEED

ALGORITHMS = ("alphabeta", "minimax", "greedy", "random", "mcts")
MAX_DEPTH_LIMIT = 64
MOVE_TIME_LIMIT_MS = 600_000
ITERATIONS_LIMIT = 10_000_000
EXPLORATION_LIMIT = 100.0
#: Keys of the searches with an evaluation, and of MCTS (each kind refuses the other's).
EVALUATION_KEYS = ("maxDepth", "evaluation", "transpositionTable")
MCTS_KEYS = ("iterations", "exploration")
WEIGHT_LIMIT = 100_000


def search_adapter_class(spec: Any) -> Any:
    """The search adapter class of a game (:func:`arena.agents.parts.search_ref`); ConfigError when
    the game has none or it cannot be loaded."""
    from arena.agents.parts import search_ref
    from arena.games.base import GameError
    from arena.games.registry import load_ref

    ref = search_ref(spec)
    if ref is None:
        raise ConfigError(f"game {spec.name!r} has no search adapter: {no_adapter_reason(spec)}; "
                          '{"algorithm": "mcts"} plays every game')
    try:
        adapter = load_ref(ref)
    except GameError as error:
        raise ConfigError(f"game {spec.name!r}: {error}") from None
    if not isinstance(getattr(adapter, "DEFAULT_WEIGHTS", None), dict):
        raise ConfigError(f"game {spec.name!r}: search adapter {ref} has no DEFAULT_WEIGHTS dict")
    return adapter


def no_adapter_reason(spec: Any) -> str:
    """Why a game has no evaluation weights for alpha-beta (one clause)."""
    from arena.games.registry import GENERAL

    if spec.model == GENERAL:
        why = (f"alpha-beta needs two seats taking turns in plain sight, and {spec.name} is a game of seats "
               "(chance, hidden information, simultaneous moves or more than two seats)")
    else:
        why = "its package ships no evaluation for alpha-beta (arena.games.registry GameSpec.search)"
    return why


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
KEYS = ("algorithm", "maxDepth", "moveTimeMs", "evaluation", "transpositionTable", "seed", "description",
        *MCTS_KEYS)


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
    #: MCTS: iterations per move (None: the clock or ``move_time_ms`` decides) and UCB1's constant.
    iterations: int | None = None
    exploration: float = DEFAULT_EXPLORATION


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_hyperparameters(obj: Any, game: str, where: str = "hyperparameters",
                          warn: Callable[[str], None] | None = None) -> Hyperparameters:
    """A :class:`Hyperparameters` from a parsed JSON value; ConfigError naming the key otherwise.

    ``where`` prefixes every message (e.g. the file name). A checkers-system file (recognized by its
    keys, :func:`arena.agents.checkers_hyperparameters.is_checkers_system_format`) is translated first; each of its
    keys arena cannot honour is passed to ``warn`` as one line (default: printed to stderr).
    """
    from arena.agents.checkers_hyperparameters import is_checkers_system_format, translate_checkers_system

    if isinstance(obj, dict) and obj.get("algorithm") == "mcts":
        return _check_mcts(obj, game, where)
    try:
        names = weight_names(game)
        tables = table_weights(game)
    except ConfigError as error:
        raise ConfigError(f"{where}: {error}") from None
    if not isinstance(obj, dict):
        raise ConfigError(f"{where}: must be a JSON object, got {fields.show(obj)}")
    if is_checkers_system_format(obj):
        obj = translate_checkers_system(obj, game, where, warn if warn is not None else _print_warning)
    with fields.prefixed(where):
        fields.check_keys(obj, KEYS)
        algorithm = fields.one_of(obj, "algorithm", ALGORITHMS, default="alphabeta")
        for key in MCTS_KEYS:
            if key in obj:
                fields.fail("", key, f'only for "algorithm": "mcts", not {algorithm!r}')
        max_depth = fields.integer(obj, "maxDepth", default=MAX_DEPTH_LIMIT, low=1, high=MAX_DEPTH_LIMIT)
        move_time = fields.integer(obj, "moveTimeMs", low=1, high=MOVE_TIME_LIMIT_MS)
        weights = obj.get("evaluation", {})
        if not isinstance(weights, dict):
            fields.fail("", "evaluation", f"must be an object of weights, got {fields.show(weights)}")
        checked: dict[str, int | tuple[int, ...]] = {}
        for name in weights:
            if name in tables:
                checked[name] = _check_table(weights[name], tables[name], f"evaluation.{name}")
                continue
            if name not in names:
                known = ", ".join((*names, *tables))
                fields.fail("evaluation", fields.short_key(name), f"unknown {game} weight (known weights: {known})")
            checked[name] = fields.integer(weights, name, low=-WEIGHT_LIMIT, high=WEIGHT_LIMIT, where="evaluation",
                                           need=True)
        table = fields.boolean(obj, "transpositionTable", default=True)
        seed = fields.integer(obj, "seed", low=-MAX_SEED - 1, high=MAX_SEED)
        fields.string(obj, "description", default="", nul=True)
    return Hyperparameters(algorithm, max_depth, move_time, checked, table, seed)


def _check_mcts(obj: dict[str, Any], game: str, where: str) -> Hyperparameters:
    """The settings of ``"algorithm": "mcts"``: any registered game (no search adapter needed)."""
    from arena.games.base import GameError
    from arena.games.registry import get_spec

    try:
        get_spec(game)
    except GameError as error:
        raise ConfigError(f"{where}: {error}") from None
    with fields.prefixed(where):
        fields.check_keys(obj, KEYS)
        for key in EVALUATION_KEYS:
            if key in obj:
                fields.fail("", key, 'not for "algorithm": "mcts" (it searches with random playouts, to no depth)')
        move_time = fields.integer(obj, "moveTimeMs", low=1, high=MOVE_TIME_LIMIT_MS)
        iterations = fields.integer(obj, "iterations", low=1, high=ITERATIONS_LIMIT)
        exploration = fields.number(obj, "exploration", default=DEFAULT_EXPLORATION, low=0.0, high=EXPLORATION_LIMIT)
        seed = fields.integer(obj, "seed", low=-MAX_SEED - 1, high=MAX_SEED)
        fields.string(obj, "description", default="", nul=True)
    return Hyperparameters("mcts", move_time_ms=move_time, seed=seed, iterations=iterations, exploration=exploration)


def _check_table(value: Any, length: int, where: str) -> tuple[int, ...]:
    items = value if isinstance(value, list) else []
    numbers = [int(v) if isinstance(v, float) and v.is_integer() else v for v in items]
    if (not isinstance(value, list) or len(value) != length
            or not all(_is_int(v) and -WEIGHT_LIMIT <= v <= WEIGHT_LIMIT for v in numbers)):
        raise ConfigError(f"{where}: must be a list of {length} integers from {-WEIGHT_LIMIT} to {WEIGHT_LIMIT}, "
                          f"got {fields.show(value)}")
    return tuple(numbers)


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
