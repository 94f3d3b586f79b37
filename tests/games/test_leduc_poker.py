"""Leduc poker (arena.games.leduc_poker.rules): OpenSpiel's rules, hidden cards, elimination, the wire and
state forms, the SVG, the bots; and, where open_spiel is installed, perft, the two-player tree and
random playouts compared step by step with pyspiel's ``leduc_poker``."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError, StateError
from arena.games.leduc_poker.rules import SPEC, LeducPoker, LeducState, hand_strength
from arena.games.leduc_poker.svg import board_svg
from arena.games.model import CHANCE, TERMINAL, check_chance, draw_chance
from tests.helpers import perft_profile, spiel_perft_profile

BOTS = Path(__file__).resolve().parents[2] / "bots"

#: OpenSpiel 2.0.2's leaf counts of ``leduc_poker`` at depths 1, 2, ... (a chance outcome and a
#: seat's action are one step each; a hand that ended before a depth counts nothing there, chess's
#: convention): the whole tree for 2 players, the first depths for 3 and 4
#: (the pyspiel tests below recompute them; deeper figures are in the issue's notes).
REFERENCE_PERFT = {
    2: [6, 30, 60, 150, 390, 780, 1800, 2640, 2280, 1080, 240, 0],
    3: [8, 56, 336, 672, 1680, 4368, 13104, 31920],
    4: [10, 90, 720, 5040, 10080, 25200],
}
ACTION_IDS = {"fold": 0, "call": 1, "raise": 2}


def play(game: LeducPoker, cards: list[int], moves: list[Any]) -> LeducState:
    """Deal ``cards`` (the private ones), then play ``moves`` (actions, and an int: the public card)."""
    state = game.initial_state()
    for card in cards:
        assert game.actor(state) == CHANCE
        state = game.apply(state, card)
    for move in moves:
        who = game.actor(state)
        if who == CHANCE:
            assert isinstance(move, int)
        else:
            assert move in game.legal_moves(state, who), (move, game.legal_moves(state, who))
        state = game.apply(state, move)
    return state


def random_states(game: LeducPoker, count: int, seed: int) -> list[LeducState]:
    rng = random.Random(seed)
    found: list[LeducState] = []
    while len(found) < count:
        state = game.initial_state()
        found.append(state)
        while not game.is_terminal(state):
            who = game.actor(state)
            move = (draw_chance(game.chance_outcomes(state), rng) if who == CHANCE
                    else rng.choice(game.legal_moves(state, who)))
            state = game.apply(state, move)
            found.append(state)
    return found[:count]


# --- the rules --------------------------------------------------------------------------------------


def test_players_and_starting_player() -> None:
    game = LeducPoker()
    assert game.players == 2 and game.identity() == {"name": "leduc_poker", "players": 2,
                                                     "params": {"starting_player": 0}}
    assert LeducPoker(10).deck_size == 22
    with pytest.raises(GameError, match="players must be 2 to 10"):
        LeducPoker(11)
    with pytest.raises(GameError, match="starting_player must be below players"):
        LeducPoker(3, starting_player=3)
    later = play(LeducPoker(3, starting_player=2), [0, 2, 4], [])
    assert LeducPoker(3, starting_player=2).actor(later) == 2


def test_the_deal_then_round_one() -> None:
    game = LeducPoker(2)
    state = game.initial_state()
    for left in (6, 5):
        outcomes = game.chance_outcomes(state)
        check_chance(outcomes)
        assert len(outcomes) == left and {p for _, p in outcomes} == {Fraction(1, left)}
        state = game.apply(state, outcomes[0][0])
    assert state.cards == (0, 1) and game.actor(state) == 0
    assert game.legal_moves(state, 0) == ["call", "raise"] and game.legal_moves(state, 1) == []
    with pytest.raises(IllegalMoveError):
        game.apply(state, "fold")  # nothing to match
    with pytest.raises(GameError, match="not a chance node"):
        game.chance_outcomes(state)


def test_raises_of_2_then_4_and_at_most_two_a_round() -> None:
    game = LeducPoker(2)
    state = play(game, [4, 0], ["raise", "raise"])
    assert state.info.contributions == (3, 5) and state.info.stakes == 5
    assert game.legal_moves(state, 0) == ["fold", "call"]  # two raises made
    state = game.apply(state, "call")
    assert game.actor(state) == CHANCE and [c for c, _ in game.chance_outcomes(state)] == [1, 2, 3, 5]
    state = play(game, [4, 0], ["raise", "raise", "call", 2, "raise"])
    assert state.info.contributions == (9, 5) and game.actor(state) == 1
    state = play(game, [4, 0], ["raise", "raise", "call", 2, "raise", "raise", "call"])
    assert game.is_terminal(state) and state.info.contributions == (13, 13)
    assert game.returns(state) == (13, -13)  # K beats J


@pytest.mark.parametrize(("cards", "moves", "returns"), [
    ([4, 0], ["raise", "fold"], (1, -1)),
    ([4, 0], ["call", "raise", "fold"], (-1, 1)),
    ([2, 4], ["call", "call", 3, "call", "call"], (1, -1)),  # a pair of Q beats K high
    ([0, 2], ["call", "call", 5, "call", "call"], (-1, 1)),  # K-Q beats K-J
    ([0, 1], ["call", "call", 4, "call", "raise", "call"], (0, 0)),  # J against J: split pot
])
def test_two_player_hands(cards: list[int], moves: list[Any], returns: tuple[float, ...]) -> None:
    game = LeducPoker(2)
    state = play(game, cards, moves)
    assert game.is_terminal(state) and game.returns(state) == returns


def test_a_split_pot_may_be_a_fraction() -> None:
    game = LeducPoker(3)
    state = play(game, [0, 1, 2], ["raise", "call", "fold", 7, "call", "call"])
    assert game.winners(state) == [0, 1] and game.returns(state) == (0.5, 0.5, -1)
    four = LeducPoker(4)
    state = play(four, [0, 1, 3, 2], ["call"] * 4 + [9] + ["raise", "fold", "call", "call"])  # 4-0, 4-0, 4-1, 4-1
    assert four.winners(state) == [2, 3] and four.returns(state) == (-5, -1, 3, 3)


def test_hand_strength_ignores_suits() -> None:
    assert hand_strength(0, 4) == hand_strength(1, 5) == (0, 2, 0)
    assert hand_strength(0, 1) == (1, 0) > hand_strength(4, 2)


def test_three_players_go_round_and_the_round_ends_after_the_last_answer() -> None:
    game = LeducPoker(3)
    state = play(game, [0, 2, 4], ["call", "raise", "call"])
    assert game.actor(state) == 0 and game.legal_moves(state, 0) == ["fold", "call", "raise"]
    state = game.apply(state, "fold")
    assert game.actor(state) == CHANCE
    state = game.apply(state, 5)
    assert game.actor(state) == 1  # round 2 starts with the first seat still in
    assert game.legal_moves(state, 1) == ["call", "raise"]


@pytest.mark.parametrize("players", sorted(REFERENCE_PERFT))
def test_perft_matches_openspiel(players: int) -> None:
    game = LeducPoker(players)
    expected = REFERENCE_PERFT[players]
    assert perft_profile(game.initial_state(), len(expected), game.children, game.is_terminal) == expected
    assert game.perft(game.initial_state(), 5) == expected[4]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_returns_are_zero_sum_and_states_round_trip(players: int) -> None:
    game = LeducPoker(players, starting_player=players - 1)
    for state in random_states(game, 400, seed=players):
        returns = game.returns(state)
        assert abs(sum(returns)) < 1e-9
        if not game.is_terminal(state):
            assert returns == (0.0,) * players
        obj = game.state_to_json(state)
        assert json.loads(json.dumps(obj)) == obj and game.state_from_json(obj) == state


# --- what a seat sees ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_observation_shows_another_seats_card(players: int) -> None:
    game = LeducPoker(players)
    checked = 0
    for state in random_states(game, 200, seed=20 + players):
        spare = [c for c in range(game.deck_size) if c not in state.cards and c != state.public]
        for seat in range(players):
            seen = json.dumps(game.observation(state, seat), sort_keys=True)
            for other in range(len(state.cards)):
                if other == seat:
                    continue
                for card in spare:
                    cards = list(state.cards)
                    cards[other] = card
                    changed = LeducState(players, 0, tuple(cards), state.public, state.rounds)
                    assert json.dumps(game.observation(changed, seat), sort_keys=True) == seen
                    checked += 1
    assert checked > 1000


def test_the_observation_holds_what_a_bot_needs() -> None:
    game = LeducPoker(2)
    state = play(game, [4, 0], ["raise"])
    assert game.observation(state, 1) == {
        "players": 2, "seat": 1, "card": 0, "public": None, "ranks": 3, "round": 1, "rounds": [[[0, "raise"]]],
        "contributions": [3, 1], "pot": 4, "stakes": 3, "raises": 1, "toAct": 1, "folded": [], "out": [],
        "over": False,
    }
    state = play(game, [4, 0], ["raise", "call", 2])
    seen = game.observation(state, 0)
    assert seen["public"] == 2 and seen["round"] == 2 and seen["raises"] == 0 and seen["rounds"][1] == []


# --- elimination ------------------------------------------------------------------------------------


def test_an_eliminated_seat_folds_even_out_of_turn() -> None:
    game = LeducPoker(3)
    state = play(game, [0, 2, 4], ["raise", "call"])
    out = game.eliminate(state, 1)  # seat 1 called, then faults while seat 2 is to act
    assert out is not None and game.actor(out) == 2 and out.info.folded == {1}
    end = play_on(game, out, ["call", 5, "call", "call"])
    assert game.is_terminal(end) and game.returns(end) == (-3, -3, 6)  # K beats J; seat 1's 3 chips stay
    assert game.observation(end, 0)["out"] == [1]
    assert game.state_from_json(game.state_to_json(end)) == end


def test_eliminating_the_seat_to_act_passes_the_turn_and_may_end_the_round() -> None:
    game = LeducPoker(4)
    state = game.eliminate(play(game, [0, 2, 4, 6], ["call", "call"]), 2)  # nothing to match: a fold all the same
    assert state is not None and game.actor(state) == 3
    state = play_on(game, state, ["call"])
    assert game.actor(state) == CHANCE  # seat 2 counts as having acted: round 1 is over
    state = play_on(game, state, [9])
    assert game.actor(state) == 0
    state = game.eliminate(state, 0)
    assert state is not None and game.actor(state) == 1
    end = play_on(game, state, ["call", "call"])
    assert game.is_terminal(end) and game.returns(end) == (-1, -1, -1, 3)  # seat 3's rank 3 beats rank 1


def test_elimination_leaving_one_seat_ends_the_hand() -> None:
    game = LeducPoker(2)
    state = game.eliminate(play(game, [0], []), 0)  # during the deal
    assert state is not None and game.is_terminal(state) and game.returns(state) == (-1, 1)
    assert game.eliminate(state, 1) is None
    raised = play(game, [0, 2], ["raise", "fold"])
    assert game.eliminate(raised, 0) is None
    folded = play(LeducPoker(3), [0, 2, 4], ["raise", "fold"])
    assert LeducPoker(3).eliminate(folded, 1) is folded  # already out of the hand


def play_on(game: LeducPoker, state: LeducState, moves: list[Any]) -> LeducState:
    for move in moves:
        state = game.apply(state, move)
    return state


# --- wire, record and state forms --------------------------------------------------------------------


def test_moves_on_the_wire_are_fold_call_and_raise() -> None:
    game = LeducPoker()
    assert [game.parse_move(m) for m in ("fold", "call", "raise")] == ["fold", "call", "raise"]
    for bad in ("Call", 1, None, "check", "bet"):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(bad)
    assert game.move_from_record(5) == 5 and game.move_from_record("raise") == "raise"
    assert game.describe_move(5) == "deal Kh" and game.describe_move(0) == "deal Js" and game.describe_move("fold") == "fold"
    state = play(game, [4, 0], [])
    with pytest.raises(IllegalMoveError):
        game.validate_move(state, 0, "fold")
    with pytest.raises(IllegalMoveError):
        game.apply(game.initial_state(), 6)


def start(players: int = 2, **changes: Any) -> dict[str, Any]:
    return {"players": players, "startingPlayer": 0, "cards": [0, 1], "public": None, "rounds": [[]], **changes}


@pytest.mark.parametrize(("obj", "message"), [
    ([], "must be an object"),
    ({"players": 2, "cards": [], "public": None, "rounds": [[]]}, "startingPlayer"),
    (start(3), "players must be 2"),
    (start(startingPlayer=1), "startingPlayer must be 0"),
    (start(cards=[0, 0]), "distinct"),
    (start(cards=[0, 6]), "distinct integers from 0 to 5"),
    (start(public=1), "distinct"),
    (start(cards=[0], public=2, rounds=[[], []]), "before every private card"),
    (start(public=2), "rounds must hold 2"),
    (start(rounds="x"), "rounds must be a list of lists"),
    (start(rounds=[[[1, "call"]]]), "seat 1 acts but seat 0 is to act"),
    (start(rounds=[[[0, "fold"]]]), "folds with nothing to call"),
    (start(rounds=[[[0, "raise"], [1, "raise"], [0, "raise"]]]), "a third raise in round 1"),
    (start(rounds=[[[0, "call"], [1, "call"], [0, "call"]]]), "round 1 is already over"),
    (start(rounds=[[[0, "bet"]]]), 'must be "fold", "call", "raise" or "out"'),
    (start(rounds=[[[0, "raise"], [1, "fold"], [0, "out"]]]), "already over"),
    (start(rounds=[[[0]]]), r"rounds\[0\]\[0\] must be \[seat, action\]"),
    (start(public=2, rounds=[[[0, "call"]], []]), "before round 1 is over"),
    (start(cards=[0], rounds=[[[0, "call"]]]), "before every card is dealt"),
])
def test_bad_states_are_refused_with_a_precise_message(obj: Any, message: str) -> None:
    with pytest.raises(StateError, match=message):
        LeducPoker(2).state_from_json(obj)


def test_bad_states_with_three_players() -> None:
    game = LeducPoker(3)
    for rounds, message in (([[[1, "out"], [1, "out"]]], "already out"),
                            ([[[0, "raise"], [1, "fold"], [1, "out"]]], "already folded"),
                            ([[[9, "out"]]], "seat must be an integer from 0 to 2")):
        with pytest.raises(StateError, match=message):
            game.state_from_json(start(3, cards=[0, 1, 2], rounds=rounds))


def test_board_text_and_svg_hide_other_cards_from_a_seat() -> None:
    game = LeducPoker(2)
    state = play(game, [4, 1], ["raise", "call", 2, "call", "call"])
    assert "card  Ks" in game.board_text(state) and "card  Jh" in game.board_text(state)
    assert "Jh" not in game.board_text(state, 0) and "card   ?" in game.board_text(state, 0)
    assert "returns: +3 -3" in game.board_text(state)
    full, mine = board_svg(game.state_to_json(state)), board_svg(game.state_to_json(state), 1)
    assert full.startswith("<svg") and full.endswith("</svg>")
    assert re.findall(r">([JQK][sh]|\?)</text>", full) == ["Qs", "Ks", "Jh"]
    assert re.findall(r">([JQK][sh]|\?)</text>", mine) == ["Qs", "?", "Jh"]
    five = LeducPoker(5, starting_player=3)
    assert "as P2 sees it" in board_svg(five.state_to_json(play(five, [11, 10], [])), 2)


def test_spec_fields_name_the_rules_and_the_svg() -> None:
    assert SPEC.name == LeducPoker.name
    assert SPEC.rules == "arena.games.leduc_poker.rules:LeducPoker"
    assert SPEC.svg == "arena.games.leduc_poker.svg:board_svg"


# --- the bots ----------------------------------------------------------------------------------------


def load_bot(file_name: str) -> ModuleType:
    path = BOTS / file_name
    loader = importlib.machinery.SourceFileLoader("bot_" + path.stem, str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def message_for(game: LeducPoker, state: LeducState, seat: int, legal_moves: bool) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "game_state", "payload": game.observation(state, seat), "timeLeftMs": 1000,
                               "seat": seat, "players": game.players, "simultaneous": False}
    if legal_moves:
        message["legalMoves"] = [game.move_to_wire(m) for m in game.legal_moves(state, seat)]
    return json.loads(json.dumps(message))


def test_the_bots_work_out_exactly_the_legal_moves() -> None:
    random_bot, heuristic = load_bot("leduc_poker_random.py"), load_bot("leduc_poker_heuristic.py")
    for players in (2, 3, 4):
        game = LeducPoker(players)
        for state in random_states(game, 300, seed=players):
            seat = game.actor(state)
            if seat >= 0:
                message = message_for(game, state, seat, legal_moves=False)
                assert random_bot.legal_moves(message) == heuristic.legal_moves(message) == game.legal_moves(state, seat)
                assert heuristic.choose(message) in game.legal_moves(state, seat)


@pytest.mark.parametrize("players", [2, 3])
def test_the_heuristic_bot_beats_random_bots(players: int) -> None:
    heuristic, random_bot = load_bot("leduc_poker_heuristic.py"), load_bot("leduc_poker_random.py")
    game, rng, bot_rng = LeducPoker(players), random.Random(players), random.Random(200 + players)
    total, games = 0.0, 1000
    for number in range(games):
        mine = number % players  # the heuristic bot takes every seat in turn
        state = game.initial_state()
        while not game.is_terminal(state):
            seat = game.actor(state)
            if seat == CHANCE:
                state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
                continue
            message = message_for(game, state, seat, legal_moves=number % 2 == 0)
            wire = heuristic.choose(message) if seat == mine else random_bot.choose(message, bot_rng)
            state = game.apply(state, game.validate_move(state, seat, game.parse_move(wire)))
        total += game.returns(state)[mine]
    print(f"leduc_poker heuristic vs random, {players} players: {total / games:+.3f} a hand over {games} hands")
    # Measured: +0.829 a hand with 2 players, +1.315 with 3.
    assert total / games > 0.4


def test_the_bots_speak_the_protocol_as_processes() -> None:
    game = LeducPoker(2)
    message = message_for(game, play(game, [4, 0], ["raise"]), 1, legal_moves=False)
    for name in ("leduc_poker_random.py", "leduc_poker_heuristic.py"):
        text = (BOTS / name).read_text()
        assert "import arena" not in text and "from arena" not in text
        done = subprocess.run([sys.executable, str(BOTS / name)], input="junk\n\n" + json.dumps(message) + "\n",
                              capture_output=True, text=True, timeout=20, check=True)
        reply = json.loads(done.stdout)
        assert reply["type"] == "turn" and reply["payload"] in ("fold", "call", "raise")
    assert load_bot("leduc_poker_heuristic.py").choose(message) == "fold"  # J facing a raise


# --- against OpenSpiel ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "depth"), [(2, 13), (3, 9), (4, 7)])
def test_perft_equals_pyspiel(players: int, depth: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    reference = pyspiel.load_game("leduc_poker", {"players": players})
    game = LeducPoker(players)
    ours = perft_profile(game.initial_state(), depth, game.children, game.is_terminal)
    theirs = spiel_perft_profile(reference.new_initial_state(), depth)
    assert ours == theirs
    assert ours[: len(REFERENCE_PERFT[players])] == REFERENCE_PERFT[players]


def same_node(game: LeducPoker, ours: LeducState, theirs: Any) -> None:
    """Who acts, the legal moves (OpenSpiel's ids), the chance probabilities and the returns agree."""
    who = game.actor(ours)
    assert who == theirs.current_player()
    if who == CHANCE:
        assert [(card, float(p)) for card, p in game.chance_outcomes(ours)] == theirs.chance_outcomes()
    elif who >= 0:
        assert [ACTION_IDS[m] for m in game.legal_moves(ours, who)] == theirs.legal_actions()
    assert game.returns(ours) == pytest.approx(theirs.returns(), abs=1e-9)


def test_the_whole_two_player_tree_agrees_with_pyspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    reference = pyspiel.load_game("leduc_poker")
    game = LeducPoker()
    stack = [(game.initial_state(), reference.new_initial_state())]
    terminals = 0
    while stack:
        ours, theirs = stack.pop()
        same_node(game, ours, theirs)
        who = game.actor(ours)
        terminals += who == TERMINAL
        moves = ([c for c, _ in game.chance_outcomes(ours)] if who == CHANCE
                 else game.legal_moves(ours, who) if who >= 0 else [])
        for move in moves:
            stack.append((game.apply(ours, move), theirs.child(move if isinstance(move, int) else ACTION_IDS[move])))
    assert terminals == 5520  # OpenSpiel's count of the two-player game's complete hands


@pytest.mark.parametrize(("players", "starting_player"), [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (5, 0), (10, 7)])
def test_random_playouts_agree_with_pyspiel_step_by_step(players: int, starting_player: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    reference = pyspiel.load_game("leduc_poker", {"players": players, "starting_player": starting_player})
    game, rng = LeducPoker(players, starting_player=starting_player), random.Random(players * 10 + starting_player)
    for _ in range(250):
        ours, theirs = game.initial_state(), reference.new_initial_state()
        while True:
            same_node(game, ours, theirs)
            if game.is_terminal(ours):
                assert theirs.is_terminal()
                break
            who = game.actor(ours)
            move = (draw_chance(game.chance_outcomes(ours), rng) if who == CHANCE
                    else rng.choice(game.legal_moves(ours, who)))
            ours = game.apply(ours, move)
            theirs.apply_action(move if isinstance(move, int) else ACTION_IDS[move])
