"""Game records: the JSON object written for every game.

The format is published as a JSON Schema, ``schemas/record.schema.json`` (draft 2020-12), which
describes every field. A record is a superset of the Shobu engine's record and has the same
shape for every game. Field names (all always present unless marked optional):

- ``record_format``: ``2`` (this format). Records written before it have no such key (format 1:
  no opening plies in ``turns``, no per-turn notation or clocks); :func:`record_format` tells them
  apart and every reader accepts both.
- ``winner``: ``"BLACK"``, ``"WHITE"`` or ``"NONE"`` (draw or interrupted).
- ``turns``: one object per ply from ``game_states[0]`` on, in order. Each is the game's own record
  form (``move_to_record``: Shobu the Shobu engine's ``{"passive", "aggressive"}``; checkers
  ``{"path": [[col, row], ...], "pdn"}``...) with arena's keys beside it (:data:`TURN_KEYS`):
  ``notation`` (``describe_move``), ``opening`` (true for a random opening ply), ``charged_ms`` (the
  mover's charged thinking time) and ``clock_left_ms`` (the mover's clock after the move, the
  increment included); both are null for opening plies. A game whose record form is not an object
  (or uses one of arena's keys for something else) has it under ``"move"``. Read a turn back with
  :func:`turn_move`, never with the game's ``move_from_record`` directly (it may reject arena's keys).
- ``game_states``: every state from the start to the final one included, as ``state_to_json``
  (``{"board", "turn", "turnNumber"}``); ``len(game_states) == len(turns) + 1``. With a random
  opening, ``game_states[0]`` is the game's initial state and the opening plies are the first turns.
- ``game``: the registered game's name (``arena games`` lists them).
- ``players``: ``[{"id", "kind", "command", "colour"}]``, black first (``command`` may be null).
- ``termination``: one of :class:`arena.games.base.Termination`'s values.
- ``reason``: one human sentence naming the bot and quoting what it sent.
- ``plies``: ``len(turns)``, every ply of the game from ``game_states[0]``, random opening plies
  included (format 1 had no opening plies in ``turns``: there it counts the bots' moves only). The
  players' own moves are the turns with ``opening`` false, one per ``move_times_ms`` entry.
- ``opening_plies``: the random opening plies asked for (``openingPlies``). The turns marked
  ``opening`` are the ones played: fewer only when the random opening stopped before a position
  where the game would end, none when the game was started from a given position.
- ``max_moves``, ``seed`` (may be null), ``game_index`` (may be null).
- ``move_times_ms``: charged thinking time of each player move (ms, 3 decimals), as in format 1.
- ``clocks_left_ms``: ``{"BLACK": ms, "WHITE": ms}`` left at the end.
- ``time_control``: ``{"timeLimit", "timeMargin", "startupTime", "moveTimeLimit", "increment"}`` (ms).
- ``started_at``: UTC ISO-8601 timestamp; ``duration_s``: wall time of the game.
- ``arena_version``.
- optional ``stderr_logs``: ``{"BLACK": path, "WHITE": path}`` when stderr went to files;
  optional ``stderr_tail``: ``{colour: text}`` for a bot that faulted, when stderr was kept in memory.

Validation: with the environment variable ``ARENA_VALIDATE_RECORDS=1`` (the test suite sets it),
:func:`build_record` checks every record it builds against the schema and the invariants the schema
cannot state (:func:`record_invariants`), and raises :class:`RecordFormatError` on a mismatch.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena import __version__
from arena.errors import ArenaError
from arena.games.base import Color, Game, GameError, MoveSyntaxError, Outcome
from arena.records.types import PlayerEntry, Record

#: The ``record_format`` of the records :func:`build_record` writes.
RECORD_FORMAT = 2

#: The keys arena adds to every turn object, beside the game's own record form.
TURN_KEYS = ("notation", "opening", "charged_ms", "clock_left_ms")
# Arena's keys that no game's move_from_record knows about; "notation" is also some games' own key.
_ARENA_ONLY_KEYS = frozenset(TURN_KEYS) - {"notation"}
#: Where a turn keeps a record form that is not an object (or clashes with arena's keys).
WRAPPED_KEY = "move"

#: Set to ``1`` to validate every record built against the schema (tests do).
VALIDATE_ENV = "ARENA_VALIDATE_RECORDS"
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "record.schema.json"  # arena/schemas


class RecordFormatError(ArenaError):
    """A record does not match the published record format (schema or invariants)."""


def utc_now_iso() -> str:
    """Now, UTC, ISO-8601 with a ``Z`` and millisecond precision."""
    now = _dt.datetime.now(_dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def player_entry(agent_id: str, kind: str, command: str | None, color: Color) -> PlayerEntry:
    return {"id": agent_id, "kind": kind, "command": command, "colour": color.value}


# -- turns -------------------------------------------------------------------------------------------


def turn_entry(game: Game[Any, Any], move: Any, *, opening: bool, charged_ms: float | None = None,
               clock_left_ms: float | None = None) -> dict[str, Any]:
    """The record's turn object for ``move``: the game's record form plus :data:`TURN_KEYS`.

    ``charged_ms`` and ``clock_left_ms`` are the mover's (null for an opening ply), rounded to
    3 decimals like ``move_times_ms``.
    """
    notation = game.describe_move(move)
    form = game.move_to_record(move)
    extra: dict[str, Any] = {
        "notation": notation,
        "opening": opening,
        "charged_ms": None if charged_ms is None else round(charged_ms, 3),
        "clock_left_ms": None if clock_left_ms is None else round(clock_left_ms, 3),
    }
    clash = isinstance(form, dict) and (
        WRAPPED_KEY in form and set(form) <= {WRAPPED_KEY, "notation"}  # would read as wrapped
        or not _ARENA_ONLY_KEYS.isdisjoint(form)
        or form.get("notation", notation) != notation
    )
    if isinstance(form, dict) and not clash:
        return {**form, **extra}
    return {WRAPPED_KEY: form, **extra}


def turn_move(game: Game[Any, Any], turn: Any) -> Any:
    """The move a record's turn object stands for, in either record format.

    Removes arena's keys (:data:`TURN_KEYS`) that the game's own ``move_from_record`` may reject,
    and unwraps a form kept under ``"move"``. Raises :class:`MoveSyntaxError` (the game's own
    message for the turn as written) when no reading gives a move.
    """
    if not isinstance(turn, dict):
        return game.move_from_record(turn)
    rest = {k: v for k, v in turn.items() if k not in _ARENA_ONLY_KEYS}
    bare = {k: v for k, v in rest.items() if k != "notation"}
    candidates: list[Any] = [rest]
    if bare != rest:
        candidates.append(bare)  # Shobu's form has no notation key, Breakthrough's needs it
    if set(bare) == {WRAPPED_KEY}:
        candidates.append(bare[WRAPPED_KEY])
    errors: list[str] = []
    for candidate in candidates:
        try:
            return game.move_from_record(candidate)
        except GameError as exc:
            if str(exc) not in errors:
                errors.append(str(exc))
    raise MoveSyntaxError(errors[0] + "".join(f" (read otherwise: {e})" for e in errors[1:]))


def record_format(record: Mapping[str, Any]) -> int:
    """1 for a record written before ``record_format`` existed, else its ``record_format`` (an
    integer: :func:`record_problem` refuses anything else)."""
    value = record.get("record_format")
    if value is None:
        turns = record.get("turns")
        # A format-2 record that lost its marker still has arena's keys on its turns.
        if isinstance(turns, list) and turns and isinstance(turns[0], dict) and "opening" in turns[0]:
            return RECORD_FORMAT
        return 1
    return int(value)


# -- the record --------------------------------------------------------------------------------------


def build_record(
    *,
    game_name: str,
    outcome: Outcome,
    players: list[PlayerEntry],
    turns: list[dict[str, Any]],
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
) -> Record:
    """The JSON-ready record dict (see the module docstring for every field). ``turns`` are
    :func:`turn_entry` objects. Raises :class:`RecordFormatError` when validation is on
    (:data:`VALIDATE_ENV`) and the record does not match the format."""
    record: Record = {
        "record_format": RECORD_FORMAT,
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
    if os.environ.get(VALIDATE_ENV) == "1":
        validate_record(record)
    return record


# -- the shape every reader relies on -----------------------------------------------------------


_WINNERS = ("BLACK", "WHITE", "NONE")
_OPTIONAL_INTS = {"plies": 0, "game_index": 0, "opening_plies": 0, "max_moves": 1, "record_format": 1,
                  "seed": None}
_OPTIONAL_TEXTS = ("reason", "started_at", "arena_version")
_PER_COLOUR = ("clocks_left_ms", "stderr_logs", "stderr_tail")


def record_problem(record: Any) -> str | None:
    """What makes ``record`` unusable as a game record, in a few words (None: it can be read).

    Checks the shape every reader relies on, so that a field of the wrong type is one line, never a
    traceback deep in a reader: an object with ``game`` (a string), ``turns`` and ``game_states``
    (arrays, at least one state), ``winner`` (BLACK, WHITE or NONE), ``termination`` (a string);
    where present, ``players`` (objects with a string ``id`` and a ``colour`` of BLACK or WHITE),
    integers for ``plies``, ``game_index``, ``opening_plies``, ``max_moves``, ``seed`` and
    ``record_format``, strings for ``reason``, ``started_at`` and ``arena_version``, numbers for
    ``move_times_ms`` and ``duration_s``, objects for the per-colour fields and ``time_control``.
    Whether the moves follow the rules is :mod:`arena.records.check`'s question.
    """
    if not isinstance(record, dict):
        return f"a JSON {_json_kind(record)}, not an object"
    if record.get("record_format") == 3:  # a game of N seats (arena.records.seats)
        from arena.records.seats import seat_record_problem

        return seat_record_problem(record)
    missing = [key for key in ("game", "turns", "game_states", "winner", "termination") if key not in record]
    if missing:
        return f"no {', '.join(repr(k) for k in missing)}"
    if not isinstance(record["game"], str):
        return f"'game' must be a string, got a JSON {_json_kind(record['game'])}"
    for key in ("turns", "game_states"):
        if not isinstance(record[key], list):
            return f"{key!r} must be an array, got a JSON {_json_kind(record[key])}"
    if not record["game_states"]:
        return "'game_states' is empty (it holds at least the starting state)"
    if record["winner"] not in _WINNERS:
        return f"'winner' must be BLACK, WHITE or NONE, got {_shown(record['winner'])}"
    if not isinstance(record["termination"], str):
        return f"'termination' must be a string, got a JSON {_json_kind(record['termination'])}"
    for key, minimum in _OPTIONAL_INTS.items():
        value = record.get(key)
        if value is not None and (type(value) is not int or (minimum is not None and value < minimum)):
            what = "an integer" if minimum is None else f"an integer of at least {minimum}"
            return f"{key!r} must be {what} or null, got {_shown(value)}"
    for key in _OPTIONAL_TEXTS:
        if record.get(key) is not None and not isinstance(record[key], str):
            return f"{key!r} must be a string, got a JSON {_json_kind(record[key])}"
    players = record.get("players")
    if players is not None:
        if not isinstance(players, list):
            return f"'players' must be an array, got a JSON {_json_kind(players)}"
        for number, player in enumerate(players):
            if not isinstance(player, dict):
                return f"players[{number}] must be an object, got a JSON {_json_kind(player)}"
            if not isinstance(player.get("id"), str):
                return f"players[{number}].id must be a string, got {_shown(player.get('id'))}"
            colour = player.get("colour", player.get("color"))
            if colour not in ("BLACK", "WHITE"):
                return f"players[{number}].colour must be BLACK or WHITE, got {_shown(colour)}"
    times = record.get("move_times_ms")
    if times is not None and not (isinstance(times, list) and all(_is_number(t) for t in times)):
        return "'move_times_ms' must be an array of numbers"
    if record.get("duration_s") is not None and not _is_number(record["duration_s"]):
        return f"'duration_s' must be a number, got {_shown(record['duration_s'])}"
    for key in _PER_COLOUR:
        value = record.get(key)
        if value is not None and not (isinstance(value, dict) and set(value) <= {"BLACK", "WHITE"}):
            return f"{key!r} must be an object with BLACK and WHITE keys, got {_shown(value)}"
        kind = str if key != "clocks_left_ms" else None
        if isinstance(value, dict) and not all(isinstance(v, str) if kind else _is_number(v) or v is None
                                               for v in value.values()):
            return f"{key!r} holds a value of the wrong type"
    control = record.get("time_control")
    if control is not None and not (isinstance(control, dict)
                                    and all(v is None or _is_number(v) for v in control.values())):
        return "'time_control' must be an object of numbers (ms) or nulls"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _json_kind(value: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number")


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- validation --------------------------------------------------------------------------------------


def load_schema(name: str = SCHEMA_PATH.name) -> dict[str, Any]:
    """A record schema shipped beside ``schemas/record.schema.json`` (default: that one; the N-seat
    records' is ``seat-record.schema.json``); RecordFormatError if it is missing."""
    path = SCHEMA_PATH.with_name(name)
    try:
        schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RecordFormatError(f"cannot read the record schema {path}: {exc}") from None
    return schema


def record_invariants(record: Mapping[str, Any]) -> list[str]:
    """What the schema cannot say about a format-2 record: lengths agree, opening plies come first,
    ``move_times_ms`` lists the player moves' ``charged_ms``. One problem per string."""
    turns, states = record["turns"], record["game_states"]
    problems: list[str] = []
    if len(states) != len(turns) + 1:
        problems.append(f"{len(turns)} turns but {len(states)} game_states (must be one more)")
    if record["plies"] != len(turns):
        problems.append(f"plies is {record['plies']} but there are {len(turns)} turns")
    flags = [bool(turn.get("opening")) for turn in turns]
    opening = flags.index(False) if False in flags else len(flags)
    if any(flags[opening:]):
        problems.append("an opening ply comes after a player's move")
    if opening > record["opening_plies"]:
        problems.append(f"{opening} opening turns but opening_plies is {record['opening_plies']}")
    charged = [turn.get("charged_ms") for turn in turns[opening:]]
    if charged != record["move_times_ms"]:
        problems.append("move_times_ms differs from the player turns' charged_ms")
    return problems


_validator: Any = None


def validate_record(record: Mapping[str, Any]) -> None:
    """Check ``record`` against the schema and :func:`record_invariants`; RecordFormatError naming
    the first mismatch (its place in the record). Needs ``jsonschema`` (the test extra)."""
    try:
        import jsonschema  # type: ignore[import-untyped]  # the test extra; no stubs installed
    except ImportError:
        raise RecordFormatError(f"{VALIDATE_ENV}=1 needs the jsonschema package (pip install -e '.[test]')") from None
    global _validator
    if _validator is None:  # built once per process: the test suite validates hundreds of records
        _validator = jsonschema.Draft202012Validator(load_schema())
    error = jsonschema.exceptions.best_match(_validator.iter_errors(record))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(the record)"
        raise RecordFormatError(f"record does not match {SCHEMA_PATH.name} at {where}: {error.message}")
    problems = record_invariants(record)
    if problems:
        raise RecordFormatError(f"record breaks the format: {problems[0]}")
