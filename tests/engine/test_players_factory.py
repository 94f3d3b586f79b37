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
