"""Play a general-model game in process: bots' decision functions fed the N-seat protocol's
game_state lines (made with json, as arena would write them), chance drawn from a seeded generator.
No engine is needed; the lines a bot sees are exactly ``observation(state, seat)`` in the envelope."""

from __future__ import annotations

import importlib.util
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.games.model import CHANCE, SIMULTANEOUS, GeneralGame, draw_chance

BOTS = Path(__file__).resolve().parents[2] / "bots"

#: A bot's decision: the decoded game_state message in, the wire move out.
Chooser = Callable[[dict[str, Any]], Any]


def load_bot(file_name: str) -> ModuleType:
    """A bot file of bots/ as a module (its ``main`` is not run)."""
    path = BOTS / file_name
    spec = importlib.util.spec_from_file_location("bot_" + path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def message(game: GeneralGame[Any, Any], state: Any, seat: int, simultaneous: bool) -> dict[str, Any]:
    """The game_state line arena writes to ``seat`` (without legalMoves), decoded again."""
    line = json.dumps({"type": "game_state", "payload": game.observation(state, seat), "timeLeftMs": 10000,
                       "seat": seat, "players": game.players, "simultaneous": simultaneous})
    decoded: dict[str, Any] = json.loads(line)
    return decoded


def play(game: GeneralGame[Any, Any], bots: Sequence[Chooser], rng: random.Random, max_steps: int = 10_000) -> Any:
    """Play one game to its end; each bot's reply is parsed and validated as arena would."""
    state = game.initial_state()
    for _ in range(max_steps):
        who = game.actor(state)
        if game.is_terminal(state):
            return state
        if who == CHANCE:
            state = game.apply(state, draw_chance(game.chance_outcomes(state), rng))
        elif who == SIMULTANEOUS:
            joint = {seat: game.validate_move(state, seat, game.parse_move(bots[seat](message(game, state, seat, True))))
                     for seat in game.acting_seats(state)}
            state = game.apply_joint(state, joint)
        else:
            move = game.validate_move(state, who, game.parse_move(bots[who](message(game, state, who, False))))
            state = game.apply(state, move)
    raise AssertionError("the game did not end")
