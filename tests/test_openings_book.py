"""`arena openings`: books of distinct, balanced-by-search positions that `--openings` reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.openings_cmd import openings_command
from arena.games.registry import game_names, get_game
from arena.openings.book import load_book
from arena.openings.generate import generate

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", game_names())
def test_a_generated_book_holds_distinct_live_positions_after_the_plies(name: str) -> None:
    game = get_game(name)
    book = generate(name, plies=2, count=4, seed=3, depth=1)
    assert 1 <= len(book) <= 4
    assert len({repr(obj) for obj in book}) == len(book), "positions are distinct"
    for obj in book:
        state = game.state_from_json(obj)
        assert game.ply(state) == 2 and game.outcome(state) is None


def test_the_most_balanced_are_kept_and_max_score_caps_them() -> None:
    from arena.openings.generate import _scorer

    score = _scorer("checkers", 1)
    game = get_game("checkers")
    book = generate("checkers", plies=4, count=5, seed=1, depth=1)
    scores = [abs(score(game.state_from_json(obj))) for obj in book]
    assert scores == sorted(scores)
    capped = generate("checkers", plies=4, count=5, seed=1, depth=1, max_score=0)
    assert all(score(game.state_from_json(obj)) == 0 for obj in capped)


@pytest.mark.parametrize("name", game_names())
def test_the_shipped_books_load(name: str) -> None:
    path = ROOT / "examples" / "openings" / f"{name}.jsonl"
    book = load_book(get_game(name), path)
    assert len(book.openings) >= 20


def test_the_command_writes_a_book_that_loads(tmp_path: Path) -> None:
    out = tmp_path / "book.jsonl"
    result = CliRunner().invoke(openings_command, ["--game", "connect4", "--plies", "2", "--count", "5",
                                                   "--depth", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "5 positions" in result.output
    assert len(load_book(get_game("connect4"), out).openings) == 5
