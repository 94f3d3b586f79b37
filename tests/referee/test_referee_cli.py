"""``--rules CMD`` on the commands, the config key ``rules``, and a referee failing in a tournament:
the game is not recorded, played again, the run stops with one line, and a resumed run plays it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from referee_support import NIM, ROOT, hostile_argv

import arena.tournament.runner as runner_module
from arena.cli import cli
from arena.referee.registration import forget_referees

RULES = f"{sys.executable} {NIM}"
BOTS = {name: f"{sys.executable} {ROOT / 'examples' / 'referees' / (name + '.py')}" for name in ("nim_perfect", "nim_random")}


def arena(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _perfect_could_win(record: dict[str, Any], heap: int = 10, take: int = 3) -> bool:
    """Whether nim_perfect ever had the move with a heap that is not a multiple of take + 1 (nim_random
    starts half the games, and may play the winning line itself by chance)."""
    seat = next(s["seat"] for s in record["seats"] if s["id"] == "nim_perfect")
    for step in record["steps"]:
        if step["kind"] != "move":
            continue
        if step["seat"] == seat and heap % (take + 1):
            return True
        heap -= step["move"]
    return False


def test_a_match_of_an_external_game_with_records_that_name_it(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    result = arena("match", "--rules", RULES, BOTS["nim_perfect"], BOTS["nim_random"], "--games", "2",
                   "--out", str(out), "--time-limit", "20000")
    assert result.exit_code == 0, result.output
    records = json.loads(out.read_text())
    assert [r["game"] for r in records] == ["nim", "nim"]
    assert all(r["game_identity"]["rules"] == RULES for r in records)
    for record in records:  # it wins every game in which it faced a heap it could win from
        winner = record["seats"][record["ranks"].index(1)]["id"]
        assert winner == "nim_perfect" or not _perfect_could_win(record), record["steps"]
    assert all(r["steps"][0]["kind"] == "chance" and r["steps"][0]["probability"] == "1/2" for r in records)
    checked = arena("check-record", "--rules", RULES, str(out))
    assert checked.exit_code == 0 and "2 records check out" in checked.output, checked.output
    # Without the referee (registrations last as long as arena's process: this one's): what to give.
    forget_referees()
    unknown = arena("check-record", str(out))
    assert unknown.exit_code == 1 and "played by the rules program" in unknown.output and "--rules" in unknown.output
    replayed = arena("replay", "--rules", RULES, str(out), "--game", "0", "--plain")
    assert replayed.exit_code == 0 and "take " in replayed.output and "heap 10:" in replayed.output
    report = tmp_path / "report.html"
    assert arena("report", "--rules", RULES, str(out), "-o", str(report)).exit_code == 0
    assert "<svg" in report.read_text()


def test_the_rules_tools(tmp_path: Path) -> None:
    perft = arena("perft", "--rules", RULES, "--param", "heap=4", "--depth", "3", "--json")
    assert perft.exit_code == 0 and json.loads(perft.stdout)["nodes"] == 12, perft.output
    state = {"players": 2, "heap": 2, "take": 3, "phase": "play", "to_move": 1, "out": [], "winner": None, "ply": 5}
    moves = CliRunner().invoke(cli, ["moves", "--rules", RULES], input=json.dumps(state) + "\n")
    assert moves.exit_code == 0 and json.loads(moves.stdout) == {"actor": 1, "moves": {"1": [1, 2]}}, moves.output
    passed = CliRunner().invoke(cli, ["pass-through", "--rules", RULES],
                                input=json.dumps({"game_state": state, "seat": 1, "turn": 2}) + "\n")
    assert passed.exit_code == 0, passed.output
    assert json.loads(passed.stdout)["phase"] == "over"
    listed = arena("games", "--rules", RULES, "--json")
    assert any(g["name"] == "nim" and g["players"] == [2, 3] for g in json.loads(listed.stdout)["games"])


def test_sprt_of_an_external_game_of_two_seats(tmp_path: Path) -> None:
    logs = tmp_path / "sprt"
    result = arena("sprt", "--rules", RULES, BOTS["nim_perfect"], BOTS["nim_random"], "--elo1", "200",
                   "--max-pairs", "3", "--concurrency", "2", "--logs", str(logs), "--json")
    assert result.exit_code in (0, 4), result.output
    summary = json.loads(result.stdout)
    # Both games of a pair share the chance draw of who starts, and NEW sits at each seat once: it
    # starts one of them and wins it (10 stones, take 1 to 3), so no pair scores below 1.
    assert summary["pentanomial"][:2] == [0, 0] and sum(summary["pentanomial"]) == summary["pairs"]
    first, second = (json.loads((logs / "games" / f"0000{i}.json").read_text()) for i in range(2))
    assert [s["id"] for s in first["seats"]] == ["nim_perfect", "nim_random"] == [s["id"] for s in second["seats"]][::-1]
    assert first["game_identity"]["rules"] == RULES and first["steps"][0] == second["steps"][0]
    settings = json.loads((logs / "sprt.json").read_text())["settings"]
    assert settings["rules"] == RULES.split() and settings["game_identity"]["name"] == "nim"
    checked = arena("check-record", "--rules", RULES, *(str(p) for p in sorted((logs / "games").iterdir())))
    assert checked.exit_code == 0, checked.output
    three = arena("sprt", "--rules", RULES, BOTS["nim_perfect"], BOTS["nim_random"], "--players", "3",
                  "--logs", str(tmp_path / "three"))
    assert three.exit_code == 2 and "games of two seats, and nim is set for 3" in three.output.splitlines()[-1]


def test_a_broken_referee_is_a_usage_error_naming_it() -> None:
    result = arena("perft", "--rules", " ".join(hostile_argv("garbage", 1)), "--depth", "1")
    assert result.exit_code == 2
    assert "--rules" in result.output and "hostile.py garbage 1 --nim " in result.output
    assert "': info: the reply is not JSON" in result.output
    missing = arena("perft", "--rules", "/no/such/referee", "--depth", "1")
    assert missing.exit_code == 2 and "not found" in missing.output


def test_the_conformance_check_takes_a_referee() -> None:
    done = subprocess.run([sys.executable, "-m", "arena.games.conformance", "--rules", RULES, "--games", "5"],
                          check=False, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("nim: ok, 5 random games for each of [2, 3] players")


def nim_config(folder: Path, rules: str, **extra: Any) -> Path:
    obj = {"id": "nim-rr", "rules": rules, "tournamentType": "roundRobin", "gamesPerPair": 2,
           "timeLimit": 20000, "seed": 3, "concurrency": 1,
           "agents": [{"id": name, "path": command} for name, command in BOTS.items()], **extra}
    path = folder / "nim.json"
    path.write_text(json.dumps(obj))
    return path


def test_a_tournament_of_an_external_game(tmp_path: Path) -> None:
    (tmp_path / "referees").mkdir()
    shutil.copy(NIM, tmp_path / "referees" / "nim.py")
    config = nim_config(tmp_path, f"{sys.executable} referees/nim.py")  # resolved against the config's folder
    result = arena("run", str(config), "--logs", str(tmp_path / "logs"))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "logs" / "nim-rr"
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    written = json.loads((folder / "config.json").read_text())
    assert written["game"] == "nim" and written["rulesCommand"] == [sys.executable, str(tmp_path / "referees" / "nim.py")]
    checked = arena("check-logs", "--rules", f"{sys.executable} {tmp_path / 'referees' / 'nim.py'}", str(folder))
    assert checked.exit_code == 0, checked.output


def test_a_referee_that_keeps_crashing_stops_the_run_and_a_resumed_run_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "ARENA_ERROR_PAUSE_S", 0.0)
    flag = tmp_path / "crash-now"
    flag.touch()
    # Nim until its 6th request (a few plies into the first game), then a crash, in every process.
    config = nim_config(tmp_path, " ".join(hostile_argv("crash", 6, "--while", str(flag))))
    result = arena("run", str(config), "--logs", str(tmp_path / "logs"))
    assert result.exit_code == 1
    replays = [line for line in result.stderr.splitlines() if "arena_error, played again: rules program" in line]
    assert len(replays) == 2, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("arena: error:")]
    assert len(errors) == 1, result.stderr
    assert "rules program" in errors[0] and "hostile.py crash 6" in errors[0] and "exited with status 3" in errors[0]
    assert "failed 3 times for arena's reasons" in errors[0] and "deliberate crash" in errors[0]
    games = tmp_path / "logs" / "nim-rr" / "games.jsonl"
    assert not games.exists() or games.read_text() == ""  # nothing recorded for it
    flag.unlink()
    again = arena("run", str(config), "--logs", str(tmp_path / "logs"))
    assert again.exit_code == 0, again.output
    assert sorted(json.loads(line)["index"] for line in games.read_text().splitlines()) == [0, 1]


def test_a_match_whose_referee_fails_ends_with_one_line() -> None:
    result = arena("match", "--rules", " ".join(hostile_argv("error", 5)), BOTS["nim_perfect"], BOTS["nim_random"])
    assert result.exit_code == 1
    assert "hostile.py error 5 --nim " in result.stderr
    assert "': apply: the referee answered an error: deliberate refusal" in result.stderr
