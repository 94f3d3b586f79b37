"""Shared helpers for the tournament tests: a tiny configurable Shobu bot and config writers.

A module name of its own: `from conftest import ...` is ambiguous when several test folders have a
conftest."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import trio

from arena.tournament.runner import SilentReporter

REPO = Path(__file__).resolve().parents[2]

# A Shobu bot on arena's own rules (fast to write, always legal). Options:
#   --sleep-ms N   wait N ms before each reply;   --crash-at N   exit 3 on its N-th move;
#   --seed N       random choice of move (default: the first legal move).
TEST_BOT = r'''
import argparse, json, random, sys, time
from arena.games import get_game
p = argparse.ArgumentParser()
p.add_argument("--sleep-ms", type=int, default=0)
p.add_argument("--crash-at", type=int, default=0)
p.add_argument("--seed", type=int, default=None)
a = p.parse_args()
game = get_game("shobu")
rng = random.Random(a.seed)
moves_made = 0
for line in sys.stdin:
    if not line.strip():
        continue
    state = game.state_from_json(json.loads(line)["payload"])
    moves_made += 1
    if a.crash_at and moves_made >= a.crash_at:
        print("crashing on purpose", file=sys.stderr)
        sys.exit(3)
    if a.sleep_ms:
        time.sleep(a.sleep_ms / 1000)
    moves = game.legal_moves(state)
    move = rng.choice(moves) if a.seed is not None else moves[0]
    print(json.dumps({"type": "turn", "payload": game.move_to_wire(move)}), flush=True)
'''


def bot_command(bot: Path, *args: str) -> str:
    return " ".join([sys.executable, str(bot), *args])


def shobu_config(folder: Path, bot: Path, *, id: str = "t", agents: int = 3, name: str = "t.json",
                 **extra: Any) -> Path:
    """A Shobu round robin of ``agents`` seeded random test bots, short games."""
    obj: dict[str, Any] = {
        "id": id,
        "game": "shobu",
        "agents": [{"type": "executable", "id": f"b{i}", "path": bot_command(bot, "--seed", str(i))}
                   for i in range(agents)],
        "tournamentType": "roundRobin",
        "timeLimit": 20000,
        "maxMoves": 8,
    }
    obj.update(extra)
    path = folder / name
    path.write_text(json.dumps(obj))
    return path


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


class StopAfter(SilentReporter):
    """Cancels ``scope`` once ``count`` games have finished: a stand-in for Ctrl-C."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.scope = trio.CancelScope()

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        self.count -= 1
        if self.count == 0:
            self.scope.cancel()
