"""Replaying N-seat records (``record_format`` 3, :mod:`arena.records.seats`): the positions and
steps of one game, as everyone saw it or as one seat saw it. Pure data, no rich and no terminal:
``arena replay`` (:mod:`arena.cli.replay_cmd`) draws it, :mod:`arena.report.seat_page` writes its
HTML page.

Positions: ``states[0]`` before the first step, ``states[i]`` after step ``i`` (``steps[i - 1]``),
the record's omniscient states; the picture of a position is ``game.board_text(state, seat)`` (or
the game's SVG with ``seat``), so the view of one seat is whatever the game shows that seat.

What a seat is told of each step (:meth:`SeatReplay.from_record` with ``seat``): its own moves; a
chance outcome, or another seat's move (alone or at a simultaneous step), only when the seat could
tell it from its observation right after the step. That is decided from the rules, for any game:
the step is redone with each alternative (every other chance outcome; every other legal move of
that seat, the rest of a joint move kept) and the outcome or move is shown when every alternative
that leaves the seat the same observation reads the same (``describe_move``); otherwise it shows
as ``chance`` or ``?``. A chance node of more than :data:`MAX_ALTERNATIVES` outcomes is not
enumerated: its outcome is hidden from a seat. Eliminations are shown to every seat (arena
announces them; the observations of the games say who is out). A seat's view shows its own clock
and thinking times only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.games.base import GameError
from arena.games.model import GeneralGame
from arena.records.replay import ReplayError, format_clock, format_ms

#: The most alternatives tried to tell whether a seat could see a chance outcome or a move.
MAX_ALTERNATIVES = 2000


@dataclass(frozen=True)
class SeatStep:
    """One step of the record as the viewer is told it.

    ``kind``: chance, move, joint or elimination. ``actors``: the seats that moved (or the one
    eliminated). ``moves``: seat -> notation of its move, None where the viewer cannot see it.
    ``outcome``: a chance step's outcome in notation (None: hidden from the viewer), with its
    ``probability`` (``"1/4"``). ``charged_ms``: thinking time per seat (the viewer's own only, in a
    seat's view). ``clocks_ms``: clocks after the step (seat -> ms), same rule."""

    number: int
    ply: int
    kind: str
    actors: tuple[int, ...]
    moves: dict[int, str | None]
    outcome: str | None = None
    probability: str | None = None
    termination: str = ""
    reason: str = ""
    charged_ms: dict[int, float] | None = None
    clocks_ms: dict[int, float] | None = None


@dataclass
class SeatReplay:
    """A recorded N-seat game as positions and steps, omniscient (``seat`` None) or as ``seat`` saw
    it; ``len(states) == len(steps) + 1``."""

    game: GeneralGame[Any, Any]
    record: dict[str, Any]
    states: list[Any]
    steps: list[SeatStep]
    seat: int | None
    label: str = ""

    @classmethod
    def from_record(cls, record: Mapping[str, Any], label: str = "record", seat: int | None = None,
                    game: GeneralGame[Any, Any] | None = None) -> SeatReplay:
        """The replay of an N-seat ``record`` (already shaped: :func:`arena.records.seats.seat_record_problem`),
        as ``seat`` saw it (None: everything). ``game``: the rules to use instead of the registry's
        (tests). Raises ReplayError naming ``label``: an unknown game or parameters, a seat the
        game does not have, a state or step the rules cannot read."""
        if game is None:
            from arena.records.seats import game_of_identity

            try:
                game = game_of_identity(dict(record["game_identity"]))
            except GameError as exc:
                raise ReplayError(f"{label}: {exc}") from None
        if seat is not None and not 0 <= seat < game.players:
            raise ReplayError(f"{label}: --seat {seat}: this game has seats 0 to {game.players - 1}")
        states = []
        for i, raw in enumerate(record["states"]):
            try:
                states.append(game.state_from_json(raw))
            except GameError as exc:
                raise ReplayError(f"{label}: states[{i}] is not a {game.name} state: {exc}") from None
        steps = []
        for i, raw_step in enumerate(record["steps"]):
            try:
                steps.append(_step(game, states[i], raw_step, i + 1, seat))
            except (GameError, KeyError, TypeError, ValueError) as exc:
                raise ReplayError(f"{label}: steps[{i}] ({raw_step.get('kind')}) cannot be read: {exc}") from None
        return cls(game, dict(record), states, steps, seat, label)

    # -- what the views show ---------------------------------------------------------------------

    @property
    def last(self) -> int:
        return len(self.steps)

    @property
    def players(self) -> int:
        return self.game.players

    def seat_ids(self) -> list[str]:
        return [str(s.get("id", "?")) for s in self.record["seats"]]

    def seat_label(self, seat: int) -> str:
        """``P1 (goofspiel_heuristic)``, ``P1 (you: goofspiel_heuristic)`` in that seat's view."""
        you = "you: " if seat == self.seat else ""
        return f"{self.game.seat_names[seat]} ({you}{self.seat_ids()[seat]})"

    def board(self, i: int) -> str:
        """Position ``i`` as plain text: the game's ``board_text`` for the viewer."""
        return self.game.board_text(self.states[i], self.seat)

    def observation(self, i: int) -> dict[str, Any] | None:
        """The viewer's observation at position ``i`` (None in the omniscient view)."""
        return None if self.seat is None else self.game.observation(self.states[i], self.seat)

    def title(self) -> str:
        """``goofspiel (3 players, num_cards=4): a vs b vs c``, with the game index when there is one."""
        index = self.record.get("game_index")
        prefix = f"game {index}, " if isinstance(index, int) and not isinstance(index, bool) else ""
        return f"{prefix}{self.identity_text()}: {' vs '.join(self.seat_ids())}"

    def identity_text(self) -> str:
        params = ", ".join(f"{k}={v}" for k, v in sorted(self.game.params.items()))
        return f"{self.game.name} ({self.players} players{', ' + params if params else ''})"

    def view_text(self) -> str:
        if self.seat is None:
            return "view: omniscient (every seat's hidden information shown)"
        return f"view: as seat {self.seat} saw it, {self.seat_label(self.seat)}"

    @property
    def termination(self) -> str:
        return str(self.record.get("termination", "?"))

    @property
    def reason(self) -> str:
        return str(self.record.get("reason", ""))

    def returns(self) -> list[float]:
        return [float(r) for r in self.record["returns"]]

    def ranks(self) -> list[int]:
        return [int(r) for r in self.record["ranks"]]

    def result(self) -> str:
        """``P1 (x) first [win]``, ``P0 (x), P2 (y) share first [win]``."""
        first = [s for s, rank in enumerate(self.ranks()) if rank == 1]
        who = ", ".join(self.seat_label(s) for s in first)
        if len(first) == self.players:
            head = "all seats share first"
        else:
            head = f"{who} {'share first' if len(first) > 1 else 'first'}"
        return f"{head} [{self.termination}]"

    def seat_rows(self) -> list[tuple[str, str, str, str]]:
        """Per seat: name, id (``you`` marked), return, rank (and how it went out)."""
        out = {int(e["seat"]): e for e in self.record.get("eliminations") or [] if isinstance(e, Mapping)}
        rows = []
        for seat in range(self.players):
            name = self.game.seat_names[seat] + (" (you)" if seat == self.seat else "")
            rank = f"rank {self.ranks()[seat]}"
            if seat in out:
                rank += f", out at step {_step_number(self.record, out[seat])}: {out[seat].get('termination', '?')}"
            rows.append((name, self.seat_ids()[seat], f"return {_signed(self.returns()[seat])}", rank))
        return rows

    def elimination_lines(self) -> list[str]:
        lines = []
        for e in self.record.get("eliminations") or []:
            if isinstance(e, Mapping) and isinstance(e.get("seat"), int):
                lines.append(f"{self.seat_label(e['seat'])} at step {_step_number(self.record, e)}: "
                             f"{e.get('termination', '?')} ({e.get('reason', '')})")
        return lines

    def acting(self, i: int) -> tuple[int, ...]:
        """The seats asked to move at position ``i`` (none at chance or the end)."""
        return tuple(self.game.acting_seats(self.states[i])) if i < self.last else ()

    def clocks_at(self, i: int) -> dict[int, float] | None:
        """The clocks (ms) at position ``i`` (the viewer's own only, in a seat's view)."""
        tc = self.record.get("time_control")
        limit = tc.get("timeLimit") if isinstance(tc, Mapping) else None
        if not isinstance(limit, (int, float)) or isinstance(limit, bool):
            return None
        clocks = {s: float(limit) for s in range(self.players)}
        for step in self.steps[:i]:
            clocks.update(step.clocks_ms or {})
        end = self.record.get("clocks_left_ms")
        if i >= self.last and isinstance(end, list) and len(end) == self.players:
            clocks = {s: float(ms) for s, ms in enumerate(end)}
        return {s: ms for s, ms in clocks.items() if self.seat is None or s == self.seat}

    def step_text(self, i: int) -> str:
        """Step ``i`` (from 0) in one line, as the viewer is told it."""
        step = self.steps[i]
        if step.kind == "chance":
            if step.outcome is None:
                return "chance"
            return f"chance: {step.outcome}" + (f" ({step.probability})" if step.probability else "")
        if step.kind == "elimination":
            return f"{self.seat_label(step.actors[0])} eliminated: {step.termination}"
        if step.kind == "move":
            seat = step.actors[0]
            return f"{self.seat_label(seat)}: {_shown(step.moves[seat])}"
        return "simultaneous: " + ", ".join(f"{self.game.seat_names[s]}{' (you)' if s == self.seat else ''} "
                                            f"{_shown(step.moves[s])}" for s in step.actors)

    def step_detail(self, i: int) -> str:
        """What the status line adds to :meth:`step_text`: thinking times, an elimination's reason."""
        step = self.steps[i]
        if step.kind == "elimination":
            return step.reason
        if step.charged_ms:
            return "thought " + ", ".join(f"{self.game.seat_names[s]} {format_ms(ms)}"
                                          for s, ms in sorted(step.charged_ms.items()))
        return ""


def _shown(notation: str | None) -> str:
    return "?" if notation is None else notation


def _signed(value: float) -> str:
    return f"{value:+.4g}" if value else "0"


def _step_number(record: Mapping[str, Any], elimination: Mapping[str, Any]) -> str:
    """The step number (from 1) of an elimination, found by its ply among the steps."""
    for i, step in enumerate(record["steps"]):
        if step.get("kind") == "elimination" and step.get("seat") == elimination.get("seat"):
            return str(i + 1)
    return "?"


def _step(game: GeneralGame[Any, Any], state: Any, raw: Mapping[str, Any], number: int, seat: int | None) -> SeatStep:
    """A record's step as ``seat`` is told it (see the module docstring)."""
    kind = raw["kind"]
    ply = raw.get("ply", number - 1)
    ply = ply if isinstance(ply, int) else number - 1
    charged = _per_seat(raw.get("charged_ms"))
    clocks = _per_seat(raw.get("clock_left_ms"))
    if kind == "chance":
        outcome = game.move_from_record(raw["outcome"])
        shown = seat is None or _chance_seen(game, state, outcome, seat)
        return SeatStep(number, ply, kind, (), {}, game.describe_move(outcome) if shown else None,
                        str(raw.get("probability")) if shown and raw.get("probability") is not None else None)
    if kind == "elimination":
        return SeatStep(number, ply, kind, (int(raw["seat"]),), {}, termination=str(raw.get("termination", "?")),
                        reason=str(raw.get("reason", "")))
    if kind == "move":
        mover = int(raw["seat"])
        move = game.move_from_record(raw["move"])
        seen = seat is None or seat == mover or _move_seen(game, state, {mover: move}, mover, seat)
        return SeatStep(number, ply, kind, (mover,), {mover: game.describe_move(move) if seen else None},
                        charged_ms=_own(charged, seat, {mover: charged} if isinstance(charged, float) else None),
                        clocks_ms=_own(clocks, seat, {mover: clocks} if isinstance(clocks, float) else None))
    if kind != "joint":
        raise ValueError(f"unknown step kind {kind!r}")
    joint = {int(s): game.move_from_record(m) for s, m in raw["moves"].items()}
    moves: dict[int, str | None] = {}
    for s in sorted(joint):
        seen = seat is None or seat == s or _move_seen(game, state, joint, s, seat)
        moves[s] = game.describe_move(joint[s]) if seen else None
    return SeatStep(number, ply, kind, tuple(sorted(joint)), moves,
                    charged_ms=_own(charged, seat, None), clocks_ms=_own(clocks, seat, None))


def _per_seat(value: Any) -> dict[int, float] | float | None:
    """A joint step's ``{"<seat>": ms}`` as ``{seat: ms}``, a move step's number as it is."""
    if isinstance(value, Mapping):
        return {int(k): float(v) for k, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _own(value: dict[int, float] | float | None, seat: int | None,
         single: dict[int, float] | None) -> dict[int, float] | None:
    by_seat = single if single is not None else value if isinstance(value, dict) else None
    if by_seat is None:
        return None
    return {s: ms for s, ms in by_seat.items() if seat is None or s == seat}


def _chance_seen(game: GeneralGame[Any, Any], state: Any, outcome: Any, seat: int) -> bool:
    """Whether ``seat`` could tell ``outcome`` from its observation after it (module docstring)."""
    outcomes = game.chance_outcomes(state)
    if len(outcomes) > MAX_ALTERNATIVES:
        return False
    seen = game.observation(game.apply(state, outcome), seat)
    text = game.describe_move(outcome)
    return all(game.describe_move(other) == text for other, _ in outcomes
               if other != outcome and game.observation(game.apply(state, other), seat) == seen)


def _move_seen(game: GeneralGame[Any, Any], state: Any, moves: Mapping[int, Any], mover: int, seat: int) -> bool:
    """Whether ``seat`` could tell ``mover``'s move (one of ``moves``: a seat's move, or a joint
    move) from its observation after the step, the other seats' moves kept."""
    legal = game.legal_moves(state, mover)
    if len(legal) > MAX_ALTERNATIVES:
        return False

    def after(move: Any) -> dict[str, Any]:
        if len(moves) == 1 and game.actor(state) == mover:
            return game.observation(game.apply(state, move), seat)
        return game.observation(game.apply_joint(state, {**moves, mover: move}), seat)

    seen = after(moves[mover])
    text = game.describe_move(moves[mover])
    return all(game.describe_move(other) == text for other in legal
               if other != moves[mover] and after(other) == seen)


# -- plain text (piped output) ---------------------------------------------------------------------


def seat_plain_text(replay: SeatReplay) -> str:
    """The piped form: the game, the view, the seats with returns and ranks, how it ended and the
    eliminations, then every step with the position after it. No trailing spaces."""
    out = [replay.title(), replay.view_text(), f"seed: {replay.record.get('seed')}", "", "seats:"]
    rows = replay.seat_rows()
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    out += [f"  {r[0].ljust(widths[0])}  {r[1].ljust(widths[1])}  {r[2].ljust(widths[2])}  {r[3]}" for r in rows]
    out.append(f"result: {replay.result()} after {replay.last} steps")
    if replay.reason:
        out.append(f"reason: {replay.reason}")
    eliminations = replay.elimination_lines()
    out.append("eliminations: " + ("none" if not eliminations else eliminations[0]))
    out += [f"  {line}" for line in eliminations[1:]]
    out += ["", "start:"]
    out += _indented(replay.board(0))
    for i in range(replay.last):
        detail = replay.step_detail(i)
        out += ["", f"{i + 1}. {replay.step_text(i)}" + (f"   [{detail}]" if detail else "")]
        out += _indented(replay.board(i + 1))
    clocks = replay.clocks_at(replay.last)
    if clocks:
        out += ["", "clocks: " + "  ".join(f"{replay.game.seat_names[s]} {format_clock(ms)}"
                                           for s, ms in sorted(clocks.items()))]
    return "\n".join(out) + "\n"


def _indented(text: str) -> list[str]:
    return [f"  {line}".rstrip() for line in text.splitlines()]


__all__ = ["MAX_ALTERNATIVES", "SeatReplay", "SeatStep", "seat_plain_text"]
