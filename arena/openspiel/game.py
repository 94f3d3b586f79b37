"""One OpenSpiel game in arena's general model: :class:`SpielGame` over a ``pyspiel.Game``.

Imported only when an OpenSpiel game is asked for (it imports pyspiel at once). The mapping:

- **Who acts**: pyspiel's ``current_player()`` as it is (a seat, chance -1, simultaneous -2,
  terminal -4 are arena's numbering too).
- **Moves** are :class:`Action` values: the action's id and its name (``action_to_string``). On the
  wire a move is the name (``"1-4"``, ``"Liar"``, ``"c3"``); a bot may answer with the name or
  the integer id. Records keep both (``{"id": 3, "name": "1-4"}``).
- **Chance**: pyspiel's outcome probabilities are floats; each becomes the nearest fraction with a
  denominator up to :data:`PROBABILITY_DENOMINATOR`, and the largest absorbs the rounding so that
  they sum to exactly 1 (arena draws chance outcomes itself, from the match's seed).
- **Observation** of a seat (the ``payload`` of its messages)::

      {"game": "liars_dice", "legalActions": [2, 3, ..., 12], "legalNames": ["1-3", "1-4", ..., "Liar"],
       "textOf": "information_state", "text": "4 1-2",
       "tensorOf": "observation", "tensor": [1.0, 0.0, ...], "shape": [21]}

  ``text`` is the game's ``observation_string`` (``textOf: "observation"``), or for a game without
  one its ``information_state_string``; ``tensor`` likewise (``shape`` is the tensor's shape); each
  only when the game has either.
  ``legalActions`` / ``legalNames`` are the seat's legal actions now, ids and names in the same
  order (empty when it does not act): a bot needs nothing else to play. Never more than the seat
  may see.
- **State** JSON: ``{"history": [action id, ...]}`` (pyspiel's ``history()``, chance outcomes and
  every seat's action of a simultaneous step included), replayed from the start to rebuild it.
- A fault ends the game (pyspiel has no elimination).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

import pyspiel  # type: ignore[import-not-found,unused-ignore]

from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, Parameter

#: A chance probability (a float) becomes the nearest fraction with a denominator up to this.
PROBABILITY_DENOMINATOR = 1_000_000
#: Bounds of an integer parameter: pyspiel states none, and checks only some values itself.
INT_BOUNDS = (0, 2**31 - 1)
BOOLEAN_HELP = "a boolean: 0 or 1"


@dataclass(frozen=True)
class Action:
    """A pyspiel action: ``id`` and ``name``. Actions are equal when their names are (the names of
    a state's legal actions are distinct; the same name may be another id elsewhere, as chess's
    ``Nf3``). A move parsed from a bot may hold only one of them (``id`` -1 or ``name`` "");
    :meth:`SpielGame.validate_move` completes it from the legal ones."""

    id: int = field(compare=False)
    name: str


@dataclass(frozen=True, eq=False)
class SpielState:
    """An immutable view of a pyspiel state: ``native`` is never modified once built (every step
    applies to a clone). ``steps`` counts arena's steps (a joint move is one). Equal when the
    histories are."""

    native: Any
    steps: int

    @property
    def history(self) -> tuple[int, ...]:
        return tuple(self.native.history())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpielState) and other.history == self.history

    def __hash__(self) -> int:
        return hash(self.history)


def spiel_parameters(game_type: Any) -> dict[str, Parameter]:
    """The integer and boolean parameters of ``game_type`` (booleans as 0/1), ``players`` aside:
    arena's players are set by the number of seats. Strings and floats keep their defaults."""
    found: dict[str, Parameter] = {}
    for key, default in game_type.parameter_specification.items():
        if key == "players":
            continue
        if isinstance(default, bool):
            found[key] = Parameter(key, int(default), 0, 1, BOOLEAN_HELP)
        elif isinstance(default, int):
            low, high = INT_BOUNDS
            found[key] = Parameter(key, default, min(low, default), max(high, default))
    return found


class SpielGame(GeneralGame[SpielState, Action]):
    """One pyspiel game, configured. Subclassed once per OpenSpiel game (:func:`game_class`) with its
    name, seat bounds, parameters and move cap as class attributes."""

    #: The pyspiel short name (``name`` without ``spiel:``).
    short_name: ClassVar[str]
    #: Whether the pyspiel game takes a ``players`` parameter.
    takes_players: ClassVar[bool] = False
    #: pyspiel's GameType of the game (its long name, dynamics, chance mode, information).
    game_type: ClassVar[Any]
    #: The parameters that are booleans in pyspiel (0 and 1 in arena).
    booleans: ClassVar[frozenset[str]] = frozenset()

    def check_parameters(self) -> None:
        # Only the parameters set away from their defaults: some games' listed defaults mean "unset"
        # (hanabi's colors 0), and pyspiel aborts the process when it is given them.
        spec: dict[str, Any] = {key: bool(value) if key in self.booleans else value
                                for key, value in self.params.items() if value != self.parameters[key].default}
        if self.takes_players:
            spec["players"] = self.players
        try:
            self.native = pyspiel.load_game(self.short_name, spec)
            self.native.new_initial_state()
        except pyspiel.SpielError as exc:
            raise GameError(f"{self.name}: OpenSpiel refuses {spec}: {exc}") from None
        if self.native.num_players() != self.players:
            raise GameError(f"{self.name}: OpenSpiel made a game of {self.native.num_players()} players, "
                            f"not {self.players}")
        self.default_max_moves = max_steps(self.native)  # type: ignore[misc]
        kind = self.native.get_type()
        # What a seat sees: the game's observation where it has one, else its information state.
        self._text = "observation" if kind.provides_observation_string else \
            "information_state" if kind.provides_information_state_string else None
        self._tensor = "observation" if kind.provides_observation_tensor else \
            "information_state" if kind.provides_information_state_tensor else None

    # -- the forward model ------------------------------------------------------------------------

    def initial_state(self) -> SpielState:
        return SpielState(self.native.new_initial_state(), 0)

    def actor(self, state: SpielState) -> int:
        if state.native.is_terminal():
            return TERMINAL
        return int(state.native.current_player())

    def legal_moves(self, state: SpielState, seat: int) -> list[Action]:
        who = self.actor(state)
        if who != seat and who != SIMULTANEOUS:  # seats are >= 0: chance and terminal give nothing
            return []
        native = state.native
        return [Action(a, native.action_to_string(seat, a)) for a in native.legal_actions(seat)]

    def chance_outcomes(self, state: SpielState) -> list[tuple[Action, Fraction]]:
        if self.actor(state) != CHANCE:
            raise GameError(f"{self.name}: this state is not a chance node")
        native = state.native
        pairs = [(a, Fraction(p).limit_denominator(PROBABILITY_DENOMINATOR)) for a, p in native.chance_outcomes()]
        pairs = [(a, p) for a, p in pairs if p > 0]
        if not pairs:
            raise GameError(f"{self.name}: a chance node without outcomes")
        largest = max(range(len(pairs)), key=lambda i: pairs[i][1])
        action, p = pairs[largest]
        pairs[largest] = (action, p + 1 - sum((q for _, q in pairs), Fraction(0)))
        return [(Action(a, native.action_to_string(pyspiel.PlayerId.CHANCE, a)), p) for a, p in pairs]

    def apply(self, state: SpielState, move: Action) -> SpielState:
        if self.actor(state) == SIMULTANEOUS:
            raise GameError(f"{self.name}: a simultaneous node takes apply_joint")
        native = state.native.clone()
        try:
            native.apply_action(move.id)
        except pyspiel.SpielError as exc:
            raise IllegalMoveError(f"{self.name}: OpenSpiel refuses {self.describe_move(move)}: {exc}") from None
        return SpielState(native, state.steps + 1)

    def apply_joint(self, state: SpielState, moves: Any) -> SpielState:
        if self.actor(state) != SIMULTANEOUS:
            raise GameError(f"{self.name}: not a simultaneous node")
        native = state.native.clone()
        # pyspiel takes one action per player; a seat with nothing to choose gets its only action.
        actions = []
        for seat in range(self.players):
            legal = native.legal_actions(seat)
            actions.append(moves[seat].id if seat in moves else (legal[0] if legal else pyspiel.INVALID_ACTION))
        try:
            native.apply_actions(actions)
        except pyspiel.SpielError as exc:
            raise IllegalMoveError(f"{self.name}: OpenSpiel refuses the joint move {actions}: {exc}") from None
        return SpielState(native, state.steps + 1)

    def returns(self, state: SpielState) -> tuple[float, ...]:
        return tuple(float(r) for r in state.native.returns())

    def ply(self, state: SpielState) -> int:
        return state.steps

    # -- what seats see, and the record ------------------------------------------------------------

    def observation(self, state: SpielState, seat: int) -> dict[str, Any]:
        native = state.native
        legal = self.legal_moves(state, seat)
        shown: dict[str, Any] = {"game": self.short_name,
                                 "legalActions": [a.id for a in legal], "legalNames": [a.name for a in legal]}
        if self._text is not None:
            shown["textOf"] = self._text
            shown["text"] = native.observation_string(seat) if self._text == "observation" \
                else native.information_state_string(seat)
        if self._tensor is not None:
            shown["tensorOf"] = self._tensor
            if self._tensor == "observation":
                shown["tensor"] = list(native.observation_tensor(seat))
                shown["shape"] = list(self.native.observation_tensor_shape())
            else:
                shown["tensor"] = list(native.information_state_tensor(seat))
                shown["shape"] = list(self.native.information_state_tensor_shape())
        return shown

    def board_text(self, state: SpielState, seat: int | None = None) -> str:
        """The whole state as OpenSpiel prints it, or (``seat``) the seat's text observation (its
        legal moves when the game has no text form)."""
        if seat is None:
            return str(state.native)
        shown = self.observation(state, seat)
        return str(shown.get("text", "legal: " + " ".join(shown["legalNames"])))

    def state_to_json(self, state: SpielState) -> dict[str, Any]:
        return {"history": list(state.history)}

    def state_from_json(self, obj: Any) -> SpielState:
        history = obj.get("history") if isinstance(obj, dict) else None
        if not isinstance(history, list) or not all(type(a) is int for a in history):
            raise StateError(f'{self.name}: a state is {{"history": [action ids]}}, got {obj!r:.80}')
        native, steps, index = self.native.new_initial_state(), 0, 0
        try:
            while index < len(history):
                if native.is_simultaneous_node():
                    native.apply_actions(history[index:index + self.players])
                    index += self.players
                else:
                    native.apply_action(history[index])
                    index += 1
                steps += 1
        except pyspiel.SpielError as exc:
            raise StateError(f"{self.name}: the history {history[:index + 1]} is not playable: {exc}") from None
        return SpielState(native, steps)

    def parse_move(self, wire: Any) -> Action:
        if type(wire) is int:
            return Action(wire, "")
        if isinstance(wire, str) and wire:
            return Action(-1, wire)
        raise MoveSyntaxError(f"{self.name}: a move is an action's name (a string) or its id (an integer), "
                              f"got {wire!r:.60}")

    def move_to_wire(self, move: Action) -> Any:
        return move.name

    def move_to_record(self, move: Action) -> Any:
        return {"id": move.id, "name": move.name}

    def move_from_record(self, turn: Any) -> Action:
        if isinstance(turn, dict) and type(turn.get("id")) is int and isinstance(turn.get("name"), str):
            return Action(turn["id"], turn["name"])
        return self.parse_move(turn)

    def describe_move(self, move: Action) -> str:
        return move.name or str(move.id)

    def validate_move(self, state: SpielState, seat: int, move: Action) -> Action:
        legal = self.legal_moves(state, seat)
        for candidate in legal:
            if (candidate.name == move.name or not move.name) and (candidate.id == move.id or move.id == -1):
                return candidate
        shown = ", ".join(a.name for a in legal[:12]) + (", ..." if len(legal) > 12 else "")
        raise IllegalMoveError(f"{self.describe_move(move)} is not a legal move for seat {seat} here "
                               f"(legal: {shown or 'none'})")


def max_steps(game: Any) -> int:
    """A move cap that no game of ``game`` reaches: its longest game (decisions) plus its most
    chance nodes, each at least 1."""
    try:
        chance = int(game.max_chance_nodes_in_history())
    except pyspiel.SpielError:
        chance = 0
    return max(1, int(game.max_game_length())) + max(0, chance)


_classes: dict[str, type[SpielGame]] = {}


def game_class(short_name: str) -> type[SpielGame]:
    """The :class:`SpielGame` subclass of the OpenSpiel game ``short_name`` (made once); GameError
    when pyspiel has no such game, or one arena cannot play (one seat, mean-field dynamics, or a
    game that does not load without parameters of a kind arena does not set)."""
    if short_name in _classes:
        return _classes[short_name]
    kinds = {t.short_name: t for t in pyspiel.registered_games()}
    kind = kinds.get(short_name)
    if kind is None:
        raise GameError(f"OpenSpiel has no game {short_name!r} (see 'arena games --all')")
    why = unplayable(kind)
    if why:
        raise GameError(f"spiel:{short_name}: {why}")
    try:
        default = pyspiel.load_game(short_name)
    except pyspiel.SpielError as exc:
        raise GameError(f"spiel:{short_name}: OpenSpiel cannot load it with its defaults: {exc}") from None
    takes_players = "players" in kind.parameter_specification
    players = default.num_players()
    if players < 2:
        raise GameError(f"spiel:{short_name}: OpenSpiel makes it a game of {players} player by default "
                        "(arena plays games between bots)")
    parameters = spiel_parameters(kind)
    attrs = {
        "name": f"spiel:{short_name}",
        "short_name": short_name,
        "game_type": kind,
        "takes_players": takes_players,
        "min_players": max(2, kind.min_num_players) if takes_players else players,
        "max_players": kind.max_num_players if takes_players else players,
        "default_players": players,
        "parameters": parameters,
        "booleans": frozenset(k for k, p in parameters.items() if p.help == BOOLEAN_HELP),
        "default_max_moves": max_steps(default),
        "__doc__": f"OpenSpiel's {kind.long_name} ({short_name}).",
    }
    cls = type(f"Spiel_{short_name}", (SpielGame,), attrs)
    _classes[short_name] = cls
    return cls


def unplayable(kind: Any) -> str | None:
    """Why arena cannot play the pyspiel game type ``kind``, or None."""
    if str(kind.dynamics).endswith("MEAN_FIELD"):
        return "a mean-field game: arena plays games between seats"
    if kind.max_num_players < 2:
        return "a game of one player: arena plays games between bots"
    if str(kind.chance_mode).endswith("SAMPLED_STOCHASTIC"):
        return "its chance is drawn inside OpenSpiel, not from listed outcomes (arena draws chance itself)"
    if not kind.default_loadable:
        return "needs parameters that are games or files (arena sets integers and booleans only)"
    return None
