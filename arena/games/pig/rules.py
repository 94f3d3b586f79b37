"""Pig, the dice race, in the general game model (standard library only).

Rules (the classic game, with OpenSpiel's ``pig`` as the model of its shape; not claimed to match
OpenSpiel move for move). 2 to 4 seats race to ``target`` points (default 100). Seat 0 starts; on
its turn a seat rolls a six-sided die as often as it likes:

- a **1** ends the turn and loses the points gathered in it (the *turn total*);
- a **2 to 6** adds its value to the turn total, and the seat chooses again;
- to **hold** banks the turn total into the seat's score and ends the turn. Holding is legal only
  with a turn total above 0 (the first choice of a turn is always ``roll``), so every turn either
  busts or banks points and no seat can stall.

The first seat whose banked score reaches ``target`` wins at once. Returns: winner takes all, ``+1``
for the winner and ``-1/(N-1)`` for every other seat (ranks 1, 2, 2, ...: the losers' order is not
played out); a game that has no winner when it stops (the match's move cap) returns 0 to every seat.

Steps: a seat's ``roll`` or ``hold`` is one step, the die's throw after a ``roll`` another (a chance
node with the outcomes 1 to 6, each 1/6). So a turn of ``r`` rolls that holds is ``2r + 1`` steps.

Elimination (a faulting seat, :meth:`PigGame.eliminate`): the seat is out; if it was on turn, its
turn ends and its turn total is lost; its later turns are skipped and it cannot win. When a single
seat is left playing, that seat wins.

Wire form of a move (the ``payload`` of a ``turn``): the JSON string ``"roll"`` or ``"hold"``. A
die's outcome is the integer 1 to 6 in records.

Observation of a seat (everything is public: the observation is the state with the seat's number)::

    {"seat": 1, "players": 3, "target": 100, "scores": [34, 20, 51], "turn": 1, "turnTotal": 12,
     "rolling": false, "lastRoll": 5, "eliminated": [], "winner": null, "steps": 41}

``turn`` is the seat on turn, ``turnTotal`` its points this turn (not yet banked), ``rolling``
whether the die is being thrown (a chance node: seats are never asked then), ``lastRoll`` the last
die thrown in the game (null before the first), ``winner`` the seat that won (null while playing),
``steps`` the steps played so far.

Example exchange (seat 1's turn, 12 points gathered)::

    > {"type": "game_state", "payload": {"seat": 1, "players": 3, "target": 100, ...}, "timeLeftMs": 5000,
       "seat": 1, "players": 3, "simultaneous": false}
    < {"type": "turn", "payload": "hold"}

The state object (``state_to_json``) is the observation without ``seat``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

from arena.games.base import IllegalMoveError, MoveSyntaxError, StateError, exact_keys, show_value
from arena.games.model import CHANCE, TERMINAL, GeneralGame, Parameter
from arena.games.registry import spec_of

ROLL, HOLD = "roll", "hold"
FACES = 6
#: A move: a die's face (a chance outcome) or a seat's choice.
PigMove = int | str

STATE_KEYS = ("players", "target", "scores", "turn", "turnTotal", "rolling", "lastRoll", "eliminated", "winner",
              "steps")


@dataclass(frozen=True)
class PigState:
    """``scores``: banked points per seat. ``turn``: the seat on turn. ``turn_total``: its points
    this turn. ``rolling``: a throw of the die is due (a chance node). ``last_roll``: the last face
    thrown (None before the first). ``eliminated``: seats out, in order of fault. ``winner``: the
    winning seat, or None while the game goes on. ``steps``: moves and throws played."""

    scores: tuple[int, ...]
    turn: int = 0
    turn_total: int = 0
    rolling: bool = False
    last_roll: int | None = None
    eliminated: tuple[int, ...] = ()
    winner: int | None = None
    steps: int = 0


class PigGame(GeneralGame[PigState, PigMove]):
    """Pig with ``players`` seats (2 to 4) racing to ``target`` points (see the module docstring)."""

    name = "pig"
    min_players, max_players, default_players = 2, 4, 2
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "target": Parameter("target", 100, 1, 1000, "the banked points that win")}
    default_max_moves = 3000
    perfect_information = True

    @property
    def target(self) -> int:
        return self.params["target"]

    def initial_state(self) -> PigState:
        return PigState((0,) * self.players)

    def actor(self, state: PigState) -> int:
        if state.winner is not None:
            return TERMINAL
        return CHANCE if state.rolling else state.turn

    def legal_moves(self, state: PigState, seat: int) -> list[PigMove]:
        if self.actor(state) != seat:
            return []
        return [ROLL, HOLD] if state.turn_total > 0 else [ROLL]

    def chance_outcomes(self, state: PigState) -> list[tuple[PigMove, Fraction]]:
        if self.actor(state) != CHANCE:
            return super().chance_outcomes(state)
        return [(face, Fraction(1, FACES)) for face in range(1, FACES + 1)]

    def apply(self, state: PigState, move: PigMove) -> PigState:
        who = self.actor(state)
        if who == TERMINAL:
            raise IllegalMoveError("pig: the game is over")
        if who == CHANCE:
            if type(move) is not int or not 1 <= move <= FACES:
                raise IllegalMoveError(f"pig: {show_value(move)} is not a face of the die")
            if move == 1:
                return self._pass_turn(replace(state, last_roll=1, steps=state.steps + 1))
            return replace(state, turn_total=state.turn_total + move, rolling=False, last_roll=move,
                           steps=state.steps + 1)
        if move == ROLL:
            return replace(state, rolling=True, steps=state.steps + 1)
        if move == HOLD and state.turn_total > 0:
            scores = tuple(s + state.turn_total if seat == who else s for seat, s in enumerate(state.scores))
            banked = replace(state, scores=scores, steps=state.steps + 1)
            if scores[who] >= self.target:
                return replace(banked, turn_total=0, winner=who)
            return self._pass_turn(banked)
        raise IllegalMoveError(f"pig: {show_value(move)} is not a legal move for seat {who} here")

    def _pass_turn(self, state: PigState) -> PigState:
        """The next seat still playing takes the turn; the turn total is lost."""
        playing = [s for s in range(self.players) if s not in state.eliminated]
        after = [s for s in playing if s > state.turn] + [s for s in playing if s <= state.turn]
        return replace(state, turn=after[0], turn_total=0, rolling=False)

    def returns(self, state: PigState) -> tuple[float, ...]:
        if state.winner is None:
            return (0.0,) * self.players
        loss = -1.0 / (self.players - 1)
        return tuple(1.0 if seat == state.winner else loss for seat in range(self.players))

    def ply(self, state: PigState) -> int:
        return state.steps

    def eliminate(self, state: PigState, seat: int) -> PigState | None:
        """``seat`` is out (see the module docstring); None once the game is over."""
        if state.winner is not None:
            return None
        if not 0 <= seat < self.players:
            raise IllegalMoveError(f"pig: no seat {seat}")
        if seat in state.eliminated:
            return state
        state = replace(state, eliminated=(*state.eliminated, seat))
        playing = [s for s in range(self.players) if s not in state.eliminated]
        if len(playing) == 1:
            return replace(state, winner=playing[0], turn=playing[0], turn_total=0, rolling=False)
        return self._pass_turn(state) if seat == state.turn else state

    def determinize(self, observation: Mapping[str, Any], seat: int, rng: random.Random) -> PigState:
        """The state itself: a seat sees all of it."""
        return self.state_from_json({key: observation[key] for key in STATE_KEYS if key in observation})

    # -- what seats see, and the record ---------------------------------------------------------

    def observation(self, state: PigState, seat: int) -> dict[str, Any]:
        return {"seat": seat, **self.state_to_json(state)}

    def state_to_json(self, state: PigState) -> dict[str, Any]:
        return {"players": self.players, "target": self.target, "scores": list(state.scores), "turn": state.turn,
                "turnTotal": state.turn_total, "rolling": state.rolling, "lastRoll": state.last_roll,
                "eliminated": list(state.eliminated), "winner": state.winner, "steps": state.steps}

    def state_from_json(self, obj: Any) -> PigState:
        """The state of a ``state_to_json`` object; StateError names the first field that is wrong."""
        exact_keys(obj, "pig state", STATE_KEYS, StateError)
        for key, want in (("players", self.players), ("target", self.target)):
            if obj[key] != want:
                raise StateError(f"pig state: {key} is {show_value(obj[key])}, this game has {want}")
        scores, eliminated = obj["scores"], obj["eliminated"]
        if not (isinstance(scores, list) and len(scores) == self.players
                and all(type(s) is int and s >= 0 for s in scores)):
            raise StateError(f"pig state: scores must be {self.players} non-negative integers, got {show_value(scores)}")
        seats = range(self.players)
        if not (isinstance(eliminated, list) and all(type(s) is int and s in seats for s in eliminated)
                and len(set(eliminated)) == len(eliminated) and len(eliminated) < self.players):
            raise StateError(f"pig state: eliminated must list distinct seats, not all, got {show_value(eliminated)}")
        turn, total, winner = obj["turn"], obj["turnTotal"], obj["winner"]
        if type(turn) is not int or turn not in seats or turn in eliminated:
            raise StateError(f"pig state: turn must be a seat still playing, got {show_value(turn)}")
        if type(total) is not int or total < 0:
            raise StateError(f"pig state: turnTotal must be a non-negative integer, got {show_value(total)}")
        if type(obj["rolling"]) is not bool:
            raise StateError(f"pig state: rolling must be true or false, got {show_value(obj['rolling'])}")
        last = obj["lastRoll"]
        if last is not None and (type(last) is not int or not 1 <= last <= FACES):
            raise StateError(f"pig state: lastRoll must be null or 1 to {FACES}, got {show_value(last)}")
        if winner is not None and (type(winner) is not int or winner not in seats or winner in eliminated):
            raise StateError(f"pig state: winner must be null or a seat still playing, got {show_value(winner)}")
        if winner is None and any(s >= self.target for s in scores):
            raise StateError(f"pig state: a score reached {self.target} but nobody won")
        if type(obj["steps"]) is not int or obj["steps"] < 0:
            raise StateError(f"pig state: steps must be a non-negative integer, got {show_value(obj['steps'])}")
        return PigState(tuple(scores), turn, total, obj["rolling"], last, tuple(eliminated), winner, obj["steps"])

    def parse_move(self, wire: Any) -> PigMove:
        if wire not in (ROLL, HOLD) or not isinstance(wire, str):
            raise MoveSyntaxError(f'a Pig move is "roll" or "hold", got {show_value(wire)}')
        return wire

    def move_to_wire(self, move: PigMove) -> Any:
        return move

    def move_from_record(self, turn: Any) -> PigMove:
        """A record's move: a face of the die (a chance throw) or a seat's choice."""
        return turn if type(turn) is int else self.parse_move(turn)

    def describe_move(self, move: PigMove) -> str:
        return f"die {move}" if isinstance(move, int) else str(move)

    def board_text(self, state: PigState, seat: int | None = None) -> str:
        """The scores, whose turn and its total, the last throw (a seat's view is the same but for
        its mark: nothing is hidden)."""
        last = "-" if state.last_roll is None else str(state.last_roll)
        if state.winner is not None:
            head = f"Pig, {self.players} players, target {self.target}: P{state.winner} won"
        else:
            doing = "rolls" if state.rolling else "to roll or hold"
            head = f"Pig, {self.players} players, target {self.target}: P{state.turn} {doing}, turn total " \
                   f"{state.turn_total}, last throw {last}"
        lines = [head]
        for s in range(self.players):
            mark = "*" if s == seat else " "
            notes = [f"+{state.turn_total} this turn" if s == state.turn and state.winner is None else "",
                     "out" if s in state.eliminated else "", "winner" if s == state.winner else ""]
            lines.append(f"{mark}P{s} {state.scores[s]:>4}  {' '.join(n for n in notes if n)}".rstrip())
        if state.winner is not None and seat is None:
            lines.append("returns: " + " ".join(f"{r:+.3g}" for r in self.returns(state)))
        return "\n".join(lines)


#: The registry line (:data:`arena.games.registry.BUILTIN_GAMES`).
SPEC = spec_of(PigGame, "Pig", svg="arena.games.pig.svg:board_svg",
               summary="The dice race: roll to gather points, hold to bank them, a 1 loses the turn's; first to "
               "target wins (2-4 players).",
               notation='"roll" or "hold" (JSON strings); hold needs points gathered this turn')
