"""`arena pass-through`, `arena --json-pass-through`, `arena moves`, `arena perft` through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from arena.cli import cli

START = "oooooooo................xxxxxxxxoooooooo................xxxxxxxx"
SEED_PASS_THROUGH = """{
"turn": {
"passive": {"origin": {"x": 6, "y": 7}, "heading": {"x": 0, "y": -1}},
"aggressive": {"origin": {"x": 3, "y": 3}, "heading": {"x": 0, "y": -1}}
},
"game_state": {
"board": "oooooooo................xxxxxxxxoooooooo................xxxxxxxx",
"turn": "BLACK",
"turnNumber": 0
}
}
"""
# Worked out by hand: (6,7) -> (6,6) on the bottom-right board, (3,3) -> (3,2) on the top-left.
SEED_NEXT = {
    "board": "oooooooo" "........" "...x...." "xxx.xxxx" "oooooooo" "........" "......x." "xxxxxx.x",
    "turn": "WHITE",
    "turnNumber": 1,
}
CHECKERS_START = [
    ". b . b . b . b", "b . b . b . b .", ". b . b . b . b", ". . . . . . . .",
    ". . . . . . . .", "w . w . w . w .", ". w . w . w . w", "w . w . w . w .",
]


def invoke(args: list[str], stdin: str | bytes = "") -> tuple[int, list[str], str]:
    result = CliRunner().invoke(cli, args, input=stdin, catch_exceptions=False)
    out_lines = [line for line in result.stdout.splitlines() if line.strip()]
    return result.exit_code, out_lines, result.stderr


def turn(passive: tuple[int, int], aggressive: tuple[int, int], heading: tuple[int, int]) -> dict:
    def part(o: tuple[int, int]) -> dict:
        return {"origin": {"x": o[0], "y": o[1]}, "heading": {"x": heading[0], "y": heading[1]}}
    return {"passive": part(passive), "aggressive": part(aggressive)}


def test_seed_pass_through_example_both_spellings() -> None:
    for args in (["--json-pass-through"], ["pass-through", "--game", "shobu"], ["pass-through"]):
        code, lines, _ = invoke(args, SEED_PASS_THROUGH)
        assert code == 0
        assert [json.loads(x) for x in lines] == [SEED_NEXT]


def test_many_objects_give_one_line_each_in_order() -> None:
    state = {"board": START, "turn": "BLACK", "turnNumber": 0}
    good = {"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": state}
    illegal = {"turn": turn((0, 3), (4, 3), (0, -1)), "game_state": state}  # (0,3) is not BLACK's home board
    stdin = "\n".join(json.dumps(o) for o in [good, illegal, good]) + "\n" + SEED_PASS_THROUGH
    code, lines, _ = invoke(["pass-through"], stdin)
    out = [json.loads(x) for x in lines]
    assert out[0] == SEED_NEXT and out[2] == SEED_NEXT and out[3] == SEED_NEXT
    assert out[1]["error"] == "illegal_move" and out[1]["reason"]
    assert code == 1


def test_seed_engine_bug_is_not_copied_landing_square_stone_pushed_one() -> None:
    # Black 2-step aggressive move (4,7)->(4,5) on Q3 with a white stone on (4,5): pushed to (4,4).
    board = list("." * 64)
    for x, y, c in [(0, 7, "x"), (4, 7, "x"), (4, 5, "o"), (7, 4, "o"), (3, 0, "o"), (0, 0, "x"),
                    (7, 0, "x"), (5, 1, "o"), (3, 4, "o"), (2, 2, "o")]:
        board[x + 8 * y] = c
    state = {"board": "".join(board), "turn": "BLACK", "turnNumber": 4}
    code, lines, _ = invoke(["pass-through"], json.dumps({"turn": turn((0, 7), (4, 7), (0, -2)), "game_state": state}))
    assert code == 0, lines
    after = json.loads(lines[0])["board"]
    assert after[4 + 8 * 5] == "x" and after[4 + 8 * 4] == "o" and after[4 + 8 * 7] == "."


BAD_INPUTS = {
    "truncated": '{"turn": {"passive": ',
    "not json": "hello",
    "array": "[1, 2]",
    "extra key": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": {"board": START, "turn": "BLACK", "turnNumber": 0}, "x": 1}),
    "63 chars": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": {"board": START[:63], "turn": "BLACK", "turnNumber": 0}}),
    "float coordinate": json.dumps({"turn": turn((6.5, 7), (3, 3), (0, -1)), "game_state": {"board": START, "turn": "BLACK", "turnNumber": 0}}),
    "string coordinate": json.dumps({"turn": turn(("6", 7), (3, 3), (0, -1)), "game_state": {"board": START, "turn": "BLACK", "turnNumber": 0}}),
    "lower-case colour": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": {"board": START, "turn": "black", "turnNumber": 0}}),
    "negative turnNumber": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": {"board": START, "turn": "BLACK", "turnNumber": -1}}),
    "missing game_state": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1))}),
    "board not a string": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": {"board": 5, "turn": "BLACK", "turnNumber": 0}}),
    "bad char": json.dumps({"turn": turn((6, 7), (3, 3), (0, -1)), "game_state": {"board": "z" + START[1:], "turn": "BLACK", "turnNumber": 0}}),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_malformed_input_is_one_line_exit_2(name: str) -> None:
    # --game given: without it a line names the default game (test_the_rules_tools_and_openings_...).
    code, lines, err = invoke(["pass-through", "--game", "shobu"], BAD_INPUTS[name])
    assert code == 2
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert out["error"] == "malformed_input" and out["reason"]
    err_lines = [x for x in err.splitlines() if x.strip()]
    assert len(err_lines) == 1 and "Traceback" not in err


def test_empty_input_is_an_error() -> None:
    code, lines, err = invoke(["pass-through"], "")
    assert code == 2 and lines == [] and "no input" in err


def test_malformed_object_does_not_stop_the_stream() -> None:
    stdin = BAD_INPUTS["63 chars"] + "\n" + SEED_PASS_THROUGH
    code, lines, _ = invoke(["pass-through"], stdin)
    assert code == 2
    assert json.loads(lines[0])["error"] == "malformed_input"
    assert json.loads(lines[1]) == SEED_NEXT


def test_checkers_pass_through_and_moves() -> None:
    state = {"board": CHECKERS_START, "turn": "BLACK", "turnNumber": 0}
    code, lines, _ = invoke(["pass-through", "--game", "checkers"], json.dumps({"turn": "2 3 2 2 3", "game_state": state}))
    assert code == 0
    nxt = json.loads(lines[0])
    assert nxt["turn"] == "WHITE" and nxt["turnNumber"] == 1
    assert nxt["board"][2] == ". b . . . b . b" and nxt["board"][3] == ". . b . . . . ."
    code, lines, _ = invoke(["moves", "--game", "checkers"], json.dumps(state))
    assert code == 0
    moves = json.loads(lines[0])
    assert len(moves) == 7 and "2 3 2 2 3" in moves
    # board lines without spaces are accepted too
    compact = {"board": [line.replace(" ", "") for line in CHECKERS_START], "turn": "BLACK", "turnNumber": 0}
    assert json.loads(invoke(["moves", "--game", "checkers"], json.dumps(compact))[1][0]) == moves


def test_checkers_illegal_and_malformed_paths() -> None:
    state = {"board": CHECKERS_START, "turn": "BLACK", "turnNumber": 0}
    code, lines, _ = invoke(["pass-through", "--game", "checkers"],
                            json.dumps({"turn": "2 3 2 3 3", "game_state": state}) + "\n"
                            + json.dumps({"turn": "2 3 2 x 3", "game_state": state}))
    assert [json.loads(x)["error"] for x in lines] == ["illegal_move", "malformed_input"]
    assert code == 2


def test_shobu_moves_from_start() -> None:
    for colour in ("BLACK", "WHITE"):
        code, lines, _ = invoke(["moves"], json.dumps({"board": START, "turn": colour, "turnNumber": 0}))
        assert code == 0
        moves = json.loads(lines[0])
        assert len(moves) == 232
        assert set(moves[0]) == {"passive", "aggressive"}


@pytest.mark.parametrize("game,depth,nodes", [("checkers", 4, 1469), ("shobu", 1, 232)])
def test_perft_json_and_divide(game: str, depth: int, nodes: int) -> None:
    code, lines, _ = invoke(["perft", "--game", game, "--depth", str(depth), "--json"])
    assert code == 0
    out = json.loads(lines[0])
    assert (out["game"], out["depth"], out["nodes"]) == (game, depth, nodes) and out["seconds"] >= 0
    code, lines, _ = invoke(["perft", "--game", game, "--depth", str(depth), "--divide", "--json"])
    assert sum(json.loads(lines[0])["divide"].values()) == nodes


def test_perft_from_state_inline_and_streamed() -> None:
    state = json.dumps({"board": CHECKERS_START, "turn": "BLACK", "turnNumber": 0})
    code, lines, _ = invoke(["perft", "--game", "checkers", "--depth", "3", "--state", state, "--json"])
    assert code == 0 and json.loads(lines[0])["nodes"] == 302
    code, lines, _ = invoke(["perft", "--game", "checkers", "--depth", "2", "--state", "-"], state + state)
    assert code == 0 and [json.loads(x)["nodes"] for x in lines] == [49, 49]
    code, _, err = invoke(["perft", "--game", "checkers", "--depth", "2", "--state", '{"board": []}'])
    assert code == 2 and "Traceback" not in err


def test_bad_cli_arguments_exit_2() -> None:
    for args in (["perft", "--depth", "-1"], ["perft", "--game", "chess", "--depth", "1"], ["perft"],
                 ["moves", "--game", "go"], ["--json-pass-through", "moves"]):
        result = CliRunner().invoke(cli, args, input="")
        assert result.exit_code == 2, (args, result.output)


def test_pass_through_as_a_real_process_has_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "arena", "--json-pass-through"],
                          input=b'{"turn": {"passive": 1}, "game_state": {}}\n\xff\xfe garbage\n',
                          capture_output=True, check=False, timeout=60)
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    assert len(proc.stdout.splitlines()) == 2


def test_the_rules_tools_and_openings_announce_the_default_game_and_a_given_one_is_silent() -> None:
    code, out, err = invoke(["perft", "--depth", "1"])
    assert code == 0 and out[0].startswith("perft(1) = 232"), err
    assert "arena: shobu, the default game; --game NAME chooses another (see 'arena games')" in err
    code, out, err = invoke(["perft", "--depth", "1", "--game", "checkers"])
    assert code == 0 and out[0].startswith("perft(1) = 7") and "default game" not in err
    code, out, err = invoke(["openings", "--plies", "1", "--count", "1", "--depth", "1"])
    assert code == 0 and len(out) == 1 and "arena: shobu, the default game" in err


def test_a_game_of_seats_refused_where_two_players_are_needed_names_what_plays_it_sprt_included() -> None:
    proc = subprocess.run([sys.executable, "-m", "arena", "openings", "--rules", f"{sys.executable} examples/referees/nim.py"],
                          capture_output=True, text=True, check=False, timeout=120)
    err = proc.stderr
    assert proc.returncode != 0 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "nim is a game of 2 to 3 players" in err and "arena sprt (set for 2 players)" in err
    assert "opening books" in err and "SPRT and the learners play two-player games" not in err
