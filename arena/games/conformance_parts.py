"""Parts of the conformance check (:mod:`arena.games.conformance`; standard library only): where
it is, so that every failure is one line saying it (shared with
:mod:`arena.games.conformance_search`), the checks of a game's optional requests and pictures, and those of the colour dialect's envelope."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from types import TracebackType
from typing import Any, Literal

from arena.games.base import GameError, StateError, cap_text
from arena.games.model import TERMINAL, GeneralGame

#: A picture of a state: ``(state, seat or None, the last move or None) -> SVG text``.
Picture = Callable[[Any, "int | None", Any], str]


class ConformanceError(AssertionError):
    """A game broke the forward-model contract; the message says where and how (one line)."""


class Context:
    """Where the check is (game, step, state), so every failure message can say it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.where = ""
        self.state_json: Any = None

    def fail(self, message: str) -> ConformanceError:
        text = f"{self.name}: {self.where + ': ' if self.where else ''}{message}"
        if self.state_json is not None:
            text += f" (state {show(self.state_json, 300)})"
        return ConformanceError(" ".join(text.split("\n")))

    def step(self, what: str) -> Step:
        """A ``with`` block turning an unexpected exception into a ConformanceError naming ``what``."""
        return Step(self, what)


class Step:
    # A class rather than @contextmanager: it is entered ~20 times per step.
    __slots__ = ("ctx", "what")

    def __init__(self, ctx: Context, what: str) -> None:
        self.ctx, self.what = ctx, what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if exc is None or isinstance(exc, ConformanceError) or not isinstance(exc, Exception):
            return False
        raise self.ctx.fail(f"{self.what} raised {type(exc).__name__}: {cap_text(str(exc), 200)}") from exc


def show(value: Any, limit: int = 120) -> str:
    """``value`` as JSON text (else its repr), capped at ``limit`` characters."""
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return cap_text(text, limit)


def json_trip(value: Any) -> Any:
    """``value`` after a trip through JSON text (what a record file or a bot's pipe does to it)."""
    return json.loads(json.dumps(value))


def offers(game: GeneralGame[Any, Any], feature: str) -> bool:
    """Whether ``game`` offers an optional request: a referee's game when its ``info`` lists it
    (``has_feature``), a game in Python when it implements it."""
    declared = getattr(game, "has_feature", None)
    if feature == "determinize":
        if game.perfect_information:
            return True
        return bool(declared("determinize")) if declared is not None else \
            type(game).determinize is not GeneralGame.determinize
    if declared is not None:
        return bool(declared(feature))
    return feature == "board" or callable(getattr(game, feature, None))


def check_optional(game: GeneralGame[Any, Any], state: Any, rng: random.Random, ctx: Context) -> None:
    """The optional requests ``game`` offers (module docstring), at ``state``."""
    try:
        if offers(game, "board"):
            # A picture of a board is never blank; a card game's may be, before anything is dealt.
            blank_ok = not (game.colour_dialect or getattr(game, "has_feature", None) is not None)
            for seat in (None, *range(game.players)):
                text = game.board_text(state, seat)
                if not isinstance(text, str) or not (blank_ok or text.strip()):
                    raise ctx.fail(f"board_text(state, {seat}) gave {show(text)}: the board text for seat {seat} "
                                   "must be non-empty text")
        board = getattr(game, "board", None)
        if board is not None and offers(game, "svg"):
            _, picture = board(game.state_to_json(state), None, True)
            if picture is not None:
                check_svg_text(picture, "the board's SVG picture", ctx)
        if offers(game, "determinize"):
            for seat in game.acting_seats(state):
                seen = game.observation(state, seat)
                if game.observation(game.determinize(seen, seat, rng), seat) != seen:
                    raise ctx.fail(f"determinize gave a state in which seat {seat} sees something else")
        if offers(game, "playout"):
            results = game.playout(state, rng.randrange(2**31), 2)  # type: ignore[attr-defined]
            if len(results) != 2 or any(len(r) != game.players or not all(
                    isinstance(x, (int, float)) and math.isfinite(x) for x in r) for r in results):
                raise ctx.fail(f"playout of 2 gave {results!r}: expected 2 vectors of {game.players} finite returns")
            if game.actor(state) == TERMINAL and any(tuple(r) != tuple(game.returns(state)) for r in results):
                raise ctx.fail(f"playout from the end gave {results!r}, not the returns {list(game.returns(state))}")
    except GameError as exc:
        raise ctx.fail(f"an optional request it offers failed: {exc}") from None


def check_pictures(game: GeneralGame[Any, Any], state: Any, last_move: Any, svg: Picture | None,
                    ctx: Context) -> None:
    if svg is None:
        return
    for seat in (None, *range(game.players)):
        for move in (None, last_move):
            with ctx.step(f"board_svg(state, seat {seat}, last move {move!r})"):
                picture = svg(state, seat, move)
            check_svg_text(picture, "board_svg()", ctx)


def check_svg_text(picture: Any, what: str, ctx: Context) -> None:
    from xml.etree import ElementTree

    if not isinstance(picture, str):
        raise ctx.fail(f"{what} gave a {type(picture).__name__}, expected a str")
    try:
        root = ElementTree.fromstring(picture)
    except ElementTree.ParseError as exc:
        raise ctx.fail(f"{what} is not XML: {exc}") from None
    if root.tag.rpartition("}")[2] != "svg":
        raise ctx.fail(f"{what} root element is <{root.tag}>, not an <svg> document")
    if "viewBox" not in root.attrib:
        raise ctx.fail(f"{what} has no viewBox (it must scale)")


# -- the colour dialect: BLACK and WHITE taking turns in plain sight ----------------------------


def check_envelope(game: GeneralGame[Any, Any], snapshot: Any, who: int, number: int, ctx: Context) -> None:
    if not isinstance(snapshot, dict) or sorted(snapshot) != ["board", "turn", "turnNumber"]:
        raise ctx.fail('state_to_json() must give an object with exactly "board", "turn", "turnNumber"')
    if number == 0 and who not in (0, TERMINAL):
        raise ctx.fail(f"the initial state has {game.seat_names[who] if who > 0 else who} to move: Black moves first")
    mover = game.seat_names[who] if who >= 0 else snapshot["turn"]
    if snapshot["turn"] != mover or snapshot["turnNumber"] != number or mover not in game.seat_names:
        raise ctx.fail(f"state_to_json() says turn {show(snapshot['turn'])}, turnNumber "
                       f"{show(snapshot['turnNumber'])} but the game says {mover}, {number}")


def check_alternation(game: GeneralGame[Any, Any], snapshot: Any, after: Any, move: Any, ctx: Context) -> None:
    with ctx.step("state_to_json of the next state"):
        if game.state_to_json(after)["turn"] == snapshot["turn"]:
            raise ctx.fail(f"after {game.describe_move(move)!r} the same side is to move again")


def broken_states(snapshot: Any, colours: bool) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = [("null", None), ("a list", [snapshot]), ("a string", json.dumps(snapshot)),
                                    ("an empty object", {})]
    if not colours:
        return found

    def but(**changes: Any) -> dict[str, Any]:
        return {**snapshot, **changes}

    return found + [
        ("no board", {k: v for k, v in snapshot.items() if k != "board"}),
        ("an extra key", but(extra=1)),
        ("board null", but(board=None)),
        ("board 12345", but(board=12345)),
        ("board true", but(board=True)),
        ('turn "RED"', but(turn="RED")),
        ('turn "black"', but(turn="black")),
        ("turn null", but(turn=None)),
        ("turnNumber -1", but(turnNumber=-1)),
        ("turnNumber 1.5", but(turnNumber=1.5)),
        ('turnNumber "0"', but(turnNumber="0")),
        ("turnNumber true", but(turnNumber=True)),
    ]


def check_broken_states(game: GeneralGame[Any, Any], start: Any, ctx: Context) -> None:
    """``state_from_json`` refuses broken objects with StateError, never another exception."""
    ctx.where = "state_from_json of a broken object"
    with ctx.step("state_to_json(initial state)"):
        snapshot = game.state_to_json(start)
    if not isinstance(snapshot, dict):
        raise ctx.fail(f"state_to_json() gave {show(snapshot)}: expected an object")
    for label, broken in broken_states(snapshot, game.colour_dialect):
        try:
            game.state_from_json(broken)
        except StateError:
            continue
        except Exception as exc:
            raise ctx.fail(f"{label} ({show(broken, 80)}) raised {type(exc).__name__}: "
                           f"{cap_text(str(exc), 100)}; it must raise StateError") from exc
        raise ctx.fail(f"{label} ({show(broken, 80)}) was accepted; it must raise StateError")
