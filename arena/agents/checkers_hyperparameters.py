"""The checkers system's hyperparameters files, translated for arena's built-in search agent.

The checkers system (the predecessor program arena took its tournament format from;
``data/default_hyperparameters.json`` and the files its agents save) uses snake_case keys
read by its C++ agent. :func:`is_checkers_system_format` recognizes such a file by its keys (at least one
checkers-system key and none of arena's own, ``description`` aside); :func:`translate_checkers_system` turns it into arena's
format (:mod:`arena.agents.hyperparameters`), which is then checked as usual. arena's own format
stays strict: a checkers-system key in an arena-format file is still an unknown key.

==========================  =====================================================================
checkers-system key         arena
==========================  =====================================================================
``search_algorithm``        0: ``algorithm "random"``; 1 (minimax to ``max_depth``) and 2
                            (iterative deepening to ``max_depth``): arena's iterative search, which
                            stops at ``maxDepth`` or when the move's time is up; any other value
                            is random, as in the checkers system (with a warning)
``use_alpha_beta``          true: ``"alphabeta"``; false: ``"minimax"`` (no pruning)
``max_depth``               ``maxDepth`` (above 64: 64, with a warning)
``move_time_limit``         ``moveTimeMs``: milliseconds per move, like the checkers system's timer (above
                            600000: 600000, with a warning); absent: arena derives it from the clock
``use_transposition_table``
``use_cache``               ``transpositionTable`` (``use_transposition_table`` wins when both are
                            given)
``evaluation_algorithm``    1: the checkers system's advanced evaluation, below; any other value: its basic
                            one (material only, ``man = pawn_value``, ``king = king_value``)
``pawn_value``
``king_value``
``diff_multiplier``         advanced: ``man = pawn_value * diff_multiplier``,
                            ``king = king_value * diff_multiplier``
``pawn_table``
``king_table``              advanced: ``manTable = pawn_value * pawn_table``,
                            ``kingTable = king_value * king_table``
                            (:mod:`arena.agents.eval_checkers`, entry ``k`` = square index ``k``
                            from White's view, Black's pieces read the table turned round)
``operation_limit``         not honoured (arena's search has no node cap): warning
``reorder_moves``           true: what arena always does; false: not honoured, warning
``debug_bit``               not honoured (arena always logs one line per move): warning
``description``             ignored, as in arena's format
anything else               ignored with a warning
==========================  =====================================================================

arena's own evaluation terms (``advance``, ``backRank``, ``centre``, ``mobility``, ``trade``,
``hunt``) are set to 0, so the score is the checkers system's: material plus the tables. A key the file lacks
takes its value from the checkers system's own shipped default file (:data:`CHECKERS_SYSTEM_DEFAULTS`), which is what the
checkers system's loader does with a missing key.

``king_table`` with 28 entries. Every version of the checkers system's default file has 7 rows of 4 for 32
squares. The checkers system's first version declared ``int kingtable[32]`` with these 28 initializers, which
C++ fills up with 0; its later versions read a JSON list of 28 and index it up to 31, past its end
(undefined behaviour). arena pads a short table with 0: entries 28-31 are the bottom row from
White's view, so each side's kings score 0 on their own back row. A table of any length other
than 32 is a warning; longer tables lose their extra entries.

Every warning is one line (passed to ``warn``); wrong types and impossible values are
:class:`arena.errors.ConfigError` naming the checkers-system key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.errors import ConfigError

SQUARES = 32
MAX_DEPTH = 64
MAX_MOVE_TIME_MS = 600_000
WEIGHT_LIMIT = 100_000

#: The checkers system's latest shipped ``data/default_hyperparameters.json``: the value of a key a file lacks.
CHECKERS_SYSTEM_DEFAULTS: dict[str, Any] = {
    "diff_multiplier": 100,
    "evaluation_algorithm": 1,
    "king_table": [2, 3, 3, 2, 4, 4, 4, 4, 4, 5, 5, 4, 4, 6, 6, 4, 4, 6, 6, 4, 5, 6, 6, 5, 7, 7, 7, 7],
    "king_value": 10,
    "max_depth": 10,
    "pawn_table": [0, 0, 0, 0, 15, 15, 15, 15, 8, 8, 4, 4, 6, 8, 4, 2, 2, 4, 4, 2, 2, 4, 4, 2,
                   4, 4, 10, 10, 7, 9, 10, 10],
    "pawn_value": 1,
    "search_algorithm": 2,
    "move_time_limit": 1000,
    "use_alpha_beta": True,
    "use_cache": False,
    "reorder_moves": True,
}

#: Every key the checkers system's code reads (over its history).
CHECKERS_SYSTEM_KEYS = frozenset({*CHECKERS_SYSTEM_DEFAULTS, "operation_limit", "use_transposition_table", "debug_bit"})

#: arena's keys; a file with one of these is arena-format (``description`` is shared).
_ARENA_KEYS = frozenset({"algorithm", "maxDepth", "moveTimeMs", "evaluation", "transpositionTable", "seed"})
#: arena's own evaluation terms, switched off so that the score is the checkers system's.
_ARENA_TERMS = ("advance", "backRank", "centre", "mobility", "trade", "hunt")

Warn = Callable[[str], None]


def is_checkers_system_format(obj: Any) -> bool:
    """True when ``obj`` is a JSON object with a checkers-system key and none of arena's own keys."""
    return isinstance(obj, dict) and any(k in CHECKERS_SYSTEM_KEYS for k in obj) and not any(k in _ARENA_KEYS for k in obj)


def _int(obj: dict[str, Any], key: str, where: str, minimum: int | None = None) -> int:
    value = obj.get(key, CHECKERS_SYSTEM_DEFAULTS.get(key))
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{where}: checkers-system key {key!r} must be an integer, got {value!r}")
    if minimum is not None and value < minimum:
        raise ConfigError(f"{where}: checkers-system key {key!r} must be at least {minimum}, got {value}")
    return value


def _bool(obj: dict[str, Any], key: str, where: str) -> bool:
    value = obj.get(key, CHECKERS_SYSTEM_DEFAULTS.get(key))
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: checkers-system key {key!r} must be true or false, got {value!r}")
    return value


def _table(obj: dict[str, Any], key: str, where: str, warn: Warn) -> list[int]:
    value = obj.get(key, CHECKERS_SYSTEM_DEFAULTS[key])
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ConfigError(f"{where}: checkers-system key {key!r} must be a list of integers, got {str(value)[:60]}")
    if len(value) < SQUARES:
        warn(f"{where}: {key!r} has {len(value)} entries for {SQUARES} squares: entries "
             f"{len(value)}-{SQUARES - 1} count as 0 (see arena.agents.checkers_hyperparameters)")
    elif len(value) > SQUARES:
        warn(f"{where}: {key!r} has {len(value)} entries for {SQUARES} squares: the last "
             f"{len(value) - SQUARES} are ignored")
    return (list(value) + [0] * SQUARES)[:SQUARES]


def _weight(value: int, keys: str, where: str) -> int:
    if not -WEIGHT_LIMIT <= value <= WEIGHT_LIMIT:
        raise ConfigError(f"{where}: {keys} gives the weight {value}, beyond arena's "
                          f"{-WEIGHT_LIMIT}..{WEIGHT_LIMIT}")
    return value


def _check_game(game: str, where: str) -> None:
    from arena.agents.hyperparameters import table_weights, weight_names

    names, tables = weight_names(game), table_weights(game)
    if not ({"man", "king", *_ARENA_TERMS} <= set(names) and {"manTable", "kingTable"} <= set(tables)):
        raise ConfigError(f"{where}: the checkers system's keys (pawn_value, max_depth, ...) need a game "
                          f"whose search evaluation has men, kings and piece-square tables; {game!r} has not")


def translate_checkers_system(obj: dict[str, Any], game: str, where: str, warn: Warn) -> dict[str, Any]:
    """arena's hyperparameters object for the checkers-system format ``obj`` (see the module docstring).

    ``warn`` gets one line per key arena cannot honour; ConfigError for wrong types or values.
    """
    _check_game(game, where)
    for key in obj:
        if key not in CHECKERS_SYSTEM_KEYS and key != "description":
            warn(f"{where}: {key!r} is not a key of the checkers system's hyperparameters; ignored")
    if "operation_limit" in obj:
        _int(obj, "operation_limit", where)
        warn(f"{where}: 'operation_limit' ignored: arena's search has no node limit (it stops at "
             "max_depth or when the move's time is up)")
    if "debug_bit" in obj:
        warn(f"{where}: 'debug_bit' ignored: arena always writes one line per move to the bot's stderr")
    if not _bool(obj, "reorder_moves", where):
        warn(f"{where}: 'reorder_moves' false ignored: arena always orders moves (captures, then the "
             "previous iteration's best move first)")

    out: dict[str, Any] = {}
    if "description" in obj:
        out["description"] = obj["description"]
    search = _int(obj, "search_algorithm", where)
    if search not in (0, 1, 2):
        warn(f"{where}: 'search_algorithm' {search} is not 0, 1 or 2: random moves, as in the checkers system")
    if search in (1, 2):
        out["algorithm"] = "alphabeta" if _bool(obj, "use_alpha_beta", where) else "minimax"
    else:
        out["algorithm"] = "random"
    depth = _int(obj, "max_depth", where, minimum=1)
    if depth > MAX_DEPTH:
        warn(f"{where}: 'max_depth' {depth} searched as {MAX_DEPTH}, arena's deepest")
    out["maxDepth"] = min(depth, MAX_DEPTH)
    # A file without move_time_limit (the checkers system's older versions) leaves the time to arena's clock.
    if "move_time_limit" in obj:
        move_time = _int(obj, "move_time_limit", where, minimum=1)
        if move_time > MAX_MOVE_TIME_MS:
            warn(f"{where}: 'move_time_limit' {move_time} ms cut to {MAX_MOVE_TIME_MS} ms")
        out["moveTimeMs"] = min(move_time, MAX_MOVE_TIME_MS)
    table_key = "use_transposition_table" if "use_transposition_table" in obj else "use_cache"
    out["transpositionTable"] = _bool(obj, table_key, where)

    pawn, king = _int(obj, "pawn_value", where), _int(obj, "king_value", where)
    weights: dict[str, Any] = dict.fromkeys(_ARENA_TERMS, 0)
    if _int(obj, "evaluation_algorithm", where) == 1:
        diff = _int(obj, "diff_multiplier", where)
        weights["man"] = _weight(pawn * diff, "pawn_value * diff_multiplier", where)
        weights["king"] = _weight(king * diff, "king_value * diff_multiplier", where)
        weights["manTable"] = [_weight(pawn * v, "pawn_value * pawn_table", where)
                               for v in _table(obj, "pawn_table", where, warn)]
        weights["kingTable"] = [_weight(king * v, "king_value * king_table", where)
                                for v in _table(obj, "king_table", where, warn)]
    else:
        weights["man"] = _weight(pawn, "pawn_value", where)
        weights["king"] = _weight(king, "king_value", where)
    out["evaluation"] = weights
    return out
