"""The SPRT runner (arena.sprt.run) and opening books (arena.openings.book), with fast connect4 bots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import trio

from arena.games import get_game
from arena.games.base import opening_seed
from arena.games.registry import configured_game, game_names, get_table_game
from arena.match.clock import TimeControl
from arena.openings.book import OpeningsError, parse_book
from arena.players.spec import AgentSpec
from arena.records.logstore import LogError
from arena.sprt.run import SprtRun, SprtSettings, counts_of, pair_score

GAME = next(name for name in game_names() if name.startswith("connect"))
RANDOM = "python3 bots/connect4_random.py"
GREEDY = "python3 bots/connect4_greedy.py"
TC = TimeControl(time_limit_ms=20000)
ROOT = Path(__file__).resolve().parents[1]
KUHN_HEURISTIC = f"{sys.executable} {ROOT / 'bots' / 'kuhn_poker_heuristic.py'}"
KUHN_RANDOM = f"{sys.executable} {ROOT / 'bots' / 'kuhn_poker_random.py'} --seed 1"


def settings(new: str, old: str, **kw: object) -> SprtSettings:
    kw.setdefault("game", configured_game(GAME))
    return SprtSettings(new=AgentSpec("new", command=new), old=AgentSpec("old", command=old),
                        time_control=TC, **kw)  # type: ignore[arg-type]


def run(s: SprtSettings, folder: Path) -> tuple[str, SprtRun]:
    runner = SprtRun(s, folder)
    runner.open()
    try:
        return trio.run(runner.run), runner
    finally:
        runner.close()


def test_pair_score_and_counts() -> None:
    assert pair_score(({"winner": "BLACK"}, {"winner": "WHITE"})) == 2.0
    assert pair_score(({"winner": "WHITE"}, {"winner": "NONE"})) == 0.5
    assert pair_score(({"winner": "NONE"}, {"winner": "BLACK"})) == 0.5
    assert counts_of([0, 0.5, 1, 1.5, 2, 2]) == [1, 1, 1, 1, 2]


def test_pair_score_of_seat_records_counts_ranks_with_new_at_seat_0_then_1() -> None:
    def seats(*ranks: list[int]) -> tuple[dict[str, object], dict[str, object]]:
        first, second = ({"record_format": 3, "ranks": r} for r in ranks)
        return first, second

    assert pair_score(seats([1, 2], [2, 1])) == 2.0
    assert pair_score(seats([2, 1], [1, 2])) == 0.0
    assert pair_score(seats([1, 1], [1, 2])) == 0.5  # a tie, then a loss at seat 1
    assert pair_score(seats([1, 2], [1, 1])) == 1.5


def test_a_game_of_two_seats_swaps_seats_shares_the_pair_seed_and_checks_records_on_resume(tmp_path: Path) -> None:
    kuhn = get_table_game("kuhn_poker", 2)
    s = settings(KUHN_HEURISTIC, KUHN_RANDOM, game=kuhn, max_pairs=2, seed=5, concurrency=2)
    stopped, runner = run(s, tmp_path)
    assert stopped == "max-pairs" and runner.order == [0, 1]
    records = [json.loads((tmp_path / "games" / f"0000{i}.json").read_text()) for i in range(4)]
    assert [[seat["id"] for seat in r["seats"]] for r in records] == [["new", "old"], ["old", "new"]] * 2
    assert [r["seed"] for r in records] == [opening_seed(5, 0)] * 2 + [opening_seed(5, 1)] * 2
    assert records[0]["steps"][:2] == records[1]["steps"][:2]  # the same cards dealt to the same seats
    for pair in (0, 1):
        first, second = records[2 * pair], records[2 * pair + 1]
        assert runner.scores[pair] == pair_score((first, second))
    state = json.loads((tmp_path / "sprt.json").read_text())
    assert state["settings"]["game_identity"] == {"name": "kuhn_poker", "players": 2, "params": {}}
    # A record of the pair with the seats the other way round is not this run's.
    (tmp_path / "games" / "00000.json").write_text(json.dumps({**records[1], "game_index": 0}))
    with pytest.raises(LogError, match="00000.json: not the record of game 0 .*new should sit at seat 0"):
        run(settings(KUHN_HEURISTIC, KUHN_RANDOM, game=kuhn, max_pairs=2, seed=5), tmp_path)
    (tmp_path / "games" / "00000.json").write_text(json.dumps({**records[2], "game_index": 0}))
    with pytest.raises(LogError, match="its seed is not the pair's"):
        run(settings(KUHN_HEURISTIC, KUHN_RANDOM, game=kuhn, max_pairs=2, seed=5), tmp_path)
    with pytest.raises(LogError, match="other settings"):
        run(settings(KUHN_HEURISTIC, KUHN_RANDOM, game=kuhn, max_pairs=2, seed=5, legal_moves=True), tmp_path)


def test_stronger_bot_reaches_h1(tmp_path: Path) -> None:
    stopped, runner = run(settings(GREEDY, RANDOM, elo1=200.0, concurrency=2, opening_plies=2, seed=3), tmp_path)
    assert stopped == "H1"
    assert runner.summary is not None and runner.summary["verdict"] == "H1"
    state = json.loads((tmp_path / "sprt.json").read_text())
    assert state["stopped"] == "H1" and len(state["pairs"]) == runner.summary["pairs"]
    assert len(list((tmp_path / "games").iterdir())) == 2 * len(state["pairs"])
    first = json.loads((tmp_path / "games" / "00000.json").read_text())
    second = json.loads((tmp_path / "games" / "00001.json").read_text())
    # Same opening, colours swapped.
    assert first["turns"][:2] == second["turns"][:2] and first["seed"] == second["seed"]
    assert [p["id"] for p in first["players"]] != [p["id"] for p in second["players"]]


def test_resume_continues_without_doubling_and_replays_half_pairs(tmp_path: Path) -> None:
    stopped, runner = run(settings(RANDOM, RANDOM, max_pairs=2), tmp_path)
    assert stopped == "max-pairs" and runner.order == [0, 1]
    # An interrupted pair 2: only its first game was recorded (a stray record).
    stray = json.loads((tmp_path / "games" / "00000.json").read_text())
    (tmp_path / "games" / "00004.json").write_text(json.dumps(stray))
    stopped, runner = run(settings(RANDOM, RANDOM, max_pairs=4), tmp_path)
    assert stopped == "max-pairs" and runner.resumed_pairs == 2 and runner.order == [0, 1, 2, 3]
    assert runner.summary is not None and runner.summary["pairs"] == 4 and sum(runner.summary["pentanomial"]) == 4
    assert json.loads((tmp_path / "games" / "00004.json").read_text())["game_index"] == 4  # played again
    with pytest.raises(LogError, match="other settings"):
        run(settings(RANDOM, RANDOM, max_pairs=5, elo1=10.0), tmp_path)


@pytest.mark.parametrize("seated", [False, True], ids=["connect4", "kuhn_poker"])
def test_a_run_of_an_earlier_arena_resumes(tmp_path: Path, seated: bool) -> None:
    """A sprt.json written before every run's settings held the game's identity, referee, legal
    moves and score (two-player runs had none of them, runs of seats no score): each missing one is
    compared as the value such runs had, so the run resumes; one that differs is still refused."""
    kw: dict[str, object] = {"game": get_table_game("kuhn_poker", 2)} if seated else {"opening_plies": 2}
    bots = (KUHN_HEURISTIC, KUHN_RANDOM) if seated else (RANDOM, RANDOM)
    run(settings(*bots, max_pairs=1, seed=5, **kw), tmp_path)
    state = json.loads((tmp_path / "sprt.json").read_text())
    for key in ("score",) if seated else ("game_identity", "rules", "legal_moves", "score"):
        del state["settings"][key]
    (tmp_path / "sprt.json").write_text(json.dumps(state))
    stopped, runner = run(settings(*bots, max_pairs=2, seed=5, **kw), tmp_path)
    assert stopped == "max-pairs" and runner.resumed_pairs == 1 and runner.order == [0, 1]
    assert json.loads((tmp_path / "sprt.json").read_text())["settings"]["score"] == "rank"
    state["settings"]["rules"] = ["python3", "referee.py"]
    (tmp_path / "sprt.json").write_text(json.dumps(state))
    with pytest.raises(LogError, match=r"other settings \(rules \["):
        run(settings(*bots, max_pairs=3, seed=5, **kw), tmp_path)


def test_book_of_states_and_of_moves(tmp_path: Path) -> None:
    game = get_game(GAME)
    state = game.initial_state()
    for wire in (3, 3, 2):
        _, state = game.play_wire(state, wire)
    lines = [json.dumps(game.state_to_json(state)), "", "# a comment", json.dumps({"moves": [0, 6]})]
    book = parse_book(game, "\n".join(lines).encode(), Path("book.jsonl"))
    assert [o.line for o in book.openings] == [1, 4]
    assert book.pick(0, "sequential", 0).line == 1 and book.pick(3, "sequential", 0).line == 4
    assert {book.pick(p, "random", 7).line for p in range(40)} == {1, 4}
    stopped, _ = run(settings(RANDOM, RANDOM, max_pairs=2, book=book, openings_order="sequential", seed=1),
                          tmp_path)
    assert stopped == "max-pairs"
    records = [json.loads((tmp_path / "games" / f"0000{i}.json").read_text()) for i in range(4)]
    assert records[0]["game_states"][0] == records[1]["game_states"][0] == game.state_to_json(state)
    assert records[2]["game_states"][0] == records[3]["game_states"][0]
    assert records[2]["game_states"][0] == game.state_to_json(game.play_wire(game.play_wire(
        game.initial_state(), 0)[1], 6)[1])


@pytest.mark.parametrize(("text", "message"), [
    ('{"moves": [3]}\nnot json\n', "book.jsonl line 2: not JSON"),
    ('{"moves": [3, 99]}\n', "book.jsonl line 1: move 2 (99)"),
    ('{"moves": 3}\n', "line 1: 'moves' must be a list"),
    ('[1, 2]\n', "line 1: expected a state object"),
    ('{"board": 1}\n', "line 1: "),
    ('\n# nothing\n', "no opening in this file"),
])
def test_bad_book_lines_are_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(OpeningsError) as info:
        parse_book(get_game(GAME), text.encode(), Path("book.jsonl"))
    assert message in str(info.value) and "\n" not in str(info.value)
