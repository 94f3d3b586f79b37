"""A toy game of the general model for the N-seat engine's tests: chance deals each seat a secret
card (1-3), then every seat still playing bids 0-2 at once, for ``rounds`` rounds; the highest
card + bid total wins. A faulting seat is out (its bids no longer count)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

from arena.games.base import MoveSyntaxError, StateError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, Parameter


@dataclass(frozen=True)
class ToyState:
    cards: tuple[int, ...]
    bids: tuple[tuple[int, ...], ...]  # one tuple of bids per round
    out: frozenset[int] = frozenset()


class SecretBid(GeneralGame[ToyState, int]):
    name = "secret_bid"
    min_players, max_players, default_players = 2, 6, 3
    parameters: ClassVar[dict[str, Parameter]] = {"rounds": Parameter("rounds", 2, 1, 5)}
    default_max_moves = 100

    def initial_state(self) -> ToyState:
        return ToyState((), ())

    def actor(self, state: ToyState) -> int:
        if len(state.cards) < self.players:
            return CHANCE
        return SIMULTANEOUS if len(state.bids) < self.params["rounds"] else TERMINAL

    def acting_seats(self, state: ToyState) -> tuple[int, ...]:
        if self.actor(state) != SIMULTANEOUS:
            return ()
        return tuple(s for s in range(self.players) if s not in state.out)

    def legal_moves(self, state: ToyState, seat: int) -> list[int]:
        return [0, 1, 2] if seat in self.acting_seats(state) else []

    def chance_outcomes(self, state: ToyState) -> list[tuple[int, Fraction]]:
        return [(card, Fraction(1, 3)) for card in (1, 2, 3)]

    def apply(self, state: ToyState, move: int) -> ToyState:
        return replace(state, cards=(*state.cards, move))

    def apply_joint(self, state: ToyState, moves: Any) -> ToyState:
        return replace(state, bids=(*state.bids, tuple(moves.get(s, 0) for s in range(self.players))))

    def eliminate(self, state: ToyState, seat: int) -> ToyState:
        return replace(state, out=state.out | {seat})

    def returns(self, state: ToyState) -> tuple[float, ...]:
        totals = [self.cards_total(state, s) if s not in state.out else -1 for s in range(self.players)]
        return tuple(1.0 if t == max(totals) else 0.0 for t in totals)

    def cards_total(self, state: ToyState, seat: int) -> int:
        return state.cards[seat] + sum(round_[seat] for round_ in state.bids)

    def ply(self, state: ToyState) -> int:
        return len(state.cards) + len(state.bids) + len(state.out)

    def observation(self, state: ToyState, seat: int) -> dict[str, Any]:
        mine = state.cards[seat] if seat < len(state.cards) else None
        return {"card": mine, "bids": [list(b) for b in state.bids], "out": sorted(state.out)}

    def state_to_json(self, state: ToyState) -> dict[str, Any]:
        return {"cards": list(state.cards), "bids": [list(b) for b in state.bids], "out": sorted(state.out)}

    def state_from_json(self, obj: Any) -> ToyState:
        try:
            return ToyState(tuple(obj["cards"]), tuple(tuple(b) for b in obj["bids"]), frozenset(obj["out"]))
        except (KeyError, TypeError) as exc:
            raise StateError(f"not a secret_bid state: {exc}") from None

    def parse_move(self, wire: Any) -> int:
        if type(wire) is not int:
            raise MoveSyntaxError(f"a bid is an integer, got {wire!r}")
        return wire

    def move_to_wire(self, move: int) -> Any:
        return move


#: The toy bots: argv = mode, a file to copy every input line to. Modes: ``first`` (bids its
#: first legal move, or 1 without the list), ``crash`` (exits at its first input), ``silent``
#: (never replies), ``illegal`` (bids 7).
BOT_SOURCE = r'''
import json, sys, time
mode, log = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    with open(log, "a") as f:
        f.write(line)
    if mode == "crash":
        sys.exit(3)
    if mode == "silent":
        time.sleep(600)
    message = json.loads(line)
    bid = 7 if mode == "illegal" else (message.get("legalMoves") or [1])[0]
    sys.stdout.write(json.dumps({"type": "turn", "payload": bid}) + "\n")
    sys.stdout.flush()
'''
