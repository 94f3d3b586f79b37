"""The config loaders agree (issue 19, finding 3): one set of field readers
(:mod:`arena.fileio.fields`), so the same value is accepted or refused alike by a tournament config,
an SPSA config's command agent, a hyperparameters file and evolve's settings, with one message
format and the bounds of :mod:`arena.limits`.

Each test was written first against the loaders as they were, and failed there (see the issue)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from arena.agents.hyperparameters import check_hyperparameters
from arena.errors import ConfigError
from arena.limits import MAX_ENV_VALUE, MAX_ENV_VARS
from arena.tournament.config import load_config
from arena.train.evolve import EvolveSettings
from arena.train.spsa import load_spsa_config


def _bot(folder: Path) -> None:
    bot = folder / "bot.py"
    bot.write_text("print('hi')\n")
    bot.chmod(bot.stat().st_mode | stat.S_IXUSR)


def _tournament(folder: Path, **changes: Any) -> Path:
    _bot(folder)
    obj: dict[str, Any] = {"id": "t", "game": "connect4", "agents": [
        {"id": "a", "path": "python3 bot.py"}, {"id": "b", "path": "python3 bot.py", "env": changes.pop("env", {})}]}
    obj.update(changes)
    path = folder / "t.json"
    path.write_text(json.dumps(obj))
    return path


def _spsa(folder: Path, **changes: Any) -> Path:
    _bot(folder)
    obj: dict[str, Any] = {"game": "connect4", "agent": {"command": "python3 bot.py --x {x}", "env": changes.pop("env", {})},
                           "parameters": {"x": {"start": 1, "min": 0, "max": 3, "c": 1}}}
    obj.update(changes)
    path = folder / "spsa.json"
    path.write_text(json.dumps(obj))
    return path


def test_an_integral_float_is_an_integer_in_every_loader(tmp_path: Path) -> None:
    assert load_config(_tournament(tmp_path, timeLimit=2000.0)).time_limit_ms == 2000
    command = load_spsa_config(_spsa(tmp_path, timeLimit=2000.0, maxMoves=40.0)).command
    assert command is not None and command.time_control.time_limit_ms == 2000 and command.max_moves == 40
    assert type(command.time_control.time_limit_ms) is int
    hp = check_hyperparameters({"maxDepth": 3.0, "moveTimeMs": 500.0, "evaluation": {"three": 7.0}}, "connect4")
    assert (hp.max_depth, hp.move_time_ms, hp.evaluation["three"]) == (3, 500, 7)
    assert type(hp.max_depth) is int


@pytest.mark.parametrize("value", [2000.5, True, "2000", 0])
def test_a_bad_time_limit_is_one_message_everywhere(tmp_path: Path, value: object) -> None:
    with pytest.raises(ConfigError) as tournament:
        load_config(_tournament(tmp_path, timeLimit=value))
    with pytest.raises(ConfigError) as spsa:
        load_spsa_config(_spsa(tmp_path, timeLimit=value))
    assert str(tournament.value).startswith("timeLimit: must be a positive integer, got ")
    assert str(spsa.value).endswith(": " + str(tournament.value))


@pytest.mark.parametrize(("env", "problem"), [
    ({f"V{i}": "1" for i in range(MAX_ENV_VARS + 1)}, f"at most {MAX_ENV_VARS} variables allowed"),
    ({"BIG": "x" * (MAX_ENV_VALUE + 1)}, f"at most {MAX_ENV_VALUE} characters allowed"),
    ({"1X": "1"}, "not a valid environment variable name"),
    ({"X": 5}, "must be a string, got 5"),
])
def test_env_is_capped_and_checked_alike(tmp_path: Path, env: dict[str, Any], problem: str) -> None:
    with pytest.raises(ConfigError, match=problem) as tournament:
        load_config(_tournament(tmp_path, env=env))
    with pytest.raises(ConfigError, match=problem) as spsa:
        load_spsa_config(_spsa(tmp_path, env=env))
    assert str(tournament.value).startswith("agents[1].env")
    assert "agent.env" in str(spsa.value)


def test_an_unknown_key_is_one_message_everywhere(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"^colour: unknown key \(known keys: "):
        load_config(_tournament(tmp_path, colour=1))
    with pytest.raises(ConfigError, match=r": colour: unknown key \(known keys: "):
        load_spsa_config(_spsa(tmp_path, colour=1))
    with pytest.raises(ConfigError, match=r"^hyperparameters: colour: unknown key \(known keys: "):
        check_hyperparameters({"colour": 1}, "connect4")


def test_evolve_settings_name_their_keys_not_cli_flags() -> None:
    with pytest.raises(ConfigError, match=r"^evolve settings: population: at most 256 allowed, got 300$"):
        EvolveSettings(game="connect4", population=300).check()
    with pytest.raises(ConfigError, match=r"^evolve settings: time_limit_ms: must be a positive integer, got 0$"):
        EvolveSettings(game="connect4", time_limit_ms=0).check()
