"""The league's choice of its next game (arena/tournament/league_schedule.py): pure, no games."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from arena.tournament.league_schedule import FieldState, Rating, choose_game, pair_key


class Sim:
    """A league played on paper: every chosen game is counted at once."""

    def __init__(self, agents: list[str], seats: int = 2) -> None:
        self.agents = list(agents)
        self.seats = seats
        self.games = dict.fromkeys(agents, 0)
        self.met: dict[tuple[str, str], int] = {}
        self.blacks: dict[tuple[str, ...], int] = {}
        self.groups: Counter[tuple[str, ...]] = Counter()
        self.ratings: dict[str, Rating] = {}

    def state(self) -> FieldState:
        return FieldState(self.agents, self.games, self.met, self.blacks, self.ratings,
                          None if self.seats == 2 else self.groups)

    def play(self, bound: int, rounds: int | None = None) -> tuple[str, ...] | None:
        pick = choose_game(self.state(), bound, rounds, seats=self.seats)
        if pick is not None:
            assert len(set(pick)) == self.seats
            for agent in pick:
                self.games[agent] += 1
            for a, b in itertools.combinations(pick, 2):
                self.met[pair_key(a, b)] = self.met.get(pair_key(a, b), 0) + 1
            self.blacks[pick] = self.blacks.get(pick, 0) + 1
            self.groups[tuple(sorted(pick))] += 1
        return pick

    def join(self, agent: str) -> None:
        self.agents.append(agent)
        self.games[agent] = 0


@pytest.mark.parametrize("trial", range(40))
def test_counts_stay_within_the_bound_from_a_field_that_starts_together(trial: int) -> None:
    rng = random.Random(trial)
    sim = Sim([f"a{i}" for i in range(rng.randint(2, 9))])
    bound = rng.randint(1, 4)
    sim.ratings = {a: Rating(rng.uniform(-300, 300), rng.uniform(5, 200)) for a in sim.agents if rng.random() < 0.7}
    for _ in range(150):
        assert sim.play(bound) is not None
        assert max(sim.games.values()) - min(sim.games.values()) <= bound


def test_a_late_agent_plays_first_until_it_catches_up_and_the_others_stay_together() -> None:
    sim = Sim(["a", "b", "c", "d"])
    for _ in range(40):
        sim.play(2)
    sim.join("new")
    settled = {a: n for a, n in sim.games.items() if a != "new"}
    assert max(settled.values()) - min(settled.values()) <= 2
    plays = 0
    while min(sim.games.values()) < max(sim.games.values()) - 2:
        black, white = sim.play(2) or ("", "")
        assert "new" in (black, white)  # every game until it has caught up
        others = [n for a, n in sim.games.items() if a != "new"]
        assert max(others) - min(others) <= 2
        plays += 1
    assert plays >= 10
    for _ in range(60):
        sim.play(2)
        assert max(sim.games.values()) - min(sim.games.values()) <= 2


def test_the_pair_whose_result_is_least_certain_is_chosen() -> None:
    sim = Sim(["a", "b", "c"])
    # a is first (fewest games); b is far weaker than a and well known, c as strong and unknown.
    sim.games = {"a": 0, "b": 1, "c": 1}
    sim.ratings = {"a": Rating(0, 30), "b": Rating(-800, 30), "c": Rating(10, 150)}
    assert set(choose_game(sim.state(), 2) or ()) == {"a", "c"}
    sim.ratings["c"] = Rating(900, 30)  # now a against b is the closer call
    assert set(choose_game(sim.state(), 2) or ()) == {"a", "b"}


def test_new_and_uncertain_agents_play_first_and_pairs_alternate_colours() -> None:
    sim = Sim(["a", "b", "c"])
    sim.ratings = {"a": Rating(0, 20), "b": Rating(0, 300), "c": Rating(0, 50)}
    black, _ = choose_game(sim.state(), 2) or ("", "")
    assert black == "b"  # every count equal: the widest interval first
    sim.blacks = {("b", "a"): 1, ("b", "c"): 1}
    assert choose_game(sim.state(), 2)[1] == "b"  # type: ignore[index]


def test_rounds_stop_once_every_pair_has_met() -> None:
    sim = Sim(["a", "b", "c", "d"])
    played = 0
    while sim.play(1, rounds=2) is not None:
        played += 1
    assert played == 6 * 2
    assert set(sim.met.values()) == {2}
    assert all(sim.blacks.get((x, y), 0) == 1 for x in "abcd" for y in "abcd" if x != y)


def test_no_game_with_fewer_than_two_agents() -> None:
    assert choose_game(Sim(["a"]).state(), 2) is None
    assert choose_game(Sim([]).state(), 2) is None


@pytest.mark.parametrize("trial", range(30))
def test_tables_of_n_seats_keep_the_counts_together(trial: int) -> None:
    rng = random.Random(100 + trial)
    seats = rng.randint(3, 4)
    sim = Sim([f"a{i}" for i in range(rng.randint(seats, 9))], seats=seats)
    bound = rng.randint(1, 4)
    sim.ratings = {a: Rating(rng.uniform(-300, 300), rng.uniform(5, 200)) for a in sim.agents if rng.random() < 0.7}
    for _ in range(120):
        assert sim.play(bound) is not None
        assert max(sim.games.values()) - min(sim.games.values()) <= bound, (bound, seats)


def test_rounds_of_n_seats_play_every_group_with_every_seat_in_turn() -> None:
    sim = Sim(["a", "b", "c", "d", "e"], seats=3)
    played = 0
    while sim.play(1, rounds=3) is not None:
        played += 1
    assert played == 10 * 3  # every group of three of five agents, three games each
    assert set(sim.groups.values()) == {3}
    # each agent of a group took each seat once in that group's three games
    for group in sim.groups:
        seats = Counter((agent, seat) for seating, n in sim.blacks.items() if tuple(sorted(seating)) == group
                        for seat, agent in enumerate(seating) for _ in range(n))
        assert set(seats.values()) == {1} and len(seats) == 9
    assert max(sim.games.values()) == min(sim.games.values()) == 18


def test_no_table_with_fewer_agents_than_seats() -> None:
    assert choose_game(Sim(["a", "b"], seats=3).state(), 2, seats=3) is None
