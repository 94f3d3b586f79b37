"""`arena replay` of N-seat records (record_format 4): Goofspiel matches of three and four bots
played by `arena match`, replayed as plain text, as one seat saw them (`--seat K`), as an HTML page
(checked in chromium when it is installed), in the full-screen view; a toy game with hidden dice
shows that a seat's view tells nothing of the others' hidden draws and moves."""

from __future__ import annotations

import json
import os
import pty
import random
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, GeneralGame, Parameter, draw_chance, ranks
from arena.games.registry import get_table_game
from arena.records.replay import Replay
from arena.records.seats import build_seat_record, check_seat_record, seat_entry
from arena.records.sources import GameEntry
from arena.records.types import Record
from arena.report.frames import decode_frame
from arena.ui.replay_keys import Cursor
from arena.ui.replay_view import plain_text

REPO = Path(__file__).resolve().parents[2]
RANDOM = f"{sys.executable} {REPO / 'bots' / 'goofspiel_random.py'} --seed 1"
HEURISTIC = f"{sys.executable} {REPO / 'bots' / 'goofspiel_heuristic.py'}"
CRASH = f"{sys.executable} -c 'import sys; sys.stdin.readline(); sys.exit(3)'"
FAST = ["--time-limit", "3000", "--move-time-limit", "1500", "--startup-time", "3000"]


def arena(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A three-seat Goofspiel game of five cards."""
    path = tmp_path_factory.mktemp("seats") / "three.json"
    code, _, err = arena("match", HEURISTIC, RANDOM, RANDOM, "--game", "goofspiel", "--param", "num_cards=5",
                         "--seed", "3", "--out", str(path), *FAST)
    assert code == 0, err
    return path


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two four-seat Goofspiel games in one file, a bot crashing (eliminated) in each."""
    path = tmp_path_factory.mktemp("seats") / "four.json"
    code, _, err = arena("match", RANDOM, CRASH, HEURISTIC, RANDOM, "--game", "goofspiel", "--param",
                         "num_cards=4", "--seed", "5", "--games", "2", "--out", str(path), *FAST)
    assert code == 0, err
    return path


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def game_of(record: dict[str, Any]) -> GeneralGame[Any, Any]:
    identity = record["game_identity"]
    return get_table_game(identity["name"], identity["players"], identity["params"])


def boards_of(text: str) -> list[str]:
    """The positions drawn in a plain replay: the indented blocks from ``start:`` on."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.split("\nstart:\n", 1)[1].splitlines():
        if line.startswith("  "):
            if current is None:
                current = []
                blocks.append(current)
            current.append(line[2:])
        else:
            current = None
    return ["\n".join(block) for block in blocks]


def stripped(board: str) -> str:
    return "\n".join(line.rstrip() for line in board.splitlines())


def test_records_check_out(three: Path, four: Path) -> None:
    for path in (three, four):
        code, out, err = arena("check-record", str(path))
        assert code == 0, out + err


def test_plain_replay_shows_the_game_the_seats_and_every_step(three: Path) -> None:
    record = load(three)
    game = game_of(record)
    code, out, err = arena("replay", str(three))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("game 0, goofspiel (3 players, num_cards=5): "
                        + " vs ".join(s["id"] for s in record["seats"]))
    assert lines[1].startswith("view: omniscient")
    for seat, entry in enumerate(record["seats"]):
        row = next(line for line in lines if line.startswith(f"  P{seat}  "))
        assert entry["id"] in row and f"rank {record['ranks'][seat]}" in row, row
    assert f"after {len(record['steps'])} steps" in out and "eliminations: none" in out
    assert f"reason: {record['reason']}" in out
    # Each step in order: the chance draws with their probability, the joint moves of all seats.
    steps = [line for line in lines if re.match(r"\d+\. ", line)]
    assert len(steps) == len(record["steps"])
    for number, (line, step) in enumerate(zip(steps, record["steps"], strict=True), 1):
        if step["kind"] == "chance":
            assert line.startswith(f"{number}. chance: {step['outcome']} ({step['probability']})"), line
        else:
            assert step["kind"] == "joint"
            bids = ", ".join(f"P{s} {m}" for s, m in sorted(step["moves"].items()))
            assert line.startswith(f"{number}. simultaneous: {bids}"), line
    # The omniscient picture of every position.
    expected = [game.board_text(game.state_from_json(s)) for s in record["game_states"]]
    assert boards_of(out) == [stripped(b) for b in expected]
    assert not any(line != line.rstrip() for line in lines)


def test_a_seat_sees_its_observation_at_every_step(three: Path) -> None:
    record = load(three)
    game = game_of(record)
    code, out, err = arena("replay", str(three), "--seat", "1")
    assert code == 0, err
    assert "view: as seat 1 saw it, P1 (you: " in out
    replay = Replay.from_record(record, seat=1)
    states = [game.state_from_json(s) for s in record["game_states"]]
    assert [replay.observation(i) for i in range(replay.last + 1)] == [game.observation(s, 1) for s in states]
    assert boards_of(out) == [stripped(game.board_text(s, 1)) for s in states]
    # Goofspiel shows every bid once a round is over: the seat sees the others' bids afterwards.
    assert all("?" not in replay.step_text(i) for i in range(replay.last))
    # Its own clock and thinking times only.
    clocks = next(line for line in out.splitlines() if line.startswith("clocks: "))
    assert clocks.startswith("clocks: P1 ") and "P0" not in clocks and "P2" not in clocks
    assert all(step.charged_ms is None or set(step.charged_ms) <= {1} for step in replay.steps)


def test_eliminations_and_a_file_of_several_games(four: Path) -> None:
    records = load(four)
    code, out, err = arena("replay", str(four))
    assert code == 0 and "holds 2 games" in err
    assert out.splitlines()[0].split() == ["GAME", "SEATS", "RANKS", "TERMINATION", "STEPS"]
    assert " ".join(map(str, records[1]["ranks"])) in out.splitlines()[2]
    code, out, err = arena("replay", str(four), "--game", "1", "--seat", "0")
    assert code == 0, err
    crashed = records[1]["eliminations"][0]
    label = f"P{crashed['seat']} ({records[1]['seats'][crashed['seat']]['id']})"
    assert f"eliminations: {label} at step " in out and ": crash (" in out
    assert re.search(rf"^\d+\. {re.escape(label)} eliminated: crash", out, re.MULTILINE), out
    assert "rank 4, out at step" in out


def test_usage_errors(three: Path, tmp_path: Path) -> None:
    code, out, err = arena("replay", str(three), "--seat", "3")
    assert code == 2 and err.strip().endswith("--seat 3: this game has seats 0 to 2") and out == ""
    two = tmp_path / "two.json"
    code, _, err = arena("match", f"{sys.executable} {REPO / 'bots' / 'connect4_random.py'}",
                         f"{sys.executable} {REPO / 'bots' / 'connect4_random.py'}", "--game", "connect4",
                         "--max-moves", "6", "--out", str(two), *FAST)
    assert code == 0, err
    code, out, err = arena("replay", str(two), "--seat", "1")
    assert code == 2 and "--seat is for games of N seats" in err and len(err.splitlines()) == 1
    # `arena report` of N-seat records and two-player records together: one line, exit 2.
    mixed = tmp_path / "mixed.json"
    mixed.write_text(json.dumps([load(three), load(two)]))
    code, out, err = arena("report", str(mixed), "-o", str(tmp_path / "r.html"))
    assert code == 2 and len(err.splitlines()) == 1 and "a two-player game among games of N seats" in err, err
    assert not (tmp_path / "r.html").exists()


# -- the HTML page ---------------------------------------------------------------------------------


def page_frames(page: str, index: int = 0) -> tuple[dict[str, Any], list[str]]:
    """The page's game block and the SVG of every position, rebuilt from pieces and frames."""
    def block(name: str) -> Any:
        match = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', page, re.DOTALL)
        assert match, name
        return json.loads(match.group(1))

    pieces, starts, game = block("arena-pieces"), block("arena-starts"), block(f"arena-game-{index}")
    svgs, previous = [], None
    for frame in game["frames"]:
        numbers = decode_frame(previous, frame, starts)
        svgs.append("".join(pieces[n] for n in numbers))
        previous = numbers
    return game, svgs


@pytest.mark.parametrize("seat", [None, 1])
def test_html_page_has_an_svg_per_step(three: Path, tmp_path: Path, seat: int | None) -> None:
    from arena.games.goofspiel.svg import board_svg

    record = load(three)
    out = tmp_path / "game.html"
    code, _, err = arena("replay", str(three), "--html", str(out), *(["--seat", str(seat)] if seat is not None else []))
    assert code == 0 and f"wrote {out}" in err, err
    page = out.read_text()
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")  # nothing fetched
    game, svgs = page_frames(page)
    assert len(svgs) == len(record["steps"]) + 1
    assert svgs == [board_svg(s, seat) for s in record["game_states"]]
    assert len(game["steps"]) == len(record["steps"]) and game["seat"] == seat
    # The seat table (drawn by the page's script): each seat's bot, final return and rank.
    assert [row[1] for row in game["seat_rows"]] == [entry["id"] for entry in record["seats"]]
    assert [row[3].split(",")[0] for row in game["seat_rows"]] == [str(r) for r in record["ranks"]]


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed: the page is not run")
def test_html_page_steps_by_keys_in_a_browser(three: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert arena("replay", str(three), "--html", str(out), "--seat", "2")[0] == 0
    command = [str(shutil.which("chromium")), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-extensions", f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000",
               "--dump-dom", f"{out.as_uri()}#selftest"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        dom, _ = proc.communicate(timeout=90)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # chromium's helpers stay in its group
        except ProcessLookupError:
            pass
        proc.wait()
    verdict = re.search(r'<pre id="selftest">([^<]*)</pre>', dom.decode("utf-8", "replace"))
    assert verdict and verdict.group(1).startswith("PASS game=0 steps="), verdict and verdict.group(1)


# -- the full-screen view --------------------------------------------------------------------------


def test_render_fits_the_screen(four: Path) -> None:
    from rich.console import Console

    from arena.ui.replay_view import render

    record = load(four)[1]
    for seat in (None, 2):
        replay = Replay.from_record(record, seat=seat)
        for width, height in ((120, 40), (70, 24)):
            console = Console(width=width, height=height, color_system=None, file=open(os.devnull, "w"))  # noqa: SIM115
            for position in (0, 1, replay.last):
                lines = console.render_lines(render(replay, Cursor(replay.last, position), width, height),
                                             console.options.update(height=None), pad=False)
                text = "\n".join("".join(seg.text for seg in line) for line in lines)
                assert replay.board(position).splitlines()[0] in text
                if width >= 100:
                    assert len(lines) <= height, (width, position, len(lines))
                if position == replay.last:
                    assert "result: " in text and "rank 4" in text
            console.file.close()


def test_the_viewer_steps_under_a_pty(three: Path) -> None:
    master, slave = pty.openpty()
    import fcntl

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    before = termios.tcgetattr(slave)
    code = ("import os, sys; os.close(os.open(os.ttyname(0), os.O_RDWR)); "
            "from arena.cli.replay_cmd import replay_command; "
            "replay_command.main(sys.argv[1:], prog_name='arena replay')")
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    proc = subprocess.Popen([sys.executable, "-c", code, str(three), "--seat", "1"], stdin=slave, stdout=slave,
                            stderr=slave, env=env, start_new_session=True, close_fds=True)
    drawn = bytearray()

    def drain_until(marker: bytes, seconds: float = 30) -> bool:
        """Read the screen until ``marker`` is drawn after this call began; whether it was."""
        start = len(drawn)
        end = time.monotonic() + seconds
        while marker not in drawn[start:] and proc.poll() is None and time.monotonic() < end:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    drawn.extend(os.read(master, 65536))
                except OSError:
                    break
        return marker in drawn[start:]

    try:
        assert drain_until(b"step 0/")
        for key, marker in ((b"n", b"step 1/"), (b"n", b"step 2/"), (b"p", b"step 1/"), (b"G", b"result: ")):
            os.write(master, key)
            assert drain_until(marker), (key, marker, bytes(drawn[-400:]))
        os.write(master, b"q")
        proc.wait(timeout=30)
        drain_until(b"\x1b[?1049l", 1)
        after = termios.tcgetattr(slave)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
        os.close(slave)
    text = drawn.decode("utf-8", "replace")
    assert proc.returncode == 0, text[-2000:]
    assert after == before and "Traceback" not in text
    steps = len(load(three)["steps"])
    assert f"step {steps}/{steps}" in text and "you: " in text


def test_piped_seat_replay_imports_neither_rich_nor_trio(three: Path) -> None:
    probe = ("import sys; from arena.cli.replay_cmd import replay_command\n"
             "try:\n    replay_command.main([sys.argv[1], '--seat', '0'], prog_name='arena replay')\n"
             "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
             "sys.stderr.write('HEAVY=' + ','.join(sorted({m.split('.')[0] for m in sys.modules} & {'trio', 'rich'})))")
    done = subprocess.run([sys.executable, "-c", probe, str(three)], check=False, capture_output=True, text=True, timeout=60,
                          cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.stderr.strip().endswith("HEAVY="), done.stderr


# -- hidden information: a toy game ----------------------------------------------------------------


@dataclass(frozen=True)
class DiceState:
    rolls: tuple[int, ...]
    bids: tuple[int, ...] | None
    lead: int | None = None


class HiddenDice(GeneralGame[DiceState, int]):
    """Each seat rolls a die only it sees, seat 0 alone leads 0 or 1, then all bid at once;
    ``reveal=0`` keeps the lead and the bids secret too (a seat sees only its own), ``reveal=1``
    shows them after the step."""

    name = "hiddendice"
    min_players, max_players, default_players = 2, 4, 3
    parameters: ClassVar[Mapping[str, Parameter]] = {"reveal": Parameter("reveal", 1, 0, 1)}

    def initial_state(self) -> DiceState:
        return DiceState((), None)

    def actor(self, state: DiceState) -> int:
        if len(state.rolls) < self.players:
            return CHANCE
        if state.lead is None:
            return 0
        return SIMULTANEOUS if state.bids is None else TERMINAL

    def legal_moves(self, state: DiceState, seat: int) -> list[int]:
        if self.actor(state) == 0:
            return [0, 1] if seat == 0 else []
        return [0, 1, 2] if self.actor(state) == SIMULTANEOUS else []

    def chance_outcomes(self, state: DiceState) -> list[tuple[int, Fraction]]:
        return [(face, Fraction(1, 6)) for face in range(1, 7)]

    def apply(self, state: DiceState, move: int) -> DiceState:
        if self.actor(state) == 0:
            return DiceState(state.rolls, state.bids, move)
        return DiceState((*state.rolls, move), state.bids)

    def apply_joint(self, state: DiceState, moves: Mapping[int, int]) -> DiceState:
        return DiceState(state.rolls, tuple(moves[seat] for seat in range(self.players)), state.lead)

    def returns(self, state: DiceState) -> tuple[float, ...]:
        if state.bids is None:
            return (0.0,) * self.players
        totals = [r + b for r, b in zip(state.rolls, state.bids, strict=True)]
        return tuple(1.0 if t == max(totals) else -1.0 for t in totals)

    def ply(self, state: DiceState) -> int:
        return len(state.rolls) + (state.lead is not None) + (state.bids is not None)

    def observation(self, state: DiceState, seat: int) -> dict[str, Any]:
        bids = state.bids if state.bids is None or self.params["reveal"] else [state.bids[seat]]
        lead = state.lead if self.params["reveal"] or seat == 0 else state.lead is not None
        return {"myRoll": state.rolls[seat] if seat < len(state.rolls) else None, "rolled": len(state.rolls),
                "lead": lead, "seenBids": bids}

    def state_to_json(self, state: DiceState) -> dict[str, Any]:
        return {"rolls": list(state.rolls), "bids": None if state.bids is None else list(state.bids),
                "lead": state.lead}

    def state_from_json(self, obj: Any) -> DiceState:
        return DiceState(tuple(obj["rolls"]), None if obj["bids"] is None else tuple(obj["bids"]), obj["lead"])

    def parse_move(self, wire: Any) -> int:
        return int(wire)

    def move_to_wire(self, move: int) -> Any:
        return move


def dice_record(game: HiddenDice, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = game.initial_state()
    states: list[dict[str, Any]] = [game.state_to_json(state)]
    steps: list[dict[str, Any]] = []
    while not game.is_terminal(state):
        if game.actor(state) == CHANCE:
            outcome = draw_chance(game.chance_outcomes(state), rng)
            steps.append({"ply": len(steps), "kind": "chance", "outcome": outcome, "probability": "1/6"})
            state = game.apply(state, outcome)
        elif game.actor(state) == 0:
            lead = rng.choice(game.legal_moves(state, 0))
            steps.append({"ply": len(steps), "kind": "move", "seat": 0, "move": lead, "charged_ms": 2.0,
                          "clock_left_ms": 998.0})
            state = game.apply(state, lead)
        else:
            moves = {seat: rng.choice(game.legal_moves(state, seat)) for seat in game.acting_seats(state)}
            steps.append({"ply": len(steps), "kind": "joint", "moves": {str(s): m for s, m in moves.items()},
                          "charged_ms": {str(s): 1.5 for s in moves}, "clock_left_ms": {str(s): 900.0 for s in moves}})
            state = game.apply_joint(state, moves)
        states.append(game.state_to_json(state))
    returns = list(game.returns(state))
    return build_seat_record(
        identity=game.identity(), seats=[seat_entry(s, f"P{s}", f"bot{s}", "executable", None) for s in range(3)],
        steps=steps, states=states, returns=returns, ranks=list(ranks(returns)), termination="win", reason="by the rules",
        eliminations=[], clocks_left_ms=[900.0] * 3, time_control={"timeLimit": 1000}, max_moves=10, seed=seed,
        game_index=None, started_at="2026-11-26T00:00:00Z", duration_s=0.1)


def with_roll(record: dict[str, Any], seat: int, roll: int) -> dict[str, Any]:
    """``record`` with seat ``seat``'s die showing ``roll`` (the same game otherwise)."""
    changed = json.loads(json.dumps(record))
    changed["steps"][seat]["outcome"] = roll
    for state in changed["game_states"]:
        if len(state["rolls"]) > seat:
            state["rolls"][seat] = roll
    return changed


@pytest.mark.parametrize("reveal", [0, 1])
def test_a_seat_sees_nothing_of_the_others_hidden_dice(reveal: int) -> None:
    game = HiddenDice(3, reveal=reveal)
    record = dice_record(game, seed=11)
    assert check_seat_record(record, game) == []
    seen = Replay.from_record(record, seat=0, game=game)
    texts = [seen.step_text(i) for i in range(seen.last)]
    rolls = record["game_states"][-1]["rolls"]
    assert texts[:3] == [f"chance: {rolls[0]} (1/6)", "chance", "chance"]  # its own die, then the others'
    lead = record["steps"][3]["move"]
    assert texts[3] == f"P0 (you: bot0): {lead}"
    bids = record["steps"][4]["moves"]
    shown = [bids["1"], bids["2"]] if reveal else ["?", "?"]
    assert texts[4] == f"simultaneous: P0 (you) {bids['0']}, P1 {shown[0]}, P2 {shown[1]}"
    # Seat 0's lead, seen by seat 1 only when the game reveals it; seat 1's own clock only.
    seat1 = Replay.from_record(record, seat=1, game=game)
    assert seat1.step_text(3) == f"P0 (bot0): {lead if reveal else '?'}"
    assert seat1.steps[3].charged_ms == {} and seat1.clocks_at(4) == {1: 1000.0}
    # The leak test: another die for seat 1 (and seat 2) changes nothing seat 0 is shown.
    plain = plain_text(seen)
    for other in (1, 6):
        changed = with_roll(with_roll(record, 1, other), 2, 7 - other)
        assert plain_text(Replay.from_record(changed, seat=0, game=game)) == plain
        assert plain_text(Replay.from_record(changed, game=game)) != plain_text(
            Replay.from_record(record, game=game)) or (rolls[1], rolls[2]) == (other, 7 - other)
    omniscient = Replay.from_record(record, game=game)
    assert [omniscient.step_text(i) for i in range(3)] == [f"chance: {r} (1/6)" for r in rolls]


def test_a_seat_page_draws_the_seats_own_view() -> None:
    from arena.report.html import viewer_html

    game = HiddenDice(3, reveal=0)
    record = dice_record(game, seed=5)
    page = viewer_html(GameEntry(0, "?", "?", "?", "win", None, record=cast(Record, record)),
                            Replay.from_record(record, seat=2, game=game))
    payload, svgs = page_frames(page)
    assert len(svgs) == len(record["steps"]) + 1
    # No SVG function for this game: its board_text for seat 2, which is seat 2's observation.
    for svg, state in zip(svgs, record["game_states"], strict=True):
        assert json.dumps(game.observation(game.state_from_json(state), 2), sort_keys=True) in svg.replace(
            "&quot;", '"')
    assert payload["steps"][:3] == ["chance", "chance", f"chance: {record['game_states'][-1]['rolls'][2]} (1/6)"]


def test_a_four_seat_love_letter_game_replays_as_all_saw_it_and_as_one_seat_saw_it(tmp_path: Path) -> None:
    """The issue's demonstration: a four-player Love Letter game in the terminal (plain) and as an
    HTML page, omniscient and as seat 2 saw it; seat 2's view is its observation at every step."""
    bots = REPO / "bots"
    heuristic, random_bot = (f"{sys.executable} {bots / f'love_letter_{kind}.py'}" for kind in ("heuristic", "random"))
    path = tmp_path / "love.json"
    code, _, err = arena("match", heuristic, random_bot, random_bot, random_bot, "--game", "love_letter",
                         "--param", "tokens_to_win=1", "--seed", "7", "--out", str(path), *FAST)
    assert code == 0, err
    record = load(path)
    game = game_of(record)
    states = [game.state_from_json(state) for state in record["game_states"]]
    code, everything, err = arena("replay", str(path), "--plain")
    assert code == 0, err
    assert [stripped(b) for b in boards_of(everything)] == [stripped(game.board_text(s)) for s in states]
    code, seat_view, err = arena("replay", str(path), "--plain", "--seat", "2")
    assert code == 0, err
    assert [stripped(b) for b in boards_of(seat_view)] == [stripped(game.board_text(s, 2)) for s in states]
    assert everything != seat_view and "hand ?" in seat_view
    for seat in (None, 2):
        page = tmp_path / f"love-{seat}.html"
        code, _, err = arena("replay", str(path), "--html", str(page), *(["--seat", str(seat)] if seat is not None else []))
        assert code == 0, err
        text = page.read_text()
        assert ("as seat 2 saw it" in text) == (seat == 2) and "love_letter" in text
