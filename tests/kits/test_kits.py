"""The starter kits (``examples/kits/``, issue 25). Every kit whose toolchain is on this machine is
built once per session into its own ``build/`` folder inside the checkout (make keeps it while the
sources do not change), then each of its bots passes ``arena check-bot`` and plays a short match
against a shipped Python bot, for both games. A missing toolchain is a skip with one line, never a
failure; a kit that does not build with its toolchain present is a failure."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.tournament.config import load_config

ROOT = Path(__file__).resolve().parents[2]
KITS_DIR = ROOT / "examples" / "kits"
OPPONENT = {"connect4": "python3 bots/connect4_greedy.py", "checkers": "python3 bots/checkers_greedy.py"}


@dataclass(frozen=True)
class Kit:
    """A kit's folder name, the programs its build and bots need, and its bots' commands (from the
    repository root) by game."""

    name: str
    tools: tuple[str, ...]
    bots: dict[str, str]


KITS = [
    Kit("c", ("make", "cc"),
        {"connect4": "examples/kits/c/build/connect4", "checkers": "examples/kits/c/build/checkers"}),
    Kit("cpp", ("make", "g++"),
        {"connect4": "examples/kits/cpp/build/connect4", "checkers": "examples/kits/cpp/build/checkers"}),
    Kit("java", ("make", "javac", "java"),
        {"connect4": "java -cp examples/kits/java/build Connect4", "checkers": "java -cp examples/kits/java/build Checkers"}),
    Kit("javascript", ("make", "node"),
        {"connect4": "node examples/kits/javascript/connect4.js", "checkers": "node examples/kits/javascript/checkers.js"}),
    Kit("rust", ("make", "cargo"),
        {"connect4": "examples/kits/rust/build/release/connect4", "checkers": "examples/kits/rust/build/release/checkers"}),
]
BOTS = [(kit, game) for kit in KITS for game in kit.bots]


@pytest.fixture(scope="session")
def builds() -> dict[str, str | None]:
    """Kit name -> None once built here, or why it is skipped (filled on first use)."""
    return {}


def build(kit: Kit, builds: dict[str, str | None]) -> None:
    """Build ``kit`` once per session (one worker at a time); skip (one line) when a tool is missing."""
    if kit.name not in builds:
        missing = [tool for tool in kit.tools if shutil.which(tool) is None]
        if missing:
            builds[kit.name] = f"{kit.name} kit: {', '.join(missing)} not found on this machine"
        else:
            # Serialised across pytest-xdist workers (each has its own session): the first builds,
            # the others wait and find it up to date, instead of compiling the same kit at once.
            (ROOT / "build").mkdir(exist_ok=True)
            with open(ROOT / "build" / f"kit-{kit.name}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                done = subprocess.run(["make", "-C", str(KITS_DIR / kit.name)], capture_output=True, text=True,
                                      timeout=600, stdin=subprocess.DEVNULL, check=False)
            assert done.returncode == 0, f"{kit.name} kit does not build:\n{done.stdout}{done.stderr}"
            builds[kit.name] = None
    reason = builds[kit.name]
    if reason is not None:
        pytest.skip(reason)


def test_every_kit_folder_is_tested() -> None:
    assert sorted(p.name for p in KITS_DIR.iterdir() if p.is_dir()) == sorted(k.name for k in KITS)
    for kit in KITS:
        readme = (KITS_DIR / kit.name / "README.md").read_text()
        assert len(readme.splitlines()) <= 20
        checks = [line.strip() for line in readme.splitlines() if line.strip()][-1]
        assert checks.startswith("arena check-bot"), f"{kit.name}: the README must end with the check-bot command"
        for game, command in kit.bots.items():
            assert command in checks and f"--game {game}" in checks


@pytest.mark.parametrize(("kit", "game"), BOTS, ids=[f"{k.name}-{g}" for k, g in BOTS])
def test_each_kit_bot_passes_check_bot(kit: Kit, game: str, builds: dict[str, str | None]) -> None:
    build(kit, builds)
    out = subprocess.run([sys.executable, "-m", "arena", "check-bot", kit.bots[game], "--game", game, "--json"],
                         capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=300, check=False)
    report = json.loads(out.stdout)
    failed = [f"{c['name']}: {c['detail']}" for c in report["checks"] if not c["ok"]]
    assert out.returncode == 0 and report["ok"] and not failed, failed or out.stderr


@pytest.mark.parametrize(("kit", "game"), BOTS, ids=[f"{k.name}-{g}" for k, g in BOTS])
def test_each_kit_bot_plays_a_shipped_bot(kit: Kit, game: str, builds: dict[str, str | None],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    build(kit, builds)
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, ["match", "--game", game, kit.bots[game], OPPONENT[game], "--games", "2",
                                      "--time-limit", "20000", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for record in json.loads(result.stdout):
        assert record["termination"] in ("win", "draw", "max_moves", "no_legal_moves"), record["reason"]


def test_the_java_kit_runs_with_a_colon_class_path(builds: dict[str, str | None],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's command form, verbatim: a class path of two entries, one of them a system jar
    that may well be missing (the JVM skips it)."""
    build(next(k for k in KITS if k.name == "java"), builds)
    monkeypatch.chdir(ROOT)
    command = "java -cp examples/kits/java/build:/usr/share/java/gson.jar Connect4"
    result = CliRunner().invoke(cli, ["match", "--game", "connect4", command, OPPONENT["connect4"], "--json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["termination"] in ("win", "draw"), result.stdout


def test_the_kits_round_robin_config_loads(builds: dict[str, str | None]) -> None:
    """``examples/kits/connect4_kits.json`` names every kit's Connect Four bot (and the shipped
    Python bots); it resolves once every kit is built."""
    for kit in KITS:
        build(kit, builds)
    config = load_config(KITS_DIR / "connect4_kits.json")
    assert {a.id for a in config.agents} >= {k.name for k in KITS}


SINGLE_FILE = [("c", "checkers.c", "build/checkers"), ("cpp", "connect4.cpp", "build/connect4"),
               ("java", "Checkers.java", "build/Checkers.class"), ("javascript", "connect4.js", None)]


@pytest.mark.parametrize(("name", "source", "built"), SINGLE_FILE, ids=[k for k, _, _ in SINGLE_FILE])
def test_a_copy_of_one_games_file_and_the_makefile_builds_alone(tmp_path: Path, name: str, source: str,
                                                                built: str | None) -> None:
    # A student who copies one game's file (and the Makefile) gets that bot, not a missing-file error.
    kit = next(k for k in KITS if k.name == name)
    missing = [tool for tool in kit.tools if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{name} kit: {', '.join(missing)} not installed")
    for file in ("Makefile", source):
        shutil.copy(KITS_DIR / name / file, tmp_path / file)
    done = subprocess.run(["make"], cwd=tmp_path, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    assert built is None or (tmp_path / built).is_file()
