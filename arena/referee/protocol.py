"""The external rules protocol, version 1 (docs/referees.md): requests out, replies in, no I/O.

A referee reads one JSON object per line and answers each with exactly one JSON object on one line.
:func:`request` writes a request; :func:`decode_reply` reads a reply line into a JSON object (an
``{"error": ...}`` reply raises :class:`ReplyError` with ``refusal`` set); the ``decode_*`` functions
check a reply's fields and turn it into typed values: :class:`Info` (``info``), :class:`Node`
(``new``, ``apply``, ``apply_joint``, ``node``, ``eliminate``), an observation, a board, playout
returns. Every problem is a :class:`ReplyError` whose message is one line naming the field and
what is wrong with it; nothing here knows which program sent the reply (the client adds that).

A node's ``legal`` moves and chance outcomes are JSON values, kept as the referee wrote them;
chance probabilities are exact :class:`fractions.Fraction` values that must sum to 1.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import orjson

from arena.fileio.jsonfiles import JsonInputError, strict_loads
from arena.games.model import CHANCE, SIMULTANEOUS, TERMINAL, Parameter

#: The protocol version this module speaks.
PROTOCOL_VERSION = 1
#: The optional commands a referee may list in ``features``, and ``perfect_information``: a
#: declaration, not a command (every seat's observation is the state itself, so a searcher may rebuild
#: the state from what it sees).
FEATURES = ("hash", "board", "svg", "playout", "eliminate", "determinize", "perfect_information")
#: The most seats arena seats at one table (``--players`` allows 2 to 64).
MAX_PLAYERS = 64

_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")
_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")
_PROBABILITY = re.compile(r"(0|[1-9][0-9]*)(/[1-9][0-9]*)?\Z")
_SHOWN = 80  # characters of a bad value quoted in a message
_WIDE_NUMBER = re.compile(rb"\d{19}|[eE]\+?\d{3}")  # as arena.fileio.jsonfiles: maybe beyond 64 bits


class ReplyError(ValueError):
    """A reply that breaks the protocol (one line saying what is wrong), or, with ``refusal`` set,
    the referee's own ``{"error": ...}`` answer."""

    def __init__(self, message: str, refusal: str | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


@dataclass(frozen=True)
class Info:
    """What ``info`` says about the referee's game (see the module docstring of the docs page)."""

    name: str
    min_players: int
    max_players: int
    default_players: int
    parameters: tuple[Parameter, ...]
    default_max_moves: int
    features: frozenset[str]


@dataclass(frozen=True, eq=False)
class Node:
    """One state as the referee describes it. ``legal`` maps each acting seat to its legal moves (in
    the referee's order); ``notation`` is parallel to it where given; ``chance`` holds the outcomes
    with their probabilities at a chance node; ``returns`` one number per seat at a terminal node
    (and wherever the referee gives them); ``observations`` the acting seats' observations when the
    referee sends them along (saving a round trip each)."""

    state: Any
    actor: int
    ply: int
    legal: Mapping[int, tuple[Any, ...]] = field(default_factory=dict)
    notation: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    chance: tuple[tuple[Any, Fraction], ...] = ()
    returns: tuple[float, ...] | None = None
    hash: str | None = None
    observations: Mapping[int, dict[str, Any]] = field(default_factory=dict)


# -- requests ----------------------------------------------------------------------------------------


def request(cmd: str, **fields: Any) -> bytes:
    """One request line: ``{"cmd": cmd, **fields}`` and a newline."""
    return orjson.dumps({"cmd": cmd, **fields}) + b"\n"


def joint_request(state: Any, moves: Mapping[int, Any]) -> bytes:
    """The ``apply_joint`` request: one move per acting seat, keyed by the seat as a string."""
    return request("apply_joint", state=state, moves={str(seat): move for seat, move in sorted(moves.items())})


# -- replies -----------------------------------------------------------------------------------------


def decode_reply(line: bytes) -> dict[str, Any]:
    """The JSON object of one reply line; ReplyError for anything else (integers beyond 64 bits and
    numbers beyond a float's range included: arena could not write them back), and for an
    ``{"error": ...}`` reply (its ``refusal`` then holds the referee's message)."""
    try:
        obj = orjson.loads(line)
        if _WIDE_NUMBER.search(line):  # orjson would quietly make a float of a wide integer
            obj = strict_loads(line)
    except orjson.JSONDecodeError:
        raise ReplyError(f"the reply is not JSON: {_show_bytes(line)}") from None
    except JsonInputError as exc:
        raise ReplyError(f"the reply is not arena's JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise ReplyError(f"the reply is not a JSON object: {_show_bytes(line)}")
    if "error" in obj:
        message = " ".join(str(obj["error"]).split())[:200]
        raise ReplyError(f"the referee answered an error: {message}", refusal=message)
    return obj


def decode_info(obj: Mapping[str, Any]) -> Info:
    """The ``info`` reply; ReplyError naming the first field that is missing or wrong."""
    version = obj.get("protocol")
    if version != PROTOCOL_VERSION:
        raise ReplyError(f"info: protocol {_show(version)}, but arena speaks protocol {PROTOCOL_VERSION}")
    name = obj.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ReplyError(f"info: name must be 1-32 of a-z, 0-9, _ (starting with a letter), got {_show(name)}")
    low = _int(obj, "min_players", "info", 2, MAX_PLAYERS)
    high = _int(obj, "max_players", "info", low, MAX_PLAYERS)
    default = _int(obj, "default_players", "info", low, high) if "default_players" in obj else low
    raw = obj.get("parameters", {})
    if not isinstance(raw, dict):
        raise ReplyError(f"info: parameters must be an object, got {_show(raw)}")
    parameters = tuple(_parameter(key, value) for key, value in raw.items())
    max_moves = _int(obj, "default_max_moves", "info", 1, 10**9)
    features = obj.get("features", [])
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise ReplyError(f"info: features must be a list of strings, got {_show(features)}")
    return Info(name, low, high, default, parameters, max_moves, frozenset(features))


def _parameter(key: Any, value: Any) -> Parameter:
    where = f"info: parameters.{key}"
    if not _PARAMETER.match(key) or key == "players":
        raise ReplyError(f"info: parameter name {_show(key)} must be an identifier other than 'players'")
    if not isinstance(value, dict):
        raise ReplyError(f"{where} must be an object {{\"default\", \"low\", \"high\"}}, got {_show(value)}")
    low = _int(value, "low", where, -(2**62), 2**62)
    high = _int(value, "high", where, low, 2**62)
    default = _int(value, "default", where, low, high)
    text = value.get("help", "")
    return Parameter(key, default, low, high, text if isinstance(text, str) else "")


def decode_node(obj: Mapping[str, Any], players: int) -> Node:
    """A node reply of a game of ``players`` seats; ReplyError naming the field that is wrong."""
    if "state" not in obj:
        raise ReplyError("node: no 'state'")
    actor = obj.get("actor")
    if type(actor) is not int or not (actor in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= actor < players):
        raise ReplyError(f"node: actor must be a seat 0 to {players - 1}, -1 (chance), -2 (simultaneous) or "
                         f"-4 (terminal), got {_show(actor)}")
    ply = _int(obj, "ply", "node", 0, 10**9)
    legal = _seat_lists(obj.get("legal", {}), "legal", players)
    if actor >= 0 and not legal.get(actor):
        raise ReplyError(f"node: seat {actor} acts but 'legal' lists no move for it")
    if actor >= 0 and set(legal) - {actor}:
        raise ReplyError(f"node: seat {actor} acts alone, but 'legal' lists moves for seats {sorted(set(legal) - {actor})}")
    if actor == SIMULTANEOUS and not any(legal.values()):
        raise ReplyError("node: a simultaneous node (actor -2) whose 'legal' lists no move for any seat")
    if actor in (CHANCE, TERMINAL) and any(legal.values()):
        raise ReplyError(f"node: no seat acts at actor {actor}, but 'legal' lists moves")
    for seat, moves in legal.items():
        if len({move_key(m) for m in moves}) != len(moves):
            raise ReplyError(f"node: legal[\"{seat}\"] lists a move twice")
    notation = _notation(obj.get("notation"), legal, players)
    chance = _chance(obj.get("chance")) if actor == CHANCE else ()
    returns = _returns(obj.get("returns"), players) if "returns" in obj or actor == TERMINAL else None
    digest = obj.get("hash")
    if digest is not None and not isinstance(digest, str):
        raise ReplyError(f"node: hash must be a string, got {_show(digest)}")
    observations = _observations(obj.get("observations"), players)
    return Node(obj["state"], actor, ply, legal, notation, chance, returns, digest, observations)


def decode_eliminated(obj: Mapping[str, Any], players: int) -> Node | None:
    """The ``eliminate`` reply: a node, or None for ``{"node": null}`` (a fault ends the game)."""
    if "node" in obj and obj["node"] is None:
        return None
    return decode_node(obj, players)


def decode_observation(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The ``observation`` reply's object."""
    seen = obj.get("observation")
    if not isinstance(seen, dict):
        raise ReplyError(f"observation: must be a JSON object, got {_show(seen)}")
    return seen


def decode_board(obj: Mapping[str, Any], want_svg: bool = False) -> tuple[str, str | None]:
    """The ``board`` reply: its text and its SVG picture (None when absent; ReplyError when
    ``want_svg`` and there is none)."""
    text, svg = obj.get("text"), obj.get("svg")
    if not isinstance(text, str):
        raise ReplyError(f"board: text must be a string, got {_show(text)}")
    if svg is not None and not (isinstance(svg, str) and svg.lstrip().startswith("<")):
        raise ReplyError(f"board: svg must be an SVG document, got {_show(svg)}")
    if want_svg and svg is None:
        raise ReplyError("board: no 'svg' (the referee lists the feature 'svg')")
    return text, svg


def decode_playout(obj: Mapping[str, Any], players: int, count: int) -> list[tuple[float, ...]]:
    """The ``playout`` reply: ``count`` returns vectors of ``players`` numbers each."""
    raw = obj.get("returns")
    if not isinstance(raw, list) or len(raw) != count:
        raise ReplyError(f"playout: returns must be a list of {count} returns vectors, got {_show(raw)}")
    return [_returns(row, players, "playout: returns[]") for row in raw]


# -- the fields ------------------------------------------------------------------------------------


def _seat_lists(raw: Any, name: str, players: int) -> dict[int, tuple[Any, ...]]:
    if not isinstance(raw, dict):
        raise ReplyError(f"node: {name} must be an object {{\"<seat>\": [...]}}, got {_show(raw)}")
    out: dict[int, tuple[Any, ...]] = {}
    for key, value in raw.items():
        seat = _seat(key, name, players)
        if not isinstance(value, list):
            raise ReplyError(f"node: {name}[\"{key}\"] must be a list, got {_show(value)}")
        if value:
            out[seat] = tuple(value)
    return out


def _seat(key: str, name: str, players: int) -> int:
    if not (key.isascii() and key.isdigit()) or not 0 <= int(key) < players:
        raise ReplyError(f"node: {name} has key {_show(key)}, not a seat \"0\" to \"{players - 1}\"")
    return int(key)


def _notation(raw: Any, legal: Mapping[int, tuple[Any, ...]], players: int) -> dict[int, tuple[str, ...]]:
    if raw is None:
        return {}
    out = _seat_lists(raw, "notation", players)
    for seat, texts in out.items():
        if len(texts) != len(legal.get(seat, ())) or not all(isinstance(t, str) for t in texts):
            raise ReplyError(f"node: notation[\"{seat}\"] must hold one string per legal move of seat {seat}")
    return out


def _chance(raw: Any) -> tuple[tuple[Any, Fraction], ...]:
    if not isinstance(raw, list) or not raw:
        raise ReplyError(f"node: a chance node needs 'chance': [[outcome, \"num/den\"], ...], got {_show(raw)}")
    outcomes = []
    for item in raw:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str) and _PROBABILITY.match(item[1])):
            raise ReplyError(f"node: each chance entry must be [outcome, \"num/den\"], got {_show(item)}")
        probability = Fraction(item[1])
        if probability <= 0:
            raise ReplyError(f"node: chance outcome {_show(item[0])} has probability {item[1]}, not above 0")
        outcomes.append((item[0], probability))
    if len({move_key(o) for o, _ in outcomes}) != len(outcomes):
        raise ReplyError("node: chance lists an outcome twice")
    total = sum((p for _, p in outcomes), Fraction(0))
    if total != 1:
        raise ReplyError(f"node: chance probabilities sum to {total}, not 1")
    return tuple(outcomes)


def _returns(raw: Any, players: int, where: str = "node: returns") -> tuple[float, ...]:
    if not isinstance(raw, list) or len(raw) != players or not all(
            isinstance(r, (int, float)) and not isinstance(r, bool) and math.isfinite(r) for r in raw):
        raise ReplyError(f"{where} must be {players} finite numbers, got {_show(raw)}")
    return tuple(float(r) for r in raw)


def _observations(raw: Any, players: int) -> dict[int, dict[str, Any]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ReplyError(f"node: observations must be an object {{\"<seat>\": {{...}}}}, got {_show(raw)}")
    out = {}
    for key, value in raw.items():
        seat = _seat(key, "observations", players)
        if not isinstance(value, dict):
            raise ReplyError(f"node: observations[\"{key}\"] must be a JSON object, got {_show(value)}")
        out[seat] = value
    return out


def _int(obj: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = obj.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ReplyError(f"{where}: {key} must be an integer from {low} to {high}, got {_show(value)}")
    return value


def move_key(move: Any) -> bytes:
    """A move's (or any JSON value's) canonical JSON text: equal for equal values, hashable."""
    return orjson.dumps(move, option=orjson.OPT_SORT_KEYS)


def _show(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def _show_bytes(line: bytes) -> str:
    text = repr(line[:_SHOWN])
    return text + ("..." if len(line) > _SHOWN else "")


__all__ = ["FEATURES", "PROTOCOL_VERSION", "Info", "Node", "ReplyError", "decode_board", "decode_eliminated",
           "decode_info", "decode_node", "decode_observation", "decode_playout", "decode_reply", "joint_request",
           "move_key", "request"]
