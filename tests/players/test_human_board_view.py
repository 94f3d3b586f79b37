"""The rich board views: coordinates, numbers, pieces and the last move's marks, without colour."""

from __future__ import annotations

import inspect
import io
import random
from typing import Any

from rich.console import Console

from arena.games import get_game
from arena.games.checkers.rules import state_from_board as checkers_state
from arena.games.shobu.rules import START_BOARD
from arena.ui import boards as board_view
from arena.ui.boards import checkers_board, legend, render_board, shobu_board, shobu_push


def draw(renderable: Any, width: int = 80) -> str:
    out = io.StringIO()
    Console(file=out, force_terminal=False, color_system=None, width=width).print(renderable)
    return out.getvalue()


def shobu_cells(text: str) -> list[str]:
    """The 64 stone symbols of a drawn Shobu board, row by row (x 0-7)."""
    rows = [line for line in text.splitlines() if line[:4].strip().isdigit() and "│" in line]
    assert len(rows) == 8
    cells = []
    for row in rows:
        inner = row.split("│")
        cells += [inner[1][i * 3 + 1] for i in range(4)] + [inner[3][i * 3 + 1] for i in range(4)]
    return cells


def test_shobu_start_position_and_labels() -> None:
    game = get_game("shobu")
    text = draw(shobu_board(game.initial_state()))
    symbols = {"x": "●", "o": "○", ".": "·"}
    assert shobu_cells(text) == [symbols[c] for c in START_BOARD]
    lines = text.splitlines()
    assert lines[0].split() == ["0", "1", "2", "3", "4", "5", "6", "7", "x"]
    assert "WHITE's home boards" in lines[3] and "BLACK's home boards" in lines[9]
    assert text.count("dark") == 2 and text.count("light") == 2
    # Each column label sits over its column of cells.
    for x in range(8):
        column = lines[0].index(str(x))
        assert {line[column] for line in lines if line[:4].strip() in "0123" and "│" in line} <= {"○", "●", "·"}
    assert max(len(line) for line in lines) <= 80


def test_shobu_last_move_and_push_marks() -> None:
    game = get_game("shobu")
    state = game.apply(game.initial_state(), game.parse_move(_payload((0, 7), (4, 3), (0, -1))))
    move = game.parse_move(_payload((5, 0), (0, 4), (0, 2)))
    after = game.apply(state, move)
    assert shobu_push(state, after) == ((0, 6), (0, 7))
    text = draw(shobu_board(after, move, state))
    cells = shobu_cells(text)
    # Landings bracketed, origins shown as the dotted circle, the pushed stone braced.
    lines = text.splitlines()
    assert "[○]" in lines[2 + 2] and lines[8 + 2].startswith("  6 │[○]")
    assert cells[5] == "◌" and cells[0 + 8 * 4] == "◌"
    assert "{●}" in text
    # Without the previous state the push cannot be known: only the moving stones are marked.
    assert "{" not in draw(shobu_board(after, move))


def _payload(passive: tuple[int, int], aggressive: tuple[int, int], heading: tuple[int, int]) -> dict[str, Any]:
    h = {"x": heading[0], "y": heading[1]}
    return {"passive": {"origin": {"x": passive[0], "y": passive[1]}, "heading": h},
            "aggressive": {"origin": {"x": aggressive[0], "y": aggressive[1]}, "heading": h}}


def test_shobu_push_off_the_board_is_found() -> None:
    """Random playouts until a stone is pushed off from a square the aggressor passed over."""
    game = get_game("shobu")
    rng = random.Random(7)
    for _ in range(200):
        state = game.initial_state()
        for _ in range(40):
            moves = game.legal_moves(state)
            if not moves:
                break
            move = rng.choice(moves)
            after = game.apply(state, move)
            push = shobu_push(state, after)
            if push is not None and push[1] is None:
                (ax, ay), (dx, dy) = move.aggressive_origin, move.heading
                if push[0] != (ax + dx, ay + dy):
                    text = draw(shobu_board(after, move, state))
                    assert shobu_cells(text)[push[0][0] + 8 * push[0][1]] == "×"
                    return
            state = after
    raise AssertionError("no push off the board from a passed-over square in 200 playouts")


def test_checkers_numbers_pieces_and_kings() -> None:
    game = get_game("checkers")
    text = draw(checkers_board(game.initial_state()))
    for number in range(1, 33):
        assert f"{number:>2}" in text
    assert text.count("●") == 12 and text.count("○") == 12
    assert "●11" in text and "○22" in text and " 15 " in text
    kings = checkers_state(["........"] * 3 + ["..B.....", ".....W..", "........", "........", "........"])
    drawn = draw(checkers_board(kings))
    assert "◉14" in drawn and "◎19" in drawn
    without = draw(checkers_board(game.initial_state(), numbers=False))
    assert "32" not in without and "squares" not in without


def test_checkers_capture_marks() -> None:
    game = get_game("checkers")
    state = game.initial_state()
    for text in ("11-15", "22-18"):
        state = game.apply(state, game.parse_notation(text, state))
    move = game.parse_notation("15x22", state)
    after = game.apply(state, move)
    drawn = draw(checkers_board(after, move))
    assert "[●22]" in drawn and "·15" in drawn and "×18" in drawn


def test_checkers_multi_jump_marks_every_landing() -> None:
    game = get_game("checkers")
    state = checkers_state([".b......", "..w.....", "........", "....w...", "........", "........",
                            "........", "........"], turn_number=0)
    move = game.parse_notation("1x10x19", state)
    drawn = draw(checkers_board(game.apply(state, move), move))
    assert "· 1" in drawn and "·10" in drawn and "[●19]" in drawn
    assert "× 6" in drawn and "×15" in drawn


def test_render_board_dispatch_and_legend() -> None:
    for name in ("shobu", "checkers"):
        game = get_game(name)
        assert draw(render_board(game, game.initial_state())) == draw(
            shobu_board(game.initial_state()) if name == "shobu" else checkers_board(game.initial_state())
        )
        assert "last move" in legend(name).plain


def test_board_view_never_makes_a_console() -> None:
    assert "Console(" not in inspect.getsource(board_view)
