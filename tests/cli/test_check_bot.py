"""`arena check-bot`: a good bot passes; an unflushed one, one that writes a debug line on stdout and
one that plays an illegal move in a corner case fail with the reason and a hint."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A checkers bot on arena's own rules; BEHAVIOUR selects how it goes wrong.
BOT = '''
import sys
sys.path.insert(0, {root!r})
from arena.games import get_game
from arena.games.checkers.rules import state_from_board
from arena.games.base import Color
game = get_game("checkers")
lines = (line.strip() for line in sys.stdin if line.strip())
next(lines)
colour = Color.BLACK if next(lines).lower() == "black" else Color.WHITE
asked = 0
for _left in lines:
    board = [next(lines) for _ in range(8)]
    state = state_from_board(board, colour, 2 * asked + (0 if colour is Color.BLACK else 1))
    asked += 1
    moves = game.legal_moves(state)
    reply = game.move_to_wire(moves[0])
    behaviour = {behaviour!r}
    if behaviour == "late" and asked > 6:
        reply = "2 0 0 1 1"  # fine in the short probes, wrong late in a whole game
    if behaviour == "illegal" and all(m.captured for m in moves):
        reply = "2 0 0 1 1"  # well formed, but no move at all when a capture is forced
    if behaviour == "noflush":
        sys.stdout.write(reply + "\\n")
        continue
    print(reply, flush=True)
    if behaviour == "debug":
        print("debug: that was my move", flush=True)
'''


def run_check(tmp_path: Path, behaviour: str, *extra: str) -> tuple[int, str]:
    bot = tmp_path / f"bot_{behaviour}.py"
    bot.write_text(BOT.format(root=str(ROOT), behaviour=behaviour))
    out = subprocess.run([sys.executable, "-m", "arena", "check-bot", f"{sys.executable} {bot}", "--game", "checkers",
                          "--games", "1", *extra], capture_output=True, text=True, cwd=ROOT,
                         stdin=subprocess.DEVNULL, timeout=300, check=False)
    assert "Traceback" not in out.stderr, out.stderr
    return out.returncode, out.stdout


def test_a_good_bot_passes_every_check(tmp_path: Path) -> None:
    code, out = run_check(tmp_path, "good")
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("checking 'bot_good' (") and lines[0].endswith("playing checkers"), lines[0]
    assert all(line.startswith("✓") for line in lines[1:-1]) and lines[-1].endswith("checks passed")
    for probe in ("playing WHITE", "a forced capture", "a capture of two or more pieces", "crowning"):
        assert any(probe in line for line in lines), probe


@pytest.mark.parametrize(("behaviour", "expected"), [
    ("noflush", "printed its move without flushing it"),
    ("debug", "'debug:"),
    ("illegal", "played an illegal move '2 0 0 1 1'"),
])
def test_a_broken_bot_fails_with_the_reason(tmp_path: Path, behaviour: str, expected: str) -> None:
    # A clock long enough for arena to look at a silent bot twice (half a second apart) before it runs out.
    code, out = run_check(tmp_path, behaviour, "--time-limit", "3000" if behaviour == "noflush" else "400")
    assert code == 1, out
    failed = [line for line in out.splitlines() if line.startswith("✗")]
    assert failed and any(expected in line for line in failed), out
    if behaviour == "debug":  # the hint says where such a line belongs
        # Written after its reply: read as the next reply if it comes after that turn's input,
        # else dropped (a reply cannot precede its question) and reported: failed either way.
        assert any("Debug output belongs on stderr" in line for line in failed), out
        assert any("sent a malformed move 'debug: that was my move'" in line
                   or "outside its replies, starting 'debug:thatwasmymove'" in line for line in failed), out
    if behaviour == "illegal":  # only where the corner case is: the start and quiet positions pass
        assert any(line.startswith("✓ playing WHITE") for line in out.splitlines())
    if behaviour in ("illegal", "noflush"):  # the same failure twice: the rest is not run
        assert len(failed) == 2, out
        assert any(line.startswith("· not run: stopped after the same failure") for line in out.splitlines()), out
    if behaviour == "noflush":  # asleep reading for more input: the wrong game is asked first
        assert "waiting for input" in failed[0] and failed[0].index("another game") < failed[0].index("flushing"), out


def test_json_report(tmp_path: Path) -> None:
    code, out = run_check(tmp_path, "good", "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["game"] == "checkers"
    assert {"name", "ok", "detail"} <= set(report["checks"][0])


def test_a_whole_game_failure_shows_the_ply_and_the_position(tmp_path: Path) -> None:
    code, out = run_check(tmp_path, "late", "--time-limit", "2000")
    assert code == 1, out
    lines = out.splitlines()
    failed = [i for i, line in enumerate(lines) if line.startswith("✗")]
    assert [lines[i].split(":")[0] for i in failed] == ["✗ a whole game as BLACK against random"], out
    where = lines[failed[0] + 1]
    assert where.startswith("  at ply ") and where.endswith(", the position:"), out
    board = lines[failed[0] + 2:failed[0] + 10]
    assert all(line.startswith("    ") for line in board) and any("b" in line.lower() for line in board), out


def test_a_bot_folder_is_named_by_its_folder_and_declares_its_game(tmp_path: Path) -> None:
    folder = tmp_path / "alice"
    folder.mkdir()
    # A roster bot: its own files only (it sees its folder, not the checkout), a program arena resolves.
    (folder / "main.py").write_bytes((ROOT / "bots" / "checkers_random.py").read_bytes())
    (folder / "bot.json").write_text(json.dumps({"command": "python3 main.py", "game": "checkers"}))
    out = subprocess.run([sys.executable, "-m", "arena", "check-bot", str(folder), "--games", "0", "--json"],
                         capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=300, check=False)
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["id"] == "alice" and report["game"] == "checkers", out.stderr


def test_without_a_game_it_checks_the_game_its_command_names_and_says_so() -> None:
    out = subprocess.run([sys.executable, "-m", "arena", "check-bot", f"{sys.executable} bots/checkers_random.py",
                          "--games", "0", "--json"],
                         capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=300, check=False)
    assert json.loads(out.stdout)["game"] == "checkers", out.stderr
    assert "arena: playing checkers, the game the bots' commands name" in out.stderr
