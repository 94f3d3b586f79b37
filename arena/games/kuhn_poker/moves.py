"""The moves of arena's poker games (Kuhn, Leduc): a dealt card, drawn by chance (its number, an
integer), or a seat's action (a string such as ``"bet"``), and what a seat cannot see: the other
seats' private cards (:meth:`PokerMoves.card_swaps`, :meth:`PokerMoves.deal_unseen`,
:meth:`PokerMoves.shown_card`, :meth:`PokerMoves.seat_view`); the checks of a hand's history both
games make (:func:`read_entries`, :func:`check_seat`). Standard library only."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

from arena.games.base import MoveSyntaxError, StateError, show_value
from arena.games.model import TERMINAL

#: The action of a seat that left the hand (the match took it out), in both games.
OUT = "out"


class PokerMoves:
    """Wire, record and text forms of poker moves; a game sets :attr:`actions`, :attr:`title` and
    :meth:`card_label`."""

    #: The seats' actions, in the order messages list them.
    actions: ClassVar[tuple[str, ...]]
    #: The game's name in messages ("Kuhn poker").
    title: ClassVar[str]
    #: The number of seats (the game's).
    players: int

    def card_label(self, card: int) -> str:
        raise NotImplementedError

    def card_swaps(self, state: Any, seat: int, deck: int, public: tuple[int, ...] = ()) -> list[Any]:
        """``state`` with another seat's private card (``state.cards``) replaced by each card of
        the ``deck`` nobody holds (nor shows in ``public``): what ``seat`` may not tell apart."""
        taken = {*state.cards, *public}
        undealt = [card for card in range(deck) if card not in taken]
        return [replace(state, cards=tuple(card if s == other else c for s, c in enumerate(state.cards)))
                for other in range(len(state.cards)) if other != seat for card in undealt]

    @staticmethod
    def deal_unseen(own: int | None, seat: int, dealt: int, deck: int, shown: tuple[int, ...],
                    rng: random.Random) -> tuple[int, ...]:
        """The private cards of the first ``dealt`` seats as ``seat`` may imagine them: its own card
        ``own`` at its place, every other seat's drawn at random from the ``deck`` cards that are
        neither ``own`` nor ``shown`` (the public cards)."""
        unseen = [card for card in range(deck) if card != own and card not in shown]
        rng.shuffle(unseen)
        return tuple(own if s == seat and own is not None else unseen.pop() for s in range(dealt))

    @staticmethod
    def cards_dealt(observation: Any, seat: int, players: int, started: bool) -> int:
        """How many private cards to deal for ``seat``'s view: all of them once betting has
        ``started``; else as few as agree with what it sees (its own card dealt or not: it cannot
        tell how far the deal has gone past itself)."""
        if started:
            return players
        return seat + 1 if observation["card"] is not None else 0

    def shown_card(self, state: Any, s: int, seat: int | None) -> str:
        """Seat ``s``'s private card as ``seat`` (None: everybody) sees it: its label, ``?`` when
        hidden, ``-`` before it is dealt."""
        if s < len(state.cards) and (seat is None or seat == s):
            return self.card_label(state.cards[s])
        return "?" if s < len(state.cards) else "-"

    def seat_view(self, state: Any, seat: int, table: dict[str, Any], stakes: dict[str, Any]) -> dict[str, Any]:
        """What ``seat`` sees of a hand (its observation): its own card, the game's ``table`` (the
        deck, the actions so far, a public card), what each seat put in and the game's ``stakes``,
        who acts, who folded or left, and whether the hand is over. ``state.info`` is the hand
        replayed (``contributions``, ``actor``, ``folded``, ``out``)."""
        info = state.info
        return {"players": self.players, "seat": seat, "card": state.cards[seat] if seat < len(state.cards) else None,
                **table, "contributions": list(info.contributions), "pot": sum(info.contributions), **stakes,
                "toAct": info.actor if info.actor >= 0 else None, "folded": sorted(info.folded),
                "out": list(info.out), "over": info.actor == TERMINAL}

    def parse_move(self, wire: Any) -> Any:
        if not isinstance(wire, str) or wire not in self.actions:
            quoted = [f'"{action}"' for action in self.actions]
            choices = f"{', '.join(quoted[:-1])} or {quoted[-1]}"
            raise MoveSyntaxError(f"a {self.title} move is {choices}, got {show_value(wire)}")
        return wire

    def move_to_wire(self, move: Any) -> Any:
        return move

    def move_from_record(self, turn: Any) -> Any:
        """A record's move: a card number (a chance draw) or a seat's action."""
        if type(turn) is int:
            return turn
        return self.parse_move(turn)

    def describe_move(self, move: Any) -> str:
        if isinstance(move, int):
            return f"deal {self.card_label(move)}"
        return str(move)


def read_entries(entries: Any, where: str) -> tuple[tuple[Any, Any], ...]:
    """The ``[seat, action]`` pairs of a state's list ``entries`` (named ``where`` in messages),
    checked for shape only; StateError naming the first that is not a pair."""
    if not isinstance(entries, list):
        raise StateError(f"{where} must be a list, got {show_value(entries)}")
    for index, entry in enumerate(entries):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise StateError(f"{where}[{index}] must be [seat, action], got {show_value(entry)}")
    return tuple((entry[0], entry[1]) for entry in entries)


def check_seat(where: str, seat: Any, action: Any, players: int, out: list[int]) -> None:
    """StateError unless history entry ``where`` names a seat of the ``players``, and one that
    has not left the hand already when ``action`` is :data:`OUT`."""
    if type(seat) is not int or not 0 <= seat < players:
        raise StateError(f"{where}: seat must be an integer from 0 to {players - 1}, got {show_value(seat)}")
    if action == OUT and seat in out:
        raise StateError(f"{where}: seat {seat} is already out")
