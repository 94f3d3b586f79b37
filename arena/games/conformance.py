"""The conformance check every game passes, through the one game interface (standard library only).

Every game arena plays is a :class:`arena.games.model.GeneralGame`: arena's own (two-player games
through their two-seat adapter), plugins, OpenSpiel's and referees (``--rules``). A game author
runs the check before publishing::

    from arena.games.conformance import check_spec
    from my_game import SPEC
    print(check_spec(SPEC).summary())      # raises ConformanceError (an AssertionError) on a fault

or, for games already registered and for referee programs::

    python -m arena.games.conformance [GAME ...] [--games N] [--seed N] [--rules CMD]
        [--players N ...] [--param NAME=VALUE ...]

:func:`check_game` plays ``games`` random games from the start (OpenSpiel's habit: chance
outcomes drawn with their probabilities, every seat's move uniformly at random; in games of three
seats or more a seat is now and then taken out, where the game can), each up to ``ply_cap`` steps,
and checks at every step that

- who acts is a seat, CHANCE, SIMULTANEOUS or TERMINAL, and exactly the acting seats have legal
  moves (none repeated, the same list twice): a state with no legal moves is terminal, a finished
  game lists none; a seat node has one acting seat, a simultaneous node at least one;
- ``ply`` starts at 0 and counts the steps (moves, chance outcomes, joint moves; not eliminations);
- chance outcomes are distinct and their probabilities positive Fractions summing to exactly 1;
- the state's JSON form survives a trip through JSON text, ``state_from_json`` gives the same
  state back; a hashable state hashes; every seat's observation is a JSON object, the same when
  asked twice, and unchanged when only what the seat may not see changes (``hidden_variants``);
- each move played (and every legal move of the start): ``describe_move`` is text,
  ``validate_move`` gives it back, its wire form is JSON that ``parse_move`` reads back (and the
  move validated from the wire is the move), its record form is JSON that ``move_from_record``
  reads back, ``parse_notation`` reads its description back for the seat (what a person types); ``apply``
  and ``apply_joint`` never modify their input; ``eliminate`` (where the game has it) takes the
  seat out of the acting seats;
- at the end, ``returns`` has one finite number per seat and the board text is text (for every
  seat and for nobody; not blank in a game of the colour dialect); the game replays from its steps as a record holds them
  (:func:`arena.games.model.apply_step`) to the same states, with the same legal moves in the same
  order and the same hash (a referee asked again answers alike);
- a game with a hash of its own (a referee's ``hash``) tells states apart by it: one hash for every
  state fails;
- the optional requests a game offers answer as promised, at every step of the first game: the
  board text (not blank, for a referee with ``board``), the referee's SVG picture, ``determinize``
  (a state in which the seat sees exactly what it saw), ``playout`` (one returns vector of finite
  numbers per playout, and the game's returns from a finished game);
- a game of the colour dialect (``colour_dialect``: BLACK and WHITE taking turns in plain sight)
  keeps its envelope: Black moves first, the sides alternate, the state's JSON form is exactly
  ``{"board", "turn", "turnNumber"}`` agreeing with who acts and the ply, broken envelopes are
  refused; a game that describes its end (``outcome``) ends by ``WIN`` or ``NO_LEGAL_MOVES`` with
  a winner (the stuck side loses) or by ``DRAW`` with none;

and, once per configuration, that ``state_from_json`` refuses broken objects with
:class:`~arena.games.base.StateError` and nothing else. When no game ends within the cap, one more
is played on for up to :data:`PLAY_ON_FACTOR` times the cap and its end checked.

:func:`check_spec` checks a :class:`~arena.games.registry.GameSpec` as the registry will use it
(every ``"module:attr"`` reference resolves, the rules' name is the spec's), runs
:func:`check_game` for each player count (default 2, 3 and 4, those the game allows) with the
spec's move cap and SVG picture, and cross-checks the search adapter, if any, against the rules.

A fault raises :class:`ConformanceError` (an ``AssertionError``, so pytest shows it as a failed
test) whose one-line message names the game, the players, the game number, the step, the check and
the state.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from arena.games import registry
from arena.games.base import ArenaError, Color, GameError, Termination
from arena.games.conformance_parts import (
    ConformanceError,
    Context,
    Picture,
    check_alternation,
    check_broken_states,
    check_envelope,
    check_optional,
    check_pictures,
    json_trip,
    offers,
    show,
)
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, apply_step, draw_chance, random_step
from arena.games.registry import NAME_PATTERN, GameSpec, load_ref

#: The seed :func:`check_game` uses unless told otherwise: the same games on every run.
DEFAULT_SEED = 20261121
#: Games played (for each player count) when the caller does not say.
DEFAULT_GAMES = 200
#: When no game ends within the cap, one more is played on for up to this many times the cap.
PLAY_ON_FACTOR = 50


@dataclass(frozen=True)
class ConformanceReport:
    """What :func:`check_game` (or :func:`check_spec`) played, all checks having passed.

    ``endings`` counts games by how they ended: the game's termination (``"win"``,
    ``"no_legal_moves"``, ``"draw"``) where it describes its end, else ``"draw"`` (every seat's
    return equal) or ``"decided"``; ``"cap"`` for a game stopped at ``ply_cap``. ``played_on``:
    when no game ended within the cap, how the one game played on past it ended, else ``""``.
    ``adapter_states``: the number of states the search adapter was compared on (0: none).
    """

    game: str
    games: int
    plies: int
    ply_cap: int
    seed: int
    endings: Mapping[str, int] = field(default_factory=dict)
    played_on: str = ""
    adapter_states: int = 0
    players: tuple[int, ...] = (2,)

    def summary(self) -> str:
        """One line, e.g. ``nim: ok, 20 random games for each of [2, 3] players (cap 1000), 311
        steps: decided 40``."""
        ends = ", ".join(f"{k} {v}" for k, v in sorted(self.endings.items()))
        text = (f"{self.game}: ok, {self.games} random games for each of {list(self.players)} players "
                f"(cap {self.ply_cap}), {self.plies:,} steps: {ends}")
        if self.played_on:
            text += f"; one game played past the cap: {self.played_on}"
        if self.adapter_states:
            text += f"; search adapter agrees on {self.adapter_states:,} states"
        return text

    def merged(self, other: ConformanceReport) -> ConformanceReport:
        """This report and ``other`` (the same game with other players) as one."""
        endings = Counter(self.endings)
        endings.update(other.endings)
        return ConformanceReport(self.game, self.games, self.plies + other.plies, max(self.ply_cap, other.ply_cap),
                                 self.seed, dict(endings), "; ".join(filter(None, (self.played_on, other.played_on))),
                                 self.adapter_states + other.adapter_states, self.players + other.players)


def check_game(game: GeneralGame[Any, Any], *, games: int = DEFAULT_GAMES, ply_cap: int | None = None,
               seed: int = DEFAULT_SEED, svg: Picture | None = None) -> ConformanceReport:
    """Play ``games`` random games of the configured ``game`` checking its contract (module
    docstring). ``ply_cap``: steps per game at most (default: the game's ``default_max_moves``).
    ``svg``: a picture function (:data:`Picture`), checked to give an SVG document. Deterministic
    for a given ``seed``. Returns the :class:`ConformanceReport`; raises :class:`ConformanceError`."""
    name = str(getattr(game, "name", type(game).__name__))
    ctx = Context(name)
    if not isinstance(game, GeneralGame):
        raise ctx.fail(f"{type(game).__name__} is not an arena.games.model.GeneralGame")
    ctx.name = f"{name} ({game.players} players)"
    cap = game.default_max_moves if ply_cap is None else ply_cap
    if games < 0 or cap < 1:
        raise ValueError("games must be >= 0 and ply_cap >= 1")
    rng = random.Random(seed + game.players)
    with ctx.step("initial_state()"):
        start = game.initial_state()
    check_broken_states(game, start, ctx)
    _check_start_moves(game, start, ctx)
    endings: dict[str, int] = {}
    steps, hashes = 0, set[int]()
    for index in range(games):
        ending, played = _playout(game, start, cap, rng, ctx, index, hashes, svg)
        endings[ending] = endings.get(ending, 0) + 1
        steps += played
    ctx.where, ctx.state_json = "", None
    if len(hashes) == 1 and offers(game, "hash") and _distinct_states(game, rng) > 1:
        raise ctx.fail("every state has the same hash(state) (a referee's `hash` must tell positions apart)")
    played_on = ""
    if games and endings.get("cap", 0) == games:
        # Long games (random Shobu lasts ~230 plies) may never end under a match cap: play one
        # on to its end, checking its final state, so that the ending is checked all the same.
        played_on = _play_to_end(game, start, cap * PLAY_ON_FACTOR, rng, ctx)
    return ConformanceReport(game=name, games=games, plies=steps, ply_cap=cap, seed=seed, endings=endings,
                             played_on=played_on, players=(game.players,))


def _playout(game: GeneralGame[Any, Any], start: Any, cap: int, rng: random.Random, ctx: Context, index: int,
             hashes: set[int], svg: Picture | None) -> tuple[str, int]:
    """One random game, checked step by step (the optional requests at every step of game 0);
    ``hashes`` gathers every ``hash(state)``. Returns (how it ended, steps played)."""
    state, last_move, last_actor, ply = start, None, -1, 0
    steps: list[dict[str, Any]] = []
    states: list[Any] = []
    seen: list[tuple[int, list[list[str]]]] = []
    ending = "cap"
    for number in range(cap + 1):
        ctx.where, ctx.state_json = f"game {index}, step {number}", None
        snapshot = _check_state(game, state, ply, ctx)
        states.append(snapshot)
        seen.append((_hash(game, state, ctx), _legal_lists(game, state)))
        hashes.add(seen[-1][0])
        who = game.actor(state)
        if index == 0 or who == TERMINAL:
            check_optional(game, state, rng, ctx)
        if who == TERMINAL:
            ending = _check_end(game, state, snapshot, last_actor, ctx)
            break
        if number == cap:
            break
        step, last_move, state = _random_step(game, state, who, snapshot, rng, ctx)
        steps.append(step)
        last_actor, ply = who, ply + (step["kind"] != "elimination")
    ctx.where = f"game {index}, final state"
    check_pictures(game, state, last_move, svg, ctx)
    _check_replay(game, states, steps, seen, ctx)
    return ending, len(steps)


def _random_step(game: GeneralGame[Any, Any], state: Any, who: int, snapshot: Any, rng: random.Random,
                 ctx: Context) -> tuple[dict[str, Any], Any, Any]:
    """A random step from ``state``: (the step as a record holds it, the move or None, the next state)."""
    if who == CHANCE:
        with ctx.step("chance_outcomes/apply"):
            outcome = draw_chance(game.chance_outcomes(state), rng)
            after = game.apply(state, outcome)
        _unchanged(game, state, snapshot, "apply(state, a chance outcome)", ctx)
        return {"kind": "chance", "outcome": _record_form(game, outcome, ctx)}, None, after
    if who == SIMULTANEOUS:
        joint = {seat: rng.choice(game.legal_moves(state, seat)) for seat in game.acting_seats(state)}
        for seat, move in joint.items():
            _check_move(game, state, seat, move, ctx)
        with ctx.step("apply_joint(state, moves)"):
            after = game.apply_joint(state, joint)
        _unchanged(game, state, snapshot, "apply_joint(state, moves)", ctx)
        moves = {str(s): _record_form(game, m, ctx) for s, m in joint.items()}
        return {"kind": "joint", "moves": moves}, None, after
    move = rng.choice(game.legal_moves(state, who))
    after = _check_move(game, state, who, move, ctx)
    if game.colour_dialect:
        check_alternation(game, snapshot, after, move, ctx)
    if rng.random() < 0.02 and game.players > 2:
        with ctx.step(f"eliminate(state, {who})"):
            out = game.eliminate(state, who)
        if out is not None:
            if who in game.acting_seats(out):
                raise ctx.fail(f"seat {who} still acts after eliminate()")
            return {"kind": "elimination", "seat": who}, None, out
    return {"kind": "move", "seat": who, "move": _record_form(game, move, ctx)}, move, after


def _record_form(game: GeneralGame[Any, Any], move: Any, ctx: Context) -> Any:
    with ctx.step("move_to_record(move)"):
        return json_trip(game.move_to_record(move))


def _unchanged(game: GeneralGame[Any, Any], state: Any, snapshot: Any, what: str, ctx: Context) -> None:
    if game.state_to_json(state) != snapshot:
        raise ctx.fail(f"{what} modified its input")


def _check_state(game: GeneralGame[Any, Any], state: Any, number: int, ctx: Context) -> Any:
    """Every check of one state (module docstring), ``number`` steps (eliminations aside) from the
    start; returns its JSON form."""
    with ctx.step("state_to_json(state)"):
        snapshot = game.state_to_json(state)
    ctx.state_json = snapshot
    with ctx.step("actor/acting_seats/legal_moves/observation"):
        who, acting = game.actor(state), game.acting_seats(state)
        if not (who in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= who < game.players):
            raise ctx.fail(f"actor {who!r} is not a seat, CHANCE, SIMULTANEOUS or TERMINAL")
        for seat in range(game.players):
            _check_seat(game, state, seat, acting, ctx)
    if who >= 0 and acting != (who,):
        raise ctx.fail(f"seat {who} acts, but the acting seats are {list(acting)}")
    if who == SIMULTANEOUS and not acting:
        raise ctx.fail("a simultaneous node with no acting seat")
    if who == CHANCE:
        _check_chance(game, state, ctx)
    with ctx.step("ply(state)"):
        counter = game.ply(state)
    if counter != number:
        raise ctx.fail(f"ply(state) is {counter!r}, expected {number} (the steps played, eliminations aside)")
    if game.colour_dialect:
        check_envelope(game, snapshot, who, number, ctx)
    if json_trip(snapshot) != snapshot:
        raise ctx.fail("state_to_json() changes in a trip through JSON text (tuples? non-string keys?)")
    with ctx.step("state_from_json(state_to_json(state))"):
        back = game.state_from_json(json_trip(snapshot))
        again = game.state_to_json(back)
    if again != snapshot or back != state:
        raise ctx.fail("state_from_json(state_to_json(state)) is not the same state")
    return snapshot


def _check_seat(game: GeneralGame[Any, Any], state: Any, seat: int, acting: tuple[int, ...], ctx: Context) -> None:
    moves = game.legal_moves(state, seat)
    if not isinstance(moves, list):
        raise ctx.fail(f"legal_moves(state, {seat}) gave {show(moves)}: expected a list")
    if (seat in acting) != bool(moves):
        if seat in acting:
            raise ctx.fail(f"seat {seat} acts but has no legal moves (acting seats {list(acting)}): "
                           "a state with no legal moves must be terminal")
        raise ctx.fail(f"seat {seat} does not act (acting seats {list(acting)}) but legal_moves() gave "
                       f"{len(moves)} move(s)")
    if len(set(map(repr, moves))) != len(moves):
        raise ctx.fail(f"legal_moves(state, {seat}) repeats a move")
    if list(map(repr, game.legal_moves(state, seat))) != list(map(repr, moves)):
        raise ctx.fail(f"legal_moves(state, {seat}) gave a different list for the same state")
    observation = game.observation(state, seat)
    if not isinstance(observation, dict) or json_trip(observation) != observation \
            or game.observation(state, seat) != observation:
        raise ctx.fail(f"seat {seat}'s observation is not a stable JSON object")
    for variant in game.hidden_variants(state, seat):
        if game.observation(variant, seat) != observation:
            raise ctx.fail(f"seat {seat}'s observation changes with what it may not see")


def _check_chance(game: GeneralGame[Any, Any], state: Any, ctx: Context) -> None:
    with ctx.step("chance_outcomes(state)"):
        outcomes = game.chance_outcomes(state)
    if not outcomes or len({repr(o) for o, _ in outcomes}) != len(outcomes):
        raise ctx.fail("chance outcomes are missing or repeated")
    if any(not isinstance(p, Fraction) or p <= 0 for _, p in outcomes) or sum(p for _, p in outcomes) != 1:
        raise ctx.fail(f"chance probabilities must be positive Fractions summing to 1, got "
                       f"{[str(p) for _, p in outcomes]}")


def _check_move(game: GeneralGame[Any, Any], state: Any, seat: int, move: Any, ctx: Context) -> Any:
    """Every per-move round trip for ``seat``'s legal ``move`` in ``state``; returns ``apply(state,
    move)`` (for a seat's node)."""
    with ctx.step("describe_move(move)"):
        text = game.describe_move(move)
    if not isinstance(text, str) or not text:
        raise ctx.fail(f"describe_move({move!r}) gave {show(text)}: expected a non-empty string")
    with ctx.step(f"validate_move(state, {seat}, {text!r})"):
        if game.validate_move(state, seat, move) != move:
            raise ctx.fail(f"validate_move(state, {seat}, {text!r}) did not give the move back")
    with ctx.step(f"move_to_wire({text!r})"):
        wire = json_trip(game.move_to_wire(move))
    with ctx.step(f"parse_move(move_to_wire({text!r}))"):
        parsed = game.parse_move(wire)
        if parsed == move:  # what the engine does with a bot's reply
            parsed = game.validate_move(state, seat, parsed)
    if parsed != move:
        raise ctx.fail(f"parse_move(move_to_wire(m)) gave {parsed!r} for {text!r} (wire {show(wire)})")
    with ctx.step(f"move_from_record(move_to_record({text!r}))"):
        from_record = game.move_from_record(json_trip(game.move_to_record(move)))
    if from_record != move:
        raise ctx.fail(f"move_from_record(move_to_record(m)) gave {from_record!r} for {text!r}")
    with ctx.step(f"parse_notation({text!r}, state, {seat})"):  # what a person at the seat types
        read = game.parse_notation(text, state, seat)
    if read != move:
        raise ctx.fail(f"parse_notation({text!r}, state, {seat}) gave {game.describe_move(read)!r}")
    if game.actor(state) != seat:
        return None
    snapshot = ctx.state_json
    with ctx.step(f"apply(state, {text!r})"):
        after = game.apply(state, move)
    _unchanged(game, state, snapshot, f"apply(state, {text!r})", ctx)
    return after


def _check_start_moves(game: GeneralGame[Any, Any], start: Any, ctx: Context) -> None:
    """Every legal move of the start through the round trips (random play samples one)."""
    ctx.where = "initial state, every legal move"
    with ctx.step("state_to_json / legal_moves of the initial state"):
        ctx.state_json = game.state_to_json(start)
        moves = [(seat, move) for seat in game.acting_seats(start) for move in game.legal_moves(start, seat)]
    for seat, move in moves:
        _check_move(game, start, seat, move, ctx)


def _check_end(game: GeneralGame[Any, Any], state: Any, snapshot: Any, last_actor: int, ctx: Context) -> str:
    """A finished game: its returns, and its outcome where it describes one. How it ended."""
    with ctx.step("returns(state)"):
        returns = tuple(game.returns(state))
    if len(returns) != game.players or not all(isinstance(r, (int, float)) and math.isfinite(r) for r in returns):
        raise ctx.fail(f"returns must be {game.players} finite numbers, got {returns!r}")
    describe = getattr(game, "outcome", None)  # a two-player game's Outcome: how and who
    if describe is None:
        return "draw" if len(set(returns)) == 1 else "decided"
    with ctx.step("outcome(state)"):
        outcome = describe(state)
    termination, winner = getattr(outcome, "termination", None), getattr(outcome, "winner", None)
    if termination is Termination.DRAW:
        if winner is not None:
            raise ctx.fail(f"a draw has winner {show(getattr(winner, 'value', winner))}: it must be None")
    elif termination is Termination.WIN:
        if not isinstance(winner, Color):
            raise ctx.fail(f"outcome WIN without a winner ({show(winner)})")
    elif termination is Termination.NO_LEGAL_MOVES:
        if last_actor >= 0 and getattr(winner, "value", winner) != game.seat_names[last_actor]:
            stuck = game.seat_names[1 - last_actor]
            raise ctx.fail(f"NO_LEGAL_MOVES with {stuck} stuck must name {game.seat_names[last_actor]} the winner, "
                           f"got {show(getattr(winner, 'value', winner))}")
    else:
        raise ctx.fail(f"outcome() termination {show(getattr(termination, 'value', termination))} "
                       "is not one the rules give (WIN, NO_LEGAL_MOVES, DRAW)")
    return str(termination.value)


def _play_to_end(game: GeneralGame[Any, Any], start: Any, limit: int, rng: random.Random, ctx: Context) -> str:
    """Random steps from ``start`` until the game ends (at most ``limit``); check that end."""
    ctx.where, ctx.state_json = "a game played past the cap", None
    state, steps, last_actor = start, 0, -1
    with ctx.step("actor/random steps"):
        while steps < limit and game.actor(state) != TERMINAL:
            last_actor = game.actor(state)
            state = random_step(game, state, rng)
            steps += 1
    ctx.where = f"a game played past the cap, step {steps}"
    snapshot = _check_state(game, state, steps, ctx)
    if game.actor(state) != TERMINAL:
        ctx.state_json = None
        raise ctx.fail(f"no random game ended by the rules, even one played on for {limit} steps")
    return f"{_check_end(game, state, snapshot, last_actor, ctx)} after {steps} steps"


# -- hashes and replays -----------------------------------------------


def _hash(game: GeneralGame[Any, Any], state: Any, ctx: Context) -> int:
    """``hash(state)``: a game of the colour dialect or with a hash of its own must give one; any
    other gives 0 when its states are not hashable (values holding lists)."""
    if not (game.colour_dialect or offers(game, "hash")):
        try:
            return hash(state)
        except TypeError:
            return 0
    with ctx.step("hash(state)"):
        return hash(state)


def _legal_lists(game: GeneralGame[Any, Any], state: Any) -> list[list[str]]:
    return [list(map(repr, game.legal_moves(state, seat))) for seat in range(game.players)]


def _distinct_states(game: GeneralGame[Any, Any], rng: random.Random) -> int:
    """How many distinct states (by their JSON) the first steps of one random game reach."""
    state, texts = game.initial_state(), set()
    for _ in range(8):
        texts.add(json.dumps(game.state_to_json(state), sort_keys=True))
        if game.actor(state) == TERMINAL:
            break
        state = random_step(game, state, rng)
    return len(texts)


def _check_replay(game: GeneralGame[Any, Any], states: list[Any], steps: list[dict[str, Any]],
                  seen: list[tuple[int, list[list[str]]]], ctx: Context) -> None:
    """The steps replayed from the first state (each state asked anew) reach ``states``, with the
    legal moves and ``hash(state)`` of ``seen``."""
    state = game.state_from_json(json_trip(states[0]))
    for number, step in enumerate(steps):
        ctx.where, ctx.state_json = f"the replay of the recorded steps, step {number}", states[number]
        try:
            state = apply_step(game, state, step)
        except GameError as exc:
            raise ctx.fail(f"the recorded step {step} does not replay: {exc}") from None
        if game.state_to_json(state) != states[number + 1]:
            raise ctx.fail("replaying the recorded steps gives another state")
        digest, legal = seen[number + 1]
        if _legal_lists(game, state) != legal:
            raise ctx.fail("the same state, reached again, lists its legal moves in another order (or other "
                           "moves): give them in the same order every time")
        if _hash(game, state, ctx) != digest:
            raise ctx.fail("the same state, reached again, has another hash(state): a hash must be a function "
                           "of the position")


# -- a GameSpec as the registry uses it ------------------------------------------------------------


def _ref(spec: GameSpec, what: str, ref: str, ctx: Context) -> Any:
    try:
        return load_ref(ref)
    except GameError as exc:
        raise ctx.fail(f"spec.{what}: {exc}") from None


def _picture(spec: GameSpec, game: GeneralGame[Any, Any], ctx: Context) -> Picture | None:
    """The spec's SVG function as a :data:`Picture` (the registry documents two signatures)."""
    if spec.svg is None:
        return None
    draw = _ref(spec, "svg", spec.svg, ctx)
    if not callable(draw):
        raise ctx.fail(f"spec.svg: {spec.svg} is not callable")
    if spec.model == registry.GENERAL:
        return lambda state, seat, last: draw(game.state_to_json(state), seat)
    return lambda state, seat, last: draw(state, last_move=last)


def player_counts(spec: GameSpec, players: Sequence[int] = ()) -> list[int]:
    """``players``, or by default 2, 3 and 4, those the game allows (else its fewest)."""
    if players:
        return list(players)
    low, high = spec.player_bounds()
    return [n for n in (2, 3, 4) if low <= n <= high] or [low]


def check_spec(spec: GameSpec, *, games: int = DEFAULT_GAMES, ply_cap: int | None = None, seed: int = DEFAULT_SEED,
               players: Sequence[int] = (), params: dict[str, int] | None = None,
               adapter_games: int = 5) -> ConformanceReport:
    """Check ``spec`` as arena will use it, then its rules with :func:`check_game` for each of
    :func:`player_counts` with ``params`` (default: the game's defaults).

    The spec: a valid name, a positive ``default_max_moves``, a title, the rules load and bear the
    spec's name, the protocol is one of :data:`arena.games.registry.DIALECTS` or a class, and every
    reference the spec gives (a plugin's protocol and bot side, view, svg, search) imports. The
    search adapter the spec gives (arena's own games' are the agents', which their tests pass here
    with ``dataclasses.replace``): on the states of ``adapter_games`` random games, its moves are the rules'
    legal moves and its terminal verdicts the rules' returns. Raises :class:`ConformanceError`;
    GameError when asked ``players`` or ``params`` the game refuses.
    """
    ctx = Context(str(getattr(spec, "name", spec)))
    if not isinstance(spec, GameSpec):
        raise ctx.fail(f"{type(spec).__name__} is not an arena.games.registry.GameSpec")
    if not NAME_PATTERN.match(spec.name) and not registry.PROVIDED_NAME_PATTERN.match(spec.name):
        raise ctx.fail("the name must be 1-32 of a-z, 0-9, _ (starting with a letter)")
    if type(spec.default_max_moves) is not int or spec.default_max_moves < 1:
        raise ctx.fail(f"default_max_moves must be a positive integer, got {show(spec.default_max_moves)}")
    if not spec.title:
        raise ctx.fail("the title is empty")
    counts = player_counts(spec, players)
    try:
        made = [spec.table(n, params) for n in counts]
    except GameError as exc:
        if players or params:
            raise  # the players or parameters asked for: the caller's mistake
        raise ctx.fail(f"spec.rules: {exc}") from None
    if spec.protocol not in registry.DIALECTS:  # a plugin's own protocol class
        _ref(spec, "protocol", spec.protocol, ctx)
        if spec.bot_side is None:
            raise ctx.fail(f"a custom protocol ({spec.protocol}) needs bot_side for arena's own agents")
    if spec.bot_side is not None:
        _ref(spec, "bot_side", spec.bot_side, ctx)
    if spec.view is not None:
        _ref(spec, "view", spec.view, ctx)
    adapter_class = _ref(spec, "search", spec.search, ctx) if spec.search is not None else None
    report: ConformanceReport | None = None
    for game in made:
        cap = game.default_max_moves if ply_cap is None else ply_cap
        found = check_game(game, games=games, ply_cap=cap, seed=seed, svg=_picture(spec, game, ctx))
        if adapter_class is not None:
            from arena.games.conformance_search import check_search_adapter

            found = found.merged(ConformanceReport(found.game, 0, 0, 0, seed, players=(), adapter_states=(
                check_search_adapter(game, adapter_class, games=adapter_games, ply_cap=cap, seed=seed))))
        report = found if report is None else report.merged(found)
    assert report is not None
    return report


# -- command line ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.games.conformance [GAME ...]``: check games; exit 0, 1 or 2."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m arena.games.conformance",
                                     description="Check games against arena's forward-model contract.")
    parser.add_argument("names", nargs="*", metavar="GAME", help="games to check (default: every usable game)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"random games for each player count (default {DEFAULT_GAMES})")
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
            print(check_spec(spec, games=args.games, seed=args.seed, players=args.players, params=params).summary())
        except AssertionError as exc:  # ConformanceError
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


__all__ = ["DEFAULT_GAMES", "DEFAULT_SEED", "ConformanceError", "ConformanceReport", "check_game", "check_spec",
           "main", "player_counts"]

if __name__ == "__main__":
    sys.exit(main())
