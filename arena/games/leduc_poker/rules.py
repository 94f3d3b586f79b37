"""Leduc poker, exactly as OpenSpiel's ``leduc_poker``, in the general game model (standard library only).

Rules (OpenSpiel's, for N = 2 to 10 players; N = 2 is the classic game):

- The deck has 2 suits of N + 1 ranks: 2N + 2 cards numbered as OpenSpiel numbers them, card ``c``
  of rank ``c // 2`` and suit ``c % 2`` (two players: J J Q Q K K, cards 0 to 5). Each seat antes 1.
- Chance deals one private card to each seat in turn, seat 0 first, uniformly from the cards left.
- Round 1 of betting, then chance deals one public card (uniformly from the cards left), then round 2.
  A round starts with seat ``starting_player`` (default 0; folded seats are skipped) and goes round
  the table. A seat may ``call`` (match the highest contribution, the *stakes*; with nothing to
  match it is a check), ``raise`` (match the stakes, then add 2 in round 1 or 4 in round 2; at most
  2 raises a round) or ``fold`` (only when its contribution is below the stakes). A round ends
  when every seat still in has acted since the last raise and matched the stakes.
- The hand ends when one seat is left (it takes the pot) or after round 2 (showdown). At showdown a
  pair (private card of the public card's rank) beats any non-pair; pairs rank by rank; non-pairs
  by their higher rank, then their lower rank. Suits never count: equal hands split the pot. Returns
  are OpenSpiel's: what a seat takes from the pot minus what it put in (split pots may be
  fractions, e.g. 3.5 or -2.333...).

Parameters: ``players`` (2-10) and ``starting_player`` (0 to players - 1, default 0), as OpenSpiel's.
OpenSpiel's other two parameters, ``action_mapping`` and ``suit_isomorphism``, keep their defaults
(false): they change the action or chance encoding, not the game.

Chance outcomes are card numbers; seats' moves are the strings ``"fold"``, ``"call"`` and
``"raise"`` (OpenSpiel's actions 0, 1 and 2, listed in that order when legal).

Elimination (arena's extension, :meth:`LeducPoker.eliminate`): a seat that faults folds at once,
even out of turn or when it faces no bet; its chips stay in the pot. The history records it as
``[seat, "out"]``. A round in which every remaining seat has acted since the last raise ends; if
one seat is left it takes the pot; otherwise play goes on. Without eliminations the hand is
exactly OpenSpiel's.

State object (``state_to_json``, omniscient)::

    {"players": 2, "startingPlayer": 0, "cards": [4, 1], "public": 2,
     "rounds": [[[0, "raise"], [1, "call"]], [[0, "call"]]]}

``cards[s]`` is seat s's private card (the list grows as chance deals), ``public`` the public card
(null before it is dealt), ``rounds`` the actions of round 1 and, once the public card is dealt,
of round 2, each ``[seat, "fold" | "call" | "raise" | "out"]``.

Observation of seat s (the payload of the protocol's ``game_state``)::

    {"players": 2, "seat": 1, "card": 1, "public": 2, "ranks": 3, "round": 2,
     "rounds": [[[0, "raise"], [1, "call"]], [[0, "call"]]], "contributions": [3, 3], "pot": 6,
     "stakes": 3, "raises": 0, "toAct": 1, "folded": [], "out": [], "over": false}

``card`` is s's own card and ``public`` the public card (null until dealt); a card's rank is
``card // 2`` (``ranks`` of them, highest ``ranks - 1``). ``round`` is the round being bet (1 or
2), ``stakes`` the contribution to match, ``raises`` the raises made in this round. So the seat to
act (``toAct``; null while chance deals and once the hand is over) may ``fold`` if its contribution
is below ``stakes``, always ``call``, and ``raise`` if ``raises`` is below 2. Another seat's card
never appears, not even at the end.

A complete exchange (two players; seat 0 holds K, seat 1 holds J)::

    arena -> seat 0: {"type": "game_state", "payload": {"players": 2, "seat": 0, "card": 4, "public": null,
        "ranks": 3, "round": 1, "rounds": [[]], "contributions": [1, 1], "pot": 2, "stakes": 1,
        "raises": 0, "toAct": 0, "folded": [], "out": [], "over": false}, "timeLeftMs": 5000,
        "seat": 0, "players": 2, "simultaneous": false}
    seat 0 -> arena: {"type": "turn", "payload": "raise"}
    arena -> seat 1: {"type": "game_state", "payload": {"players": 2, "seat": 1, "card": 0, "public": null,
        "ranks": 3, "round": 1, "rounds": [[[0, "raise"]]], "contributions": [3, 1], "pot": 4,
        "stakes": 3, "raises": 1, "toAct": 1, "folded": [], "out": [], "over": false},
        "timeLeftMs": 5000, "seat": 1, "players": 2, "simultaneous": false}
    seat 1 -> arena: {"type": "turn", "payload": "fold"}

Seat 1 folds: returns ``(1, -1)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from arena.games.base import GameError, IllegalMoveError, StateError, exact_keys, show_value
from arena.games.kuhn_poker.moves import OUT, PokerMoves, check_seat, read_entries
from arena.games.model import CHANCE, TERMINAL, GeneralGame, Parameter
from arena.games.registry import spec_of

FOLD, CALL, RAISE = "fold", "call", "raise"
ACTIONS = (FOLD, CALL, RAISE)
RAISE_AMOUNTS = (2, 4)
MAX_RAISES = 2
MAX_PLAYERS = 10

#: A move: a card number (a chance outcome) or a seat's action string.
LeducMove = int | str
Entry = tuple[int, str]


@dataclass(frozen=True)
class LeducInfo:
    """What the history implies (computed once per state by :func:`walk`)."""

    contributions: tuple[int, ...]
    stakes: int
    raises: int  # in the round being bet (or the last one)
    folded: frozenset[int]  # eliminated seats included
    out: tuple[int, ...]
    actor: int  # a seat, CHANCE or TERMINAL


@dataclass(frozen=True)
class LeducState:
    players: int
    starting_player: int = 0
    cards: tuple[int, ...] = ()
    public: int | None = None
    rounds: tuple[tuple[Entry, ...], ...] = ((),)

    @cached_property
    def info(self) -> LeducInfo:
        return walk(self)


def _check_cards(state: LeducState) -> None:
    players, cards, public = state.players, state.cards, state.public
    deck = 2 * (players + 1)
    dealt = [*cards, *([] if public is None else [public])]
    if len(cards) > players:
        raise StateError(f"{len(cards)} private cards dealt to {players} players")
    if len(set(dealt)) != len(dealt) or any(type(c) is not int or not 0 <= c < deck for c in dealt):
        raise StateError(f"cards must be distinct integers from 0 to {deck - 1}, got {show_value(dealt)}")
    if public is not None and len(cards) < players:
        raise StateError("the public card is dealt before every private card")
    if len(state.rounds) != (1 if public is None else 2):
        raise StateError(f"rounds must hold {1 if public is None else 2} list(s) of actions "
                         f"{'before' if public is None else 'once'} the public card is dealt, got {len(state.rounds)}")


def walk(state: LeducState) -> LeducInfo:
    """Replay the state's history; StateError names the first inconsistency."""
    _check_cards(state)
    players, start = state.players, state.starting_player
    contributions = [1] * players
    folded: set[int] = set()
    out: list[int] = []
    stakes, raises, round_over = 1, 0, False
    last: int | None = None
    acted: set[int] = set()  # seats that have acted since the round's start or its last raise

    def current() -> int:
        """The next seat still in after ``last`` (from the starting player at a round's start)."""
        first = start if last is None else last + 1
        return next(s % players for s in range(first, first + players) if s % players not in folded)

    for number, entries in enumerate(state.rounds):
        if number == 1 and not round_over:
            raise StateError("the public card is dealt before round 1 is over")
        raises, acted, last, round_over = 0, set(), None, False
        for index, (seat, action) in enumerate(entries):
            where = f"rounds[{number}][{index}]"
            if players - len(folded) <= 1:
                raise StateError(f"{where}: the hand is already over")
            check_seat(where, seat, action, players, out)
            if action == OUT:
                if seat in folded:
                    raise StateError(f"{where}: seat {seat} has already folded")
                if not round_over and seat == current():
                    last = seat
                folded.add(seat)
                out.append(seat)
            elif action in ACTIONS:
                if len(state.cards) < players:
                    raise StateError(f"{where}: seat {seat} acts before every card is dealt")
                if round_over:
                    raise StateError(f"{where}: round {number + 1} is already over")
                if seat != current():
                    raise StateError(f"{where}: seat {seat} acts but seat {current()} is to act")
                if action == FOLD:
                    if contributions[seat] >= stakes:
                        raise StateError(f"{where}: seat {seat} folds with nothing to call")
                    folded.add(seat)
                elif action == CALL:
                    contributions[seat] = stakes
                else:
                    if raises >= MAX_RAISES:
                        raise StateError(f"{where}: a third raise in round {number + 1}")
                    stakes += RAISE_AMOUNTS[number]
                    contributions[seat] = stakes
                    raises += 1
                    acted = set()
                acted.add(seat)
                last = seat
            else:
                raise StateError(f'{where}: the action must be "fold", "call", "raise" or "out", '
                                 f"got {show_value(action)}")
            round_over = all(s in acted or s in folded for s in range(players))
    if players - len(folded) <= 1:
        actor = TERMINAL
    elif len(state.cards) < players or (round_over and state.public is None):
        actor = CHANCE
    elif round_over:
        actor = TERMINAL
    else:
        actor = current()
    return LeducInfo(tuple(contributions), stakes, raises, frozenset(folded), tuple(out), actor)


def hand_strength(private: int, public: int) -> tuple[int, ...]:
    """Showdown strength (higher wins): a pair beats any other hand, then the ranks; suits never
    count (OpenSpiel's ``RankHand`` orders hands the same way)."""
    mine, shown = private // 2, public // 2
    if mine == shown:
        return (1, mine)
    return (0, max(mine, shown), min(mine, shown))


class LeducPoker(PokerMoves, GeneralGame[LeducState, LeducMove]):
    """OpenSpiel's ``leduc_poker`` (see the module docstring)."""

    name = "leduc_poker"
    title = "Leduc poker"
    actions = ACTIONS
    min_players, max_players, default_players = 2, MAX_PLAYERS, 2
    parameters: ClassVar[dict[str, Parameter]] = {
        "starting_player": Parameter("starting_player", 0, 0, MAX_PLAYERS - 1, "the seat that bets first each round"),
    }
    default_max_moves = 200

    def check_parameters(self) -> None:
        if self.params["starting_player"] >= self.players:
            raise GameError(f"leduc_poker: starting_player must be below players ({self.players}), "
                            f"got {self.params['starting_player']}")

    @property
    def deck_size(self) -> int:
        return 2 * (self.players + 1)

    # -- the forward model --------------------------------------------------------------------

    def initial_state(self) -> LeducState:
        return LeducState(self.players, self.params["starting_player"])

    def actor(self, state: LeducState) -> int:
        return state.info.actor

    def legal_moves(self, state: LeducState, seat: int) -> list[LeducMove]:
        info = state.info
        if info.actor != seat:
            return []
        moves: list[LeducMove] = [FOLD] if info.contributions[seat] < info.stakes else []
        moves.append(CALL)
        if info.raises < MAX_RAISES:
            moves.append(RAISE)
        return moves

    def chance_outcomes(self, state: LeducState) -> list[tuple[LeducMove, Fraction]]:
        if state.info.actor != CHANCE:
            raise GameError("leduc_poker: this state is not a chance node")
        left = [c for c in range(self.deck_size) if c not in state.cards and c != state.public]
        return [(card, Fraction(1, len(left))) for card in left]

    def apply(self, state: LeducState, move: LeducMove) -> LeducState:
        who = state.info.actor
        if who == CHANCE:
            if type(move) is not int or move not in [c for c, _ in self.chance_outcomes(state)]:
                raise IllegalMoveError(f"{show_value(move)} is not a card left in the deck")
            if len(state.cards) < self.players:
                return LeducState(self.players, state.starting_player, (*state.cards, move), None, state.rounds)
            return LeducState(self.players, state.starting_player, state.cards, move, (*state.rounds, ()))
        if who == TERMINAL:
            raise IllegalMoveError("the hand is over")
        if move not in self.legal_moves(state, who):
            raise IllegalMoveError(f"{show_value(move)} is not legal for seat {who} here")
        return self._append(state, (who, str(move)))

    def _append(self, state: LeducState, entry: Entry) -> LeducState:
        rounds = (*state.rounds[:-1], (*state.rounds[-1], entry))
        return LeducState(self.players, state.starting_player, state.cards, state.public, rounds)

    def returns(self, state: LeducState) -> tuple[float, ...]:
        info = state.info
        if info.actor != TERMINAL:
            return (0.0,) * self.players
        winners = self.winners(state)
        share = Fraction(sum(info.contributions), len(winners))
        return tuple(float((share if seat in winners else 0) - paid) for seat, paid in enumerate(info.contributions))

    def winners(self, state: LeducState) -> list[int]:
        """The seats that share the pot (meaningful at a terminal state): the only seat left, else
        those with the best hand at showdown."""
        left = [s for s in range(self.players) if s not in state.info.folded]
        if len(left) == 1 or state.public is None:
            return left
        public = state.public
        best = max(hand_strength(state.cards[s], public) for s in left)
        return [s for s in left if hand_strength(state.cards[s], public) == best]

    def ply(self, state: LeducState) -> int:
        actions = sum(1 for entries in state.rounds for _, action in entries if action != OUT)
        return len(state.cards) + (state.public is not None) + actions

    def hidden_variants(self, state: LeducState, seat: int) -> list[LeducState]:
        """Another seat's private card replaced by each card not dealt (nor the public card):
        ``seat`` may not tell them apart."""
        return self.card_swaps(state, seat, 2 * (self.players + 1), () if state.public is None else (state.public,))

    def determinize(self, observation: Any, seat: int, rng: random.Random) -> LeducState:
        """A deal ``seat`` cannot tell from the real one: the other seats' private cards drawn at
        random from those neither it holds nor the table shows (see
        :class:`arena.games.model.GeneralGame`)."""
        rounds = tuple(tuple((s, a) for s, a in entries) for entries in observation["rounds"])
        public = observation["public"]
        started = (observation["toAct"] is not None or public is not None
                   or any(a != OUT for entries in rounds for _, a in entries))
        dealt = self.cards_dealt(observation, seat, self.players, started)
        shown = () if public is None else (public,)
        cards = self.deal_unseen(observation["card"], seat, dealt, self.deck_size, shown, rng)
        state = LeducState(self.players, self.params["starting_player"], cards, public, rounds)
        _ = state.info  # validates
        return state

    def eliminate(self, state: LeducState, seat: int) -> LeducState | None:
        """``seat`` folds at once (see the module docstring); None once the hand is over."""
        if state.info.actor == TERMINAL:
            return None
        if seat in state.info.folded:
            return state
        return self._append(state, (seat, OUT))

    # -- what seats see, and the record ---------------------------------------------------------

    def observation(self, state: LeducState, seat: int) -> dict[str, Any]:
        table = {"public": state.public, "ranks": self.players + 1, "round": len(state.rounds),
                 "rounds": [[[s, a] for s, a in entries] for entries in state.rounds]}
        return self.seat_view(state, seat, table, {"stakes": state.info.stakes, "raises": state.info.raises})

    def state_to_json(self, state: LeducState) -> dict[str, Any]:
        return {"players": self.players, "startingPlayer": state.starting_player, "cards": list(state.cards),
                "public": state.public, "rounds": [[[s, a] for s, a in entries] for entries in state.rounds]}

    def state_from_json(self, obj: Any) -> LeducState:
        exact_keys(obj, "leduc_poker state", ("players", "startingPlayer", "cards", "public", "rounds"), StateError)
        for key, want in (("players", self.players), ("startingPlayer", self.params["starting_player"])):
            if type(obj[key]) is not int or obj[key] != want:
                raise StateError(f"{key} must be {want}, got {show_value(obj[key])}")
        cards, rounds = obj["cards"], obj["rounds"]
        if not isinstance(cards, list):
            raise StateError(f"cards must be a list, got {show_value(cards)}")
        if not isinstance(rounds, list) or not all(isinstance(entries, list) for entries in rounds):
            raise StateError(f"rounds must be a list of lists, got {show_value(rounds)}")
        parsed = tuple(read_entries(entries, f"rounds[{number}]") for number, entries in enumerate(rounds))
        state = LeducState(self.players, obj["startingPlayer"], tuple(cards), obj["public"], parsed)
        _ = state.info  # validates
        return state

    def card_label(self, card: int) -> str:
        return card_name(card, self.players)

    def board_text(self, state: LeducState, seat: int | None = None) -> str:
        info = state.info
        public = "-" if state.public is None else card_name(state.public, self.players)
        lines = [f"Leduc poker, {self.players} players, round {len(state.rounds)}, pot {sum(info.contributions)}, "
                 f"stakes {info.stakes}, public card {public}" + (", hand over" if info.actor == TERMINAL else "")]
        for s in range(self.players):
            card = self.shown_card(state, s, seat)
            status = "out" if s in info.out else "folded" if s in info.folded else "to act" if s == info.actor else ""
            mark = "*" if s == seat else " "
            lines.append(f"{mark}P{s}  card {card:>3}  in {info.contributions[s]:>2}  {status}".rstrip())
        for number, entries in enumerate(state.rounds):
            lines.append(f"round {number + 1}: " + (", ".join(f"P{s} {a}" for s, a in entries) or "none"))
        if info.actor == TERMINAL and seat is None:
            lines.append("returns: " + " ".join(f"{r:+.4g}" for r in self.returns(state)))
        return "\n".join(lines)


def card_name(card: int, players: int) -> str:
    """A card's rank (J, Q, K in the two-player game; else its number) and suit (s or h)."""
    rank = card // 2
    return ("JQK"[rank] if players == 2 else str(rank)) + "sh"[card % 2]


#: The registry line (:data:`arena.games.registry.BUILTIN_GAMES`).
SPEC = spec_of(LeducPoker, "Leduc poker", svg="arena.games.leduc_poker.svg:board_svg",
               summary="OpenSpiel's Leduc poker: 2 suits of N+1 ranks, a private and a public card, two betting rounds "
               "(2-10 players)",
               notation='"fold", "call" or "raise" (JSON strings); call checks when there is nothing to match')
