"""A game's linear evaluation model, in-process games between weight vectors, and the
hyperparameters files the learners write.

Everything here runs in one process on the game's search adapter (no bots, no subprocesses): the
learners play thousands of games, and a bot's start-up alone would cost more than a game.

Weights. The learners keep weights as floats; the built-in agent reads integers in
``-WEIGHT_LIMIT..WEIGHT_LIMIT`` (:mod:`arena.agents.hyperparameters`). :func:`integer_weights`
rounds to the nearest integer and clips to that range; the evaluation is a weighted sum, so the
scale of the weights only matters against the few fixed constants an adapter adds (its module
docstring says which).
"""

from __future__ import annotations

import importlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.agents.hyperparameters import WEIGHT_LIMIT, load_hyperparameters, search_adapter_class
from arena.agents.parts import search_ref
from arena.agents.search import Searcher
from arena.errors import ConfigError
from arena.fileio.files import FILE_MODE, atomic_write
from arena.games.base import GameError
from arena.games.registry import get_spec


@dataclass(frozen=True)
class LinearGame:
    """A registered game whose search adapter has linear features (see :mod:`arena.train`)."""

    name: str
    adapter_class: Any
    feature_names: tuple[str, ...]
    features: Callable[[Any], Mapping[str, float]]
    default_weights: dict[str, int]
    max_moves: int
    rules: Any
    #: The adapter module's ``LEAD_WEIGHTS`` in :attr:`feature_names` order (zeros without): the
    #: side to move's lead as a linear form of the features, -1..1 (Abalone: the marble lead over
    #: six). TD scores a game the move cap stops by it, and its value is that lead plus what it learns.
    lead_weights: tuple[float, ...] = ()

    def adapter(self, weights: Mapping[str, float] | None = None) -> Any:
        """A search adapter evaluating with ``weights`` (rounded to integers), defaults for the rest."""
        return self.adapter_class(integer_weights(weights or {}))

    def initial(self, adapter: Any) -> Any:
        """The adapter's position of the game's start."""
        return adapter.from_state(self.rules.initial_state())

    def vector(self, pos: Any) -> list[float]:
        """The features of ``pos`` in :attr:`feature_names` order."""
        values = self.features(pos)
        return [float(values[name]) for name in self.feature_names]

    def outcome(self, adapter: Any, pos: Any) -> int | None:
        """None while ``pos`` is not over, else its result for the side to move there: 1 won, 0
        drawn (by the rules or by the move cap), -1 lost (the engine's own reading of a position)."""
        ending = self.ending(adapter, pos)
        return None if ending is None else ending[0]

    def ending(self, adapter: Any, pos: Any) -> tuple[int, bool] | None:
        """:meth:`outcome` with how the game ended: ``(result, by_cap)``, ``by_cap`` True when the
        move cap stopped a game the rules had not ended (its result is then 0)."""
        terminal = getattr(adapter, "terminal_score", None)
        if terminal is not None:
            value = terminal(pos)
            if value is not None:
                return (0 if value == 0 else (1 if value > 0 else -1)), False
        if not adapter.has_moves(pos):
            return -1, False
        if adapter.ply(pos) >= self.max_moves:
            return 0, True
        return None

    def lead(self, vector: Sequence[float]) -> float:
        """The side to move's lead in a position with feature values ``vector`` (:meth:`vector`):
        ``lead_weights . vector`` clipped to -1..1; 0 for a game without ``LEAD_WEIGHTS``."""
        if not self.lead_weights:
            return 0.0
        value = sum(w * v for w, v in zip(self.lead_weights, vector, strict=True) if w)
        return max(-1.0, min(1.0, value))




def linear_game(name: str, *, require_features: bool = True) -> LinearGame:
    """The :class:`LinearGame` of registered game ``name``; ConfigError (one line) for an unknown
    game, one without a search adapter, or (with ``require_features``) one whose adapter has no
    linear features yet. Without ``require_features`` such a game has no feature names and only
    its games can be played (SPSA tuning needs no features)."""
    try:
        spec = get_spec(name)
    except GameError as error:
        raise ConfigError(str(error)) from None
    if search_ref(spec) is None:  # the learners' one line: what they need, and why this game lacks it
        from arena.agents.hyperparameters import no_adapter_reason

        raise ConfigError(f"game {spec.name!r}: TD(lambda), evolution and SPSA of weights need a player with "
                          f"weights (the evaluation of arena's alpha-beta agent), and it has none: "
                          f"{no_adapter_reason(spec)}")
    adapter_class = search_adapter_class(spec)
    module = importlib.import_module(adapter_class.__module__)
    names = getattr(module, "FEATURE_NAMES", None)
    features = getattr(module, "features", None)
    if (not isinstance(names, tuple) or not callable(features)) and not require_features:
        return LinearGame(spec.name, adapter_class, (), _no_features, dict(adapter_class.DEFAULT_WEIGHTS),
                          spec.default_max_moves, spec.rules_object())
    if not isinstance(names, tuple) or not callable(features):
        raise ConfigError(f"game {spec.name!r}: its search adapter ({search_ref(spec)}) has no linear features "
                          "(FEATURE_NAMES and features(position)): the learners cannot train it")
    unknown = [n for n in names if n not in adapter_class.DEFAULT_WEIGHTS]
    if unknown:
        raise ConfigError(f"game {spec.name!r}: FEATURE_NAMES {unknown} are not weights of its search adapter")
    lead = getattr(module, "LEAD_WEIGHTS", None) or {}
    if not isinstance(lead, dict) or any(name not in names for name in lead):
        raise ConfigError(f"game {spec.name!r}: LEAD_WEIGHTS must name features of FEATURE_NAMES")
    lead_weights = tuple(float(lead.get(name, 0.0)) for name in names) if lead else ()
    return LinearGame(spec.name, adapter_class, names, features, dict(adapter_class.DEFAULT_WEIGHTS),
                      spec.default_max_moves, spec.rules_object(), lead_weights)


def option_name(field_name: str) -> str:
    """The command-line option of a settings field (``epsilon_min`` -> ``--epsilon-min``)."""
    special = {"lam": "--lambda", "time_limit_ms": "--time-limit"}
    return special.get(field_name, "--" + field_name.replace("_", "-"))


def _no_features(pos: Any) -> Mapping[str, float]:
    return {}


# --- weights and files -----------------------------------------------------------------------------


def integer_weights(weights: Mapping[str, float]) -> dict[str, int]:
    """``weights`` rounded to the nearest integer and clipped to the hyperparameters file's range."""
    out = {}
    for name, value in weights.items():
        if math.isnan(value):
            value = 0.0
        out[name] = int(max(-WEIGHT_LIMIT, min(WEIGHT_LIMIT, round(value))))
    return out


def hyperparameters_object(weights: Mapping[str, float], *, max_depth: int, description: str) -> dict[str, Any]:
    """A hyperparameters file (as a JSON object) for the built-in agent: alpha-beta to a fixed
    ``max_depth`` with ``weights`` as integers."""
    return {"description": description, "algorithm": "alphabeta", "maxDepth": max_depth,
            "evaluation": integer_weights(weights)}


def write_json(path: Path, obj: Any, *, root: Path | None = None, mode: int = FILE_MODE) -> None:
    """Write ``obj`` as indented JSON, atomically (readers never see half a file). ``root``: the
    run folder the user named (``--out``); no link below it is followed (:func:`arena.fileio.files.atomic_write`).
    ``mode``: a new file's (its owner's alone unless bots must read it)."""
    atomic_write(path, (json.dumps(obj, indent=2) + "\n").encode(), root=root, mode=mode)


def read_weights(path: str | Path, game: LinearGame) -> dict[str, float]:
    """The scalar evaluation weights of hyperparameters file ``path`` (defaults for the names it
    leaves out; table weights are not learnt and are ignored). ConfigError for a bad file."""
    hp = load_hyperparameters(path, game.name)
    weights: dict[str, float] = {name: float(game.default_weights[name]) for name in game.feature_names}
    for name, value in hp.evaluation.items():
        if name in weights and isinstance(value, int):
            weights[name] = float(value)
    return weights


def random_weights(game: LinearGame, rng: random.Random, spread: float | None = None) -> dict[str, float]:
    """Weights drawn uniformly from ``-spread..spread`` (integers; default: the largest default
    weight in absolute value), as the seed starts its players from random theta."""
    if spread is None:
        spread = float(max((abs(v) for v in game.default_weights.values()), default=100)) or 100.0
    limit = int(spread)
    return {name: float(rng.randint(-limit, limit)) for name in game.feature_names}


# --- in-process games ------------------------------------------------------------------------------


def random_opening(game: LinearGame, adapter: Any, rng: random.Random, plies: int) -> Any:
    """The start position after ``plies`` uniformly random moves (drawn again when they end the
    game), so that games between deterministic players differ."""
    for _ in range(100):
        pos = game.initial(adapter)
        for _ in range(plies):
            if game.outcome(adapter, pos) is not None:
                break
            pos = adapter.play(pos, rng.choice(adapter.moves(pos)))
        if game.outcome(adapter, pos) is None:
            return pos
    return game.initial(adapter)


@dataclass(frozen=True)
class Side:
    """One player of an in-process game: a search ``adapter`` (its evaluation), the search's
    ``depth`` and, when set, ``time_ms`` per move (iterative deepening stops at either)."""

    adapter: Any
    depth: int
    time_ms: float | None = None


def play_sides(game: LinearGame, first: Side, second: Side, start: Any, rng: random.Random) -> int:
    """One game from ``start`` (``first`` to move) between two :class:`Side` s, each choosing its
    moves by the built-in alpha-beta search with its own evaluation. Returns 1 when ``first``
    wins, 0 for a draw, -1 when ``second`` wins."""
    sides = (first, second)
    searchers = [Searcher(side.adapter, max_moves=game.max_moves, rng=random.Random(rng.getrandbits(64)))
                 for side in sides]
    pos, mover = start, 0
    while True:
        result = game.outcome(first.adapter, pos)
        if result is not None:
            return result if mover == 0 else -result
        side = sides[mover]
        found = searchers[mover].search(pos, time_ms=side.time_ms, max_depth=side.depth)
        if found.move is None:  # cannot happen for a position outcome() says is not over
            return -1 if mover == 0 else 1
        pos = first.adapter.play(pos, found.move)
        mover = 1 - mover


def play_game(game: LinearGame, first: Any, second: Any, start: Any, *, depth: int, rng: random.Random) -> int:
    """:func:`play_sides` between adapters ``first`` and ``second`` searching to ``depth``."""
    return play_sides(game, Side(first, depth), Side(second, depth), start, rng)


@dataclass
class MatchResult:
    """Wins, draws and losses of the first player of :func:`play_match`."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Points per game (a draw is half a point); 0.5 when no game was played."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def add(self, result: int) -> None:
        if result > 0:
            self.wins += 1
        elif result < 0:
            self.losses += 1
        else:
            self.draws += 1

    def to_json(self) -> dict[str, Any]:
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses, "score": round(self.score, 4)}


def play_match(game: LinearGame, a: Mapping[str, float], b: Mapping[str, float], *, pairs: int, depth: int,
               seed: int, opening_plies: int = 2, openings: Sequence[Any] | None = None) -> MatchResult:
    """``pairs`` colour-swapped pairs of games between weights ``a`` and ``b`` (each pair from one
    start: a book opening's state from ``openings`` in turn, else ``opening_plies`` random moves).
    Deterministic for a given ``seed``. The result is ``a``'s."""
    first, second = game.adapter(a), game.adapter(b)
    rng = random.Random(seed)
    result = MatchResult()
    for pair in range(pairs):
        if openings:
            start = first.from_state(openings[pair % len(openings)])
        else:
            start = random_opening(game, first, rng, opening_plies)
        result.add(play_game(game, first, second, start, depth=depth, rng=rng))
        result.add(-play_game(game, second, first, start, depth=depth, rng=rng))
    return result


__all__ = [
    "LinearGame", "MatchResult", "Side", "hyperparameters_object", "integer_weights", "linear_game", "option_name", "play_game",
    "play_match", "play_sides", "random_opening", "random_weights", "read_weights", "write_json",
]
