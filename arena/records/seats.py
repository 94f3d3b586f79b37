"""Records of games of the general model (:mod:`arena.games.model`): N seats, chance, simultaneous
moves, hidden information. ``record_format`` 3; today's two-player records keep formats 1 and 2.

A record holds the omniscient state before and after every step (``states``), from which every
seat's observation at every step is reproducible (``game.observation(state, seat)``), and every
step in order (``steps``):

- ``{"ply", "kind": "chance", "outcome": <wire>, "probability": "1/3"}``: a chance draw, made with
  the record's ``seed`` (so the record replays exactly);
- ``{"ply", "kind": "move", "seat", "move": <wire>, "charged_ms", "clock_left_ms"}``: one seat's move;
- ``{"ply", "kind": "joint", "moves": {"<seat>": <wire>}, "charged_ms": {"<seat>": ms},
  "clock_left_ms": {...}}``: the moves of a simultaneous step;
- ``{"ply", "kind": "elimination", "seat", "termination", "reason"}``: a seat out after a fault (the
  game went on for the others).

At the end: ``returns`` and ``ranks`` per seat (1 is best; eliminated seats rank below every seat
still playing, the later out above the earlier), ``termination`` and ``reason`` (how the game
ended), ``eliminations`` (seat, ply, termination, reason, in order).
"""

from __future__ import annotations

from typing import Any

from arena import __version__

#: The ``record_format`` of N-seat records.
SEAT_RECORD_FORMAT = 3


def seat_entry(seat: int, name: str, agent_id: str, kind: str, command: str | None) -> dict[str, Any]:
    return {"seat": seat, "name": name, "id": agent_id, "kind": kind, "command": command}


def build_seat_record(*, identity: dict[str, Any], seats: list[dict[str, Any]], steps: list[dict[str, Any]],
                      states: list[dict[str, Any]], returns: list[float], ranks: list[int], termination: str,
                      reason: str, eliminations: list[dict[str, Any]], clocks_left_ms: list[float],
                      time_control: dict[str, Any], max_moves: int, seed: int, game_index: int | None,
                      started_at: str, duration_s: float, stderr_logs: dict[str, str] | None = None,
                      stderr_tail: dict[str, str] | None = None) -> dict[str, Any]:
    """The record of one finished N-seat game (see the module docstring)."""
    record: dict[str, Any] = {
        "record_format": SEAT_RECORD_FORMAT,
        "arena_version": __version__,
        "game": identity["name"],
        "game_identity": identity,
        "seats": seats,
        "game_index": game_index,
        "seed": seed,
        "time_control": time_control,
        "max_moves": max_moves,
        "started_at": started_at,
        "duration_s": round(duration_s, 3),
        "termination": termination,
        "reason": reason,
        "returns": returns,
        "ranks": ranks,
        "eliminations": eliminations,
        "clocks_left_ms": [round(ms, 3) for ms in clocks_left_ms],
        "steps": steps,
        "states": states,
    }
    if stderr_logs:
        record["stderr_logs"] = stderr_logs
    if stderr_tail:
        record["stderr_tail"] = stderr_tail
    return record


def is_seat_record(record: Any) -> bool:
    return isinstance(record, dict) and record.get("record_format") == SEAT_RECORD_FORMAT
