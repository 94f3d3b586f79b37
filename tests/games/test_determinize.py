"""``GeneralGame.determinize``: every state drawn from a seat's observation gives that seat
exactly the observation it had, at many positions of random games of every game that has it;
the default for games of perfect information, and the one-line refusal of the others."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.games.base import GameError, StateError
from arena.games.model import TERMINAL, GeneralGame, random_step
from arena.games.registry import get_spec

HIDDEN = [("kuhn_poker", 2, {}), ("kuhn_poker", 4, {}), ("leduc_poker", 2, {}), ("leduc_poker", 3, {"starting_player": 1}),
          ("goofspiel", 3, {"num_cards": 5}), ("love_letter", 2, {}), ("love_letter", 4, {"tokens_to_win": 2})]


def positions(game: GeneralGame[Any, Any], rng: random.Random, games: int, cap: int = 400) -> list[Any]:
    """Every state of ``games`` random games (chance by its probabilities), with a rare fault
    (an elimination) when the game takes one."""
    seen = []
    for _ in range(games):
        state = game.initial_state()
        for _ in range(cap):
            seen.append(state)
            who = game.actor(state)
            if who == TERMINAL:
                break
            if rng.random() < 0.02:
                after = game.eliminate(state, rng.randrange(game.players))
                if after is not None:
                    state = after
                    continue
            state = random_step(game, state, rng)
    return seen


def at_a_turn(game: GeneralGame[Any, Any], state: Any) -> bool:
    """Love Letter draws only at a seat's turn; the other games from any observation."""
    return game.name != "love_letter" or (game.actor(state) >= 0)


@pytest.mark.parametrize(("name", "players", "params"), HIDDEN)
def test_every_sample_gives_the_seat_its_observation(name: str, players: int, params: dict[str, int]) -> None:
    game = get_spec(name).table(players, params)
    rng = random.Random(f"{name}{players}")
    checked = 0
    differed = 0
    for state in positions(game, rng, 40):
        if not at_a_turn(game, state):
            continue
        for seat in range(players):
            observation = game.observation(state, seat)
            for _ in range(3):
                sample = game.determinize(observation, seat, rng)
                assert game.observation(sample, seat) == observation
                # The sample is a whole, valid state: it survives the record's checks.
                assert game.state_to_json(game.state_from_json(game.state_to_json(sample))) == game.state_to_json(sample)
                differed += game.state_to_json(sample) != game.state_to_json(state)
                checked += 1
    assert checked > 500
    if name != "goofspiel":  # hides nothing that is in a state
        assert differed > 0


@pytest.mark.parametrize(("name", "players"), [("kuhn_poker", 3), ("leduc_poker", 2)])
def test_the_unseen_cards_are_drawn_from_what_the_seat_does_not_hold(name: str, players: int) -> None:
    game = get_spec(name).table(players)
    rng = random.Random(5)
    state = next(s for s in positions(game, rng, 1) if game.actor(s) >= 0)
    seat = game.actor(state)
    observation = game.observation(state, seat)
    drawn = {tuple(game.determinize(observation, seat, rng).cards) for _ in range(300)}
    deck = players + 1 if name == "kuhn_poker" else 2 * (players + 1)
    others = {card for cards in drawn for s, card in enumerate(cards) if s != seat}
    assert all(cards[seat] == observation["card"] for cards in drawn)
    assert others == set(range(deck)) - {observation["card"]}  # every unseen card turns up


def test_love_letter_keeps_a_card_the_seat_saw_with_its_priest() -> None:
    game = get_spec("love_letter").table(2)
    rng = random.Random(3)
    for state in positions(game, rng, 60):
        if game.actor(state) < 0:
            continue
        seat = game.actor(state)
        other = 1 - seat
        observation = game.observation(state, seat)
        if not observation["seen"] or observation["seen"][-1]["play"] != len(state.plays) - 1:
            continue  # only right after the look: nothing since can have moved the card
        if observation["seen"][-1]["seat"] != other or not state.hands[other]:
            continue
        for _ in range(5):
            assert game.determinize(observation, seat, rng).hands[other] == state.hands[other]
        return
    pytest.fail("no position right after a Priest or Baron look")


def test_love_letter_refuses_an_observation_between_turns() -> None:
    game = get_spec("love_letter").table(3)
    state = game.initial_state()  # dealing
    with pytest.raises(StateError, match="at a seat's turn"):
        game.determinize(game.observation(state, 0), 0, random.Random(1))


def test_a_game_of_perfect_information_rebuilds_its_state() -> None:
    game = get_spec("connect4").table()
    rng = random.Random(2)
    for state in positions(game, rng, 3):
        observation = game.observation(state, 0)
        assert game.state_to_json(game.determinize(observation, 0, rng)) == game.state_to_json(state)


def test_a_game_of_hidden_information_must_implement_it() -> None:
    class Hidden(type(get_spec("kuhn_poker").table(2))):  # type: ignore[misc]
        determinize = GeneralGame.determinize

    with pytest.raises(GameError, match="determinize is not implemented"):
        Hidden(2).determinize({}, 0, random.Random(0))
