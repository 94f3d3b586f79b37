"""The human player driven by scripted lines, its output captured on a colourless rich Console: at a
two-player board game and at a seat of an N-seat game."""

from __future__ import annotations

import io
import os
import re
from typing import Any

import pytest
import trio
from rich.console import Console

from arena.games import Color, Termination
from arena.games.model import color_of
from arena.games.registry import configured_game
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players import make_player
from arena.players.base import ClockView, MoveReply
from arena.players.spec import AgentSpec
from arena.ui.human import (
    FdLineReader,
    HumanPlayer,
    ThreadedLines,
    format_clock,
    parse_human_move,
)

SPEC = AgentSpec(id="alice", kind="human")


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=False, color_system=None, width=100), out


def clock(left_ms: float = 90_000.0, allowance_s: float = 30.0) -> ClockView:
    return ClockView(time_limit_ms=100_000, time_left_ms=left_ms, allowance_s=allowance_s, first_move=True, ply=0)


async def ask(game_name: str, script: str, state: Any = None, view: ClockView | None = None,
              color: Color | None = None) -> tuple[MoveReply, str]:
    """One request_move of a fresh HumanPlayer reading ``script``; the reply and all output."""
    game = configured_game(game_name)
    state = game.initial_state() if state is None else state
    con, out = console()
    lines = ThreadedLines(io.StringIO(script).readline)
    player = make_player(SPEC, game, color or color_of(game.actor(state)), console=con, lines=lines)
    assert isinstance(player, HumanPlayer)
    async with player:
        reply = await player.request_move(state, view or clock())
    return reply, out.getvalue()


def checkers_wire(text: str) -> str:
    game = configured_game("checkers")
    return game.move_to_wire(game.parse_notation(text, game.initial_state()))


async def test_checkers_legal_move_is_returned_in_wire_form() -> None:
    reply, out = await ask("checkers", "11-15\n")
    assert reply.fault is None
    assert reply.wire == "2 5 2 4 3" == checkers_wire("11-15")
    assert reply.raw == b"11-15"
    assert reply.received_at >= reply.sent_at
    # The board with its PDN numbers, the clock and the prompt were shown.
    assert "○32" in out and "squares 29-32" in out
    assert re.search(r"BLACK ● 1:(30\.0|29\.\d) > 11-15", out), out
    assert "You played 11-15" in out


async def test_question_mark_lists_the_legal_moves() -> None:
    reply, out = await ask("checkers", "?\n9-13\n")
    # Listed under the board (few moves), then again for "?".
    assert out.count("7 legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16") == 2
    assert reply.wire == checkers_wire("9-13")


async def test_question_mark_with_a_square_lists_that_piece_only() -> None:
    _, out = await ask("checkers", "? 11\n?12\n?5\n11-15\n")
    assert "2 legal moves: 11-15, 11-16" in out
    assert "1 legal move: 12-16" in out
    assert "No legal move with the piece on 5." in out


async def test_garbage_is_explained_then_a_legal_move_succeeds() -> None:
    reply, out = await ask("checkers", "hello\n\n11-15\n")
    assert "✗ 'hello' is not a move" in out and "(? lists the" in out
    assert reply.fault is None and reply.wire == checkers_wire("11-15")
    assert reply.raw == b"11-15"


async def test_illegal_move_gives_the_rules_reason() -> None:
    reply, out = await ask("checkers", "11-14\n22-18\n10-15\n")
    explanations = [line for line in out.splitlines() if line.startswith("✗ Not legal")]
    assert len(explanations) == 2, out
    # The game's own reasons, naming the squares.
    assert "PDN 14" in out and "PDN 22" in out
    assert reply.wire == checkers_wire("10-15")


async def test_eof_is_a_clean_resignation() -> None:
    reply, out = await ask("checkers", "")
    assert reply.fault is not None
    assert reply.fault.termination is Termination.RESIGN
    assert "input ended" in reply.fault.detail
    assert "End of input" in out


async def test_eof_after_wrong_entries() -> None:
    reply, _ = await ask("shobu", "nonsense\n")
    assert reply.fault is not None and reply.fault.termination is Termination.RESIGN


async def test_resign_asks_for_confirmation() -> None:
    reply, out = await ask("checkers", "resign\nn\nquit\ny\n")
    assert "Resign this game?" in out
    assert reply.fault is not None and reply.fault.termination is Termination.RESIGN
    assert reply.fault.detail == "resigned at the terminal (typed 'quit')"
    assert out.count("Resign this game?") == 2 and "You resigned." in out


async def test_help_explains_the_notation() -> None:
    _, out = await ask("checkers", "help\n11-15\n")
    assert "22x15x8" in out and "Captures are compulsory" in out
    _, out = await ask("shobu", "HELP\n07 43 N\n")
    assert "<passive stone> <aggressive stone> <direction>[2]" in out
    assert "bottom two" in out


async def test_board_command_redraws() -> None:
    _, out = await ask("checkers", "board\n11-15\n")
    assert out.count("squares 1-4") == 2


async def test_shobu_move_in_notation() -> None:
    game = configured_game("shobu")
    reply, out = await ask("shobu", "07 43 n\n")
    assert reply.fault is None
    assert reply.wire == {
        "passive": {"origin": {"x": 0, "y": 7}, "heading": {"x": 0, "y": -1}},
        "aggressive": {"origin": {"x": 4, "y": 3}, "heading": {"x": 0, "y": -1}},
    }
    assert game.validate_move(game.initial_state(), 0, game.parse_move(reply.wire))
    assert "BLACK's home boards" in out and "WHITE's home boards" in out


async def test_shobu_two_step_move() -> None:
    reply, _ = await ask("shobu", "17 53 NE2\n")
    assert reply.wire["passive"] == {"origin": {"x": 1, "y": 7}, "heading": {"x": 2, "y": -2}}
    assert reply.wire["aggressive"]["origin"] == {"x": 5, "y": 3}


async def test_shobu_swapped_stones_get_a_hint() -> None:
    reply, out = await ask("shobu", "43 07 N\n07 43 N\n")
    assert "✗ Not legal" in out and "Did you mean 07 43 N?" in out
    assert reply.fault is None


async def test_shobu_wrong_entries() -> None:
    _, out = await ask("shobu", "07 43 Q\n07 03 N\n07 43 N\n")
    assert "✗ cannot read \"07 43 Q\" as a Shobu turn" in out and "e.g. '07 43 N'" in out
    # 07 and 03 are on the two left boards: the same colour, which the rules forbid.
    assert "✗ Not legal" in out
    assert out.count("✗") == 2


async def test_shobu_move_list_is_grouped() -> None:
    _, out = await ask("shobu", "?\n? 07\n07 43 N\n")
    assert "232 legal turns" in out
    assert "07 N:   43 53 63 73 47 57 67 77" in out
    # "? 07" lists the turns moving that stone (passively or aggressively) only.
    filtered = out.split("? 07")[1]
    assert "07 N:" in filtered and "17 N:" not in filtered


async def test_white_sees_the_opponents_last_move() -> None:
    game = configured_game("checkers")
    opened = game.apply(game.initial_state(), game.parse_notation("11-15", game.initial_state()))
    reply, out = await ask("checkers", "22-18\n", state=opened, color=Color.WHITE)
    assert "BLACK played 11-15" in out
    assert "[●15]" in out and "·11" in out
    assert "WHITE ○" in out
    assert reply.wire == game.move_to_wire(game.parse_notation("22-18", opened))


async def test_last_move_is_followed_across_turns_with_a_shobu_push() -> None:
    game = configured_game("shobu")
    con, out = console()
    lines = ThreadedLines(io.StringIO("07 43 N\n17 53 N\n").readline)
    player = HumanPlayer(SPEC, game, 0, console=con, lines=lines)
    async with player:
        state = game.initial_state()
        reply = await player.request_move(state, clock())
        state = game.apply(state, game.parse_move(reply.wire))
        # White pushes the stone black just moved (0,7)->(0,6) back to (0,7), which is empty now.
        white_move = parse_human_move(game, state, "50 04 S2")
        after_white = game.apply(state, white_move)
        reply = await player.request_move(after_white, clock())
    text = out.getvalue()
    assert "WHITE played 50 04 S2, pushing your ● from 06 to 07" in text
    assert "{●}" in text  # the pushed stone is marked on the board
    assert reply.fault is None


async def test_timeout_when_the_human_does_not_answer() -> None:
    read_fd, write_fd = os.pipe()
    try:
        game = configured_game("checkers")
        con, out = console()
        lines = ThreadedLines(FdLineReader(read_fd))
        player = HumanPlayer(SPEC, game, 0, console=con, lines=lines)
        with trio.fail_after(5):
            async with player:
                reply = await player.request_move(game.initial_state(), clock(allowance_s=0.2))
        assert reply.fault is not None and reply.fault.termination is Termination.TIMEOUT
        assert "Time is up" in out.getvalue()
        assert reply.received_at - reply.sent_at >= 0.19
        # The line typed too late is not lost: it is the next answer.
        os.write(write_fd, b"11-15\n")
        with trio.fail_after(5):
            assert await lines.readline() == "11-15"
    finally:
        os.close(write_fd)
        os.close(read_fd)


def test_fd_reader_lines_partial_last_line_and_bad_utf8() -> None:
    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"11-15\r\n\xff\xfe x\nlast")
    os.close(write_fd)
    reader = FdLineReader(read_fd)
    assert [reader(), reader(), reader(), reader()] == ["11-15\r\n", "\ufffd\ufffd x\n", "last", ""]
    os.close(read_fd)


def test_threaded_lines_survive_successive_trio_runs() -> None:
    lines = ThreadedLines(io.StringIO("a\n\nb\n").readline)
    assert trio.run(lines.readline) == "a"
    assert trio.run(lines.readline) == ""
    assert trio.run(lines.readline) == "b"
    assert trio.run(lines.readline) is None
    assert trio.run(lines.readline) is None


def test_parse_human_move_raises_game_errors() -> None:
    from arena.games import IllegalMoveError, MoveSyntaxError

    checkers = configured_game("checkers")
    with pytest.raises(MoveSyntaxError):
        parse_human_move(checkers, checkers.initial_state(), "e2-e4")
    with pytest.raises(IllegalMoveError):
        parse_human_move(checkers, checkers.initial_state(), "1-5")
    shobu = configured_game("shobu")
    with pytest.raises(IllegalMoveError):
        parse_human_move(shobu, shobu.initial_state(), "07 43 S")


def test_format_clock() -> None:
    assert format_clock(90_000) == "1:30.0"
    assert format_clock(5_432) == "0:05.4"
    assert format_clock(-10) == "0:00.0"
    assert format_clock(3_725_000) == "1:02:05"


async def test_human_against_human_through_play_game() -> None:
    """Two humans share one input: the match loop accepts their wire moves like a bot's."""
    con, out = console()
    lines = ThreadedLines(io.StringIO("11-15\n22-18\n15x22\n").readline)
    record = await play_game(
        configured_game("checkers"),
        AgentSpec(id="alice", kind="human"),
        AgentSpec(id="bob", kind="human"),
        time_control=TimeControl(time_limit_ms=60_000),
        max_moves=3,
        player_opts={"console": con, "lines": lines},
    )
    assert record["termination"] == "max_moves", record["reason"]
    assert [turn["pdn"] for turn in record["turns"]] == ["11-15", "22-18", "15x22"]
    # Each human sees the other's move: bob (white) from the start, alice after her own move.
    assert "BLACK played 11-15" in out.getvalue() and "WHITE played 22-18" in out.getvalue()


async def test_resignation_through_play_game() -> None:
    con, _ = console()
    lines = ThreadedLines(io.StringIO("resign\ny\n").readline)
    record = await play_game(
        configured_game("shobu"),
        AgentSpec(id="alice", kind="human"),
        AgentSpec(id="bob", kind="human"),
        time_control=TimeControl(time_limit_ms=60_000),
        player_opts={"console": con, "lines": lines},
    )
    assert record["termination"] == "resign"
    assert record["winner"] == "WHITE"
    assert "resigned at the terminal" in record["reason"]


def test_a_failing_reader_counts_as_end_of_input() -> None:
    def broken() -> str:
        raise OSError(5, "Input/output error")

    lines = ThreadedLines(broken)
    assert trio.run(lines.readline) is None


async def test_ctrl_d_at_a_terminal_asks_before_resigning() -> None:
    """A terminal's end of input is not final: the person is asked, and may go on playing."""
    game = configured_game("checkers")
    state = game.initial_state()
    script = iter(["", "n\n", "11-15\n"])  # Ctrl-D, "no", then a move
    lines = ThreadedLines(lambda: next(script, ""), eof_is_final=False)
    con, out = console()
    player = make_player(SPEC, game, Color.BLACK, console=con, lines=lines)
    reply = await player.request_move(state, clock())
    assert reply.fault is None and reply.wire == checkers_wire("11-15")
    assert "End of input (Ctrl-D). Resign this game?" in out.getvalue()
    script = iter(["", ""])  # Ctrl-D twice: the second answers the question
    lines = ThreadedLines(lambda: next(script, ""), eof_is_final=False)
    player = make_player(SPEC, game, Color.BLACK, console=con, lines=lines)
    reply = await player.request_move(state, clock())
    assert reply.fault is not None and reply.fault.termination is Termination.RESIGN
    assert reply.fault.detail == "resigned at the terminal (Ctrl-D, confirmed)"


class SlowLines:
    """A person who types ``line`` after ``delay_s`` seconds (of trio's clock)."""

    def __init__(self, line: str, delay_s: float) -> None:
        self.line, self.delay_s = line, delay_s

    async def readline(self) -> str | None:
        await trio.sleep(self.delay_s)
        return self.line


async def test_the_clock_counts_down_at_the_prompt(autojump_clock: Any) -> None:
    game = configured_game("checkers")
    con, out = console()
    player = make_player(SPEC, game, Color.BLACK, console=con, lines=SlowLines("11-15", 25.0), echo=False)
    reply = await player.request_move(game.initial_state(), clock(left_ms=40_000, allowance_s=45.0))
    assert reply.fault is None
    text = out.getvalue()
    # 40 s on the clock, 25 s of thinking: the 30 s and 10 s marks pass, the 60 s one never came.
    assert "0:30.0 left" in text and "0:10.0 left" not in text and "1:00.0 left" not in text
    assert text.count("BLACK ●") >= 2  # the prompt is shown again with the time then left


# -- a seat of an N-seat game ---------------------------------------------------------------------


def dealt(name: str, players: int, seed: int = 1) -> tuple[Any, Any]:
    """``name`` with ``players`` seats and its state after the opening chance draws."""
    import random

    from arena.games.model import random_step
    from arena.games.registry import get_table_game

    game = get_table_game(name, players)
    state, rng = game.initial_state(), random.Random(seed)
    while game.actor(state) == -1:  # chance
        state = random_step(game, state, rng)
    return game, state


async def ask_seat(game: Any, state: Any, seat: int, script: str) -> tuple[MoveReply, str]:
    con, out = console()
    player = make_player(SPEC, game, Color.BLACK, seat=seat, console=con,
                         lines=ThreadedLines(io.StringIO(script).readline))
    assert isinstance(player, HumanPlayer)
    async with player:
        reply = await player.request_move(state, clock())
    return reply, out.getvalue()


async def test_a_seat_sees_only_its_observation_and_types_the_wire_form() -> None:
    game, state = dealt("kuhn_poker", 3)
    cards = game.state_to_json(state)["cards"]
    reply, out = await ask_seat(game, state, 0, "nonsense\n\"bet\"\n")
    assert reply.fault is None and reply.wire == "bet" and reply.raw == b'"bet"'
    assert "you play P0 (seat 0 of 3) in kuhn_poker" in out
    assert f"P0  card  {cards[0]}" in out and "P1  card  ?" in out and "P2  card  ?" in out
    assert f"card  {cards[1]}" not in out and f"card  {cards[2]}" not in out
    assert "2 legal moves: pass, bet" in out  # few moves: listed unasked
    assert "✗ 'nonsense': a Kuhn poker move is" in out  # explained, asked again
    assert re.search(r"P0 1:(30\.0|29\.\d) > nonsense", out), out


async def test_a_seat_may_type_the_notation_and_filter_the_moves() -> None:
    game, state = dealt("kuhn_poker", 2)
    reply, out = await ask_seat(game, state, 0, "help\n? p\nPASS\n")
    assert "1 legal move: pass" in out
    assert reply.fault is None and reply.wire == "pass"  # the notation, case aside


async def test_a_simultaneous_step_says_so_and_takes_a_json_number() -> None:
    game, state = dealt("goofspiel", 2)
    reply, out = await ask_seat(game, state, 1, "99\n3\n")
    assert "The other seats choose at the same time." in out
    assert "✗ Not legal" in out and reply.fault is None and reply.wire == 3


async def test_a_seat_resigns_after_confirming_and_at_the_end_of_input() -> None:
    game, state = dealt("kuhn_poker", 3)
    reply, out = await ask_seat(game, state, 0, "resign\ny\n")
    assert reply.fault is not None and reply.fault.detail == "resigned at the terminal (typed 'resign')"
    assert "Resign this game?" in out
    reply, out = await ask_seat(game, state, 0, "")
    assert reply.fault is not None and "input ended" in reply.fault.detail and "End of input" in out


async def test_people_at_every_seat_of_an_n_seat_game_through_play_game() -> None:
    """The match loop gives a person at a seat its console and input like a two-player human."""
    from arena.games.registry import get_table_game

    con, out = console()
    record = await play_game(get_table_game("kuhn_poker", 2), AgentSpec(id="alice", kind="human"),
                             AgentSpec(id="bob", kind="human"), time_control=TimeControl(time_limit_ms=60_000),
                             seed=4, player_opts={"console": con, "lines": ThreadedLines(io.StringIO("bet\nbet\n").readline)})
    assert record["record_format"] == 4 and record["eliminations"] == []
    assert [step["move"] for step in record["steps"] if step["kind"] == "move"] == ["bet", "bet"]
    text = out.getvalue()
    assert "alice: you play P0 (seat 0 of 2)" in text and "bob: you play P1 (seat 1 of 2)" in text
