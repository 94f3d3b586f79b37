"""Config loading: the seed's format as it is, our keys, and one-line errors that name the key."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.errors import ConfigError
from arena.limits import DEFAULT_HUMAN_TIME_LIMIT_MS
from arena.tournament.config import (
    TournamentConfig,
    comparable,
    default_max_moves,
    default_seed,
    load_config,
    resolve_command,
)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "checkers_random.py").write_text("print('hi')\n")
    (tmp_path / "hyp.json").write_text("{}\n")
    exe = tmp_path / "bots" / "my bot"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return tmp_path


def write(folder: Path, obj: Any, name: str = "t.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(obj))
    return path


SEED_EXAMPLE = {
    "id": "test",
    "agents": [
        {"type": "hyperparameters", "id": "hyp1", "path": "hyp.json"},
        {"type": "executable", "id": "bot2", "path": "python3 bots/checkers_random.py"},
    ],
    "tournamentType": "roundRobin",
    "visualize": False,
    "timeLimit": 100000,
    "maxMoves": 100,
}


def test_seed_example_loads_as_is(folder: Path) -> None:
    config = load_config(write(folder, SEED_EXAMPLE))
    assert config.id == "test"
    assert config.game == "checkers"
    assert config.tournament_type == "roundRobin"
    assert config.time_limit_ms == 100000
    assert config.max_moves == 100
    assert config.games_per_pair == 2
    hyp, bot = config.agents
    assert hyp.type == "hyperparameters" and hyp.path == str(folder / "hyp.json")
    assert bot.command == ("python3", str(folder / "bots" / "checkers_random.py"))
    assert bot.raw_path == "python3 bots/checkers_random.py"


def test_paths_resolve_against_the_config_folder_not_the_cwd(folder: Path, tmp_path_factory: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    sub = folder / "configs"
    sub.mkdir()
    obj = json.loads(json.dumps(SEED_EXAMPLE))
    obj["agents"][0]["path"] = "../hyp.json"
    obj["agents"][1]["path"] = "python3 ../bots/checkers_random.py --depth 3 fast"
    path = write(sub, obj)
    monkeypatch.chdir(tmp_path_factory.mktemp("elsewhere"))
    config = load_config(os.path.relpath(path))
    assert config.agents[0].path == str(folder / "hyp.json")
    assert config.agents[1].command == (
        "python3", str(folder / "bots" / "checkers_random.py"), "--depth", "3", "fast")


def test_a_single_executable_path_with_spaces_is_one_program(folder: Path) -> None:
    assert resolve_command("bots/my bot", folder) == (str(folder / "bots" / "my bot"),)
    assert resolve_command("'bots/my bot' --x", folder) == (str(folder / "bots" / "my bot"), "--x")
    # Inline code for an interpreter is not a file to look for, whatever it contains.
    code = "import sys; sys.path.insert(0, '/no/such'); print(1)"
    assert resolve_command(f'python3 -c "{code}"', folder) == ("python3", "-c", code)


def test_defaults_and_our_keys(folder: Path) -> None:
    obj = {**SEED_EXAMPLE, "game": "shobu", "gamesPerPair": 4, "concurrency": 3, "seed": 7,
           "timeMargin": 20, "startupTime": 500, "moveTimeLimit": 1000, "increment": 10,
           "openingPlies": 4}
    del obj["maxMoves"]
    config = load_config(write(folder, obj))
    assert config.game == "shobu" and config.max_moves == default_max_moves("shobu") == 60
    assert (config.games_per_pair, config.concurrency, config.seed) == (4, 3, 7)
    assert (config.time_margin_ms, config.startup_ms, config.move_time_limit_ms) == (20, 500, 1000)
    assert (config.increment_ms, config.opening_plies) == (10, 4)
    plain = load_config(write(folder, {"id": "x", "agents": SEED_EXAMPLE["agents"]}))
    assert plain.seed == default_seed("x") and plain.concurrency is None and plain.matches is None


def test_random_matches_keys(folder: Path) -> None:
    obj = {**SEED_EXAMPLE, "tournamentType": "randomMatches", "matches": 5}
    assert load_config(write(folder, obj)).matches == 5
    obj = {**SEED_EXAMPLE, "tournamentType": "randomMatches"}
    assert load_config(write(folder, obj)).matches is None


def test_player_needs_no_path(folder: Path) -> None:
    obj = {**SEED_EXAMPLE, "agents": [{"type": "player", "id": "me"}, SEED_EXAMPLE["agents"][1]]}
    config = load_config(write(folder, obj))
    assert config.agents[0].type == "player" and config.agents[0].command is None


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"colour": "red"}, "colour: unknown key"),
        ({"timeLimit": "fast"}, "timeLimit: must be a positive integer"),
        ({"timeLimit": True}, "timeLimit: must be a positive integer"),
        ({"timeLimit": 0}, "timeLimit: must be a positive integer"),
        ({"timeLimit": 12.5}, "timeLimit: must be a positive integer"),
        ({"maxMoves": -1}, "maxMoves: must be a positive integer"),
        ({"visualize": "no"}, "visualize: must be true or false"),
        ({"id": "../x"}, "id: '../x' is not a safe folder name"),
        ({"id": ""}, "id: '' is not a safe folder name"),
        ({"id": 5}, "id: must be a string"),
        ({"game": "chess"}, "game: unknown game 'chess'"),
        ({"tournamentType": "swiss"}, "tournamentType: 'swiss' is not one of"),
        ({"agents": {}}, "agents: must be a list"),
        ({"agents": [SEED_EXAMPLE["agents"][1]]}, "agents: a tournament needs at least two agents, got 1"),
        ({"matches": 3}, "matches: only used by randomMatches"),
        ({"openingPlies": -2}, "openingPlies: must be a non-negative integer"),
        ({"concurrency": 0}, "concurrency: must be a positive integer"),
    ],
)
def test_top_level_mistakes_are_one_line_naming_the_key(folder: Path, change: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(write(folder, {**SEED_EXAMPLE, **change}))
    message = str(info.value)
    assert message.startswith(key), message
    assert "\n" not in message


def bot(**fields: Any) -> dict[str, Any]:
    return {"type": "executable", "id": "b", "path": "python3 bots/checkers_random.py", **fields}


@pytest.mark.parametrize(
    ("agents", "key"),
    [
        ([bot(id="a"), bot(id="a")], "agents[1].id: duplicate id 'a'"),
        ([bot(id="a"), bot(id="A")], "agents[1].id: duplicate id 'A'"),
        ([bot(id="a"), bot(id="../x")], "agents[1].id: '../x' is not a safe file name"),
        ([bot(id="a"), bot(id="a/b")], "agents[1].id: 'a/b' is not a safe file name"),
        ([bot(id="a"), bot(id="standings")], "agents[1].id: 'standings' is reserved"),
        ([bot(id="a"), {"type": "executable", "path": "x"}], "agents[1].id: missing"),
        ([bot(id="a"), bot(id="c", type="robot")], "agents[1].type: 'robot' is not one of"),
        ([bot(id="a"), bot(id="c", flavour=1)], "agents[1].flavour: unknown key"),
        ([bot(id="a"), bot(id="c", path="python3 bots/missing.py")], "agents[1].path: file 'bots/missing.py' not found"),
        ([bot(id="a"), bot(id="c", path="./bots/nothing")], "agents[1].path: program './bots/nothing' not found"),
        ([bot(id="a"), bot(id="c", path="no-such-program-xyz --go")], "agents[1].path: program 'no-such-program-xyz' not found on PATH"),
        ([bot(id="a"), bot(id="c", path="bots/checkers_random.py")], "agents[1].path: 'bots/checkers_random.py' is not executable"),
        ([bot(id="a"), bot(id="c", path="python3 'unbalanced")], "agents[1].path: cannot split"),
        ([bot(id="a"), bot(id="c", path="")], "agents[1].path: missing"),
        ([bot(id="a"), bot(id="c", path=3)], "agents[1].path: must be a string"),
        ([bot(id="a"), {"type": "hyperparameters", "id": "h", "path": "nope.json"}], "agents[1].path: file 'nope.json' not found"),
        ([bot(id="a"), {"type": "hyperparameters", "id": "h"}], "agents[1].path: missing"),
        ([bot(id="a"), "bot"], "agents[1]: must be an object"),
    ],
)
def test_agent_mistakes_are_one_line_naming_the_key(folder: Path, agents: list[Any], key: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(write(folder, {"id": "t", "agents": agents}))
    message = str(info.value)
    assert message.startswith(key), message
    assert "\n" not in message


def test_file_level_mistakes(folder: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(folder / "absent.json")
    (folder / "bad.json").write_text("{nope")
    with pytest.raises(ConfigError, match="not valid JSON"):
        load_config(folder / "bad.json")
    (folder / "list.json").write_text("[]")
    with pytest.raises(ConfigError, match="top level must be a JSON object"):
        load_config(folder / "list.json")
    with pytest.raises(ConfigError, match="^id: missing"):
        load_config(write(folder, {"agents": SEED_EXAMPLE["agents"]}))


def test_resolved_form_round_trips_and_ignores_harmless_keys(folder: Path) -> None:
    a = load_config(write(folder, {**SEED_EXAMPLE, "concurrency": 1}))
    b = load_config(write(folder, {**SEED_EXAMPLE, "concurrency": 4, "gamesPerPair": 6}))
    c = load_config(write(folder, {**SEED_EXAMPLE, "timeLimit": 5}))
    assert comparable(a.to_json()) == comparable(b.to_json())
    assert comparable(a.to_json()) != comparable(c.to_json())
    assert json.loads(json.dumps(a.to_json()))["agents"][1]["command"][0] == "python3"
    assert isinstance(a, TournamentConfig)


def test_python_interpreter_by_absolute_path(folder: Path) -> None:
    cmd = resolve_command(f"{sys.executable} -u bots/checkers_random.py", folder)
    assert cmd == (sys.executable, "-u", str(folder / "bots" / "checkers_random.py"))


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"timeLimit": 10**20}, "timeLimit: at most 604,800,000 allowed, got 100000000000000000000"),
        ({"timeLimit": 2**64}, "timeLimit: at most 604,800,000 allowed, got 18446744073709551616"),
        ({"timeLimit": 1e300}, "timeLimit: at most 604,800,000 allowed, got an integer of 301 digits"),
        ({"timeLimit": 1e-300}, "timeLimit: must be a positive integer, got 1e-300"),
        ({"timeMargin": 604_800_001}, "timeMargin: at most 604,800,000 allowed"),
        ({"startupTime": 10**12}, "startupTime: at most"),
        ({"moveTimeLimit": 10**12}, "moveTimeLimit: at most"),
        ({"increment": 10**12}, "increment: at most"),
        ({"maxMoves": 100_001}, "maxMoves: at most 100,000 allowed"),
        ({"gamesPerPair": 10**9 + 1}, "gamesPerPair: at most 1,000,000,000 allowed"),
        ({"concurrency": 10**8}, "concurrency: at most 1,000,000 allowed"),
        ({"seed": 2**63}, "seed: at most 9,223,372,036,854,775,807 allowed"),
        ({"seed": -1}, "seed: must be a non-negative integer"),
        ({"openingPlies": 100}, "openingPlies: 100 random plies leave no move to the bots with maxMoves 100"),
        ({"openingPlies": 150}, "openingPlies: 150 random plies leave no move"),
        ({"id": "abc\n"}, "id: 'abc\\n' is not a safe folder name"),
        ({"ponder": "yes"}, "ponder: must be true or false"),
        ({"sandbox": 1}, "sandbox: must be true, false or a sandbox backend's name (bubblewrap, none), got 1"),
        ({"inheritEnv": None, "colour\n": 1}, "colour\\n: unknown key"),
    ],
)
def test_numbers_are_range_checked_and_ids_fully_matched(folder: Path, change: dict[str, Any], key: str) -> None:
    path = folder / "t.json"
    # json.dumps writes integers of any size; orjson would refuse them
    path.write_text(json.dumps({**SEED_EXAMPLE, **change}))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(key), message
    assert "\n" not in message


def test_numbers_too_big_for_json_are_one_line(folder: Path) -> None:
    (folder / "big.json").write_text(json.dumps(SEED_EXAMPLE).replace("100000,", "1" + "0" * 400 + ","))
    with pytest.raises(ConfigError, match=r"^timeLimit: at most 604,800,000 allowed, got an integer of 401 digits$"):
        load_config(folder / "big.json")
    (folder / "inf.json").write_text(json.dumps(SEED_EXAMPLE).replace("100000,", "1e400,"))
    with pytest.raises(ConfigError, match=r"inf\.json: a number too large for a float \(infinity\)$"):
        load_config(folder / "inf.json")


def test_random_matches_count_is_bounded(folder: Path) -> None:
    with pytest.raises(ConfigError, match="^matches: at most 1,000,000,000 allowed"):
        load_config(write(folder, {**SEED_EXAMPLE, "tournamentType": "randomMatches", "matches": 10**10}))


@pytest.mark.parametrize(
    ("env", "key"),
    [
        ({"FOO": 5}, "agents[1].env.FOO: must be a string, got 5"),
        ({"FOO": None}, "agents[1].env.FOO: must be a string, got null"),
        ({"1ABC": "x"}, "agents[1].env.1ABC: not a valid environment variable name"),
        ({"A-B": "x"}, "agents[1].env.A-B: not a valid environment variable name"),
        ({"A=B": "x"}, "agents[1].env.A=B: not a valid environment variable name"),
        ({"A\n": "x"}, "agents[1].env.A\\n: not a valid environment variable name"),
        ({"": "x"}, "agents[1].env.: not a valid environment variable name"),
        ({"NUL": "a\u0000b"}, "agents[1].env.NUL: contains a NUL character"),
        (["FOO=1"], "agents[1].env: must be an object of names to strings"),
        ("FOO=1", "agents[1].env: must be an object of names to strings"),
    ],
)
def test_agent_env_mistakes_name_the_key(folder: Path, env: Any, key: str) -> None:
    agents = [SEED_EXAMPLE["agents"][1], bot(id="c", env=env)]
    with pytest.raises(ConfigError) as info:
        load_config(write(folder, {"id": "t", "agents": agents}))
    message = str(info.value)
    assert message.startswith(key), message
    assert "\n" not in message


def test_isolation_keys_and_env(folder: Path) -> None:
    agents = [SEED_EXAMPLE["agents"][1], bot(id="c", env={"ZED": "1", "ALPHA": "two words", "_x": ""})]
    config = load_config(write(folder, {"id": "t", "agents": agents, "ponder": True, "inheritEnv": True}))
    assert (config.ponder, config.sandbox, config.inherit_env) == (True, None, True)  # sandbox: None, the default (on where it runs)
    assert config.agents[1].env == (("ALPHA", "two words"), ("ZED", "1"), ("_x", ""))
    assert config.agents[0].env == () and "env" not in config.to_json()["agents"][0]
    assert config.to_json()["agents"][1]["env"] == {"ALPHA": "two words", "ZED": "1", "_x": ""}
    plain = load_config(write(folder, {"id": "t", "agents": SEED_EXAMPLE["agents"]}))
    assert (plain.ponder, plain.sandbox, plain.inherit_env) == (False, None, False)
    # sandbox and inheritEnv may change between runs of one id; ponder and env may not
    a = plain.to_json()
    assert comparable(a) == comparable({**a, "sandbox": True, "inheritEnv": True})
    assert comparable(a) != comparable({**a, "ponder": True})
    assert comparable({k: v for k, v in a.items() if k != "ponder"}, old={}) == comparable(
        {**a, "ponder": True}, old={})  # a folder written before ponder existed


def test_agent_ids_with_a_trailing_newline_are_refused(folder: Path) -> None:
    with pytest.raises(ConfigError, match=r"^agents\[1\]\.id: 'b\\n' is not a safe file name"):
        load_config(write(folder, {"id": "t", "agents": [bot(id="a"), bot(id="b\n")]}))


def test_deep_nesting_and_huge_files_are_one_line(folder: Path) -> None:
    (folder / "deep.json").write_text("[" * 100_000)
    with pytest.raises(ConfigError, match=r"deep\.json: nested more than 64 levels deep$"):
        load_config(folder / "deep.json")
    (folder / "nested.json").write_text('{"id": "t", "agents": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(ConfigError, match=r"nested\.json: nested more than 64 levels deep$"):
        load_config(folder / "nested.json")
    (folder / "broken.json").write_text('{"id": ')
    with pytest.raises(ConfigError, match=r"broken\.json: not valid JSON \("):
        load_config(folder / "broken.json")
    with pytest.raises(ConfigError, match=r"^/dev/zero: not a regular file \(a character device\); not a config file$"):
        load_config("/dev/zero")
    with open(folder / "huge.json", "wb") as handle:
        handle.truncate(16 * 2**20 + 1)  # sparse: no disk used
    with pytest.raises(ConfigError, match=r"huge\.json: larger than 16 MiB; not a config file$"):
        load_config(folder / "huge.json")
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(folder)  # a folder


def test_odd_words_in_commands_are_one_line(folder: Path) -> None:
    with pytest.raises(ConfigError, match=r"^agents\[1\]\.path: contains a NUL character$"):
        load_config(write(folder, {"id": "t", "agents": [bot(id="a"), bot(id="c", path="python3 a\u0000b")]}))
    long_word = "x" * 5000
    command = f"python3 bots/checkers_random.py {long_word}"
    config = load_config(write(folder, {"id": "t", "agents": [bot(id="a"), bot(id="c", path=command)]}))
    assert config.agents[1].command[2] == long_word  # names no file: left as a word
    with pytest.raises(ConfigError, match=r"^agents\[1\]\.path: file 'x+\.\.\.x+\.py' not found") as error:
        load_config(write(folder, {"id": "t", "agents": [bot(id="a"), bot(id="c", path=f"python3 {long_word}.py")]}))
    assert len(str(error.value)) < 400  # one line a person can read, not the word twice


def test_a_person_in_a_tournament_gets_the_human_budget_unless_the_config_says(folder: Path) -> None:
    agents = [{"type": "player", "id": "me"}, {"id": "bot", "path": "python3 bot.py"}]
    (folder / "bot.py").write_text("")
    path = folder / "human.json"
    path.write_text(json.dumps({"id": "h", "agents": agents}))
    assert load_config(path).time_limit_ms == DEFAULT_HUMAN_TIME_LIMIT_MS == 600_000
    path.write_text(json.dumps({"id": "h", "agents": agents, "timeLimit": 5000}))
    assert load_config(path).time_limit_ms == 5000


def test_a_hyperparameters_path_is_found_from_the_current_folder_as_the_seed_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The checkers seed runs `data/default_tournament.json` from its root, naming `data/hyp.json`.
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "hyp.json").write_text("{}")
    config_file = tmp_path / "data" / "t.json"
    config_file.write_text(json.dumps({"id": "s", "agents": [
        {"type": "hyperparameters", "id": "h", "path": "data/hyp.json"}, {"type": "player", "id": "me"}]}))
    monkeypatch.chdir(tmp_path)
    assert load_config(config_file).agents[0].path == str(tmp_path / "data" / "hyp.json")
    monkeypatch.chdir(tmp_path / "data")  # beside the config and here: the same place, named once
    with pytest.raises(ConfigError, match=r"not found \(looked at [^ ]*data/data/hyp.json\)$"):
        load_config(config_file)
    monkeypatch.chdir(tmp_path.parent)
    with pytest.raises(ConfigError, match=r"looked at [^ ]*data/data/hyp.json and [^ ]*/data/hyp.json\)$"):
        load_config(config_file)
