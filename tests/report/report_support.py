"""Records and log folders for the report tests, made without running bots (milliseconds each).

:func:`synthetic_record` plays seeded random legal moves with the game's own rules and builds the
record with :func:`arena.records.format.build_record`, so it is a complete (format 4) record that the test
suite validates against the schema: random opening plies marked, notation, charged times, clocks.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from arena.games.base import Color, Outcome, Termination
from arena.games.registry import get_game
from arena.records.format import build_record, colour_step, player_entry, turn_entry, utc_now_iso
from arena.records.reader import record_name

TIME_LIMIT_MS = 30_000


def synthetic_record(game_name: str, *, seed: int, max_plies: int = 60, opening_plies: int = 2,
                     black: str = "alpha", white: str = "beta", index: int | None = None) -> dict[str, Any]:
    """A finished game of random moves: at most ``max_plies`` plies, then a ``max_moves`` draw."""
    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [game.state_to_json(state)]
    turns: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    times: list[float] = []
    clocks = {Color.BLACK: float(TIME_LIMIT_MS), Color.WHITE: float(TIME_LIMIT_MS)}
    outcome: Outcome | None = None
    for ply in range(max_plies):
        outcome = game.outcome(state)
        if outcome is not None:
            break
        mover = game.to_move(state)
        move = rng.choice(game.legal_moves(state))
        if ply < opening_plies:
            turns.append(turn_entry(game, move, opening=True))
        else:
            charged = round(rng.uniform(0.5, 400.0), 3)
            clocks[mover] -= charged
            times.append(charged)
            turns.append(turn_entry(game, move, opening=False, charged_ms=charged, clock_left_ms=clocks[mover]))
        steps.append(colour_step(game, move, 0 if mover is Color.BLACK else 1, game.ply(state), turns[-1]))
        state = game.apply(state, move)
        states.append(game.state_to_json(state))
    else:
        outcome = game.outcome(state)
    if outcome is None:
        outcome = Outcome(Termination.MAX_MOVES, None, f"draw: the game reached maxMoves ({max_plies} moves)")
    return build_record(
        game_name=game_name, outcome=outcome,
        players=[player_entry(black, "executable", f"./{black}", Color.BLACK),
                 player_entry(white, "executable", f"./{white}", Color.WHITE)],
        turns=turns, steps=steps, game_states=states, move_times_ms=times, clocks_left_ms=clocks,
        time_control={"timeLimit": TIME_LIMIT_MS, "timeMargin": 50, "startupTime": 5000, "moveTimeLimit": None,
                      "increment": 0},
        max_moves=max_plies, opening_plies=opening_plies, seed=seed, game_index=index,
        started_at=utc_now_iso(), duration_s=1.0)


def record_with_plies(game_name: str, plies: int, *, first_seed: int = 0, **kwargs: Any) -> dict[str, Any]:
    """The first :func:`synthetic_record` (seeds from ``first_seed`` on) that lasts exactly ``plies``."""
    for seed in range(first_seed, first_seed + 500):
        record = synthetic_record(game_name, seed=seed, max_plies=plies, **kwargs)
        if record["plies"] == plies:
            return record
    raise AssertionError(f"no {game_name} game of {plies} plies in 500 seeds")


def write_log_folder(folder: Path, records: list[dict[str, Any]]) -> Path:
    """A tournament log folder holding ``records`` (``games.jsonl`` and ``games/NNNNN.json``),
    indexes 0, 1, ... in order; colour-swapped pairs are games 2k and 2k + 1."""
    (folder / "games").mkdir(parents=True, exist_ok=True)
    lines = []
    for index, record in enumerate(records):
        record = {**record, "game_index": index}
        (folder / record_name(index)).write_text(json.dumps(record))
        black, white = (p["id"] for p in record["players"])
        lines.append(json.dumps({"index": index, "pair": index // 2, "black": black, "white": white,
                                 "winner": record["winner"], "termination": record["termination"],
                                 "reason": record["reason"], "plies": record["plies"],
                                 "record": record_name(index)}))
    (folder / "games.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def tournament_records(game_name: str, agents: list[str], games_per_pair: int, *, seed: int = 0,
                       max_plies: int = 40) -> list[dict[str, Any]]:
    """A round robin of random games between ``agents`` (each pair ``games_per_pair`` times,
    alternating colours)."""
    records = []
    n = 0
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            for k in range(games_per_pair):
                black, white = (a, b) if k % 2 == 0 else (b, a)
                records.append(synthetic_record(game_name, seed=seed + n, max_plies=max_plies, black=black,
                                                white=white))
                n += 1
    return records
