"""A game whose rules are a referee's: :class:`ExternalGame`, a :class:`GeneralGame` over a
:class:`~arena.referee.client.RefereeClient`.

A state is an :class:`ExternalState`: the referee's state JSON and the node the referee gave with
it, so who acts, the legal moves, the chance outcomes, the returns and the ply cost no round trip;
``apply`` and ``apply_joint`` cost one, ``observation`` none when the node carried the seat's
observation (else one), ``state_from_json`` one (``node``) for a state JSON this referee has not
read yet (the referee's subclass remembers :data:`NODE_MEMORY` nodes by their state's canonical
JSON: replaying many records, as ``arena report`` does, their shared positions cost nothing). A
ply therefore costs at most two round trips. Moves and chance outcomes are the referee's JSON values, passed through unchanged
(``parse_move`` and ``move_to_wire`` are the identity); arena checks a bot's move against the node's
``legal`` list before the referee sees it.

:func:`external_game_class` makes one subclass per referee, carrying its ``info`` (name, seats,
parameters, move cap) as the class attributes every :class:`GeneralGame` has; an instance is the
game configured with its players and parameters, as :meth:`arena.games.registry.GameSpec.table`
makes it. Failures of the referee raise :class:`~arena.referee.client.RefereeError`; a state the
referee refuses in ``state_from_json`` is a :class:`arena.games.base.StateError` (a bad input, not a
broken referee).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from arena.games.base import GameError, StateError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame
from arena.referee.client import RefereeClient, RefereeError
from arena.referee.protocol import (
    Info,
    Node,
    decode_board,
    decode_eliminated,
    decode_node,
    decode_observation,
    decode_playout,
    joint_request,
    move_key,
    request,
)

#: Moves an :class:`ExternalGame` remembers for ``describe_move`` (then it forgets them all).
NOTATION_MEMORY = 50_000
#: Nodes a referee's subclass remembers for ``state_from_json`` (then it forgets them all).
NODE_MEMORY = 20_000


@dataclass(frozen=True, eq=False)
class ExternalState:
    """One state of an external game: the referee's JSON (``state``) and its node. Immutable by
    contract (the JSON is never modified). Equal when the referee's JSON is; hashed by the node's
    ``hash`` when the referee gives one, else by the canonical JSON text."""

    node: Node

    @property
    def state(self) -> Any:
        return self.node.state

    @property
    def key(self) -> Any:
        """A hashable identity of the state: the referee's hash, else its canonical JSON text."""
        return self.node.hash if self.node.hash is not None else move_key(self.node.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExternalState) and move_key(self.state) == move_key(other.state)

    def __hash__(self) -> int:
        return hash(self.key)


class ExternalGame(GeneralGame[ExternalState, Any]):
    """One configured game of a referee (see the module docstring); made by the subclass
    :func:`external_game_class` gives for the referee's client."""

    client: ClassVar[RefereeClient]
    info: ClassVar[Info]
    #: ``state_from_json``'s nodes by (players, the state's canonical JSON): one table per referee.
    nodes: ClassVar[dict[tuple[int, bytes], Node]]

    def __init__(self, players: int | None = None, **params: int) -> None:
        if not hasattr(type(self), "client"):
            raise GameError("ExternalGame is made per referee: use arena.referee.game.external_game_class")
        super().__init__(players, **params)
        self._start: ExternalState | None = None
        self._notation: dict[bytes, str] = {}
        self._plain: set[bytes] = set()

    def identity(self) -> dict[str, Any]:
        """The game's identity, naming the rules program (``rules``) that plays it."""
        return {**super().identity(), "rules": self.client.command}

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as what makes it (the referee's command, players, parameters), never as its
        # process: a game played in a worker process reaches the driver's live view as the
        # driver's own game of that referee (the driver registered the same command for the run).
        return (_configured_external_game, (self.client.argv, self.players, dict(self.params)))

    @classmethod
    def has_feature(cls, feature: str) -> bool:
        """Whether the referee lists ``feature`` (``hash``, ``board``, ``svg``, ``playout``,
        ``eliminate``) in its ``info``."""
        return feature in cls.info.features

    # -- the forward model --------------------------------------------------------------------

    def initial_state(self) -> ExternalState:
        if self._start is None:  # one `new` per configured game: the protocol is stateless
            self._start = self._ask(request("new", players=self.players, params=self.params), "new")
        return self._start

    def actor(self, state: ExternalState) -> int:
        return state.node.actor

    def acting_seats(self, state: ExternalState) -> tuple[int, ...]:
        node = state.node
        if node.actor >= 0:
            return (node.actor,)
        if node.actor == SIMULTANEOUS:
            return tuple(sorted(node.legal))
        return ()

    def legal_moves(self, state: ExternalState, seat: int) -> list[Any]:
        return list(state.node.legal.get(seat, ()))

    def chance_outcomes(self, state: ExternalState) -> list[tuple[Any, Fraction]]:
        if state.node.actor != CHANCE:
            raise GameError(f"{self.name}: this state is not a chance node")
        return list(state.node.chance)

    def apply(self, state: ExternalState, move: Any) -> ExternalState:
        return self._ask(request("apply", state=state.state, move=move), "apply")

    def apply_joint(self, state: ExternalState, moves: Mapping[int, Any]) -> ExternalState:
        return self._ask(joint_request(state.state, moves), "apply_joint")

    def is_terminal(self, state: ExternalState) -> bool:
        return state.node.actor == TERMINAL

    def returns(self, state: ExternalState) -> tuple[float, ...]:
        given = state.node.returns
        return given if given is not None else (0.0,) * self.players

    def ply(self, state: ExternalState) -> int:
        return state.node.ply

    def eliminate(self, state: ExternalState, seat: int) -> ExternalState | None:
        if not self.has_feature("eliminate"):
            return None
        reply = self.client.call(request("eliminate", state=state.state, seat=seat), "eliminate")
        node = self.client.decoded(decode_eliminated, reply, "eliminate", self.players)
        return None if node is None else ExternalState(self._learn(node))

    # -- what seats see, and the record ---------------------------------------------------------

    def observation(self, state: ExternalState, seat: int) -> dict[str, Any]:
        carried = state.node.observations.get(seat)
        if carried is not None:
            return carried
        reply = self.client.call(request("observation", state=state.state, seat=seat), "observation")
        seen: dict[str, Any] = self.client.decoded(decode_observation, reply, "observation")
        return seen

    def state_to_json(self, state: ExternalState) -> Any:
        return state.state

    def state_from_json(self, obj: Any) -> ExternalState:
        """The state of the referee's JSON ``obj`` (one ``node`` request, none for a state JSON read
        before: a referee's answer is a function of the state); StateError when the referee answers
        that it is no state of its game."""
        key = (self.players, move_key(obj))
        known = self.nodes.get(key)
        if known is not None:
            return ExternalState(self._learn(known))
        try:
            state = self._ask(request("node", state=obj), "node")
        except RefereeError as exc:
            if exc.refusal is None:
                raise
            raise StateError(f"{self.name}: the referee refuses this state: {exc.refusal}") from None
        if len(self.nodes) >= NODE_MEMORY:
            self.nodes.clear()
        self.nodes[key] = state.node
        return state

    def parse_move(self, wire: Any) -> Any:
        return wire

    def move_to_wire(self, move: Any) -> Any:
        return move

    def describe_move(self, move: Any) -> str:
        """The move's notation, as the nodes of this game gave it, when they always gave it the same
        notation (a move never seen without notation, nor as a chance outcome: the move alone cannot
        tell which it is); else the move itself when it is a string, else its JSON text."""
        if self._notation:
            key = move_key(move)
            if key not in self._plain and key in self._notation:
                return self._notation[key]
        return move if isinstance(move, str) else json.dumps(move, separators=(",", ":"))

    def board_text(self, state: ExternalState, seat: int | None = None) -> str:
        if not self.has_feature("board"):
            return super().board_text(state, seat)
        text, _ = self.board(state.state, seat)
        return text

    def board(self, state_json: Any, seat: int | None = None, want_svg: bool = False) -> tuple[str, str | None]:
        """The referee's ``board`` answer for a state's JSON: its text and SVG picture (or None)."""
        reply = self.client.call(request("board", state=state_json, seat=seat), "board")
        answer: tuple[str, str | None] = self.client.decoded(decode_board, reply, "board", want_svg)
        return answer

    # -- search --------------------------------------------------------------------------------

    def determinize(self, observation: Mapping[str, Any], seat: int, rng: random.Random) -> ExternalState:
        """A state consistent with what ``seat`` sees: the referee's ``determinize`` command when it
        has one (one round trip, seeded from ``rng``), else, for a referee that declares
        ``perfect_information``, the observation read as the state; GameError otherwise."""
        if self.has_feature("determinize"):
            return self._ask(request("determinize", observation=observation, seat=seat,
                                     seed=rng.randrange(2**31)), "determinize")
        return super().determinize(observation, seat, rng)

    def playout(self, state: ExternalState, seed: int, count: int = 1) -> list[tuple[float, ...]]:
        """``count`` uniformly random playouts from ``state`` to the end, in one round trip: one
        returns vector each. GameError when the referee lacks the ``playout`` feature."""
        if not self.has_feature("playout"):
            raise GameError(f"{self.name}: the rules program {self.client.command!r} has no 'playout' command "
                            f"(its features: {', '.join(sorted(self.info.features)) or 'none'})")
        reply = self.client.call(request("playout", state=state.state, seed=seed, count=count), "playout")
        returns: list[tuple[float, ...]] = self.client.decoded(decode_playout, reply, "playout", self.players, count)
        return returns

    # -- the round trip ----------------------------------------------------------------------------

    def _ask(self, line: bytes, cmd: str) -> ExternalState:
        reply = self.client.call(line, cmd)
        node: Node = self.client.decoded(decode_node, reply, cmd, self.players)
        return ExternalState(self._learn(node))

    def _learn(self, node: Node) -> Node:
        """Remember the notation of the node's moves, and which moves are ambiguous: seen without
        notation (chance outcomes among them) or with two notations (for :meth:`describe_move`)."""
        if len(self._notation) + len(self._plain) > NOTATION_MEMORY:
            self._notation.clear()
            self._plain.clear()
        for outcome, _ in node.chance:
            self._plain.add(move_key(outcome))
        if not node.notation and not self._notation:
            return node  # a referee that never gives notation costs nothing more
        for seat, moves in node.legal.items():
            texts = node.notation.get(seat)
            if texts is None:
                self._plain.update(move_key(move) for move in moves)
                continue
            for move, text in zip(moves, texts, strict=True):
                key = move_key(move)
                if self._notation.setdefault(key, text) != text:
                    self._plain.add(key)
        return node


def external_game_class(client: RefereeClient) -> type[ExternalGame]:
    """The :class:`ExternalGame` subclass of ``client``'s referee, its class attributes from the
    referee's ``info`` (asked now: RefereeError when the referee fails)."""
    info = client.info()
    attributes = {
        "name": info.name,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "default_players": info.default_players,
        "parameters": {p.name: p for p in info.parameters},
        "default_max_moves": info.default_max_moves,
        "perfect_information": "perfect_information" in info.features,
        "client": client,
        "info": info,
        "nodes": {},
        "__module__": __name__,
        "__doc__": f"The game {info.name!r} of the rules program {client.command!r}.",
    }
    return type(f"ExternalGame_{info.name}", (ExternalGame,), attributes)


def _configured_external_game(argv: tuple[str, ...], players: int, params: dict[str, int]) -> ExternalGame:
    """The game of referee ``argv`` with ``players`` and ``params`` in this process: its registered
    game when this process already asked the referee (no new process), else registered now."""
    from arena.referee.registration import register_referee  # the layer above this module's

    return register_referee(argv).table(players, params)  # type: ignore[return-value]


__all__ = ["NODE_MEMORY", "NOTATION_MEMORY", "ExternalGame", "ExternalState", "external_game_class"]

