"""Every registered game passes :mod:`arena.games.conformance`, and that check catches what it claims.

The games come from the registry (arena's own and installed plugins, two-player and N-seat), each
capped at its spec's ``default_max_moves``, for 2, 3 and 4 players where the game allows them. The
second half breaks a toy game one rule at a time, through the one game interface (the two-seat
adapter), and checks that the conformance check names the fault.
"""

from __future__ import annotations

import sys
import types
from dataclasses import replace
from typing import Any, ClassVar, NamedTuple

import pytest

from arena.agents.parts import search_ref
from arena.games import registry
from arena.games.base import (
    Color,
    Game,
    IllegalMoveError,
    MoveSyntaxError,
    Outcome,
    StateError,
    Termination,
    read_state_fields,
)
from arena.games.conformance import ConformanceError, check_game, check_spec, main
from arena.games.model import TwoPlayerGame

#: Random games per registered game and player count: with the per-step checks this keeps the
#: whole file to a few seconds while still meeting wins, stuck positions and draws in every shipped
#: game whose random games end before the cap.
GAMES_PER_RUN = 30
#: Except Abalone's: random play pushes no six marbles off, so every random game runs to the move
#: cap (30 of 30 and 10 of 10 did, seed 0), the longest games of any game here; 10 of them meet the
#: one ending 30 meet, at 4.7 s of CPU instead of 12.6.
FEWER_GAMES = {"abalone": 10}


@pytest.mark.parametrize("name", registry.all_game_names())
def test_every_registered_game_conforms(name: str) -> None:
    # With the search adapter arena's agents play it on (arena's own games': the agents' part).
    adapter = search_ref(registry.get_spec(name))
    spec = replace(registry.get_spec(name), search=adapter)
    games = FEWER_GAMES.get(name, GAMES_PER_RUN)
    report = check_spec(spec, games=games, adapter_games=2)
    assert (report.adapter_states > 0) == (adapter is not None)
    low, high = spec.player_bounds()
    assert report.players == tuple(n for n in (2, 3, 4) if low <= n <= high)
    assert report.games == games
    assert report.ply_cap == spec.default_max_moves
    assert sum(report.endings.values()) == games * len(report.players)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "love_letter"])
def test_a_game_that_shows_other_hands_fails_the_leak_check(name: str) -> None:
    """The hidden-information games give variants, so a leak cannot pass unseen."""
    rules = registry.load_ref(registry.get_spec(name).rules)

    class Leaky(rules):  # type: ignore[misc, valid-type]
        def observation(self, state, seat):  # type: ignore[no-untyped-def]
            return {**super().observation(state, seat), "everything": self.state_to_json(state)}

    with pytest.raises(ConformanceError, match="changes with what it may not see"):
        check_game(Leaky(3), games=5)


def test_every_builtin_game_loads() -> None:
    broken = {name: why for name, why in registry.problems().items() if name in registry.BUILTIN_GAMES}
    assert broken == {}


# -- a toy game, then broken copies of it ----------------------------------------------------------


class Pile(NamedTuple):
    counters: int
    ply: int


class Toy(Game[Pile, int]):
    """Take 1 or 2 counters from a pile of 7; taking the last one wins; 5 plies without it: a draw."""

    name: ClassVar[str] = "toy"
    default_max_moves: ClassVar[int] = 10

    def initial_state(self) -> Pile:
        return Pile(7, 0)

    def to_move(self, state: Pile) -> Color:
        return Color.BLACK if state.ply % 2 == 0 else Color.WHITE

    def ply(self, state: Pile) -> int:
        return state.ply

    def legal_moves(self, state: Pile) -> list[int]:
        return [] if self.outcome(state) else [n for n in (1, 2) if n <= state.counters]

    def apply(self, state: Pile, move: int) -> Pile:
        return Pile(state.counters - move, state.ply + 1)

    def outcome(self, state: Pile) -> Outcome | None:
        if state.counters == 0:
            return Outcome(Termination.WIN, self.to_move(state).other)
        if state.ply >= 5:
            return Outcome(Termination.DRAW, None)
        return None

    def parse_move(self, wire: Any) -> int:
        if wire not in (1, 2) or type(wire) is not int:
            raise MoveSyntaxError(f"take 1 or 2, not {wire!r}")
        return int(wire)

    def move_to_wire(self, move: int) -> Any:
        return move

    def move_to_record(self, move: int) -> Any:
        return move

    def describe_move(self, move: int) -> str:
        return f"take {move}"

    def validate_move(self, state: Pile, move: int) -> int:
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"cannot take {move}")
        return move

    def state_to_json(self, state: Pile) -> dict[str, Any]:
        return {"board": state.counters, "turn": self.to_move(state).value, "turnNumber": state.ply}

    def state_from_json(self, obj: Any) -> Pile:
        board, turn, ply = read_state_fields(obj)
        if type(board) is not int or not 0 <= board <= 7:
            raise StateError("board must be 0-7 counters")
        if turn is not (Color.BLACK if ply % 2 == 0 else Color.WHITE):
            raise StateError("turn does not match turnNumber")
        return Pile(board, ply)


def board_svg(state: Pile, last_move: int | None = None) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>{state.counters}</text></svg>'


class ToySearch:
    DEFAULT_WEIGHTS: ClassVar[dict[str, int]] = {"pile": 1}
    extend_single_reply = False

    def __init__(self, weights: dict[str, int]) -> None:
        self.rules = Toy()

    def from_state(self, state: Pile) -> Pile:
        return state

    def to_game_move(self, move: int) -> int:
        return move

    def moves(self, pos: Pile) -> list[int]:
        return self.rules.legal_moves(pos) if pos.counters else []

    def terminal_score(self, pos: Pile) -> int | None:
        return 0 if pos.counters and pos.ply >= 5 else None

    def ply(self, pos: Pile) -> int:
        return pos.ply

    def has_moves(self, pos: Pile) -> bool:
        return bool(self.moves(pos))


@pytest.fixture
def toy_module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A module ``conformance_toy`` holding the toy's parts, for ``"module:attr"`` references."""
    module = types.ModuleType("conformance_toy")
    module.Toy = Toy  # type: ignore[attr-defined]
    module.board_svg = board_svg  # type: ignore[attr-defined]
    module.ToySearch = ToySearch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "conformance_toy", module)
    return module


TOY_SPEC = registry.GameSpec(name="toy", title="Toy", rules="conformance_toy:Toy", default_max_moves=10,
                             svg="conformance_toy:board_svg", search="conformance_toy:ToySearch")


def test_the_toy_conforms_with_wins_and_draws(toy_module: types.ModuleType) -> None:
    report = check_spec(TOY_SPEC, games=50)
    assert set(report.endings) == {"win", "draw"}
    assert report.adapter_states > 0
    assert report.summary().startswith("toy: ok, 50 random games for each of [2] players (cap 10)")


def test_a_cap_below_every_ending_plays_one_game_on() -> None:
    report = check_game(TwoPlayerGame(Toy()), games=5, ply_cap=2)
    assert report.endings == {"cap": 5}
    assert report.played_on.endswith("steps")


class MutableCounters:
    """A state that compares by value but can be changed in place (what apply must never do)."""

    def __init__(self, counters: list[int], ply: int) -> None:
        self.counters, self.ply = counters, ply

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MutableCounters) and (self.counters, self.ply) == (other.counters, other.ply)

    def __hash__(self) -> int:
        return 0


def as_pile(state: Any) -> Pile:
    return state if isinstance(state, Pile) else Pile(state.counters[0], state.ply)


class Mutating(Toy):
    def initial_state(self) -> Any:
        return MutableCounters([7], 0)

    def outcome(self, state: Any) -> Outcome | None:
        return super().outcome(as_pile(state))

    def legal_moves(self, state: Any) -> list[int]:
        return super().legal_moves(as_pile(state))

    def apply(self, state: Any, move: int) -> Any:
        state.counters[0] -= move
        return MutableCounters(list(state.counters), state.ply + 1)

    def state_to_json(self, state: Any) -> dict[str, Any]:
        return super().state_to_json(as_pile(state))

    def state_from_json(self, obj: Any) -> Any:
        pile = super().state_from_json(obj)
        return MutableCounters([pile.counters], pile.ply)


class WrongWire(Toy):
    def move_to_wire(self, move: int) -> Any:
        return 3 - move


class LooseStates(Toy):
    def state_from_json(self, obj: Any) -> Pile:
        return Pile(obj["board"], obj["turnNumber"])  # KeyError, TypeError... instead of StateError


class DrawWithWinner(Toy):
    def outcome(self, state: Pile) -> Outcome | None:
        found = super().outcome(state)
        return Outcome(Termination.DRAW, Color.BLACK) if found and found.winner is None else found


class StuckButNotOver(Toy):
    def legal_moves(self, state: Pile) -> list[int]:
        return [] if state.ply == 3 else super().legal_moves(state)


class NoticeAfterTheEnd(Toy):
    def legal_moves(self, state: Pile) -> list[int]:
        return [n for n in (1, 2) if n <= state.counters]


class PlaysTwice(Toy):
    def to_move(self, state: Pile) -> Color:
        return Color.BLACK if state.ply < 2 else super().to_move(state)


class WrongNotation(Toy):
    def parse_notation(self, text: str, state: Pile) -> int:
        return 1


class BadBoardText(Toy):
    def board_text(self, state: Pile) -> str:
        return None  # type: ignore[return-value]


@pytest.mark.parametrize(("game", "message"), [
    (Mutating(), "modified its input"),
    (WrongWire(), "parse_move(move_to_wire(m)) gave"),
    (LooseStates(), "null (null) raised TypeError: 'NoneType' object is not subscriptable; it must raise StateError"),
    (DrawWithWinner(), 'a draw has winner "BLACK": it must be None'),
    (StuckButNotOver(), "a state with no legal moves must be terminal"),
    (NoticeAfterTheEnd(), "but legal_moves() gave"),
    (PlaysTwice(), "the same side is to move again"),
    (WrongNotation(), "parse_notation('take 2', state, 0) gave 'take 1'"),
    (BadBoardText(), "board_text(state, None) gave null"),
])
def test_a_broken_rule_is_named(game: Toy, message: str) -> None:
    with pytest.raises(ConformanceError, match="^toy \\(2 players\\): ") as caught:
        check_game(TwoPlayerGame(game), games=30)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value), "one line"


def test_a_picture_that_is_not_xml_is_named() -> None:
    with pytest.raises(ConformanceError, match="board_svg\\(\\) is not XML"):
        check_game(TwoPlayerGame(Toy()), games=3, svg=lambda state, seat, last_move: "<svg><g></svg>")


def test_spec_faults_are_named(toy_module: types.ModuleType) -> None:
    with pytest.raises(ConformanceError, match="spec.protocol: cannot import nowhere"):
        check_spec(replace(TOY_SPEC, protocol="nowhere:Protocol", bot_side="conformance_toy:Toy"), games=1)
    with pytest.raises(ConformanceError, match="its rules object is named 'toy'"):
        check_spec(replace(TOY_SPEC, name="other"), games=1)
    with pytest.raises(ConformanceError, match="spec.svg: conformance_toy has no attribute 'nothing'"):
        check_spec(replace(TOY_SPEC, svg="conformance_toy:nothing"), games=1)


def test_an_adapter_that_disagrees_with_the_rules_is_named(toy_module: types.ModuleType) -> None:
    class Greedy(ToySearch):
        def moves(self, pos: Pile) -> list[int]:
            return [m for m in super().moves(pos) if m == 2] or super().moves(pos)

    toy_module.Greedy = Greedy  # type: ignore[attr-defined]
    with pytest.raises(ConformanceError, match=r"adapter moves differ from the legal moves: extra \[\], "
                                               r"missing \['take 1'\]"):
        check_spec(replace(TOY_SPEC, search="conformance_toy:Greedy"), games=1)


def test_command_line(toy_module: types.ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    registry.register(TOY_SPEC)
    try:
        assert main(["toy", "--games", "10"]) == 0
        assert capsys.readouterr().out.startswith("toy: ok, 10 random games")
        assert main(["no_such_game"]) == 2
        assert "unknown game 'no_such_game'" in capsys.readouterr().err
    finally:
        registry.unregister("toy")
