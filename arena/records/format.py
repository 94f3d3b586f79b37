"""Game records of two colours: the JSON object written for every game of two colours taking turns.

Every record is format 4 (:data:`RECORD_FORMAT`), published as a JSON Schema,
``schemas/record.schema.json`` (draft 2020-12), which describes every field. Every game has the
layout of :mod:`arena.records.seats` (``seats``, ``steps``, ``game_states``, ``ranks``,
``returns``, ``eliminations``, ``game_identity``, ``termination``, ``reason``, ``clocks_left_ms``
per seat, ``stderr_logs``/``stderr_tail`` by seat number...). A game of two colours has seats
``BLACK`` (0) and ``WHITE`` (1) and is also a superset of the Shobu engine's record, with format
2's fields beside (:mod:`arena.records.normal` reads formats 1 to 4 and upgrades them):

- ``winner``: ``"BLACK"``, ``"WHITE"`` or ``"NONE"`` (draw or interrupted); ``ranks`` and
  ``returns`` say the same (``[1, 2]`` and ``[1.0, -1.0]`` when BLACK won).
- ``turns``: one object per ply from ``game_states[0]`` on, in order. Each is the game's own record
  form (``move_to_record``: Shobu the Shobu engine's ``{"passive", "aggressive"}``; checkers
  ``{"path": [[col, row], ...], "pdn"}``...) with arena's keys beside it (:data:`TURN_KEYS`):
  ``notation`` (``describe_move``), ``opening`` (true for a random opening ply), ``charged_ms`` (the
  mover's charged thinking time) and ``clock_left_ms`` (the mover's clock after the move, the
  increment included); both are null for opening plies. A game whose record form is not an object
  (or uses one of arena's keys for something else) has it under ``"move"``. Read a turn back with
  :func:`turn_move`, never with the game's ``move_from_record`` directly (it may reject arena's keys).
  ``steps[i]`` is the same ply as ``turns[i]`` (:func:`colour_step`).
- ``game_states``: every state from the start to the final one included, as ``state_to_json``
  (``{"board", "turn", "turnNumber"}``); ``len(game_states) == len(turns) + 1``. With a random
  opening, ``game_states[0]`` is the game's initial state and the opening plies are the first turns.
- ``players``: ``[{"id", "kind", "command", "colour"}]``, black first (``command`` may be null), as
  ``seats`` with the colour.
- ``plies``: ``len(turns)``, every ply of the game from ``game_states[0]``, random opening plies
  included. The players' own moves are the turns with ``opening`` false, one per ``move_times_ms``
  entry (charged thinking time, ms, 3 decimals).
- ``opening_plies``: the random opening plies asked for (``openingPlies``). The turns marked
  ``opening`` are the ones played: fewer only when the random opening stopped before a position
  where the game would end, none when the game was started from a given position.
- ``seed`` may be null (no random opening).

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
from typing import TYPE_CHECKING, Any, cast

from arena.errors import ArenaError
from arena.games.base import Color, Game, GameError, MoveSyntaxError, Outcome
from arena.records.types import PlayerEntry, Record

if TYPE_CHECKING:
    from arena.games.model import GeneralGame

#: The ``record_format`` of the records arena writes, for every game (:mod:`arena.records.normal`
#: reads formats 1 to 4).
RECORD_FORMAT = 4

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
               clock_left_ms: float | None = None, form: Any = None) -> dict[str, Any]:
    """The record's turn object for ``move``: the game's record form plus :data:`TURN_KEYS`.

    ``charged_ms`` and ``clock_left_ms`` are the mover's (null for an opening ply), rounded to
    3 decimals like ``move_times_ms``. ``form``: ``game.move_to_record(move)`` when the caller has
    it already (the step of the same ply holds it too: made once, its parts shared).
    """
    notation = game.describe_move(move)
    if form is None:
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


def turn_move(game: Game[Any, Any] | GeneralGame[Any, Any], turn: Any) -> Any:
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


# -- the record --------------------------------------------------------------------------------------


def build_record(
    *,
    game_name: str,
    outcome: Outcome,
    players: list[PlayerEntry],
    turns: list[dict[str, Any]],
    steps: list[dict[str, Any]],
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
    """The format-4 record of a game of two colours (see the module docstring for every field):
    the layout of every game (:func:`arena.records.seats.build_seat_record`) with the seats BLACK
    and WHITE, plus the Shobu engine's ``winner`` and ``turns`` and format 2's ``players``,
    ``plies``, ``opening_plies`` and ``move_times_ms``. ``turns`` are :func:`turn_entry` objects,
    ``steps`` the same plies as :func:`colour_step` objects. Raises :class:`RecordFormatError`
    when validation is on (:data:`VALIDATE_ENV`) and the record does not match the format."""
    from arena.records.normal import colour_eliminations, colour_ranks, colour_returns
    from arena.records.seats import build_seat_record, seat_entry

    winner, termination = outcome.winner_name, outcome.termination.value
    seats = []
    for number, player in enumerate(players):
        seat = seat_entry(number, player["colour"], player["id"], player["kind"], player["command"])
        if "cpuMs" in player:
            seat["cpuMs"] = player["cpuMs"]
        if "droppedOutput" in player:
            seat["droppedOutput"] = player["droppedOutput"]
        seats.append(seat)
    base = build_seat_record(
        identity={"name": game_name, "players": 2, "params": {}}, seats=seats, steps=steps, states=game_states,
        returns=colour_returns(winner), ranks=colour_ranks(winner), termination=termination,
        reason=outcome.reason,
        eliminations=colour_eliminations(termination, winner, outcome.reason, game_states[-1]),  # type: ignore[arg-type]
        clocks_left_ms=[clocks_left_ms[c] for c in Color], time_control=time_control,  # type: ignore[arg-type]
        max_moves=max_moves, seed=seed, game_index=game_index, started_at=started_at, duration_s=duration_s,
        stderr_logs={str(list(Color).index(c)): p for c, p in stderr_logs.items()} if stderr_logs else None,
        stderr_tail={str(list(Color).index(c)): t for c, t in stderr_tail.items()} if stderr_tail else None)
    record = cast("Record", base)
    record["winner"] = winner
    record["turns"] = turns
    record["players"] = players
    record["plies"] = len(turns)
    record["opening_plies"] = opening_plies
    record["move_times_ms"] = [round(t, 3) for t in move_times_ms]
    if os.environ.get(VALIDATE_ENV) == "1":
        validate_record(record)
    return record


def colour_step(game: Game[Any, Any], move: Any, seat: int, ply: int, turn: Mapping[str, Any],
                form: Any = None) -> dict[str, Any]:
    """The step of a game of two colours for ``move`` by ``seat`` at ``ply``, its times taken from
    its ``turn`` (:func:`turn_entry`); an opening ply is marked ``"opening": true``. ``form`` as for
    :func:`turn_entry`."""
    step: dict[str, Any] = {"ply": ply, "kind": "move", "seat": seat,
                            "move": game.move_to_record(move) if form is None else form,
                            "charged_ms": turn["charged_ms"], "clock_left_ms": turn["clock_left_ms"]}
    if turn["opening"]:
        step["opening"] = True
    return step


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
    fmt = record.get("record_format")
    if fmt in (3, 4):  # the layout in seats (arena.records.seats); two colours carry their own fields too
        from arena.records.seats import seat_record_problem

        problem = seat_record_problem(record)
        if problem is not None or not ("winner" in record or "turns" in record):
            return problem
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
    for key in _PER_COLOUR if fmt != 4 else ():  # format 4 keeps them per seat (checked above)
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
    """What the schema cannot say about a format-4 record of two colours: lengths agree, opening plies come first,
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
    if len(record["steps"]) != len(turns):
        problems.append(f"{len(record['steps'])} steps but {len(turns)} turns (the same plies)")
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
