"""The general game model: N seats, chance, simultaneous moves and hidden information.

Standard library only, like all of :mod:`arena.games`. The field's reference frameworks agree on
this shape (OpenSpiel: a current player that is a seat, CHANCE or SIMULTANEOUS; legal actions per
player; ``observation(player)``; ``returns()`` per player), and so does arena.

A :class:`GeneralGame` is one *configured* game: a rules family with its parameters fixed (the
number of players, the number of cards...). ``identity()`` names it in configs and records. States
are immutable values; nothing here does I/O.

Contract:

- ``players``: the number of seats N; seats are ``0 .. N-1``; ``seat_names`` their names.
- ``initial_state()`` -> the start (often a chance node that deals).
- ``actor(state)`` -> who acts: a seat number, :data:`CHANCE`, :data:`SIMULTANEOUS` or
  :data:`TERMINAL`. ``acting_seats(state)`` -> the seats asked for a move now: one at a seat node,
  several at a simultaneous node, none at a chance or terminal node.
- ``legal_moves(state, seat)`` -> that seat's legal moves in a deterministic order (empty when the
  seat does not act now).
- ``chance_outcomes(state)`` -> ``[(outcome, probability), ...]`` at a chance node, probabilities
  as :class:`fractions.Fraction` summing to exactly 1; arena draws one from the match's seeded
  generator (:func:`draw_chance`) and records it.
- ``apply(state, move)`` -> the next state after one seat's move or a chance outcome;
  ``apply_joint(state, moves)`` -> the next state after a simultaneous node, ``moves`` holding one
  legal move per acting seat. Neither modifies ``state``; the moves must be legal.
- ``returns(state)`` -> one score per seat (meaningful at a terminal state); :func:`ranks` turns
  them into ranks (1 = best, ties share a rank).
- ``observation(state, seat)`` -> everything ``seat`` may see, as a JSON object (a game of perfect
  information gives the whole state). ``state_to_json`` / ``state_from_json`` are the omniscient
  state of records, from which every seat's observation is reproducible.
- ``parse_move(wire)`` / ``move_to_wire(move)`` / ``move_to_record(move)`` / ``describe_move``:
  as in :class:`arena.games.base.Game`; ``validate_move(state, seat, move)`` -> the canonical legal
  move or :class:`IllegalMoveError`.
- ``eliminate(state, seat)`` -> the state with ``seat`` out of the game after a fault, the others
  playing on; ``None`` (the default) means a fault ends the game.
- ``determinize(observation, seat, rng)`` -> a state drawn from those ``seat`` may be in, given all it
  sees: ``observation(sample, seat) == observation`` (the unseen cards dealt at random from ``rng``).
  What a bot that receives only its observation searches from (:mod:`arena.agents.mcts`). A game
  whose observation is the whole state (``perfect_information``) rebuilds it with
  ``state_from_json``; any other game raises GameError unless it implements it.

Today's two-player games (:class:`arena.games.base.Game`) are the special case: :func:`as_general`
wraps one without changing it (seat 0 is BLACK, seat 1 WHITE; the observation is the whole state;
returns are +1/-1 or 0/0; a fault ends the game).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from arena.games.base import Color, Game, GameError, IllegalMoveError, MoveSyntaxError, Outcome, Termination

S = TypeVar("S")
M = TypeVar("M")

#: ``actor(state)`` values that are not seats (OpenSpiel's numbering).
CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4


@dataclass(frozen=True)
class Parameter:
    """One game parameter: its default and inclusive bounds (integers only, for now)."""

    name: str
    default: int
    low: int
    high: int
    help: str = ""


class GeneralGame(abc.ABC, Generic[S, M]):
    """One configured game of the general model (see the module docstring)."""

    #: The registry name of the rules family.
    name: ClassVar[str]
    #: The bounds on the number of seats, and the number a match gets when none is asked for.
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    #: The parameters besides ``players`` (name -> :class:`Parameter`).
    parameters: ClassVar[Mapping[str, Parameter]] = {}
    #: The move cap of a match that asks for none (plies, chance draws included).
    default_max_moves: ClassVar[int] = 1000
    #: True when every seat's observation is the whole state (``state_to_json``), so that
    #: :meth:`determinize` is ``state_from_json``.
    perfect_information: ClassVar[bool] = False
    #: True for a game of the colour dialect: two seats named BLACK and WHITE taking turns in plain
    #: sight, a state's JSON form ``{"board", "turn", "turnNumber"}`` (``turn``: the side to move,
    #: even at the end). The rules tools then read a move without its seat and list the moves as a
    #: plain array (:mod:`arena.tools.rules`); the conformance check holds the game to that envelope.
    colour_dialect: ClassVar[bool] = False
    #: The wire dialect a match speaks to the game's bots: True, the N-seat envelope
    #: (:mod:`arena.protocols.seats`) with format-3 records; False, the two-player game's own dialect
    #: from its registry entry (the Shobu JSON, the checkers lines, the generic JSON) with format-2
    #: records. Chosen once, where a game is configured (:func:`arena.games.registry.configured_game`).
    seat_envelope: bool = True

    def __init__(self, players: int | None = None, **params: int) -> None:
        n = self.default_players if players is None else players
        if type(n) is not int or not self.min_players <= n <= self.max_players:
            raise GameError(f"{self.name}: players must be {self._bounds()}, got {n!r}")
        unknown = sorted(set(params) - set(self.parameters))
        if unknown:
            known = ", ".join(sorted(self.parameters)) or "none"
            raise GameError(f"{self.name}: unknown parameter {unknown[0]!r} (parameters: {known})")
        values: dict[str, int] = {}
        for key, spec in self.parameters.items():
            value = params.get(key, spec.default)
            if type(value) is not int or not spec.low <= value <= spec.high:
                raise GameError(f"{self.name}: {key} must be an integer from {spec.low} to {spec.high}, got {value!r}")
            values[key] = value
        self.players = n
        self.params: dict[str, int] = values
        self.check_parameters()

    def _bounds(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"

    def check_parameters(self) -> None:
        """Raise GameError when the parameters do not go together (the default accepts all)."""

    def identity(self) -> dict[str, Any]:
        """The game as configs and records name it: its name, players and parameters."""
        return {"name": self.name, "players": self.players, "params": dict(self.params)}

    @property
    def seat_names(self) -> tuple[str, ...]:
        return tuple(f"P{i}" for i in range(self.players))

    # -- the forward model --------------------------------------------------------------------

    @abc.abstractmethod
    def initial_state(self) -> S: ...

    @abc.abstractmethod
    def actor(self, state: S) -> int: ...

    def acting_seats(self, state: S) -> tuple[int, ...]:
        who = self.actor(state)
        if who >= 0:
            return (who,)
        if who == SIMULTANEOUS:
            return tuple(seat for seat in range(self.players) if self.legal_moves(state, seat))
        return ()

    @abc.abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]: ...

    def chance_outcomes(self, state: S) -> list[tuple[M, Fraction]]:
        raise GameError(f"{self.name}: this state is not a chance node")

    @abc.abstractmethod
    def apply(self, state: S, move: M) -> S: ...

    def apply_joint(self, state: S, moves: Mapping[int, M]) -> S:
        raise GameError(f"{self.name}: this game has no simultaneous moves")

    def is_terminal(self, state: S) -> bool:
        return self.actor(state) == TERMINAL

    def end_reason(self, state: S) -> str:
        """Why the game ended at ``state``, in words for a person ("" when the game does not say)."""
        return ""

    @abc.abstractmethod
    def returns(self, state: S) -> tuple[float, ...]: ...

    @abc.abstractmethod
    def ply(self, state: S) -> int: ...

    def eliminate(self, state: S, seat: int) -> S | None:
        """The state with ``seat`` out after a fault, or None: a fault ends the game (the default)."""
        return None

    def probe_positions(self) -> list[tuple[str, S]]:
        """The game's own corner cases, ``(label, state)`` pairs, that ``arena check-bot`` runs a bot
        from besides those it finds by random play (none by default)."""
        return []

    def hidden_variants(self, state: S, seat: int) -> list[S]:
        """States that differ from ``state`` only in what ``seat`` may not see (other seats' hidden
        cards, the order of a face-down deck...): ``seat``'s observation must be the same in each
        (the conformance check tests it). A game of perfect information has none (the default)."""
        return []

    def determinize(self, observation: Mapping[str, Any], seat: int, rng: random.Random) -> S:
        """A state ``seat`` may be in when it sees ``observation`` (what :meth:`observation` gave
        it), the unseen parts drawn from ``rng``: ``observation(result, seat) == observation``.
        The default rebuilds the state of a game of perfect information (``state_from_json``) and
        raises GameError for any other game: it must implement this to be searched from a seat's
        view. Raises GameError (StateError) for an observation the game could not have given."""
        if self.perfect_information:
            return self.state_from_json(observation)
        raise GameError(f"{self.name}: cannot sample a state from a seat's observation (determinize is not "
                        "implemented for this game of hidden information)")

    # -- what seats see, and the record ---------------------------------------------------------

    @abc.abstractmethod
    def observation(self, state: S, seat: int) -> dict[str, Any]: ...

    @abc.abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]: ...

    @abc.abstractmethod
    def state_from_json(self, obj: Any) -> S: ...

    @abc.abstractmethod
    def parse_move(self, wire: Any) -> M: ...

    @abc.abstractmethod
    def move_to_wire(self, move: M) -> Any: ...

    def move_to_record(self, move: M) -> Any:
        return self.move_to_wire(move)

    def move_from_record(self, turn: Any) -> M:
        return self.parse_move(turn)

    def describe_move(self, move: M) -> str:
        return str(self.move_to_wire(move))

    def board_text(self, state: S, seat: int | None = None) -> str:
        """A plain-text picture: the whole state, or (``seat``) what that seat sees."""
        import json

        shown = self.state_to_json(state) if seat is None else self.observation(state, seat)
        return json.dumps(shown, sort_keys=True)

    def parse_notation(self, text: str, state: S, seat: int) -> M:
        """The legal move of ``seat`` that ``text`` names as a person types it: its notation as
        :meth:`describe_move` writes it (the legal-move list), or its wire form (read as JSON when
        it is JSON, ``7`` or ``"bet"``, else as the text itself, ``guard 2 priest``), or the
        notation with case and spaces aside. Raises MoveSyntaxError naming ``text`` when it is
        none of these, IllegalMoveError when the move it names is not legal now."""
        import json

        text = text.strip()
        described: dict[str, M] = {}
        for legal in self.legal_moves(state, seat):
            described.setdefault(self.describe_move(legal), legal)
        if text in described:
            return described[text]
        try:
            wire = json.loads(text)
        except ValueError:
            wire = text
        try:
            move = self.parse_move(wire)
        except GameError as exc:  # MoveSyntaxError, or an external referee's refusal
            wanted = "".join(text.split()).lower()
            loose = [m for d, m in described.items() if "".join(d.split()).lower() == wanted]
            if len(loose) == 1:
                return loose[0]
            raise MoveSyntaxError(f"{text!r}: {exc}") from None
        return self.validate_move(state, seat, move)

    def validate_move(self, state: S, seat: int, move: M) -> M:
        """The canonical legal move equal to ``move`` for ``seat``, else IllegalMoveError."""
        for legal in self.legal_moves(state, seat):
            if legal == move:
                return legal
        raise IllegalMoveError(f"{self.describe_move(move)} is not a legal move for seat {seat} here")

    # -- counting ------------------------------------------------------------------------------

    def perft(self, state: S, depth: int) -> int:
        """Leaf count ``depth`` steps ahead, where one seat's move, one chance outcome and one
        joint move of a simultaneous node are one step each. Chess's convention, as for two-player
        games: a game that ends before ``depth`` contributes nothing (a finished game counts 1 at
        depth 0 and 0 below it)."""
        if depth == 0:
            return 1
        if self.is_terminal(state):
            return 0
        if depth == 1:  # the children are leaves: count them without making them (for an external
            return self._branching(state)  # game, one round trip less per leaf)
        return sum(self.perft(child, depth - 1) for child in self.children(state))

    def _branching(self, state: S) -> int:
        """How many children :meth:`children` would give."""
        who = self.actor(state)
        if who == CHANCE:
            return len(self.chance_outcomes(state))
        if who == SIMULTANEOUS:
            return len(joint_moves(self, state))
        return len(self.legal_moves(state, who)) if who >= 0 else 0

    def children(self, state: S) -> list[S]:
        """Every next state, one per chance outcome, seat move or joint move (in order)."""
        who = self.actor(state)
        if who == CHANCE:
            return [self.apply(state, outcome) for outcome, _ in self.chance_outcomes(state)]
        if who == SIMULTANEOUS:
            return [self.apply_joint(state, joint) for joint in joint_moves(self, state)]
        if who >= 0:
            return [self.apply(state, move) for move in self.legal_moves(state, who)]
        return []


def apply_step(game: GeneralGame[S, M], state: S, step: Mapping[str, Any]) -> S:
    """The state after one recorded step (``{"kind": "chance", "outcome"}``, ``{"kind": "move",
    "seat", "move"}``, ``{"kind": "joint", "moves": {"<seat>": move}}``, ``{"kind":
    "elimination", "seat"}``: the steps of N-seat records), checked against the rules: GameError
    (IllegalMoveError for a move the rules refuse) naming what is wrong."""
    kind, who = step.get("kind"), game.actor(state)
    if kind == "chance":
        if who != CHANCE:
            raise GameError("not a chance node here")
        outcome = game.move_from_record(step.get("outcome"))
        if all(outcome != o for o, _ in game.chance_outcomes(state)):
            raise IllegalMoveError(f"{step.get('outcome')!r} is not an outcome here")
        return game.apply(state, outcome)
    if kind == "move":
        seat = step.get("seat")
        if type(seat) is not int or who != seat:
            raise IllegalMoveError(f"seat {seat} does not act here")
        return game.apply(state, game.validate_move(state, seat, game.move_from_record(step.get("move"))))
    if kind == "joint":
        if who != SIMULTANEOUS:
            raise GameError("not a simultaneous node here")
        moves = step.get("moves")
        if not isinstance(moves, Mapping) or not all(isinstance(k, str) and k.isdigit() for k in moves):
            raise GameError('"moves" must be an object {"<seat>": <move>}')
        acting = sorted(game.acting_seats(state))
        if sorted(int(seat) for seat in moves) != acting:
            raise IllegalMoveError(f"the seats acting here are {acting}, got moves for {sorted(map(int, moves))}")
        return game.apply_joint(state, {int(s): game.validate_move(state, int(s), game.move_from_record(m))
                                        for s, m in moves.items()})
    if kind == "elimination":
        after = game.eliminate(state, step.get("seat"))  # type: ignore[arg-type]
        if after is None:
            raise GameError("this game ends at a fault: it cannot take a seat out")
        return after
    raise GameError(f"unknown step kind {kind!r}")


def joint_moves(game: GeneralGame[S, M], state: S) -> list[dict[int, M]]:
    """Every combination of the acting seats' legal moves at a simultaneous node, the lowest seat's
    move varying slowest."""
    seats = game.acting_seats(state)
    combos: list[dict[int, M]] = [{}]
    for seat in seats:
        combos = [{**combo, seat: move} for combo in combos for move in game.legal_moves(state, seat)]
    return combos


def draw_chance(outcomes: Sequence[tuple[M, Fraction]], rng: random.Random) -> M:
    """One outcome drawn with its probability from ``rng`` (the match's seeded generator): the same
    generator state always draws the same outcome."""
    point = Fraction(rng.random())
    total = Fraction(0)
    for outcome, probability in outcomes:
        total += probability
        if point < total:
            return outcome
    return outcomes[-1][0]


def random_step(game: GeneralGame[S, M], state: S, rng: random.Random) -> S:
    """The state after one uniformly random step from non-terminal ``state``: a chance outcome
    drawn with its probability, the acting seat's move, or every acting seat's at once."""
    who = game.actor(state)
    if who == CHANCE:
        return game.apply(state, draw_chance(game.chance_outcomes(state), rng))
    if who == SIMULTANEOUS:
        return game.apply_joint(state, {seat: rng.choice(game.legal_moves(state, seat))
                                        for seat in game.acting_seats(state)})
    return game.apply(state, rng.choice(game.legal_moves(state, who)))


def check_chance(outcomes: Sequence[tuple[Any, Fraction]]) -> None:
    """GameError unless the probabilities are positive and sum to exactly 1."""
    if not outcomes:
        raise GameError("a chance node has no outcomes")
    if any(p <= 0 for _, p in outcomes) or sum((p for _, p in outcomes), Fraction(0)) != 1:
        raise GameError(f"chance probabilities must be positive and sum to 1, got {[str(p) for _, p in outcomes]}")


def ranks(returns: Sequence[float]) -> tuple[int, ...]:
    """Rank of each seat from its return: 1 is best; seats with equal returns share a rank and the
    next rank skips (1, 1, 3)."""
    return tuple(1 + sum(1 for other in returns if other > mine) for mine in returns)


class TwoPlayerGame(GeneralGame[S, M]):
    """Today's two-player, alternating, perfect-information :class:`Game`, seen through the general
    model without any change to it: seat 0 is BLACK, seat 1 WHITE. Its bots speak the game's own
    dialect unless ``seat_envelope`` (a match configured with players or parameters)."""

    min_players = max_players = default_players = 2
    perfect_information = True
    colour_dialect = True

    def __init__(self, game: Game[S, M], *, seat_envelope: bool = False) -> None:
        self.game = game
        self.seat_envelope = seat_envelope
        self.name = game.name  # type: ignore[misc]
        self.default_max_moves = game.default_max_moves  # type: ignore[misc]
        super().__init__(2)

    @property
    def seat_names(self) -> tuple[str, ...]:
        return (Color.BLACK.value, Color.WHITE.value)

    def initial_state(self) -> S:
        return self.game.initial_state()

    def actor(self, state: S) -> int:
        if self.game.outcome(state) is not None:
            return TERMINAL
        return seat_of(self.game.to_move(state))

    def legal_moves(self, state: S, seat: int) -> list[M]:
        # The side to move's moves as the game lists them, even at the end (where the game's
        # contract says none: the conformance check sees a game that lists some).
        if seat_of(self.game.to_move(state)) != seat:
            return []
        return self.game.legal_moves(state)

    def apply(self, state: S, move: M) -> S:
        return self.game.apply(state, move)

    def returns(self, state: S) -> tuple[float, ...]:
        return outcome_returns(self.game.outcome(state))

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended and who won (None while it goes on): the two-player game's own."""
        return self.game.outcome(state)

    def end_reason(self, state: S) -> str:
        outcome = self.game.outcome(state)
        return "" if outcome is None else outcome.reason or outcome.termination.value

    def probe_positions(self) -> list[tuple[str, S]]:
        source = getattr(self.game, "probe_positions", None)  # the two-player game's own, if any
        return list((source() if callable(source) else source) or [])

    def parse_notation(self, text: str, state: S, seat: int | None = None) -> M:
        """The legal move ``text`` names in the game's notation (what a person types); the side
        to move is the game's."""
        return self.game.parse_notation(text, state)

    def ply(self, state: S) -> int:
        return self.game.ply(state)

    def observation(self, state: S, seat: int) -> dict[str, Any]:
        return self.game.state_to_json(state)

    def state_to_json(self, state: S) -> dict[str, Any]:
        return self.game.state_to_json(state)

    def state_from_json(self, obj: Any) -> S:
        return self.game.state_from_json(obj)

    def parse_move(self, wire: Any) -> M:
        return self.game.parse_move(wire)

    def move_to_wire(self, move: M) -> Any:
        return self.game.move_to_wire(move)

    def move_to_record(self, move: M) -> Any:
        return self.game.move_to_record(move)

    def move_from_record(self, turn: Any) -> M:
        return self.game.move_from_record(turn)

    def describe_move(self, move: M) -> str:
        return self.game.describe_move(move)

    def board_text(self, state: S, seat: int | None = None) -> str:
        return self.game.board_text(state)

    def validate_move(self, state: S, seat: int, move: M) -> M:
        if self.actor(state) != seat:
            raise IllegalMoveError(f"it is not seat {seat}'s turn")
        return self.game.validate_move(state, move)

    def perft(self, state: S, depth: int) -> int:
        return self.game.perft(state, depth)


def seat_of(color: Color) -> int:
    return 0 if color is Color.BLACK else 1


def color_of(seat: int) -> Color:
    return Color.BLACK if seat == 0 else Color.WHITE


def outcome_returns(outcome: Outcome | None) -> tuple[float, float]:
    """+1/-1 for a win, 0/0 for a draw or a game still going."""
    if outcome is None or outcome.winner is None or outcome.termination is Termination.DRAW:
        return (0.0, 0.0)
    return (1.0, -1.0) if outcome.winner is Color.BLACK else (-1.0, 1.0)


def as_general(game: Game[Any, Any] | GeneralGame[Any, Any]) -> GeneralGame[Any, Any]:
    """``game`` in the general model: a general game as it is, a two-player :class:`Game` wrapped
    (its bots speaking its own dialect)."""
    if isinstance(game, GeneralGame):
        return game
    return TwoPlayerGame(game)


__all__ = ["CHANCE", "SIMULTANEOUS", "TERMINAL", "GeneralGame", "Parameter", "TwoPlayerGame", "apply_step", "as_general",
           "check_chance", "color_of", "draw_chance", "joint_moves", "outcome_returns", "random_step", "ranks",
           "seat_of"]
