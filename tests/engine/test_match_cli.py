"""`arena match`: output shapes, usage errors, the live view and Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner
from engine_support import assert_no_leftovers, bot_command
from helpers import eventually
from rich.console import Console

from arena.cli import cli
from arena.games import get_game
from arena.games.base import opening_seed, random_opening
from arena.ui.boards import render_board
from arena.ui.console import MatchView


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["match", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_one_game_prints_its_record(marker: str) -> None:
    code, out, err = _invoke(bot_command(marker, "shobu"), bot_command(marker, "shobu"),
                             "--game", "shobu", "--max-moves", "4", "--time-limit", "5000")
    assert code == 0, err
    record = json.loads(out)
    assert record["termination"] == "max_moves" and record["plies"] == 4
    assert [p["colour"] for p in record["players"]] == ["BLACK", "WHITE"]
    assert "draw [max_moves] after 4 plies" in err
    assert_no_leftovers(marker)


def test_several_games_alternate_colours_and_go_to_out(marker: str, tmp_path: Path) -> None:
    target = tmp_path / "sub" / "records.json"
    code, out, err = _invoke(bot_command(marker + "-a", "checkers"), bot_command(marker + "-b", "checkers", "crash", -1),
                             "--game", "checkers", "--games", "3", "--max-moves", "6", "--out", str(target),
                             "--seed", "5", "--opening-plies", "2")
    assert code == 0, err
    assert out == ""
    records = json.loads(target.read_text())
    assert len(records) == 3
    first_ids = [r["players"][0]["command"] for r in records]
    assert first_ids[0] == first_ids[2] != first_ids[1]
    assert [r["termination"] for r in records] == ["crash"] * 3
    # The crashing bot is CMD2: WHITE in games 1 and 3, BLACK in game 2.
    assert [r["winner"] for r in records] == ["BLACK", "WHITE", "BLACK"]
    # Records start at the true start; the 2 opening plies are the first turns, the same for a pair.
    assert records[0]["game_states"][0] == get_game("checkers").state_to_json(get_game("checkers").initial_state())
    assert records[0]["game_states"][2] == records[1]["game_states"][2]
    assert [t["opening"] for t in records[0]["turns"][:3]] == [True, True, False]
    # One seed scheme with tournaments: a record's seed is its pair's opening seed, which replays it.
    assert records[0]["seed"] == records[1]["seed"] == opening_seed(5, 0) != records[2]["seed"]
    assert records[0]["opening_plies"] == 2
    checkers = get_game("checkers")
    replayed = random_opening(checkers, 2, random.Random(records[2]["seed"]))
    assert checkers.state_to_json(replayed) == records[2]["game_states"][2]
    assert "result: " in err and "W-D-L 3-0-0" in err
    assert_no_leftovers(marker)


def test_missing_program_is_a_usage_error() -> None:
    code, out, err = _invoke("/no/such/bot", "python3 x.py", "--game", "shobu")
    assert code == 2 and out == ""
    assert "CMD1: program '/no/such/bot' not found (looked at /no/such/bot)" in err
    assert "Traceback" not in err


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(cli, ["match", "--help"])
    assert result.exit_code == 0 and "arena match \"python3 bots/shobu_greedy.py\"" in result.output


def test_live_view_draws_the_board_and_last_move(marker: str) -> None:
    from arena.games.registry import configured_game
    from arena.match.progress import GameEnded, GameStarted, StepPlayed
    from arena.players.spec import AgentSpec

    game = configured_game("checkers")
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100, color_system=None)
    view = MatchView(console, total_games=2)
    assert view.live_mode
    state = game.initial_state()
    specs = (AgentSpec("alpha"), AgentSpec("beta"))
    view(GameStarted(game, state, specs, 0))
    move = game.legal_moves(state, 0)[0]
    after = game.apply(state, move)
    step = {"ply": 0, "kind": "move", "seat": 0, "move": game.move_to_record(move), "charged_ms": 3.0,
            "clock_left_ms": 999.0}
    view(StepPlayed(game, step, game.describe_move(move), after, (999.0, 1000.0), specs, 0))
    record = {"players": [{"id": "alpha", "colour": "BLACK"}, {"id": "beta", "colour": "WHITE"}],
              "winner": "BLACK", "termination": "win", "plies": 1, "reason": "BLACK bot 'alpha' won by the rules"}
    view(GameEnded(game, after, record, 0))
    text = buffer.getvalue()
    assert "[1/2] game 0: checkers, alpha (BLACK) vs beta (WHITE)" in text
    assert f"ply 1: BLACK (alpha) played {game.describe_move(move)} in 3 ms" in text
    assert "[●" in text  # the last move, read from the step's record form, is marked on the board
    assert "clocks: BLACK 1.0s  WHITE 1.0s" in text
    assert "[1/2] game 0: BLACK (alpha) wins [win] after 1 plies" in text
    shobu = get_game("shobu")
    assert render_board(shobu, shobu.initial_state()).plain.count("○") == 16


def test_ctrl_c_stops_at_once_kills_bots_and_exits_130(marker: str, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    # CMD1 plays; CMD2 never answers its first move. Game 1 ends at the move cap before CMD2 has to
    # move; game 2 (CMD2 is BLACK) hangs until we press Ctrl-C.
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "match", bot_command(marker + "-good", "shobu"),
         bot_command(marker + "-silent", "shobu", "silent", 0), "--games", "3", "--max-moves", "1",
         "--stderr-dir", str(logs), "--quiet", "--game", "shobu"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        eventually(lambda: any(logs.glob("00001-black-*.log")))
        time.sleep(0.5)
        sent = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert took < 30.0  # at once: well before the silent bot's 60 s clock, even on a busy machine
    records = json.loads(out)
    assert len(records) == 1 and records[0]["termination"] == "max_moves"
    assert b"interrupted: 1 of 3 games finished" in err
    assert b"Traceback" not in err
    assert_no_leftovers(marker)


def test_ctrl_c_during_a_single_game_writes_nothing(marker: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "arena", "match", bot_command(marker + "-x", "shobu", "silent", 0),
         bot_command(marker + "-y", "shobu", "ignore_term", 0), "--quiet", "--game", "shobu"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        from engine_support import processes_matching

        eventually(lambda: processes_matching(marker + "-x", (proc.pid,))
                         and processes_matching(marker + "-y", (proc.pid,)), 20.0)
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert out == b""
    assert_no_leftovers(marker)


def test_human_keyword_plays_at_the_terminal_and_resigns_on_end_of_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "arena", "match", "human", f"{sys.executable} bots/checkers_random.py",
         "--game", "checkers"],
        input=b"?\n99-98\n11-15\n", capture_output=True, check=False, timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stderr.decode()[-500:]
    record = json.loads(proc.stdout)
    assert record["players"][0] == {**record["players"][0], "id": "human", "colour": "BLACK"}
    assert record["turns"][0]["pdn"] == "11-15"
    assert record["termination"] == "resign" and record["winner"] == "WHITE"
    assert "resigned" in record["reason"]
    err = proc.stderr.decode()
    assert "9-13" in err  # `?` listed the legal moves
    assert "Traceback" not in err


def test_on_a_terminal_the_records_are_saved_under_match_logs_not_printed(tmp_path: Path) -> None:
    import pty

    bot = f"{sys.executable} {Path(__file__).resolve().parents[2] / 'bots' / 'shobu_random.py'}"
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "arena", "match", "--game", "shobu", "--max-moves", "4", bot, bot],
                              stdout=follower, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              cwd=tmp_path, timeout=120, check=False)
    finally:
        os.close(follower)
        os.close(leader)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    saved = sorted((tmp_path / "match_logs").glob("*.json"))
    assert len(saved) == 1 and f"records: match_logs/{saved[0].name}" in err
    record = json.loads(saved[0].read_text())
    assert record["plies"] == 4 and record["termination"] == "max_moves"


def test_json_and_out_together_are_a_usage_error() -> None:
    code, out, err = _invoke("python3 a.py", "python3 b.py", "--game", "shobu", "--json", "--out", "x.json")
    assert code == 2 and out == "" and "--json prints the records on stdout" in err


def test_an_opening_book_gives_each_pair_its_position(tmp_path: Path) -> None:
    book = tmp_path / "book.jsonl"
    game = get_game("connect4")
    first = game.apply(game.initial_state(), 3)
    book.write_text(json.dumps(game.state_to_json(first)) + "\n" + json.dumps({"moves": [0, 6]}) + "\n")
    bot = f"{sys.executable} bots/connect4_random.py"
    code, out, err = _invoke(bot, bot, "--game", "connect4", "--games", "4", "--openings", str(book),
                             "--openings-order", "sequential")
    assert code == 0, err
    records = json.loads(out)
    starts = [r["game_states"][0]["turnNumber"] for r in records]
    assert starts == [1, 1, 2, 2]  # pair 0: the first line (1 ply), pair 1: the second (2 plies)
    assert records[0]["game_states"][0] == records[1]["game_states"][0] == game.state_to_json(first)
    book.write_text('{"moves": [0, 9]}\n')
    code, out, err = _invoke(bot, bot, "--game", "connect4", "--openings", str(book))
    assert code == 2 and "line 1: move 2 (9)" in err and "Traceback" not in err
    code, out, err = _invoke(bot, bot, "--game", "connect4", "--openings", str(book), "--opening-plies", "2")
    assert code == 2 and "--openings and --opening-plies" in err


def test_without_a_game_match_plays_the_game_the_commands_name_else_shobu_and_says_so() -> None:
    code, out, err = _invoke(f"{sys.executable} bots/checkers_random.py", f"{sys.executable} bots/checkers_greedy.py",
                             "--max-moves", "2")
    assert code == 0 and json.loads(out)["game"] == "checkers", err
    assert "arena: playing checkers, the game the bots' commands name; --game NAME plays another" in err
    code, out, err = _invoke(f"{sys.executable} bots/bot1.py", "bots/bot2", "--max-moves", "2")
    assert code == 0 and json.loads(out)["game"] == "shobu", err
    assert "arena: playing shobu, the default game; --game NAME plays another (see 'arena games')" in err


def test_a_bot_of_another_game_in_a_default_shobu_match_is_told_so_at_once(tmp_path: Path) -> None:
    # A checkers bot whose name says nothing: the match plays shobu, the bot dies on its first message.
    mybot = tmp_path / "mybot.py"
    mybot.write_text((Path(__file__).resolve().parents[2] / "bots" / "checkers_random.py").read_text())
    code, out, err = _invoke(f"{sys.executable} {mybot}", f"{sys.executable} bots/shobu_random.py",
                             "--time-limit", "300000")
    record = json.loads(out)
    assert code == 0 and record["game"] == "shobu" and record["plies"] == 0, err
    assert record["termination"] == "crash", record["reason"]
    assert "it died on arena's first message, a shobu position in arena's shobu-json protocol: if it is " \
           "a bot for another game, give --game" in record["reason"]


def test_bot_folders_declare_their_game_and_name_their_agents(tmp_path: Path) -> None:
    bots = Path(__file__).resolve().parents[2] / "bots"
    for name, game in (("alice", "checkers"), ("bob", "checkers"), ("carol", "shobu")):
        (tmp_path / name).mkdir()
        shutil.copy(bots / f"{game}_random.py", tmp_path / name)  # a bot folder holds what its bot.json names
        (tmp_path / name / "bot.json").write_text(json.dumps({"command": f"python3 {game}_random.py", "game": game}))
    code, out, err = _invoke(str(tmp_path / "alice"), str(tmp_path / "bob"), "--max-moves", "4")
    assert code == 0, err
    record = json.loads(out)
    assert record["game"] == "checkers" and [p["id"] for p in record["players"]] == ["alice", "bob"]
    code, out, err = _invoke(str(tmp_path / "alice"), str(tmp_path / "carol"), "--max-moves", "4")
    assert code == 2 and "the bots declare different games" in err and err.count("Error:") == 1, err
