"""Kuhn poker, exactly as OpenSpiel's ``kuhn_poker``, in the general game model (standard library only).

Rules (OpenSpiel's, for N = 2 to 10 players; N = 2 is the classic game):

- The deck has N + 1 cards, numbered ``0`` (lowest) to ``N`` (highest); with two players they are
  called J, Q and K. Each seat antes 1 chip into the pot.
- Chance deals one card to each seat in turn, seat 0 first, each uniformly from the cards still in
  the deck (probability 1 / cards left). One card stays undealt.
- One betting round. Seats act in order from seat 0, each ``pass`` or ``bet`` (a bet is 1 chip).
  While nobody has bet, ``pass`` is a check. Once a seat has bet, every other seat answers once, in
  turn after the bettor (wrapping round, so the seats that checked before the bet speak again):
  ``bet`` calls (1 chip) and ``pass`` folds. There are no raises.
- If every seat passes, the highest card wins the pot. Otherwise the highest card among the bettor
  and the callers wins it. Returns are OpenSpiel's: the winner gets ``pot - what it put in``, every
  other seat ``-what it put in`` (-1 or -2); the game is zero-sum.

Chance outcomes are card numbers (``0 .. N``); seats' moves are the strings ``"pass"`` and
``"bet"`` (OpenSpiel's actions 0 and 1, in that order). A move is legal only for the seat to act,
and both are always legal for it.

Elimination (arena's extension, :meth:`KuhnPoker.eliminate`): a seat that faults is *out*: it folds
at once, whatever the betting (its chips stay in the pot), its later turns are skipped and it can
no longer win. The history records it as ``[seat, "out"]``. If a single seat remains in contention
(neither out nor folded) the hand ends and that seat wins the pot; otherwise play goes on. Without
eliminations the hand is exactly OpenSpiel's.

State object (``state_to_json``, omniscient)::

    {"players": 2, "cards": [2, 0], "history": [[0, "pass"], [1, "bet"]]}

``cards[s]`` is seat s's card (the list grows as chance deals); ``history`` lists each seat action
``[seat, "pass" | "bet" | "out"]`` in order.

Observation of seat s (``observation``; the payload of the protocol's ``game_state``)::

    {"players": 2, "seat": 0, "card": 2, "deck": 3, "history": [[0, "pass"], [1, "bet"]],
     "contributions": [1, 2], "pot": 3, "bettor": 1, "toAct": 0, "folded": [], "out": [],
     "over": false}

``card`` is s's own card (null until dealt), ``deck`` the number of cards (N + 1: the highest card
is ``deck - 1``), ``contributions`` the chips each seat has put in, ``bettor`` the seat that bet
first (null: nobody has bet yet, so ``pass`` checks; otherwise ``pass`` folds and ``bet`` calls),
``toAct`` the seat to act (null while dealing and once the hand is over), ``folded`` the seats that
passed facing a bet, ``out`` the eliminated seats, ``over`` whether the hand has ended. Another
seat's card never appears, not even at the end.

A complete exchange (two players; seat 0 holds K, seat 1 holds J)::

    arena -> seat 0: {"type": "game_state", "payload": {"players": 2, "seat": 0, "card": 2, "deck": 3,
        "history": [], "contributions": [1, 1], "pot": 2, "bettor": null, "toAct": 0, "folded": [],
        "out": [], "over": false}, "timeLeftMs": 5000, "seat": 0, "players": 2, "simultaneous": false}
    seat 0 -> arena: {"type": "turn", "payload": "bet"}
    arena -> seat 1: {"type": "game_state", "payload": {"players": 2, "seat": 1, "card": 0, "deck": 3,
        "history": [[0, "bet"]], "contributions": [2, 1], "pot": 3, "bettor": 0, "toAct": 1,
        "folded": [], "out": [], "over": false}, "timeLeftMs": 5000, "seat": 1, "players": 2,
        "simultaneous": false}
    seat 1 -> arena: {"type": "turn", "payload": "pass"}

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

PASS, BET = "pass", "bet"
ACTIONS = (PASS, BET)
MAX_PLAYERS = 10

#: A move: a card number (a chance outcome) or a seat's action string.
KuhnMove = int | str


@dataclass(frozen=True)
class KuhnInfo:
    """What the history implies (computed once per state by :func:`walk`)."""

    contributions: tuple[int, ...]
    bettor: int | None
    folded: frozenset[int]
    out: tuple[int, ...]
    actor: int  # a seat, CHANCE or TERMINAL

    def contenders(self, players: int) -> list[int]:
        return [s for s in range(players) if s not in self.folded and s not in self.out]


@dataclass(frozen=True)
class KuhnState:
    players: int
    cards: tuple[int, ...] = ()
    history: tuple[tuple[int, str], ...] = ()

    @cached_property
    def info(self) -> KuhnInfo:
        return walk(self.players, self.cards, self.history)


def _next_seat(players: int, bettor: int | None, acted: set[int], out: list[int]) -> int | None:
    """The seat to act: before a bet the first seat from 0 that has not acted; after it, the first
    seat after the bettor (wrapping) that has not answered. Eliminated seats are skipped."""
    if bettor is None:
        order = list(range(players))
    else:
        order = [(bettor + k) % players for k in range(1, players)]
    for seat in order:
        if seat not in acted and seat not in out:
            return seat
    return None


def walk(players: int, cards: tuple[int, ...], history: tuple[tuple[int, str], ...]) -> KuhnInfo:
    """Replay ``history`` after the deal ``cards``; StateError names the first inconsistency."""
    if len(cards) > players:
        raise StateError(f"{len(cards)} cards dealt to {players} players")
    if len(set(cards)) != len(cards) or any(type(c) is not int or not 0 <= c <= players for c in cards):
        raise StateError(f"cards must be distinct integers from 0 to {players}, got {show_value(list(cards))}")
    contributions = [1] * players
    bettor: int | None = None
    acted: set[int] = set()  # before the bet: seats that checked; after it: seats that answered
    folded: set[int] = set()
    out: list[int] = []
    over = False
    for index, (seat, action) in enumerate(history):
        where = f"history[{index}]"
        if over:
            raise StateError(f"{where}: the hand is already over")
        check_seat(where, seat, action, players, out)
        if action == OUT:
            out.append(seat)
        elif action in ACTIONS:
            if len(cards) < players:
                raise StateError(f"{where}: seat {seat} acts before every card is dealt")
            expected = _next_seat(players, bettor, acted, out)
            if seat != expected:
                raise StateError(f"{where}: seat {seat} acts but seat {expected} is to act")
            if action == BET and bettor is None:
                bettor, acted = seat, set()
            else:
                if bettor is not None and action == PASS:
                    folded.add(seat)
                acted.add(seat)
            if action == BET:
                contributions[seat] += 1
        else:
            raise StateError(f'{where}: the action must be "pass", "bet" or "out", got {show_value(action)}')
        over = _over(players, cards, bettor, acted, folded, out)
    if _over(players, cards, bettor, acted, folded, out):
        actor = TERMINAL
    elif len(cards) < players:
        actor = CHANCE
    else:
        next_seat = _next_seat(players, bettor, acted, out)
        assert next_seat is not None
        actor = next_seat
    return KuhnInfo(tuple(contributions), bettor, frozenset(folded), tuple(out), actor)


def _over(players: int, cards: tuple[int, ...], bettor: int | None, acted: set[int], folded: set[int],
          out: list[int]) -> bool:
    contenders = sum(1 for s in range(players) if s not in folded and s not in out)
    if contenders <= 1:
        return True
    return len(cards) == players and _next_seat(players, bettor, acted, out) is None


class KuhnPoker(PokerMoves, GeneralGame[KuhnState, KuhnMove]):
    """OpenSpiel's ``kuhn_poker`` (see the module docstring)."""

    name = "kuhn_poker"
    title = "Kuhn poker"
    actions = ACTIONS
    min_players, max_players, default_players = 2, MAX_PLAYERS, 2
    parameters: ClassVar[dict[str, Parameter]] = {}
    default_max_moves = 100

    # -- the forward model --------------------------------------------------------------------

    def initial_state(self) -> KuhnState:
        return KuhnState(self.players)

    def actor(self, state: KuhnState) -> int:
        return state.info.actor

    def legal_moves(self, state: KuhnState, seat: int) -> list[KuhnMove]:
        return list(ACTIONS) if state.info.actor == seat else []

    def chance_outcomes(self, state: KuhnState) -> list[tuple[KuhnMove, Fraction]]:
        if state.info.actor != CHANCE:
            raise GameError("kuhn_poker: this state is not a chance node")
        left = [card for card in range(self.players + 1) if card not in state.cards]
        return [(card, Fraction(1, len(left))) for card in left]

    def apply(self, state: KuhnState, move: KuhnMove) -> KuhnState:
        who = state.info.actor
        if who == CHANCE:
            if type(move) is not int or move in state.cards or not 0 <= move <= self.players:
                raise IllegalMoveError(f"{show_value(move)} is not a card left in the deck")
            return KuhnState(self.players, (*state.cards, move), state.history)
        if who == TERMINAL:
            raise IllegalMoveError("the hand is over")
        if move not in ACTIONS:
            raise IllegalMoveError(f'{show_value(move)} is not "pass" or "bet"')
        return KuhnState(self.players, state.cards, (*state.history, (who, str(move))))

    def returns(self, state: KuhnState) -> tuple[float, ...]:
        info = state.info
        if info.actor != TERMINAL:
            return (0.0,) * self.players
        winner = self.winner(state)
        pot = sum(info.contributions)
        return tuple(float((pot if seat == winner else 0) - paid) for seat, paid in enumerate(info.contributions))

    def winner(self, state: KuhnState) -> int:
        """The seat that takes the pot (meaningful at a terminal state): the only seat left in
        contention, else the contender holding the highest card."""
        contenders = state.info.contenders(self.players)
        if len(contenders) == 1:
            return contenders[0]
        return max(contenders, key=lambda seat: state.cards[seat])

    def ply(self, state: KuhnState) -> int:
        return len(state.cards) + sum(1 for _, action in state.history if action != OUT)

    def hidden_variants(self, state: KuhnState, seat: int) -> list[KuhnState]:
        """Another seat's card replaced by each card nobody holds: ``seat`` may not tell them apart."""
        return self.card_swaps(state, seat, self.players + 1)

    def determinize(self, observation: Any, seat: int, rng: random.Random) -> KuhnState:
        """A deal ``seat`` cannot tell from the real one: the other seats' cards drawn at random
        from those it does not hold (see :class:`arena.games.model.GeneralGame`)."""
        history = tuple((s, a) for s, a in observation["history"])
        started = observation["toAct"] is not None or any(a != OUT for _, a in history)
        dealt = self.cards_dealt(observation, seat, self.players, started)
        state = KuhnState(self.players, self.deal_unseen(observation["card"], seat, dealt, self.players + 1, (), rng),
                          history)
        _ = state.info  # validates
        return state

    def eliminate(self, state: KuhnState, seat: int) -> KuhnState | None:
        """``seat`` folds for good (see the module docstring); None once the hand is over."""
        if state.info.actor == TERMINAL:
            return None
        if seat in state.info.out:
            return state
        return KuhnState(self.players, state.cards, (*state.history, (seat, OUT)))

    # -- what seats see, and the record ---------------------------------------------------------

    def observation(self, state: KuhnState, seat: int) -> dict[str, Any]:
        return self.seat_view(state, seat, {"deck": self.players + 1, "history": [[s, a] for s, a in state.history]},
                              {"bettor": state.info.bettor})

    def state_to_json(self, state: KuhnState) -> dict[str, Any]:
        return {"players": self.players, "cards": list(state.cards), "history": [[s, a] for s, a in state.history]}

    def state_from_json(self, obj: Any) -> KuhnState:
        exact_keys(obj, "kuhn_poker state", ("players", "cards", "history"), StateError)
        if obj["players"] != self.players or type(obj["players"]) is not int:
            raise StateError(f"players must be {self.players}, got {show_value(obj['players'])}")
        cards = obj["cards"]
        if not isinstance(cards, list):
            raise StateError(f"cards must be a list, got {show_value(cards)}")
        state = KuhnState(self.players, tuple(cards), read_entries(obj["history"], "history"))
        _ = state.info  # validates
        return state

    def card_label(self, card: int) -> str:
        return card_name(card, self.players)

    def board_text(self, state: KuhnState, seat: int | None = None) -> str:
        info = state.info
        lines = [f"Kuhn poker, {self.players} players, pot {sum(info.contributions)}"
                 + (", hand over" if info.actor == TERMINAL else "")]
        for s in range(self.players):
            card = self.shown_card(state, s, seat)
            status = ("out" if s in info.out else "folded" if s in info.folded
                      else "bettor" if s == info.bettor else "called" if info.contributions[s] == 2
                      else "to act" if s == info.actor else "")
            mark = "*" if s == seat else " "
            lines.append(f"{mark}P{s}  card {card:>2}  in {info.contributions[s]}  {status}".rstrip())
        history = ", ".join(f"P{s} {a}" for s, a in state.history) or "none"
        lines.append(f"history: {history}")
        if info.actor == TERMINAL and seat is None:
            lines.append("returns: " + " ".join(f"{r:+g}" for r in self.returns(state)))
        return "\n".join(lines)


def card_name(card: int, players: int) -> str:
    """J, Q, K in the two-player game; the card's number otherwise."""
    return "JQK"[card] if players == 2 else str(card)


#: The registry line (:data:`arena.games.registry.BUILTIN_GAMES`).
SPEC = spec_of(KuhnPoker, "Kuhn poker", svg="arena.games.kuhn_poker.svg:board_svg",
               summary="OpenSpiel's Kuhn poker: N+1 cards, one card each, ante 1, one round of pass/bet (2-10 players)",
               notation='"pass" or "bet" (JSON strings); facing a bet, pass folds and bet calls')
