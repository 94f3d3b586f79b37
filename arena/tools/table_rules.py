"""The rules tools for games of the general model (:mod:`arena.games.model`): `arena pass-through`,
`arena moves` and `arena perft` with an N-seat game (``--players``, ``--param``).

Inputs and outputs are one JSON object per line, as for two-player games (:mod:`arena.tools.rules`
runs the stream, with the same exit statuses); states are the omniscient states of records.

- pass-through: ``{"game_state": S, "seat": k, "turn": T}`` at a seat's node,
  ``{"game_state": S, "turns": {"0": T0, "2": T2}}`` at a simultaneous node (one move per acting
  seat), ``{"game_state": S, "chance": O}`` at a chance node -> the next state.
- moves: a state -> ``{"actor": k, "moves": {"k": [...]}}`` (a seat or ``"simultaneous"``, with every
  acting seat's moves), ``{"actor": "chance", "outcomes": [[O, "1/3"], ...]}`` or
  ``{"actor": "terminal", "returns": [...]}``.
- perft: :func:`arena.tools.perft.perft`, the count of every game (a chance outcome and a joint move
  of a simultaneous node count one step each; ``divide`` labels the first steps by their outcome,
  move or joint move, ``{"0": T0, ...}``); this module only reads the state.
"""

from __future__ import annotations

from typing import Any

from arena.games import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, apply_step
from arena.tools.perft import perft
from arena.tools.rules import MalformedInput


def _state(game: GeneralGame[Any, Any], obj: Any, where: str) -> Any:
    try:
        return game.state_from_json(obj)
    except StateError as exc:
        raise MalformedInput(f"{where}: {exc}") from None


def pass_through_one(game: GeneralGame[Any, Any], obj: dict[str, Any]) -> dict[str, Any]:
    """One step (module docstring) -> the next state; MalformedInput, IllegalMoveError."""
    if "game_state" not in obj:
        raise MalformedInput("missing key 'game_state' (and one of 'turn' with 'seat', 'turns', 'chance')")
    keys = sorted(set(obj) - {"game_state"})
    if keys not in (["seat", "turn"], ["turns"], ["chance"]):
        raise MalformedInput(f"expected 'seat' and 'turn', or 'turns', or 'chance' beside 'game_state', got {keys}")
    state = _state(game, obj["game_state"], "game_state")
    if game.actor(state) == TERMINAL:
        raise IllegalMoveError("the game is already over")
    if "chance" in obj:
        step: dict[str, Any] = {"kind": "chance", "outcome": obj["chance"]}
    elif "turns" in obj:
        if not isinstance(obj["turns"], dict) or not all(isinstance(k, str) and k.isdigit() for k in obj["turns"]):
            raise MalformedInput('turns: expected an object {"<seat>": <move>, ...}')
        step = {"kind": "joint", "moves": obj["turns"]}
    else:
        if type(obj["seat"]) is not int:
            raise MalformedInput(f"seat: expected an integer, got {obj['seat']!r}")
        step = {"kind": "move", "seat": obj["seat"], "move": obj["turn"]}
    try:
        return game.state_to_json(apply_step(game, state, step))
    except MoveSyntaxError as exc:  # not a move at all
        raise MalformedInput(f"{'chance' if 'chance' in obj else 'turn'}: {exc}") from None
    except IllegalMoveError:
        raise
    except GameError as exc:  # a step the rules do not take here (not a chance node...)
        raise IllegalMoveError(str(exc)) from None


def moves_one(game: GeneralGame[Any, Any], obj: dict[str, Any]) -> dict[str, Any]:
    """A state -> who acts and what they may do (module docstring)."""
    state = _state(game, obj, "state")
    actor = game.actor(state)
    if actor == TERMINAL:
        return {"actor": "terminal", "returns": list(game.returns(state))}
    if actor == CHANCE:
        return {"actor": "chance", "outcomes": [[game.move_to_wire(o), str(p)] for o, p in game.chance_outcomes(state)]}
    moves = {str(seat): [game.move_to_wire(m) for m in game.legal_moves(state, seat)] for seat in game.acting_seats(state)}
    return {"actor": "simultaneous" if actor == SIMULTANEOUS else actor, "moves": moves}


def perft_one(game: GeneralGame[Any, Any], obj: dict[str, Any], depth: int, divide: bool) -> dict[str, Any]:
    """A state's JSON form -> :func:`arena.tools.perft.perft` of it, as JSON."""
    return perft(game, _state(game, obj, "state"), depth, divide).to_json()


__all__ = ["moves_one", "pass_through_one", "perft_one"]
