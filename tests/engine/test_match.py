"""The match loop against small real bots: every termination value and every misbehaviour."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
import trio
from engine_support import assert_no_leftovers, bot_command

from arena.games import Color, Termination
from arena.games.registry import configured_game
from arena.match.clock import GameClock, TimeControl
from arena.match.game import play_game
from arena.match.progress import GameEnded, GameStarted, StepPlayed
from arena.players.base import ClockView, MoveReply, Player
from arena.players.spec import AgentSpec

FAST = TimeControl(time_limit_ms=500, time_margin_ms=50, startup_ms=1500)
GRACE_S = 0.2
# Generous: a busy machine slows start-up and teardown; a hang would still end far later (the
# silent and stalling bots are cut by the clock, never by this bound).
SLACK_S = 60.0


def _specs(marker: str, game: str, bad_color: Color, mode: str, at: int) -> tuple[AgentSpec, AgentSpec]:
    bad = AgentSpec("bad", command=bot_command(marker + "-bad", game, mode, at))
    good = AgentSpec("good", command=bot_command(marker + "-good", game))
    return (bad, good) if bad_color is Color.BLACK else (good, bad)


MISBEHAVIOURS = [
    # (game, mode, at, colour of the culprit, termination, words in the reason)
    ("shobu", "crash", -1, Color.BLACK, Termination.CRASH, "exited with code 3"),
    ("shobu", "segv", 2, Color.WHITE, Termination.CRASH, "SIGSEGV"),
    ("shobu", "silent", 0, Color.BLACK, Termination.TIMEOUT, "did not reply within 2050 ms"),
    ("shobu", "slow", 1, Color.WHITE, Termination.TIMEOUT, "did not reply within"),
    ("shobu", "garbage", 1, Color.BLACK, Termination.MALFORMED_REPLY, "hello, arena"),
    ("shobu", "huge", 0, Color.WHITE, Termination.OUTPUT_LIMIT, "longer than 1048576 bytes"),
    ("shobu", "close_stdout", 1, Color.BLACK, Termination.CRASH, "closed its stdout but kept running"),
    ("shobu", "ignore_term", 1, Color.WHITE, Termination.TIMEOUT, "did not reply within"),
    ("shobu", "grandchild", 1, Color.BLACK, Termination.TIMEOUT, "did not reply within"),
    ("shobu", "half", 1, Color.WHITE, Termination.TIMEOUT, "it had sent only '{\"type\": \"turn\", \"pay'"),
    ("shobu", "bad_utf8", 1, Color.BLACK, Termination.MALFORMED_REPLY, "not valid UTF-8"),
    ("shobu", "illegal", 0, Color.BLACK, Termination.ILLEGAL_MOVE, "illegal move"),
    ("checkers", "crash", -1, Color.WHITE, Termination.CRASH, "exited with code 3"),
    ("checkers", "garbage", 1, Color.WHITE, Termination.MALFORMED_REPLY, "hello, arena"),
    ("checkers", "bad_utf8", 0, Color.BLACK, Termination.MALFORMED_REPLY, "not valid UTF-8"),
    ("checkers", "illegal", 0, Color.BLACK, Termination.ILLEGAL_MOVE, "2 0 5 1 4"),
    ("checkers", "half", 1, Color.BLACK, Termination.TIMEOUT, "it had sent only '2 3 2'"),
    ("checkers", "huge", 1, Color.WHITE, Termination.OUTPUT_LIMIT, "longer than"),
]


@pytest.mark.parametrize(
    ("game_name", "mode", "at", "bad_color", "termination", "words"),
    MISBEHAVIOURS,
    ids=[f"{g}-{m}" for g, m, *_ in MISBEHAVIOURS],
)
async def test_misbehaving_bot_loses_and_nothing_is_left(
    marker: str, game_name: str, mode: str, at: int, bad_color: Color, termination: Termination, words: str
) -> None:
    black, white = _specs(marker, game_name, bad_color, mode, at)
    begun = time.monotonic()
    record = await play_game(configured_game(game_name), black, white, time_control=FAST, max_moves=40)
    elapsed = time.monotonic() - begun
    assert record["termination"] == termination.value, record["reason"]
    assert record["winner"] == bad_color.other.value, record["reason"]
    assert record["reason"].startswith(f"{bad_color.value} bot 'bad' "), record["reason"]
    assert words in record["reason"]
    budget = (FAST.time_limit_ms + FAST.time_margin_ms + FAST.startup_ms) / 1000
    assert elapsed < budget + GRACE_S + SLACK_S
    assert len(record["game_states"]) == record["plies"] + 1
    assert_no_leftovers(marker)


async def test_stderr_flood_does_not_lose_and_is_capped(marker: str, tmp_path: Path) -> None:
    black = AgentSpec("flood", command=bot_command(marker + "-flood", "shobu", "flood", 0))
    white = AgentSpec("good", command=bot_command(marker + "-good", "shobu"))
    tc = TimeControl(time_limit_ms=20000, startup_ms=5000)
    record = await play_game(configured_game("shobu"), black, white, time_control=tc, max_moves=40,
                             stderr_dir=tmp_path, game_index=7)
    assert record["termination"] in ("win", "no_legal_moves", "max_moves"), record["reason"]
    log = Path(record["stderr_logs"]["0"])  # by seat: BLACK is seat 0
    assert log.name == "00007-black-flood.log"
    size = log.stat().st_size
    assert (1 << 20) <= size < (1 << 20) + 200
    assert b"more bytes of stderr dropped" in log.read_bytes()[-100:]
    assert_no_leftovers(marker)


CHECKERS_WIN_BOARD = [
    ". . . . . . . .",
    ". . . . . . . .",
    ". b . . . . . .",
    ". . w . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
]
CHECKERS_BLOCKED_BOARD = [
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . b . . . . .",
    ". b . . . . . .",
    "w . . . . . . .",
]


async def test_win_by_the_rules(marker: str) -> None:
    game = configured_game("checkers")
    start = game.state_from_json({"board": CHECKERS_WIN_BOARD, "turn": "BLACK", "turnNumber": 10})
    black = AgentSpec("alpha", command=bot_command(marker, "checkers"))
    white = AgentSpec("beta", command=bot_command(marker, "checkers"))
    record = await play_game(game, black, white, time_control=FAST, start_state=start, opening_plies=10)
    assert (record["termination"], record["winner"], record["plies"]) == ("win", "BLACK", 1)
    assert "BLACK bot 'alpha' won" in record["reason"]
    turn = record["turns"][0]
    assert len(record["turns"]) == 1 and turn == {**game.move_to_record(game.parse_move("2 1 2 3 4")), **turn}
    assert turn["opening"] is False and turn["notation"] == "9x18"
    assert record["turns"][0]["path"] == [[1, 2], [3, 4]]
    assert record["game_states"][-1]["turn"] == "WHITE"
    assert record["opening_plies"] == 10
    assert_no_leftovers(marker)


async def test_no_legal_moves_loses(marker: str) -> None:
    game = configured_game("checkers")
    start = game.state_from_json({"board": CHECKERS_BLOCKED_BOARD, "turn": "WHITE", "turnNumber": 3})
    spec = AgentSpec("x", command=bot_command(marker, "checkers"))
    record = await play_game(game, spec, AgentSpec("y", command=spec.command), time_control=FAST, start_state=start)
    assert (record["termination"], record["winner"], record["plies"]) == ("no_legal_moves", "BLACK", 0)
    assert "WHITE bot 'y' had no legal move" in record["reason"]
    assert_no_leftovers(marker)


async def test_max_moves_draw_and_record_shape(marker: str) -> None:
    game = configured_game("shobu")
    black = AgentSpec("p", command=bot_command(marker, "shobu", "pretty"))  # pretty-printed replies
    white = AgentSpec("q", command=bot_command(marker, "shobu"))
    events: list[Any] = []
    record = await play_game(game, black, white, time_control=FAST, max_moves=6, seed=42, game_index=3,
                             observer=events.append)
    assert (record["termination"], record["winner"], record["plies"]) == ("max_moves", "NONE", 6)
    # Observers hear what they hear of any game: started, one step per move (as format 3 has it), ended.
    started, *steps, ended = events
    assert isinstance(started, GameStarted) and [a.id for a in started.players] == ["p", "q"]
    assert started.game.seat_names == ("BLACK", "WHITE") and started.game_index == 3
    assert all(isinstance(e, StepPlayed) for e in steps) and isinstance(ended, GameEnded) and ended.record is record
    assert [(e.step["ply"], e.step["kind"], e.step["seat"]) for e in steps] == [(k, "move", k % 2) for k in range(6)]
    assert [e.notation for e in steps] == [t["notation"] for t in record["turns"]]
    assert [e.step["charged_ms"] for e in steps] == [t["charged_ms"] for t in record["turns"]]
    assert [game.state_to_json(e.state) for e in steps] == record["game_states"][1:]
    assert all(e.step["move"] == game.move_to_record(game.move_from_record(e.step["move"])) for e in steps)
    assert len(record["turns"]) == 6 and len(record["game_states"]) == 7
    assert record["game_states"][0] == game.state_to_json(game.initial_state())
    assert record["game_states"][-1]["turnNumber"] == 6
    assert len(record["move_times_ms"]) == 6
    # The seed's turn object, plus arena's per-turn notation, opening mark and clock (record format 4).
    assert set(record["turns"][0]) == {"passive", "aggressive", "notation", "opening", "charged_ms", "clock_left_ms"}
    assert record["players"][0]["id"] == "p" and record["players"][0]["colour"] == "BLACK"
    assert record["players"][1]["colour"] == "WHITE"
    assert record["seed"] == 42 and record["game_index"] == 3 and record["game"] == "shobu"
    assert record["started_at"].endswith("Z")
    for left in record["clocks_left_ms"]:  # BLACK's, WHITE's
        assert 0 < left <= FAST.time_limit_ms
    assert "stderr_tail" not in record
    assert_no_leftovers(marker)


class _QuittingPlayer(Player):
    """A player whose user quits: the game is interrupted."""

    async def start(self) -> None:
        pass

    async def request_move(self, state: Any, clock: ClockView, *, state_json: Any = None) -> MoveReply:
        return MoveReply.failed(Termination.INTERRUPTED, "quit the game")

    async def aclose(self) -> None:
        pass


async def test_interrupted_by_a_player(marker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.match.progress as match_module

    real = match_module.make_player

    def fake(spec: AgentSpec, game: Any, color: Color, **opts: Any) -> Player:
        if spec.kind == "human":
            return _QuittingPlayer(spec.id, color)
        return real(spec, game, color, **opts)

    monkeypatch.setattr(match_module, "make_player", fake)
    record = await play_game(configured_game("shobu"), AgentSpec("bot", command=bot_command(marker, "shobu")),
                             AgentSpec("human", kind="human"), time_control=FAST)
    assert (record["termination"], record["winner"], record["plies"]) == ("interrupted", "NONE", 1)
    assert_no_leftovers(marker)


async def test_cancellation_kills_bots_and_propagates(marker: str) -> None:
    black = AgentSpec("a", command=bot_command(marker, "shobu", "silent", 0))
    white = AgentSpec("b", command=bot_command(marker, "shobu"))
    tc = TimeControl(time_limit_ms=60000)
    with trio.move_on_after(0.5) as scope:
        await play_game(configured_game("shobu"), black, white, time_control=tc)
    assert scope.cancelled_caught
    assert_no_leftovers(marker)


async def test_program_that_does_not_exist_is_a_crash(marker: str) -> None:
    record = await play_game(configured_game("shobu"), AgentSpec("good", command=bot_command(marker, "shobu")),
                             AgentSpec("ghost", command="/nonexistent/bot --fast"), time_control=FAST)
    assert (record["termination"], record["winner"]) == ("crash", "BLACK")
    assert "WHITE bot 'ghost' could not be started" in record["reason"]
    assert_no_leftovers(marker)


async def test_crash_record_keeps_stderr_tail(marker: str) -> None:
    code = "import sys; sys.stderr.write('boom: out of ideas\\n'); sys.exit(4)"
    import shlex
    import sys

    crasher = AgentSpec("c", command=shlex.join([sys.executable, "-c", code, marker]))
    record = await play_game(configured_game("shobu"), crasher, AgentSpec("g", command=bot_command(marker, "shobu")),
                             time_control=FAST)
    assert record["termination"] == "crash"
    assert "exited with code 4" in record["reason"] and "boom: out of ideas" in record["reason"]
    assert "boom: out of ideas" in record["stderr_tail"]["0"]
    assert_no_leftovers(marker)


# -- the clock, pure ---------------------------------------------------------------------------------


def test_clock_startup_allowance_is_uncharged() -> None:
    clock = GameClock(TimeControl(time_limit_ms=1000, time_margin_ms=50, startup_ms=2000))
    assert clock.allowance_ms() == 3050
    assert clock.thinking_ms(2.3) == pytest.approx(300)
    assert not clock.is_late(300)
    clock.charge(300)
    assert clock.left_ms == pytest.approx(700) and clock.allowance_ms() == 750
    assert clock.thinking_ms(0.5) == pytest.approx(500)  # no start-up allowance after the first move


def test_clock_margin_is_not_credit_and_increment_is_added() -> None:
    clock = GameClock(TimeControl(time_limit_ms=100, time_margin_ms=50, startup_ms=0, increment_ms=10))
    assert not clock.is_late(140)
    clock.charge(140)
    assert clock.left_ms == pytest.approx(10)  # clamped at 0, then the increment
    assert clock.is_late(61) and not clock.is_late(59)


def test_clock_move_cap() -> None:
    clock = GameClock(TimeControl(time_limit_ms=10000, time_margin_ms=20, startup_ms=0, move_time_limit_ms=100))
    assert clock.allowance_ms() == 120
    assert clock.is_late(121)
    view = clock.view(ply=4)
    assert view.time_left_ms == 10000 and view.allowance_s == pytest.approx(0.12) and view.first_move


def test_fake_bot_is_a_real_process() -> None:
    # Guard against the fixture silently matching nothing: our own interpreter is on /proc.
    assert os.path.exists(f"/proc/{os.getpid()}/cmdline")
