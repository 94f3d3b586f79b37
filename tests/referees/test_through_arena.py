"""The example referees through arena's own client (arena.referee): the C Breakthrough counts
arena's perft and lets a searcher rebuild the state from a seat's view (it declares perfect
information); the Java Othello referee plays `arena match` between arena's MCTS agent, which starts
the same referee for its own search, and a bot that knows no rules (--legal-moves)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.games.registry import get_spec
from arena.referee.registration import forget_referees, register_referee

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean_registry() -> Iterator[None]:
    yield
    forget_referees()


def test_the_c_referee_counts_arenas_perft_and_rebuilds_a_state_from_a_view(
        breakthrough_command: list[str], clean_registry: None) -> None:
    spec = register_referee(breakthrough_command)
    external, own = spec.table(), get_spec("breakthrough").table()
    start = external.initial_state()
    assert [external.perft(start, d) for d in (1, 2, 3)] == [own.perft(own.initial_state(), d) for d in (1, 2, 3)]
    rng = random.Random(5)
    state = start
    for _ in range(12):
        seat = external.actor(state)
        view = external.observation(state, seat)
        rebuilt = external.determinize(view, seat, rng)
        assert external.observation(rebuilt, seat) == view
        assert external.legal_moves(rebuilt, seat) == external.legal_moves(state, seat)
        state = external.apply(state, rng.choice(external.legal_moves(state, seat)))


def test_mcts_plays_othello_through_the_java_referee(othello_command: list[str], tmp_path: Path) -> None:
    mcts = tmp_path / "mcts.json"
    mcts.write_text(json.dumps({"algorithm": "mcts", "iterations": 20, "seed": 3}))
    rules = " ".join(othello_command)
    done = subprocess.run(
        [sys.executable, "-m", "arena", "match", "--rules", rules, str(mcts),
         f"{sys.executable} {ROOT / 'bots' / 'legal_random.py'} --seed 2", "--legal-moves", "--games", "2", "-q",
         "--out", str(tmp_path / "games.json")],
        capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    records = json.loads((tmp_path / "games.json").read_text())
    assert len(records) == 2 and all(r["termination"] == "win" or r["termination"] == "draw" for r in records), [
        (r["termination"], r["reason"]) for r in records]
    assert all(r["game_identity"]["rules"] for r in records)
