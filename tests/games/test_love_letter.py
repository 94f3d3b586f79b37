"""Love Letter (arena.games.love_letter.rules), TAG's rules with its default parameters: the deal, every
card's effect, rounds and tokens, elimination, the record form, what a seat sees (a leak test), the
SVG and the bots."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.love_letter.rules import SPEC, LoveLetterGame, LoveLetterState, full_deck
from arena.games.love_letter.svg import board_svg
from arena.games.model import CHANCE, TERMINAL, check_chance, draw_chance
from tests.games.inprocess import BOTS, load_bot, message, play


def deal(game: LoveLetterGame, state: LoveLetterState, *cards: str) -> LoveLetterState:
    for card in cards:
        assert game.actor(state) == CHANCE
        state = game.apply(state, (card, None, None))
    return state


def start(players: int, removed: str, *cards: str, **params: int) -> tuple[LoveLetterGame, LoveLetterState]:
    game = LoveLetterGame(players, **params)
    return game, deal(game, game.initial_state(), removed, *cards)


def mv(game: LoveLetterGame, wire: str) -> Any:
    return game.parse_move(wire)


def random_states(game: LoveLetterGame, rng: random.Random, games: int) -> list[LoveLetterState]:
    seen = []
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.actor(state) == CHANCE:
                state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
            else:
                state = game.apply(state, rng.choice(game.legal_moves(state, game.actor(state))))
            seen.append(state)
    return seen


def test_parameters_follow_tag() -> None:
    assert LoveLetterGame().players == 4
    assert [LoveLetterGame(n).tokens_to_win for n in (2, 3, 4)] == [7, 5, 4]
    assert LoveLetterGame(3, tokens_to_win=1).tokens_to_win == 1
    with pytest.raises(GameError):
        LoveLetterGame(5)
    assert SPEC.name == "love_letter"
    assert len(full_deck()) == 16


def test_the_deal_is_chance_card_by_card() -> None:
    game = LoveLetterGame(4)
    state = game.initial_state()
    outcomes = game.chance_outcomes(state)
    check_chance(outcomes)
    assert {c: p for (c, _, _), p in outcomes}["guard"] == Fraction(5, 16)
    state = deal(game, state, "princess", "guard", "priest", "baron", "handmaid")
    assert state.removed == "princess" and state.hands == (("guard",), ("priest",), ("baron",), ("handmaid",))
    assert ("princess", None, None) not in [o for o, _ in game.chance_outcomes(state)]
    state = deal(game, state, "guard")  # seat 0 draws: its turn
    assert game.actor(state) == 0 and len(state.deck) == 10
    two = LoveLetterGame(2)
    state = deal(two, two.initial_state(), "guard", "king", "baron", "guard", "priest", "prince", "countess")
    assert state.reserve == ("king", "baron", "guard") and game.actor(state) == 0
    assert two.observation(state, 1)["reserve"] == ["king", "baron", "guard"] and len(state.deck) == 9


def test_guard_guesses_and_cannot_name_a_guard() -> None:
    game, state = start(3, "king", "guard", "priest", "baron", "handmaid")
    moves = [game.move_to_wire(m) for m in game.legal_moves(state, 0)]
    assert "guard 1 priest" in moves and "guard 1 guard" not in moves and len(moves) == 2 * 7 + 1
    with pytest.raises(IllegalMoveError):
        game.validate_move(state, 0, mv(game, "guard 1 guard"))
    hit = game.apply(state, mv(game, "guard 1 priest"))
    assert hit.active == (True, False, True) and hit.discards[1] == ("priest",)
    assert hit.plays[-1]["knockedOut"] == [1] and game.actor(hit) == CHANCE and hit.to_deal == (2,)
    miss = game.apply(state, mv(game, "guard 2 king"))
    assert miss.active == (True, True, True)


def test_priest_shows_a_card_to_its_player_only() -> None:
    game, state = start(3, "king", "priest", "guard", "baron", "guard")
    state = game.apply(state, mv(game, "priest 2"))
    assert game.observation(state, 0)["seen"] == [{"seat": 2, "card": "baron", "play": 0}]
    assert game.observation(state, 1)["seen"] == [] and game.observation(state, 2)["seen"] == []


def test_baron_compares_in_secret() -> None:
    game, state = start(3, "countess", "baron", "guard", "priest", "king")
    after = game.apply(state, mv(game, "baron 1"))  # keeps king 6 against guard 1
    assert after.active == (True, False, True) and after.discards[1] == ("guard",)
    assert [s["card"] for s in game.observation(after, 0)["seen"]] == ["guard"]
    assert [s["card"] for s in game.observation(after, 1)["seen"]] == ["king"]
    assert game.observation(after, 2)["seen"] == []
    game, state = start(2, "king", "guard", "guard", "guard", "baron", "priest", "priest")
    tie = game.apply(state, mv(game, "baron 1"))
    assert tie.active == (True, True)


def test_handmaid_protects_until_the_next_turn() -> None:
    game, state = start(2, "king", "guard", "guard", "guard", "handmaid", "priest", "guard")
    state = game.apply(state, mv(game, "handmaid"))
    state = deal(game, state, "baron")  # seat 1 draws
    assert state.protected == (True, False)
    assert [game.move_to_wire(m) for m in game.legal_moves(state, 1)] == ["priest", "baron"]
    state = game.apply(game.apply(state, mv(game, "priest")), ("guard", None, None))
    assert state.protected == (False, False) and game.actor(state) == 0  # protection ends at seat 0's turn


def test_prince_discards_and_draws_and_can_take_the_removed_card() -> None:
    game, state = start(3, "king", "prince", "princess", "guard", "guard")
    knocked = game.apply(state, mv(game, "prince 1"))
    assert knocked.active == (True, False, True) and knocked.discards[1] == ("princess",)
    redraw = game.apply(state, mv(game, "prince 2"))
    assert game.actor(redraw) == CHANCE and redraw.to_deal == (2,) and redraw.hands[2] == ()
    redraw = deal(game, redraw, "baron")
    assert redraw.hands[2] == ("baron",) and redraw.to_deal == (1,) and redraw.turn == 1  # seat 1's turn
    self_prince = deal(game, game.apply(state, mv(game, "prince 0")), "priest")
    assert self_prince.hands[0] == ("priest",) and self_prince.discards[0] == ("prince", "guard")
    assert self_prince.turn == 1
    empty = replace(state, deck=())
    last = game.apply(empty, mv(game, "prince 2"))
    # Seat 2 took the face-down king; the deck is empty: the showdown, seat 1's princess wins.
    assert last.last_round == {"winners": [1], "hands": {"0": "guard", "1": "princess", "2": "king"}}
    assert last.tokens == (0, 1, 0) and last.round == 1


def test_king_swaps_and_countess_is_forced() -> None:
    game, state = start(2, "guard", "guard", "guard", "guard", "king", "priest", "baron")
    state = game.apply(state, mv(game, "king 1"))
    assert state.hands == (("priest",), ("baron",))
    game, state = start(2, "guard", "guard", "guard", "guard", "countess", "priest", "prince")
    assert [game.move_to_wire(m) for m in game.legal_moves(state, 0)] == ["countess"]
    game, state = start(2, "guard", "guard", "guard", "guard", "countess", "priest", "princess")
    assert [game.move_to_wire(m) for m in game.legal_moves(state, 0)] == ["countess", "princess"]
    out = game.apply(state, mv(game, "princess"))  # knocks oneself out: seat 1 takes the round
    assert out.tokens == (0, 1) and out.round == 1


def test_round_end_highest_card_then_discards_and_tag_first_player() -> None:
    game, state = start(3, "king", "guard", "guard", "guard", "priest", tokens_to_win=2)
    state = replace(state, deck=("baron",))
    state = game.apply(state, mv(game, "priest 1"))  # keeps guard
    state = deal(game, state, "baron")  # seat 1 draws the last card
    state = game.apply(state, mv(game, "baron 2"))  # guard vs guard: tie; the deck is empty: showdown
    # Seats 0, 1, 2 all hold a guard: the discards decide (priest 2, baron 3, none): seat 1 wins.
    assert state.tokens == (0, 1, 0) and state.last_round == {"winners": [1], "hands": {"0": "guard", "1": "guard", "2": "guard"}}
    assert state.round == 1 and state.turn == 1 and game.actor(state) == CHANCE


def test_a_round_won_by_the_last_seat_standing_and_the_game_end() -> None:
    game, state = start(2, "king", "guard", "guard", "guard", "guard", "priest", "guard", tokens_to_win=1)
    end = game.apply(state, mv(game, "guard 1 priest"))
    assert game.is_terminal(end) and game.actor(end) == TERMINAL and end.tokens == (1, 0)
    assert game.returns(end) == (1.0, 0.0) and game.legal_moves(end, 0) == []


def test_two_winners_of_a_round_both_score_and_the_game_needs_one_leader() -> None:
    game = LoveLetterGame(3, tokens_to_win=1)
    state = game.initial_state()
    state = replace(state, tokens=(0, 0, 0))
    shown = game._end_round(replace(deal(game, state, "king", "guard", "guard", "priest", "guard"),
                                     discards=((), (), ())), [0, 1])
    assert shown.tokens == (1, 1, 0) and not shown.over  # two leaders: the game goes on
    assert shown.turn == 1  # TAG: the first winner among seats 1, 2, 0 starts


def test_elimination_knocks_the_seat_out_of_the_game() -> None:
    game, state = start(3, "king", "guard", "priest", "baron", "handmaid", tokens_to_win=1)
    out = game.eliminate(state, 0)  # at its own turn, holding two cards
    assert out.out == (0,) and out.active == (False, True, True) and out.hands[0] == ()
    assert out.discards[0] == ("guard", "handmaid") and game.actor(out) == CHANCE and out.to_deal == (1,)
    assert game.returns(out)[0] == -1.0
    again = game.eliminate(out, 0)
    assert again == out
    last = game.eliminate(out, 2)
    assert game.is_terminal(last) and game.returns(last) == (-1.0, 0.0, -1.0)
    # An eliminated seat is dealt nothing in later rounds.
    game4, state4 = start(4, "king", "guard", "priest", "baron", "handmaid", "guard", tokens_to_win=3)
    state4 = game4.eliminate(state4, 3)
    rng = random.Random(1)
    while not game4.is_terminal(state4) and state4.round == 0:
        if game4.actor(state4) == CHANCE:
            state4 = game4.apply(state4, draw_chance(game4.chance_outcomes(state4), rng))
        else:
            state4 = game4.apply(state4, rng.choice(game4.legal_moves(state4, game4.actor(state4))))
    while game4.actor(state4) == CHANCE:
        state4 = game4.apply(state4, draw_chance(game4.chance_outcomes(state4), rng))
    assert state4.hands[3] == () and state4.active[3] is False and state4.to_deal == ()
    # Eliminated while dealing the first hands: the next seat takes the first turn.
    game, state = LoveLetterGame(3), LoveLetterGame(3).initial_state()
    state = game.eliminate(deal(game, state, "king"), 0)
    state = deal(game, state, "guard", "priest", "baron")
    assert state.turn == 1 and state.hands == ((), ("guard", "baron"), ("priest",))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_seat_sees_another_seats_hidden_cards(players: int) -> None:
    """Swap another seat's hand card, or the face-down removed card, with a card of the deck: the
    observation of every seat but the holder stays byte-identical (the leak test)."""
    game = LoveLetterGame(players, tokens_to_win=2)
    rng = random.Random(players)
    checked = 0
    for state in random_states(game, rng, 15):
        if state.over or not state.deck:
            continue
        for holder in range(players):
            if len(state.hands[holder]) != 1 or state.hands[holder][0] == state.deck[0]:
                continue
            old, new = state.hands[holder][0], state.deck[0]
            deck = tuple(sorted((*state.deck[1:], old), key=full_deck().index))
            # What someone saw of the holder stays as it was: only the card itself changes.
            changed = replace(state, hands=tuple((new,) if s == holder else h for s, h in enumerate(state.hands)),
                              deck=deck, seen=tuple(v for v in state.seen if v[1] != holder))
            plain = replace(state, seen=changed.seen)
            for viewer in range(players):
                if viewer != holder:
                    a = json.dumps(game.observation(plain, viewer), sort_keys=True)
                    assert json.dumps(game.observation(changed, viewer), sort_keys=True) == a
                    checked += 1
        if state.removed is not None and state.removed != state.deck[0]:
            deck = tuple(sorted((*state.deck[1:], state.removed), key=full_deck().index))
            hidden = replace(state, removed=state.deck[0], deck=deck)
            for viewer in range(players):
                assert json.dumps(game.observation(hidden, viewer)) == json.dumps(game.observation(state, viewer))
    assert checked > 100


def test_observation_shows_own_hand_and_the_public_table() -> None:
    game, state = start(3, "king", "guard", "priest", "baron", "handmaid")
    view = game.observation(state, 0)
    assert view["hand"] == ["guard", "handmaid"] and view["handSizes"] == [2, 1, 1]
    assert "removed" not in json.dumps(view) and "king" not in json.dumps(view)
    assert "priest" not in json.dumps(view) and "baron" not in json.dumps(view)
    text = game.board_text(state, 0)
    assert "P0 (you) *" in text and "priest" not in text and "Removed" not in text
    assert "Removed face down: king" in game.board_text(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_round_trip_through_json(players: int) -> None:
    game = LoveLetterGame(players, tokens_to_win=2)
    for state in random_states(game, random.Random(10 + players), 5):
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state


@pytest.mark.parametrize(("change", "problem"), [
    (lambda o: o.pop("deck"), "missing key 'deck'"),
    (lambda o: o.update(deck=o["deck"] + ["guard"]), "the cards do not make the deck"),
    (lambda o: o["hands"].__setitem__(0, ["dragon"]), "hands\\[0\\] must be a list of card names"),
    (lambda o: o.update(tokens=[0, 0]), "tokens must list 3 seats"),
    (lambda o: o.update(turn=5), "turn must be an integer from 0 to 2"),
    (lambda o: o.update(active=[1, 1, 1]), "active must hold true or false"),
    (lambda o: o.update(toDeal=[7]), "toDeal must list seats"),
    (lambda o: o.update(out=[1, 1]), "out must list distinct seats"),
])
def test_bad_state_objects_are_named(change: Any, problem: str) -> None:
    game, state = start(3, "king", "guard", "priest", "baron", "handmaid")
    obj = json.loads(json.dumps(game.state_to_json(state)))
    change(obj)
    with pytest.raises(StateError, match=problem):
        game.state_from_json(obj)


def test_moves_on_the_wire() -> None:
    game = LoveLetterGame(3)
    assert game.parse_move("guard 2 priest") == ("guard", 2, "priest")
    assert game.parse_move(" Handmaid ") == ("handmaid", None, None)
    assert game.move_to_wire(("prince", 0, None)) == "prince 0"
    for bad in (3, "dragon 1", "guard x priest", "guard 1 dragon", "guard 1 priest 3", ""):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(bad)


def test_perft_from_the_start() -> None:
    """Our own figures (no reference implementation exists to compare with): the deal's chance
    steps branch over the distinct cards left."""
    game = LoveLetterGame(2)
    assert [game.perft(game.initial_state(), d) for d in range(3)] == [1, 8, 5 * 8 + 3 * 7]


def test_svg_hides_other_hands_in_a_seat_view() -> None:
    game, state = start(2, "king", "guard", "guard", "guard", "countess", "priest", "princess")
    obj = game.state_to_json(state)
    whole, mine = board_svg(obj), board_svg(obj, 1)
    assert ET.fromstring(whole).tag.endswith("svg") and ET.fromstring(mine).tag.endswith("svg")
    assert "princess" in whole and "countess" in whole and "king" in whole
    assert "priest" in mine and "princess" not in mine and "countess" not in mine and ">king<" not in mine


# -- the bots ------------------------------------------------------------------------------------


def random_chooser(bot: Any, rng: random.Random) -> Any:
    return lambda m: bot.choose(m, rng)


@pytest.mark.parametrize(("players", "tokens", "games"), [(2, 1, 300), (3, 1, 300), (4, 1, 300), (2, 0, 200), (3, 0, 200), (4, 0, 200)])
def test_heuristic_beats_random(players: int, tokens: int, games: int) -> None:
    """The heuristic bot in seat ``g % players``, random bots elsewhere: it wins more often than a
    random seat (single rounds, ``tokens_to_win=1``, and 200 full matches to TAG's 7, 5, 4 tokens)."""
    game = LoveLetterGame(players, tokens_to_win=tokens)
    heuristic, rand = load_bot("love_letter_heuristic.py"), load_bot("love_letter_random.py")
    rng = random.Random(30 + players + tokens)
    wins = [0, 0]
    for g in range(games):
        hero = g % players
        bots = [heuristic.choose if s == hero else random_chooser(rand, random.Random(rng.random()))
                for s in range(players)]
        end = play(game, bots, rng)
        rets = game.returns(end)
        top = max(rets)
        wins[0] += rets[hero] == top
        wins[1] += sum(rets[s] == top for s in range(players) if s != hero)
    rate, other = wins[0] / games, wins[1] / (games * (players - 1))
    print(f"love_letter {players}p tokens {game.tokens_to_win}: heuristic won {wins[0]}/{games} ({rate:.2f}), "
          f"a random seat {other:.2f}")
    assert rate > 1.5 * other and rate > 1 / players


@pytest.mark.parametrize("name", ["love_letter_random.py", "love_letter_heuristic.py"])
def test_bots_stand_alone_and_answer_over_a_pipe(name: str) -> None:
    text = (BOTS / name).read_text()
    assert "import arena" not in text and "from arena" not in text
    game, state = start(3, "king", "guard", "princess", "baron", "handmaid")
    lines = [json.dumps(message(game, state, 0, False)),
             json.dumps({**message(game, state, 0, False), "legalMoves": ["handmaid"]})]
    out = subprocess.run([sys.executable, str(BOTS / name)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=60, check=True)
    replies = [json.loads(line)["payload"] for line in out.stdout.splitlines()]
    legal = {game.move_to_wire(m) for m in game.legal_moves(state, 0)}
    assert len(replies) == 2 and replies[0] in legal and replies[1] == "handmaid"


def test_bots_compute_the_rules_legal_moves() -> None:
    rand, heuristic = load_bot("love_letter_random.py"), load_bot("love_letter_heuristic.py")
    game = LoveLetterGame(4, tokens_to_win=1)
    for state in random_states(game, random.Random(4), 20):
        seat = game.actor(state)
        if seat < 0:
            continue
        legal = sorted(game.move_to_wire(m) for m in game.legal_moves(state, seat))
        obs = message(game, state, seat, False)
        assert sorted(rand.legal_moves(obs["payload"])) == legal == sorted(heuristic.legal_moves(obs["payload"]))
        if "princess" in state.hands[seat] and len(legal) > 1:
            assert heuristic.choose(obs) != "princess"


def test_heuristic_guards_a_card_it_saw() -> None:
    heuristic = load_bot("love_letter_heuristic.py")
    game, state = start(3, "king", "priest", "guard", "baron", "guard")
    state = game.apply(state, mv(game, "priest 2"))  # seat 0 saw seat 2's baron
    state = deal(game, state, "guard")
    state = game.apply(state, mv(game, "guard 0 king"))  # seat 1 misses
    state = deal(game, state, "handmaid")
    state = game.apply(state, mv(game, "handmaid"))  # seat 2 plays the handmaid: keeps the baron, protected
    state = deal(game, state, "guard")
    assert heuristic.choose(message(game, state, 0, False)) != "guard 2 baron"  # protected: not a target
    assert heuristic.known_cards(game.observation(state, 0)) == {2: "baron"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_eliminations_never_stall_the_game(players: int) -> None:
    """Seats eliminated at random moments: the seat to move is never out, every state reads back
    from its record form, and every game ends."""
    game = LoveLetterGame(players, tokens_to_win=2)
    rng = random.Random(40 + players)
    for _ in range(100):
        state, steps = game.initial_state(), 0
        while not game.is_terminal(state):
            steps += 1
            assert steps < 3000
            if rng.random() < 0.02:
                state = game.eliminate(state, rng.randrange(players))
            elif game.actor(state) == CHANCE:
                state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
            else:
                seat = game.actor(state)
                assert seat not in state.out and state.active[seat]
                state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
            assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
