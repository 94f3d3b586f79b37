"""``arena/schemas/tournament.schema.json`` says what :func:`arena.tournament.config.load_config`
accepts: every shipped config validates against it, and configs the loader refuses are refused by
the schema too where a schema can say why (what it cannot: files that must exist, unique ids,
``openingPlies`` below ``maxMoves``, a registered game, ``elo0`` below ``elo1``)."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # the test extra; no stubs installed
import pytest

from arena.errors import ConfigError
from arena.tournament.config import load_config

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "arena" / "schemas" / "tournament.schema.json"
VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _tournament_configs() -> list[Path]:
    found = []
    for folder in ("configs", "examples", "tests/data"):
        for path in sorted((ROOT / folder).rglob("*.json")):
            try:
                obj = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                continue
            if isinstance(obj, dict) and "agents" in obj and "parameters" not in obj:
                found.append(path)
    return found


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", _tournament_configs(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_config_validates(path: Path) -> None:
    errors = [error.message for error in VALIDATOR.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
    assert errors == []


def test_the_shipped_configs_are_found() -> None:
    names = {str(p.relative_to(ROOT)) for p in _tournament_configs()}
    assert {"configs/checkers_round_robin.json", "examples/checkers-system-tournament.json",
            "tests/data/checkers_system/default_tournament.json"} <= names


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    bot = tmp_path / "bot.py"
    bot.write_text("print('hi')\n")
    bot.chmod(bot.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "hyp.json").write_text("{}\n")
    return tmp_path


def _config(**changes: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": "t", "game": "connect4", "agents": [{"id": "a", "path": "python3 bot.py"},
                                                                     {"id": "b", "path": "python3 bot.py"}]}
    obj.update(changes)
    return {k: v for k, v in obj.items() if v != "DROP"}


def _agents(*extra: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"id": "a", "path": "python3 bot.py"}, *extra]


def _load(folder: Path, obj: dict[str, Any]) -> None:
    path = folder / "t.json"
    path.write_text(json.dumps(obj))
    load_config(path)


VALID = [
    {},
    {"timeLimit": 2000.0, "maxMoves": 40, "gamesPerPair": 4, "seed": 0, "concurrency": 3},
    {"timeLimit": None, "visualize": None, "sandbox": None, "tournamentType": None},
    {"tournamentType": "randomMatches", "matches": 5},
    {"tournamentType": "gauntlet", "timeMargin": 0, "startupTime": 0, "moveTimeLimit": 100, "increment": 10},
    {"openingPlies": 2, "openingsOrder": "sequential", "ponder": True, "inheritEnv": False, "memoryMb": 0},
    {"agents": _agents({"id": "h", "type": "hyperparameters", "path": "hyp.json"}, {"id": "me", "type": "player"})},
    {"agents": _agents({"id": "b", "path": "python3 bot.py", "env": {"DEPTH": "4", "_X": ""}})},
    {"sprt": {"elo0": 0, "elo1": 10, "alpha": 0.1, "model": "logistic", "maxPairs": 100}},
    {"sprt": {}, "openingPlies": 0, "backend": "local", "rayCpusPerGame": 0.5, "raySharedFiles": True},
]


@pytest.mark.parametrize("changes", VALID)
def test_valid_configs_load_and_validate(folder: Path, changes: dict[str, Any]) -> None:
    obj = _config(**changes)
    _load(folder, obj)
    assert [error.message for error in VALIDATOR.iter_errors(obj)] == []


INVALID = [
    {"colour": "red"},
    {"id": "DROP"},
    {"id": "../x"},
    {"id": 5},
    {"agents": "DROP"},
    {"agents": _agents()},
    {"agents": {}},
    {"agents": _agents({"id": "b"})},
    {"agents": _agents({"id": "b", "path": " "})},
    {"agents": _agents({"id": "b", "path": 3})},
    {"agents": _agents({"id": "b", "type": "robot", "path": "python3 bot.py"})},
    {"agents": _agents({"id": "b", "path": "python3 bot.py", "flavour": 1})},
    {"agents": _agents({"id": "Config", "path": "python3 bot.py"})},
    {"agents": _agents({"id": "b", "path": "python3 bot.py", "env": {"1X": "1"}})},
    {"agents": _agents({"id": "b", "path": "python3 bot.py", "env": {"X": 1}})},
    {"agents": _agents({"id": "b", "path": "python3 bot.py", "env": {"X": "x" * 40_000}})},
    {"agents": _agents({"id": "b", "path": "python3 bot.py", "env": {f"V{i}": "" for i in range(257)}})},
    {"tournamentType": "swiss"},
    {"timeLimit": 0},
    {"timeLimit": 12.5},
    {"timeLimit": "fast"},
    {"timeLimit": True},
    {"timeLimit": 10**12},
    {"maxMoves": 100_001},
    {"timeMargin": -1},
    {"moveTimeLimit": 0},
    {"gamesPerPair": 0},
    {"seed": -1},
    {"seed": 2**63},
    {"concurrency": 0},
    {"openingPlies": -2},
    {"memoryMb": 1 << 21},
    {"visualize": "no"},
    {"ponder": 1},
    {"openingsOrder": "shuffled"},
    {"tournamentType": "randomMatches", "gamesPerPair": 2},
    {"matches": 3},
    {"openings": "book.jsonl", "openingPlies": 2},
    {"sprt": 5},
    {"sprt": {"elo2": 1}},
    {"sprt": {"alpha": 1}},
    {"sprt": {"beta": "0.05"}},
    {"sprt": {"model": "bayes"}},
    {"sprt": {"maxPairs": 0}},
    {"sprt": {}, "gamesPerPair": 4},
    {"sprt": {}, "agents": _agents({"id": "b", "path": "python3 bot.py"}, {"id": "c", "path": "python3 bot.py"})},
    {"sprt": {}, "agents": _agents({"id": "me", "type": "player"})},
    {"backend": "Spark!"},  # "spark" passes the schema: it cannot know which plugins are installed
    {"rayAddress": " "},
    {"rayCpusPerGame": 0},
    {"rayCpusPerGame": 2000},
    {"raySharedFiles": True, "rayWorkingDir": "."},
]


@pytest.mark.parametrize("changes", INVALID, ids=lambda c: json.dumps(c)[:60])
def test_configs_the_loader_refuses_the_schema_refuses(folder: Path, changes: dict[str, Any]) -> None:
    obj = _config(**changes)
    with pytest.raises(ConfigError):
        _load(folder, obj)
    assert list(VALIDATOR.iter_errors(obj)) != []


def test_the_reference_page_is_generated_from_the_schema() -> None:
    page = ROOT / "docs" / "reference" / "tournament-config.md"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "config_reference.py"), "--stdout"],
                          capture_output=True, text=True, check=True, timeout=60)
    assert page.read_text(encoding="utf-8") == done.stdout, "run: python scripts/config_reference.py"


def test_the_schema_ships_in_the_package() -> None:
    from importlib.resources import files

    assert json.loads(files("arena").joinpath("schemas/tournament.schema.json").read_text(encoding="utf-8"))["title"]
