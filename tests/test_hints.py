"""Hints in fault reasons (issue 11, item 5): an unflushed reply, another game's protocol or command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena.match.hints import FLUSH_HINT, command_hint, reply_hint, stdout_noise_hint, timeout_hint, waiting_hint

ROOT = Path(__file__).resolve().parents[1]
SHOBU_TURN = json.dumps({"type": "turn", "payload": {
    "passive": {"origin": {"x": 6, "y": 7}, "heading": {"x": 0, "y": -1}},
    "aggressive": {"origin": {"x": 3, "y": 3}, "heading": {"x": 0, "y": -1}}}}).encode()


def test_a_silent_timeout_suggests_flushing_and_a_partial_one_quotes_it() -> None:
    assert timeout_hint(b"") == FLUSH_HINT and "flush" in FLUSH_HINT
    assert "it had sent only '2 3 2'" in timeout_hint(b"2 3 2")
    assert timeout_hint(b"   ") == ""


def test_a_silent_timeout_after_good_replies_says_the_clock_ran_out() -> None:
    hint = timeout_hint(b"", 6)
    assert "its clock ran out while it was thinking (its 6 earlier replies arrived" in hint
    assert "did not flush" not in hint and "nothing at all arrived" not in hint
    assert "its 1 earlier reply arrived" in timeout_hint(b"", 1)


SLOW_AFTER_TWO = """import subprocess, sys, time
child = subprocess.Popen([sys.executable, {bot!r}], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for n, line in enumerate(sys.stdin):
    if n == 2:
        time.sleep(600)  # a search that forgot its clock: arena ends it long before
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
"""
CHATTY = """import sys
print("hello from my bot", flush=True)
sys.stdin.readline()
"""


def _play(tmp_path: Path, source: str, *options: str) -> dict[str, object]:
    bot = tmp_path / "mine.py"
    bot.write_text(source)
    out = subprocess.run([sys.executable, "-m", "arena", "match", "--json", "--game", "shobu", *options,
                          f"{sys.executable} {bot}", f"{sys.executable} bots/shobu_random.py"],
                         capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    record: dict[str, object] = json.loads(out.stdout)
    return record


def test_a_bot_whose_clock_runs_out_after_good_moves_is_told_so(tmp_path: Path) -> None:
    # The shipped bot beside the wrapper: a sandboxed bot sees its script's folder, not the checkout.
    inner = tmp_path / "shobu_random.py"
    inner.write_bytes((ROOT / "bots" / "shobu_random.py").read_bytes())
    record = _play(tmp_path, SLOW_AFTER_TWO.format(bot=str(inner)), "--time-limit", "2000")
    reason = str(record["reason"])
    assert record["termination"] == "timeout" and record["plies"] == 4, reason
    assert "its clock ran out while it was thinking (its 2 earlier replies arrived" in reason
    assert "nothing at all arrived" not in reason


def test_a_bot_that_greets_before_its_first_move_is_told_where_debug_output_belongs(tmp_path: Path) -> None:
    record = _play(tmp_path, CHATTY)
    reason = str(record["reason"])
    assert record["termination"] == "malformed_reply" and record["plies"] == 0, reason
    assert "Debug output belongs on stderr" in reason


def test_a_reply_in_another_games_protocol_names_that_game() -> None:
    assert reply_hint("checkers", SHOBU_TURN) == "; it reads as a shobu move: was --game shobu meant?"
    assert reply_hint("shobu", b"2 3 2 2 3") == "; it reads as a checkers move: was --game checkers meant?"
    assert reply_hint("shobu", b"hello") == ""
    assert reply_hint("nosuchgame", b"2 3 2 2 3") == ""


def test_a_command_that_names_another_game() -> None:
    assert command_hint("shobu", "python3 bots/checkers_random.py") == (
        "; its command names checkers: was --game checkers meant?")
    assert command_hint("checkers", "python3 bots/checkers_random.py") == ""
    assert command_hint("shobu", "./mybot") == "" and command_hint("shobu", None) == ""


def test_a_checkers_bot_playing_shobu_is_told_so() -> None:
    out = subprocess.run([sys.executable, "-m", "arena", "match", "--json", "--game", "shobu", f"{sys.executable} bots/checkers_random.py",
                          f"{sys.executable} bots/shobu_random.py"], capture_output=True, text=True, cwd=ROOT,
                         stdin=subprocess.DEVNULL, timeout=120, check=False)
    record = json.loads(out.stdout)
    assert record["termination"] == "crash", record["reason"]
    assert record["reason"].endswith("was --game checkers meant?"), record["reason"]


def test_a_malformed_reply_after_good_ones_points_at_stray_output() -> None:
    assert "Debug output belongs on stderr" in stdout_noise_hint(0)  # a greeting before the first move
    assert "its 1 earlier reply was fine" in stdout_noise_hint(1)
    assert "its 3 earlier replies were fine" in stdout_noise_hint(3) and "stderr" in stdout_noise_hint(3)


def test_a_bot_of_another_game_waiting_for_input_is_told_so_long_before_its_clock_runs_out() -> None:
    # A five-minute clock: the subprocess backstop (two minutes) fails the test if arena waits for it.
    out = subprocess.run([sys.executable, "-m", "arena", "match", "--json", "--game", "checkers", "--time-limit", "300000",
                          f"{sys.executable} bots/shobu_random.py", f"{sys.executable} bots/shobu_random.py"],
                         capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=120, check=False)
    record = json.loads(out.stdout)
    reason = record["reason"]
    assert record["termination"] == "timeout" and record["plies"] == 0, reason
    assert "read all of its input and then waited" in reason and "waiting for input it will not get" in reason
    # The wrong game first (what arena sent, the game its command names), then the flush.
    assert reason.index("another game or protocol") < reason.index("was --game shobu meant?") < reason.index("flushing")


def test_a_bot_waiting_for_input_is_asked_about_the_game_before_the_flush() -> None:
    hint = waiting_hint("checkers", "python3 bots/shobu_random.py")
    assert hint.index("another game or protocol") < hint.index("was --game shobu meant?") < hint.index("flushing")
    assert "arena sent it a checkers position in arena's checkers-lines protocol" in hint
    assert "(see 'arena games'). If not, it printed its move without flushing it" in waiting_hint("checkers", "./bot")
