"""The game registry: every game arena can play, found by name, and what each game brings.

Standard library only, and cheap to import: a :class:`GameSpec` names its parts as ``"module:attr"``
strings, imported only when used, so listing the games (``arena games``) or validating a config
never loads a search adapter, a terminal view or a protocol it does not need.

Where games come from:

- arena's own: :data:`BUILTIN_GAMES` below, one line per game (``name -> "module:SPEC"``);
- plugins: any installed distribution that declares an entry point in the group ``arena.games``
  whose object is a :class:`GameSpec` (or a callable returning one). Its ``name`` must equal the
  entry point's name. A plugin that fails to load does not hide the others: the failure is kept
  and reported by ``arena games`` and by any command that asks for that game.

Everything else in arena (config validation, CLI choices and help, the board view, the human
player, the hyperparameters agent, the conformance tests) reads this registry; no other module
spells a game's name.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arena.games.base import Game, GameError

if TYPE_CHECKING:
    # Loaded when a game of that model is asked for: the rules tools of two-player games start
    # without it (its fractions import alone costs about 3 ms).
    from arena.games.model import GeneralGame

#: arena's own games, in the order ``arena games`` lists them. The registry line of each game.
BUILTIN_GAMES: dict[str, str] = {
    "shobu": "arena.games.shobu.rules:SPEC",
    "checkers": "arena.games.checkers.rules:SPEC",
    "breakthrough": "arena.games.breakthrough.rules:SPEC",
    "connect4": "arena.games.connect4.rules:SPEC",
    "abalone": "arena.games.abalone.rules:SPEC",
    # Games of the general model (arena.games.model): N seats, chance, hidden information.
    "goofspiel": "arena.games.goofspiel.rules:SPEC",
    "kuhn_poker": "arena.games.kuhn_poker.rules:SPEC",
    "leduc_poker": "arena.games.leduc_poker.rules:SPEC",
    "love_letter": "arena.games.love_letter.rules:SPEC",
    "pig": "arena.games.pig.rules:SPEC",
}

#: ``arena match``, ``arena sprt`` and the rules tools play this game when ``--game`` is not given
#: (the docs' classic example is a Shobu match between bots/bot1.py and bots/bot2).
DEFAULT_MATCH_GAME = "shobu"
#: A tournament config without ``"game"`` is the checkers system's format: it plays this game.
DEFAULT_CONFIG_GAME = "checkers"

#: ``arena --json-pass-through`` is the Shobu engine's flag: it always means this game.
JSON_PASS_THROUGH_GAME = "shobu"

ENTRY_POINT_GROUP = "arena.games"

#: Families of games named ``PREFIX:NAME`` that a module provides on demand, imported only when
#: such a name is asked for or the families are listed (``arena games``): prefix -> module. The
#: module has ``spec(NAME) -> GameSpec``, ``names()`` (every full name), ``installed()`` and
#: ``INSTALL_HINT``; ``spec`` and ``names`` raise GameError in one line (what to install) when
#: the library behind the family is absent.
PROVIDERS: dict[str, str] = {
    "spiel": "arena.openspiel.provider",  # OpenSpiel's games, the extra arena[openspiel]
}

#: The names of the wire dialects arena implements, the values of ``GameSpec.protocol`` besides a
#: plugin's own ``"module:Class"``. The layers above own what each name means: arena's side in
#: :data:`arena.protocols.DIALECTS`, the bot side of arena's own agents in
#: :data:`arena.agents.parts.BOT_SIDES`.
DIALECTS: tuple[str, ...] = ("json", "shobu-json", "checkers-lines", "json-seats")

#: ``GameSpec.model`` values: today's two-player alternating games of perfect information
#: (:class:`arena.games.base.Game`), and games of the general model
#: (:class:`arena.games.model.GeneralGame`: N seats, chance, simultaneous moves, hidden information).
TWO_PLAYER = "two-player"
GENERAL = "general"

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")
#: The name of a provided game: its provider's prefix, a colon, a name.
PROVIDED_NAME_PATTERN = re.compile(r"[a-z]+:[a-z0-9][a-z0-9_]{0,63}\Z")


@dataclass(frozen=True)
class GameSpec:
    """Everything the rules layer knows of one game. Only ``name``, ``title``, ``rules`` and
    ``default_max_moves`` are required; the rest has working defaults.

    - ``rules``: ``"module:attr"`` of a :class:`arena.games.base.Game` subclass (or any zero-argument
      callable returning a ``Game``); its ``name`` must equal ``name``.
    - ``protocol``: one of :data:`DIALECTS` (default ``"json"``: the generic JSON envelope, see
      :mod:`arena.protocols.json_envelope`) or ``"module:Class"`` of a plugin's own
      :class:`arena.protocols.Protocol` subclass, then with ``bot_side``.
    - ``notation``: one line saying how a move is written (for ``arena games`` and the human
      player's help); the notation itself is the game's ``describe_move`` and ``parse_notation``.
    - ``svg``: ``"module:function"``, ``function(state, last_move=None) -> str``, an SVG picture of
      the board (standard library only), for reports; for a game of the general model
      ``function(state_json, seat=None) -> str``, the omniscient picture or what ``seat`` sees.
    - ``pdn``: ``"module:function"``, ``function(record: dict, *, event=None) -> str``, one game as
      Portable Draughts Notation (``arena export --pdn``; ``event`` is the tournament's id when the
      function takes it); None: the game has no PDN form.

    The parts the layers above play a game with are theirs to find (docs/plugins.md): arena's own
    games' in their tables (:func:`arena.ui.views.view_for`, :func:`arena.agents.parts.search_ref`,
    :func:`arena.agents.parts.bot_side_ref`, :data:`arena.protocols.DIALECTS`); a plugin game gives
    its own here, and the rules layer never loads them:

    - ``view``: ``"module:Class"`` of an :class:`arena.ui.views.GameView` for the terminal (default:
      the generic view, which draws ``Game.board_text`` and reads moves as ``describe_move`` writes
      them).
    - ``search``: ``"module:Class"`` of a search adapter (see :class:`arena.agents.search.SearchAdapter`),
      which lets the ``hyperparameters`` agent play the game; None: that agent cannot.
    - ``bot_side``: ``"module:function"``, ``function(game, choose, *, name) -> int``, the bot side
      of a custom protocol for arena's own agents.
    """

    name: str
    title: str
    rules: str
    default_max_moves: int
    summary: str = ""
    protocol: str = "json"
    notation: str = ""
    view: str | None = None
    svg: str | None = None
    search: str | None = None
    bot_side: str | None = None
    pdn: str | None = None
    #: :data:`TWO_PLAYER` (``rules`` gives a Game) or :data:`GENERAL` (``rules`` is a
    #: GeneralGame class, configured per match with its players and parameters; ``protocol``
    #: should then be ``"json-seats"``).
    model: str = TWO_PLAYER
    origin: str = field(default="arena", compare=False)

    # -- the parts, loaded on first use ----------------------------------------------------------

    def rules_object(self) -> Game[Any, Any]:
        """The game's (stateless, shared) rules object; GameError for a game of the general model
        (see :meth:`table`)."""
        if self.model == GENERAL:
            raise GameError(f"{self.name} is a game of {self._seats()} players: arena match (with --players N), "
                            "tournaments (arena run, with \"players\" in the config), arena sprt (set for 2 players), "
                            "check-bot and the rules tools play it; opening books, arena's alpha-beta agent and the "
                            "learners need a two-player game")
        return _rules(self)

    def table(self, players: int | None = None, params: dict[str, int] | None = None) -> GeneralGame[Any, Any]:
        """The game in the general model, configured with ``players`` (None: its default) and
        ``params``: a GeneralGame's own instance, or a two-player game seen through
        :class:`arena.games.model.TwoPlayerGame` whose bots speak the N-seat envelope. GameError for
        players or parameters it refuses."""
        from arena.games.model import GeneralGame, TwoPlayerGame

        if self.model != GENERAL:
            if players not in (None, 2):
                raise GameError(f"{self.name} is a game of 2 players, not {players}")
            if params:
                raise GameError(f"{self.name} has no parameters (got {', '.join(sorted(params))})")
            return TwoPlayerGame(_rules(self), seat_envelope=True)
        factory = load_ref(self.rules)
        if not (isinstance(factory, type) and issubclass(factory, GeneralGame)):
            raise GameError(f"game {self.name!r}: {self.rules} is not an arena.games.model.GeneralGame class")
        game = factory(players, **(params or {}))
        if game.name != self.name:
            raise GameError(f"game {self.name!r}: its rules object is named {game.name!r}")
        return game

    def player_bounds(self) -> tuple[int, int]:
        """The fewest and the most players the game takes (2 and 2 for a two-player game)."""
        if self.model != GENERAL:
            return 2, 2
        factory = load_ref(self.rules)
        return getattr(factory, "min_players", 2), getattr(factory, "max_players", 2)

    def _seats(self) -> str:
        low, high = self.player_bounds()
        return str(low) if low == high else f"{low} to {high}"

    def protocol_name(self) -> str:
        """The protocol's name as ``arena games`` shows it: a dialect's name, or a plugin protocol
        class's ``name``."""
        if self.protocol in DIALECTS:
            return self.protocol
        try:
            return str(load_ref(self.protocol).name)
        except (GameError, AttributeError):
            return self.protocol


_rules_cache: dict[str, Game[Any, Any]] = {}


def spec_of(game_class: type[Game[Any, Any] | GeneralGame[Any, Any]], title: str, **fields: Any) -> GameSpec:
    """The registry line of the game whose rules class is ``game_class``: its ``name``, ``rules``
    reference (``"module:Class"``) and move cap read from the class; a class of the general model
    (not a :class:`Game`) speaks the N-seat envelope. ``fields`` give the rest, and may override."""
    own: dict[str, Any] = {"name": game_class.name, "rules": f"{game_class.__module__}:{game_class.__qualname__}",
                           "default_max_moves": game_class.default_max_moves}
    if not issubclass(game_class, Game):
        own.update(protocol="json-seats", model=GENERAL)
    return GameSpec(**{**own, "title": title, **fields})


def _rules(spec: GameSpec) -> Game[Any, Any]:
    game = _rules_cache.get(spec.name)
    if game is None:
        factory = load_ref(spec.rules)
        try:
            game = factory()
        except Exception as exc:  # noqa: BLE001 - a plugin's bug: one line naming it, not a traceback
            raise GameError(f"game {spec.name!r}: could not create its rules ({spec.rules}): {exc}") from None
        if not isinstance(game, Game):
            raise GameError(f"game {spec.name!r}: {spec.rules} did not give an arena.games.base.Game")
        if game.name != spec.name:
            raise GameError(f"game {spec.name!r}: its rules object is named {game.name!r}")
        _rules_cache[spec.name] = game
    return game


def own_part(name: str, module: str, attr: str) -> str | None:
    """``"module:attr"`` when ``name`` is one of arena's own games (:data:`BUILTIN_GAMES`) and
    ``module`` exists, else None; nothing is imported. How a layer above finds its part of one of
    arena's games: its table is its folder (``arena/agents/eval_<game>.py``, ``arena/ui/views/<game>.py``)."""
    if name not in BUILTIN_GAMES:
        return None
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        found = None
    return f"{module}:{attr}" if found is not None else None


def load_ref(ref: str) -> Any:
    """The object a ``"package.module:attr.path"`` reference names; GameError saying what failed."""
    module_name, _, attr_path = ref.partition(":")
    if not module_name or not attr_path:
        raise GameError(f"bad reference {ref!r}: expected 'module:attribute'")
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - ImportError, or the module's own failure
        raise GameError(f"cannot import {module_name} (for {ref}): {type(exc).__name__}: {exc}") from None
    for part in attr_path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise GameError(f"{module_name} has no attribute {attr_path!r} (for {ref})") from None
    return obj


# -- the registry ----------------------------------------------------------------------------------


@dataclass
class _Registry:
    specs: dict[str, GameSpec] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)  # game or plugin -> why it is unusable
    loaded: bool = False
    provided: dict[str, GameSpec] = field(default_factory=dict)  # "prefix:name" games asked for so far


_registry = _Registry()


def _check_spec(spec: Any, where: str) -> GameSpec:
    if callable(spec) and not isinstance(spec, GameSpec):
        spec = spec()
    if not isinstance(spec, GameSpec):
        raise GameError(f"{where} is not an arena.games.registry.GameSpec")
    if not NAME_PATTERN.match(spec.name):
        raise GameError(f"{where}: game name {spec.name!r} must be 1-32 of a-z, 0-9, _ (starting with a letter)")
    if type(spec.default_max_moves) is not int or spec.default_max_moves < 1:
        raise GameError(f"{where}: default_max_moves must be a positive integer")
    if spec.model not in (TWO_PLAYER, GENERAL):
        raise GameError(f"{where}: model must be {TWO_PLAYER!r} or {GENERAL!r}, got {spec.model!r}")
    return spec


def _load_builtin(name: str) -> None:
    """Load arena's own game ``name`` into the registry (once), recording a failure as a problem."""
    if name in _registry.specs or name in _registry.problems:
        return
    ref = BUILTIN_GAMES[name]
    try:
        _registry.specs[name] = _check_spec(load_ref(ref), ref)
    except GameError as exc:
        _registry.problems[name] = str(exc)


def _load() -> _Registry:
    if _registry.loaded:
        return _registry
    _registry.loaded = True
    for name in BUILTIN_GAMES:
        _load_builtin(name)
    # arena's own games first, in BUILTIN_GAMES order, whatever order they were first asked for in.
    own = {name: _registry.specs[name] for name in BUILTIN_GAMES if name in _registry.specs}
    _registry.specs = {**own, **_registry.specs}
    for entry in _entry_points():
        where = f"plugin {entry.name!r} ({entry.value}"
        dist = getattr(getattr(entry, "dist", None), "name", None)
        where += f", from {dist})" if dist else ")"
        if entry.name in _registry.specs:
            _registry.problems[f"{entry.name} ({dist or entry.value})"] = (
                f"{where}: a game named {entry.name!r} is already registered ({_registry.specs[entry.name].origin})")
            continue
        try:
            spec = _check_spec(entry.load(), where)
        except GameError as exc:
            _registry.problems[entry.name] = str(exc)
            continue
        except Exception as exc:  # noqa: BLE001 - the plugin's import failed in its own way
            _registry.problems[entry.name] = f"{where}: cannot load: {type(exc).__name__}: {exc}"
            continue
        if spec.name != entry.name:
            _registry.problems[entry.name] = f"{where}: its GameSpec is named {spec.name!r}"
            continue
        _registry.specs[spec.name] = _with_origin(spec, dist or entry.value)
    return _registry


def _with_origin(spec: GameSpec, origin: str) -> GameSpec:
    from dataclasses import replace

    return replace(spec, origin=origin)


def _entry_points() -> list[Any]:
    # importlib.metadata costs ~30 ms to import: only paid by commands that need the game list.
    from importlib.metadata import entry_points

    try:
        return list(entry_points(group=ENTRY_POINT_GROUP))
    except Exception:  # noqa: BLE001 - a broken installation's metadata must not stop arena's own games
        return []


def game_names() -> tuple[str, ...]:
    """The names of every usable two-player game (those :func:`get_game` gives): arena's own first,
    then plugins in discovery order."""
    return tuple(name for name, spec in _load().specs.items() if spec.model != GENERAL)


def table_game_names() -> tuple[str, ...]:
    """The names of the usable games of the general model (N seats, chance, hidden information)."""
    return tuple(name for name, spec in _load().specs.items() if spec.model == GENERAL)


def all_game_names() -> tuple[str, ...]:
    """Every usable game's name, of either model."""
    return tuple(_load().specs)


def all_specs() -> tuple[GameSpec, ...]:
    return tuple(_load().specs.values())


def problems() -> dict[str, str]:
    """Games and plugins that could not be loaded, with the reason (one line each)."""
    return dict(_load().problems)


def get_spec(name: str) -> GameSpec:
    """The spec of game ``name``; GameError naming the known games (or why ``name`` failed)."""
    prefix, colon, rest = name.partition(":")
    if colon and prefix in PROVIDERS:
        return _provided_spec(name, prefix, rest)
    if not _registry.loaded and name in BUILTIN_GAMES:
        # One of arena's own: import just its module. Plugins (importlib.metadata, ~30 ms) are
        # scanned only when a listing or an unknown name needs them.
        _load_builtin(name)
        if name in _registry.specs:
            return _registry.specs[name]
    registry = _load()
    spec = registry.specs.get(name)
    if spec is not None:
        return spec
    if name in registry.problems:
        raise GameError(f"game {name!r} cannot be used: {registry.problems[name]}")
    raise GameError(f"unknown game {name!r}: expected one of {', '.join(registry.specs)} (see 'arena games')")


def _provided_spec(name: str, prefix: str, rest: str) -> GameSpec:
    spec = _registry.provided.get(name)
    if spec is None:
        if not PROVIDED_NAME_PATTERN.match(name):
            raise GameError(f"bad game name {name!r}: expected {prefix}:NAME, NAME of a-z, 0-9, _")
        spec = load_ref(f"{PROVIDERS[prefix]}:spec")(rest)
        if not isinstance(spec, GameSpec) or spec.name != name:
            raise GameError(f"{PROVIDERS[prefix]}.spec({rest!r}) did not give the GameSpec of {name!r}")
        _registry.provided[name] = spec
    return spec


def provided_games() -> dict[str, tuple[tuple[str, ...], str | None]]:
    """For each prefix of :data:`PROVIDERS`: the full names of its games and None, or no names and
    why (one line: the library to install). Imports each provider's library (tens of ms)."""
    listing: dict[str, tuple[tuple[str, ...], str | None]] = {}
    for prefix, module in PROVIDERS.items():
        try:
            listing[prefix] = (tuple(load_ref(f"{module}:names")()), None)
        except GameError as exc:
            listing[prefix] = ((), str(exc))
    return listing


def get_game(name: str) -> Game[Any, Any]:
    """The rules object of the two-player game ``name``; GameError for an unknown or broken game,
    or one of the general model (see :func:`get_table_game`)."""
    return get_spec(name).rules_object()


def get_table_game(name: str, players: int | None = None, params: dict[str, int] | None = None) -> GeneralGame[Any, Any]:
    """Game ``name`` in the general model, with ``players`` and ``params`` (see :meth:`GameSpec.table`)."""
    return get_spec(name).table(players, params)


def configured_game(name: str, players: int | None = None,
                    params: dict[str, int] | None = None) -> GeneralGame[Any, Any]:
    """Game ``name`` as a match plays it, in the general model: a two-player game speaking its own
    wire dialect (format-2 records) when neither ``players`` nor ``params`` is given, else the game
    configured (:meth:`GameSpec.table`: the N-seat envelope, format-3 records). The one place where
    a two-player game becomes a :class:`GeneralGame` for the layers above the rules. GameError for
    players or parameters it refuses."""
    from arena.games.model import as_general

    spec = get_spec(name)
    if spec.model == GENERAL or players is not None or params:
        return spec.table(players, params)
    return as_general(spec.rules_object())


def reload() -> None:
    """Forget every loaded game and plugin: the next lookup scans the entry points again (after
    installing a plugin in a running interpreter, and in tests)."""
    global _registry
    _registry = _Registry()
    _rules_cache.clear()


def register(spec: GameSpec) -> None:
    """Add ``spec`` for this process (tests, notebooks); replaces a game of the same name."""
    _load().specs[_check_spec(spec, f"game {getattr(spec, 'name', spec)!r}").name] = spec
    _rules_cache.pop(spec.name, None)


def unregister(name: str) -> None:
    """Remove a game added by :func:`register` (tests)."""
    _load().specs.pop(name, None)
    _rules_cache.pop(name, None)


__all__ = [
    "BUILTIN_GAMES",
    "DEFAULT_CONFIG_GAME",
    "DEFAULT_MATCH_GAME",
    "DIALECTS",
    "ENTRY_POINT_GROUP",
    "GENERAL",
    "JSON_PASS_THROUGH_GAME",
    "PROVIDERS",
    "TWO_PLAYER",
    "GameSpec",
    "all_game_names",
    "all_specs",
    "game_names",
    "get_game",
    "get_spec",
    "get_table_game",
    "load_ref",
    "own_part",
    "problems",
    "provided_games",
    "register",
    "reload",
    "spec_of",
    "table_game_names",
    "unregister",
]
