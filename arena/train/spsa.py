"""SPSA tuning of an agent's numbers (``arena tune spsa CONFIG``): a hyperparameters file's, or an
external bot's command-line options (a command agent, :mod:`arena.train.spsa_play`).

Simultaneous perturbation stochastic approximation (Spall), as the chess testing frameworks
(fishtest, OpenBench) tune engines: every iteration moves *all* parameters at once in a random
direction ``Delta`` (each +1 or -1), plays ``theta + c_k Delta`` against ``theta - c_k Delta``, and
steps ``theta`` towards the side that scored better.

The config (JSON; relative paths from the config's folder)::

    {
      "game": "<a registered game>",
      "agent": "start.json",                  hyperparameters file to start from (required), or
                                              {"command": "...{NAME}..."}: see arena.train.spsa_play
      "parameters": {                         what to tune, by hyperparameters key (required):
        "evaluation.three": {"start": 40, "min": 0, "max": 400, "c": 20},
        "maxDepth": {"min": 1, "max": 4, "c": 1}      "start" defaults to the file's value
      },
      "iterations": 100,                      default 100
      "pairs": 2,                             colour-swapped game pairs per iteration, default 2
      "a": null, "A": null, "alpha": 0.602, "gamma": 0.101,   the gain schedule (below)
      "openings": "book.jsonl",               start each pair from a book line (random pick)
      "openingPlies": 2,                      else from this many random moves (default 2)
      "seed": 0
    }

The MCTS agent (a file with ``"algorithm": "mcts"``) is tuned for any game, its parameters
``exploration``, ``iterations`` and ``moveTimeMs``: :mod:`arena.train.spsa_mcts`.

A parameter is ``evaluation.NAME`` (a scalar weight), ``evaluation.TABLE[i]`` (an entry of a table
weight), ``maxDepth`` or ``moveTimeMs`` (without ``start``, the file's value; the adapter's default
weight, a table entry 0, ``maxDepth`` 64 or ``moveTimeMs`` 100 when the file leaves it out). Every one is an integer in the agent's file: ``theta`` is
kept as floats and rounded (then clipped to ``min..max``) when the agents are built. The games run
in this process on the game's search adapter: alpha-beta to the file's ``maxDepth`` (a file that
leaves it at the default 64 must set ``moveTimeMs``, else it would never stop), with
``moveTimeMs`` per move when set.

The gain schedule, at iteration ``k`` (0-based), with the standard exponents::

    a_k = a / (A + k + 1) ** alpha          alpha = 0.602
    c_k = c / (k + 1) ** gamma              gamma = 0.101, per parameter
    y   = (points of theta+ - points of theta-) / games          in -1..1
    theta_i += a_k * c_i**2 * y / (2 * c_k,i * Delta_i)

that is Spall's update on each parameter measured in units of its own ``c`` (one ``a`` then suits
parameters of any size; fishtest's ``r = a / c**2`` does the same). ``A`` defaults to a tenth of the
iterations and ``a`` to ``2 * (A + 1) ** alpha``, so that the first step is at most one ``c``.

The run folder (``--out``): ``history.jsonl`` (one line per iteration: k, theta, the two probes,
the result, a_k, c_k), ``state.json`` (theta, iteration, the random generator's state; the same
command resumes from it), ``start.json`` and ``tuned.json`` (hyperparameters files: the agent
with the starting and the latest parameters, rounded; for a command agent the command with the
values substituted, see :func:`arena.train.spsa_play.agent_file`), ``history.svg``/``history.html``
(the parameters' paths, :mod:`arena.report.charts`); for a command agent also ``games/NNNNN.json``
(every game's record) and a ``games`` object in each history line. A run holds the folder's
``.arena.lock`` while it works: a second run in the same folder is refused.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.agents.hyperparameters import check_hyperparameters
from arena.errors import ConfigError, Interrupted
from arena.fileio import fields
from arena.fileio.files import append_line, atomic_write, make_folders
from arena.fileio.jsonfiles import read_json_file, read_json_lines
from arena.limits import MAX_FILE_BYTES, MAX_RECORDS_BYTES, MAX_SEED
from arena.train.model import LinearGame, MatchResult, Side, linear_game, play_sides, random_opening, write_json
from arena.train.spsa_mcts import MCTS_PARAMETERS, check_mcts_agent, is_mcts, mcts_value, set_mcts_values
from arena.train.spsa_play import COMMAND_KEYS, NAME, CommandAgent, agent_file, check_placeholders, load_command_agent

_PARAMETER = re.compile(r"(maxDepth|moveTimeMs)|evaluation\.([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+)\])?")
_CONFIG_KEYS = ("game", "agent", "parameters", "iterations", "pairs", "a", "A", "alpha", "gamma", "openings",
                "openingPlies", "seed", "description", *COMMAND_KEYS)
#: Bounds of SPSA's own keys (the keys it shares with tournament configs have theirs, arena.limits).
MAX_ITERATIONS = 10**7
MAX_PAIRS = 10_000
MAX_OPENING_PLIES = 20
HISTORY = "history.jsonl"
STATE = "state.json"


@dataclass(frozen=True)
class Parameter:
    """One tuned number: its key in the hyperparameters file (or a command agent's placeholder
    name), start, bounds, step ``c`` and ``type`` (``int``; a command agent's may be ``float``)."""

    key: str
    start: float
    low: float
    high: float
    c: float
    type: str = "int"

    def identity(self) -> dict[str, Any]:
        # Without "type" for an int parameter: folders saved before floats existed still resume.
        out: dict[str, Any] = {"key": self.key, "start": self.start, "low": self.low, "high": self.high, "c": self.c}
        if self.type != "int":
            out["type"] = self.type
        return out

    def clip(self, value: float) -> float:
        return min(self.high, max(self.low, value))


@dataclass(frozen=True)
class SpsaConfig:
    """A checked SPSA config (see the module docstring)."""

    game: str
    agent: dict[str, Any]
    agent_path: str
    parameters: tuple[Parameter, ...]
    iterations: int = 100
    pairs: int = 2
    a: float = 0.0
    big_a: float = 0.0
    alpha: float = 0.602
    gamma: float = 0.101
    openings: str | None = None
    opening_plies: int = 2
    seed: int = 0
    #: The command agent (None: the hyperparameters file ``agent``, played in this process).
    command: CommandAgent | None = None

    def a_k(self, k: int) -> float:
        return self.a / (self.big_a + k + 1) ** self.alpha

    def c_k(self, parameter: Parameter, k: int) -> float:
        return parameter.c / (k + 1) ** self.gamma

    def identity(self) -> dict[str, Any]:
        """What a resumed run must share with the saved one (``iterations`` may grow)."""
        out = {"game": self.game, "agent": self.agent, "parameters": [p.identity() for p in self.parameters],
               "pairs": self.pairs, "a": self.a, "A": self.big_a, "alpha": self.alpha, "gamma": self.gamma,
               "openings": self.openings, "openingPlies": self.opening_plies, "seed": self.seed}
        if self.command is not None:
            out["command"] = self.command.identity()
        return out

    def agent_file(self, theta: dict[str, float], game: LinearGame | None) -> dict[str, Any]:
        """``start.json``/``tuned.json``: the agent with the parameters at ``theta``."""
        if self.command is not None:
            return agent_file(self.command, self.parameters, theta)
        if is_mcts(self.agent):
            return set_mcts_values(self.agent, theta)
        assert game is not None
        return set_values(self.agent, theta, game)


def get_value(agent: dict[str, Any], key: str, game: LinearGame) -> float:
    """The current value of parameter ``key`` in the agent's hyperparameters object (defaults when
    the file leaves it out)."""
    match = _PARAMETER.fullmatch(key)
    assert match is not None
    top, name, index = match.groups()
    if top == "maxDepth":
        return float(agent.get("maxDepth", 64))
    if top == "moveTimeMs":
        value = agent.get("moveTimeMs")
        return float(value) if value is not None else 100.0
    evaluation = agent.get("evaluation", {})
    if index is not None:
        table = evaluation.get(name)
        return float(table[int(index)]) if isinstance(table, list) and int(index) < len(table) else 0.0
    return float(evaluation.get(name, game.adapter_class.DEFAULT_WEIGHTS.get(name, 0)))


def set_values(agent: dict[str, Any], values: dict[str, float], game: LinearGame) -> dict[str, Any]:
    """A copy of the agent's object with the parameters set to ``values`` (rounded to integers)."""
    out = json.loads(json.dumps(agent))
    evaluation = out.setdefault("evaluation", {})
    tables = dict(getattr(game.adapter_class, "TABLE_WEIGHTS", {}) or {})
    for key, value in values.items():
        match = _PARAMETER.fullmatch(key)
        assert match is not None
        top, name, index = match.groups()
        number = round(value)
        if top is not None:
            out[top] = number
        elif index is not None:
            table = evaluation.get(name)
            if not isinstance(table, list):
                table = [0] * tables.get(name, int(index) + 1)
            table[int(index)] = number
            evaluation[name] = table
        else:
            evaluation[name] = number
    return out


def load_spsa_config(path: str | Path) -> SpsaConfig:
    """Read and check an SPSA config; ConfigError naming the key otherwise."""
    path = Path(path)
    where = f"SPSA config {str(path)!r}"
    try:
        obj = read_json_file(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except OSError as error:
        raise ConfigError(f"{where}: cannot be read ({error.strerror or error})") from None
    except ValueError as error:
        raise ConfigError(f"{where}: cannot be read as JSON ({error})") from None
    if not isinstance(obj, dict):
        raise ConfigError(f"{where}: must be a JSON object")
    with fields.prefixed(where):
        return _check_config(obj, path.parent)


def _check_config(obj: dict[str, Any], base_dir: Path) -> SpsaConfig:
    """The checked config of the decoded ``obj`` (relative paths from ``base_dir``); ConfigError
    ``<key>: <problem>`` (the caller puts the file first)."""
    fields.check_keys(obj, _CONFIG_KEYS)
    for key in ("game", "agent", "parameters"):
        fields.required(obj, key)
    fields.string(obj, "game", need=True, what="a game's name")
    command: CommandAgent | None = None
    game: LinearGame | None = None
    mcts = False
    if isinstance(obj["agent"], dict):
        command = load_command_agent(obj, base_dir, "")
        agent, agent_path = obj["agent"], ""
    elif isinstance(obj["agent"], str):
        for key in COMMAND_KEYS:
            if key in obj:
                fields.fail("", key, 'for a command agent only ("agent": {"command": ...})')
        agent_path = str((base_dir / obj["agent"]).resolve())
        try:
            agent = read_json_file(agent_path, MAX_FILE_BYTES)
        except OSError as error:
            raise ConfigError(f"agent: cannot read {obj['agent']!r} ({error.strerror or error})") from None
        except ValueError as error:
            raise ConfigError(f"agent: cannot read {obj['agent']!r} ({error})") from None
        mcts = is_mcts(agent)  # MCTS plays every game: no search adapter, no weights
        if not mcts:
            game = linear_game(obj["game"], require_features=False)
        check_hyperparameters(agent, obj["game"], f"agent ({obj['agent']})")
    else:
        fields.fail("", "agent", "must be the path of a hyperparameters file or an object with a command")
    raw = obj["parameters"]
    if not isinstance(raw, dict) or not raw:
        fields.fail("", "parameters", "must be an object naming at least one parameter")
    parameters = [_parameter(key, spec, f"parameters.{key}", agent, game, mcts) for key, spec in raw.items()]
    if command is not None:
        check_placeholders(command, list(raw), "")
    elif mcts:
        check_mcts_agent(agent, set(raw))
        check_hyperparameters(set_mcts_values(agent, {p.key: p.start for p in parameters}), obj["game"],
                              "the agent at the parameters' starts")
    else:
        assert game is not None
        # The starting agent with every parameter at its start must itself be a valid file.
        check_hyperparameters(set_values(agent, {p.key: p.start for p in parameters}, game), obj["game"],
                              "the agent at the parameters' starts")
    iterations = fields.integer(obj, "iterations", default=100, low=1, high=MAX_ITERATIONS)
    pairs = fields.integer(obj, "pairs", default=2, low=1, high=MAX_PAIRS)
    alpha = fields.number(obj, "alpha", default=0.602)
    gamma = fields.number(obj, "gamma", default=0.101)
    big_a = fields.number(obj, "A", default=iterations / 10)
    a = fields.number(obj, "a", default=2.0 * (big_a + 1) ** alpha)
    if a <= 0 or big_a < 0 or not 0 < alpha <= 2 or not 0 < gamma <= 2:
        raise ConfigError("needs a > 0, A >= 0, 0 < alpha <= 2 and 0 < gamma <= 2")
    openings = fields.string(obj, "openings", what="the path of an opening book")
    if openings is not None:
        if mcts:
            fields.fail("", "openings", "not for the MCTS agent (its games start from openingPlies random steps)")
        openings = str((base_dir / openings).resolve())
        if game is not None:
            _book_states(game, openings)  # checked now, not at the first iteration
    if game is not None:
        depth = agent.get("maxDepth", 64)
        if depth == 64 and agent.get("moveTimeMs") is None and "maxDepth" not in raw and "moveTimeMs" not in raw:
            fields.fail("", "agent", "the file must set maxDepth or moveTimeMs (its games would never stop searching)")
    seed = fields.integer(obj, "seed", default=0, low=0, high=MAX_SEED)
    plies = fields.integer(obj, "openingPlies", default=2, low=0, high=MAX_OPENING_PLIES)
    return SpsaConfig(obj["game"], agent, agent_path, tuple(parameters), iterations, pairs, a, big_a, alpha,
                      gamma, openings, plies, seed, command)


def _parameter(key: Any, spec: Any, at: str, agent: dict[str, Any], game: LinearGame | None,
               mcts: bool = False) -> Parameter:
    """One entry of ``parameters``: of a hyperparameters file when ``game`` is given, of the MCTS
    agent's file with ``mcts``, else of a command agent (a placeholder name, ``start`` required, an
    optional ``type``)."""
    keys = {"start", "min", "max", "c"}
    if mcts:
        if key not in MCTS_PARAMETERS:
            raise ConfigError(f"{at}: not a tunable key of the MCTS agent ({', '.join(MCTS_PARAMETERS)})")
        if not isinstance(spec, dict) or not {"min", "max", "c"} <= set(spec) or set(spec) - keys:
            raise ConfigError(f"{at}: must be an object with min, max, c (and optionally start)")
        low, high = fields.number(spec, "min", where=at, need=True), fields.number(spec, "max", where=at, need=True)
        c = fields.number(spec, "c", where=at, need=True)
        start = fields.number(spec, "start", where=at, need=True) if "start" in spec else mcts_value(agent, key)
        if not low < high or not low <= start <= high or c <= 0:
            raise ConfigError(f"{at}: needs min < max, start within them and c > 0")
        return Parameter(key, start, low, high, c, MCTS_PARAMETERS[key])
    if game is not None:
        if not isinstance(key, str) or _PARAMETER.fullmatch(key) is None:
            raise ConfigError(f"{at}: not a tunable key (maxDepth, moveTimeMs, evaluation.NAME, "
                              "evaluation.TABLE[i])")
        if not isinstance(spec, dict) or not {"min", "max", "c"} <= set(spec) or set(spec) - keys:
            raise ConfigError(f"{at}: must be an object with min, max, c (and optionally start)")
    else:
        if NAME.fullmatch(key) is None:
            raise ConfigError(f"{at}: not a placeholder name (letters, digits and '_', not starting with a digit)")
        if not isinstance(spec, dict) or not keys <= set(spec) or set(spec) - keys - {"type"}:
            raise ConfigError(f"{at}: must be an object with start, min, max, c (and optionally type)")
        fields.one_of(spec, "type", ("int", "float"), where=at)
    low, high = fields.number(spec, "min", where=at, need=True), fields.number(spec, "max", where=at, need=True)
    c = fields.number(spec, "c", where=at, need=True)
    start = (fields.number(spec, "start", where=at, need=True) if "start" in spec
             else get_value(agent, key, game) if game else 0.0)
    if not low < high or not low <= start <= high or c <= 0:
        raise ConfigError(f"{at}: needs min < max, start within them and c > 0")
    return Parameter(key, start, low, high, c, spec.get("type", "int"))


def _book_states(game: LinearGame, path: str) -> list[Any]:
    from arena.openings.book import OpeningsError, load_book

    try:
        return [opening.state for opening in load_book(game.rules, Path(path)).openings]
    except OpeningsError as error:
        raise ConfigError(f"openings: {error}") from None


# --- the run ---------------------------------------------------------------------------------------


def _side(game: LinearGame, agent: dict[str, Any]) -> Side:
    hp = check_hyperparameters(agent, game.name, "SPSA probe")
    adapter = game.adapter_class(hp.evaluation)
    return Side(adapter, hp.max_depth, float(hp.move_time_ms) if hp.move_time_ms is not None else None)


def play_probe(config: SpsaConfig, game: LinearGame, plus: dict[str, float], minus: dict[str, float],
               seed: int, openings: list[Any] | None) -> MatchResult:
    """``config.pairs`` colour-swapped pairs of ``plus`` against ``minus`` (``plus``'s result)."""
    first = _side(game, set_values(config.agent, plus, game))
    second = _side(game, set_values(config.agent, minus, game))
    rng = random.Random(seed)
    result = MatchResult()
    for _ in range(config.pairs):
        if openings:
            start = first.adapter.from_state(openings[rng.randrange(len(openings))])
        else:
            start = random_opening(game, first.adapter, rng, config.opening_plies)
        result.add(play_sides(game, first, second, start, rng))
        result.add(-play_sides(game, second, first, start, rng))
    return result


def spsa_step(config: SpsaConfig, theta: dict[str, float], k: int, rng: random.Random,
              measure: Callable[[dict[str, float], dict[str, float]], float]) -> tuple[dict[str, float], dict[str, Any]]:
    """One iteration: draw ``Delta``, ask ``measure(plus, minus)`` for ``y`` in -1..1 (how much
    better ``plus`` did), return the new theta and the history line's fields."""
    delta = {p.key: rng.choice((-1.0, 1.0)) for p in config.parameters}
    a_k = config.a_k(k)
    plus, minus, c_k, new = {}, {}, {}, {}
    for p in config.parameters:
        step = config.c_k(p, k)
        c_k[p.key] = step
        plus[p.key] = p.clip(theta[p.key] + step * delta[p.key])
        minus[p.key] = p.clip(theta[p.key] - step * delta[p.key])
    y = measure(plus, minus)
    for p in config.parameters:
        gradient = y / (2.0 * c_k[p.key] * delta[p.key])
        new[p.key] = p.clip(theta[p.key] + a_k * p.c * p.c * gradient)
    return new, {"k": k, "theta": new, "plus": plus, "minus": minus, "y": y, "a_k": a_k, "c_k": c_k}


def read_history(folder: Path) -> list[dict[str, Any]]:
    """The history lines of a run folder (a line cut short by a crash is skipped)."""
    path = folder / HISTORY
    try:
        lines = read_json_lines(path, MAX_RECORDS_BYTES, root=folder)
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read ({error.strerror or error})") from None
    return [line for line in lines if isinstance(line, dict)]


def run_spsa(config: SpsaConfig, folder: Path, *, iterations: int | None = None,
             say: Callable[[str], None] | None = None, progress_every: int = 10,
             measure: Callable[[dict[str, float], dict[str, float], int], float] | None = None,
             concurrency: int = 1) -> dict[str, float]:
    """Run (or resume) the tuning in ``folder`` up to ``iterations`` (default the config's);
    returns the final theta. ``measure(plus, minus, k)`` replaces the games (tests);
    ``concurrency``: a command agent's games at once. Raises ConfigError for a folder made with
    another config, LogError for a folder another run holds, Interrupted on KeyboardInterrupt
    after saving the last finished iteration."""
    from arena.records.logstore import FolderLock

    try:
        make_folders(folder)
    except OSError as error:
        raise ConfigError(f"--out {folder}: cannot create the folder ({error.strerror})") from None
    lock = FolderLock(folder)
    lock.acquire()
    try:
        return _run(config, folder, iterations, say or (lambda _line: None), progress_every, measure, concurrency)
    finally:
        lock.release()


def _run(config: SpsaConfig, folder: Path, iterations: int | None, say: Callable[[str], None], progress_every: int,
         measure: Callable[[dict[str, float], dict[str, float], int], float] | None, concurrency: int) -> dict[str, float]:
    mcts = config.command is None and is_mcts(config.agent)
    game = linear_game(config.game, require_features=False) if config.command is None and not mcts else None
    total = config.iterations if iterations is None else iterations
    state_path = folder / STATE
    if state_path.exists() or state_path.is_symlink():
        try:
            saved = read_json_file(state_path, MAX_RECORDS_BYTES, root=folder)
            same = saved["identity"] == json.loads(json.dumps(config.identity()))
            k, theta = int(saved["k"]), {key: float(v) for key, v in saved["theta"].items()}
            rng = random.Random()
            version, internal, gauss = saved["rng"]
            rng.setstate((version, tuple(internal), gauss))
        except OSError as error:
            raise ConfigError(f"{state_path}: cannot be read ({error.strerror or error})") from None
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise ConfigError(f"{state_path}: not an SPSA state of this arena ({error.__class__.__name__}: {error})") from None
        if not same:
            raise ConfigError(f"{folder}: tuned with another config (agent, parameters or schedule differ): "
                              "use another --out folder")
        kept = [line for line in read_history(folder) if isinstance(line.get("k"), int) and line["k"] < k]
        atomic_write(folder / HISTORY, "".join(json.dumps(line) + "\n" for line in kept).encode(), root=folder)
        say(f"spsa {config.game}: resuming {folder} at iteration {k}")
    else:
        k, theta, rng = 0, {p.key: p.start for p in config.parameters}, random.Random(config.seed)
        write_json(folder / "start.json", config.agent_file(theta, game), root=folder)
        atomic_write(folder / HISTORY, b"", root=folder)
        say(f"spsa {config.game}: {len(config.parameters)} parameters, {total} iterations of {config.pairs} pairs, "
            f"a {config.a:.3g}, A {config.big_a:g}, alpha {config.alpha}, gamma {config.gamma}")
    openings = _book_states(game, config.openings) if config.openings and game is not None else None
    played: dict[str, Any] = {}  # the command agent's games of the iteration, for its history line

    def games(plus: dict[str, float], minus: dict[str, float]) -> float:
        if measure is not None:
            return measure(plus, minus, k)
        if mcts:
            from arena.train.spsa_mcts import play_mcts_probe

            return play_mcts_probe(config.game, config.agent, plus, minus, pairs=config.pairs,
                                   opening_plies=config.opening_plies, seed=config.seed * 1_000_003 + k)
        if game is None:
            from arena.train.spsa_play import play_iteration

            result = play_iteration(config, folder, k, plus, minus, concurrency)
            played["games"] = result.summary
            return result.y
        probe = play_probe(config, game, plus, minus, config.seed * 1_000_003 + k, openings)
        return (probe.wins - probe.losses) / probe.games

    def save() -> None:
        write_json(folder / "tuned.json", config.agent_file(theta, game), root=folder)
        state = {"identity": config.identity(), "k": k, "theta": theta,
                 "rng": [v if not isinstance(v, tuple) else list(v) for v in rng.getstate()]}
        write_json(state_path, state, root=folder)

    try:
        while k < total:
            rng_before = rng.getstate()
            try:
                new_theta, line = spsa_step(config, theta, k, rng, games)
                line.update(played)
                append_line(folder, HISTORY, (json.dumps(line) + "\n").encode())
            except KeyboardInterrupt:
                # Iteration k is not done until k moves on: the resumed run draws the same Delta
                # again and drops this history line (if it was written).
                rng.setstate(rng_before)
                raise
            theta, k = new_theta, k + 1
            save()
            if k % progress_every == 0 or k == total:
                shown = ", ".join(f"{key} {value:.1f}" for key, value in theta.items())
                say(f"spsa {config.game}: {k}/{total} iterations; {shown}")
    except KeyboardInterrupt:
        save()
        raise Interrupted(f"interrupted after {k} iterations (saved); run the same command again to resume") from None
    save()
    return theta


__all__ = ["Parameter", "SpsaConfig", "get_value", "load_spsa_config", "play_probe", "read_history", "run_spsa",
           "set_values", "spsa_step"]
