"""Players: the sides of a game. :func:`make_player` builds one from an agent spec.

- ``executable``: a :class:`ProcessPlayer` running the spec's command (``command``, or ``path`` as in
  the checkers system's configs), split like a shell would (``shlex``) but never run through a shell.
  A command that is the path of an existing file is taken whole, so paths with spaces work.
- ``hyperparameters``: arena's search bot as a process:
  ``python -m arena.agents.search_bot --game G --hyperparameters PATH`` (for a game that is not of
  the colour dialect also ``--players N`` and, when it has any, ``--params JSON``).
- ``human``: a person at the terminal, at any seat of any game (:mod:`arena.ui.human`, which
  registers itself here).

A process agent's environment is :func:`agent_environment`: minimal unless the isolation policy
says ``inherit_env`` (see :mod:`arena.process.isolation`), plus the agent's own ``env`` map.

May import: the process and protocol layers, the games and :mod:`arena.errors`; not rich (the
human player lives in :mod:`arena.ui.human`).
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from arena.errors import BotError, ConfigError
from arena.games.base import Color
from arena.games.model import GeneralGame, seat_of
from arena.players.base import ClockView, Fault, MoveReply, Player
from arena.players.process_player import ProcessPlayer
from arena.process.isolation import DEFAULT_ISOLATION, Isolation, bot_environment

if TYPE_CHECKING:
    from arena.players.spec import AgentSpec

#: The maker of human players, installed by the terminal UI (see :func:`register_human_player`).
_human_maker: Callable[..., Player] | None = None

_PROCESS_ONLY_OPTS = frozenset({"stderr_path", "max_reply_bytes", "kill_grace", "env", "protocol", "logs_dir"})


def split_command(command: str, cwd: str | None = None) -> list[str]:
    """argv for a bot command: the whole string if it names an existing file, else ``shlex.split``.

    Raises BotError for an empty command or unbalanced quotes.
    """
    stripped = command.strip()
    candidate = os.path.join(cwd, stripped) if cwd and not os.path.isabs(stripped) else stripped
    if stripped and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
        return [stripped]
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise BotError(f"cannot split bot command {command!r}: {exc}") from None
    if not argv:
        raise BotError("empty bot command")
    return argv


def agent_argv(spec: AgentSpec, game: GeneralGame[Any, Any], *, time_limit_ms: int | None = None,
               max_moves: int | None = None) -> list[str]:
    """The argv a process agent runs (executable or hyperparameters); ConfigError for other kinds.

    arena's own search bot (hyperparameters) is told the game's budget and move cap, because the
    Shobu protocol has no clock: without them it would plan for the default budget.
    """
    if spec.kind == "executable":
        command = spec.command if spec.command is not None else spec.path
        if not command:
            raise ConfigError(f"agent {spec.id!r}: an executable needs a command")
        return split_command(command, spec.cwd)
    if spec.kind == "hyperparameters":
        if not spec.path:
            raise ConfigError(f"agent {spec.id!r}: hyperparameters needs a path")
        argv = [sys.executable, "-m", "arena.agents.search_bot", "--game", game.name,
                "--hyperparameters", spec.path, *_table_flags(game)]
        if time_limit_ms is not None:
            argv += ["--time-limit", str(time_limit_ms)]
        if max_moves is not None:
            argv += ["--max-moves", str(max_moves)]
        return argv
    raise ConfigError(f"agent {spec.id!r}: kind {spec.kind!r} is not a process")


def _table_flags(game: GeneralGame[Any, Any]) -> list[str]:
    """``--players N [--params JSON] [--rules CMD]`` for a game whose seats and parameters are its
    configuration (not in the N-seat envelope's every message; an external game's referee); nothing
    for a game of the colour dialect, which its name alone configures."""
    from arena.referee.registration import rules_command

    if game.colour_dialect:
        return []
    flags = ["--players", str(game.players)]
    if game.params:
        flags += ["--params", json.dumps(game.params, sort_keys=True)]
    command = rules_command(game.name)
    if command is not None:  # an external game: the bot starts the same referee for its own search
        flags += ["--rules", command]
    return flags


def agent_environment(spec: AgentSpec, isolation: Isolation = DEFAULT_ISOLATION) -> dict[str, str]:
    """The environment of a process agent: :func:`arena.process.isolation.bot_environment` with the agent's
    ``env``; arena's own search bot also gets the folder that holds the ``arena`` package on its
    PYTHONPATH, so it starts however arena itself was found (installed or a source checkout)."""
    env = bot_environment(isolation, dict(spec.env))
    if spec.kind == "hyperparameters":
        from arena.process.spawn import arena_import_root

        env["PYTHONPATH"] = os.pathsep.join(filter(None, [arena_import_root(), env.get("PYTHONPATH")]))
    return env


#: The environment variable that gives a process agent its game's seed (docs/bots.md, "Randomness").
SEED_VAR = "ARENA_SEED"


def make_player(spec: AgentSpec, game: GeneralGame[Any, Any], color: Color, *, seat: int | None = None,
                time_limit_ms: int | None = None, max_moves: int | None = None, isolation: Isolation | None = None,
                seed: int | None = None, **opts: Any) -> Player:
    """A :class:`Player` for ``spec`` playing ``color``, or ``seat`` of a game of the general model
    (default: the colour's seat, BLACK 0 and WHITE 1; a process player's colour is then only a
    label the N-seat envelope never sends); ``time_limit_ms`` and ``max_moves`` go to
    arena's search bot (see :func:`agent_argv`); ``opts`` go to the player's constructor
    (for processes: ``stderr_path``, ``max_reply_bytes``, ``kill_grace``, ``env``, ``logs_dir``).
    ``isolation`` (for processes): pondering, sandbox and, unless ``env`` is given, the environment
    (:func:`agent_environment`). Without it a process player keeps the defaults of
    :class:`ProcessPlayer` and arena's whole environment. ``seed``: the game's seed, given to a
    process agent as :data:`SEED_VAR` (so seeded bots replay a seeded run exactly).

    Raises ConfigError for an unknown kind, BotError for an unusable command.
    """
    if spec.kind in ("executable", "hyperparameters"):
        argv = agent_argv(spec, game, time_limit_ms=time_limit_ms, max_moves=max_moves)
        shown = (spec.command or spec.path) if spec.kind == "executable" else shlex.join(argv)
        if isolation is not None:
            opts.setdefault("env", agent_environment(spec, isolation))
            opts.setdefault("ponder", isolation.ponder)
            opts.setdefault("sandbox", isolation.sandbox_choice())
            opts.setdefault("limits", isolation.limits)
        read_only = (*(isolation.read_only if isolation is not None else ()), *spec.read_only)
        if spec.kind == "hyperparameters" and "--rules" in argv:
            # Arena's search agent starts its own copy of an external game's referee: shown what
            # the referee's command needs, as arena's own copy is.
            from arena.process.view import command_paths

            referee = argv[argv.index("--rules") + 1]
            read_only += command_paths(referee, spec.cwd, opts.get("env") or os.environ)
        if spec.folder is not None or read_only:
            from arena.process.view import Reach

            opts.setdefault("reach", Reach(folder=spec.folder, read_only=read_only))
        if seed is not None:
            env = opts.get("env")
            opts["env"] = {**(os.environ if env is None else env), SEED_VAR: str(seed)}
        return ProcessPlayer(spec.id, color, game, argv, command=shown, cwd=spec.cwd,
                             arena_agent=spec.kind == "hyperparameters", **opts)
    if spec.kind == "human":
        if _human_maker is None:
            raise ConfigError(f"agent {spec.id!r}: a human player needs arena's terminal UI; import arena.ui.human "
                              "(the arena command does) before the game starts")
        human_opts = {k: v for k, v in opts.items() if k not in _PROCESS_ONLY_OPTS}
        return _human_maker(spec, game, seat_of(color) if seat is None else seat, **human_opts)
    raise ConfigError(f"agent {spec.id!r}: unknown kind {spec.kind!r} (executable, hyperparameters, human)")


def register_human_player(maker: Callable[..., Player]) -> None:
    """Install the maker of human players (``maker(spec, game, seat, **opts)``, ``game`` a
    GeneralGame). The terminal UI (:mod:`arena.ui.human`) calls it when
    imported: the players layer may not import rich."""
    global _human_maker
    _human_maker = maker


__all__ = ["SEED_VAR", "ClockView", "Fault", "MoveReply", "Player", "ProcessPlayer", "agent_argv", "agent_environment",
           "make_player", "register_human_player", "split_command"]
