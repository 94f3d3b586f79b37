"""Love Letter in the general game model, as TAG (the tabletop-games framework) plays it with its
default ``LoveLetterParameters`` (read from TAG's source: ``games/loveletter``).

Cards (16; value, count): guard 1 x5, priest 2 x2, baron 3 x2, handmaid 4 x2, prince 5 x2, king 6,
countess 7, princess 8. 2 to 4 players.

A round: the deck is shuffled (here: dealt one card at a time by chance, each draw uniform over the
cards left, which is the same distribution); one card is removed face down; with 2 players 3 more
are laid aside face up (``nCardsVisibleReserve``); every seat still in the game gets one card; the
first player draws. A turn: holding two cards, play one and apply its effect, then the next seat
still in the round draws. Effects (a target must be another seat still in the round and not
protected, except the Prince, which may target oneself):

- ``guard T G``: guess seat T's card G (not a guard); right, T is knocked out of the round.
- ``priest T``: look at T's card (only the player sees it).
- ``baron T``: compare cards with T in secret; the lower is knocked out (a tie: nothing).
- ``handmaid``: protected from every effect until one's next turn.
- ``prince T``: T (maybe oneself) discards its card and draws a new one (the face-down removed card
  when the deck is empty); a discarded princess knocks T out.
- ``king T``: swap cards with T.
- ``countess``: no effect, but it must be played when the other card is a king or a prince.
- ``princess``: playing it knocks oneself out.

When every possible target is protected (or gone), a guard, priest, baron or king is played with
no effect: the move is the bare card name (``guard``), as in TAG. A knocked-out seat discards its
hand face up. The round ends when one seat is left in it, or after a turn that leaves the deck
empty; then the highest card wins (a tie: the highest sum of discards; still tied, all of them),
and each round winner gets an affection token. The game ends when a single seat has the most
tokens and at least the number needed (TAG: 7, 5, 4 for 2, 3, 4 players; parameter
``tokens_to_win``, 0 meaning TAG's); otherwise a new round starts with the first round winner in
TAG's order (seats 1, 2, ..., N-1, 0). Seat 0 starts the first round.

Returns: each seat's affection tokens (TAG's game score); a seat eliminated after a fault gets -1.

Elimination (:meth:`LoveLetterGame.eliminate`): the seat is knocked out of the round (its hand
discarded face up) and out of the game: it is dealt no card in later rounds. When fewer than two
seats are left in the game, the game ends.

Wire form of a move: a string, the card's name then, where the card takes them, the target seat
and (guard) the guessed card: ``"guard 2 priest"``, ``"priest 1"``, ``"baron 3"``, ``"handmaid"``,
``"prince 0"``, ``"king 1"``, ``"countess"``, ``"princess"``; ``"guard"``, ``"priest"``, ``"baron"``
or ``"king"`` alone when no seat can be targeted. Chance outcomes (the card dealt) are card names.

Observation of a seat::

    {"seat": 1, "players": 3, "round": 0, "turn": 1, "tokensToWin": 5, "tokens": [0, 0, 0],
     "hand": ["guard", "king"],             # this seat's cards only
     "handSizes": [1, 2, 1], "deckSize": 9,
     "discards": [["handmaid"], [], []],   # face up, in order
     "reserve": [],                        # the 2-player game's face-up cards
     "active": [true, true, true],         # still in this round
     "protected": [true, false, false], "out": [],   # seats out of the game after a fault
     "plays": [{"seat": 0, "card": "handmaid", "target": null, "guess": null, "knockedOut": []}],
     "seen": [],                           # what this seat saw this round: Priest and Baron
                                           #   [{"seat": 2, "card": "baron", "play": 3}]
     "lastRound": null,                    # the last round's end: winners and shown hands
     "terminal": false}

Example exchange (3 players, seat 1's turn)::

    > {"type": "game_state", "payload": {<the observation above>}, "timeLeftMs": 10000,
       "seat": 1, "players": 3, "simultaneous": false}
    < {"type": "turn", "payload": "guard 2 priest"}
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

from arena.games.base import IllegalMoveError, MoveSyntaxError
from arena.games.model import CHANCE, TERMINAL, GeneralGame, Parameter
from arena.games.registry import spec_of

CARDS = ("guard", "priest", "baron", "handmaid", "prince", "king", "countess", "princess")
VALUE = {card: index + 1 for index, card in enumerate(CARDS)}
COUNTS = {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1, "countess": 1, "princess": 1}
TARGETED = ("guard", "priest", "baron", "king")  # played with no effect when no seat can be targeted
TAG_TOKENS = {2: 7, 3: 5, 4: 4}
RESERVE_2P = 3
REMOVED, RESERVE = -1, -2  # deal targets that are not seats

#: A move: (card, target seat or None, guessed card or None).
Move = tuple[str, int | None, str | None]


@dataclass(frozen=True)
class LoveLetterState:
    """The omniscient state. ``deck``: cards not yet dealt (sorted); ``to_deal``: the deal targets
    pending (a seat, :data:`REMOVED` or :data:`RESERVE`), a chance node while not empty."""

    tokens: tuple[int, ...]
    round: int
    turn: int
    deck: tuple[str, ...]
    to_deal: tuple[int, ...]
    removed: str | None
    reserve: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    discards: tuple[tuple[str, ...], ...]
    active: tuple[bool, ...]
    protected: tuple[bool, ...]
    out: tuple[int, ...]
    plays: tuple[dict[str, Any], ...]
    seen: tuple[tuple[int, int, str, int], ...]  # (viewer, seat, card, play index)
    last_round: dict[str, Any] | None
    prince_draw: bool = False  # the pending deal is a Prince's victim drawing: the turn ends after it
    steps: int = 0
    over: bool = False


def full_deck() -> tuple[str, ...]:
    return tuple(card for card in CARDS for _ in range(COUNTS[card]))


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1:])


class LoveLetterGame(GeneralGame[LoveLetterState, Move]):
    """Love Letter for 2 to 4 seats (see the module docstring)."""

    name = "love_letter"
    min_players, max_players, default_players = 2, 4, 4
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "tokens_to_win": Parameter("tokens_to_win", 0, 0, 10, "affection tokens that win; 0: TAG's 7/5/4")}
    default_max_moves = 3000

    @property
    def tokens_to_win(self) -> int:
        return self.params["tokens_to_win"] or TAG_TOKENS[self.players]

    # -- rounds -----------------------------------------------------------------------------------

    def initial_state(self) -> LoveLetterState:
        n = self.players
        blank = LoveLetterState((0,) * n, -1, 0, (), (), None, (), ((),) * n, ((),) * n, (False,) * n,
                                (False,) * n, (), (), (), None)
        return self._new_round(blank, 0)

    def _in_game(self, state: LoveLetterState) -> list[int]:
        return [seat for seat in range(self.players) if seat not in state.out]

    def _new_round(self, state: LoveLetterState, first: int) -> LoveLetterState:
        seats = self._in_game(state)
        reserve = (RESERVE,) * RESERVE_2P if self.players == 2 else ()
        n = self.players
        return replace(state, round=state.round + 1, turn=first, deck=full_deck(),
                       to_deal=(REMOVED, *reserve, *seats, first), removed=None, reserve=(),
                       hands=((),) * n, discards=((),) * n, active=tuple(s in seats for s in range(n)),
                       protected=(False,) * n, plays=(), seen=())

    def _next_active(self, state: LoveLetterState, seat: int) -> int:
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if state.active[nxt]:
                return nxt
        return seat

    def _end_turn(self, state: LoveLetterState) -> LoveLetterState:
        """After a play (and any Prince draw): end the round, or let the next seat draw."""
        alive = [s for s in range(self.players) if state.active[s] and state.hands[s]]
        if len(alive) > 1 and state.deck:
            nxt = self._next_active(state, state.turn)
            return replace(state, turn=nxt, protected=_set(state.protected, nxt, False), to_deal=(nxt,))
        return self._end_round(state, alive)

    def _end_round(self, state: LoveLetterState, alive: list[int]) -> LoveLetterState:
        best = max((VALUE[state.hands[s][0]] for s in alive), default=0)
        top = [s for s in alive if VALUE[state.hands[s][0]] == best]
        if len(top) > 1:
            sums = {s: sum(VALUE[c] for c in state.discards[s]) for s in top}
            top = [s for s in top if sums[s] == max(sums.values())]
        tokens = tuple(t + (s in top) for s, t in enumerate(state.tokens))
        shown = {str(s): state.hands[s][0] for s in alive} if len(alive) > 1 else {}
        state = replace(state, tokens=tokens, last_round={"winners": top, "hands": shown},
                        to_deal=())
        if self._game_over(state):
            return replace(state, over=True)
        first = next((p for p in ((i + 1) % self.players for i in range(self.players)) if p in top),
                     self._in_game(state)[0])
        return self._new_round(state, first)

    def _game_over(self, state: LoveLetterState) -> bool:
        seats = self._in_game(state)
        if len(seats) < 2:
            return True
        best = max(state.tokens[s] for s in seats)
        return best >= self.tokens_to_win and [state.tokens[s] for s in seats].count(best) == 1

    # -- the forward model ------------------------------------------------------------------------

    def actor(self, state: LoveLetterState) -> int:
        if state.over:
            return TERMINAL
        return CHANCE if state.to_deal else state.turn

    def chance_outcomes(self, state: LoveLetterState) -> list[tuple[Move, Fraction]]:
        if self.actor(state) != CHANCE:
            return super().chance_outcomes(state)
        total = len(state.deck)
        return [((card, None, None), Fraction(state.deck.count(card), total)) for card in CARDS if card in state.deck]

    def legal_moves(self, state: LoveLetterState, seat: int) -> list[Move]:
        if self.actor(state) != seat:
            return []
        hand = state.hands[seat]
        cards = sorted(set(hand), key=VALUE.__getitem__)
        if "countess" in hand and ("king" in hand or "prince" in hand):
            cards = ["countess"]
        others = [t for t in range(self.players) if t != seat and state.active[t] and not state.protected[t]]
        moves: list[Move] = []
        for card in cards:
            if card == "guard":
                moves += [(card, t, g) for t in others for g in CARDS[1:]] or [(card, None, None)]
            elif card in TARGETED:
                moves += [(card, t, None) for t in others] or [(card, None, None)]
            elif card == "prince":
                moves += [(card, t, None) for t in range(self.players)
                          if t == seat or (state.active[t] and not state.protected[t])]
            else:
                moves.append((card, None, None))
        return moves

    def apply(self, state: LoveLetterState, move: Move) -> LoveLetterState:
        if state.over:
            raise IllegalMoveError("love_letter: the game is over")
        state = replace(state, steps=state.steps + 1)
        if state.to_deal:
            return self._deal(state, move[0])
        return self._play(state, state.turn, move)

    def _deal(self, state: LoveLetterState, card: str) -> LoveLetterState:
        if card not in state.deck:
            raise IllegalMoveError(f"love_letter: no {card} is left to deal")
        index = state.deck.index(card)
        deck = (*state.deck[:index], *state.deck[index + 1:])
        target, rest = state.to_deal[0], state.to_deal[1:]
        state = replace(state, deck=deck, to_deal=rest)
        if target == REMOVED:
            return replace(state, removed=card)
        if target == RESERVE:
            return replace(state, reserve=(*state.reserve, card))
        state = replace(state, hands=_set(state.hands, target, (*state.hands[target], card)))
        if not rest and state.prince_draw:
            return self._end_turn(replace(state, prince_draw=False))
        return state

    def _knock_out(self, state: LoveLetterState, seat: int) -> LoveLetterState:
        return replace(state, active=_set(state.active, seat, False), hands=_set(state.hands, seat, ()),
                       discards=_set(state.discards, seat, (*state.discards[seat], *state.hands[seat])))

    def _play(self, state: LoveLetterState, seat: int, move: Move) -> LoveLetterState:
        card, target, guess = move
        hand = list(state.hands[seat])
        hand.remove(card)
        state = replace(state, hands=_set(state.hands, seat, tuple(hand)),
                        discards=_set(state.discards, seat, (*state.discards[seat], card)))
        index = len(state.plays)
        before = state.active
        if target is not None:
            mine, theirs = (hand[0] if hand else None), (state.hands[target][0] if state.hands[target] else None)
            if card == "guard" and theirs == guess:
                state = self._knock_out(state, target)
            elif card == "priest" and theirs is not None:
                state = replace(state, seen=(*state.seen, (seat, target, theirs, index)))
            elif card == "baron" and mine is not None and theirs is not None:
                state = replace(state, seen=(*state.seen, (seat, target, theirs, index), (target, seat, mine, index)))
                if VALUE[theirs] < VALUE[mine]:
                    state = self._knock_out(state, target)
                elif VALUE[mine] < VALUE[theirs]:
                    state = self._knock_out(state, seat)
            elif card == "king" and mine is not None and theirs is not None:
                state = replace(state, hands=_set(_set(state.hands, seat, (theirs,)), target, (mine,)))
        if card == "handmaid":
            state = replace(state, protected=_set(state.protected, seat, True))
        elif card == "princess":
            state = self._knock_out(state, seat)
        draws: int | None = None  # the seat that draws after a Prince
        if card == "prince" and target is not None:
            lost = state.hands[target][0]
            state = replace(state, hands=_set(state.hands, target, ()),
                            discards=_set(state.discards, target, (*state.discards[target], lost)))
            if lost == "princess":
                state = self._knock_out(state, target)
            elif state.deck:
                draws = target
            else:  # the deck is empty: the face-down removed card
                state = replace(state, hands=_set(state.hands, target, (state.removed,)), removed=None)
        knocked = [s for s in range(self.players) if before[s] and not state.active[s]]
        state = replace(state, plays=(*state.plays, {"seat": seat, "card": card, "target": target,
                                                      "guess": guess, "knockedOut": knocked}))
        if draws is not None:
            return replace(state, to_deal=(draws,), prince_draw=True)  # _deal ends the turn after it
        return self._end_turn(state)

    def returns(self, state: LoveLetterState) -> tuple[float, ...]:
        """Affection tokens (TAG's game score); -1 for a seat out of the game after a fault."""
        return tuple(-1.0 if seat in state.out else float(t) for seat, t in enumerate(state.tokens))

    def ply(self, state: LoveLetterState) -> int:
        return state.steps

    def hidden_variants(self, state: LoveLetterState, seat: int) -> list[LoveLetterState]:
        """What ``seat`` may not tell apart: another seat's single hand card (one ``seat`` never
        peeked at) swapped with the deck's first card, and the face-down removed card swapped
        with it."""
        if not state.deck:
            return []
        new = state.deck[0]
        order = full_deck().index

        def deck_with(old: str) -> tuple[str, ...]:
            return tuple(sorted((*state.deck[1:], old), key=order))

        variants = []
        for holder, hand in enumerate(state.hands):
            if holder == seat or len(hand) != 1 or hand[0] == new \
                    or any(viewer == seat and seen == holder for viewer, seen, _, _ in state.seen):
                continue
            seen = tuple((v, s, new if s == holder else card, i) for v, s, card, i in state.seen)
            hands = tuple((new,) if s == holder else h for s, h in enumerate(state.hands))
            variants.append(replace(state, hands=hands, deck=deck_with(hand[0]), seen=seen))
        if state.removed is not None and state.removed != new:
            variants.append(replace(state, removed=new, deck=deck_with(state.removed)))
        return variants

    def determinize(self, observation: Any, seat: int, rng: random.Random) -> LoveLetterState:
        """A state at a seat's turn that ``seat`` cannot tell from the real one (the unseen cards
        dealt at random): :func:`arena.games.love_letter_determinize.determinize`."""
        from arena.games.love_letter.determinize import determinize

        return determinize(self, observation, seat, rng)

    def eliminate(self, state: LoveLetterState, seat: int) -> LoveLetterState:
        """``seat`` is knocked out of the round and dealt into no later one; the round goes on."""
        if not 0 <= seat < self.players:
            raise IllegalMoveError(f"love_letter: no seat {seat}")
        if seat in state.out or state.over:
            return state
        was_turn = state.turn == seat and state.active[seat]
        state = replace(state, out=(*state.out, seat))
        if state.active[seat]:
            state = self._knock_out(state, seat)
        pending = tuple(t for t in state.to_deal if t != seat)
        if len(self._in_game(state)) < 2:
            return replace(state, to_deal=(), prince_draw=False, over=True)
        if state.prince_draw:  # a Prince's victim is drawing: that draw, then the turn ends
            if pending:
                return replace(state, to_deal=pending)
            return self._end_turn(replace(state, to_deal=(), prince_draw=False))
        if not was_turn:
            return replace(state, to_deal=pending)
        if pending:  # still dealing the round's hands: the next seat takes the first turn instead
            nxt = self._next_active(state, seat)
            return replace(state, turn=nxt, to_deal=(*pending, nxt))
        return self._end_turn(replace(state, to_deal=()))

    # -- what seats see, and the record ---------------------------------------------------------

    def observation(self, state: LoveLetterState, seat: int) -> dict[str, Any]:
        return {"seat": seat, "players": self.players, "round": state.round,
                "turn": None if state.over else state.turn, "tokensToWin": self.tokens_to_win,
                "tokens": list(state.tokens), "hand": list(state.hands[seat]),
                "handSizes": [len(h) for h in state.hands], "deckSize": len(state.deck),
                "discards": [list(d) for d in state.discards], "reserve": list(state.reserve),
                "active": list(state.active), "protected": list(state.protected), "out": list(state.out),
                "plays": [dict(p, knockedOut=list(p["knockedOut"])) for p in state.plays],
                "seen": [{"seat": s, "card": c, "play": i} for v, s, c, i in state.seen if v == seat],
                "lastRound": state.last_round, "terminal": state.over}

    def state_to_json(self, state: LoveLetterState) -> dict[str, Any]:
        return {"players": self.players, "tokens": list(state.tokens), "round": state.round, "turn": state.turn,
                "deck": list(state.deck), "toDeal": list(state.to_deal), "removed": state.removed,
                "reserve": list(state.reserve), "hands": [list(h) for h in state.hands],
                "discards": [list(d) for d in state.discards], "active": list(state.active),
                "protected": list(state.protected), "out": list(state.out),
                "plays": [dict(p, knockedOut=list(p["knockedOut"])) for p in state.plays],
                "seen": [list(v) for v in state.seen], "lastRound": state.last_round,
                "princeDraw": state.prince_draw, "steps": state.steps, "over": state.over}

    def state_from_json(self, obj: Any) -> LoveLetterState:
        """The state of ``state_to_json``; StateError names the first problem found."""
        from arena.games.love_letter.state_json import read_state

        return read_state(self, obj)

    def parse_move(self, wire: Any) -> Move:
        """``"guard 2 priest"`` -> ("guard", 2, "priest"); MoveSyntaxError when malformed."""
        if not isinstance(wire, str):
            raise MoveSyntaxError(f"love_letter: a move is a string like 'guard 2 priest', got {wire!r}")
        words = wire.lower().split()
        if not words or words[0] not in CARDS or len(words) > 3:
            raise MoveSyntaxError(f"love_letter: {wire!r} does not start with a card name ({', '.join(CARDS)})")
        card = words[0]
        target: int | None = None
        guess: str | None = None
        if len(words) >= 2:
            if not words[1].isdigit():
                raise MoveSyntaxError(f"love_letter: {wire!r}: the target must be a seat number")
            target = int(words[1])
        if len(words) == 3:
            if words[2] not in CARDS:
                raise MoveSyntaxError(f"love_letter: {wire!r}: {words[2]!r} is not a card name")
            guess = words[2]
        return (card, target, guess)

    def move_to_wire(self, move: Move) -> str:
        return " ".join(str(part) for part in move if part is not None)

    def board_text(self, state: LoveLetterState, seat: int | None = None) -> str:
        """Tokens, hands (only ``seat``'s when given), discards and this round's plays."""
        lines = [f"Love Letter, {self.players} players, round {state.round + 1}, "
                 f"{self.tokens_to_win} tokens win" + (" (over)" if state.over else ""),
                 f"Deck: {len(state.deck)} cards" + (f"; aside face up: {' '.join(state.reserve)}" if state.reserve else "")]
        if seat is None:
            lines.append(f"Removed face down: {state.removed or '-'}")
        for s in range(self.players):
            if seat is None or s == seat:
                hand = " ".join(state.hands[s]) or "-"
            else:
                hand = " ".join("?" for _ in state.hands[s]) or "-"
            status = "out of the game" if s in state.out else ("in" if state.active[s] else "knocked out")
            marks = (" (you)" if s == seat else "") + (" *" if s == state.turn and not state.over else "")
            shield = ", protected" if state.protected[s] else ""
            lines.append(f"P{s}{marks}: {state.tokens[s]} tokens, {status}{shield}; hand {hand}; "
                         f"discards {' '.join(state.discards[s]) or '-'}")
        for play in state.plays[-6:]:
            lines.append("  " + describe_play(play))
        if seat is not None:
            for viewer, s, card, _ in state.seen:
                if viewer == seat:
                    lines.append(f"  you saw P{s} holding {card}")
        return "\n".join(lines)


def describe_play(play: Mapping[str, Any]) -> str:
    """One line for a play of the public log."""
    text = f"P{play['seat']} played {play['card']}"
    if play["target"] is not None:
        text += f" on P{play['target']}"
    if play["guess"] is not None:
        text += f" guessing {play['guess']}"
    if play["knockedOut"]:
        text += " (knocked out: " + ", ".join(f"P{s}" for s in play["knockedOut"]) + ")"
    return text


#: The registry line (:data:`arena.games.registry.BUILTIN_GAMES`).
SPEC = spec_of(LoveLetterGame, "Love Letter", svg="arena.games.love_letter.svg:board_svg",
               summary="TAG's Love Letter: 2-4 players, hidden hands, knock-outs, rounds to affection tokens.",
               notation="card [target seat] [guessed card], e.g. 'guard 2 priest', 'handmaid', 'prince 0'")
