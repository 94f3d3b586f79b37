"""`arena match` with three and four bots in a game of the general model: records, seats that
rotate, a crashed and a timed-out bot eliminated while the game goes on, usage errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli

REPO = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {REPO / 'bots' / 'goofspiel_random.py'} --seed 1"
HEURISTIC = f"{sys.executable} {REPO / 'bots' / 'goofspiel_heuristic.py'}"
CRASH = f"{sys.executable} -c 'import sys; sys.stdin.readline(); sys.exit(3)'"
SILENT = f"{sys.executable} -c 'import sys, time; sys.stdin.readline(); time.sleep(60)'"
FAST = ["--time-limit", "3000", "--move-time-limit", "1500", "--startup-time", "3000"]


def match(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["match", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_three_bots_play_goofspiel_with_rotating_seats() -> None:
    code, out, err = match(HEURISTIC, RANDOM, RANDOM, "--game", "goofspiel", "--param", "num_cards=4",
                           "--games", "3", "--seed", "7", "--legal-moves", *FAST)
    assert code == 0, err
    records = json.loads(out)
    assert [r["game_identity"] for r in records] == [{"name": "goofspiel", "players": 3,
                                                     "params": {"num_cards": 4}}] * 3
    seat_of_first = [[s["id"] for s in r["seats"]].index("goofspiel_heuristic") for r in records]
    assert seat_of_first == [0, 1, 2]
    assert all(sorted(r["ranks"]) == sorted(r["ranks"]) and min(r["ranks"]) == 1 for r in records)
    # Numbered as the records (game_index) and `arena replay --game N` number them, from 0.
    assert [line.split(":")[0] for line in err.splitlines() if line.startswith("[")] == [
        "[1/3] game 0", "[2/3] game 1", "[3/3] game 2"]
    assert "average rank:" in err
    # The same seed deals the same prizes.
    again = json.loads(match(HEURISTIC, RANDOM, RANDOM, "--game", "goofspiel", "--param", "num_cards=4",
                             "--games", "3", "--seed", "7", *FAST)[1])
    chance = [[s["outcome"] for s in r["steps"] if s["kind"] == "chance"] for r in records]
    assert chance == [[s["outcome"] for s in r["steps"] if s["kind"] == "chance"] for r in again]


def test_four_bots_with_a_crash_and_a_timeout_play_on() -> None:
    code, out, err = match(RANDOM, CRASH, HEURISTIC, SILENT, "--game", "goofspiel", "--param", "num_cards=3",
                           "--seed", "2", *FAST)
    assert code == 0, err
    record = json.loads(out)
    out_seats = [(e["seat"], e["termination"]) for e in record["eliminations"]]
    assert out_seats == [(1, "crash"), (3, "timeout")]
    assert record["ranks"][1] == 4 and record["ranks"][3] == 3  # the later out ranks above the earlier
    assert max(record["ranks"][0], record["ranks"][2]) <= 2
    # Every round was played (the last one by the rules alone: each seat has one card left).
    bids = record["game_states"][-1]["bids"]
    assert len(bids) == 3 and all(b[1] == 0 and b[3] == 0 for b in bids)  # the seats out bid nothing
    assert "exited with code 3" in record["eliminations"][0]["reason"]


@pytest.mark.parametrize(("game", "params"), [("goofspiel", ["--param", "num_cards=5"]), ("leduc_poker", []),
                                             ("love_letter", ["--param", "tokens_to_win=2"])])
def test_three_and_four_bots_with_faults_in_every_kind_of_game(game: str, params: list[str]) -> None:
    """The issue's demonstration: a crashed and a timed-out bot among four, and three honest bots."""
    bots = REPO / "bots"
    heuristic = f"{sys.executable} {bots / f'{game}_heuristic.py'}"
    # Seeded: with an unseeded random bot, Love Letter's rounds could end every time before the
    # crashing bot was asked for a move (knocked out first), and it was never found out (once in CI).
    random_bot = f"{sys.executable} {bots / f'{game}_random.py'} --seed 1"
    code, out, err = match(heuristic, CRASH, random_bot, SILENT, "--game", game, *params, "--seed", "4", *FAST)
    assert code == 0, err
    record = json.loads(out)
    out = [(e["seat"], e["termination"]) for e in record["eliminations"]]
    assert sorted(out) == [(1, "crash"), (3, "timeout")]
    first_out, second_out = out[0][0], out[1][0]  # in the order the game asked them
    assert record["ranks"][first_out] == 4 and record["ranks"][second_out] == 3
    assert record["termination"] in ("win", "draw")
    code, out, err = match(heuristic, random_bot, random_bot, "--game", game, *params, "--seed", "5", *FAST)
    assert code == 0 and json.loads(out)["eliminations"] == [], err


@pytest.mark.parametrize(("args", "message"), [
    ([RANDOM, "--game", "connect4"], "connect4 is a game of 2 players, not 3"),
    ([RANDOM, "--game", "goofspiel", "--players", "4"], "4 players need 4 commands, got 3"),
    (["--game", "goofspiel", "--param", "num_cards"], "'num_cards' is not KEY=INTEGER"),
    (["--game", "goofspiel", "--param", "decks=2"], "unknown parameter 'decks'"),
    (["--game", "goofspiel", "--opening-plies", "2"], "choose a two-player opening"),
    ([RANDOM] * 9 + ["--game", "goofspiel"], "players must be 2 to 10, got 11"),
])
def test_usage_errors_are_one_line_with_exit_2(args: list[str], message: str) -> None:
    code, out, err = match(RANDOM, RANDOM, *args)
    assert code == 2 and message in err and "Traceback" not in err and out == "", err


def test_a_person_takes_a_seat_and_sees_only_their_own_card() -> None:
    import subprocess

    kuhn = f"{sys.executable} {REPO / 'bots' / 'kuhn_poker_random.py'}"
    done = subprocess.run([sys.executable, "-m", "arena", "match", "human", kuhn, kuhn, "--game", "kuhn_poker",
                           "--seed", "3"], input="nonsense\nbet\nbet\nbet\n", capture_output=True, text=True,
                          cwd=REPO, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["seats"][0]["kind"] == "player" and record["eliminations"] == []
    cards = record["game_states"][-1]["cards"]
    assert f"P0  card  {cards[0]}" in done.stderr
    assert "P1  card  ?" in done.stderr and "P2  card  ?" in done.stderr
    assert f"P1  card  {cards[1]}" not in done.stderr and f"P2  card  {cards[2]}" not in done.stderr
    assert "'nonsense'" in done.stderr  # a wrong entry is explained and asked again


def test_a_bot_built_on_serve_seats_plays_with_legal_moves(tmp_path: Path) -> None:
    bot = tmp_path / "seats_bot.py"
    bot.write_text(f"import random, sys\nsys.path.insert(0, {str(REPO)!r})\n"
                   "from arena.agents.protocol_io import serve_seats\n"
                   "sys.exit(serve_seats(lambda request: random.choice(request.legal_moves)))\n")
    bot.chmod(0o644)
    tmp_path.chmod(0o755)
    command = f"{sys.executable} {bot}"
    code, out, err = match(command, command, command, "--game", "leduc_poker", "--legal-moves", "--seed", "2", *FAST)
    assert code == 0, err
    assert json.loads(out)["eliminations"] == []


def test_pass_through_takes_each_kind_of_step_of_an_n_seat_game() -> None:
    """A chance outcome in its record form (a Kuhn card is a number, not a bet), a simultaneous
    step that must name every acting seat, and a step the rules do not take here."""
    kuhn = {"players": 2, "cards": [], "history": []}
    goof = {"numCards": 3, "players": 2, "prizes": [3], "bids": [], "eliminated": [],
            "hands": [[1, 2, 3], [1, 2, 3]], "points": [0, 0]}
    lines = [json.dumps({"game_state": kuhn, "chance": 2})]
    result = CliRunner().invoke(cli, ["pass-through", "--game", "kuhn_poker"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0 and json.loads(result.stdout) == {"players": 2, "cards": [2], "history": []}
    lines = [json.dumps({"game_state": goof, "turns": {"0": 3, "1": 1}}),
             json.dumps({"game_state": goof, "turns": {"0": 3}}),
             json.dumps({"game_state": goof, "chance": 1})]
    result = CliRunner().invoke(cli, ["pass-through", "--game", "goofspiel", "--param", "num_cards=3"],
                                input="\n".join(lines) + "\n")
    first, missing, chance = (json.loads(line) for line in result.stdout.splitlines())
    assert result.exit_code == 1 and first["bids"] == [[3, 1]]
    assert missing == {"error": "illegal_move", "reason": "the seats acting here are [0, 1], got moves for [0]"}
    assert chance == {"error": "illegal_move", "reason": "not a chance node here"}


def test_a_seat_waiting_for_more_input_is_out_with_the_wrong_game_hint() -> None:
    waits = f"{sys.executable} -c 'import sys; sys.stdin.readline(); sys.stdin.readline()'"
    # A minute's clock: with FAST's a plain timeout could come first on a loaded machine.
    code, out, err = match(waits, RANDOM, RANDOM, "--game", "goofspiel", "--param", "num_cards=3", "--seed", "2",
                           "--time-limit", "60000")
    assert code == 0, err
    (out_seat,) = json.loads(out)["eliminations"]
    assert (out_seat["seat"], out_seat["termination"]) == (0, "timeout"), out_seat
    assert "waiting for input it will not get" in out_seat["reason"] and "json-seats" in out_seat["reason"]
