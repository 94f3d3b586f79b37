"""The plugin's own tests: arena's conformance check, the rules, the bot, the search adapter.

Run them from this folder with ``python -m pytest`` (the package need not be installed: the
pytest settings in pyproject.toml put this folder on the path).
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest
from arena_tictactoe import SPEC
from arena_tictactoe.rules import TicTacToe, TicTacToeState, cell_of, square_name
from arena_tictactoe.search import TicTacToeSearch
from arena_tictactoe.svg import board_svg

from arena.api import Color, IllegalMoveError, MoveSyntaxError, StateError, Termination, check_spec

GAME = TicTacToe()
BOT = Path(__file__).resolve().parent.parent / "bots" / "tictactoe_random.py"


def play(*squares: str) -> TicTacToeState:
    """The state after the moves written in notation (X first)."""
    state = GAME.initial_state()
    for square in squares:
        state = GAME.apply(state, GAME.parse_notation(square, state))
    return state


def test_arena_conformance_check_passes() -> None:
    report = check_spec(SPEC, games=300)
    assert report.endings.get("draw") and report.endings.get("win"), report.summary()
    assert report.adapter_states > 0, "the search adapter was compared with the rules"


def test_start_and_notation() -> None:
    state = GAME.initial_state()
    assert GAME.to_move(state) is Color.BLACK and GAME.ply(state) == 0
    assert GAME.legal_moves(state) == list(range(9))
    assert [square_name(i) for i in (0, 4, 8)] == ["a3", "b2", "c1"]
    assert cell_of(" B 2 ") == 4
    assert GAME.state_to_json(play("b2", "a1")) == {
        "board": ["...", ".x.", "o.."], "turn": "BLACK", "turnNumber": 2}


def test_three_in_a_row_wins_and_ends_the_game() -> None:
    state = play("a1", "a2", "b1", "b2", "c1")  # X: bottom row
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination is Termination.WIN
    assert outcome.winner is Color.BLACK and "a1-b1-c1" in outcome.reason
    assert GAME.legal_moves(state) == []
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.validate_move(state, cell_of("c3"))


def test_o_wins_on_a_diagonal() -> None:
    state = play("a1", "a3", "b1", "b2", "c2", "c1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner is Color.WHITE


def test_full_board_without_a_line_is_a_draw() -> None:
    state = play("b2", "a1", "c1", "a3", "a2", "c2", "b3", "b1", "c3")
    assert "." not in state.cells
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination is Termination.DRAW and outcome.winner is None
    assert GAME.legal_moves(state) == []


def test_bad_moves_are_refused_precisely() -> None:
    state = play("b2")
    with pytest.raises(IllegalMoveError, match="b2 is already taken by X"):
        GAME.play_wire(state, 4)
    for wire in (9, -1, "4", "b2", True, 4.0, None, [4]):
        with pytest.raises(MoveSyntaxError, match="cell number 0-8"):
            GAME.parse_move(wire)
    with pytest.raises(MoveSyntaxError, match="not a square"):
        GAME.parse_notation("d4", state)


@pytest.mark.parametrize(("board", "turn", "number", "message"), [
    (["xx.", "...", "..."], "WHITE", 2, "cannot happen"),
    (["x..", "...", "..."], "BLACK", 1, "WHITE's turn"),
    (["x..", "...", "..."], "WHITE", 0, "turnNumber 1"),
    (["xxx", "oo.", "..."], "BLACK", 5, "WHITE's turn"),
    (["xxx", "ooo", "x.."], "WHITE", 7, "both"),
    (["xxx", "oo.", "o.."], "BLACK", 6, "X has three in a row but is to move again"),
    (["x..", "..", "..."], "WHITE", 1, "row 1"),
    (["X..", "...", "..."], "WHITE", 1, "row 0"),
])
def test_impossible_states_are_refused(board: list[str], turn: str, number: int, message: str) -> None:
    with pytest.raises(StateError, match=message):
        GAME.state_from_json({"board": board, "turn": turn, "turnNumber": number})


def test_board_text_and_svg() -> None:
    state = play("a3", "b2")
    assert GAME.board_text(state) == "3  X . .\n2  . O .\n1  . . .\n   a b c"
    picture = board_svg(state, last_move=4)
    assert picture.startswith("<svg") and "<circle" in picture and "#f3e27a" in picture


def test_perft() -> None:
    # Known counts of move sequences: 9, 9*8, 9*8*7, ... until wins cut the tree at ply 5.
    assert [GAME.perft(GAME.initial_state(), d) for d in range(1, 7)] == [9, 72, 504, 3024, 15120, 54720]


def test_game_tree_totals_match_the_known_figures() -> None:
    # An independent count (memoised over positions, not perft's recursion): tic-tac-toe has 5,478
    # reachable positions and 255,168 possible games, 131,184 won by X, 77,904 by O, 46,080 drawn.
    positions: set[str] = set()

    @cache
    def games_from(cells: str) -> tuple[int, int, int]:
        positions.add(cells)
        state = TicTacToeState(cells)
        outcome = GAME.outcome(state)
        if outcome is not None:
            return (outcome.winner is Color.BLACK, outcome.winner is Color.WHITE, outcome.winner is None)
        totals = [games_from(GAME.apply(state, m).cells) for m in GAME.legal_moves(state)]
        return (sum(t[0] for t in totals), sum(t[1] for t in totals), sum(t[2] for t in totals))

    x_wins, o_wins, draws = games_from(GAME.initial_state().cells)
    assert (x_wins, o_wins, draws) == (131_184, 77_904, 46_080)
    assert x_wins + o_wins + draws == 255_168
    assert len(positions) == 5_478


def test_search_adapter_plays_perfectly() -> None:
    search = pytest.importorskip("arena.agents.search")
    adapter = TicTacToeSearch()
    result = search.Searcher(adapter, max_moves=9).search(adapter.from_state(GAME.initial_state()), max_depth=9)
    assert result.score == 0, "perfect play draws"
    threat = play("a1", "b2", "b1")  # X threatens c1: O must block
    result = search.Searcher(adapter, max_moves=9).search(adapter.from_state(threat), max_depth=9)
    assert result.move == cell_of("c1")
    win = play("a1", "b2", "b1", "a3")  # X completes a1-b1-c1
    result = search.Searcher(adapter, max_moves=9).search(adapter.from_state(win), max_depth=9)
    assert result.move == cell_of("c1") and result.score > 0


def test_random_bot_speaks_the_generic_json_protocol() -> None:
    state = play("b2", "a1", "c1")
    message = {"type": "game_state", "payload": GAME.state_to_json(state), "timeLeftMs": 1000}
    with subprocess.Popen([sys.executable, str(BOT), "--seed", "3"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as bot:
        try:
            out, err = bot.communicate(json.dumps(message) + "\n", timeout=60)  # a hang backstop
        finally:
            bot.kill()  # no-op once it has exited; a hung bot must not outlive the test
    assert bot.returncode == 0, err
    reply = json.loads(out)
    assert set(reply) == {"type", "payload"} and reply["type"] == "turn"
    GAME.play_wire(state, reply["payload"])  # a legal move


def test_registered_through_the_entry_point_when_installed() -> None:
    try:
        metadata.distribution("arena-tictactoe")
    except metadata.PackageNotFoundError:
        pytest.skip("arena-tictactoe is not installed (pip install -e examples/arena-tictactoe)")
    from arena.api import game_names, get_spec

    assert "tictactoe" in game_names()
    assert get_spec("tictactoe").rules_object().name == "tictactoe"
