"""Goofspiel (arena.games.goofspiel.rules): the rules, the record form, elimination, what a seat sees,
the bots, and (when pyspiel is installed) perft and random playouts compared step by step with
OpenSpiel's ``goofspiel``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from typing import Any

import pytest

from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.goofspiel.rules import SPEC, GoofspielGame, GoofspielState
from arena.games.goofspiel.svg import board_svg
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, check_chance, draw_chance, ranks
from tests.games.inprocess import BOTS, load_bot, message, play
from tests.helpers import spiel_perft_profile


def random_playout(game: GoofspielGame, rng: random.Random) -> list[GoofspielState]:
    state = game.initial_state()
    seen = [state]
    while not game.is_terminal(state):
        if game.actor(state) == CHANCE:
            state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
        else:
            state = game.apply_joint(state, {s: rng.choice(game.legal_moves(state, s)) for s in game.acting_seats(state)})
        seen.append(state)
    return seen


def test_parameters_and_identity() -> None:
    game = GoofspielGame()
    assert game.players == 2 and game.num_cards == 13
    assert GoofspielGame(4, num_cards=5).identity() == {"name": "goofspiel", "players": 4, "params": {"num_cards": 5}}
    with pytest.raises(GameError, match="players must be 2 to 10"):
        GoofspielGame(11)
    with pytest.raises(GameError, match="num_cards must be an integer from 1 to 13"):
        GoofspielGame(2, num_cards=14)
    assert SPEC.rules == "arena.games.goofspiel.rules:GoofspielGame"


def test_a_round_chance_then_simultaneous_bids() -> None:
    game = GoofspielGame(3, num_cards=4)
    state = game.initial_state()
    assert game.actor(state) == CHANCE and game.acting_seats(state) == ()
    outcomes = game.chance_outcomes(state)
    check_chance(outcomes)
    assert outcomes == [(c, Fraction(1, 4)) for c in (1, 2, 3, 4)]
    state = game.apply(state, 3)
    assert game.actor(state) == SIMULTANEOUS and game.acting_seats(state) == (0, 1, 2)
    assert game.legal_moves(state, 1) == [1, 2, 3, 4]
    state = game.apply_joint(state, {0: 4, 1: 2, 2: 1})
    assert state.points == (3, 0, 0) and state.hands[0] == (1, 2, 3)
    assert [c for c, _ in game.chance_outcomes(state)] == [1, 2, 4]
    with pytest.raises(IllegalMoveError):
        game.apply(state, 3)  # that prize is gone


def test_a_tied_top_bid_discards_the_prize_even_when_a_lower_bid_is_unique() -> None:
    game = GoofspielGame(3, num_cards=4)
    state = game.apply_joint(game.apply(game.initial_state(), 4), {0: 3, 1: 3, 2: 1})
    assert state.points == (0, 0, 0)
    assert game.observation(state, 2)["winners"] == [None]


def test_the_last_round_is_played_with_the_second_last() -> None:
    game = GoofspielGame(2, num_cards=3)
    state = game.apply_joint(game.apply(game.initial_state(), 2), {0: 1, 1: 3})
    state = game.apply(state, 3)
    end = game.apply_joint(state, {0: 3, 1: 1})
    assert game.is_terminal(end) and game.actor(end) == TERMINAL
    assert end.prizes == (2, 3, 1) and end.bids[-1] == (2, 2)  # the last prize tied, discarded
    assert end.points == (3, 2) and game.returns(end) == (1.0, -1.0)
    assert game.ply(end) == 4  # two chance draws and two joint moves, as OpenSpiel counts
    assert game.perft(game.initial_state(), 4) == 3 * 9 * 2 * 4
    assert game.perft(game.initial_state(), 5) == 0  # every game has ended: none is 5 steps long


def test_win_loss_returns_as_openspiel() -> None:
    game = GoofspielGame(3, num_cards=1)
    one = game.apply(game.initial_state(), 1)
    assert game.returns(game.apply_joint(one, {0: 1, 1: 1, 2: 1})) == (0.0, 0.0, 0.0)  # all tied: a draw
    game4 = GoofspielGame(4, num_cards=2)
    state = game4.apply(game4.initial_state(), 1)
    end = game4.apply_joint(state, {0: 2, 1: 1, 2: 1, 3: 1})  # P0 takes 1, then 2 is tied by P1-P3
    assert end.points == (1, 0, 0, 0) and game4.returns(end) == (1.0, -1 / 3, -1 / 3, -1 / 3)
    state = game4.apply(game4.initial_state(), 2)
    end = game4.apply_joint(state, {0: 2, 1: 1, 2: 1, 3: 1})  # P0 takes 2; prize 1 tied by P1-P3 (2s)
    assert end.points == (2, 0, 0, 0) and ranks(game4.returns(end)) == (1, 2, 2, 2)
    game3 = GoofspielGame(3, num_cards=3)
    state = game3.apply_joint(game3.apply(game3.initial_state(), 1), {0: 3, 1: 1, 2: 2})
    state = game3.apply_joint(game3.apply(state, 2), {0: 1, 1: 3, 2: 1})
    # P0 took 1, P1 took 2, prize 3: bids P0 2, P1 2, P2 3 -> P2 takes 3.
    assert state.points == (1, 2, 3) and game3.returns(state) == (-0.5, -0.5, 1.0)
    state = game3.apply_joint(game3.apply(game3.initial_state(), 3), {0: 3, 1: 2, 2: 1})
    state = game3.apply_joint(game3.apply(state, 1), {0: 1, 1: 3, 2: 2})
    # P0 took 3, P1 took 1, prize 2: P0 2, P1 1, P2 3 -> P2 takes 2: points 3, 1, 2.
    assert state.points == (3, 1, 2) and game3.returns(state) == (1.0, -0.5, -0.5)
    # Two winners share: +1/2 each, the loser -1.
    rng = random.Random(1)
    game = GoofspielGame(3, num_cards=4)
    while True:
        end = random_playout(game, rng)[-1]
        top = max(end.points)
        if end.points.count(top) == 2:
            break
    assert game.returns(end) == tuple(0.5 if p == top else -1.0 for p in end.points)


def test_moves_on_the_wire_are_card_values() -> None:
    game = GoofspielGame(2, num_cards=5)
    assert game.parse_move(3) == 3 and game.move_to_wire(3) == 3 and game.describe_move(3) == "3"
    for bad in ("3", 3.0, True, None, [3]):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(bad)
    state = game.apply(game.initial_state(), 2)
    with pytest.raises(IllegalMoveError):
        game.validate_move(state, 0, 6)
    assert game.validate_move(state, 1, 5) == 5
    with pytest.raises(IllegalMoveError, match="bids are needed from seats"):
        game.apply_joint(state, {0: 1})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_round_trip_through_json(players: int) -> None:
    game = GoofspielGame(players, num_cards=6)
    rng = random.Random(players)
    for _ in range(20):
        for state in random_playout(game, rng):
            obj = json.loads(json.dumps(game.state_to_json(state)))
            assert game.state_from_json(obj) == state


@pytest.mark.parametrize(("change", "problem"), [
    (lambda o: o.update(prizes=[2, 2]), "prizes\\[1\\] = 2 is not a fresh prize card"),
    (lambda o: o.update(bids=[[1, 9]]), "bids\\[0\\]\\[1\\] = 9 is not a card in hand"),
    (lambda o: o.update(bids=[[1]]), "bids\\[0\\] must list 2 bids"),
    (lambda o: o.update(points=[0, 9]), "points \\[0, 9\\] disagree with the bids"),
    (lambda o: o.update(numCards=5), "numCards is 5, this game has 4"),
    (lambda o: o.update(eliminated=[0, 0]), "eliminated must list distinct seats"),
    (lambda o: o.update(bids=[[0, 1]]), "bids\\[0\\]\\[0\\] = 0 is not a card in hand"),
    (lambda o: o.pop("bids"), "'bids' must be a list"),
])
def test_bad_state_objects_are_named(change: Any, problem: str) -> None:
    game = GoofspielGame(2, num_cards=4)
    state = game.apply_joint(game.apply(game.initial_state(), 3), {0: 1, 1: 2})
    state = game.apply(state, 2)
    obj = game.state_to_json(state)
    change(obj)
    with pytest.raises(StateError, match=problem):
        game.state_from_json(obj)
    with pytest.raises(StateError, match="the last round is missing"):
        game.state_from_json({"prizes": [1, 2, 3], "bids": [[1, 2], [2, 1], [3, 3]], "eliminated": []})


def test_an_eliminated_seat_bids_nothing_and_loses() -> None:
    game = GoofspielGame(3, num_cards=4)
    state = game.apply(game.initial_state(), 4)
    state = game.apply_joint(state, {0: 4, 1: 1, 2: 2})  # P0 leads with 4 points
    state = game.eliminate(state, 0)
    assert game.eliminate(state, 0) == state
    state = game.apply(state, 1)
    assert game.acting_seats(state) == (1, 2) and game.legal_moves(state, 0) == []
    with pytest.raises(IllegalMoveError):
        game.apply_joint(state, {0: 1, 1: 2, 2: 3})
    state = game.apply_joint(state, {1: 3, 2: 3})  # tied: discarded; P0's 0 does not count
    assert state.bids[-1] == (0, 3, 3) and state.points == (4, 0, 0) and state.hands[0] == (1, 2, 3)
    state = game.apply_joint(game.apply(state, 2), {1: 4, 2: 1})  # P1 takes 2; the last prize 3 ...
    assert game.is_terminal(state) and state.bids[-1] == (0, 2, 4)  # ... goes to P2
    assert state.points == (4, 2, 3)
    assert game.returns(state) == (-0.5, -0.5, 1.0)  # P0 has the most points but is out: a loser
    assert game.state_from_json(game.state_to_json(state)) == state
    alone = GoofspielGame(2, num_cards=3)
    gone = alone.eliminate(alone.eliminate(alone.initial_state(), 1), 0)
    assert alone.is_terminal(gone) and alone.returns(gone) == (0.0, 0.0)


def test_every_seat_sees_the_public_record_and_only_its_hand_as_its_own() -> None:
    """Goofspiel keeps nothing hidden once a round is over (OpenSpiel's imp_info=False), and no bid
    is in a state before every seat has bid: an observation is the public record plus the seat's
    own number, the same whatever the other seats then bid or the later prizes turn out to be."""
    game = GoofspielGame(3, num_cards=5)
    rng = random.Random(5)
    for _ in range(30):
        for state in random_playout(game, rng):
            views = [game.observation(state, seat) for seat in range(3)]
            for seat, view in enumerate(views):
                assert view["seat"] == seat and view["hand"] == list(state.hands[seat])
                common = {k: v for k, v in view.items() if k not in ("seat", "hand")}
                assert common == {k: v for k, v in views[0].items() if k not in ("seat", "hand")}
            if game.actor(state) == SIMULTANEOUS:
                text = json.dumps(views[0], sort_keys=True)
                for joint in ({0: 1, 1: 1, 2: 1}, {0: 2, 1: 3, 2: 1}):
                    if all(joint[s] in state.hands[s] for s in range(3)):
                        later = game.apply_joint(state, joint)
                        assert json.dumps(game.observation(state, 0), sort_keys=True) == text
                        assert later.bids[:len(state.bids)] == state.bids


def test_board_text_and_svg() -> None:
    game = GoofspielGame(3, num_cards=4)
    state = random_playout(game, random.Random(2))[-1]
    text = game.board_text(state, 1)
    assert "P1 (you)" in text and "Returns:" in text
    for seat in (None, 0):
        svg = board_svg(game.state_to_json(state), seat)
        assert ET.fromstring(svg).tag.endswith("svg")
    mid = game.apply(game.initial_state(), 3)
    assert "<title>Goofspiel, 3 players, 4 cards, 0 rounds played</title>" in board_svg(game.state_to_json(mid))


# -- the bots ------------------------------------------------------------------------------------


def partial_random(bot: Any, rng: random.Random) -> Any:
    return lambda m: bot.choose(m, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_heuristic_beats_random(players: int) -> None:
    """200 games of the default 13 cards, the heuristic bot in seat ``g % players`` and random bots
    in the others: its mean return and its share of first places beat the random seats'."""
    game = GoofspielGame(players)
    heuristic, rand = load_bot("goofspiel_heuristic.py"), load_bot("goofspiel_random.py")
    rng = random.Random(20 + players)
    totals = [0.0, 0.0]  # heuristic, random (mean over random seats)
    wins = [0, 0]
    games = 200
    for g in range(games):
        hero = g % players
        bots = [heuristic.choose if s == hero else partial_random(rand, random.Random(rng.random()))
                for s in range(players)]
        end = play(game, bots, rng)
        rets = game.returns(end)
        totals[0] += rets[hero]
        totals[1] += sum(r for s, r in enumerate(rets) if s != hero) / (players - 1)
        wins[0] += rets[hero] > 0
        wins[1] += sum(rets[s] > 0 for s in range(players) if s != hero)
    print(f"goofspiel {players}p: heuristic mean return {totals[0] / games:+.3f}, random {totals[1] / games:+.3f}; "
          f"heuristic won {wins[0]}/{games}, random seats won {wins[1]}/{games * (players - 1)}")
    assert totals[0] / games > 0.3 and totals[0] > totals[1]
    assert wins[0] / games > 2 * wins[1] / (games * (players - 1))


@pytest.mark.parametrize("name", ["goofspiel_random.py", "goofspiel_heuristic.py"])
def test_bots_stand_alone_and_answer_over_a_pipe(name: str) -> None:
    text = (BOTS / name).read_text()
    assert "import arena" not in text and "from arena" not in text
    game = GoofspielGame(2, num_cards=4)
    state = game.apply(game.initial_state(), 3)
    lines = [json.dumps(message(game, state, seat, True)) for seat in (0, 1)]
    state2 = game.apply(game.apply_joint(state, {0: 1, 1: 4}), 2)
    lines.append(json.dumps({**message(game, state2, 0, True), "legalMoves": [2]}))
    out = subprocess.run([sys.executable, str(BOTS / name)], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=60, check=True)
    replies = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(replies) == 3 and all(r["type"] == "turn" for r in replies)
    assert all(r["payload"] in (1, 2, 3, 4) for r in replies[:2]) and replies[2]["payload"] == 2


def test_heuristic_bids_close_to_the_prize() -> None:
    heuristic = load_bot("goofspiel_heuristic.py")
    game = GoofspielGame(2, num_cards=5)
    state = game.apply(game.initial_state(), 3)
    assert heuristic.choose(message(game, state, 0, True)) == 3
    state = game.apply(game.apply_joint(state, {0: 5, 1: 4}), 5)  # no card worth 5 left for seat 0 ...
    assert heuristic.choose(message(game, state, 0, True)) == 1  # ... so it throws its lowest card
    # Seat 1 holds 5 (above all of seat 0's cards): a certain win, and the cheapest card worth 5.
    assert heuristic.choose(message(game, state, 1, True)) == 5


# -- OpenSpiel's goofspiel -------------------------------------------------------------------------

PERFT_CASES = [(2, 3, 5), (2, 4, 6), (2, 5, 5), (3, 3, 5), (3, 4, 4), (3, 5, 3), (4, 3, 5), (4, 4, 3), (4, 5, 3)]


@pytest.mark.parametrize(("players", "cards", "depth"), PERFT_CASES)
def test_perft_equals_openspiel(players: int, cards: int, depth: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    reference = pyspiel.load_game("goofspiel", {"players": players, "num_cards": cards})
    ours = GoofspielGame(players, num_cards=cards)
    theirs = spiel_perft_profile(reference.new_initial_state(), depth)
    assert [ours.perft(ours.initial_state(), d) for d in range(1, depth + 1)] == theirs, (players, cards)


def spiel_points(state: Any) -> list[int]:
    line = next(line for line in str(state).splitlines() if line.startswith("Points:"))
    return [int(x) for x in line.split()[1:]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_step_by_step_against_openspiel(players: int) -> None:
    """80 playouts per player count (240 in all), card counts 3..13: at every step the same actor,
    the same chance outcomes and probabilities, the same legal bids for every seat, the same points;
    at the end the same returns. A card of value v is OpenSpiel's action v-1."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(100 + players)
    for game_index in range(80):
        cards = 3 + game_index % 11
        reference = pyspiel.load_game("goofspiel", {"players": players, "num_cards": cards})
        ours = GoofspielGame(players, num_cards=cards)
        spiel, state = reference.new_initial_state(), ours.initial_state()
        while not ours.is_terminal(state):
            assert not spiel.is_terminal()
            assert spiel.current_player() == ours.actor(state)
            if ours.actor(state) == CHANCE:
                theirs = [(a + 1, p) for a, p in spiel.chance_outcomes()]
                mine = ours.chance_outcomes(state)
                assert [c for c, _ in theirs] == [c for c, _ in mine]
                assert all(abs(float(p) - q) < 1e-12 for (_, p), (_, q) in zip(mine, theirs, strict=True))
                card = draw_chance(mine, rng)
                spiel.apply_action(card - 1)
                state = ours.apply(state, card)
            else:
                for seat in range(players):
                    assert [a + 1 for a in spiel.legal_actions(seat)] == ours.legal_moves(state, seat)
                joint = {seat: rng.choice(ours.legal_moves(state, seat)) for seat in range(players)}
                spiel.apply_actions([joint[seat] - 1 for seat in range(players)])
                state = ours.apply_joint(state, joint)
            assert spiel_points(spiel) == list(state.points)
        assert spiel.is_terminal()
        assert list(ours.returns(state)) == pytest.approx(spiel.returns(), abs=1e-12)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_eliminations_never_stall_the_game(players: int) -> None:
    game = GoofspielGame(players, num_cards=6)
    rng = random.Random(40 + players)
    for _ in range(100):
        state = game.initial_state()
        while not game.is_terminal(state):
            if rng.random() < 0.05:
                state = game.eliminate(state, rng.randrange(players))
            elif game.actor(state) == CHANCE:
                state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
            else:
                seats = game.acting_seats(state)
                assert seats and not set(seats) & set(state.eliminated)
                state = game.apply_joint(state, {s: rng.choice(game.legal_moves(state, s)) for s in seats})
            assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
        if len(state.eliminated) < players:
            assert max(game.returns(state)) > 0 or len(set(state.points)) == 1
