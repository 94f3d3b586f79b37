"""Every record any arena wrote, read one way: the accessors every reader uses instead of branching
on a record's format, and :func:`upgrade`, which rewrites a record of format 1, 2 or 3 as format 4.

Formats (docs/records.md has the field mapping):

- 1 and 2: two colours taking turns (``winner``, ``turns``, ``game_states``, ``players`` with
  ``colour``); 1 has no ``record_format`` key, no opening plies in ``turns`` and no per-turn keys;
- 3: N seats (``seats``, ``steps``, ``states``, ``ranks``, ``returns``, ``eliminations``);
- 4: every game in format 3's layout with the states under ``game_states``; a game of two colours
  also carries format 2's ``winner``, ``turns``, ``players``, ``plies``, ``opening_plies`` and
  ``move_times_ms`` (:func:`arena.records.format.build_record`).

The accessors take a record whose shape :func:`arena.records.format.record_problem` passed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The record formats arena reads; the last is the one it writes.
FORMATS = (1, 2, 3, 4)
#: Terminations that put a seat out for a fault (the game's other seat wins a two-seat game).
FAULTS = frozenset({"timeout", "illegal_move", "malformed_reply", "crash", "memory_limit", "output_limit",
                    "resign"})
_COLOURS = ("BLACK", "WHITE")


def record_format(record: Mapping[str, Any]) -> int:
    """1 for a record written before ``record_format`` existed, else its ``record_format`` (an
    integer: :func:`arena.records.format.record_problem` refuses anything else)."""
    value = record.get("record_format")
    if value is None:
        turns = record.get("turns")
        # A format-2 record that lost its marker still has arena's keys on its turns.
        if isinstance(turns, list) and turns and isinstance(turns[0], dict) and "opening" in turns[0]:
            return 2
        return 1
    return int(value)


def two_colour(record: Mapping[str, Any]) -> bool:
    """A game of two colours taking turns in plain sight (it has ``turns`` and a ``winner``), of
    any format."""
    return "turns" in record and "winner" in record


def seat_ids(record: Mapping[str, Any]) -> list[str]:
    """The agent id of every seat, in seat order (BLACK first in a game of two colours)."""
    if isinstance(record.get("seats"), list):
        return [str(seat.get("id", "?")) for seat in record["seats"]]
    players = {str(p.get("colour", p.get("color"))): str(p.get("id", "?")) for p in record.get("players") or []}
    return [players.get(colour, "?") for colour in _COLOURS]


def game_identity(record: Mapping[str, Any]) -> dict[str, Any]:
    """The game as the record names it: ``{"name", "players", "params"}`` and, for an external
    referee's game, its ``rules`` (formats 1 and 2, which do not hold it, are of a two-player game
    without parameters). A copy."""
    named = record.get("game_identity")
    if isinstance(named, Mapping):
        return dict(named)
    return {"name": record.get("game"), "players": 2, "params": {}}


def clocks_left(record: Mapping[str, Any]) -> list[float] | None:
    """Every seat's clock at the end (ms), in seat order (formats 1 and 2 hold them by colour); None
    when the record does not hold them all."""
    end = record.get("clocks_left_ms")
    if isinstance(end, Mapping):
        end = [end.get(colour) for colour in _COLOURS]
    if not isinstance(end, list) or not all(isinstance(ms, (int, float)) and not isinstance(ms, bool) for ms in end):
        return None
    return [float(ms) for ms in end]


def colour_returns(winner: str) -> list[float]:
    """The returns of a game of two colours won by ``winner`` (BLACK, WHITE or NONE)."""
    return {"BLACK": [1.0, -1.0], "WHITE": [-1.0, 1.0]}.get(winner, [0.0, 0.0])


def colour_ranks(winner: str) -> list[int]:
    return {"BLACK": [1, 2], "WHITE": [2, 1]}.get(winner, [1, 1])


def ranks(record: Mapping[str, Any]) -> list[int]:
    """Every seat's rank (1 is best; shared ranks tie)."""
    if isinstance(record.get("ranks"), list):
        return [int(r) for r in record["ranks"]]
    return colour_ranks(str(record.get("winner")))


def returns(record: Mapping[str, Any]) -> list[float]:
    """Every seat's return (+1/-1/0 in a game of two colours)."""
    if isinstance(record.get("returns"), list):
        return [float(r) for r in record["returns"]]
    return colour_returns(str(record.get("winner")))


def game_states(record: Mapping[str, Any]) -> list[Any]:
    """The states from the start to the end, as the game's ``state_to_json`` wrote them."""
    states = record.get("game_states", record.get("states"))
    return list(states) if isinstance(states, list) else []


def colour_eliminations(termination: str, winner: str, reason: str, last_state: Any) -> list[dict[str, Any]]:
    """The eliminations of a game of two colours: the loser's fault, when a fault ended it, at the
    ply of ``last_state`` (its ``turnNumber``: the game's ply, as a step's)."""
    if termination not in FAULTS or winner not in _COLOURS:
        return []
    ply = last_state.get("turnNumber", 0) if isinstance(last_state, Mapping) else 0
    return [{"seat": 1 - _COLOURS.index(winner), "ply": ply, "termination": termination, "reason": reason}]


# -- upgrade -----------------------------------------------------------------------------------------


#: What a record of two colours must hold to be rewritten as format 4 (a format-1 record may lack it).
_NEEDED = ("players", "time_control", "max_moves", "started_at", "duration_s", "reason", "clocks_left_ms")


class UpgradeError(ValueError):
    """A record that cannot be rewritten as format 4 (an unknown game, a turn the rules cannot read)."""


def upgrade(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` (any format) as format 4; a format-4 record comes back equal. Formats 1 and 2 are
    replayed with the registry's game to write each step's move and seat; UpgradeError when that
    cannot be done. The result of the writer and of an upgrade of the same game agree except where
    the old format did not hold a value (format 1: turns' clocks)."""
    fmt = record_format(record)
    if fmt == 4:
        return dict(record)
    if fmt == 3:
        return _from_seats(record)
    return _from_colours(record, fmt)


def _from_seats(record: Mapping[str, Any]) -> dict[str, Any]:
    from arena.records.format import RECORD_FORMAT

    out: dict[str, Any] = {}
    for key, value in record.items():
        if key == "record_format":
            out[key] = RECORD_FORMAT
        elif key == "states":
            out["game_states"] = value
        else:
            out[key] = value
    return out


def _from_colours(record: Mapping[str, Any], fmt: int) -> dict[str, Any]:
    from arena.games.base import GameError
    from arena.games.registry import get_game
    from arena.records.format import RECORD_FORMAT, turn_entry, turn_move
    from arena.records.seats import build_seat_record

    name = str(record["game"])
    lacking = [key for key in _NEEDED if record.get(key) is None]
    if lacking:
        raise UpgradeError(f"no {', '.join(repr(k) for k in lacking)}: format 4 needs them and they cannot be "
                           "worked out from the rest")
    try:
        game = get_game(name)
    except (GameError, KeyError, ValueError) as exc:
        raise UpgradeError(f"game {name!r} cannot be loaded to upgrade its record: {exc}") from None
    states, turns = list(record["game_states"]), list(record["turns"])
    clocks_of = _worked_clocks(record) if fmt == 1 else None
    times = list(record.get("move_times_ms") or [])
    steps: list[dict[str, Any]] = []
    new_turns: list[dict[str, Any]] = []
    for index, turn in enumerate(turns):
        try:
            state = game.state_from_json(states[index])
            move = turn_move(game, turn)
            seat = _COLOURS.index(game.to_move(state).value)
            ply = game.ply(state)
            form = game.move_to_record(move)
        except (GameError, IndexError, KeyError, TypeError, ValueError) as exc:
            raise UpgradeError(f"turns[{index}]: {exc}") from None
        opening = bool(turn.get("opening")) if isinstance(turn, dict) and fmt == 2 else False
        if clocks_of is not None:  # format 1: the times and clocks as the replay works them out
            worked = clocks_of(index)
            turn = turn_entry(game, move, opening=False, charged_ms=worked[0], clock_left_ms=worked[1])
        new_turns.append(turn)
        step: dict[str, Any] = {"ply": ply, "kind": "move", "seat": seat, "move": form,
                                "charged_ms": turn.get("charged_ms"), "clock_left_ms": turn.get("clock_left_ms")}
        if opening:
            step["opening"] = True
        steps.append(step)
    players = [dict(p) for p in record.get("players") or []]
    seats: list[Any] = []
    for number, player in enumerate(players):
        colour = str(player.pop("color", player.get("colour")))
        player["colour"] = colour
        entry: dict[str, Any] = {"seat": number, "name": colour, "id": player.get("id"),
                                 "kind": player.get("kind", "executable"), "command": player.get("command")}
        entry.update({k: v for k, v in player.items() if k in ("cpuMs", "droppedOutput")})
        seats.append(entry)
    winner, termination, reason = str(record["winner"]), str(record["termination"]), str(record["reason"])
    clocks = record.get("clocks_left_ms") or {}
    seed = record.get("seed")
    built = build_seat_record(
        identity={"name": name, "players": 2, "params": {}}, seats=seats,
        steps=steps, states=states, returns=colour_returns(winner), ranks=colour_ranks(winner),
        termination=termination, reason=reason,
        eliminations=colour_eliminations(termination, winner, reason, states[-1]),  # type: ignore[arg-type]
        clocks_left_ms=[float(clocks.get(c, 0.0)) for c in _COLOURS],
        time_control=record["time_control"], max_moves=int(record["max_moves"]), seed=seed,
        game_index=record.get("game_index"), started_at=str(record["started_at"]),
        duration_s=float(record["duration_s"]),
        stderr_logs=_by_seat(record.get("stderr_logs")), stderr_tail=_by_seat(record.get("stderr_tail")))
    out: dict[str, Any] = dict(built)
    out["record_format"] = RECORD_FORMAT
    out["arena_version"] = record.get("arena_version", out["arena_version"])
    out["duration_s"] = record.get("duration_s", out["duration_s"])
    out["clocks_left_ms"] = [clocks.get(c, 0.0) for c in _COLOURS]
    out.update(winner=winner, turns=new_turns, players=players, plies=len(turns),
               opening_plies=int(record.get("opening_plies") or 0), move_times_ms=times)
    for key, value in record.items():  # what a backend added (node, ray_retries), kept as it was
        if key not in out:
            out[key] = value
    return out


def _worked_clocks(record: Mapping[str, Any]) -> Any:
    """For a format-1 record (no times on its turns): ``index -> (charged_ms, clock_left_ms)`` of
    each turn's mover, as :class:`arena.records.replay.Replay` works them out from
    ``move_times_ms`` and ``time_control``. UpgradeError when they cannot be."""
    from arena.records.replay import Replay
    from arena.records.sources import ReplayError

    try:
        steps = Replay.from_record(record, label="record").steps
    except ReplayError as exc:
        raise UpgradeError(str(exc)) from None

    def worked(index: int) -> tuple[float | None, float | None]:
        step = steps[index]
        charged = (step.charged_ms or {}).get(step.actors[0])
        clock = (step.clocks_ms or {}).get(step.actors[0])
        if charged is None or clock is None:
            raise UpgradeError(f"turns[{index}]: its thinking time or clock cannot be worked out (no "
                               "move_times_ms entry, or no time_control.timeLimit)")
        return charged, clock

    return worked


def _by_seat(value: Any) -> dict[str, str] | None:
    if not isinstance(value, dict) or not value:
        return None
    return {str(_COLOURS.index(k)) if k in _COLOURS else str(k): v for k, v in value.items()}


__all__ = [
    "FAULTS",
    "FORMATS",
    "UpgradeError",
    "clocks_left",
    "colour_eliminations",
    "colour_ranks",
    "colour_returns",
    "game_identity",
    "game_states",
    "ranks",
    "record_format",
    "returns",
    "seat_ids",
    "two_colour",
    "upgrade",
]
