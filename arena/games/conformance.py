"""The conformance check every game passes: arena's own and plugins alike (standard library only).

A plugin author runs it on their game before publishing it::

    from arena.games.conformance import check_spec
    from my_game import SPEC
    print(check_spec(SPEC).summary())      # raises ConformanceError (an AssertionError) on a fault

or, for games already registered (arena's own and installed plugins)::

    python -m arena.games.conformance [GAME ...] [--games N] [--seed N] [--rules CMD]
        [--players N ...] [--param NAME=VALUE ...]

:func:`check_game` plays ``games`` uniformly random games (OpenSpiel's habit) from the initial
state, each up to ``ply_cap`` plies, and checks at every ply that

- the ply counter starts at 0 and counts plies, Black moves first and the sides alternate;
- a state is terminal (``outcome`` not None) exactly when it has no legal moves; a finished game
  ended by ``WIN`` or ``NO_LEGAL_MOVES`` with a winner (the stuck side loses), or by ``DRAW``
  with none; ``legal_moves`` repeats no move and gives the same list twice;
- the state's JSON form is ``{"board", "turn", "turnNumber"}`` agreeing with ``to_move``/``ply``,
  survives a trip through JSON text, and ``state_from_json`` gives the same state back;
- the chosen move (uniformly random among the legal ones) passes ``validate_move``, its wire form
  is JSON and ``parse_move`` reads it back, ``play_wire`` agrees with ``apply``, its record form is
  JSON, and ``parse_notation(describe_move(move), state)`` gives it back;
- ``apply`` never modifies its input;

and, once per game, that ``board_text`` is a string and the SVG picture (when given) is XML with
an ``<svg>`` root, plus, once, that ``state_from_json`` rejects broken objects with
:class:`~arena.games.base.StateError` and nothing else.

:func:`check_spec` checks a :class:`~arena.games.registry.GameSpec` as the registry will use it
(every ``"module:attr"`` reference resolves, the rules' name is the spec's), runs
:func:`check_game` with the spec's move cap and SVG function, and cross-checks the search adapter,
if any, against the rules on the states of a few random games.

A fault raises :class:`ConformanceError` (an ``AssertionError``, so pytest shows it as a failed
test) whose one-line message names the game, the game number, the ply, the check and the state.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal
from xml.etree import ElementTree

from arena.games import registry
from arena.games.base import ArenaError, Color, Game, GameError, StateError, Termination, cap_text
from arena.games.registry import NAME_PATTERN, GameSpec, load_ref

#: The seed :func:`check_game` uses unless told otherwise: the same games on every run.
DEFAULT_SEED = 20261121
#: Games played when the caller does not say: enough to meet most rules on small games.
DEFAULT_GAMES = 200
#: Move cap used when neither the caller nor the game says one.
FALLBACK_PLY_CAP = 500
#: When no game ends within the cap, one more is played on for up to this many times the cap.
PLAY_ON_FACTOR = 50

# Termination.DRAW is optional so the check keeps working on an arena without draws.
_DRAW: Termination | None = getattr(Termination, "DRAW", None)

SvgFunction = Callable[..., str]


class ConformanceError(AssertionError):
    """A game broke the forward-model contract; the message says where and how (one line)."""


@dataclass(frozen=True)
class ConformanceReport:
    """What :func:`check_game` (or :func:`check_spec`) played, all checks having passed.

    ``endings`` counts games by how they ended: a :class:`Termination` value (``"win"``,
    ``"no_legal_moves"``, ``"draw"``) or ``"cap"`` for a game stopped at ``ply_cap``.
    ``played_on``: when no game ended within the cap, how the one game played on past it ended
    (``"win after 231 plies"``), else ``""``. ``adapter_states``: the number of states the search
    adapter was compared on (0: none).
    """

    game: str
    games: int
    plies: int
    ply_cap: int
    seed: int
    endings: Mapping[str, int] = field(default_factory=dict)
    played_on: str = ""
    adapter_states: int = 0

    def summary(self) -> str:
        """One line, e.g. ``tictactoe: ok, 200 random games (cap 9), 1,523 plies: draw 26, win 174``."""
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        text = f"{self.game}: ok, {self.games} random games (cap {self.ply_cap}), {self.plies:,} plies: {ends}"
        if self.played_on:
            text += f"; one game played past the cap: {self.played_on}"
        if self.adapter_states:
            text += f"; search adapter agrees on {self.adapter_states:,} states"
        return text


class _Context:
    """Where the check is (game, ply, step, state), so every failure message can say it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.where = ""
        self.state_json: Any = None

    def fail(self, message: str) -> ConformanceError:
        text = f"{self.name}: {self.where + ': ' if self.where else ''}{message}"
        if self.state_json is not None:
            text += f" (state {_show(self.state_json, 300)})"
        return ConformanceError(text)

    def step(self, what: str) -> _Step:
        """A ``with`` block turning an unexpected exception into a ConformanceError naming ``what``."""
        return _Step(self, what)


class _Step:
    # A class rather than @contextmanager: it is entered ~20 times per ply.
    __slots__ = ("ctx", "what")

    def __init__(self, ctx: _Context, what: str) -> None:
        self.ctx, self.what = ctx, what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if exc is None or isinstance(exc, ConformanceError) or not isinstance(exc, Exception):
            return False
        raise self.ctx.fail(f"{self.what} raised {type(exc).__name__}: {cap_text(str(exc), 200)}") from exc


def _show(value: Any, limit: int = 120) -> str:
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return cap_text(text, limit)


def _json_trip(value: Any) -> Any:
    """``value`` after a trip through JSON text (what a record file or a bot's pipe does to it)."""
    return json.loads(json.dumps(value))


def check_game(
    game: Game[Any, Any],
    *,
    games: int = DEFAULT_GAMES,
    ply_cap: int | None = None,
    seed: int = DEFAULT_SEED,
    svg: SvgFunction | None = None,
) -> ConformanceReport:
    """Play ``games`` random games of ``game`` checking the forward-model contract (module docstring).

    ``ply_cap``: plies per game at most (default: the game's ``default_max_moves``). ``svg``: the
    spec's ``board_svg(state, last_move=None)``, checked to give XML when given. Deterministic for
    a given ``seed``. Returns the :class:`ConformanceReport`; raises :class:`ConformanceError`.
    """
    name = str(getattr(game, "name", type(game).__name__))
    ctx = _Context(name)
    if not isinstance(game, Game):
        raise ctx.fail(f"{type(game).__name__} is not an arena.games.base.Game")
    if ply_cap is None:
        declared = getattr(game, "default_max_moves", None)
        ply_cap = declared if type(declared) is int and declared > 0 else FALLBACK_PLY_CAP
    if games < 0 or ply_cap < 1:
        raise ValueError("games must be >= 0 and ply_cap >= 1")
    rng = random.Random(seed)
    endings: dict[str, int] = {}
    plies = 0
    with ctx.step("initial_state()"):
        start = game.initial_state()
    _check_broken_states(game, start, ctx)
    _check_all_moves(game, start, ctx)
    for index in range(games):
        ending, played = _playout(game, start, ply_cap, rng, ctx, index, svg)
        endings[ending] = endings.get(ending, 0) + 1
        plies += played
    played_on = ""
    if games and endings.get("cap", 0) == games:
        # Long games (random Shobu lasts ~230 plies) may never end under a match cap: play one
        # game on to its end, checking only its final state, so the ending is checked all the same.
        played_on = _play_to_end(game, start, ply_cap * PLAY_ON_FACTOR, rng, ctx)
    return ConformanceReport(game=name, games=games, plies=plies, ply_cap=ply_cap, seed=seed,
                             endings=endings, played_on=played_on)


def _play_to_end(game: Game[Any, Any], start: Any, limit: int, rng: random.Random, ctx: _Context) -> str:
    """Random moves from ``start`` until the game ends (at most ``limit`` plies); check that end."""
    ctx.where, ctx.state_json = "a game played past the cap", None
    state, ply = start, 0
    with ctx.step("outcome/legal_moves/apply"):
        while ply < limit and game.outcome(state) is None:
            moves = game.legal_moves(state)
            if not moves:
                break  # reported by the checks below
            state = game.apply(state, moves[rng.randrange(len(moves))])
            ply += 1
        ctx.where = f"a game played past the cap, ply {ply}"
        snapshot = game.state_to_json(state)
        ctx.state_json = snapshot
        outcome, moves = game.outcome(state), game.legal_moves(state)
    _check_state(game, state, snapshot, ply, ctx)
    if outcome is None:
        if not moves:
            raise ctx.fail("outcome() is None but there are no legal moves: the state must be terminal")
        ctx.state_json = None
        raise ctx.fail(f"no random game ended by the rules, even one played on for {limit} plies: check outcome()")
    _check_outcome(game, state, outcome, moves, ctx)
    return f"{outcome.termination.value} after {ply} plies"


def _playout(game: Game[Any, Any], start: Any, ply_cap: int, rng: random.Random, ctx: _Context,
             index: int, svg: SvgFunction | None) -> tuple[str, int]:
    """One random game; returns (how it ended, plies played).

    The state reached by the capping ply is checked like any other: a game the rules end on that
    ply (a win or a full board) ended by the rules, as in a match.
    """
    state, last_move, ending = start, None, "cap"
    ply = 0
    while True:
        ctx.where, ctx.state_json = f"game {index}, ply {ply}", None
        with ctx.step("state_to_json(state)"):
            snapshot = game.state_to_json(state)
        ctx.state_json = snapshot
        _check_state(game, state, snapshot, ply, ctx)
        with ctx.step("outcome(state)"):
            outcome = game.outcome(state)
        with ctx.step("legal_moves(state)"):
            moves = game.legal_moves(state)
        if outcome is not None:
            _check_outcome(game, state, outcome, moves, ctx)
            ending = outcome.termination.value
            break
        if not isinstance(moves, list) or not moves:
            raise ctx.fail(f"outcome() is None but legal_moves() gave {_show(moves)}: "
                           "a state with no legal moves must be terminal")
        if ply == ply_cap:
            break
        if index == 0:  # once per ply of the first game: cheap insurance for search and replays
            with ctx.step("legal_moves(state) again"):
                if game.legal_moves(state) != moves:
                    raise ctx.fail("legal_moves() gave a different list for the same state")
        with ctx.step("hashing the legal moves"):
            if len(set(moves)) != len(moves):
                raise ctx.fail("legal_moves() repeats a move")
        move = moves[rng.randrange(len(moves))]
        nxt = _check_move(game, state, snapshot, move, ctx)
        with ctx.step("to_move/ply of the next state"):
            if game.to_move(nxt) is not game.to_move(state).other:
                raise ctx.fail(f"after {game.describe_move(move)!r} the same side is to move again")
        state, last_move = nxt, move
        ply += 1
    ctx.where = f"game {index}, final state"
    _check_pictures(game, state, last_move, svg, ctx)
    return ending, ply


def _check_state(game: Game[Any, Any], state: Any, snapshot: Any, ply: int, ctx: _Context) -> None:
    with ctx.step("to_move/ply"):
        mover, counter = game.to_move(state), game.ply(state)
    if ply == 0 and mover is not Color.BLACK:
        raise ctx.fail(f"the initial state has {mover} to move: Black moves first")
    if counter != ply:
        raise ctx.fail(f"ply(state) is {counter!r}, expected {ply} (the number of plies played)")
    with ctx.step("hash(state)"):
        hash(state)
    if not isinstance(snapshot, dict) or sorted(snapshot) != ["board", "turn", "turnNumber"]:
        raise ctx.fail('state_to_json() must give an object with exactly "board", "turn", "turnNumber"')
    if snapshot["turn"] != mover.value or snapshot["turnNumber"] != counter:
        raise ctx.fail(f"state_to_json() says turn {_show(snapshot['turn'])}, turnNumber "
                       f"{_show(snapshot['turnNumber'])} but to_move/ply say {mover.value}, {counter}")
    with ctx.step("json.dumps(state_to_json(state))"):
        text_form = _json_trip(snapshot)
    if text_form != snapshot:
        raise ctx.fail("state_to_json() changes in a trip through JSON text (tuples? non-string keys?)")
    with ctx.step("state_from_json(state_to_json(state))"):
        back = game.state_from_json(text_form)
    if back != state:  # with a deterministic state_to_json, the JSON of ``back`` is ``snapshot`` too
        raise ctx.fail("state_from_json(state_to_json(state)) is not the same state")


def _check_outcome(game: Game[Any, Any], state: Any, outcome: Any, moves: Any, ctx: _Context) -> None:
    mover = game.to_move(state)
    termination = getattr(outcome, "termination", None)
    winner = getattr(outcome, "winner", None)
    if moves != []:
        raise ctx.fail(f"the game is over ({_show(getattr(termination, 'value', termination))}) "
                       f"but legal_moves() gave {len(moves) if isinstance(moves, list) else _show(moves)} move(s)")
    if _DRAW is not None and termination is _DRAW:
        if winner is not None:
            raise ctx.fail(f"a draw has winner {_show(getattr(winner, 'value', winner))}: it must be None")
    elif termination is Termination.WIN:
        if not isinstance(winner, Color):
            raise ctx.fail(f"outcome WIN without a winner ({_show(winner)})")
    elif termination is Termination.NO_LEGAL_MOVES:
        if winner is not mover.other:
            raise ctx.fail(f"NO_LEGAL_MOVES with {mover.value} stuck must name {mover.other.value} the winner, "
                           f"got {_show(getattr(winner, 'value', winner))}")
    else:
        allowed = "WIN, NO_LEGAL_MOVES" + (", DRAW" if _DRAW is not None else "")
        raise ctx.fail(f"outcome() termination {_show(getattr(termination, 'value', termination))} "
                       f"is not one the rules give ({allowed})")
    with ctx.step("is_terminal(state)"):
        if not game.is_terminal(state):
            raise ctx.fail("is_terminal() is False for a finished game")


def _check_move(game: Game[Any, Any], state: Any, snapshot: Any, move: Any, ctx: _Context) -> Any:
    """Every per-move round trip for ``move`` (legal in ``state``); returns ``apply(state, move)``."""
    with ctx.step("describe_move(move)"):
        text = game.describe_move(move)
    if not isinstance(text, str) or not text:
        raise ctx.fail(f"describe_move({move!r}) gave {_show(text)}: expected a non-empty string")
    with ctx.step(f"validate_move(state, {text!r})"):
        if game.validate_move(state, move) != move:
            raise ctx.fail(f"validate_move(state, {text!r}) did not give the move back")
    with ctx.step(f"move_to_wire({text!r})"):
        wire = game.move_to_wire(move)
        wire_text = _json_trip(wire)
    with ctx.step(f"parse_move(move_to_wire({text!r}))"):
        parsed = game.parse_move(wire_text)
    if parsed != move:
        raise ctx.fail(f"parse_move(move_to_wire(m)) gave {parsed!r} for {text!r} (wire {_show(wire_text)})")
    with ctx.step(f"move_to_record({text!r})"):
        record_text = _json_trip(game.move_to_record(move))
    with ctx.step(f"move_from_record(move_to_record({text!r}))"):
        from_record = game.move_from_record(record_text)
    if from_record != move:
        raise ctx.fail(f"move_from_record(move_to_record(m)) gave {from_record!r} for {text!r}")
    parse_notation = getattr(game, "parse_notation", None)
    if parse_notation is not None:
        with ctx.step(f"parse_notation({text!r}, state)"):
            read = parse_notation(text, state)
        if read != move:
            raise ctx.fail(f"parse_notation({text!r}, state) gave {game.describe_move(read)!r}")
    with ctx.step(f"apply(state, {text!r})"):
        nxt = game.apply(state, move)
        if game.state_to_json(state) != snapshot:
            raise ctx.fail(f"apply(state, {text!r}) modified its input")
    with ctx.step(f"play_wire(state, move_to_wire({text!r}))"):
        played, after = game.play_wire(state, wire_text)
    if played != move or after != nxt:
        raise ctx.fail(f"play_wire(state, {_show(wire_text)}) disagrees with apply(state, {text!r})")
    with ctx.step("to_move/ply of the next state"):
        if game.ply(nxt) != game.ply(state) + 1:
            raise ctx.fail(f"after {text!r} the ply counter went from {game.ply(state)} to {game.ply(nxt)}")
    return nxt


def _check_all_moves(game: Game[Any, Any], start: Any, ctx: _Context) -> None:
    """Every legal move of the initial state through the round trips (random play samples one)."""
    ctx.where = "initial state, every legal move"
    with ctx.step("state_to_json / legal_moves of the initial state"):
        ctx.state_json = snapshot = game.state_to_json(start)
        moves = game.legal_moves(start)
    for move in moves:
        _check_move(game, start, snapshot, move, ctx)


def _broken_states(snapshot: dict[str, Any]) -> list[tuple[str, Any]]:
    def but(**changes: Any) -> dict[str, Any]:
        return {**snapshot, **changes}

    without_board = {k: v for k, v in snapshot.items() if k != "board"}
    return [
        ("null", None),
        ("a list", [snapshot]),
        ("a string", json.dumps(snapshot)),
        ("an empty object", {}),
        ("no board", without_board),
        ("an extra key", but(extra=1)),
        ("board null", but(board=None)),
        ("board 12345", but(board=12345)),
        ("board true", but(board=True)),
        ('turn "RED"', but(turn="RED")),
        ('turn "black"', but(turn="black")),
        ("turn null", but(turn=None)),
        ("turnNumber -1", but(turnNumber=-1)),
        ("turnNumber 1.5", but(turnNumber=1.5)),
        ('turnNumber "0"', but(turnNumber="0")),
        ("turnNumber true", but(turnNumber=True)),
    ]


def _check_broken_states(game: Game[Any, Any], start: Any, ctx: _Context) -> None:
    """``state_from_json`` refuses generic broken objects with StateError, never another exception."""
    ctx.where = "state_from_json of a broken object"
    with ctx.step("state_to_json(initial state)"):
        snapshot = game.state_to_json(start)
    if not isinstance(snapshot, dict):
        raise ctx.fail(f"state_to_json() gave {_show(snapshot)}: expected an object")
    for label, broken in _broken_states(snapshot):
        try:
            game.state_from_json(broken)
        except StateError:
            continue
        except Exception as exc:
            raise ctx.fail(f"{label} ({_show(broken, 80)}) raised {type(exc).__name__}: "
                           f"{cap_text(str(exc), 100)}; it must raise StateError") from exc
        raise ctx.fail(f"{label} ({_show(broken, 80)}) was accepted; it must raise StateError")


def _check_pictures(game: Game[Any, Any], state: Any, last_move: Any, svg: SvgFunction | None,
                    ctx: _Context) -> None:
    with ctx.step("board_text(state)"):
        text = game.board_text(state)
    if not isinstance(text, str) or not text.strip():
        raise ctx.fail(f"board_text() gave {_show(text)}: expected non-empty text")
    if svg is None:
        return
    for move in (None, last_move):
        with ctx.step(f"board_svg(state, last_move={move!r})"):
            picture = svg(state, last_move=move)
        if not isinstance(picture, str):
            raise ctx.fail(f"board_svg() gave a {type(picture).__name__}, expected a str")
        try:
            root = ElementTree.fromstring(picture)
        except ElementTree.ParseError as exc:
            raise ctx.fail(f"board_svg() is not XML: {exc}") from None
        if root.tag.rpartition("}")[2] != "svg":
            raise ctx.fail(f"board_svg() root element is <{root.tag}>, expected <svg>")
        if "viewBox" not in root.attrib:
            raise ctx.fail("board_svg() has no viewBox (it must scale)")


# -- a GameSpec as the registry uses it ------------------------------------------------------------


def _ref(spec: GameSpec, what: str, ref: str, ctx: _Context) -> Any:
    try:
        return load_ref(ref)
    except GameError as exc:
        raise ctx.fail(f"spec.{what}: {exc}") from None


def check_spec(
    spec: GameSpec,
    *,
    games: int = DEFAULT_GAMES,
    ply_cap: int | None = None,
    seed: int = DEFAULT_SEED,
    adapter_games: int = 5,
) -> ConformanceReport:
    """Check ``spec`` as arena will use it, then its rules with :func:`check_game`.

    The spec: a valid name, a positive ``default_max_moves``, the rules object loads and bears the
    spec's name, and every reference (protocol and bot side, view, svg, search) imports. The rules:
    ``games`` random games capped at ``ply_cap`` (default ``spec.default_max_moves``), pictures with
    the spec's SVG function. The search adapter (if any): on the states of ``adapter_games`` random
    games, its moves are the rules' legal moves and its terminal verdicts the rules' outcomes.
    Raises :class:`ConformanceError`.
    """
    ctx = _Context(str(getattr(spec, "name", spec)))
    if not isinstance(spec, GameSpec):
        raise ctx.fail(f"{type(spec).__name__} is not an arena.games.registry.GameSpec")
    if not NAME_PATTERN.match(spec.name):
        raise ctx.fail("the name must be 1-32 of a-z, 0-9, _ (starting with a letter)")
    if type(spec.default_max_moves) is not int or spec.default_max_moves < 1:
        raise ctx.fail(f"default_max_moves must be a positive integer, got {_show(spec.default_max_moves)}")
    if not spec.title:
        raise ctx.fail("the title is empty")
    try:
        game = spec.rules_object()
    except GameError as exc:
        raise ctx.fail(f"spec.rules: {exc}") from None
    if game.name != spec.name:
        raise ctx.fail(f"the rules object is named {game.name!r}")
    arena_side, bot_side = spec.protocol_refs()
    _ref(spec, "protocol", arena_side, ctx)
    if bot_side is not None:
        _ref(spec, "bot_side", bot_side, ctx)
    elif spec.protocol == arena_side:
        raise ctx.fail(f"a custom protocol ({spec.protocol}) needs bot_side for arena's own agents")
    if spec.view is not None:
        _ref(spec, "view", spec.view, ctx)
    svg = _ref(spec, "svg", spec.svg, ctx) if spec.svg is not None else None
    if svg is not None and not callable(svg):
        raise ctx.fail(f"spec.svg: {spec.svg} is not callable")
    cap = spec.default_max_moves if ply_cap is None else ply_cap
    report = check_game(game, games=games, ply_cap=cap, seed=seed, svg=svg)
    if spec.search is not None:
        adapter_class = _ref(spec, "search", spec.search, ctx)
        checked = check_search_adapter(game, adapter_class, games=adapter_games, ply_cap=cap, seed=seed)
        report = dataclasses.replace(report, adapter_states=checked)
    return report


def check_search_adapter(game: Game[Any, Any], adapter_class: Any, *, games: int = 5,
                         ply_cap: int = FALLBACK_PLY_CAP, seed: int = DEFAULT_SEED) -> int:
    """Compare a search adapter with the rules on every state of ``games`` random games.

    Needs the adapter's bridges ``from_state`` and ``to_game_move`` (without them only
    ``DEFAULT_WEIGHTS`` and construction are checked). At each state: ``ply`` agrees, and while the
    game goes on the adapter's moves are the legal moves and ``terminal_score`` (when present) is
    None; at the end, a draw scores 0 and a win scores for the winner (or, without
    ``terminal_score``, the loser has no moves). Returns the number of states compared.
    """
    ctx = _Context(str(getattr(game, "name", "game")))
    ctx.where = "search adapter"
    weights = getattr(adapter_class, "DEFAULT_WEIGHTS", None)
    if not isinstance(weights, dict) or not all(isinstance(k, str) and type(v) is int for k, v in weights.items()):
        raise ctx.fail("DEFAULT_WEIGHTS must be a dict of str -> int")
    with ctx.step("adapter(DEFAULT_WEIGHTS)"):
        adapter = adapter_class(dict(weights))
    if not (hasattr(adapter, "from_state") and hasattr(adapter, "to_game_move")):
        return 0
    rng = random.Random(seed)
    compared = 0
    for index in range(games):
        state = game.initial_state()
        for ply in range(ply_cap + 1):
            ctx.where, ctx.state_json = f"search adapter, game {index}, ply {ply}", game.state_to_json(state)
            _compare_adapter(game, adapter, state, ctx)
            compared += 1
            moves = game.legal_moves(state)
            if not moves or ply == ply_cap:
                break
            state = game.apply(state, moves[rng.randrange(len(moves))])
    return compared


def _compare_adapter(game: Game[Any, Any], adapter: Any, state: Any, ctx: _Context) -> None:
    with ctx.step("from_state(state)"):
        pos = adapter.from_state(state)
    with ctx.step("adapter.ply / moves / terminal_score"):
        if adapter.ply(pos) != game.ply(state):
            raise ctx.fail(f"adapter ply {adapter.ply(pos)!r}, rules ply {game.ply(state)}")
        raw = adapter.moves(pos)
        score_of = getattr(adapter, "terminal_score", None)
        score = score_of(pos) if score_of is not None else None
        has_moves = adapter.has_moves(pos)
    outcome = game.outcome(state)
    if has_moves != bool(raw):
        raise ctx.fail(f"has_moves() is {has_moves} but moves() gave {len(raw)}")
    if outcome is None:
        if score is not None:
            raise ctx.fail(f"terminal_score() is {score!r} while the game goes on")
        with ctx.step("to_game_move(each adapter move)"):
            mine = Counter(adapter.to_game_move(m) for m in raw)
        legal = Counter(game.legal_moves(state))
        if mine != legal:
            extra = [game.describe_move(m) for m in mine - legal][:5]
            missing = [game.describe_move(m) for m in legal - mine][:5]
            raise ctx.fail(f"adapter moves differ from the legal moves: extra {extra}, missing {missing}")
        return
    mover = game.to_move(state)
    if _DRAW is not None and outcome.termination is _DRAW:
        if score != 0:
            raise ctx.fail(f"a drawn end needs terminal_score() == 0, got {score!r}")
    elif score is None:
        if raw:
            raise ctx.fail("the game is over but the adapter gives moves and no terminal_score()")
        if outcome.winner is not mover.other:
            raise ctx.fail("the side to move wins, but an adapter without moves scores it as a loss")
    elif (score > 0) != (outcome.winner is mover):
        raise ctx.fail(f"terminal_score() {score!r} (for the side to move) disagrees with winner "
                       f"{getattr(outcome.winner, 'value', None)}")


# -- command line ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.games.conformance [GAME ...]``: check registered games; exit 0, 1 or 2."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m arena.games.conformance",
                                     description="Check registered games against arena's forward-model contract.")
    parser.add_argument("names", nargs="*", metavar="GAME", help="games to check (default: every usable game)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"random games each (default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument("--rules", action="append", default=[], metavar="CMD",
                        help="a referee program (docs/referees.md): check its game (repeatable)")
    parser.add_argument("--players", action="append", type=int, default=[], metavar="N",
                        help="check games of N seats (repeatable; default 2, 3 and 4, those a game allows)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a game parameter (repeatable; default: the game's defaults)")
    args = parser.parse_args(argv)
    if args.games < 0:
        parser.error("--games must be >= 0")
    params: dict[str, int] = {}
    for text in args.param:
        key, equals, value = text.partition("=")
        try:
            params[key.strip()] = int(value)
        except ValueError:
            equals = ""
        if not equals or not key.strip():
            parser.error(f"--param {text!r}: expected NAME=INTEGER, e.g. heap=4")
    for command in args.rules:
        # By reference, as the registry loads every game's parts: the rules package stands on the
        # standard library alone, and a referee is played through arena.referee, a layer above it.
        register = registry.load_ref("arena.referee.registration:register_command")
        try:
            args.names.append(register(command).name)
        except (ArenaError, ValueError) as exc:  # the referee failed, or the command cannot be split
            print(f"error: --rules {command}: {exc}", file=sys.stderr)
            return 2
    status = 0
    for problem_name, reason in registry.problems().items():
        if not args.names or problem_name in args.names:
            print(f"{problem_name}: cannot load: {reason}", file=sys.stderr)
            status = 1
    for name in args.names or registry.all_game_names():
        try:
            spec = registry.get_spec(name)
        except GameError as exc:
            if name not in registry.problems():
                print(f"error: {exc}", file=sys.stderr)
                return 2
            continue
        try:
            if spec.model == registry.GENERAL or args.players or params:
                from arena.games.table_conformance import check_table_spec

                print(check_table_spec(spec, games=args.games, seed=args.seed, players=args.players, params=params))
            else:
                print(check_spec(spec, games=args.games, seed=args.seed).summary())
        except (ConformanceError, AssertionError) as exc:
            print(f"FAILED {exc}", file=sys.stderr)
            status = 1
        except GameError as exc:  # players or parameters the game refuses
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except ArenaError as exc:  # the referee failed: its one line
            print(f"FAILED {name}: {exc}", file=sys.stderr)
            status = 1
        except Exception as exc:  # noqa: BLE001 - a referee or plugin broke: one line, never a traceback
            print(f"FAILED {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
