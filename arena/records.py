"""Game records: the JSON object written for every game.

A record is a superset of the Shobu seed engine's output and has the same shape for checkers.
Field names (all always present unless marked optional):

- ``winner``: ``"BLACK"``, ``"WHITE"`` or ``"NONE"`` (draw or interrupted).
- ``turns``: one object per move played, in order (Shobu: the seed's ``{"passive", "aggressive"}``;
  checkers: ``{"path": [[col, row], ...]}``, maybe with ``"pdn"``), as the game's ``move_to_record``.
- ``game_states``: every state from the start to the final one included, as ``state_to_json``
  (``{"board", "turn", "turnNumber"}``); ``len(game_states) == len(turns) + 1``.
- ``game``: the registered game's name (``arena games`` lists them).
- ``players``: ``[{"id", "kind", "command", "colour"}]``, black first (``command`` may be null).
- ``termination``: exactly one of ``win``, ``no_legal_moves``, ``max_moves``, ``timeout``,
  ``illegal_move``, ``malformed_reply``, ``crash``, ``interrupted``.
- ``reason``: one human sentence naming the bot and quoting what it sent.
- ``plies``: number of moves played in this game (``len(turns)``; opening plies not included).
- ``max_moves``, ``opening_plies``, ``seed`` (may be null), ``game_index`` (may be null).
- ``move_times_ms``: charged thinking time of each move in ``turns`` (ms, 3 decimals).
- ``clocks_left_ms``: ``{"BLACK": ms, "WHITE": ms}`` left at the end.
- ``time_control``: ``{"timeLimit", "timeMargin", "startupTime", "moveTimeLimit", "increment"}`` (ms).
- ``started_at``: UTC ISO-8601 timestamp; ``duration_s``: wall time of the game.
- ``arena_version``.
- optional ``stderr_logs``: ``{"BLACK": path, "WHITE": path}`` when stderr went to files;
  optional ``stderr_tail``: ``{colour: text}`` for a bot that faulted, when stderr was kept in memory.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from arena import __version__
from arena.games.base import Color, Outcome

RECORD_FIELDS = (
    "winner", "turns", "game_states", "game", "players", "termination", "reason", "plies",
    "max_moves", "opening_plies", "seed", "game_index", "move_times_ms", "clocks_left_ms",
    "time_control", "started_at", "duration_s", "arena_version",
)


def utc_now_iso() -> str:
    """Now, UTC, ISO-8601 with a ``Z`` and millisecond precision."""
    now = _dt.datetime.now(_dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def player_entry(agent_id: str, kind: str, command: str | None, color: Color) -> dict[str, Any]:
    return {"id": agent_id, "kind": kind, "command": command, "colour": color.value}


def build_record(
    *,
    game_name: str,
    outcome: Outcome,
    players: list[dict[str, Any]],
    turns: list[Any],
    game_states: list[dict[str, Any]],
    move_times_ms: list[float],
    clocks_left_ms: dict[Color, float],
    time_control: dict[str, Any],
    max_moves: int,
    opening_plies: int,
    seed: int | None,
    game_index: int | None,
    started_at: str,
    duration_s: float,
    stderr_logs: dict[Color, str] | None = None,
    stderr_tail: dict[Color, str] | None = None,
) -> dict[str, Any]:
    """The JSON-ready record dict (see the module docstring for every field)."""
    record: dict[str, Any] = {
        "winner": outcome.winner_name,
        "turns": turns,
        "game_states": game_states,
        "game": game_name,
        "players": players,
        "termination": outcome.termination.value,
        "reason": outcome.reason,
        "plies": len(turns),
        "max_moves": max_moves,
        "opening_plies": opening_plies,
        "seed": seed,
        "game_index": game_index,
        "move_times_ms": [round(t, 3) for t in move_times_ms],
        "clocks_left_ms": {c.value: round(ms, 3) for c, ms in clocks_left_ms.items()},
        "time_control": time_control,
        "started_at": started_at,
        "duration_s": round(duration_s, 4),
        "arena_version": __version__,
    }
    if stderr_logs:
        record["stderr_logs"] = {c.value: p for c, p in stderr_logs.items()}
    if stderr_tail:
        record["stderr_tail"] = {c.value: t for c, t in stderr_tail.items()}
    return record
