"""make_player / agent_argv: how each agent kind becomes a process."""

from __future__ import annotations

import sys

import pytest

from arena.errors import ConfigError
from arena.games.registry import configured_game
from arena.players import agent_argv
from arena.players.spec import AgentSpec


def test_hyperparameters_agent_is_told_the_budget_and_cap() -> None:
    argv = agent_argv(AgentSpec("s", kind="hyperparameters", path="/x/h.json"), configured_game("shobu"),
                      time_limit_ms=3000, max_moves=40)
    assert argv[:3] == [sys.executable, "-m", "arena.agents.search_bot"]
    assert argv[argv.index("--game") + 1] == "shobu"
    assert argv[argv.index("--hyperparameters") + 1] == "/x/h.json"
    assert argv[argv.index("--time-limit") + 1] == "3000"
    assert argv[argv.index("--max-moves") + 1] == "40"


def test_executables_get_their_command_unchanged() -> None:
    argv = agent_argv(AgentSpec("b", command="python3 bot.py --depth 3"), configured_game("checkers"),
                      time_limit_ms=3000, max_moves=40)
    assert argv == ["python3", "bot.py", "--depth", "3"]


def test_players_are_not_processes() -> None:
    with pytest.raises(ConfigError):
        agent_argv(AgentSpec("me", kind="human"), configured_game("checkers"))


async def test_the_configured_game_chooses_the_wire_dialect_once() -> None:
    # Every layer above the rules takes a GeneralGame; the registry decides what its bots speak.
    from arena.games.model import GeneralGame
    from arena.games.registry import get_table_game
    from arena.match.clock import TimeControl
    from arena.match.progress import ColourProgress, SeatProgress, progress_for

    own, envelope, kuhn = configured_game("connect4"), configured_game("connect4", 2), configured_game("kuhn_poker")
    assert all(isinstance(g, GeneralGame) for g in (own, envelope, kuhn))
    assert (own.seat_envelope, envelope.seat_envelope, kuhn.seat_envelope) == (False, True, True)
    assert get_table_game("connect4").seat_envelope and own.seat_names == envelope.seat_names == ("BLACK", "WHITE")
    agents = [AgentSpec("a", command="x"), AgentSpec("b", command="y")]

    def progress(game: GeneralGame) -> object:
        return progress_for(game, agents, time_control=TimeControl(), max_moves=None, start_state=None,
                            opening_plies=0, seed=1, game_index=None, observer=None, legal_moves_for=())

    assert type(progress(own)) is ColourProgress
    assert type(progress(envelope)) is SeatProgress and type(progress(kuhn)) is SeatProgress
    # arena's search bot is told the seats of a game that is not of the colour dialect only
    spec = AgentSpec("m", "hyperparameters", path="m.json")
    assert "--players" not in agent_argv(spec, own) and "--players" in agent_argv(spec, kuhn)
