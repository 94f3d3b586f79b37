"""SPSA of a command agent: config checks, placeholders, real subprocess games, records, resume."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.errors import ConfigError
from arena.records.sources import open_source
from arena.train.spsa import Parameter, load_spsa_config, read_history, run_spsa
from arena.train.spsa_play import agent_spec, load_command_agent, substitute, text_of, value_of

BOT = Path(__file__).resolve().parent / "skill_bot.py"
REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "spsa"


def _config(tmp_path: Path, **changes: object) -> Path:
    (tmp_path / "skill_bot.py").write_bytes(BOT.read_bytes())
    obj: dict[str, object] = {
        "game": "connect4", "agent": {"command": "python3 skill_bot.py --skill {skill}"},
        "parameters": {"skill": {"start": 4, "min": 0, "max": 10, "c": 2}},
        "iterations": 2, "pairs": 1, "timeLimit": 30000, "seed": 5}
    obj.update(changes)
    path = tmp_path / "spsa.json"
    path.write_text(json.dumps(obj))
    return path


@pytest.mark.parametrize(("changes", "message"), [
    ({"agent": {"command": "python3 skill_bot.py --skill {skil}"}}, "placeholder {skil} is not a tuned parameter"),
    ({"parameters": {"skill": {"start": 4, "min": 0, "max": 10, "c": 2},
                     "depth": {"start": 1, "min": 0, "max": 3, "c": 1}}}, "parameters.depth: not used as {depth}"),
    ({"parameters": {"skill": {"min": 0, "max": 10, "c": 2}}}, "must be an object with start, min, max, c"),
    ({"parameters": {"skill": {"start": 4, "min": 0, "max": 10, "c": 2, "type": "double"}}},
     "parameters.skill.type: 'double' is not one of int, float"),
    ({"parameters": {"skill": {"start": 40, "min": 0, "max": 10, "c": 2}}}, "start within them"),
    ({"parameters": {"a.b": {"start": 4, "min": 0, "max": 10, "c": 2}}}, "parameters.a.b: not a placeholder name"),
    ({"agent": {"command": "python3 skill_bot.py --skill {skill}", "cwd": "."}}, "agent.cwd: unknown key (known keys: command, env)"),
    ({"agent": {"command": " "}}, "agent.command: must be the bot's command line"),
    ({"agent": {"command": "python3 missing_bot.py --skill {skill}"}}, "file 'missing_bot.py' not found"),
    ({"agent": {"command": "python3 skill_bot.py --skill {skill}", "env": {"1X": "{skill}"}}},
     "agent.env.1X: not a valid environment variable name"),
    ({"agent": 7}, "agent: must be the path of a hyperparameters file or an object with a command"),
    ({"timeLimit": 0}, "timeLimit: must be a positive integer, got 0"),
    ({"maxMoves": "many"}, "maxMoves: must be a positive integer, got 'many'"),
    ({"sandbox": "yes"}, "sandbox: 'yes' is not one of bubblewrap, none"),
    ({"openingsOrder": "shuffled"}, "openingsOrder: 'shuffled' is not one of random, sequential"),
    ({"openings": "missing.jsonl"}, ": openings: "),
    ({"game": "no-such-game"}, ": game: unknown game"),
])
def test_command_config_mistakes_are_one_line(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)) as caught:
        load_spsa_config(_config(tmp_path, **changes))
    assert "\n" not in str(caught.value)


def test_tournament_keys_need_a_command_agent(tmp_path: Path) -> None:
    (tmp_path / "start.json").write_text(json.dumps({"maxDepth": 1}))
    path = _config(tmp_path, agent="start.json", parameters={"maxDepth": {"min": 1, "max": 3, "c": 1}})
    with pytest.raises(ConfigError, match="timeLimit: for a command agent only"):
        load_spsa_config(path)


def test_the_cli_names_a_bad_key_in_one_line(tmp_path: Path) -> None:
    from arena.cli.tune_cmd import tune_command

    path = _config(tmp_path, agent={"command": "python3 skill_bot.py --skill {level}"})
    result = CliRunner().invoke(tune_command, ["spsa", str(path), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "placeholder {level} is not a tuned parameter" in result.output


def test_placeholders_are_substituted() -> None:
    assert substitute("--a={x} {{x}} {y}{x} {z", {"x": "3", "y": "0.5"}) == "--a=3 {x} 0.53 {z"
    with pytest.raises(KeyError):
        substitute("{nope}", {})
    whole = Parameter("n", 0, 0.5, 9.5, 1)
    assert [value_of(whole, v) for v in (0.2, 2.5, 3.5, 4.4, 9.9)] == [1, 2, 4, 4, 9]
    real = Parameter("r", 0, -1, 1, 0.1, "float")
    assert [text_of(value_of(real, v)) for v in (0.25, -1e-9, 1e-7, 0.1234567, -0.5)] == \
        ["0.25", "0", "0", "0.123457", "-0.5"]


def test_the_agent_spec_puts_the_values_in_command_and_env(tmp_path: Path) -> None:
    path = _config(tmp_path, agent={"command": "python3 skill_bot.py --skill {skill} --seed {seed}",
                                    "env": {"MARGIN": "m={margin}"}},
                   parameters={"skill": {"start": 4, "min": 0, "max": 10, "c": 2},
                               "seed": {"start": 1, "min": 0, "max": 9, "c": 1},
                               "margin": {"start": 0.5, "min": 0, "max": 1, "c": 0.1, "type": "float"}})
    config = load_spsa_config(path)
    assert config.command is not None and config.command.argv[1] == str(tmp_path / "skill_bot.py")
    spec = agent_spec(config.command, "x", {"skill": 7, "seed": 2, "margin": 0.25})
    assert spec.command == f"python3 {tmp_path / 'skill_bot.py'} --skill 7 --seed 2"
    assert spec.env == (("MARGIN", "m=0.25"),)
    assert load_command_agent(json.loads(path.read_text()), tmp_path, "x").placeholders() == {"skill", "seed", "margin"}


def test_a_real_run_plays_records_and_writes_a_usable_command(tmp_path: Path) -> None:
    from arena.cli.tune_cmd import tune_command

    run = tmp_path / "run"
    result = CliRunner().invoke(tune_command, ["spsa", str(_config(tmp_path)), "--out", str(run), "-j", "2"])
    assert result.exit_code == 0, result.output
    assert "skill" in result.output and (run / "history.svg").read_text().count("<polyline") == 1
    history = read_history(run)
    assert [line["k"] for line in history] == [0, 1]
    assert [line["games"]["first"] for line in history] == [0, 2]
    for line in history:
        games = line["games"]
        assert games["count"] == 2 and games["wins"] + games["losses"] + games["draws"] == 2
        assert line["y"] == (games["wins"] - games["losses"]) / 2
    source = open_source(run)
    assert [entry.index for entry in source.entries] == [0, 1, 2, 3]
    first = json.loads((run / "games" / "00000.json").read_text())
    black = next(p for p in first["players"] if p["colour"] == "BLACK")
    assert black["id"] == "plus" and f"--skill {round(history[0]['plus']['skill'])}" in black["command"]
    tuned = json.loads((run / "tuned.json").read_text())
    theta = history[-1]["theta"]["skill"]
    assert tuned["parameters"] == {"skill": round(theta)}
    assert tuned["command"].endswith(f"--skill {round(theta)}") and tuned["theta"]["skill"] == round(theta, 6)
    start = json.loads((run / "start.json").read_text())
    assert start["command"].endswith("--skill 4")


def test_a_faulty_probe_loses_its_games(tmp_path: Path) -> None:
    # The bot crashes with a negative skill: at the first iteration one probe is -1, the other +1.
    config = load_spsa_config(_config(tmp_path, iterations=1, parameters={
        "skill": {"start": 0, "min": -1, "max": 10, "c": 1}}))
    run_spsa(config, tmp_path / "run")
    (line,) = read_history(tmp_path / "run")
    assert line["y"] == (1.0 if line["plus"]["skill"] > 0 else -1.0)
    assert line["games"]["endings"] == {"crash": 2}


def test_an_interrupted_iteration_keeps_its_finished_games(tmp_path: Path) -> None:
    config = load_spsa_config(_config(tmp_path))
    run_spsa(config, tmp_path / "b", iterations=1)
    shutil.copytree(tmp_path / "b", tmp_path / "a")
    (tmp_path / "a" / ".arena.lock").unlink(missing_ok=True)
    run_spsa(config, tmp_path / "a", iterations=2)
    # As if b was killed during iteration 1 after its first game: that record is kept, not replayed.
    played = (tmp_path / "a" / "games" / "00002.json").read_bytes()
    (tmp_path / "b" / "games" / "00002.json").write_bytes(played)
    run_spsa(config, tmp_path / "b", iterations=2)
    assert (tmp_path / "b" / "games" / "00002.json").read_bytes() == played
    history = read_history(tmp_path / "b")
    assert [line["k"] for line in history] == [0, 1] and history[0] == read_history(tmp_path / "a")[0]
    assert history[1]["plus"] == read_history(tmp_path / "a")[1]["plus"]  # the same Delta after resume


def test_another_config_is_refused_on_resume(tmp_path: Path) -> None:
    run_spsa(load_spsa_config(_config(tmp_path, iterations=1)), tmp_path / "run")
    changed = load_spsa_config(_config(tmp_path, iterations=1, timeLimit=20000))
    with pytest.raises(ConfigError, match="tuned with another config"):
        run_spsa(changed, tmp_path / "run")


def test_ctrl_c_stops_after_saving_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "arena", "tune", "spsa", str(_config(tmp_path, iterations=500)), "--out",
               str(out), "-j", "1", "--progress-every", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # a hang backstop only
        while not (out / "games" / "00002.json").exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert "run the same command again to resume" in err
    state = json.loads((out / "state.json").read_text())
    assert [line["k"] for line in read_history(out)] == list(range(state["k"]))
    again = subprocess.run([*command[:-4], "--iterations", str(state["k"] + 1)], capture_output=True, text=True,
                           timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert f"resuming {out} at iteration {state['k']}" in again.stderr
    assert [line["k"] for line in read_history(out)] == list(range(state["k"] + 1))


@pytest.mark.parametrize("name", ["connect4_depth.json"])
def test_the_example_command_configs_load(name: str) -> None:
    config = load_spsa_config(EXAMPLES / name)
    assert config.command is not None and config.command.book is not None


def test_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    from arena.records.logstore import FolderLock, LogError

    lock = FolderLock(tmp_path / "run")
    (tmp_path / "run").mkdir()
    lock.acquire()
    try:
        with pytest.raises(LogError):
            run_spsa(load_spsa_config(_config(tmp_path, iterations=1)), tmp_path / "run")
    finally:
        lock.release()
