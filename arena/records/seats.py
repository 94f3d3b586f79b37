"""The record of every game, format 4 (:data:`arena.records.format.RECORD_FORMAT`): N seats, chance,
simultaneous moves, hidden information; a game of two colours is its two seats, BLACK and WHITE,
with the Shobu engine's fields beside (:func:`arena.records.format.build_record`). Format 3 had
this layout for N-seat games with the states under ``states``; :mod:`arena.records.normal` reads
every format.

A record holds the omniscient state before and after every step (``game_states``), from which every
seat's observation at every step is reproducible (``game.observation(state, seat)``), and every
step in order (``steps``):

- ``{"ply", "kind": "chance", "outcome": <wire>, "probability": "1/3"}``: a chance draw, made with
  the record's ``seed`` (so the record replays exactly);
- ``{"ply", "kind": "move", "seat", "move": <record form>, "charged_ms", "clock_left_ms"}``: one seat's
  move (``move_to_record``); in a game of two colours a random opening ply has ``"opening": true``
  and null times;
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
from arena.records.types import Elimination, GameIdentity, SeatEntry, SeatRecord, TimeControlJson


def seat_entry(seat: int, name: str, agent_id: str, kind: str, command: str | None) -> SeatEntry:
    return {"seat": seat, "name": name, "id": agent_id, "kind": kind, "command": command}


def build_seat_record(*, identity: GameIdentity, seats: list[SeatEntry], steps: list[dict[str, Any]],
                      states: list[dict[str, Any]], returns: list[float], ranks: list[int], termination: str,
                      reason: str, eliminations: list[Elimination], clocks_left_ms: list[float],
                      time_control: TimeControlJson, max_moves: int, seed: int | None, game_index: int | None,
                      started_at: str, duration_s: float, stderr_logs: dict[str, str] | None = None,
                      stderr_tail: dict[str, str] | None = None) -> SeatRecord:
    """The record of one finished game (see the module docstring); ``states`` go to
    ``game_states``. ``seed`` is null only in a game of two colours without chance or opening."""
    from arena.records.format import RECORD_FORMAT

    record: SeatRecord = {
        "record_format": RECORD_FORMAT,
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
        "game_states": states,
    }
    if stderr_logs:
        record["stderr_logs"] = stderr_logs
    if stderr_tail:
        record["stderr_tail"] = stderr_tail
    return record


_STEP_KINDS = ("chance", "move", "joint", "elimination")


def seat_record_problem(record: dict[str, Any]) -> str | None:
    """What makes ``record`` (``record_format`` 3 or 4) unusable, in a few words; None when every reader
    can rely on its shape (whether its steps follow the rules is :mod:`arena.records.check`'s
    question)."""
    where = "states" if record.get("record_format") == 3 else "game_states"
    missing = [key for key in ("game", "game_identity", "seats", "steps", where, "returns", "ranks",
                               "termination", "seed") if key not in record]
    if missing:
        return f"no {', '.join(repr(k) for k in missing)}"
    identity, seats, steps, states = record["game_identity"], record["seats"], record["steps"], record[where]
    if not isinstance(record["game"], str):
        return "'game' must be a string"
    if not isinstance(identity, dict) or identity.get("name") != record["game"] \
            or type(identity.get("players")) is not int or not isinstance(identity.get("params"), dict):
        return "'game_identity' must be {\"name\": <game>, \"players\": <int>, \"params\": {...}}"
    n = identity["players"]
    if not isinstance(seats, list) or len(seats) != n or not all(
            isinstance(s, dict) and s.get("seat") == i and isinstance(s.get("id"), str) for i, s in enumerate(seats)):
        return f"'seats' must list the {n} seats in order, each with its 'seat' number and a string 'id'"
    if not isinstance(steps, list) or not all(isinstance(s, dict) and s.get("kind") in _STEP_KINDS for s in steps):
        return f"'steps' must be an array of steps, each of kind {', '.join(_STEP_KINDS)}"
    if not isinstance(states, list) or len(states) != len(steps) + 1:
        return f"{where!r} must hold the state before the first step and after each step (one more than 'steps')"
    for key in ("returns", "ranks"):
        value = record[key]
        if not isinstance(value, list) or len(value) != n or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return f"{key!r} must hold one number per seat"
    if not isinstance(record["termination"], str):
        return "'termination' must be a string"
    if type(record["seed"]) is not int and not (record["seed"] is None and record.get("record_format") != 3):
        return "'seed' must be an integer"
    return None


def game_of_identity(identity: dict[str, Any]) -> Any:
    """The :class:`GeneralGame` a record's ``game_identity`` names (from the registry); GameError
    when it cannot be made, saying which rules program to give with ``--rules`` when the record's
    game was played by one (docs/referees.md)."""
    from arena.games.base import GameError
    from arena.games.registry import get_table_game

    try:
        return get_table_game(str(identity["name"]), identity["players"], dict(identity["params"]))
    except GameError as exc:
        rules = identity.get("rules")
        if isinstance(rules, str):
            raise GameError(f"{exc} (the record's game was played by the rules program {rules!r}: give it "
                            "with --rules)") from None
        raise


def check_seat_record(record: dict[str, Any], game: Any) -> list[str]:
    """The problems of a record in seats (format 3 or 4) against ``game`` (the :class:`GeneralGame` its
    ``game_identity`` names): every step replayed from ``states[0]`` must be legal and give the
    next recorded state (``game_states``, format 3's ``states``), chance outcomes must be outcomes with the recorded probability, and the
    returns of a game that ended by its rules must be the rules' returns. Empty: it checks out."""
    from fractions import Fraction

    from arena.games.base import GameError
    from arena.games.model import CHANCE, apply_step
    from arena.records.normal import game_states

    problems: list[str] = []
    states, steps = game_states(record), record["steps"]
    key = "states" if record.get("record_format") == 3 else "game_states"
    try:
        state = game.state_from_json(states[0])
    except GameError as exc:
        return [f"{key}[0]: {exc}"]
    if game.state_to_json(game.initial_state()) != states[0] and game.actor(game.initial_state()) != CHANCE:
        problems.append(f"{key}[0] is not the game's start")
    for index, step in enumerate(steps):
        where = f"steps[{index}] ({step.get('kind')})"
        if step.get("kind") == "chance" and game.actor(state) == CHANCE:
            outcome = next(((o, p) for o, p in game.chance_outcomes(state)
                            if o == _or_none(game, step.get("outcome"))), None)
            if outcome is not None and str(Fraction(outcome[1])) != step.get("probability"):
                problems.append(f"{where}: probability {step.get('probability')!r}, the rules say {outcome[1]}")
        try:
            state = apply_step(game, state, step)
        except (GameError, KeyError, TypeError, ValueError) as exc:
            return [*problems, f"{where}: {exc}"]
        if game.state_to_json(state) != states[index + 1]:
            return [*problems, f"{where}: the state after it is not {key}[{index + 1}]"]
    if game.is_terminal(state) and not record.get("eliminations") \
            and [float(r) for r in game.returns(state)] != [float(r) for r in record["returns"]]:
        problems.append(f"returns {record['returns']} but the rules give {list(game.returns(state))}")
    return problems


def _or_none(game: Any, wire: Any) -> Any:
    """The outcome a record's wire form names, or None when the game cannot read it."""
    from arena.games.base import GameError

    try:
        return game.move_from_record(wire)
    except (GameError, TypeError, ValueError):
        return None


def placing(ranks: list[int] | tuple[int, ...], seat: int) -> str:
    """How seat ``seat`` placed in a game ranked ``ranks``, in the counts a tournament keeps per
    agent: ``"wins"`` (first alone), ``"draws"`` (first with others) or ``"losses"``."""
    if ranks[seat] != 1:
        return "losses"
    return "draws" if sum(1 for rank in ranks if rank == 1) > 1 else "wins"
