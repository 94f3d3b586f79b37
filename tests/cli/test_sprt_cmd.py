"""`arena sprt`: exit statuses, the per-pair lines, --json, and one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.sprt_cmd import sprt_command
from arena.games.registry import game_names

GAME = next(name for name in game_names() if name.startswith("connect"))
RANDOM = "python3 bots/connect4_random.py"
GREEDY = "python3 bots/connect4_greedy.py"
KUHN = ("python3 bots/kuhn_poker_heuristic.py", "python3 bots/kuhn_poker_random.py --seed 1")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(sprt_command, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_identical_bots_stop_undecided_with_exit_4(tmp_path: Path) -> None:
    logs = str(tmp_path / "logs")
    code, out, err = run(RANDOM, RANDOM, "--game", GAME, "--max-pairs", "3", "--logs", logs, "--json")
    assert code == 4, err
    lines = err.splitlines()
    assert lines[0].startswith("connect4_random-1 (NEW) against connect4_random-2 (OLD)")
    lines = lines[1:]
    assert [line.split(":")[0] for line in lines[:3]] == ["pair 1", "pair 2", "pair 3"]
    assert "LLR" in lines[0] and "penta [" in lines[0] and "LOS" in lines[0]
    assert lines[-1].startswith("stopped undecided")
    data = json.loads(out)
    assert data["pairs"] == 3 and data["stopped"] == "max-pairs" and data["verdict"] == "continue"
    # Running it again resumes: nothing left to play, same verdict.
    code, out, err = run(RANDOM, RANDOM, "--game", GAME, "--max-pairs", "3", "--logs", logs, "--json")
    assert code == 4 and json.loads(out)["pairs"] == 3 and "resuming" in err
    code, _, err = run(RANDOM, RANDOM, "--game", GAME, "--max-pairs", "3", "--logs", logs, "--alpha", "0.1")
    assert code == 2 and "other settings" in err and err.count("\n") == 1


def test_stronger_bot_is_accepted_with_exit_0(tmp_path: Path) -> None:
    code, out, err = run(GREEDY, RANDOM, "--game", GAME, "--elo1", "200", "--concurrency", "4",
                         "--opening-plies", "2", "--logs", str(tmp_path / "l"), "--json")
    assert code == 0, err
    assert "H1 accepted" in err.splitlines()[-1]
    assert json.loads(out)["verdict"] == "H1"


def test_bad_book_is_a_one_line_usage_error(tmp_path: Path) -> None:
    book = tmp_path / "book.jsonl"
    book.write_text('{"moves": [3]}\n{"moves": [3, "x"]}\n')
    code, out, err = run(RANDOM, RANDOM, "--game", GAME, "--openings", str(book), "--logs", str(tmp_path / "l"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "book.jsonl line 2: move 2" in err
    assert not (tmp_path / "l").exists()


def test_usage_errors(tmp_path: Path) -> None:
    logs = ["--logs", str(tmp_path / "l"), "--game", GAME]
    assert run(RANDOM, RANDOM, "--elo0", "5", "--elo1", "5", *logs)[0] == 2
    assert run(RANDOM, RANDOM, "--elo1", "1000", *logs)[0] == 2
    assert run(RANDOM, "no_such_program_xyz", *logs)[0] == 2
    book = tmp_path / "b.jsonl"
    book.write_text('{"moves": [3]}\n')
    assert run(RANDOM, RANDOM, "--openings", str(book), "--opening-plies", "2", *logs)[0] == 2


def test_help_documents_the_exit_statuses() -> None:
    result = CliRunner().invoke(sprt_command, ["--help"])
    assert result.exit_code == 0
    for line in ("0    H1 accepted", "3    H0 accepted", "4    stopped undecided", "130  interrupted"):
        assert line in result.output


def test_the_pair_line_shows_both_models_and_unbounded_estimates() -> None:
    from arena.cli.sprt_cmd import pair_line
    from arena.stats.sprt import summary

    line = pair_line(50, 1.5, summary([3, 10, 20, 12, 5], elo0=0, elo1=5, alpha=0.05, beta=0.05, model="normalized"))
    assert line == ("pair 50: 1.5  LLR 0.11 [-2.94, 2.94]  nElo +29 ± 68  Elo +21 ± 50  LOS 79%  even 40%  "
                    "penta [3,10,20,12,5]")
    won = pair_line(3, 2, summary([0, 0, 0, 0, 3], elo0=0, elo1=5, alpha=0.05, beta=0.05, model="logistic"))
    assert "nElo +inf  Elo +inf  LOS 100%" in won


def test_kuhn_poker_of_two_seats_stops_resumes_and_its_records_check_out(tmp_path: Path) -> None:
    from arena.cli.check_cmds import check_record_command

    logs = tmp_path / "kuhn"
    # elo1 100 cannot be decided in 3 pairs (|LLR| <= 1.42): the pair cap stops it.
    args = [*KUHN, "--game", "kuhn_poker", "--players", "2", "--elo1", "100", "--seed", "4", "--concurrency", "2",
            "--logs", str(logs), "--json"]
    code, out, err = run(*args, "--max-pairs", "2")
    assert code == 4, err
    assert err.splitlines()[0].startswith("kuhn_poker_heuristic (NEW) against kuhn_poker_random (OLD), kuhn_poker")
    assert json.loads(out)["pairs"] == 2
    # Cut short between the two records of pair 1: that pair is played again, pair 0 is kept.
    (logs / "games" / "00003.json").unlink()
    code, out, err = run(*args, "--max-pairs", "3")
    assert code == 4, err
    assert "resuming" in err and "1 pairs already played" in err
    summary = json.loads(out)
    assert summary["pairs"] == 3 and sum(summary["pentanomial"]) == 3 and summary["seed"] == 4
    records = sorted(str(path) for path in (logs / "games").iterdir())
    assert len(records) == 6
    checked = CliRunner().invoke(check_record_command, records)
    assert checked.exit_code == 0, checked.output
    assert checked.output.count("1 record checks out") == 6


@pytest.mark.parametrize(("extra", "message"), [
    (["--players", "3"], "an SPRT decides between two bots from games of two seats, and kuhn_poker is set for 3"),
    (["--opening-plies", "2"], "--opening-plies and --openings choose a two-player opening: kuhn_poker"),
    (["--param", "cards=5"], "cards"),
])
def test_games_of_seats_refuse_more_than_two_seats_and_openings_in_one_line(
        tmp_path: Path, extra: list[str], message: str) -> None:
    code, out, err = run(*KUHN, "--game", "kuhn_poker", *extra, "--logs", str(tmp_path / "l"))
    error = err.splitlines()[-1]  # click's usage lines, then the error on one line
    assert code == 2 and out == "" and error.startswith("Error: ") and message in error, err
    assert not (tmp_path / "l").exists()


def test_options_of_games_of_seats_are_refused_for_a_two_player_game(tmp_path: Path) -> None:
    logs = ["--logs", str(tmp_path / "l"), "--game", GAME]
    code, _, err = run(RANDOM, RANDOM, "--legal-moves", *logs)
    assert code == 2 and "two-player game" in err
    code, _, err = run(RANDOM, RANDOM, "--players", "3", *logs)
    assert code == 2 and "game of 2 players, not 3" in err
    assert not (tmp_path / "l").exists()


def test_without_a_game_sprt_chooses_it_as_match_does_and_says_so(tmp_path: Path) -> None:
    # The commands name connect4: no --game needed, and a line says which game and why.
    code, out, err = run(RANDOM, RANDOM, "--max-pairs", "1", "--logs", str(tmp_path / "named"), "--json")
    assert code == 4, err
    assert "arena: playing connect4, the game the bots' commands name; --game NAME plays another" in err
    assert json.loads(out)["pairs"] == 1
    assert "connect4" in err.splitlines()[1]  # the run's first line names the game it plays
    # Bot folders whose bot.json declares the game: that game, though the commands name none.
    for name in ("new", "old"):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "bot.py").write_text(Path("bots/connect4_random.py").read_text())
        (folder / "bot.json").write_text(json.dumps({"command": "python3 bot.py", "game": GAME}))
    code, out, err = run(str(tmp_path / "new"), str(tmp_path / "old"), "--max-pairs", "1",
                         "--logs", str(tmp_path / "declared"), "--json")
    assert code == 4, err
    assert f"{GAME}" in err.splitlines()[0] and "arena: playing" not in err
    # Nothing to go by: shobu, the default game, announced (never silently).
    code, out, err = run("python3 bots/bot1.py", "bots/bot2", "--max-pairs", "1", "--max-moves", "4",
                         "--logs", str(tmp_path / "default"), "--json")
    assert code == 4, err
    assert "arena: playing shobu, the default game; --game NAME plays another (see 'arena games')" in err
