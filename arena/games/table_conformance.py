"""The conformance check of games of the general model (:mod:`arena.games.model`), standard library
only; :mod:`arena.games.conformance` runs it for every registered game of that model.

:func:`check_table_game` plays ``games`` random games (chance outcomes drawn with their
probabilities, every seat's move uniformly at random) for each player count it is given, and checks
at every step that

- who acts is a seat, CHANCE, SIMULTANEOUS or TERMINAL, and exactly the acting seats have legal
  moves (none repeated, the same list twice); a seat node has one acting seat, a simultaneous node
  at least one;
- chance outcomes are distinct and their probabilities positive, summing to exactly 1;
- the state's JSON form survives a trip through JSON text and ``state_from_json`` gives it back;
  every seat's observation is a JSON object, the same when asked twice;
- no seat's observation changes when only what it may not see changes (``hidden_variants``);
- a move's wire and record forms are JSON and read back to the move; ``apply`` and ``apply_joint``
  never modify their input; ``eliminate`` (where the game has it) takes the seat out of the acting
  seats;
- at the end, ``returns`` has one finite number per seat, and the game replays from its steps as
  a record holds them (:func:`arena.games.model.apply_step`) to the same states, with the same
  legal moves in the same order and the same hash (a referee asked again answers alike);
- a game with a hash of its own (a referee's ``hash``) tells states apart by it: a hash that is
  the same for every state of the check (one ``hash`` for every position) fails;
- the optional requests a game offers answer as promised, at every step of the first game: the
  board text for every seat and for nobody (not blank, for a referee with ``board``; and the SVG
  picture, for a referee with ``svg``);
  ``determinize`` gives a state in which the seat sees exactly what it saw; ``playout`` gives the
  asked number of returns vectors of one finite number per seat, and at the end the game's returns.

A fault raises :class:`arena.games.conformance.ConformanceError` naming the game, the players, the
game number, the step and the check.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from arena.games.base import GameError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, apply_step, draw_chance, random_step


class TableConformanceError(AssertionError):
    """A game of the general model broke its contract (one line: where and what)."""


def check_table_game(make: Any, players: Sequence[int], *, games: int = 100, seed: int = 20261126,
                     step_cap: int = 2000) -> str:
    """Check the game ``make(players)`` gives, for each count in ``players``; a one-line summary,
    or TableConformanceError at the first fault."""
    steps_seen = 0
    for n in players:
        game: GeneralGame[Any, Any] = make(n)
        rng = random.Random(seed + n)
        hashes: set[int] = set()
        for number in range(games):
            steps_seen += _playout(game, rng, step_cap, f"{game.name} ({n} players) game {number}", hashes,
                                   optional=number == 0)
        if len(hashes) == 1 and _offers(game, "hash") and _distinct_states(game, rng) > 1:
            raise TableConformanceError(f"{game.name} ({n} players): every state has the same hash(state) "
                                        "(a referee's `hash` must tell positions apart)")
    return f"{make(players[0]).name}: {games} random games for each of {list(players)} players, {steps_seen} steps: ok"


def check_table_spec(spec: Any, *, games: int = 100, seed: int = 20261126, players: Sequence[int] = (),
                     params: dict[str, int] | None = None) -> str:
    """Check a registered game (of either model, seen through the general one) for ``players``
    (default: 2, 3 and 4, those it allows) with ``params`` (default: its defaults), and its SVG
    function (when given) on the states of one game. GameError for players or parameters the game
    refuses; TableConformanceError at the first fault."""
    from arena.games.registry import GENERAL, load_ref

    counts = list(players)
    if not counts:
        probe = spec.table(None, params)
        low, high = type(probe).min_players, type(probe).max_players
        counts = [n for n in (2, 3, 4) if low <= n <= high] or [low]
    made = {n: spec.table(n, params) for n in counts}  # refused players or parameters: before any game
    summary = check_table_game(made.__getitem__, counts, games=games, seed=seed)
    if spec.svg is not None and spec.model == GENERAL:
        _check_svg(made[counts[0]], load_ref(spec.svg), seed)
    return summary


def _check_svg(game: GeneralGame[Any, Any], svg: Any, seed: int) -> None:
    from xml.etree import ElementTree

    rng, state = random.Random(seed), game.initial_state()
    while True:
        for seat in (None, *range(game.players)):
            picture = svg(game.state_to_json(state), seat)
            if not isinstance(picture, str) or not ElementTree.fromstring(picture).tag.endswith("svg"):
                raise TableConformanceError(f"{game.name}: the SVG picture is not an <svg> document")
        who = game.actor(state)
        if who == TERMINAL:
            return
        if who == CHANCE:
            state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
        elif who == SIMULTANEOUS:
            state = game.apply_joint(state, {s: rng.choice(game.legal_moves(state, s)) for s in game.acting_seats(state)})
        else:
            state = game.apply(state, rng.choice(game.legal_moves(state, who)))


def _fail(where: str, step: int, message: str) -> TableConformanceError:
    return TableConformanceError(f"{where}, step {step}: {message}")


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _playout(game: GeneralGame[Any, Any], rng: random.Random, step_cap: int, where: str,
             hashes: set[int], *, optional: bool = False) -> int:
    """One random game, checked step by step; ``hashes`` gathers every ``hash(state)``;
    ``optional``: the optional requests are checked at every step too. The steps played."""
    state = game.initial_state()
    start = game.state_to_json(state)
    steps: list[dict[str, Any]] = []
    states = [start]
    seen: list[tuple[int, list[list[str]]]] = []
    for number in range(step_cap):
        _check_state(game, state, where, number)
        seen.append((_hash(game, state), _legal_lists(game, state)))
        hashes.add(seen[-1][0])
        who = game.actor(state)
        if optional or who == TERMINAL:
            _check_optional(game, state, rng, where, number)
        if who == TERMINAL:
            break
        before, previous = game.state_to_json(state), state
        if who == CHANCE:
            outcomes = game.chance_outcomes(state)
            outcome = draw_chance(outcomes, rng)
            step: dict[str, Any] = {"kind": "chance", "outcome": _json(game.move_to_record(outcome))}
            state = game.apply(state, outcome)
        elif who == SIMULTANEOUS:
            joint = {seat: rng.choice(game.legal_moves(state, seat)) for seat in game.acting_seats(state)}
            for move in joint.values():
                _check_move(game, move, where, number)
            step = {"kind": "joint", "moves": {str(s): _json(game.move_to_record(m)) for s, m in joint.items()}}
            state = game.apply_joint(state, joint)
        else:
            move = rng.choice(game.legal_moves(state, who))
            _check_move(game, move, where, number)
            step = {"kind": "move", "seat": who, "move": _json(game.move_to_record(move))}
            if rng.random() < 0.02 and game.players > 2:
                after = game.eliminate(state, who)
                if after is not None:
                    if who in game.acting_seats(after):
                        raise _fail(where, number, f"seat {who} still acts after eliminate()")
                    step, state = {"kind": "elimination", "seat": who}, after
            if step["kind"] == "move":
                state = game.apply(state, move)
        if game.state_to_json(previous) != before:
            raise _fail(where, number, "a step modified the state it was applied to")
        steps.append(step)
        states.append(game.state_to_json(state))
    else:
        raise _fail(where, step_cap, f"no end within {step_cap} steps")
    returns = game.returns(state)
    if len(returns) != game.players or not all(isinstance(r, (int, float)) and math.isfinite(r) for r in returns):
        raise _fail(where, len(steps), f"returns must be {game.players} finite numbers, got {returns!r}")
    _check_replay(game, start, steps, states, seen, where)
    return len(steps)


def _hash(game: GeneralGame[Any, Any], state: Any) -> int:
    """``hash(state)`` for a game that offers a hash of its own (a referee's ``hash``), else 0."""
    return hash(state) if _offers(game, "hash") else 0


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


def _offers(game: GeneralGame[Any, Any], feature: str) -> bool:
    """Whether ``game`` offers an optional request: a referee's game when its ``info`` lists it
    (``has_feature``), a game in Python when it implements it."""
    declared = getattr(game, "has_feature", None)
    if feature == "determinize":
        if game.perfect_information:
            return True
        return bool(declared("determinize")) if declared is not None else \
            type(game).determinize is not GeneralGame.determinize
    if declared is not None:
        return bool(declared(feature))
    return feature == "board" or callable(getattr(game, feature, None))


def _check_optional(game: GeneralGame[Any, Any], state: Any, rng: random.Random, where: str, number: int) -> None:
    """The optional requests ``game`` offers (module docstring), at ``state``."""
    try:
        if _offers(game, "board"):
            declared = getattr(game, "has_feature", None) is not None  # a referee's promised `board`
            for seat in (None, *range(game.players)):
                text = game.board_text(state, seat)
                if not isinstance(text, str) or (declared and not text.strip()):
                    raise _fail(where, number, f"the board text for seat {seat} is "
                                f"{'empty' if isinstance(text, str) else type(text).__name__}")
        board = getattr(game, "board", None)
        if board is not None and _offers(game, "svg"):
            _, picture = board(game.state_to_json(state), None, True)
            if picture is not None and not _is_svg(picture):
                raise _fail(where, number, "the board's SVG picture is not an <svg> document")
        if _offers(game, "determinize"):
            for seat in game.acting_seats(state):
                seen = game.observation(state, seat)
                sample = game.determinize(seen, seat, rng)
                if game.observation(sample, seat) != seen:
                    raise _fail(where, number, f"determinize gave a state in which seat {seat} sees something else")
        if _offers(game, "playout"):
            results = game.playout(state, rng.randrange(2**31), 2)  # type: ignore[attr-defined]
            if len(results) != 2 or any(len(r) != game.players or not all(
                    isinstance(x, (int, float)) and math.isfinite(x) for x in r) for r in results):
                raise _fail(where, number, f"playout of 2 gave {results!r}: expected 2 vectors of "
                            f"{game.players} finite returns")
            if game.actor(state) == TERMINAL and any(tuple(r) != tuple(game.returns(state)) for r in results):
                raise _fail(where, number, f"playout from the end gave {results!r}, not the returns "
                            f"{list(game.returns(state))}")
    except GameError as exc:
        raise _fail(where, number, f"an optional request it offers failed: {exc}") from None


def _is_svg(picture: Any) -> bool:
    from xml.etree import ElementTree

    try:
        return isinstance(picture, str) and ElementTree.fromstring(picture).tag.endswith("svg")
    except ElementTree.ParseError:
        return False


def _check_state(game: GeneralGame[Any, Any], state: Any, where: str, number: int) -> None:
    who = game.actor(state)
    if not (who in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= who < game.players):
        raise _fail(where, number, f"actor {who!r} is not a seat, CHANCE, SIMULTANEOUS or TERMINAL")
    acting = game.acting_seats(state)
    for seat in range(game.players):
        moves = game.legal_moves(state, seat)
        if (seat in acting) != bool(moves):
            raise _fail(where, number, f"seat {seat} {'acts but has no' if seat in acting else 'has'} legal moves "
                        f"(acting seats {list(acting)})")
        if len(set(map(repr, moves))) != len(moves) or list(map(repr, game.legal_moves(state, seat))) != list(map(repr, moves)):
            raise _fail(where, number, f"seat {seat}'s legal moves repeat a move or change when asked twice")
        observation = game.observation(state, seat)
        if not isinstance(observation, dict) or _json(observation) != observation \
                or game.observation(state, seat) != observation:
            raise _fail(where, number, f"seat {seat}'s observation is not a stable JSON object")
        for variant in game.hidden_variants(state, seat):
            if game.observation(variant, seat) != observation:
                raise _fail(where, number, f"seat {seat}'s observation changes with what it may not see")
    if who >= 0 and acting != (who,):
        raise _fail(where, number, f"seat {who} acts, but the acting seats are {list(acting)}")
    if who == SIMULTANEOUS and not acting:
        raise _fail(where, number, "a simultaneous node with no acting seat")
    if who == CHANCE:
        outcomes = game.chance_outcomes(state)
        if not outcomes or len({repr(o) for o, _ in outcomes}) != len(outcomes):
            raise _fail(where, number, "chance outcomes are missing or repeated")
        if any(not isinstance(p, Fraction) or p <= 0 for _, p in outcomes) or sum(p for _, p in outcomes) != 1:
            raise _fail(where, number, f"chance probabilities must be positive Fractions summing to 1, got "
                        f"{[str(p) for _, p in outcomes]}")
    text = game.state_to_json(state)
    if _json(text) != text:
        raise _fail(where, number, "the state's JSON form does not survive JSON text")
    try:
        again = game.state_to_json(game.state_from_json(_json(text)))
    except GameError as exc:
        raise _fail(where, number, f"state_from_json refuses the game's own state: {exc}") from None
    if again != text:
        raise _fail(where, number, "state_from_json(state_to_json(state)) is another state")


def _check_move(game: GeneralGame[Any, Any], move: Any, where: str, number: int) -> None:
    wire, record = game.move_to_wire(move), game.move_to_record(move)
    if _json(wire) != wire or _json(record) != record:
        raise _fail(where, number, f"the move {move!r} has a wire or record form that is not JSON")
    if game.parse_move(_json(wire)) != move or game.move_from_record(_json(record)) != move:
        raise _fail(where, number, f"the move {move!r} does not read back from its wire and record forms")


def _check_replay(game: GeneralGame[Any, Any], start: dict[str, Any], steps: list[dict[str, Any]],
                  states: list[dict[str, Any]], seen: list[tuple[int, list[list[str]]]], where: str) -> None:
    """The steps replayed from ``start`` (each state asked anew) reach ``states``, with the legal
    moves and ``hash(state)`` of ``seen``."""
    state = game.state_from_json(_json(start))
    for number, step in enumerate(steps):
        try:
            state = apply_step(game, state, step)
        except GameError as exc:
            raise _fail(where, number, f"the recorded step {step} does not replay: {exc}") from None
        if game.state_to_json(state) != states[number + 1]:
            raise _fail(where, number, "replaying the recorded steps gives another state")
        digest, legal = seen[number + 1]
        if _legal_lists(game, state) != legal:
            raise _fail(where, number + 1, "the same state, reached again, lists its legal moves in another "
                        "order (or other moves): give them in the same order every time")
        if _hash(game, state) != digest:
            raise _fail(where, number + 1, "the same state, reached again, has another hash(state): a hash must "
                        "be a function of the position")


__all__ = ["TableConformanceError", "check_table_game", "check_table_spec"]
