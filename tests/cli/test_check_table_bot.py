"""`arena check-bot` for every game: probes found in the game itself (arena.tools.probes) run
through the N-seat engine; a good bot passes them, a bot that fails in one is reported with a line
naming the probe; a game's own corner cases become probes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.games.registry import get_table_game
from arena.tools.probes import (
    CHANCE_OUTCOME,
    FORCED_PASS,
    SEAT_OUT,
    SIMULTANEOUS_MOVE,
    SINGLE_MOVE,
    declared_probes,
    derived_probes,
    is_pass,
)

ROOT = Path(__file__).resolve().parents[2]

# Plays the first legal move (from legalMoves); BROKEN: when that is the only one, a well-formed
# move that is not it (Love Letter's forced plays never leave the Princess as the only card to play).
BOT = """import json, sys
for line in sys.stdin:
    message = json.loads(line)
    legal = message["legalMoves"]
    move = legal[0]
    if {broken} and len(legal) == 1:
        move = "princess"
    print(json.dumps({{"type": "turn", "payload": move}}), flush=True)
"""


def run_check(tmp_path: Path, bot: str, *args: str) -> tuple[int, list[str]]:
    out = subprocess.run([sys.executable, "-m", "arena", "check-bot", f"python3 {bot}", "--games", "1", *args],
                         capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=300, check=False)
    assert "Traceback" not in out.stderr, out.stderr
    return out.returncode, out.stdout.splitlines()


def test_kuhn_poker_probes_find_a_chance_node_and_a_random_bot_passes(tmp_path: Path) -> None:
    code, lines = run_check(tmp_path, "bots/kuhn_poker_random.py", "--game", "kuhn_poker", "--players", "3")
    assert code == 0, lines
    assert lines[0] == "checking 'kuhn_poker_random' (python3 bots/kuhn_poker_random.py) playing kuhn_poker", lines[0]
    lines = lines[1:]
    assert all(line.startswith("✓") for line in lines[:-1]) and lines[-1] == f"{len(lines) - 1} of {len(lines) - 1} checks passed"
    names = [line[2:].split(":")[0] for line in lines[:-1]]
    for probe in (CHANCE_OUTCOME, SEAT_OUT, "playing as seat 2 (P2)", "a whole game at seat 0 against random"):
        assert probe in names, names
    assert not any("was not asked" in line for line in lines if CHANCE_OUTCOME in line)


def test_a_bot_that_fails_where_only_one_move_is_legal_is_named_by_that_probe(tmp_path: Path) -> None:
    bot = tmp_path / "broken.py"
    bot.write_text(BOT.format(broken=True))
    code, lines = run_check(tmp_path, str(bot), "--game", "love_letter", "--players", "3", "--legal-moves")
    assert code == 1, lines
    failed = [line for line in lines if line.startswith("✗")]
    assert failed[0].startswith(f"✗ {SINGLE_MOVE}: illegal_move: seat "), lines  # the probe, by name
    assert "bot 'broken' played an illegal move" in failed[0] and "princess" in failed[0]
    # Elsewhere only a whole game can meet such a position too.
    assert all(line.startswith(("✗ a whole game", f"✗ {SINGLE_MOVE}")) for line in failed), failed
    assert lines[-1].endswith(f"; {len(failed)} failed")
    good = tmp_path / "good.py"
    good.write_text(BOT.format(broken=False))
    code, lines = run_check(tmp_path, str(good), "--game", "love_letter", "--players", "3", "--legal-moves", "--json")
    report = json.loads("\n".join(lines))
    assert code == 0 and report["ok"] and SINGLE_MOVE in [c["name"] for c in report["checks"]]


def test_a_simultaneous_game_and_an_openspiel_game_are_probed(tmp_path: Path) -> None:
    code, lines = run_check(tmp_path, "bots/goofspiel_random.py", "--game", "goofspiel", "--players", "3",
                            "--param", "num_cards=4")
    assert code == 0, lines
    assert any(line.startswith(f"✓ {SIMULTANEOUS_MOVE}") for line in lines) and any(SEAT_OUT in line for line in lines)
    pytest.importorskip("pyspiel")
    code, lines = run_check(tmp_path, "bots/legal_random.py --seed 1", "--game", "spiel:liars_dice")
    assert code == 0, lines
    assert any(line.startswith(f"✓ {SINGLE_MOVE}") for line in lines)  # "Liar" after the highest bid


def test_the_probes_are_the_same_every_run_and_name_the_seats_the_bot_takes() -> None:
    game = get_table_game("kuhn_poker", 3)
    first, again = derived_probes(game, 7, 100), derived_probes(game, 7, 100)
    assert [(p.label, game.state_to_json(p.state), p.seats) for p in first] == \
        [(p.label, game.state_to_json(p.state), p.seats) for p in again]
    by_label = {p.label: p for p in first}
    assert by_label[CHANCE_OUTCOME].seats == (0, 1, 2)
    assert game.actor(by_label["playing as seat 1 (P1)"].state) == 1
    out = by_label[SEAT_OUT]
    assert len(out.seats) == 2 and game.acting_seats(out.state)[0] in out.seats


def test_a_two_player_game_has_a_seat_probe_each_and_no_chance() -> None:
    game = get_table_game("connect4")
    labels = [p.label for p in derived_probes(game, 1, 42)]
    assert labels == ["playing as seat 0 (BLACK)", "playing as seat 1 (WHITE)"]


class _PassGame:
    """Kuhn poker whose "pass" is the only move of seat 1, and which declares a corner case."""

    def __init__(self) -> None:
        self.inner = get_table_game("kuhn_poker", 3)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def legal_moves(self, state: object, seat: int) -> list[object]:
        moves = self.inner.legal_moves(state, seat)
        return [m for m in moves if m == "pass"] if seat == 1 else moves

    def probe_positions(self) -> list[tuple[str, object]]:
        return [("everyone passed but the last", self.inner.state_from_json(
            {"players": 3, "cards": [0, 1, 2], "history": [[0, "pass"], [1, "pass"]]}))]


def test_a_forced_pass_and_a_games_own_corner_cases_become_probes() -> None:
    game = _PassGame()
    assert is_pass(game, "pass") and not is_pass(game, "bet")  # type: ignore[arg-type]
    probes = derived_probes(game, 1, 100)  # type: ignore[arg-type]
    forced = [p for p in probes if p.label == FORCED_PASS]
    assert forced and forced[0].seats == (1,) and game.actor(forced[0].state) == 1
    declared = declared_probes(game)  # type: ignore[arg-type]
    assert [(p.label, p.seats) for p in declared] == [("everyone passed but the last", (2,))]
