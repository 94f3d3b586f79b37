"""One recorded game as a timeline, for every record any arena wrote: everything that replays,
exports or shows a game reads it from here (``arena replay`` in the terminal and as HTML, the
report, the live page). Pure data: no rich, no terminal.

A :class:`Replay` holds the game in the general model (:mod:`arena.games.model`: a two-player game
is its two seats, BLACK and WHITE), the seats' agent ids, the positions (``states[0]`` before the
first step, ``states[i]`` after ``steps[i - 1]``), the steps (a move, a chance draw, the moves of a
simultaneous step, an elimination) with their notation, thinking times and clocks, and the result
(termination, reason, returns, ranks). With ``seat``, it is the game as that seat saw it.

Every record is read one way, as steps from its ``game_states`` (:mod:`arena.records.normal`
names the formats), with the game its ``game_identity`` names. A record of two players taking turns
in plain sight (formats 1, 2 and 4, :mod:`arena.records.format`) has a move step per turn of its
``turns`` (what the Shobu engine's records and format 2 hold, and format 4's carry the notation):
formats 2 and 4 hold the random opening as the first turns, marked ``"opening": true``, and each
turn's ``notation``, ``charged_ms`` and ``clock_left_ms``; format 1 has none of these. The record's
own values are preferred when present; otherwise the notation is the game's ``describe_move``, the
charged time comes from ``move_times_ms`` and the clocks are worked out from ``time_control`` the
way the match charges them (``left = max(0, left - charged) + increment``), the record's final
``clocks_left_ms`` being shown at the end. A record whose first state comes after a random opening
it does not hold (format 1) says how many plies are missing before it. Their steps are numbered by
full moves (``12.`` BLACK's, ``12...`` WHITE's) and their result is said by colour.

Records of N seats (formats 3 and 4, :mod:`arena.records.seats`): what a seat is told of each step is its
own moves; a chance outcome, or another seat's move (alone or at a simultaneous step), only when
the seat could tell it from its observation right after the step. That is decided from the rules,
for any game: the step is redone with each alternative (every other chance outcome; every other
legal move of that seat, the rest of a joint move kept) and the outcome or move is shown when every
alternative that leaves the seat the same observation reads the same (``describe_move``); otherwise
it shows as ``chance`` or ``?`` (:mod:`arena.records.visibility`). Eliminations are shown to every
seat. A seat's view shows its own clock and thinking times only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from arena.games.base import Color, GameError
from arena.games.model import GeneralGame
from arena.records.normal import clocks_left, game_identity, game_states, two_colour
from arena.records.normal import ranks as ranks_of
from arena.records.normal import returns as returns_of
from arena.records.sources import ReplayError, player_names
from arena.records.visibility import chance_seen, move_seen

#: Autoplay's default pause between two steps, in seconds (``arena replay --autoplay``).
DEFAULT_DELAY_S = 0.5
#: The turn key holding the mover's clock after the move (ms), in complete records.
TURN_CLOCK_KEY = "clock_left_ms"
_COLOURS = ("BLACK", "WHITE")
#: States a ``known`` table of :meth:`Replay.from_record` holds before it forgets them all.
KNOWN_STATES = 50_000


@dataclass(frozen=True)
class Step:
    """One step of the record as the viewer is told it.

    ``kind``: move, chance, joint or elimination. ``actors``: the seats that moved (or the one
    eliminated). ``moves``: seat -> notation of its move, None where the viewer cannot see it.
    ``move``: the move or chance outcome played (None at a joint step or an elimination), which a
    board marks. ``label``: the step's number as written (``12.``, ``12...`` in a game of two
    colours, ``3.`` otherwise), ``number`` its number. ``outcome``: a chance step's outcome in
    notation (None: hidden from the viewer), with its ``probability`` (``"1/4"``).
    ``charged_ms``: thinking time per seat (the viewer's own only, in a seat's view; None: not
    recorded, or an opening ply). ``clocks_ms``: the clocks the step changed (seat -> ms)."""

    kind: str
    actors: tuple[int, ...]
    moves: dict[int, str | None]
    number: int
    label: str
    move: Any = None
    opening: bool = False
    outcome: str | None = None
    probability: str | None = None
    termination: str = ""
    reason: str = ""
    charged_ms: dict[int, float] | None = None
    clocks_ms: dict[int, float] | None = None

    @property
    def seat(self) -> int | None:
        """The one seat that acted (a move, an elimination); None at a chance or joint step."""
        return self.actors[0] if len(self.actors) == 1 else None

    @property
    def notation(self) -> str:
        """The step in notation as the viewer is told it (``?``, ``chance``: hidden)."""
        if self.kind == "chance":
            return "chance" if self.outcome is None else self.outcome
        if self.kind == "move":
            return _shown(self.moves[self.actors[0]])
        if self.kind == "joint":
            return ", ".join(_shown(self.moves[s]) for s in self.actors)
        return self.termination


@dataclass
class Replay:
    """A recorded game as positions and steps, omniscient (``seat`` None) or as ``seat`` saw it;
    ``len(states) == len(steps) + 1``. ``paired``: two colours taking turns in plain sight (record
    formats 1, 2 and 4 of two colours): full-move numbers, results by colour, a random opening."""

    game: GeneralGame[Any, Any]
    record: dict[str, Any]
    states: list[Any]
    steps: list[Step]
    seat_ids: tuple[str, ...]
    seat: int | None = None
    label: str = ""
    paired: bool = False
    start_clocks_ms: dict[int, float] | None = None
    end_clocks_ms: dict[int, float] | None = field(default=None)
    #: Random opening plies played before ``states[0]`` that the record does not hold (format 1).
    missing_opening: int = 0

    @classmethod
    def from_record(cls, record: Mapping[str, Any], label: str = "record", *, seat: int | None = None,
                    known: dict[tuple[str, bytes], Any] | None = None,
                    game: GeneralGame[Any, Any] | None = None) -> Replay:
        """The replay of ``record`` of any format (see the module docstring), as ``seat`` saw it
        (None: everything). ``known``: states already read, by (game, canonical JSON), shared by
        the replays of one run (``arena report``: games share their openings). ``game``: the rules
        to use instead of those the registry gives for the record's ``game_identity`` (tests). Raises ReplayError naming
        ``label``: an unknown game, a seat the game does not have, a state or step the rules cannot
        read, moves that do not join the states."""
        colours = "seats" not in record or two_colour(record)
        if colours:
            if seat is not None:
                raise ReplayError(f"{label}: --seat is for games of N seats; this {record.get('game', '?')} "
                                  "game of two players hides nothing (replay it without --seat)")
            entries, key = _turn_steps(record, label), "turns"
        else:
            from arena.records.seats import seat_record_problem

            problem = seat_record_problem(dict(record))
            if problem is not None:
                raise ReplayError(f"{label}: not an N-seat record: {problem}")
            entries, key = list(record["steps"]), "steps"
        if game is None:
            game = _game_of(record, label)
        if seat is not None and not 0 <= seat < game.players:
            raise ReplayError(f"{label}: --seat {seat}: this game has seats 0 to {game.players - 1}")
        moves = [_move(game, key, i, entry, label) for i, entry in enumerate(entries)]
        raw_states = game_states(record)
        # Games of two colours share their openings; a game of seats deals its own cards at its
        # first step, so its states would cost the table more to key than it saves.
        states = _states(game, raw_states, moves, label, known if colours else None)
        try:
            movers = [_mover(game, entry, states[i], raw_states[i] if i < len(raw_states) else None)
                      for i, entry in enumerate(entries)]
        except (KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"{label}: {key}: a step's seat cannot be read: {exc}") from None
        opening = [entry.get("opening") is True for entry in entries]
        charged = _charged(record, entries, opening)
        start_clocks, clocks = _clocks(game, record, entries, movers, charged)
        ply0 = game.ply(states[0])
        steps = []
        for i, (entry, move) in enumerate(zip(entries, moves, strict=True)):
            number = (ply0 + i) // 2 + 1 if colours else i + 1
            try:
                steps.append(_step(game, states[i], entry, move, movers[i], number, colours, seat, charged[i],
                                   clocks[i]))
            except (GameError, KeyError, TypeError, ValueError) as exc:
                raise ReplayError(f"{label}: {key}[{i}] ({entry.get('kind')}) cannot be read: {exc}") from None
        missing = 0
        if not any(opening) and _count(record.get("opening_plies")) and not _is_start(game, states[0]):
            missing = _count(record.get("opening_plies"))
        end = clocks_left(record)
        return cls(game, dict(record), states, steps, _seat_ids(record, colours), seat, label,
                   paired=colours, start_clocks_ms=start_clocks, missing_opening=missing,
                   end_clocks_ms=None if end is None or len(end) != game.players else dict(enumerate(end)))

    # -- the game and its seats ------------------------------------------------------------------

    @property
    def marks_last_move(self) -> bool:
        """Whether a board of this game marks the last move: a game of two colours in plain sight
        (``colour_dialect``), whose terminal view and SVG function draw ``(state, last_move)``;
        any other game's picture is what the viewer sees of the state."""
        return self.game.colour_dialect

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def last(self) -> int:
        """The last position's number (``len(steps)``)."""
        return len(self.steps)

    def seat_label(self, seat: int) -> str:
        """``P1 (goofspiel_heuristic)``, ``P1 (you: goofspiel_heuristic)`` in that seat's view."""
        you = "you: " if seat == self.seat else ""
        return f"{self.game.seat_names[seat]} ({you}{self.seat_ids[seat]})"

    def identity_text(self) -> str:
        """``goofspiel (3 players, num_cards=4)``; a paired game's name alone."""
        if self.paired:
            return self.game.name
        params = ", ".join(f"{k}={v}" for k, v in sorted(self.game.params.items()))
        return f"{self.game.name} ({self.players} players{', ' + params if params else ''})"

    def title(self) -> str:
        """``checkers: alpha (BLACK) vs beta (WHITE)``, ``goofspiel (3 players, num_cards=4): a vs b
        vs c``, with the game index when there is one."""
        index = self.record.get("game_index")
        prefix = f"game {index}, " if _is_count(index) else ""
        if self.paired:
            who = " vs ".join(f"{self.seat_ids[s]} ({name})" for s, name in enumerate(self.game.seat_names))
        else:
            who = " vs ".join(self.seat_ids)
        return f"{prefix}{self.identity_text()}: {who}"

    def view_text(self) -> str:
        if self.seat is None:
            return "view: omniscient (every seat's hidden information shown)"
        return f"view: as seat {self.seat} saw it, {self.seat_label(self.seat)}"

    def note(self) -> str:
        """The line under the title: a paired game's opening note, else the view."""
        return self.opening_note() if self.paired else self.view_text()

    # -- positions ---------------------------------------------------------------------------------

    def position(self, i: int) -> tuple[Any, Any, Any]:
        """``(state, last_move, previous_state)`` at position ``i`` (0: no last move)."""
        if i <= 0:
            return self.states[0], None, None
        return self.states[i], self.steps[i - 1].move, self.states[i - 1]

    def board(self, i: int) -> str:
        """Position ``i`` as plain text: the game's ``board_text`` for the viewer."""
        return self.game.board_text(self.states[i], self.seat)

    def observation(self, i: int) -> dict[str, Any] | None:
        """The viewer's observation at position ``i`` (None in the omniscient view)."""
        return None if self.seat is None else self.game.observation(self.states[i], self.seat)

    def acting(self, i: int) -> tuple[int, ...]:
        """The seats asked to move at position ``i`` (none at chance or the end)."""
        return tuple(self.game.acting_seats(self.states[i])) if i < self.last else ()

    def clocks_at(self, i: int) -> dict[int, float] | None:
        """The clocks (ms) at position ``i`` (the viewer's own only, in a seat's view); the record's
        final clocks at the last position; None when the record has no clocks."""
        if self.start_clocks_ms is None:
            return None
        clocks = dict(self.start_clocks_ms)
        for step in self.steps[:i]:
            clocks.update(step.clocks_ms or {})
        if i >= self.last and self.end_clocks_ms is not None:
            clocks = dict(self.end_clocks_ms)
        return {s: ms for s, ms in clocks.items() if self.seat is None or s == self.seat}

    def starts_at_start(self) -> bool:
        """Whether ``states[0]`` is the game's initial position."""
        return _is_start(self.game, self.states[0])

    def first_text(self) -> str:
        """What position 0 is: ``start position``, ``first recorded position``, ``start``."""
        if not self.paired:
            return "start"
        return "start position" if self.starts_at_start() else "first recorded position"

    def opening_note(self) -> str:
        """What the record says about its random opening ('' when it has none)."""
        marked = sum(step.opening for step in self.steps)
        if marked:
            return f"the first {marked} plies are a random opening (marked *)"
        if self.missing_opening:
            return f"starts after {self.missing_opening} random opening plies that this record does not hold"
        return ""

    # -- the result --------------------------------------------------------------------------------

    @property
    def termination(self) -> str:
        return str(self.record.get("termination", "?"))

    @property
    def reason(self) -> str:
        return str(self.record.get("reason", ""))

    @property
    def winner(self) -> str:
        """A paired record's ``BLACK``, ``WHITE``, ``NONE`` or ``?``."""
        return str(self.record.get("winner", "?")).upper()

    def returns(self) -> list[float]:
        """One score per seat: the record's, or a paired record's +1/-1 (0/0: a draw or no winner)."""
        return returns_of(self.record)

    def ranks(self) -> list[int]:
        """Rank per seat (1 is best; ties share a rank)."""
        return ranks_of(self.record)

    def result(self) -> str:
        """``BLACK (alpha) wins [win]``, ``draw [max_moves]``, ``interrupted [interrupted]`` (paired);
        ``P1 (x) first [win]``, ``P0 (x), P2 (y) share first [win]`` (N seats)."""
        if self.paired:
            if self.winner in ("BLACK", "WHITE"):
                seat = 0 if self.winner == "BLACK" else 1
                head = f"{self.winner} ({self.seat_ids[seat]}) wins"
            elif self.termination == "interrupted":
                head = "interrupted"
            else:
                head = "draw" if self.winner == "NONE" else "result unknown"
            return f"{head} [{self.termination}]"
        first = [s for s, rank in enumerate(self.ranks()) if rank == 1]
        if len(first) == self.players:
            head = "all seats share first"
        else:
            who = ", ".join(self.seat_label(s) for s in first)
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
                rank += f", out at step {self._out_step(seat)}: {out[seat].get('termination', '?')}"
            rows.append((name, self.seat_ids[seat], f"return {_signed(self.returns()[seat])}", rank))
        return rows

    def elimination_lines(self) -> list[str]:
        return [f"{self.seat_label(s.actors[0])} at step {s.number}: {s.termination} ({s.reason})"
                for s in self.steps if s.kind == "elimination"]

    def _out_step(self, seat: int) -> str:
        return next((str(s.number) for s in self.steps if s.kind == "elimination" and s.actors[0] == seat), "?")

    # -- the step list -----------------------------------------------------------------------------

    def move_lines(self) -> list[tuple[str, list[int]]]:
        """The step list as ``(number label, [step indexes])`` lines: in a paired game one full
        move a line, BLACK's then WHITE's move (a line may hold one: a game starting with WHITE,
        the last move); otherwise one step a line."""
        lines: list[tuple[str, list[int]]] = []
        for i, step in enumerate(self.steps):
            if self.paired and lines and step.seat == 1 and len(lines[-1][1]) == 1 \
                    and self.steps[lines[-1][1][0]].seat == 0:
                lines[-1][1].append(i)
            else:
                lines.append((step.label, [i]))
        return lines

    def line_of(self, step_index: int) -> int:
        """The index in :meth:`move_lines` of the line holding step ``step_index``."""
        for number, (_, indexes) in enumerate(self.move_lines()):
            if step_index in indexes:
                return number
        return 0

    def move_text(self, i: int) -> str:
        """Step ``i`` as the step list shows it: a paired game's notation (``*`` after an opening
        ply), else :meth:`step_text`."""
        step = self.steps[i]
        return step.notation + ("*" if step.opening else "") if self.paired else self.step_text(i)

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
            return f"{self.seat_label(step.actors[0])}{' played' if self.paired else ':'} {step.notation}"
        return "simultaneous: " + ", ".join(f"{self.game.seat_names[s]}{' (you)' if s == self.seat else ''} "
                                            f"{_shown(step.moves[s])}" for s in step.actors)

    def step_detail(self, i: int) -> str:
        """What a status line adds to :meth:`step_text`: a random opening ply, thinking times, an
        elimination's reason."""
        step = self.steps[i]
        if step.opening:
            return "random opening ply"
        if step.kind == "elimination":
            return step.reason
        if step.charged_ms:
            if self.paired:
                return "thought " + format_ms(next(iter(step.charged_ms.values())))
            return "thought " + ", ".join(f"{self.game.seat_names[s]} {format_ms(ms)}"
                                          for s, ms in sorted(step.charged_ms.items()))
        return ""


# -- reading a record ---------------------------------------------------------------------------------


def _game_of(record: Mapping[str, Any], label: str) -> GeneralGame[Any, Any]:
    """The game the record names, from the registry (the Shobu engine's records name none)."""
    from arena.games.registry import JSON_PASS_THROUGH_GAME
    from arena.records.seats import game_of_identity

    identity = game_identity(record)
    if identity["name"] is None:
        identity["name"] = JSON_PASS_THROUGH_GAME
    try:
        game: GeneralGame[Any, Any] = game_of_identity(identity)
    except GameError as exc:
        raise ReplayError(f"{label}: {exc}") from None
    return game


def _turn_steps(record: Mapping[str, Any], label: str) -> list[dict[str, Any]]:
    """The steps of a record of two colours, one a turn (formats 1 and 2 hold no others; format 4's
    turns carry what its steps do, and the notation): a move whose seat is the side to move."""
    turns, states = record.get("turns"), record.get("game_states")
    if not isinstance(turns, list) or not isinstance(states, list) or not states:
        raise ReplayError(f"{label}: not a game record (needs \"turns\" and \"game_states\" lists)")
    return [{"kind": "move", "turn": turn, "notation": turn.get("notation"), "opening": turn.get("opening"),
             "charged_ms": turn.get("charged_ms"), TURN_CLOCK_KEY: turn.get(TURN_CLOCK_KEY)}
            if isinstance(turn, Mapping) else {"kind": "move", "turn": turn} for turn in turns]


def _move(game: GeneralGame[Any, Any], key: str, i: int, entry: Mapping[str, Any], label: str) -> Any:
    """The move (a chance outcome; ``{seat: move}`` of a joint step; None for an elimination) of
    step ``entry``, ``key[i]`` of the record."""
    from arena.records.format import turn_move

    where = f"{key}[{i}] is not a {game.name} move" if "turn" in entry else \
        f"{key}[{i}] ({entry.get('kind')}) cannot be read"
    try:
        if "turn" in entry:
            return turn_move(game, entry["turn"])
        if entry["kind"] in ("chance", "move"):
            return game.move_from_record(entry["outcome" if entry["kind"] == "chance" else "move"])
        if entry["kind"] == "joint":
            return {int(s): game.move_from_record(m) for s, m in entry["moves"].items()}
        return None
    except GameError as exc:
        raise ReplayError(f"{label}: {where}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a game's reader choking on a foreign shape
        raise ReplayError(f"{label}: {where}: {type(exc).__name__}: {exc}") from None


def _step(game: GeneralGame[Any, Any], state: Any, raw: Mapping[str, Any], move: Any, mover: int | None,
          number: int, colours: bool, seat: int | None, charged: dict[int, float] | float | None,
          clock: dict[int, float] | float | None) -> Step:
    """A record's step as ``seat`` is told it (see the module docstring); ``charged`` and ``clock``
    as :func:`_charged` and :func:`_clocks` found them."""
    kind = raw["kind"]
    if kind == "chance":
        shown = seat is None or chance_seen(game, state, move, seat)
        return Step(kind, (), {}, number, f"{number}.", move, outcome=game.describe_move(move) if shown else None,
                    probability=str(raw.get("probability")) if shown and raw.get("probability") is not None else None)
    if kind == "elimination":
        return Step(kind, (int(raw["seat"]),), {}, number, f"{number}.", termination=str(raw.get("termination", "?")),
                    reason=str(raw.get("reason", "")))
    if kind == "move" and mover is not None:
        seen = seat is None or seat == mover or move_seen(game, state, {mover: move}, mover, seat)
        notation = raw.get("notation")
        if not isinstance(notation, str) or not notation.strip():
            notation = game.describe_move(move)
        label = f"{number}." if mover == 0 or not colours else f"{number}..."
        return Step(kind, (mover,), {mover: notation if seen else None}, number, label, move if seen else None,
                    raw.get("opening") is True,
                    charged_ms=_own(charged, seat, {mover: charged} if isinstance(charged, float) else None),
                    clocks_ms=_own(clock, seat, {mover: clock} if isinstance(clock, float) else None))
    if kind != "joint":
        raise ValueError(f"unknown step kind {kind!r}")
    moves: dict[int, str | None] = {}
    for s in sorted(move):
        seen = seat is None or seat == s or move_seen(game, state, move, s, seat)
        moves[s] = game.describe_move(move[s]) if seen else None
    return Step(kind, tuple(sorted(move)), moves, number, f"{number}.",
                charged_ms=_own(charged, seat, None), clocks_ms=_own(clock, seat, None))


def _mover(game: GeneralGame[Any, Any], entry: Mapping[str, Any], state: Any, raw: Any) -> int | None:
    """The seat that made move step ``entry`` from ``state`` (``raw``: its JSON when the record
    holds it), None for any other step: the step's own ``seat``, else (a turn) the side to move of
    the colour dialect's state (``turn``), else the rules' (a record cut short)."""
    if entry.get("kind") != "move":
        return None
    if "seat" in entry:
        return int(entry["seat"])
    turn = raw.get("turn") if isinstance(raw, Mapping) else None
    if turn in _COLOURS:
        return _COLOURS.index(turn)
    if game.actor(state) < 0:
        raise ValueError("a move where no seat acts")
    return game.actor(state)


def _per_seat(value: Any) -> dict[int, float] | float | None:
    """A joint step's ``{"<seat>": ms}`` as ``{seat: ms}``, a move step's number as it is."""
    if isinstance(value, Mapping):
        return {int(k): float(v) for k, v in value.items() if _number(v) is not None}
    return _number(value)


def _own(value: dict[int, float] | float | None, seat: int | None,
         single: dict[int, float] | None) -> dict[int, float] | None:
    by_seat = single if single is not None else value if isinstance(value, dict) else None
    if by_seat is None:
        return None
    return {s: ms for s, ms in by_seat.items() if seat is None or s == seat}


def _seat_ids(record: Mapping[str, Any], colours: bool) -> tuple[str, ...]:
    """The agent of every seat: a record of two colours names them in ``players`` (by colour),
    as the Shobu engine's records do; any other in ``seats``."""
    if colours:
        names = player_names(record)
        return tuple(names[c] for c in Color)
    return tuple(str(s.get("id", "?")) for s in record["seats"])


def _states(game: GeneralGame[Any, Any], raw: list[Any], moves: list[Any], label: str,
            known: dict[tuple[str, bytes], Any] | None = None) -> list[Any]:
    """The record's states, read by the rules (``known``: those already read); a record of two
    colours cut short (the Shobu engine's partial output) has the missing ones played from the first."""
    name = json.dumps(game.identity(), sort_keys=True)

    def decode(i: int) -> Any:
        key = None
        if known is not None:
            try:
                key = (name, orjson.dumps(raw[i], option=orjson.OPT_SORT_KEYS))
            except TypeError:  # a value orjson cannot write (an integer past 64 bits): read every time
                key = None
            found = None if key is None else known.get(key)
            if found is not None:
                return found
        try:
            state = game.state_from_json(raw[i])
        except GameError as exc:
            raise ReplayError(f"{label}: game_states[{i}] is not a {game.name} state: {exc}") from None
        if key is not None and known is not None:
            if len(known) >= KNOWN_STATES:
                known.clear()
            known[key] = state
        return state

    if len(raw) == len(moves) + 1:
        return [decode(i) for i in range(len(raw))]
    states = [decode(0)]
    for i, move in enumerate(moves):
        try:
            states.append(game.apply(states[-1], game.validate_move(states[-1], game.actor(states[-1]), move)))
        except GameError as exc:
            raise ReplayError(f"{label}: turns[{i}] does not follow game_states: {exc}") from None
    return states


def _charged(record: Mapping[str, Any], entries: Sequence[Mapping[str, Any]],
             opening: list[bool]) -> list[dict[int, float] | float | None]:
    """Each step's charged thinking time: its own (``{seat: ms}`` at a joint step), else a record
    of format 1's ``move_times_ms`` entry (one a step, or one a step after the opening)."""
    charged = [_per_seat(entry.get("charged_ms")) for entry in entries]
    times = record.get("move_times_ms")
    if isinstance(times, list) and any(c is None for c in charged):
        played = [i for i, is_opening in enumerate(opening) if not is_opening]
        targets = list(range(len(entries))) if len(times) == len(entries) else played if len(times) == len(played) else []
        for i, value in zip(targets, times, strict=False):
            if charged[i] is None and not opening[i] and entries[i].get("kind") == "move":
                charged[i] = _number(value)
    return charged


def _clocks(game: GeneralGame[Any, Any], record: Mapping[str, Any], entries: Sequence[Mapping[str, Any]],
            movers: list[int | None], charged: list[dict[int, float] | float | None],
            ) -> tuple[dict[int, float] | None, list[dict[int, float] | float | None]]:
    """Every clock at the start, and the clocks each step changed: a step's own when recorded,
    else, after a move, the match's rule (``left = max(0, left - charged) + increment``)."""
    tc = record.get("time_control")
    limit = _number(tc.get("timeLimit")) if isinstance(tc, Mapping) else None
    increment = (_number(tc.get("increment")) or 0.0) if isinstance(tc, Mapping) else 0.0
    own = [_per_seat(entry.get(TURN_CLOCK_KEY)) for entry in entries]
    if limit is None and all(value is None for value in own):
        return None, [None] * len(entries)
    start = dict.fromkeys(range(game.players), limit if limit is not None else 0.0)
    left = dict(start)
    after: list[dict[int, float] | float | None] = []
    for clock, mover, spent in zip(own, movers, charged, strict=True):
        if mover is not None:
            if isinstance(clock, float):
                left[mover] = clock
            elif isinstance(spent, float):
                left[mover] = max(0.0, left[mover] - spent) + increment
            clock = left[mover]
        after.append(clock)
    return start, after


# -- small helpers ------------------------------------------------------------------------------------


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_start(game: GeneralGame[Any, Any], state: Any) -> bool:
    return bool(game.state_to_json(state) == game.state_to_json(game.initial_state()))


def _shown(notation: str | None) -> str:
    return "?" if notation is None else notation


def _signed(value: float) -> str:
    return f"{value:+.4g}" if value else "0"


def format_clock(ms: float) -> str:
    """``m:ss.s`` (``h:mm:ss`` from an hour on), rounded down, never negative."""
    tenths = int(max(ms, 0.0) // 100)
    if tenths >= 36_000:
        whole = tenths // 10
        return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
    return f"{tenths // 600}:{tenths % 600 // 10:02d}.{tenths % 10}"


def format_ms(ms: float) -> str:
    """A charged time for people: ``0.04 ms``, ``12 ms``, ``1.25 s``."""
    if ms < 10:
        return f"{ms:.2f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    return f"{ms / 1000:.2f} s"


__all__ = ["DEFAULT_DELAY_S", "Replay", "ReplayError", "Step", "format_clock", "format_ms"]
