"""Every example in every command's ``--help`` (issue 31, item 1): collected from the help texts,
each run as written, with the shell, in a newcomer's folder (the repository's bots/, configs/ and
examples/, and the files the examples name: a bot of one's own, records, log folders) -- or named
below with the reason it is not run here. A new example is in neither list: the test says so."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arena.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]

#: Examples not run here, each with why (what covers it instead).
NOT_RUN = {
    'arena match human "python3 bots/checkers_greedy.py" --game checkers': "a person at the terminal",
    "arena run my_tournament.json --backend ray": "starts Ray (tests/ray run the backend)",
    "arena run my_tournament.json --backend ray --ray-address auto": "needs a running Ray cluster",
    "arena league league.json": "runs until Ctrl-C (tests/tournament/test_league.py)",
    "arena league league.json --games 200": "200 games (tests/tournament/test_league.py bounds a league)",
    "arena league league.json --serve": "runs until Ctrl-C, with a server",
    "arena serve tournament_logs/my-run": "a server that runs until Ctrl-C (tests/serve)",
    "arena serve tournament_logs/my-run --host 0.0.0.0": "a server on every interface",
    "arena serve tournament_logs/my-run --allow-host arena.example.org": "a server that runs until Ctrl-C (tests/serve/test_guard.py: the Host names it answers)",
    "arena replay record.json --autoplay --delay 0.2": "keys and autoplay need a terminal",
    "arena report training/spsa-c4 -o spsa.html": "needs a training run (tests/report, tests/train)",
    "arena train evolve --game connect4 --out training/evolve-c4": "a training run of minutes (tests/train)",
    "arena train evolve --game breakthrough --population 8 --keep 3 --games-per-pair 4 --out /tmp/ev":
        "a training run of minutes (tests/train)",
    "arena train evolve --game connect4 --out training/evolve-c4 --backend ray --ray-address auto":
        "needs a running Ray cluster",
    "arena train td --game breakthrough --games 2000 --out training/td-bt": "2000 training games (tests/train)",
    "arena train td --game connect4 --init defaults --lambda 0.7 --out training/td-c4":
        "a training run of minutes (tests/train)",
    "arena tune spsa examples/spsa/connect4.json --out training/spsa-c4": "a tuning run of minutes (tests/train)",
    "arena tune spsa my.json --out runs/x --iterations 400": "400 tuning iterations",
    "arena tune spsa examples/spsa/connect4_depth.json --out training/spsa-bot -j 2": "a tuning run of minutes",
    'arena sprt "python3 bots/checkers_alphabeta.py --quiet" "python3 bots/checkers_greedy.py" '
    "--game checkers --elo1 50": "an SPRT runs until it decides: hundreds of games (tests/cli/test_sprt_cmd.py)",
    "arena sprt ./new_bot ./old_bot --game connect4 --openings book.jsonl --max-pairs 2000":
        "up to 2000 pairs of games",
    'arena sprt "python3 bots/kuhn_poker_heuristic.py" "python3 bots/kuhn_poker_random.py" '
    "--game kuhn_poker --players 2 --elo1 100": "an SPRT runs until it decides",
    'arena sprt --rules "python3 referee.py" ./new_bot ./old_bot --legal-moves': "an SPRT runs until it decides",
    "arena roster check class.json --probe": "plays whole games with every agent (tests/tournament)",
    "arena roster check class.json --probe --json > gate.json": "plays whole games with every agent",
    "arena run configs/checkers_round_robin.json": "12 games of an alpha-beta bot (the README test runs it)",
}


def help_examples() -> list[str]:
    """The example lines of ``arena --help`` and of every command's and subcommand's help, with
    their trailing comments removed and continued lines (``\\``) joined."""
    runner = CliRunner()
    paths: list[list[str]] = [[]]
    for name in COMMANDS:
        paths.append([name])
        command = cli.get_command(click.Context(cli), name)
        if isinstance(command, click.Group):
            paths += [[name, sub] for sub in command.list_commands(click.Context(command))]
    found: list[str] = []
    for path in paths:
        text = runner.invoke(cli, [*path, "--help"], terminal_width=200).output
        block = text.split("Examples:", 1)[1].split("\n\n", 1)[0] if "Examples:" in text else ""
        joined = re.sub(r"\\\n\s*", "", block)
        for line in joined.splitlines():
            line = re.sub(r"\s+(\(.*\)|#.*)$", "", line.strip())  # "(what it does)" or "# a comment"
            if line.startswith("arena") and line not in found:
                found.append(line)
    return found


def _bot(path: Path, source: Path) -> None:
    path.write_text(source.read_text())
    path.chmod(0o755)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A newcomer's folder: the repository's bots, configs and examples, and the files the
    examples name, made with arena itself."""
    home = tmp_path_factory.mktemp("newcomer")
    for name in ("bots", "configs", "examples"):
        (home / name).symlink_to(ROOT / name)
    _bot(home / "my_bot", ROOT / "bots" / "checkers_random.py")
    for name in ("a.py", "b.py"):
        _bot(home / name, ROOT / "bots" / "checkers_random.py")
    for name in ("alice", "bob"):
        (home / "students" / name).mkdir(parents=True)
        _bot(home / "students" / name / "main.py", ROOT / "bots" / "checkers_random.py")
        (home / "students" / name / "bot.json").write_text(json.dumps({"command": "python3 main.py", "game": "checkers"}))
    small = {"game": "checkers", "maxMoves": 10, "seed": 1, "tournamentType": "roundRobin",
             "agents": [{"id": "r1", "path": "python3 bots/checkers_random.py"},
                        {"id": "r2", "path": "python3 bots/checkers_random.py"}]}
    (home / "my_tournament.json").write_text(json.dumps({"id": "my-tournament", **small}))
    (home / "class.json").write_text(json.dumps({"id": "class", **small, "agents": {"from": "students/*/"}}))
    setup = [
        "arena match 'python3 bots/bot1.py' bots/bot2 --game shobu --max-moves 4 --out record.json",
        ("arena match 'python3 bots/checkers_random.py' 'python3 bots/checkers_random.py' --game checkers "
         "--max-moves 6 --games 2 --out games.json"),
        "cp games.json records.json",
        "cp record.json game.json",  # the check-record example makes it; a worker may run that one later
        "arena match 'python3 bots/kuhn_poker_random.py' 'python3 bots/kuhn_poker_random.py' --out table.json",
        "python3 -c 'import json; print(json.dumps(json.load(open(\"record.json\"))[\"game_states\"][0]))' > state.json",
    ]
    for run in ("my-run", "test", "checkers-rr"):
        (home / f"{run}.json").write_text(json.dumps({"id": run, **small, "gamesPerPair": 2}))
        setup.append(f"arena run {run}.json")
    setup.append("arena run my_tournament.json")
    for command in setup:
        done = _shell(command, home)
        assert done.returncode == 0, f"{command}: {done.stderr}"
    return home


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` through the shell, ``arena`` being this checkout's (the venv's script)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=280, check=False)


EXAMPLES = help_examples()


def test_every_example_is_run_or_says_why_not() -> None:
    assert [e for e in EXAMPLES if e not in NOT_RUN] and set(NOT_RUN) <= set(EXAMPLES), \
        sorted(set(NOT_RUN) - set(EXAMPLES))


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e not in NOT_RUN])
def test_a_help_example_runs_as_written(folder: Path, example: str) -> None:
    if example.startswith("arena standings") and "jq" in example and shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    done = _shell(example, folder)
    assert done.returncode == 0, f"{example}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr


def test_the_design_cards_commands_run_in_bots(tmp_path: Path) -> None:
    """`arena match "python bot1.py" "./bot2"` and `arena run tournament.json` in bots/, as the card
    this project was built from writes them (the run's logs sent elsewhere, not into the checkout)."""
    match = _shell('arena match "python bot1.py" "./bot2"', ROOT / "bots")
    assert match.returncode == 0 and json.loads(match.stdout)["game"] == "shobu", match.stderr
    assert "arena: playing shobu, the default game" in match.stderr
    run = _shell(f"arena run tournament.json --logs {tmp_path}", ROOT / "bots")
    assert run.returncode == 0, run.stderr
    assert "Standings after 4 games" in run.stdout and "Crosstable" in run.stdout  # `> standings.txt` keeps them
