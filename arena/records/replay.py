"""Replaying recorded games: finding a game in a record file or a tournament's log folder, and the
positions and moves of that game (the key-driven cursor is :mod:`arena.ui.replay_keys`).

No rich and no terminal here (``arena replay`` in :mod:`arena.cli.replay_cmd` draws and reads keys):
everything is pure data, so it is tested without a terminal.

Sources (:func:`open_source`) are what :mod:`arena.records.reader` reads: a record file (one record,
an array, JSON lines), a log folder (``games.jsonl`` and ``games/NNNNN.json``) or a folder of record
files.

A game is picked by its index (:attr:`GameEntry.index`): the record's ``game_index`` and the number
in ``games/NNNNN.json``, counted from 0 as the records count.

Records (:meth:`Replay.from_record`) of both formats load alike (:mod:`arena.records.format`: format 2
holds the random opening as the first turns, marked ``"opening": true``, and each turn's
``notation``, ``charged_ms`` and ``clock_left_ms``; format 1 has none of these). The record's own
values are preferred when present; otherwise the notation is the game's ``describe_move``, the
charged time comes from ``move_times_ms`` and the clocks are worked out from ``time_control`` the
way the match charges them (``left = max(0, left - charged) + increment``), the record's final
``clocks_left_ms`` being shown at the end. A record whose first state comes after a random opening
it does not hold (format 1) says how many plies are missing before it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from arena.games.base import ArenaError, Color, Game, GameError
from arena.records.reader import list_games, read_game_file, result_text
from arena.records.types import Record

#: Autoplay's default pause between two moves, in seconds (``arena replay --autoplay``).
DEFAULT_DELAY_S = 0.5
#: The turn key holding the mover's clock after the move (ms), in complete records.
TURN_CLOCK_KEY = "clock_left_ms"


class ReplayError(ArenaError):
    """A game that cannot be replayed: no such game in the source, an unknown game, moves that do not
    follow. One line; exit 2. (A source that cannot be read is a RecordInputError.)"""


# -- sources ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    """One game of a source, as listed without loading its whole record when possible."""

    index: int
    black: str
    white: str
    winner: str  # BLACK, WHITE, NONE or "?" when not known
    termination: str
    plies: int | None
    record: Record | None = None  # already loaded (record files)
    path: Path | None = None  # where the record is (log folders)
    #: A game of N seats (``record_format`` 3): the seats' ids and ranks; None for two players.
    seats: tuple[str, ...] | None = None
    ranks: tuple[int, ...] | None = None

    def result_text(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unknown or interrupted)."""
        return result_text(self.winner, self.termination)


@dataclass(frozen=True)
class Source:
    """A record file or a log folder: ``label`` (the path as given) and its games, by index."""

    label: str
    entries: tuple[GameEntry, ...]
    is_folder: bool
    #: A log folder's path: its record files are read below it without following links.
    root: Path | None = None

    def pick(self, index: int | None) -> GameEntry | None:
        """The game ``index``; with ``None``, the only game (``None`` when there are several: the
        caller lists them). Raises ReplayError for an index the source does not hold."""
        if index is None:
            return self.entries[0] if len(self.entries) == 1 else None
        for entry in self.entries:
            if entry.index == index:
                return entry
        raise ReplayError(f"{self.label}: no game {index} here; it holds {_index_ranges(self.entries)}")

    def load(self, entry: GameEntry) -> Record:
        """The full record of ``entry``; RecordInputError when its file is missing or not a record."""
        if entry.record is not None:
            return entry.record
        assert entry.path is not None and self.root is not None
        return read_game_file(entry.path, root=self.root)

    def listing(self) -> list[str]:
        """One line per game: index, players, result, termination, plies (no trailing spaces).
        Games of N seats: index, seats, ranks, termination, steps."""
        rows: list[tuple[str, ...]]
        if any(e.seats is not None for e in self.entries):
            rows = [(str(e.index), ", ".join(e.seats or ("?",)), " ".join(map(str, e.ranks or ())) or "?",
                     e.termination, "" if e.plies is None else f"{e.plies} steps") for e in self.entries]
            header: tuple[str, ...] = ("GAME", "SEATS", "RANKS", "TERMINATION", "STEPS")
        else:
            rows = [(str(e.index), e.black, e.white, e.result_text(), e.termination,
                     "" if e.plies is None else f"{e.plies} plies") for e in self.entries]
            header = ("GAME", "BLACK", "WHITE", "RESULT", "TERMINATION", "PLIES")
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
                for row in [header, *rows]]


def open_source(path: str | Path) -> Source:
    """The games in ``path`` (:func:`arena.records.reader.list_games`). Raises RecordInputError: a
    missing path, a file that holds no record, a folder without games."""
    games = list_games(path)
    folder = next((g.log_folder for g in games if g.log_folder is not None), None)
    entries = tuple(_entry(g.summary, g.index, record=g.record, path=g.path) for g in games)
    return Source(str(path), entries, is_folder=Path(path).is_dir() or folder is not None, root=folder)


def _entry(row: Mapping[str, Any], index: int, *, record: Record | None = None,
           path: Path | None = None) -> GameEntry:
    names = player_names(row)
    plies = row.get("plies")
    seats = ranks = None
    if isinstance(row.get("seats"), list) and (row.get("record_format") == 3 or "ranks" in row):
        # A record lists its seats as objects, a tournament's games.jsonl line as agent ids.
        seats = tuple(str(s.get("id", "?")) if isinstance(s, Mapping) else str(s) for s in row["seats"])
        found = row.get("ranks")
        ranks = tuple(r for r in found if isinstance(r, int)) if isinstance(found, list) else None
        steps = row.get("steps")
        plies = len(steps) if isinstance(steps, list) else plies
    return GameEntry(
        index=index,
        black=str(row.get("black") or names[Color.BLACK]),
        white=str(row.get("white") or names[Color.WHITE]),
        winner=str(row.get("winner", "?")).upper(),
        termination=str(row.get("termination", "?")),
        plies=plies if isinstance(plies, int) and not isinstance(plies, bool) else None,
        record=record,
        path=path,
        seats=seats,
        ranks=ranks,
    )


def player_names(record: Mapping[str, Any]) -> dict[Color, str]:
    """``{colour: player id}`` from a record's ``players`` (``"?"`` for a missing one)."""
    names = {Color.BLACK: "?", Color.WHITE: "?"}
    players = record.get("players")
    if isinstance(players, list):
        for player in players:
            if isinstance(player, Mapping):
                colour = str(player.get("colour", player.get("color", ""))).upper()
                if colour in names:
                    names[Color(colour)] = str(player.get("id", "?"))
    return names


def _is_index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _index_ranges(entries: tuple[GameEntry, ...]) -> str:
    """``game 0``, ``games 0-9`` or ``games 0-3, 5, 7-9`` (indexes are sorted)."""
    indexes = sorted(e.index for e in entries)
    parts: list[str] = []
    start = prev = indexes[0]
    for index in [*indexes[1:], None]:
        if index is not None and index == prev + 1:
            prev = index
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if index is not None:
            start = prev = index
    return ("game " if len(indexes) == 1 else "games ") + ", ".join(parts)


# -- one game --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move of the game: ``number`` is the move number as written (``12.`` for BLACK, ``12...``
    for WHITE), ``charged_ms`` the mover's charged thinking time (None: not recorded, or an
    opening ply), ``clocks_ms`` both clocks after the move (None: the record has no time control)."""

    color: Color
    move: Any
    notation: str
    number: int
    opening: bool
    charged_ms: float | None
    clocks_ms: dict[Color, float] | None

    @property
    def label(self) -> str:
        return f"{self.number}." if self.color is Color.BLACK else f"{self.number}..."


@dataclass
class Replay:
    """A recorded game as positions: ``states[0]`` the first recorded position, ``states[i]`` the
    position after ``steps[i - 1]``; ``len(states) == len(steps) + 1``."""

    game: Game[Any, Any]
    record: dict[str, Any]
    states: list[Any]
    steps: list[Step]
    players: dict[Color, str]
    start_clocks_ms: dict[Color, float] | None
    #: Random opening plies played before ``states[0]`` that the record does not hold (old format).
    missing_opening: int = 0
    label: str = ""
    end_clocks_ms: dict[Color, float] | None = field(default=None)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], label: str = "record",
                    known: dict[tuple[str, bytes], Any] | None = None) -> Replay:
        """The replay of ``record`` (see the module docstring). Raises ReplayError naming ``label``:
        an unknown game, a state or turn the game cannot read, moves that do not join the states.
        ``known``: states already read, by (game, canonical JSON), shared by the replays of one
        run (``arena report``: games share their openings, and reading a state checks it)."""
        from arena.games.registry import JSON_PASS_THROUGH_GAME, get_game

        if record.get("record_format") == 3:  # arena.records.seat_replay replays these
            raise ReplayError(f"{label}: a game of {_seat_count(record)} seats ({record.get('game', '?')}): "
                              "replay it with 'arena replay' (--html FILE for its page)")
        # The Shobu engine's records (of which arena's are a superset) carry no game name.
        name = record.get("game", JSON_PASS_THROUGH_GAME)
        try:
            game = get_game(str(name))
        except GameError as exc:
            raise ReplayError(f"{label}: {exc}") from None
        turns, raw_states = record.get("turns"), record.get("game_states")
        if not isinstance(turns, list) or not isinstance(raw_states, list) or not raw_states:
            raise ReplayError(f"{label}: not a game record (needs \"turns\" and \"game_states\" lists)")
        moves = [_move(game, turn, i, label) for i, turn in enumerate(turns)]
        states = _states(game, raw_states, moves, label, known)
        opening = _opening_flags(turns)
        missing = 0
        if not any(opening) and _count(record.get("opening_plies")) and not _is_start(game, states[0]):
            missing = _count(record.get("opening_plies"))
        charged = _charged(record, turns, opening)
        start_clocks, clocks = _clocks(game, record, turns, states, charged)
        ply0 = game.ply(states[0])
        steps = []
        for i, (turn, move) in enumerate(zip(turns, moves, strict=True)):
            notation = turn.get("notation") if isinstance(turn, Mapping) else None
            if not isinstance(notation, str) or not notation.strip():
                notation = game.describe_move(move)
            steps.append(Step(game.to_move(states[i]), move, notation, (ply0 + i) // 2 + 1, opening[i],
                              charged[i], clocks[i] if clocks else None))
        end_clocks = _clock_pair(record.get("clocks_left_ms"))
        return cls(game, dict(record), states, steps, player_names(record), start_clocks, missing, label,
                   end_clocks)

    # -- what the views show ---------------------------------------------------------------------

    @property
    def last(self) -> int:
        """The last position's number (``len(steps)``)."""
        return len(self.steps)

    def position(self, i: int) -> tuple[Any, Any, Any]:
        """``(state, last_move, previous_state)`` at position ``i`` (0: no last move)."""
        if i <= 0:
            return self.states[0], None, None
        return self.states[i], self.steps[i - 1].move, self.states[i - 1]

    def clocks_at(self, i: int) -> dict[Color, float] | None:
        """Both clocks (ms) at position ``i``; the record's final clocks at the last position."""
        if i >= self.last and self.end_clocks_ms is not None:
            return self.end_clocks_ms
        if i <= 0:
            return self.start_clocks_ms
        return self.steps[i - 1].clocks_ms

    @property
    def termination(self) -> str:
        return str(self.record.get("termination", "?"))

    @property
    def reason(self) -> str:
        return str(self.record.get("reason", ""))

    def result(self) -> str:
        """``BLACK (alpha) wins [win]``, ``draw [max_moves]``, ``interrupted [interrupted]``."""
        winner = str(self.record.get("winner", "?")).upper()
        if winner in ("BLACK", "WHITE"):
            head = f"{winner} ({self.players[Color(winner)]}) wins"
        elif self.termination == "interrupted":
            head = "interrupted"
        else:
            head = "draw" if winner == "NONE" else "result unknown"
        return f"{head} [{self.termination}]"

    def title(self) -> str:
        """``checkers: alpha (BLACK) vs beta (WHITE)``, with the game index when there is one."""
        index = self.record.get("game_index")
        prefix = f"game {index}, " if _is_index(index) else ""
        black, white = self.players[Color.BLACK], self.players[Color.WHITE]
        return f"{prefix}{self.game.name}: {black} (BLACK) vs {white} (WHITE)"

    def starts_at_start(self) -> bool:
        """Whether ``states[0]`` is the game's initial position."""
        return _is_start(self.game, self.states[0])

    def opening_note(self) -> str:
        """What the record says about its random opening ('' when it has none)."""
        marked = sum(step.opening for step in self.steps)
        if marked:
            return f"the first {marked} plies are a random opening (marked *)"
        if self.missing_opening:
            return f"starts after {self.missing_opening} random opening plies that this record does not hold"
        return ""

    def move_lines(self) -> list[tuple[str, list[int]]]:
        """The move list as ``(number label, [step indexes])`` lines: one full move a line, BLACK's
        then WHITE's move (a line may hold one move: a game starting with WHITE, the last move)."""
        lines: list[tuple[str, list[int]]] = []
        for i, step in enumerate(self.steps):
            if lines and step.color is Color.WHITE and len(lines[-1][1]) == 1 \
                    and self.steps[lines[-1][1][0]].color is Color.BLACK:
                lines[-1][1].append(i)
            else:
                lines.append((f"{step.number}." if step.color is Color.BLACK else f"{step.number}...", [i]))
        return lines

    def line_of(self, step_index: int) -> int:
        """The index in :meth:`move_lines` of the line holding step ``step_index``."""
        for number, (_, indexes) in enumerate(self.move_lines()):
            if step_index in indexes:
                return number
        return 0

    def move_text(self, i: int) -> str:
        """A step's notation as the move list shows it (``*`` after an opening ply)."""
        step = self.steps[i]
        return step.notation + ("*" if step.opening else "")


def _seat_count(record: Mapping[str, Any]) -> str:
    seats = record.get("seats")
    return str(len(seats)) if isinstance(seats, list) else "N"


def _move(game: Game[Any, Any], turn: Any, i: int, label: str) -> Any:
    from arena.records.format import turn_move

    try:
        return turn_move(game, turn)
    except GameError as exc:
        raise ReplayError(f"{label}: turns[{i}] is not a {game.name} move: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a game's reader choking on a foreign shape
        raise ReplayError(f"{label}: turns[{i}] is not a {game.name} move: {type(exc).__name__}: {exc}") from None


#: States a ``known`` table of :meth:`Replay.from_record` holds before it forgets them all.
KNOWN_STATES = 50_000


def _states(game: Game[Any, Any], raw: list[Any], moves: list[Any], label: str,
            known: dict[tuple[str, bytes], Any] | None = None) -> list[Any]:
    def decode(i: int) -> Any:
        key = None
        if known is not None:
            try:
                key = (game.name, orjson.dumps(raw[i], option=orjson.OPT_SORT_KEYS))
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
    # States missing (a cut record, the Shobu engine's partial output): play the moves from the first.
    states = [decode(0)]
    for i, move in enumerate(moves):
        try:
            states.append(game.apply(states[-1], game.validate_move(states[-1], move)))
        except GameError as exc:
            raise ReplayError(f"{label}: turns[{i}] does not follow game_states: {exc}") from None
    return states


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _is_start(game: Game[Any, Any], state: Any) -> bool:
    return bool(game.state_to_json(state) == game.state_to_json(game.initial_state()))


def _opening_flags(turns: list[Any]) -> list[bool]:
    """The random opening plies: turns marked ``"opening": true`` (complete records)."""
    return [isinstance(t, Mapping) and t.get("opening") is True for t in turns]


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def _charged(record: Mapping[str, Any], turns: list[Any], opening: list[bool]) -> list[float | None]:
    charged: list[float | None] = [_number(t.get("charged_ms")) if isinstance(t, Mapping) else None
                                   for t in turns]
    times = record.get("move_times_ms")
    if isinstance(times, list) and any(c is None for c in charged):
        played = [i for i, is_opening in enumerate(opening) if not is_opening]
        # move_times_ms has an entry per turn, or per turn after the opening.
        targets = list(range(len(turns))) if len(times) == len(turns) else played if len(times) == len(played) else []
        for i, value in zip(targets, times, strict=False):
            if charged[i] is None and not opening[i]:
                charged[i] = _number(value)
    return charged


def _clock_pair(value: Any) -> dict[Color, float] | None:
    if not isinstance(value, Mapping):
        return None
    pair: dict[Color, float] = {}
    for colour in Color:
        ms = _number(value.get(colour.value))
        if ms is None:
            return None
        pair[colour] = ms
    return pair


def _clocks(game: Game[Any, Any], record: Mapping[str, Any], turns: list[Any], states: list[Any],
            charged: list[float | None]) -> tuple[dict[Color, float] | None, list[dict[Color, float]]]:
    """Both clocks at the start and after each move: the turn's own clock when recorded, else the
    match's rule (``left = max(0, left - charged) + increment``)."""
    tc = record.get("time_control")
    limit = _number(tc.get("timeLimit")) if isinstance(tc, Mapping) else None
    increment = (_number(tc.get("increment")) or 0.0) if isinstance(tc, Mapping) else 0.0
    has_turn_clocks = any(isinstance(t, Mapping) and _turn_clock(t) is not None for t in turns)
    if limit is None and not has_turn_clocks:
        return None, []
    start = {c: limit if limit is not None else 0.0 for c in Color}
    left = dict(start)
    after: list[dict[Color, float]] = []
    for i, turn in enumerate(turns):
        mover = game.to_move(states[i])
        own = _turn_clock(turn) if isinstance(turn, Mapping) else None
        if own is not None:
            left[mover] = own
        elif charged[i] is not None:
            left[mover] = max(0.0, left[mover] - (charged[i] or 0.0)) + increment
        after.append(dict(left))
    return start, after


def _turn_clock(turn: Mapping[str, Any]) -> float | None:
    return _number(turn.get(TURN_CLOCK_KEY))


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


# -- plain text (piped output) ---------------------------------------------------------------------


def plain_text(replay: Replay) -> str:
    """The piped form: header, numbered move list, final board and clocks. No trailing spaces."""
    out = [replay.title(), f"result: {replay.result()} after {replay.last} plies"]
    if replay.reason:
        out.append(f"reason: {replay.reason}")
    if replay.opening_note():
        out.append(f"opening: {replay.opening_note()}")
    out.append("")
    lines = replay.move_lines()
    if lines:
        width = max(len(replay.move_text(i)) for i in range(replay.last))
        label_width = max(len(label) for label, _ in lines)
        for label, indexes in lines:
            cells = [replay.move_text(i).ljust(width) for i in indexes]
            if replay.steps[indexes[0]].color is Color.WHITE:
                cells.insert(0, "...".ljust(width))
            out.append(f"{label.rjust(label_width)} {'  '.join(cells)}".rstrip())
    else:
        out.append("(no moves)")
    out.append("")
    final = replay.states[-1]
    out.extend(line.rstrip() for line in replay.game.board_text(final).splitlines())
    clocks = replay.clocks_at(replay.last)
    if clocks is not None:
        out.append("")
        out.append("clocks: " + "  ".join(f"{c.value} {format_clock(clocks[c])}" for c in Color))
    return "\n".join(out) + "\n"


__all__ = [
    "DEFAULT_DELAY_S",
    "GameEntry",
    "Replay",
    "ReplayError",
    "Source",
    "Step",
    "format_clock",
    "format_ms",
    "open_source",
    "plain_text",
    "player_names",
]
