"""The shapes of arena's JSON data, as types: a game record (``arena/schemas/record.schema.json``),
a line of a log folder's ``games.jsonl`` and an entry of ``standings.json``.

``TypedDict`` s, so a record stays the plain dict that is written and read; the types say which
keys a function relies on. Reading does not check them: a record read from a file is a ``Record``
once :func:`arena.records.format.record_problem` passed (the keys every reader uses have the right
types); the whole schema is checked by ``arena check-record``. Standard library only.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class PlayerEntry(TypedDict):
    """One of a record's two ``players`` (BLACK first)."""

    id: str
    kind: str  # executable, hyperparameters, player (a person), or a plugin's kind
    command: str | None
    colour: str  # BLACK or WHITE
    cpuMs: NotRequired[float]  # CPU time of the bot's processes, where arena can measure it
    droppedOutput: NotRequired[dict[str, Any]]  # what a bot wrote outside its replies: bytes, turns, start


class TimeControlJson(TypedDict):
    """A record's ``time_control`` (ms; the config file's spelling)."""

    timeLimit: int
    timeMargin: int
    startupTime: int
    moveTimeLimit: int | None
    increment: int


class GamesRow(TypedDict):
    """One line of a tournament log folder's ``games.jsonl``: a finished game, appended after its
    record file is written (:class:`arena.tournament.logs.TournamentLog`); read by
    :mod:`arena.records.logstore`."""

    index: int
    pair: int
    black: str
    white: str
    players: list[dict[str, str]]  # [{"id", "colour"}], BLACK first
    winner: str  # BLACK, WHITE or NONE
    result: str  # RESULT_TEXT of the winner: 1-0, 0-1, 1/2-1/2
    termination: str
    reason: str
    plies: int | None
    duration_s: float | None
    started_at: str | None
    record: str  # the record's path in the folder: record_name(index)
    seed: int | None  # the opening's seed, so a resumed run knows the game scheduled there
    opening_line: NotRequired[int]  # the book line, when the openings come from a book
    node: NotRequired[dict[str, Any]]  # Ray: the node that played the game
    retried: NotRequired[int]  # Ray: attempts lost with their worker before this one


class StandingsEntry(TypedDict):
    """One agent's line of ``standings.json``'s ``standings`` (:func:`arena.stats.ratings.compute_standings`)."""

    rank: int
    id: str
    elo: float
    elo_low: float
    elo_high: float
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    score_pct: float | None
    draw_pct: float | None
    online_elo: int  # the legacy engine's online Elo, for comparison


__all__ = ["Elimination", "GameIdentity", "GamesRow", "PlayerEntry", "Record", "SeatEntry", "SeatRecord",
           "StandingsEntry", "TimeControlJson"]


class GameIdentity(TypedDict):
    """A game of the general model with its players and parameters (what makes records comparable);
    ``rules``: the referee program of an external game (docs/referees.md)."""

    name: str
    players: int
    params: dict[str, int]
    rules: NotRequired[str]


class SeatEntry(TypedDict):
    """One of an N-seat record's ``seats`` (in seat order)."""

    seat: int
    name: str
    id: str
    kind: str  # executable, hyperparameters, player (a person)
    command: str | None
    cpuMs: NotRequired[float]
    droppedOutput: NotRequired[dict[str, Any]]


class Elimination(TypedDict):
    """A seat taken out of an N-seat game for a fault (the game went on)."""

    seat: int
    ply: int
    termination: str
    reason: str


class SeatRecord(TypedDict):
    """A game record, format 4 (``arena/schemas/record.schema.json``; :mod:`arena.records.seats`
    describes every field): every game's layout. ``steps`` are open objects of four kinds (chance,
    move, joint, elimination); ``game_states`` the game's omniscient ``state_to_json``. Format 3
    had the same layout with ``states`` (:mod:`arena.records.normal` reads both)."""

    record_format: int  # 4
    arena_version: str
    game: str
    game_identity: GameIdentity
    seats: list[SeatEntry]
    game_index: int | None
    seed: int | None  # null only in a game of two colours without a random opening
    time_control: TimeControlJson
    max_moves: int
    started_at: str
    duration_s: float
    termination: str
    reason: str
    returns: list[float]
    ranks: list[int]
    eliminations: list[Elimination]
    clocks_left_ms: list[float]
    steps: list[dict[str, Any]]
    game_states: list[dict[str, Any]]
    stderr_logs: NotRequired[dict[str, str]]  # by seat number: {"0": path}
    stderr_tail: NotRequired[dict[str, str]]
    node: NotRequired[dict[str, Any]]  # Ray: the node and worker that played the game
    ray_retries: NotRequired[list[str]]


class Record(SeatRecord):
    """A format-4 record of a game of two colours (:mod:`arena.records.format` describes the fields
    it adds): seats BLACK and WHITE, and the Shobu engine's ``winner``, ``turns`` and
    ``game_states`` with format 2's ``players``, ``plies``, ``opening_plies`` and ``move_times_ms``.
    Records of formats 1 and 2 lack the layout in seats: readers use :mod:`arena.records.normal`."""

    winner: str  # BLACK, WHITE or NONE
    turns: list[dict[str, Any]]
    players: list[PlayerEntry]
    plies: int
    opening_plies: int
    move_times_ms: list[float]
