"""TD(lambda) self-play learning of a game's linear evaluation (``arena train td``), after the Abalone learning program's design.

The model. The seed's player values a position by ``V(s) = theta . phi(s)`` and learns ``theta``
with TD(lambda) while playing itself. Here the value is squashed, ``V(s) = L(s) + tanh(w . x(s))``,
so that it lives in the rewards' range (win +1, draw 0, loss -1) whatever the features' sizes:

- ``x(s)`` are the adapter's features (:mod:`arena.train`) from the side to move's view,
  standardized: ``(value - mean) / max(0.2, deviation)`` over positions of random games, measured
  once at the start (kept in the checkpoint). A feature counting dozens of things then takes steps
  of the same size as a 0/1 feature, one ``--alpha`` fits every game, and a feature that barely
  moves (Abalone's marbles: 13.9 on average, deviation 0.35 in random play) is not drowned by its
  size: divided by its root mean square instead, a lost marble changed it by 0.07 and TD learnt
  nothing in 100 games;
- ``L(s)`` is the side to move's lead when the adapter module declares one (``LEAD_WEIGHTS``, a
  linear form of the features; Abalone: the marble lead over six), else 0. It is fixed: TD learns
  the correction ``C(s) = tanh(w . x(s))`` to it;
- ``w`` are the standardized weights. The agent's integer weights are
  ``theta_i = scale * (w_i / deviation_i + lead_i)`` (``--scale``, default 1000 evaluation units
  per unit of ``w . x``, which puts arena's hand-set defaults at sensible values such as a 0.1
  lead for a Breakthrough piece; the means only add a constant, which no search choice depends
  on). The checkpoint keeps ``w`` as floats; the hyperparameters files hold ``theta`` rounded.

The update, written in the first player's frame (``L``, ``C`` and ``U = L + C`` signed by the side to
move), after every move ``s_t -> s_t+1``::

    delta_t = L(s_t+1) - L(s_t) + gamma * C(s_t+1) - C(s_t)    while the game goes on
    delta_t = r - L(s_t) - C(s_t)                             when it ends: r its result, or
                                                              L(s_t+1) when the move cap stops it
    e_t     = gamma * lambda * e_t-1 + grad C(s_t)
    w      += alpha * delta_t * e_t

so a change of lead is a reward as it happens, and a game the cap stops scores the lead it
reached. Without a lead this is plain TD(lambda) on ``tanh(w . x)`` with the cap a draw. Self-play
between untrained Abalone players nearly always reaches the cap: with a flat draw as the only
target TD learnt nothing there (measured: curves of 0.25-0.5 against the start over 100 games).

As in the seed, a move is random with probability epsilon (``--epsilon`` decaying per game by
``--epsilon-decay``, never below ``--epsilon-min``: the seed kept 0.1 "to maintain exploration");
after a random move there is no update and the trace is reset. Otherwise the move is the best by
``V`` one ply ahead (the seed's greedy choice; a finished game scores its result), or, with
``--depth`` above 1, the built-in alpha-beta search with the current integer weights. With
``--init zero`` the first player values only the lead (Abalone: a material player), else nothing.
The seed's final choices are the defaults for lambda (0.5), gamma (0.9) and the exploration
floor (0.1); its alpha 0.1 was for its unsquashed value, and 0.02 suits the standardized one here.

Averaging. One game's updates move the weights a lot (a Breakthrough piece's weight swung by a
hundred units from game to game), and the games between fixed-depth players are a step function
of the weights, so the latest weights play much better or worse than the ones of a few games
before. The weights written and measured are therefore an average: the mean over the games so far,
then an exponential average over the last ``--average`` games (default 200; 0 turns it off). The
self-play games themselves use the latest weights.

The learning curve: every ``--eval-every`` games, the (averaged) integer weights play
``--eval-pairs`` colour-swapped pairs against the initial ones (alpha-beta to ``--eval-depth``, no
exploration, each pair from ``--opening-plies`` random moves), one JSON line per point in
``curve.jsonl``. The point that scored best so far is also kept as ``best.json`` (model selection
on the curve's games: check it with fresh games, e.g. ``arena sprt``, before trusting it).

Files in the run folder: ``checkpoint.json`` (settings, ``w`` and its average, the features' means and scales,
games done, the random generator's state, the best point), ``initial.json``, ``trained.json`` and
``best.json`` (hyperparameters files of the first, the latest averaged and the best-scoring
weights; rewritten at every checkpoint), ``curve.jsonl``.
Every file is replaced atomically, so a ``kill -9`` loses at most the games since the last
checkpoint; running the same command again continues from it, exactly as an unbroken run would
(every random choice comes from the checkpointed generator).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from arena.agents.search import Searcher
from arena.errors import ConfigError, Interrupted
from arena.fileio.files import append_line, atomic_write, make_folders
from arena.fileio.jsonfiles import read_json_file, read_json_lines
from arena.limits import MAX_RECORDS_BYTES
from arena.train.model import (
    LinearGame,
    MatchResult,
    hyperparameters_object,
    integer_weights,
    linear_game,
    option_name,
    play_match,
    read_weights,
    write_json,
)

INIT_CHOICES = ("defaults", "random", "zero")
_SCALE_GAMES = 20  # random games whose positions measure the features' sizes
_MIN_DEVIATION = 0.2  # a feature that (almost) never moves in random games is not blown up
CHECKPOINT = "checkpoint.json"
CURVE = "curve.jsonl"
INITIAL = "initial.json"
TRAINED = "trained.json"
BEST = "best.json"


@dataclass(frozen=True)
class TdSettings:
    """What a TD run learns with; a run folder keeps them and a resumed run must match them."""

    game: str
    lam: float = 0.5
    alpha: float = 0.02
    gamma: float = 0.9
    epsilon: float = 0.3
    epsilon_min: float = 0.1
    epsilon_decay: float = 0.99
    depth: int = 1
    scale: float = 1000.0
    seed: int = 0
    init: str = "random"
    start: str | None = None
    eval_every: int = 100
    eval_pairs: int = 10
    eval_depth: int = 2
    opening_plies: int = 2
    average: int = 200

    def check(self) -> None:
        """ConfigError (one line, naming the option) for a value out of range."""
        checks = [
            (0.0 <= self.lam <= 1.0, "--lambda must be from 0 to 1"),
            (0.0 < self.alpha <= 10.0, "--alpha must be above 0 and at most 10"),
            (0.0 < self.gamma <= 1.0, "--gamma must be above 0 and at most 1"),
            (0.0 <= self.epsilon_min <= self.epsilon <= 1.0, "--epsilon-min <= --epsilon must both be from 0 to 1"),
            (0.0 < self.epsilon_decay <= 1.0, "--epsilon-decay must be above 0 and at most 1"),
            (1 <= self.depth <= 64, "--depth must be from 1 to 64"),
            (1 <= self.eval_depth <= 64, "--eval-depth must be from 1 to 64"),
            (0.0 < self.scale <= 100_000.0, "--scale must be above 0 and at most 100000"),
            (self.init in INIT_CHOICES or self.start is not None, f"--init must be one of {', '.join(INIT_CHOICES)}"),
            (self.eval_every >= 1 and self.eval_pairs >= 0, "--eval-every must be positive"),
            (0 <= self.opening_plies <= 20, "--opening-plies must be from 0 to 20"),
            (0 <= self.average <= 10**6, "--average must be from 0 to 1000000"),
        ]
        for ok, message in checks:
            if not ok:
                raise ConfigError(message)


@dataclass
class TdState:
    """A run's learning state between games (what the checkpoint holds)."""

    w: list[float]
    #: What each feature is divided by: its deviation in random games (its root mean square in
    #: checkpoints from before the features were centred; the checkpoint's key is still "rms").
    scales: list[float]
    initial: dict[str, float]
    games_done: int = 0
    rng_state: Any = None
    results: dict[str, int] = field(default_factory=lambda: {"first": 0, "draws": 0, "second": 0})
    #: The weights averaged over the last games (see ``--average``); the files hold these.
    w_avg: list[float] = field(default_factory=list)
    #: The curve point that scored best so far: ``{"games", "score", "theta"}`` (``best.json``).
    best: dict[str, Any] | None = None
    #: The features' means (``x = (value - mean) / scale``); empty means zeros (checkpoints written
    #: before the features were centred resume as they were trained).
    mean: list[float] = field(default_factory=list)

    def copy(self) -> TdState:
        return TdState(list(self.w), list(self.scales), dict(self.initial), self.games_done, self.rng_state,
                       dict(self.results), list(self.w_avg), self.best, list(self.mean))

    def standardize(self, values: list[float]) -> list[float]:
        """Raw feature values as the model's ``x``."""
        if not self.mean:
            return [v / r for v, r in zip(values, self.scales, strict=True)]
        return [(v - m) / r for v, m, r in zip(values, self.mean, self.scales, strict=True)]

    def average_after_game(self, horizon: int) -> None:
        """Fold the current weights into the average: the mean of all games so far while fewer
        than ``horizon`` were played, then an exponential average over about ``horizon`` games
        (0: no averaging, the average is the current weights)."""
        if horizon <= 0 or not self.w_avg:
            self.w_avg = list(self.w)
            return
        rate = 1.0 / min(horizon, max(1, self.games_done))
        self.w_avg = [a + rate * (w - a) for a, w in zip(self.w_avg, self.w, strict=True)]


@dataclass
class TdSummary:
    """What :func:`train_td` did: games done in all, played now, the last curve point, the folder."""

    games_done: int
    played_now: int
    last_point: dict[str, Any] | None
    folder: Path


def theta(game: LinearGame, state: TdState, settings: TdSettings, *, averaged: bool = True) -> dict[str, float]:
    """The evaluation weights (floats, evaluation units) of a state: the averaged ones (what the
    files hold and the curve measures) or, with ``averaged`` False, the current ones."""
    w = state.w_avg if averaged and state.w_avg else state.w
    lead = game.lead_weights or (0.0,) * len(w)
    return {name: settings.scale * (v / r + d)
            for name, v, r, d in zip(game.feature_names, w, state.scales, lead, strict=True)}


def standardized_weights(game: LinearGame, weights: dict[str, float], scales: list[float], scale: float) -> list[float]:
    """The ``w`` whose :func:`theta` is ``weights`` (the inverse of :func:`theta`)."""
    lead = game.lead_weights or (0.0,) * len(scales)
    return [(weights[name] / scale - d) * r for name, r, d in zip(game.feature_names, scales, lead, strict=True)]


def _rng_to_json(state: Any) -> list[Any]:
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_from_json(value: Any) -> Any:
    version, internal, gauss = value
    return (version, tuple(internal), gauss)


def feature_statistics(game: LinearGame, rng: random.Random,
                       games: int = _SCALE_GAMES) -> tuple[list[float], list[float]]:
    """Each feature's mean and ``max(0.2, standard deviation)`` over the positions of ``games``
    random games: how :class:`TdState` standardizes them."""
    adapter = game.adapter()
    n = len(game.feature_names)
    sums, squares = [0.0] * n, [0.0] * n
    count = 0
    for _ in range(games):
        pos = game.initial(adapter)
        while game.outcome(adapter, pos) is None:
            for i, value in enumerate(game.vector(pos)):
                sums[i] += value
                squares[i] += value * value
            count += 1
            pos = adapter.play(pos, rng.choice(adapter.moves(pos)))
    if not count:
        return [0.0] * n, [1.0] * n
    means = [s / count for s in sums]
    deviations = [math.sqrt(max(0.0, q / count - m * m)) for q, m in zip(squares, means, strict=True)]
    return means, [max(_MIN_DEVIATION, d) for d in deviations]


def new_state(game: LinearGame, settings: TdSettings) -> TdState:
    """The state before the first game: feature scales measured, initial weights chosen."""
    rng = random.Random(settings.seed)
    means, scales = feature_statistics(game, rng)
    if settings.start is not None:
        initial = read_weights(settings.start, game)
    elif settings.init == "defaults":
        initial = {name: float(game.default_weights[name]) for name in game.feature_names}
    elif settings.init == "zero":
        initial = theta(game, TdState([0.0] * len(scales), scales, {}), settings)  # the lead alone, if any
    else:
        # Random, as the seed starts, but drawn where the value lives: standardized weights of
        # about 1/sqrt(n) each keep |w . x| near 1. Integer weights drawn over the default weights'
        # range (random_weights, which evolution uses) put Abalone's w . x near +-30, where tanh is
        # flat and no update moved a weight (measured: 1e-12 in 40 games).
        n = len(game.feature_names)
        drawn = [rng.uniform(-1.0, 1.0) / math.sqrt(n) for _ in range(n)]
        initial = theta(game, TdState(drawn, scales, {}), settings)
    initial = {name: float(v) for name, v in integer_weights(initial).items()}
    w = standardized_weights(game, initial, scales, settings.scale)
    return TdState(w, scales, initial, 0, rng.getstate(), w_avg=list(w), mean=means)


def _dot(w: list[float], x: list[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


def play_and_learn(game: LinearGame, state: TdState, settings: TdSettings, rng: random.Random) -> int:
    """One self-play game from the start, updating ``state.w`` after each move (module docstring).
    Returns the result for the first player (1, 0, -1)."""
    w = state.w
    epsilon = max(settings.epsilon_min, settings.epsilon * settings.epsilon_decay ** state.games_done)
    gamma, lam, alpha = settings.gamma, settings.lam, settings.alpha
    adapter = game.adapter(theta(game, state, settings, averaged=False))
    searcher = None
    if settings.depth > 1:
        searcher = Searcher(adapter, max_moves=game.max_moves, rng=random.Random(rng.getrandbits(64)))

    def view(pos: Any) -> tuple[list[float], float]:
        """The model's ``x`` of ``pos`` and the side to move's lead there."""
        values = game.vector(pos)
        return state.standardize(values), game.lead(values)

    pos, sigma = game.initial(adapter), 1.0
    x, lead = view(pos)
    trace = [0.0] * len(w)
    while True:
        c = math.tanh(_dot(w, x))
        slope = sigma * (1.0 - c * c)
        moves = adapter.moves(pos)
        explore = rng.random() < epsilon
        child_view: tuple[list[float], float] | None = None
        if explore:
            move = rng.choice(moves)
        elif searcher is not None:
            found = searcher.search(pos, time_ms=None, max_depth=settings.depth)
            move = found.move if found.move is not None else rng.choice(moves)
        else:
            # The seed's one-ply choice: the move whose position is worst for the opponent.
            best: list[tuple[Any, tuple[list[float], float] | None]] = []
            best_value = -math.inf
            for candidate in moves:
                child = adapter.play(pos, candidate)
                ending = game.ending(adapter, child)
                seen = None
                if ending is None:
                    seen = view(child)
                    value = -(seen[1] + math.tanh(_dot(w, seen[0])))
                elif ending[1]:  # the cap: scored by the lead reached
                    value = -game.lead(game.vector(child))
                else:
                    value = float(-ending[0])
                if value > best_value + 1e-12:
                    best, best_value = [(candidate, seen)], value
                elif value >= best_value - 1e-12:
                    best.append((candidate, seen))
            move, child_view = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
        child = adapter.play(pos, move)
        ending = game.ending(adapter, child)
        if child_view is None:
            # A position the rules ended may have no meaningful features (no pieces left).
            child_view = view(child) if ending is None or ending[1] else (x, 0.0)
        child_x, child_lead = child_view
        # Everything in the first player's frame: the child's side to move is the other player.
        if ending is None:
            target = -sigma * child_lead + gamma * -sigma * math.tanh(_dot(w, child_x))
        elif ending[1]:
            target = -sigma * child_lead  # stopped by the move cap: a draw by the rules, scored by the lead
        else:
            target = -sigma * ending[0]
        delta = target - sigma * (lead + c)
        if explore:
            trace = [0.0] * len(w)  # the seed: a random move resets the traces, and teaches nothing
        else:
            decay = gamma * lam
            trace = [decay * e + slope * xi for e, xi in zip(trace, x, strict=True)]
            step = alpha * delta
            for i, e in enumerate(trace):
                w[i] += step * e
        if ending is not None:
            return int(-sigma * ending[0])
        pos, sigma = child, -sigma
        x, lead = child_x, child_lead


# --- the run folder --------------------------------------------------------------------------------


def _settings_json(settings: TdSettings) -> dict[str, Any]:
    return asdict(settings)


def _save(folder: Path, game: LinearGame, state: TdState, settings: TdSettings) -> None:
    weights = theta(game, state, settings)
    write_json(folder / TRAINED, hyperparameters_object(
        weights, max_depth=settings.eval_depth,
        description=f"TD(lambda) self-play, {state.games_done} games: lambda {settings.lam}, alpha {settings.alpha}, "
                    f"gamma {settings.gamma}, from {settings.start or settings.init} weights (arena train td)"), root=folder)
    write_json(folder / CHECKPOINT, {
        "version": 1, "settings": _settings_json(settings), "games_done": state.games_done,
        "w": state.w, "rms": state.scales, "mean": state.mean, "initial": state.initial, "rng": _rng_to_json(state.rng_state),
        "results": state.results, "w_avg": state.w_avg, "theta": integer_weights(weights), "best": state.best,
    }, root=folder)
    if state.best is not None:
        write_json(folder / BEST, hyperparameters_object(
            state.best["theta"], max_depth=settings.eval_depth,
            description=f"the best point of a TD(lambda) run's curve: {state.best['score']:.2f} against the initial "
                        f"weights after {state.best['games']} games (arena train td)"), root=folder)


def load_checkpoint(folder: Path, settings: TdSettings) -> TdState | None:
    """The state saved in ``folder`` (None when there is none). ConfigError when it was made with
    other settings or cannot be read."""
    path = folder / CHECKPOINT
    if not path.exists() and not path.is_symlink():
        return None
    try:
        data = read_json_file(path, MAX_RECORDS_BYTES, root=folder)
        saved = data["settings"]
        state = TdState([float(v) for v in data["w"]], [float(v) for v in data["rms"]],
                        {k: float(v) for k, v in data["initial"].items()}, int(data["games_done"]),
                        _rng_from_json(data["rng"]), dict(data["results"]), [float(v) for v in data["w_avg"]], data.get("best"),
                        [float(v) for v in data.get("mean", [])])
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ConfigError(f"{path}: not a TD checkpoint ({error.__class__.__name__}: {error})") from None
    wanted = _settings_json(settings)
    for key, value in wanted.items():
        if saved.get(key) != value:
            raise ConfigError(f"{folder}: trained with {option_name(key)} {saved.get(key)!r}, this run asks {value!r}: "
                              "use the same options to resume, or another --out folder")
    return state


def _trim_curve(folder: Path, games_done: int) -> None:
    """Drop curve points beyond the checkpoint (written before a crash that lost their games)."""
    path = folder / CURVE
    kept = [point for point in read_curve(folder) if isinstance(point.get("games"), int) and point["games"] <= games_done]
    atomic_write(path, "".join(json.dumps(point) + "\n" for point in kept).encode(), root=folder)


def read_curve(folder: Path) -> list[dict[str, Any]]:
    """The learning curve's points of a run folder, in order (a line cut short by a crash is
    skipped, as the next run's resume drops it)."""
    path = folder / CURVE
    try:
        lines = read_json_lines(path, MAX_RECORDS_BYTES, root=folder)
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
    return [point for point in lines if isinstance(point, dict)]


def evaluate_point(game: LinearGame, state: TdState, settings: TdSettings) -> dict[str, Any]:
    """The learning curve's point after ``state.games_done`` games: current against initial."""
    current = theta(game, state, settings)
    result: MatchResult = play_match(game, current, state.initial, pairs=settings.eval_pairs,
                                     depth=settings.eval_depth, seed=settings.seed * 1_000_003 + state.games_done,
                                     opening_plies=settings.opening_plies)
    return {"games": state.games_done, **result.to_json(), "theta": integer_weights(current)}


def train_td(settings: TdSettings, folder: Path, games: int, *, checkpoint_every: int = 50,
             progress_every: int = 50, progress: Callable[[str], None] | None = None) -> TdSummary:
    """Train until ``games`` self-play games are done in ``folder`` (resuming what is there).

    Raises ConfigError for bad settings or a folder made with other settings, and
    :class:`arena.errors.Interrupted` on KeyboardInterrupt after saving the last finished game.
    """
    settings.check()
    if games < 0 or checkpoint_every < 1 or progress_every < 1:
        raise ConfigError("--games must be at least 0, --checkpoint-every and --progress-every at least 1")
    game = linear_game(settings.game)
    say = progress or (lambda _line: None)
    try:
        make_folders(folder)
    except OSError as error:
        raise ConfigError(f"--out {folder}: cannot create the folder ({error.strerror})") from None
    state = load_checkpoint(folder, settings)
    if state is None:
        state = new_state(game, settings)
        write_json(folder / INITIAL, hyperparameters_object(
            state.initial, max_depth=settings.eval_depth,
            description=f"the starting weights of a TD(lambda) run ({settings.start or settings.init})"), root=folder)
        _save(folder, game, state, settings)
        atomic_write(folder / CURVE, b"", root=folder)
        say(f"td {game.name}: new run in {folder}: features {', '.join(game.feature_names)}")
    else:
        _trim_curve(folder, state.games_done)
        say(f"td {game.name}: resuming {folder} after {state.games_done} games")
    start_done = state.games_done
    rng = random.Random()
    rng.setstate(state.rng_state)
    saved = state.copy()
    last_point: dict[str, Any] | None = None
    curve = read_curve(folder)
    if curve:
        last_point = curve[-1]
    started = time.monotonic()
    try:
        while state.games_done < games:
            result = play_and_learn(game, state, settings, rng)
            state.results["first" if result > 0 else "second" if result < 0 else "draws"] += 1
            state.games_done += 1
            state.average_after_game(settings.average)
            state.rng_state = rng.getstate()
            done = state.games_done
            if settings.eval_pairs and done % settings.eval_every == 0:
                last_point = evaluate_point(game, state, settings)
                append_line(folder, CURVE, (json.dumps(last_point) + "\n").encode())
                if state.best is None or last_point["score"] > state.best["score"]:
                    state.best = {key: last_point[key] for key in ("games", "score", "theta")}
                say(f"curve: after {done} games, {last_point['score']:.2f} against the initial weights "
                    f"(+{last_point['wins']} ={last_point['draws']} -{last_point['losses']})")
            saved = state.copy()
            if done % checkpoint_every == 0 or done == games:
                _save(folder, game, state, settings)
            if done % progress_every == 0 or done == games:
                rate = (done - start_done) / max(1e-9, time.monotonic() - started)
                epsilon = max(settings.epsilon_min, settings.epsilon * settings.epsilon_decay ** done)
                weights = ", ".join(f"{k} {v}" for k, v in integer_weights(theta(game, state, settings)).items())
                say(f"td {game.name}: {done}/{games} games ({rate:.1f}/s), epsilon {epsilon:.3f}, "
                    f"first/draw/second {state.results['first']}/{state.results['draws']}/"
                    f"{state.results['second']}; weights {weights}")
    except KeyboardInterrupt:
        _save(folder, game, saved, settings)
        raise Interrupted(f"interrupted after {saved.games_done} games (saved); run the same command "
                          "again to resume") from None
    _save(folder, game, state, settings)
    return TdSummary(state.games_done, state.games_done - start_done, last_point, folder)


__all__ = ["INIT_CHOICES", "TdSettings", "TdState", "TdSummary", "evaluate_point", "feature_statistics",
           "load_checkpoint", "new_state", "play_and_learn", "read_curve", "standardized_weights", "theta", "train_td"]
