"""SPSA of the MCTS agent's settings (``"algorithm": "mcts"``), for every game arena plays.

An SPSA config (:mod:`arena.train.spsa`) whose ``agent`` is a hyperparameters file with
``"algorithm": "mcts"`` tunes that agent's numbers: ``exploration`` (a float), ``iterations`` and
``moveTimeMs`` (integers). MCTS needs no evaluation, so any registered game takes part: two-player
games, and games of the general model (N seats, chance, simultaneous moves, hidden information), set
for their default number of seats.

Games, in this process (no bot processes): each of an iteration's ``pairs`` is one rotation group
of the game's N seats, N games from the same start (``openingPlies`` random steps: moves and chance
draws) with the same seed for their chance draws, ``theta+`` at seat ``g`` of game ``g`` and
``theta-`` at every other seat (for two seats: a colour-swapped pair, its deal shared as in
``arena sprt``). At a seat's turn its agent searches ``game.determinize(observation, seat)``
samples (information-set MCTS; a game of perfect information: the state itself) for ``iterations``
playouts, or ``moveTimeMs`` at most when set. A game reaching the game's move cap ends there,
scored by its returns at that point. ``y`` is ``theta+``'s mean pairwise score against the
``theta-`` seats of its games (a better rank 1, equal ½, worse 0), mapped to -1..1: for two seats
``(wins - losses) / games``, as for the other agents.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from arena.agents.hyperparameters import check_hyperparameters
from arena.agents.mcts import Budget, Mcts
from arena.errors import ConfigError
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, draw_chance, random_step, ranks
from arena.games.registry import GENERAL, get_spec

#: The tunable keys of an MCTS agent's file, and their types.
MCTS_PARAMETERS: Mapping[str, str] = {"exploration": "float", "iterations": "int", "moveTimeMs": "int"}
#: Decimals kept of a float parameter in the agent file (``tuned.json``).
FLOAT_DECIMALS = 4


def is_mcts(agent: Any) -> bool:
    """Whether a hyperparameters object is the MCTS agent's."""
    return isinstance(agent, dict) and agent.get("algorithm") == "mcts"


def mcts_value(agent: Mapping[str, Any], key: str) -> float:
    """The file's value of tunable ``key`` (``exploration`` defaults to the agent's; the others to 0:
    a file that leaves them out must give ``start``)."""
    from arena.agents.mcts import DEFAULT_EXPLORATION

    value = agent.get(key)
    if value is None:
        return DEFAULT_EXPLORATION if key == "exploration" else 0.0
    return float(value)


def set_mcts_values(agent: Mapping[str, Any], values: Mapping[str, float]) -> dict[str, Any]:
    """A copy of the agent's object with ``values`` set (integers rounded, floats to
    :data:`FLOAT_DECIMALS` decimals)."""
    out = dict(agent)
    for key, value in values.items():
        out[key] = round(value, FLOAT_DECIMALS) if MCTS_PARAMETERS[key] == "float" else round(value)
    return out


def check_mcts_agent(agent: Mapping[str, Any], tuned: set[str]) -> None:
    """ConfigError unless every move's search stops: the file (or the tuning) sets ``iterations``
    or ``moveTimeMs``."""
    if not ({"iterations", "moveTimeMs"} & tuned) and agent.get("iterations") is None \
            and agent.get("moveTimeMs") is None:
        raise ConfigError("agent: an MCTS agent's file must set iterations or moveTimeMs (its games would "
                          "search on the clock, which SPSA's in-process games do not have)")


class _Player:
    """One seat's MCTS agent in an in-process game."""

    def __init__(self, game: GeneralGame[Any, Any], agent: Mapping[str, Any], game_name: str, seed: int,
                 max_ply: int) -> None:
        hp = check_hyperparameters(dict(agent), game_name, "SPSA probe")
        self.iterations, self.move_time_ms = hp.iterations, hp.move_time_ms
        self.mcts = Mcts(game, rng=random.Random(seed), exploration=hp.exploration, max_ply=max_ply)

    def move(self, game: GeneralGame[Any, Any], state: Any, seat: int, hidden: bool) -> Any:
        deadline = None if self.move_time_ms is None else time.perf_counter() + self.move_time_ms / 1000.0
        budget = Budget(iterations=self.iterations, deadline=deadline)
        if not hidden:
            return self.mcts.search(seat, lambda _rng: state, budget).move
        observation = game.observation(state, seat)
        return self.mcts.search(seat, lambda rng: game.determinize(observation, seat, rng), budget).move


def play_game(game: GeneralGame[Any, Any], players: list[_Player], start: Any, seed: int, max_ply: int,
              hidden: bool) -> tuple[int, ...]:
    """The ranks of one game from ``start``: ``players[s]`` at seat ``s``, chance drawn from ``seed``."""
    chance = random.Random(seed)
    state = start
    while game.actor(state) != TERMINAL and game.ply(state) < max_ply:
        actor = game.actor(state)
        if actor == CHANCE:
            state = game.apply(state, draw_chance(game.chance_outcomes(state), chance))
        elif actor == SIMULTANEOUS:
            state = game.apply_joint(state, {seat: players[seat].move(game, state, seat, hidden)
                                             for seat in game.acting_seats(state)})
        else:
            state = game.apply(state, players[actor].move(game, state, actor, hidden))
    return ranks(game.returns(state))


def play_mcts_probe(game_name: str, agent: Mapping[str, Any], plus: Mapping[str, float], minus: Mapping[str, float],
                    *, pairs: int, opening_plies: int, seed: int) -> float:
    """``y`` in -1..1 of ``plus`` against ``minus`` over ``pairs`` rotation groups (module docstring)."""
    spec = get_spec(game_name)
    game = spec.table(None, {})
    hidden = spec.model == GENERAL  # a game of seats: search from the seat's observation alone
    max_ply = spec.default_max_moves
    first, second = set_mcts_values(agent, plus), set_mcts_values(agent, minus)
    rng = random.Random(seed)
    points = comparisons = 0.0
    for _ in range(pairs):
        start = game.initial_state()
        for _ply in range(opening_plies):
            if game.actor(start) == TERMINAL:
                break
            start = random_step(game, start, rng)
        group_seed = rng.getrandbits(63)
        for hero in range(game.players):
            players = [_Player(game, first if seat == hero else second, game_name, group_seed + 1 + seat, max_ply)
                       for seat in range(game.players)]
            placed = play_game(game, players, start, group_seed, max_ply, hidden)
            for seat in range(game.players):
                if seat != hero:
                    points += 1.0 if placed[hero] < placed[seat] else 0.5 if placed[hero] == placed[seat] else 0.0
                    comparisons += 1
    return 2.0 * points / comparisons - 1.0


__all__ = ["MCTS_PARAMETERS", "check_mcts_agent", "is_mcts", "mcts_value", "play_mcts_probe", "set_mcts_values"]
