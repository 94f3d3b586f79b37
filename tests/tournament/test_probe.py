"""The roster probe reaches the middle game and the clock (issue 31): a bot that crashes on its 5th
move and one too slow for the time control are caught before the tournament; a passed probe is kept
per version, so an unchanged bot is not probed again, and a changed one is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games.registry import get_spec
from arena.tournament.probe import MIN_BOT_MOVES, pace_warning, typical_bot_moves

ROOT = Path(__file__).resolve().parents[2]
GREEDY = ROOT / "bots" / "connect4_greedy.py"

#: A Connect Four bot: the greedy bot's replies, passed through; ``CRASH_AT``: it dies instead of
#: giving its reply of that number (per game: each game starts it afresh); ``PAUSE``: seconds it
#: waits before each reply.
WRAPPER = """
import subprocess, sys, time
CRASH_AT, PAUSE = {crash_at}, {pause}
greedy = subprocess.Popen([sys.executable, {greedy!r}, "--seed", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True)
for number, line in enumerate(sys.stdin, 1):
    if number == CRASH_AT:
        sys.stderr.write("crashing on purpose on my move %d\\n" % number)
        sys.exit(3)
    greedy.stdin.write(line)
    greedy.stdin.flush()
    reply = greedy.stdout.readline()
    time.sleep(PAUSE)
    sys.stdout.write(reply)
    sys.stdout.flush()
"""


def bot(root: Path, name: str, *, crash_at: int = 0, pause: float = 0.0) -> str:
    path = root / f"{name}.py"
    # The greedy bot beside the wrapper: a sandboxed bot sees its script's folder, not the checkout.
    greedy = root / GREEDY.name
    greedy.write_bytes(GREEDY.read_bytes())
    path.write_text(WRAPPER.format(crash_at=crash_at, pause=pause, greedy=str(greedy)))
    return f"python3 {path}"


def config(root: Path, agents: dict[str, str], time_limit: int) -> Path:
    path = root / "class.json"
    path.write_text(json.dumps({"id": "class", "game": "connect4", "timeLimit": time_limit,
                                "agents": [{"id": k, "path": v} for k, v in agents.items()]}))
    return path


def probe(path: Path, logs: Path, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["roster", "check", str(path), "--probe", "--json", "--logs", str(logs), *extra],
                                catch_exceptions=False)
    data: dict[str, Any] = json.loads(result.output)
    return {entry["id"]: entry for entry in data["entries"]}


def test_a_crash_in_the_middle_game_fails_the_probe_and_a_good_bot_is_kept(tmp_path: Path) -> None:
    path = config(tmp_path, {"late": bot(tmp_path, "late", crash_at=5), "good": bot(tmp_path, "good")}, 60_000)
    logs = tmp_path / "logs"
    entries = probe(path, logs)
    late, good = entries["late"], entries["good"]
    assert not late["ok"] and "crash" in late["reason"] and "crashing on purpose on my move 5" in late["reason"]
    assert good["ok"] and not good["kept"], good["reason"]
    middle = [c for c in good["checks"] if "against arena's search agent" in c["name"]]
    assert middle and middle[-1]["ok"]
    # Unchanged: not probed again (a failure is). Changed: probed again.
    again = probe(path, logs)
    assert again["good"]["ok"] and again["good"]["kept"] and again["good"]["checks"] == good["checks"]
    assert not again["late"]["ok"] and not again["late"]["kept"]
    (tmp_path / "good.py").write_text((tmp_path / "good.py").read_text() + "\n# changed\n")
    assert not probe(path, logs)["good"]["kept"]
    assert probe(path, logs, "--again")["good"]["kept"] is False


def test_a_bot_too_slow_for_the_time_control_is_caught(tmp_path: Path) -> None:
    # 0.3 s a reply at least (a busy machine only makes it slower), about 10 replies in a typical
    # game of Connect Four: more than a 2 s budget whatever the machine.
    path = config(tmp_path, {"slow": bot(tmp_path, "slow", pause=0.3)}, 2000)
    obj = json.loads(path.read_text())
    obj["agents"].append({"id": "other", "type": "hyperparameters",  # not a program: not probed
                          "path": str(ROOT / "configs" / "hyperparameters_connect4.json")})
    path.write_text(json.dumps(obj))
    slow = probe(path, tmp_path / "logs")["slow"]
    assert "too slow for the time control" in (slow["warning"] or ""), slow


def test_the_pace_warning_compares_a_typical_game_with_the_budget() -> None:
    moves = typical_bot_moves(get_spec("connect4"))
    assert 5 <= moves <= 21  # half of a random game's 10-42 plies
    assert pace_warning([300.0] * 9, moves, 2000) is not None
    assert pace_warning([1.0] * 9, moves, 2000) is None
    assert pace_warning([], moves, 2000) is None
    assert MIN_BOT_MOVES > 5


@pytest.mark.parametrize("kind", ["kept", "fresh"])
def test_a_kept_probe_that_cannot_be_read_is_probed_again(tmp_path: Path, kind: str) -> None:
    from arena.tournament.probe import PROBES_FOLDER, keep_probe, kept_probe

    if kind == "kept":
        keep_probe(tmp_path, "k", {"checks": [], "warning": None})
        assert kept_probe(tmp_path, "k") == {"checks": [], "warning": None}
    else:
        (tmp_path / PROBES_FOLDER).mkdir()
        (tmp_path / PROBES_FOLDER / "k.json").write_text("{cut off")
        assert kept_probe(tmp_path, "k") is None
