"""`arena replay`: loading records and log folders, the piped text, the errors, the key logic, and
the full-screen viewer under a pseudo-terminal."""

from __future__ import annotations

import copy
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner
from helpers import as_format_1

from arena.cli.replay_cmd import replay_command
from arena.games.registry import configured_game, game_names, get_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.records.format import turn_move
from arena.records.replay import Replay
from arena.ui.replay_keys import Cursor, decode_keys
from arena.ui.replay_view import plain_text, render

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
MAX_MOVES = 12  # short games: a few dozen milliseconds of bots each


def _random_bot(name: str, seed: int) -> AgentSpec:
    return AgentSpec(f"{name}-random-{seed}", command=f"{sys.executable} {name}_random.py --seed {seed}",
                     cwd=str(BOTS))


def _games_with_random_bots() -> list[str]:
    return [name for name in game_names() if (BOTS / f"{name}_random.py").exists()]


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    """One short game per registered game (that has a random bot), two opening plies included."""

    async def play_all() -> dict[str, dict[str, Any]]:
        out = {}
        for name in _games_with_random_bots():
            out[name] = await play_game(configured_game(name), _random_bot(name, 1), _random_bot(name, 2),
                                        time_control=TimeControl(time_limit_ms=30_000), max_moves=MAX_MOVES,
                                        opening_plies=2, seed=7)
        return out

    return trio.run(play_all)


RESULTS = {"BLACK": "1-0", "WHITE": "0-1", "NONE": "1/2-1/2"}


def _write(path: Path, obj: Any) -> Path:
    path.write_text(json.dumps(obj))
    return path


def _run(*args: str) -> Any:
    return CliRunner().invoke(replay_command, list(args), catch_exceptions=False)


# -- piped output ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _games_with_random_bots())
def test_piped_output_of_each_game(name: str, records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    record = records[name]
    result = _run(str(_write(tmp_path / "record.json", record)))
    assert result.exit_code == 0, result.output
    out = result.output
    game = get_game(name)
    black, white = (p["id"] for p in record["players"])
    lines = out.splitlines()
    assert lines[0] == f"{name}: {black} (BLACK) vs {white} (WHITE)"
    assert lines[1].startswith("result: ") and f"[{record['termination']}] after {record['plies']} plies" in lines[1]
    assert f"reason: {record['reason']}" in lines
    assert "\x1b" not in out and all(line == line.rstrip() for line in lines)
    # Every move, in the game's notation, in order, numbered by full moves.
    notations = [game.describe_move(turn_move(game, t)) for t in record["turns"]]
    listing = lines[lines.index("") + 1:]
    listing = listing[:listing.index("")]
    cells = [cell.rstrip("*") for line in listing for cell in re.split(r"\s{2,}", line.split(" ", 1)[1])
             if cell != "..."]
    assert cells == notations
    ply = game.ply(game.state_from_json(record["game_states"][0]))
    assert listing[0].split()[0] in (f"{ply // 2 + 1}.", f"{ply // 2 + 1}...")
    # The final board is the game's own plain board.
    final = game.state_from_json(record["game_states"][-1])
    board = "\n".join(line.rstrip() for line in game.board_text(final).splitlines())
    assert board in out


def _format_1(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` as arena wrote it before complete records: no opening plies in turns (its states
    start after them), bare turns, ``plies`` counting the bots' moves only."""
    return as_format_1(record)


def test_complete_records_hold_the_opening_and_their_own_values(records: dict[str, dict[str, Any]]) -> None:
    for record in records.values():
        replay = Replay.from_record(record)
        assert replay.missing_opening == 0 and replay.starts_at_start()
        assert [s.opening for s in replay.steps[:3]] == [True, True, False]
        assert "the first 2 plies are a random opening" in plain_text(replay)
        for step, turn in zip(replay.steps, record["turns"], strict=True):
            assert step.notation == turn["notation"]
            assert step.charged_ms == (None if turn["charged_ms"] is None else {step.seat: turn["charged_ms"]})
            if turn["clock_left_ms"] is not None:
                assert step.clocks_ms is not None and step.clocks_ms[step.seat] == turn["clock_left_ms"]
        assert [s.label for s in replay.steps[:4]] == ["1.", "1...", "2.", "2..."]
        assert replay.move_lines()[0] == ("1.", [0, 1])


def test_format_1_records_replay_and_their_clocks_are_worked_out(records: dict[str, dict[str, Any]]) -> None:
    for record in records.values():
        old = _format_1(record)
        replay = Replay.from_record(old)
        new = Replay.from_record(record)
        assert replay.missing_opening == 2 and not any(s.opening for s in replay.steps)
        assert "starts after 2 random opening plies" in plain_text(replay)
        # Same moves, same notation, same numbers as the complete record's moves after the opening.
        assert [(s.label, s.notation) for s in replay.steps] == [(s.label, s.notation) for s in new.steps[2:]]
        assert [s.charged_ms for s in replay.steps] == [{s.seat: ms} for s, ms in zip(replay.steps, record["move_times_ms"], strict=True)]
        for mine, theirs in zip(replay.steps, new.steps[2:], strict=True):
            assert mine.clocks_ms == pytest.approx(theirs.clocks_ms, abs=0.01)
        assert replay.clocks_at(replay.last) == dict(enumerate(record["clocks_left_ms"]))
        assert plain_text(replay).split("\n\n")[-2:] == plain_text(new).split("\n\n")[-2:]  # final board, clocks


# -- log folders -------------------------------------------------------------------------------------


def _log_folder(tmp_path: Path, record: dict[str, Any], count: int = 3) -> Path:
    folder = tmp_path / "tournament_logs" / "t1"
    (folder / "games").mkdir(parents=True)
    rows = []
    for index in range(count):
        rec = copy.deepcopy(record)
        rec["game_index"] = index
        rec["players"][0]["id"], rec["players"][1]["id"] = f"a{index}", f"b{index}"
        _write(folder / "games" / f"{index:05d}.json", rec)
        rows.append(json.dumps({"index": index, "black": f"a{index}", "white": f"b{index}", "winner": rec["winner"],
                                "termination": rec["termination"], "plies": rec["plies"],
                                "record": f"games/{index:05d}.json"}))
    (folder / "games.jsonl").write_text("\n".join(rows) + "\n" + '{"index": 3, "bla')  # a cut-off last line
    return folder


def test_a_log_folder_game_by_index(records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    record = next(iter(records.values()))
    folder = _log_folder(tmp_path, record)
    result = _run(str(folder), "--game", "2")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == f"game 2, {record['game']}: a2 (BLACK) vs b2 (WHITE)"
    # Its games.jsonl names the same folder.
    assert _run(str(folder / "games.jsonl"), "--game", "1").output.splitlines()[0].startswith("game 1, ")


def test_a_log_folder_without_game_lists_its_games(records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    record = next(iter(records.values()))
    result = _run(str(_log_folder(tmp_path, record)))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["GAME", "BLACK", "WHITE", "RESULT", "TERMINATION", "PLIES"]
    assert [line.split()[:3] for line in lines[1:]] == [[str(i), f"a{i}", f"b{i}"] for i in range(3)]
    assert all(line == line.rstrip() for line in lines)
    assert "--game N" in result.stderr


def test_a_folder_of_one_game_replays_it(records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    folder = _log_folder(tmp_path, next(iter(records.values())), count=1)
    (folder / "games.jsonl").unlink()  # a copied games/ folder: read from the record files
    result = _run(str(folder))
    assert result.exit_code == 0 and result.output.startswith("game 0, ")


def test_a_folder_without_games_jsonl_lists_its_records(records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    """An `arena sprt` folder has games/ but no games.jsonl: the list comes from the records."""
    record = next(iter(records.values()))
    folder = _log_folder(tmp_path, record)
    (folder / "games.jsonl").unlink()
    (folder / "games" / "00002.json").write_text("{cut off")
    lines = _run(str(folder)).stdout.splitlines()
    result = RESULTS[record["winner"]]
    assert lines[1].split()[:5] == ["0", "a0", "b0", result, record["termination"]]
    assert lines[2].split()[:3] == ["1", "a1", "b1"] and lines[3].split()[:3] == ["2", "?", "?"]


# -- errors: one line, exit 2 ------------------------------------------------------------------------


def _error(args: list[str], expected: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("arena: error: ") and expected in result.stderr, result.stderr


def test_errors(records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    record = next(iter(records.values()))
    _error([str(tmp_path / "missing.json")], "no such file or folder")
    _error([str(_write(tmp_path / "x.json", {"hello": 1}))], "not a game record (no 'game', 'turns', 'game_states'")
    (tmp_path / "t.txt").write_text("not json at all\n")
    _error([str(tmp_path / "t.txt")], "not a game record (not JSON")
    (tmp_path / "empty").mkdir()
    _error([str(tmp_path / "empty")], "no games here")
    _error([str(_log_folder(tmp_path, record)), "--game", "7"], "no game 7 here; it holds games 0-2")
    _error([str(_write(tmp_path / "one.json", record)), "--game", "3"], "no game 3 here; it holds game 0")
    unknown = {**record, "game": "nosuchgame", "game_identity": {**record["game_identity"], "name": "nosuchgame"}}
    _error([str(_write(tmp_path / "u.json", unknown))], "unknown game 'nosuchgame'")
    bad_state = {**record, "game_states": [{"board": 5}] + record["game_states"][1:]}
    _error([str(_write(tmp_path / "s.json", bad_state))], "game_states[0] is not a")
    _error([str(_write(tmp_path / "m.json", {**record, "turns": [42] + record["turns"][1:]}))], "turns[0] is not a")


# -- keys ------------------------------------------------------------------------------------------


def test_cursor_follows_the_keys() -> None:
    cursor = Cursor(last=5)
    positions = []
    for key in ["n", "n", "p", "G", "right", "left", "home", "left", "end", "pageup", "pagedown", "g"]:
        assert cursor.press(key)
        positions.append(cursor.position)
    assert positions == [1, 2, 1, 5, 5, 4, 0, 0, 5, 0, 5, 0]
    assert cursor.press("z") and cursor.position == 0  # unknown keys do nothing
    assert not cursor.press("q") and not cursor.press("escape")


def test_autoplay_steps_stops_at_the_end_and_restarts() -> None:
    cursor = Cursor(last=2, playing=True)
    cursor.tick()
    assert (cursor.position, cursor.playing) == (1, True)
    cursor.press("n")  # a manual step keeps it running
    assert (cursor.position, cursor.playing) == (2, False)
    cursor.tick()
    assert cursor.position == 2
    cursor.press("space")  # at the end: from the start again
    assert (cursor.position, cursor.playing) == (0, True)
    cursor.press("space")
    assert not cursor.playing


def test_decode_keys() -> None:
    assert decode_keys(b"nn\x1b[C\x1b[D\x1bOH\x1b[4~ q") == (["n", "n", "right", "left", "home", "end", "space", "q"], b"")
    assert decode_keys(b"n\x1b[") == (["n"], b"\x1b[")  # cut between reads: kept for the next read
    assert decode_keys(b"\x1b") == ([], b"\x1b")
    assert decode_keys(b"\x1bx") == (["escape", "x"], b"")
    assert decode_keys(b"\x1b[5~\x1b[6~\x1b[99~") == (["pageup", "pagedown"], b"")


def test_render_fits_the_screen(records: dict[str, dict[str, Any]]) -> None:
    from rich.console import Console

    for record in records.values():
        replay = Replay.from_record(record)
        for width, height in ((120, 40), (60, 20)):
            console = Console(width=width, height=height, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
            for position in (0, 1, replay.last):
                lines = console.render_lines(render(replay, Cursor(replay.last, position), width, height),
                                             console.options.update(height=None), pad=False)
                if width >= 100:  # side by side: the move list is cut to fit (a tiny screen crops)
                    assert len(lines) <= height, (record["game"], width, position, len(lines))
            console.file.close()


# -- the viewer under a pseudo-terminal ----------------------------------------------------------------


def _run_in_pty(args: list[str], keys: list[bytes], then: int | None = None) -> tuple[int, bytes, list[Any], list[Any]]:
    """Run `arena replay ARGS` on a new pseudo-terminal, type ``keys`` one by one (then send signal
    ``then``); returns the exit status, everything it drew, and the terminal's modes before and after."""
    master, slave = pty.openpty()
    fcntl_winsize = struct.pack("HHHH", 40, 120, 0, 0)
    import fcntl

    fcntl.ioctl(slave, termios.TIOCSWINSZ, fcntl_winsize)
    before = termios.tcgetattr(slave)
    # As a shell would: its own session, the pty as controlling terminal (so Ctrl-C is a SIGINT).
    # SIGINT starts ignored, as in any job a script puts in the background (POSIX: `cmd &` without
    # job control): the viewer must still take the terminal's Ctrl-C (it did not, and this test
    # failed only when the suite itself ran in the background).
    code = ("import os, signal, sys; os.close(os.open(os.ttyname(0), os.O_RDWR)); "
            "signal.signal(signal.SIGINT, signal.SIG_IGN); "
            "from arena.cli.replay_cmd import replay_command; "
            "replay_command.main(sys.argv[1:], prog_name='arena replay')")
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdin=slave, stdout=slave, stderr=slave,
                            env=env, start_new_session=True, close_fds=True)
    drawn = bytearray()

    def drain(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    drawn.extend(os.read(master, 65536))
                except OSError:
                    return

    try:
        deadline = time.monotonic() + 60  # a backstop only: it takes well under a second
        while b"ply 0/" not in drawn and proc.poll() is None and time.monotonic() < deadline:
            drain(0.05)
        for key in keys:
            # Each key is answered (something drawn) before the next: on a busy machine keys typed
            # ahead would still be unread when a Ctrl-C, which the terminal turns into a signal at
            # once, arrives.
            size = len(drawn)
            os.write(master, key)
            answered = time.monotonic() + 10
            while len(drawn) == size and proc.poll() is None and time.monotonic() < answered:
                drain(0.05)
            drain(0.05)
        if then is not None:
            proc.send_signal(then)
        deadline = time.monotonic() + 60  # a backstop only, counted afresh: a busy machine is slow
        while proc.poll() is None and time.monotonic() < deadline:
            drain(0.05)
        drain(0.05)
        after = termios.tcgetattr(slave)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
        os.close(slave)
    return proc.returncode, bytes(drawn), before, after


@pytest.mark.parametrize(("keys", "status", "shown"), [
    ([b"n", b"n", b"p", b"G", b"q"], 0, ["ply 2/", "ply 1/", "result: "]),
    ([b"n", b"\x1b[C", b"\x03"], 130, ["ply 2/", "arena: interrupted"]),  # Right arrow, then Ctrl-C
    ([b" "], 143, ["autoplay"]),  # then SIGTERM
])
def test_the_viewer_under_a_pty_restores_the_terminal(keys: list[bytes], status: int, shown: list[str],
                                                      records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    record = next(iter(records.values()))
    path = _write(tmp_path / "record.json", record)
    code, drawn, before, after = _run_in_pty([str(path)], keys, signal.SIGTERM if status == 143 else None)
    assert code == status, drawn[-2000:]
    assert after == before  # echo, canonical mode, signals: as they were
    # The alternate screen was entered, and left after the last drawing; the cursor shown again.
    assert b"\x1b[?1049h" in drawn and drawn.rfind(b"\x1b[?1049l") > drawn.rfind(b"ply ")
    assert drawn.rfind(b"\x1b[?25h") > drawn.rfind(b"\x1b[?25l")
    text = drawn.decode("utf-8", "replace")
    for part in shown:
        assert part in text
    if status == 0:
        assert f"ply {record['plies']}/{record['plies']}" in text
    assert "Traceback" not in text


def test_piped_replay_imports_neither_rich_nor_trio(records: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    path = _write(tmp_path / "record.json", next(iter(records.values())))
    probe = ("import sys; from arena.cli.replay_cmd import replay_command\n"
             "try:\n    replay_command.main([sys.argv[1]], prog_name='arena replay')\n"
             "except SystemExit as exit:\n    code = exit.code\n"
             "sys.stderr.write('HEAVY=' + ','.join(sorted({m.split('.')[0] for m in sys.modules} & {'trio', 'rich'}))"
             " + ' CODE=' + str(code))")
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=False, timeout=120)
    assert out.stderr.endswith("HEAVY= CODE=0"), out.stderr
    assert out.stdout.startswith(next(iter(records)) + ": ")
