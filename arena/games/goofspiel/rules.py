"""Goofspiel in the general game model, exactly as OpenSpiel's ``goofspiel`` with its defaults.

Rules (OpenSpiel's defaults: ``points_order="random"``, ``returns_type="win_loss"``,
``imp_info=False``, ``num_turns=-1``). Every seat holds the cards ``1..n`` (``num_cards``, default
13). A round: chance turns up the next prize card, drawn uniformly from the prize cards not yet
shown; then every seat bids one card from its hand at once (a simultaneous node). The single
highest bid wins the prize's value in points; when the highest bid is tied (between any number of
seats) the prize is discarded. Bid cards are spent; all bids are shown after the round. With one
card left each, the last round has no choice, so (as in OpenSpiel) it is played at once after the
bids of the second-last round: the last prize is turned up and every seat's last card bid inside
that same step. Returns ("win_loss"): when every seat has the same points, all get 0; otherwise
the ``w`` seats with the most points get ``+1/w`` each and the others ``-1/(N-w)`` each.

Steps (what ``perft`` and the record count; OpenSpiel's history with a joint move as one step): a
game of ``n >= 2`` cards has ``n-1`` chance draws and ``n-1`` joint moves; ``n = 1`` has one of each.

Elimination (a faulting seat, :meth:`GoofspielGame.eliminate`): the seat stops bidding. From then
on it bids ``0`` ("no card") in every round, which never wins nor ties a prize, so the others'
contest goes on as if it were not there; its cards stay in its hand, its points stay as they were.
It is scored as a loser: the winners are the seats with the most points among those still playing
(all of them when they tie), and every eliminated seat gets the losers' return. When every seat
is eliminated the game ends at once and, with no winner, every seat gets 0.

Wire form of a move (the ``payload`` of a ``turn``): the card's value, a JSON integer ``1..n``.
A bool, a float or a string is a :class:`MoveSyntaxError`; a card not in the hand an
:class:`IllegalMoveError`. A chance outcome (a prize card) is the same integer in records.

Observation of a seat (``observation(state, seat)``; all of it public in OpenSpiel's default
``imp_info=False``, except that no seat ever sees a bid before the round is over)::

    {"seat": 0, "players": 2, "numCards": 4,
     "hand": [1, 2, 4],               # this seat's cards, ascending
     "hands": [[1, 2, 4], [2, 3, 4]], # every seat's cards (public: known from the bids)
     "prizes": [3, 1],                # the prizes turned up so far, in order (the last may be
                                      #   the current one)
     "prize": 1,                      # the prize bid for now (null when nobody bids now)
     "bids": [[3, 1]],                # each finished round's bids, by seat (0: eliminated seat)
     "winners": [0],                  # each finished round's winner (null: a tie, discarded)
     "points": [3, 0], "eliminated": [], "round": 1, "terminal": false}

Example exchange (2 seats, 4 cards; arena writes one line to each seat at once, seat 1's line is
the same with ``"seat": 1`` in both places)::

    > {"type": "game_state", "payload": {"seat": 0, "players": 2, "numCards": 4,
       "hand": [1, 2, 3, 4], "hands": [[1, 2, 3, 4], [1, 2, 3, 4]], "prizes": [3], "prize": 3,
       "bids": [], "winners": [], "points": [0, 0], "eliminated": [], "round": 0,
       "terminal": false}, "timeLeftMs": 10000, "seat": 0, "players": 2, "simultaneous": true}
    < {"type": "turn", "payload": 3}

The state object (``state_to_json``) holds the omniscient record: ``{"numCards", "players",
"prizes", "bids", "eliminated"}`` plus the derived ``hands`` and ``points`` (checked on reading).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from arena.games.base import IllegalMoveError, MoveSyntaxError, StateError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, Parameter
from arena.games.registry import spec_of

NO_BID = 0  # an eliminated seat's bid: below every card


@dataclass(frozen=True)
class GoofspielState:
    """``prizes``: prize cards turned up, in order. ``bids``: one tuple (a bid per seat) per
    finished round. ``hands`` and ``points`` follow from those; ``eliminated`` in order of fault."""

    prizes: tuple[int, ...]
    bids: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    eliminated: tuple[int, ...] = ()


def round_winner(bids: tuple[int, ...]) -> int | None:
    """The seat with the single highest bid, or None when the highest bid is tied."""
    top = max(bids)
    if bids.count(top) != 1:
        return None
    return bids.index(top)


class GoofspielGame(GeneralGame[GoofspielState, int]):
    """Goofspiel with ``players`` seats (2 to 10) and ``num_cards`` cards (1 to 13)."""

    name = "goofspiel"
    min_players, max_players, default_players = 2, 10, 2
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "num_cards": Parameter("num_cards", 13, 1, 13, "cards in each hand and in the prize deck")}
    default_max_moves = 100

    @property
    def num_cards(self) -> int:
        return self.params["num_cards"]

    def initial_state(self) -> GoofspielState:
        full = tuple(range(1, self.num_cards + 1))
        return GoofspielState((), (), (full,) * self.players, (0,) * self.players)

    def actor(self, state: GoofspielState) -> int:
        if len(state.bids) == self.num_cards or len(state.eliminated) == self.players:
            return TERMINAL
        return CHANCE if len(state.prizes) == len(state.bids) else SIMULTANEOUS

    def acting_seats(self, state: GoofspielState) -> tuple[int, ...]:
        if self.actor(state) != SIMULTANEOUS:
            return ()
        return tuple(seat for seat in range(self.players) if seat not in state.eliminated)

    def legal_moves(self, state: GoofspielState, seat: int) -> list[int]:
        if seat not in self.acting_seats(state):
            return []
        return list(state.hands[seat])

    def chance_outcomes(self, state: GoofspielState) -> list[tuple[int, Fraction]]:
        if self.actor(state) != CHANCE:
            return super().chance_outcomes(state)
        left = [card for card in range(1, self.num_cards + 1) if card not in state.prizes]
        return [(card, Fraction(1, len(left))) for card in left]

    def apply(self, state: GoofspielState, move: int) -> GoofspielState:
        """Turn up the prize ``move`` (at a chance node; it must be one not yet shown)."""
        if self.actor(state) != CHANCE:
            raise IllegalMoveError("goofspiel: only chance acts alone (seats bid with apply_joint)")
        if move in state.prizes or not 1 <= move <= self.num_cards:
            raise IllegalMoveError(f"goofspiel: prize {move} is not in the prize deck")
        return GoofspielState((*state.prizes, move), state.bids, state.hands, state.points, state.eliminated)

    def apply_joint(self, state: GoofspielState, moves: Mapping[int, int]) -> GoofspielState:
        """Play one round's bids (one legal card per acting seat); after the second-last round the
        last one is played too (OpenSpiel does the same: it offers no choice)."""
        seats = self.acting_seats(state)
        if set(moves) != set(seats):
            raise IllegalMoveError(f"goofspiel: bids are needed from seats {list(seats)}, got {sorted(moves)}")
        for seat in seats:
            if moves[seat] not in state.hands[seat]:
                raise IllegalMoveError(f"goofspiel: seat {seat} has no card {moves[seat]}")
        state = self._settle(state, tuple(moves.get(seat, NO_BID) for seat in range(self.players)))
        if len(state.bids) == self.num_cards - 1 and self.num_cards > 1:
            last_prize = next(c for c in range(1, self.num_cards + 1) if c not in state.prizes)
            state = GoofspielState((*state.prizes, last_prize), state.bids, state.hands, state.points,
                                   state.eliminated)
            last = tuple(NO_BID if seat in state.eliminated else state.hands[seat][0] for seat in range(self.players))
            state = self._settle(state, last)
        return state

    def _settle(self, state: GoofspielState, bids: tuple[int, ...]) -> GoofspielState:
        winner = round_winner(bids)
        points = list(state.points)
        if winner is not None:
            points[winner] += state.prizes[-1]
        hands = tuple(tuple(c for c in hand if c != bid) for hand, bid in zip(state.hands, bids, strict=True))
        return GoofspielState(state.prizes, (*state.bids, bids), hands, tuple(points), state.eliminated)

    def returns(self, state: GoofspielState) -> tuple[float, ...]:
        if not self.is_terminal(state):
            return (0.0,) * self.players
        playing = [seat for seat in range(self.players) if seat not in state.eliminated]
        if not playing:
            return (0.0,) * self.players
        best = max(state.points[seat] for seat in playing)
        winners = {seat for seat in playing if state.points[seat] == best}
        if len(winners) == self.players:
            return (0.0,) * self.players
        losers = self.players - len(winners)
        return tuple(1.0 / len(winners) if seat in winners else -1.0 / losers for seat in range(self.players))

    def ply(self, state: GoofspielState) -> int:
        steps = len(state.prizes) + len(state.bids)
        if self.num_cards > 1 and len(state.bids) == self.num_cards:
            steps -= 2  # the last round is played inside the second-last one's step
        return steps

    def determinize(self, observation: Any, seat: int, rng: random.Random) -> GoofspielState:
        """The state itself: a seat sees everything but the bids of the round being bid, which are
        not part of a state (they are made at once), and the prizes still to come (chance)."""
        return self.state_from_json({key: observation[key] for key in ("numCards", "players", "prizes", "bids",
                                                                        "eliminated", "hands", "points")})

    def eliminate(self, state: GoofspielState, seat: int) -> GoofspielState:
        """``seat`` bids no card from now on and is scored as a loser (see the module docstring)."""
        if not 0 <= seat < self.players:
            raise IllegalMoveError(f"goofspiel: no seat {seat}")
        if seat in state.eliminated:
            return state
        return GoofspielState(state.prizes, state.bids, state.hands, state.points, (*state.eliminated, seat))

    # -- what seats see, and the record ---------------------------------------------------------

    def observation(self, state: GoofspielState, seat: int) -> dict[str, Any]:
        bidding = self.actor(state) == SIMULTANEOUS
        return {"seat": seat, "players": self.players, "numCards": self.num_cards,
                "hand": list(state.hands[seat]), "hands": [list(h) for h in state.hands],
                "prizes": list(state.prizes), "prize": state.prizes[-1] if bidding else None,
                "bids": [list(b) for b in state.bids], "winners": [round_winner(b) for b in state.bids],
                "points": list(state.points), "eliminated": list(state.eliminated),
                "round": len(state.bids), "terminal": self.is_terminal(state)}

    def state_to_json(self, state: GoofspielState) -> dict[str, Any]:
        return {"numCards": self.num_cards, "players": self.players, "prizes": list(state.prizes),
                "bids": [list(b) for b in state.bids], "eliminated": list(state.eliminated),
                "hands": [list(h) for h in state.hands], "points": list(state.points)}

    def state_from_json(self, obj: Any) -> GoofspielState:
        """Rebuild a state by replaying its prizes and bids; StateError names the first problem."""
        if not isinstance(obj, dict):
            raise StateError(f"goofspiel state: expected an object, got {type(obj).__name__}")
        for key in ("prizes", "bids", "eliminated"):
            if not isinstance(obj.get(key), list):
                raise StateError(f"goofspiel state: {key!r} must be a list")
        for key, want in (("numCards", self.num_cards), ("players", self.players)):
            if key in obj and obj[key] != want:
                raise StateError(f"goofspiel state: {key} is {obj[key]!r}, this game has {want}")
        eliminated = obj["eliminated"]
        if any(type(s) is not int or not 0 <= s < self.players for s in eliminated) or len(set(eliminated)) < len(
                eliminated):
            raise StateError(f"goofspiel state: eliminated must list distinct seats, got {eliminated!r}")
        prizes, bids = obj["prizes"], obj["bids"]
        if len(prizes) > self.num_cards or len(bids) > len(prizes) or len(prizes) > len(bids) + 1:
            raise StateError(f"goofspiel state: {len(prizes)} prizes do not go with {len(bids)} rounds of bids")
        state = self.initial_state()
        for index, prize in enumerate(prizes):
            if type(prize) is not int or prize in state.prizes or not 1 <= prize <= self.num_cards:
                raise StateError(f"goofspiel state: prizes[{index}] = {prize!r} is not a fresh prize card")
            state = GoofspielState((*state.prizes, prize), state.bids, state.hands, state.points, state.eliminated)
            if index < len(bids):
                row = bids[index]
                if not isinstance(row, list) or len(row) != self.players:
                    raise StateError(f"goofspiel state: bids[{index}] must list {self.players} bids")
                for seat, bid in enumerate(row):
                    if type(bid) is not int or bid not in (*state.hands[seat], *((NO_BID,) if seat in eliminated else ())):
                        raise StateError(f"goofspiel state: bids[{index}][{seat}] = {bid!r} is not a card in hand")
                state = self._settle(state, tuple(row))
        if self.num_cards > 1 and len(bids) == self.num_cards - 1:
            raise StateError("goofspiel state: the last round is missing (it is played with the second-last)")
        state = GoofspielState(state.prizes, state.bids, state.hands, state.points, tuple(eliminated))
        for key, derived in (("hands", [list(h) for h in state.hands]), ("points", list(state.points))):
            if key in obj and obj[key] != derived:
                raise StateError(f"goofspiel state: {key} {obj[key]!r} disagree with the bids ({derived!r})")
        return state

    def parse_move(self, wire: Any) -> int:
        if type(wire) is not int:
            raise MoveSyntaxError(f"goofspiel: a bid is a card value, a JSON integer; got {wire!r}")
        return wire

    def move_to_wire(self, move: int) -> int:
        return move

    def describe_move(self, move: int) -> str:
        return str(move)

    def board_text(self, state: GoofspielState, seat: int | None = None) -> str:
        """The prizes, points, hands and the bids so far (one seat's view hides nothing more: all of
        it is public once a round is over)."""
        lines = [f"Goofspiel, {self.players} players, {self.num_cards} cards, round {len(state.bids) + 1}"
                 if not self.is_terminal(state) else f"Goofspiel, {self.players} players, {self.num_cards} cards, over"]
        shown = " ".join(str(p) for p in state.prizes) or "-"
        lines.append(f"Prizes turned up: {shown}")
        for index, row in enumerate(state.bids):
            winner = round_winner(row)
            who = "tie, discarded" if winner is None else f"P{winner} takes it"
            lines.append(f"  round {index + 1}: prize {state.prizes[index]}, bids {' '.join(map(str, row))} ({who})")
        for s in range(self.players):
            mark = " (you)" if s == seat else ""
            out = " eliminated" if s in state.eliminated else ""
            hand = " ".join(str(c) for c in state.hands[s]) or "-"
            lines.append(f"P{s}{mark}: {state.points[s]} points{out}; hand {hand}")
        if self.is_terminal(state):
            lines.append("Returns: " + " ".join(f"{r:+.3g}" for r in self.returns(state)))
        return "\n".join(lines)


#: The registry line (:data:`arena.games.registry.BUILTIN_GAMES`).
SPEC = spec_of(GoofspielGame, "Goofspiel", svg="arena.games.goofspiel.svg:board_svg",
               summary="Simultaneous bids for prize cards turned up by chance (OpenSpiel's goofspiel); 2-10 players.",
               notation="a bid is the card's value, e.g. 7")
