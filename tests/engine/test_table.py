"""The match loop (arena.match.game.play_game) in N-seat games with real bot processes: chance draws from the
seed, simultaneous asks, observations only, eliminations that let the game go on, ranks."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from engine_support import bot_writable
from seat_toy import BOT_SOURCE, SecretBid

from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.match.progress import GameEnded, GameStarted, StepPlayed, step_notation
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation

FAST = TimeControl(time_limit_ms=20_000, time_margin_ms=200, startup_ms=5_000, move_time_limit_ms=3_000)
#: The toy bots copy their input to a file of the test's: outside the sandbox's read-only view.
OPEN = Isolation(sandbox=False)


@pytest.fixture
def bot(tmp_path: Path):  # type: ignore[no-untyped-def]
    folder = bot_writable(tmp_path / "bots")
    script = folder / "toy_bot.py"
    script.write_text(BOT_SOURCE)
    script.chmod(0o644)

    def make(seat: int, mode: str = "first") -> AgentSpec:
        log = folder / f"seat{seat}.log"
        return AgentSpec(f"b{seat}", command=shlex.join([sys.executable, str(script), mode, str(log)]))
    return make


def inputs(tmp_path: Path, seat: int) -> list[dict]:  # type: ignore[type-arg]
    path = tmp_path / "bots" / f"seat{seat}.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


async def test_three_bots_play_chance_and_simultaneous_steps(tmp_path: Path, bot) -> None:  # type: ignore[no-untyped-def]
    game = SecretBid(3, rounds=2)
    record = await play_game(game, *[bot(0), bot(1), bot(2)], time_control=FAST, seed=11, legal_moves_for=[0],
                              isolation=OPEN)
    assert record["record_format"] == 4 and record["game_identity"] == game.identity()
    kinds = [step["kind"] for step in record["steps"]]
    assert kinds == ["chance"] * 3 + ["joint"] * 2
    assert all(step["probability"] == "1/3" for step in record["steps"][:3])
    assert record["eliminations"] == [] and record["termination"] in ("win", "draw")
    assert len(record["game_states"]) == len(record["steps"]) + 1
    # The same seed draws the same cards.
    again = await play_game(game, *[bot(0), bot(1), bot(2)], time_control=FAST, seed=11, isolation=OPEN)
    assert [s["outcome"] for s in again["steps"][:3]] == [s["outcome"] for s in record["steps"][:3]]
    # Each seat saw its own card only, and only the asked-for seat got the legal moves.
    cards = record["game_states"][3]["cards"]
    for seat in range(3):
        seen = inputs(tmp_path, seat)
        assert [m["payload"]["card"] for m in seen][:1] == [cards[seat]]
        assert all(m["seat"] == seat and m["players"] == 3 and m["simultaneous"] for m in seen)
        assert all(("legalMoves" in m) == (seat == 0) for m in seen)
        others = [c for s, c in enumerate(cards) if s != seat]
        assert all(set(m["payload"]) == {"card", "bids", "out"} for m in seen), others


def expected_termination(mode: str) -> str:
    return {"crash": "crash", "silent": "timeout", "illegal": "illegal_move"}[mode]


@pytest.mark.parametrize("mode", ["crash", "silent", "illegal"])
async def test_a_faulting_seat_is_out_and_the_game_goes_on(tmp_path: Path, bot, mode: str) -> None:  # type: ignore[no-untyped-def]
    fast = TimeControl(time_limit_ms=2_000, time_margin_ms=100, startup_ms=1_000, move_time_limit_ms=500)
    game, events = SecretBid(4, rounds=2), []
    record = await play_game(game, *[bot(0), bot(1, mode), bot(2), bot(3)], time_control=fast,
                              seed=5, isolation=OPEN, observer=events.append)
    # Observers hear the events of every game: started, each step as the record holds it, ended.
    started, *steps, ended = events
    assert isinstance(started, GameStarted) and [a.id for a in started.players] == ["b0", "b1", "b2", "b3"]
    assert isinstance(ended, GameEnded) and ended.record is record
    assert all(isinstance(e, StepPlayed) for e in steps) and [e.step for e in steps] == record["steps"]
    assert [game.state_to_json(e.state) for e in steps] == record["game_states"][1:]
    assert [e.notation for e in steps] == [step_notation(game, step) for step in record["steps"]]
    assert "out (" + expected_termination(mode) + ")" in [e.notation for e in steps]
    expected = expected_termination(mode)
    assert [(e["seat"], e["termination"]) for e in record["eliminations"]] == [(1, expected)]
    assert "seat 1 (P1) bot 'b1'" in record["eliminations"][0]["reason"]
    assert record["ranks"][1] == 4 and max(r for s, r in enumerate(record["ranks"]) if s != 1) < 4
    assert [s["kind"] for s in record["steps"]].count("joint") == 2  # both rounds were played by the others
    assert record["termination"] in ("win", "draw")


async def test_two_faults_rank_the_later_above_the_earlier(tmp_path: Path, bot) -> None:  # type: ignore[no-untyped-def]
    record = await play_game(SecretBid(3, rounds=1), *[bot(0, "crash"), bot(1), bot(2, "illegal")],
                              time_control=FAST, seed=1, isolation=OPEN)
    assert [e["seat"] for e in record["eliminations"]] == [0, 2]
    assert record["ranks"] == [3, 1, 2]
    assert record["termination"] == "win" and record["reason"].startswith("seat 1 (P1)")


async def test_every_seat_must_be_filled(bot) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="set for 3 players, got 2"):
        await play_game(SecretBid(3), *[bot(0), bot(1)], time_control=FAST)


async def test_each_bot_is_sent_its_own_observation_and_nothing_else(tmp_path: Path) -> None:
    """Kuhn poker with three real bots that log their input: every message's payload is exactly
    the seat's observation before its move, which never holds another seat's card."""
    from arena.games.registry import get_table_game

    folder = bot_writable(tmp_path / "spies")
    spy = folder / "spy.py"
    spy.write_text(
        "import json, sys\n"
        "log = open(sys.argv[1], 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    message = json.loads(line)\n"
        "    move = 'bet' if message['payload']['card'] >= 2 else 'pass'\n"
        "    print(json.dumps({'type': 'turn', 'payload': move}), flush=True)\n")
    spy.chmod(0o644)
    game = get_table_game("kuhn_poker", 3)
    agents = [AgentSpec(f"spy{s}", command=shlex.join([sys.executable, str(spy), str(folder / f"{s}.log")]))
              for s in range(3)]
    for seed in range(4):
        for seat in range(3):
            (folder / f"{seat}.log").write_text("")
        record = await play_game(game, *agents, time_control=FAST, seed=seed, isolation=OPEN)
        asked = {seat: [record["game_states"][i] for i, step in enumerate(record["steps"])
                        if step["kind"] == "move" and step["seat"] == seat] for seat in range(3)}
        cards = record["game_states"][-1]["cards"]
        for seat in range(3):
            messages = [json.loads(line) for line in (folder / f"{seat}.log").read_text().splitlines()]
            expected = [game.observation(game.state_from_json(state), seat) for state in asked[seat]]
            assert [m["payload"] for m in messages] == expected
            others = {card for s, card in enumerate(cards) if s != seat}
            assert all(m["payload"]["card"] not in others for m in messages)
            assert all(set(m["payload"]) & {"cards", "hands"} == set() for m in messages)


def test_each_kind_of_step_has_its_notation() -> None:
    game = SecretBid(3)
    assert step_notation(game, {"ply": 0, "kind": "chance", "outcome": 2, "probability": "1/3"}) == "2"
    assert step_notation(game, {"ply": 3, "kind": "joint", "moves": {"0": 1, "2": 0}}) == "P0: 1; P2: 0"
    assert step_notation(game, {"ply": 3, "kind": "elimination", "seat": 1, "termination": "crash",
                                "reason": "..."}) == "out (crash)"
