"""Options shared by several commands: the game (read from the registry), isolation."""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from arena.cli.parts import PartName, backend_seam, sandbox_seam
from arena.process.cgroups import DEFAULT_MAX_PROCESSES, DEFAULT_MEMORY_MB, DEFAULT_SCRATCH_MB
from arena.process.isolation import BotLimits, Isolation, unprotected_note

F = TypeVar("F", bound=Callable[..., Any])


def checked_command(command: str, where: str) -> list[str]:
    """argv of a bot ``command`` with its files found from the current folder (the tournaments'
    resolver, :func:`arena.tournament.config.resolve_command`); click.UsageError naming ``where``
    when it is empty, cannot be split, or names a program or script that is not there."""
    from arena.errors import ConfigError
    from arena.tournament.config import resolve_command

    try:
        return list(resolve_command(command, Path.cwd(), where))
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None


def _agent_id(argv: list[str]) -> str:
    """A short name for a command: the stem of its script (``python3 bots/greedy.py``), else the
    last part of its module or class (``python3 -m pkg.bot``, ``java -cp build Main``), else of the
    first other word that names a file (``deno run bot.ts``), else of the last program it names
    (``env X=1 ./my_bot``)."""
    from arena.process.command import Role, word_roles

    roles = word_roles(argv)
    scripts = [w for w, r in zip(argv, roles, strict=True) if r is Role.SCRIPT]
    names = [w for w, r in zip(argv, roles, strict=True) if r is Role.NAME]
    programs = [w for w, r in zip(argv, roles, strict=True) if r is Role.PROGRAM]
    files = [w for w, r in zip(argv, roles, strict=True) if r is Role.ARG and not w.startswith("-") and os.path.isfile(w)]
    if scripts:
        name = Path(scripts[0]).stem
    elif names:
        name = names[0].replace("/", ".").rsplit(".", 1)[-1]
    elif files:
        name = Path(files[0]).stem
    else:
        name = Path(programs[-1] if programs else argv[0]).stem
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name) or "bot"


def agent_ids(argv1: list[str], argv2: list[str]) -> tuple[str, str]:
    """Short distinct names for two commands (``-1``/``-2`` added when their stems are equal)."""
    first, second = distinct_ids(_agent_id(argv1), _agent_id(argv2))
    return first, second


def is_hyperparameters_file(text: str) -> bool:
    """True when a bot argument names an existing ``.json`` file: arena's built-in search agent
    configured by that hyperparameters file, not a command to run."""
    path = Path(text.strip())
    return path.suffix.lower() == ".json" and path.is_file()


def bot_argument(text: str, where: str, game: str) -> tuple[str, str, str]:
    """A bot argument of ``arena match``/``arena sprt``/``arena check-bot`` as ``(kind, value, name)``:
    kind ``hyperparameters`` with the file's absolute path when ``text`` names an existing ``.json``
    file (checked for ``game`` now); ``executable`` with the folder's command when it names a bot
    folder (:func:`arena.tournament.roster.folder_bot`; ``name`` is the folder's), else with the
    command as given; ``name`` is the basis of the agent's id. click.UsageError naming ``where`` for a bad command or file."""
    if is_hyperparameters_file(text):
        from arena.agents.hyperparameters import load_hyperparameters
        from arena.errors import ConfigError

        path = Path(text.strip()).resolve()
        try:
            load_hyperparameters(path, game)
        except ConfigError as exc:
            raise click.UsageError(f"{where}: {exc}") from None
        return "hyperparameters", str(path), path.stem
    if _is_dir(text):
        folder = Path(text.strip())
        from arena.tournament.roster import FolderBotError, folder_bot

        try:
            bot = folder_bot(folder)
        except FolderBotError as exc:
            raise click.UsageError(f"{where}: {text}: {exc}") from None
        return "executable", shlex.join(bot.command), folder.resolve().name
    argv = checked_command(text, where)
    return "executable", text, _agent_id(argv)


def distinct_ids(*names: str) -> tuple[str, ...]:
    """Agent ids from names: safe file names; a name given more than once gets ``-<position>``
    (1-based) on each of its ids (``bot-1``, ``bot-2``)."""
    safe = [re.sub(r"[^A-Za-z0-9_.-]+", "_", name) or "bot" for name in names]
    return tuple(f"{name}-{i + 1}" if safe.count(name) > 1 else name for i, name in enumerate(safe))


def agent_spec(agent_id: str, kind: str, value: str) -> Any:
    """The :class:`arena.match.game.AgentSpec` of a :func:`bot_argument` (``player``: a human)."""
    from arena.players.spec import AgentSpec

    if kind == "hyperparameters":
        return AgentSpec(agent_id, "hyperparameters", path=value)
    if kind == "player":
        import arena.ui.human  # noqa: F401 - registers the human player with arena.players

        return AgentSpec(agent_id, "human")
    return AgentSpec(agent_id, command=value)


class GameName(click.ParamType):
    """A registered game's name. The registry (and any plugin) is loaded only when the option is
    used or its help is shown, so ``arena --help`` stays fast."""

    name = "game"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str | None:
        from arena.games.registry import all_game_names

        return "[" + "|".join(all_game_names()) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from arena.games.base import GameError
        from arena.games.registry import get_spec

        try:
            return get_spec(str(value)).name
        except GameError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        from arena.games.registry import all_game_names

        return [CompletionItem(name) for name in all_game_names() if name.startswith(incomplete)]


def game_option(help_text: str = "Which game to play (see 'arena games').", *,
                from_bots: bool = False) -> Callable[[F], F]:
    """``--game NAME`` and ``--rules CMD`` (:func:`rules_option`). ``--game`` defaults to the game of
    ``--rules`` when given; else, with ``from_bots``, to None (the command reads the game from its
    bots: :func:`game_of_bots`), and without, to the registry's default game, announced on stderr as
    :func:`game_of_bots` announces it (no command picks a game silently)."""
    from arena.games.registry import DEFAULT_MATCH_GAME

    def default_game() -> str | None:
        rules_game = click.get_current_context().meta.get(_RULES_GAME)
        if rules_game is not None or from_bots:
            return rules_game
        return game_of_bots(None, ())  # no bots to read: the default game, announced

    shown = (f"the game of --rules, or of the bots (their bot.json, or the one game their commands name), "
             f"else {DEFAULT_MATCH_GAME}" if from_bots else f"{DEFAULT_MATCH_GAME}, or the game of --rules")

    def decorate(f: F) -> F:
        f = click.option("--game", "game_name", type=GameName(), default=default_game,
                         show_default=shown, help=help_text)(f)
        return rules_option()(f)

    return decorate


def _is_dir(text: str) -> bool:
    """Whether ``text`` names a folder (False for a command line that is no path at all)."""
    try:
        return bool(text.strip()) and Path(text.strip()).is_dir()
    except (OSError, ValueError):  # a name too long, a NUL: a command, not a folder
        return False


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def bot_folder(text: str) -> Path | None:
    """The folder a bot argument lives in: the argument itself when it names a folder, else the
    folder of the program or script file it runs; None when it names none (``python3 -m pkg``)."""
    from arena.process.command import Role, word_roles

    if _is_dir(text):
        return Path(text.strip())
    try:
        argv = shlex.split(text)
    except ValueError:
        return None
    if len(argv) == 1 and _is_file(argv[0]):
        return Path(argv[0]).parent
    roles = word_roles(argv)
    files = [w for w, r in zip(argv, roles, strict=True) if r is Role.SCRIPT and _is_file(w)]
    files += [w for w, r in zip(argv, roles, strict=True) if r is Role.PROGRAM and "/" in w and _is_file(w)]
    return Path(files[0]).parent if files else None


def game_of_bots(game_name: str | None, commands: Sequence[str]) -> str:
    """``--game`` when given, else the one game the bots' folders declare (``"game"`` in their
    ``bot.json``: :func:`arena.tournament.roster.declared_game`), else the one game their commands
    name (``checkers_random.py``: :func:`arena.match.hints.games_named`), else the registry's
    default game. A game not given is announced in one line on stderr that says how to choose
    another: a bot of another game is then told so by its game's reason within seconds (it crashes
    or waits for input; :mod:`arena.match.hints`). click.UsageError (one line) when the bots
    declare different games."""
    if game_name is not None:
        return game_name
    from arena.errors import ConfigError
    from arena.games.registry import DEFAULT_MATCH_GAME
    from arena.match.hints import games_named
    from arena.tournament.roster import declared_game

    declared: dict[str, str] = {}
    for command in commands:
        folder = bot_folder(command)
        try:
            game = declared_game(folder) if folder is not None else None
        except ConfigError as exc:
            raise click.UsageError(f"{command}: {exc}") from None
        if game is not None:
            declared.setdefault(game, command)
    if len(declared) > 1:
        said = ", ".join(f"{command!r} declares {game}" for game, command in declared.items())
        raise click.UsageError(f"the bots declare different games ({said}): give --game")
    if declared:
        return next(iter(declared))
    named = {game for command in commands for game in games_named(command)}
    if len(named) == 1:
        game, why = named.pop(), "the game the bots' commands name"
    else:
        game, why = DEFAULT_MATCH_GAME, "the default game"
    if commands:
        click.echo(f"arena: playing {game}, {why}; --game NAME plays another (see 'arena games')", err=True)
    else:
        click.echo(f"arena: {game}, {why}; --game NAME chooses another (see 'arena games')", err=True)
    return game


_RULES_GAME = "arena.rules_game"


def rules_option() -> Callable[[F], F]:
    """``--rules CMD``: a game whose rules are a referee program (docs/referees.md), registered for
    this command under the name the referee gives before any game is looked up (the option is
    eager); ``--game`` then defaults to it. A referee that cannot be started or answers ``info``
    wrongly is a usage error naming it."""
    return click.option("--rules", "rules", metavar="CMD", default=None, is_eager=True, expose_value=False,
                        callback=_register_rules,
                        help="A game played by a referee program speaking arena's rules protocol (docs/referees.md), "
                             "e.g. --rules 'python3 examples/referees/nim.py'; its game is registered under the "
                             "name it gives.")


def _register_rules(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None:
        return
    from arena.games.base import GameError
    from arena.referee.client import RefereeError
    from arena.referee.registration import register_referee

    argv = checked_command(value, "--rules")
    try:
        spec = register_referee(argv)
    except (RefereeError, GameError) as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None
    ctx.meta[_RULES_GAME] = spec.name


def table_options(players_help: str = "Seats, for a game of more than two players (default: the game's).",
                  ) -> Callable[[F], F]:
    """``--players N`` and ``--param KEY=VALUE`` (repeatable): how a game of the general model is set."""
    def decorate(f: F) -> F:
        f = click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
                         help="A parameter of the game (repeatable), e.g. --param num_cards=5.")(f)
        return click.option("--players", type=click.IntRange(min=2, max=64), default=None, help=players_help)(f)
    return decorate


def probe_options(prefix: str = "") -> Callable[[F], F]:
    """``--time-limit``, ``--games`` and ``--seed`` of a bot's probe (``arena check-bot``, and ``arena
    roster check --probe``, which runs it on each bot): one set of bounds, defaults and words for
    both; ``prefix`` starts every help text."""
    def text(words: str) -> str:
        return prefix + words[0].lower() + words[1:] if prefix else words

    def decorate(f: F) -> F:
        f = click.option("--seed", type=click.IntRange(min=0, max=2**31), default=1, show_default=True,
                         help=text("Seed of the probe positions and of the random agent."))(f)
        f = click.option("--games", type=click.IntRange(min=0, max=20), default=2, show_default=True,
                         help=text("Whole games of each bot against arena's random agent, colours alternating."))(f)
        return click.option("--time-limit", type=click.IntRange(min=100, max=600_000), default=5000, show_default=True,
                            help=text("Each side's budget per game, in ms (the probes and games are short)."))(f)
    return decorate


def game_parameters(params: tuple[str, ...]) -> dict[str, int]:
    """``--param KEY=VALUE`` options as a dict (BadParameter for one that is not KEY=INTEGER)."""
    values: dict[str, int] = {}
    for item in params:
        key, sep, text = item.partition("=")
        if not sep or not key.strip() or not re.fullmatch(r"-?[0-9]{1,18}", text.strip()):
            raise click.BadParameter(f"{item!r} is not KEY=INTEGER", param_hint="--param")
        values[key.strip()] = int(text)
    return values


def rules_for(game_name: str, players: int | None, params: tuple[str, ...]) -> Any:
    """The game as the rules tools use it: a configured :class:`arena.games.model.GeneralGame`,
    whichever game (BadParameter when the players or parameters do not fit the game)."""
    from arena.games.base import GameError
    from arena.games.registry import get_spec

    try:
        return get_spec(game_name).table(players, game_parameters(params))
    except GameError as exc:
        raise click.BadParameter(str(exc), param_hint="--game/--players/--param") from None


_LIMITS_META = "arena.bot_limits"
_LIMIT_OPTIONS = (("--memory-mb", "memory_mb", "memoryMb", DEFAULT_MEMORY_MB,
                   ("Memory each bot may use, all its processes together, in MiB (0: no limit); past it "
                    "the kernel kills it and it loses by memory_limit.")),
                  ("--max-processes", "max_processes", "maxProcesses", DEFAULT_MAX_PROCESSES,
                   "Processes and threads each bot may run at once (0: no limit)."),
                  ("--scratch-mb", "scratch_mb", "scratchMb", DEFAULT_SCRATCH_MB,
                   "Size in MiB of each bot's private /tmp (its HOME) and /dev/shm (0: no limit beyond its memory)."))


def _keep_limit(ctx: click.Context, param: click.Parameter, value: int | None) -> None:
    if value is not None and param.name:
        ctx.meta.setdefault(_LIMITS_META, {})[param.name] = value


def bot_limits(base: BotLimits | None = None) -> BotLimits:
    """``base`` (default: the defaults) with the limits given on the command line (0: no limit)."""
    given = click.get_current_context().meta.get(_LIMITS_META, {})
    base = base if base is not None else BotLimits()
    changes = {name: (value or None) for name, value in given.items()}
    return dataclasses.replace(base, **changes) if changes else base


_READ_ONLY_META = "arena.read_only"


def _keep_read_only(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> None:
    if value:
        from arena.errors import ConfigError
        from arena.tournament.commands import read_only_paths

        try:
            ctx.meta[_READ_ONLY_META] = read_only_paths(value, Path.cwd(), "--read-only")
        except ConfigError as exc:
            raise click.BadParameter(str(exc).removeprefix("--read-only"), param_hint="--read-only") from None


def read_only_given(base: tuple[str, ...] = ()) -> tuple[str, ...]:
    """``base`` (a config's ``readOnlyPaths``) and the paths of ``--read-only`` (absolute)."""
    given = click.get_current_context().meta.get(_READ_ONLY_META, ())
    return tuple(dict.fromkeys((*base, *given)))


_SANDBOX_META = "arena.sandbox_backend"


def _keep_sandbox_backend(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[_SANDBOX_META] = value


def sandbox_given(sandbox: bool | None) -> bool | str | None:
    """``--sandbox/--no-sandbox`` (``sandbox``) with ``--sandbox-backend NAME``: None (neither
    given), False (none), True (the default backend) or another backend's name
    (:func:`arena.process.sandboxes.normal_sandbox`). ``--no-sandbox`` with a backend other than
    ``none`` is a usage error."""
    from arena.process.sandboxes import normal_sandbox

    name = click.get_current_context().meta.get(_SANDBOX_META)
    if name is None:
        return sandbox
    choice = normal_sandbox(name)
    if sandbox is False and choice:
        raise click.BadParameter(f"--no-sandbox contradicts --sandbox-backend {name}", param_hint="--sandbox-backend")
    return choice


def isolation_options(from_config: bool) -> Callable[[F], F]:
    """``--ponder/--no-ponder``, ``--sandbox/--no-sandbox`` and ``--inherit-env/--no-inherit-env``
    (each None when not given: the default, or with ``from_config`` the config's key), and the
    per-bot limits ``--memory-mb``, ``--max-processes``, ``--scratch-mb`` (read with
    :func:`bot_limits`)."""

    def default(key: str, value: str = "off") -> str:
        return f"the config's '{key}', else {value}" if from_config else value

    def decorate(func: F) -> F:
        for flag, name, key, value, text in _LIMIT_OPTIONS:
            func = click.option(flag, name, type=click.IntRange(0, 1 << 22), default=None, expose_value=False,
                                callback=_keep_limit, metavar="N",
                                help=f"{text} Default: {default(key, str(value))}.")(func)
        func = click.option("--read-only", "read_only", multiple=True, metavar="PATH", expose_value=False,
                            callback=_keep_read_only,
                            help="Show every bot this file or folder read-only in the sandbox, besides what it "
                                 "needs (repeatable)" + (", after the config's 'readOnlyPaths'." if from_config
                                                         else "."))(func)
        func = click.option(
            "--inherit-env/--no-inherit-env", "inherit_env", default=None,
            help="Give bots arena's whole environment instead of a minimal one (PATH, HOME, LANG, "
                 f"TMPDIR and the agent's own 'env'). Default: {default('inheritEnv')}.")(func)
        func = click.option(
            "--sandbox-backend", "sandbox_backend", type=PartName(sandbox_seam, "sandbox"), default=None,
            expose_value=False, callback=_keep_sandbox_backend,
            help="The sandbox to run bots in: bubblewrap (what --sandbox means), none (--no-sandbox) or an "
                 f"installed plugin's (docs/extending.md). Default: {default('sandbox', 'bubblewrap where it runs')}.",
        )(func)
        func = click.option(
            "--sandbox/--no-sandbox", "sandbox", default=None,
            help="Run each bot under bubblewrap: own PID namespace, no network, only the files it needs "
                 "(the system, its interpreter, its own files), read-only, and its private /tmp. --no-sandbox: bots still run as their own users in "
                 "their own cgroups, but see the network and every file anyone may read. Default: "
                 f"{default('sandbox', 'on where bubblewrap can run')}.")(func)
        func = click.option(
            "--ponder/--no-ponder", "ponder", default=None,
            help="Let bots run while the opponent thinks. Off: a bot's processes are stopped "
                 f"(its cgroup frozen) between its turns. Default: {default('ponder')}.")(func)
        return func

    return decorate


def ray_backend_options(from_config: bool, note: str = "") -> Callable[[F], F]:
    """``--backend local|ray``, ``--ray-address`` and ``--ray-cpus-per-game`` (parameters ``backend``,
    ``ray_address``, ``ray_cpus``; each None when not given: the config's keys with ``from_config``,
    else the defaults; ``note`` ends the help of ``--backend``). Pass them through
    :func:`chosen_backend`."""
    default = "the config's 'backend', else local" if from_config else "local"
    cpus = "the config's 'rayCpusPerGame', else 2" if from_config else "2"

    def decorate(func: F) -> F:
        func = click.option(
            "--ray-cpus-per-game", "ray_cpus", type=click.FloatRange(min=0, min_open=True, max=1024), default=None,
            help=f"With --backend ray: CPUs Ray reserves per game (default: {cpus}, one per bot).")(func)
        func = click.option(
            "--ray-address", "ray_address", metavar="ADDR", default=None,
            help="With --backend ray: 'local' (default: an embedded Ray instance on 127.0.0.1), 'auto' "
                 "(the cluster RAY_ADDRESS or `ray start` names) or HOST:PORT of a cluster's head.")(func)
        func = click.option(
            "--backend", type=PartName(backend_seam, "backend"), default=None,
            help="Where games run: local (this process), ray (one Ray task per game; needs arena[ray]) or a "
                 "plugin's backend (docs/extending.md). "
                 f"Default: {default}. How to run, not what is played: a run started with one backend "
                 f"resumes with the other.{note}")(func)
        return func

    return decorate


def chosen_backend(backend: str | None, ray_address: str | None, ray_cpus: float | None) -> str | None:
    """``--backend``, or ``ray`` when only a Ray option was given (it says which backend is meant)."""
    if backend is None and (ray_address or ray_cpus):
        return "ray"
    return backend


def chosen_isolation(ponder: bool | None, sandbox: bool | None, inherit_env: bool | None) -> Isolation:
    """The :class:`Isolation` of a command's ``--ponder``, ``--sandbox``, ``--inherit-env`` and bot
    limit options: ``--sandbox`` where bubblewrap cannot run is a usage error (exit 2), and running
    without the sandbox gets its warning line."""
    from arena.errors import ConfigError
    from arena.process.isolation import require_sandbox

    isolation = Isolation(ponder=bool(ponder), sandbox=sandbox_given(sandbox), inherit_env=bool(inherit_env),
                          limits=bot_limits(), read_only=read_only_given())
    if isolation.sandbox:
        try:
            require_sandbox(choice=isolation.sandbox)
        except ConfigError as exc:
            raise click.BadParameter(str(exc), param_hint="--sandbox") from None
    warn_unprotected(isolation)
    return isolation


def say(line: str) -> None:
    """A progress line of a long command (``arena train``, ``arena tune``) on stderr."""
    click.echo(line, err=True)


def warn_unprotected(isolation: Isolation) -> None:
    """One line on stderr when bots run without the sandbox (asked, or bubblewrap missing)."""
    note = unprotected_note(isolation)
    if note:
        click.echo(f"warning: {note}", err=True)
