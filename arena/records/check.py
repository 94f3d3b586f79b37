"""Checking game records and tournament log folders against the rules (``arena check-record``,
``arena check-logs``; the scripts in ``scripts/`` call these too).

A record checks out when it matches its format's published schema (format 4:
``arena/schemas/record.schema.json``; format 2: ``record-v2.schema.json``; format 3:
``seat-record.schema.json``; checked by :mod:`arena.records.schema`) and replays. Every format is
read (:mod:`arena.records.normal`): a game of two colours (formats 1, 2 and 4) replays turn by
turn, every state following from the previous one by the recorded turn under the game's rules, the
final position included, the winner agreeing with how the game ended; format 1 has no opening
plies in ``turns`` (the first state is the position after the opening), formats 2 and 4 hold them
as the first turns, marked ``opening``, with each turn's ``notation`` and clock fields checked too;
format 4 holds every ply again as a step, which must agree with its turn. A game in seats (formats
3 and 4) replays step by step (:func:`arena.records.seats.check_seat_record`).

Pure functions returning problems as one-line strings; only reading files raises
(:class:`arena.records.reader.RecordInputError`, for input that is not records at all). :func:`run_check_record` and
:func:`run_check_logs` are the two commands' whole behaviour; they need nothing outside the standard
library and arena's rules, so ``scripts/check_*.py`` run them from a checkout without a venv.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from arena.fileio.jsonfiles import read_json_file
from arena.games.base import Game, GameError, random_opening_moves
from arena.games.registry import get_game
from arena.limits import MAX_RECORDS_BYTES
from arena.records.field import Field, keyed
from arena.records.format import RECORD_FORMAT, TURN_KEYS, record_problem, turn_move
from arena.records.logstore import STANDINGS_FILE, LogError, read_rows, read_standings
from arena.records.normal import (
    FORMATS,
    colour_ranks,
    colour_returns,
    ranks,
    record_format,
    seat_ids,
    two_colour,
)
from arena.records.reader import GAMES_FILE, RecordInputError, read_record_file, read_record_list
from arena.records.schema import SCHEMA_FILES, record_schema, schema_errors
from arena.records.seats import placing
from arena.stats.ratings import FAULTS

#: Terminations where the player to move lost by its own fault.
#: Terminations the rules decide from the final position.
RULED = frozenset({"win", "no_legal_moves", "draw"})
_REQUIRED = ("game", "turns", "game_states", "winner", "termination")


# -- one record --------------------------------------------------------------------------------------


def check_record(record: Any) -> list[str]:
    """The problems of one record of any format (empty: it checks out). Never raises for a bad
    record."""
    if not isinstance(record, dict):
        return [f"a record is a JSON object, got {type(record).__name__}"]
    if "seats" in record and not two_colour(record):
        return _check_seats(record)
    missing = [key for key in _REQUIRED if key not in record]
    if missing:
        return [f"not a record: missing {', '.join(repr(k) for k in missing)}"]
    problem = record_problem(record)  # fields of the wrong type: one line, not a traceback below
    if problem is not None:
        return [f"not a record: {problem}"]
    try:
        game = get_game(str(record["game"]))
    except GameError as exc:
        return [f"cannot check: {exc}"]
    turns, states = record["turns"], record["game_states"]
    if not isinstance(turns, list) or not isinstance(states, list):
        return ["turns and game_states must be arrays"]
    try:
        problems = schema_problems(record) + _check(game, record, turns, states)
        return problems or _steps_problems(game, record)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # A record whose fields have the wrong shapes: say so rather than crash the checker.
        return [f"malformed record: {type(exc).__name__}: {exc}"]


def _winner(record: dict[str, Any]) -> str:
    """A record's winner as the summary line shows it: a colour, NONE, or an N-seat game's seats
    ranked first (``seat 2``, ``seats 0+1``)."""
    if two_colour(record):
        return str(record["winner"])
    first = [str(seat) for seat, rank in enumerate(ranks(record)) if rank == 1]
    return f"seat{'s' if len(first) > 1 else ''} {'+'.join(first)}"


def _check_seats(record: dict[str, Any]) -> list[str]:
    """The problems of an N-seat record (:mod:`arena.records.seats`)."""
    from arena.records.seats import check_seat_record, game_of_identity, seat_record_problem

    problem = seat_record_problem(record)
    if problem is not None:
        return [f"not a record: {problem}"]
    mismatch = schema_problems(record)
    if mismatch:
        return mismatch
    try:
        game = game_of_identity(record["game_identity"])
    except GameError as exc:
        return [f"cannot check: {exc}"]
    return check_seat_record(record, game)


def _steps_problems(game: Game[Any, Any], record: dict[str, Any]) -> list[str]:
    """A format-4 record of two colours holds every ply twice, as a turn and as a step: they must
    agree (the same move, the mover, the opening mark, the times)."""
    steps = record.get("steps")
    if steps is None:  # formats 1 and 2
        return []
    turns, states = record["turns"], record["game_states"]
    if len(steps) != len(turns):
        return [f"{len(steps)} steps but {len(turns)} turns (the same plies)"]
    for index, (turn, step) in enumerate(zip(turns, steps, strict=True)):
        state = game.state_from_json(states[index])
        seat = 0 if game.to_move(state).value == "BLACK" else 1
        expected = {"ply": game.ply(state), "kind": "move", "seat": seat,
                    "move": game.move_to_record(turn_move(game, turn)), "charged_ms": turn.get("charged_ms"),
                    "clock_left_ms": turn.get("clock_left_ms")}
        if turn.get("opening"):
            expected["opening"] = True
        if step != expected:
            return [f"steps[{index}] does not match turns[{index}]: {step} (expected {expected})"]
    if seat_ids(record) != [str(p.get("id")) for p in record["players"]]:
        return ["seats and players name different agents"]
    if record.get("ranks") != colour_ranks(record["winner"]) or record.get("returns") != colour_returns(record["winner"]):
        return [f"ranks {record.get('ranks')} and returns {record.get('returns')} do not say winner {record['winner']}"]
    return []


def schema_problems(record: dict[str, Any]) -> list[str]:
    """One line if a record that says its format (``record_format`` 2 to 4) does not match that
    format's published schema (:mod:`arena.records.schema`): the game, the JSON pointer and what is
    wrong. Records of format 1 (no ``record_format``) predate the schema and are not checked against
    it."""
    fmt = record.get("record_format")
    if fmt not in FORMATS or fmt == 1:
        return []
    return _schema_mismatch(record, record_schema(fmt), SCHEMA_FILES[fmt])


def _schema_mismatch(record: dict[str, Any], schema: Any, name: str) -> list[str]:
    """One line for the first place ``record`` breaks ``schema`` (the file ``name``): the game, the
    JSON pointer and what is wrong; nothing when it matches."""
    found = next(schema_errors(record, schema), None)
    if found is None:
        return []
    pointer, message = found
    index = record.get("game_index")
    game = f"game {index}: " if type(index) is int else ""
    return [f"{game}does not match {name} at {pointer or '/'}: {message}"]


def _same_state(game: Game[Any, Any], state: Any, recorded: Any) -> bool:
    # Compare normalised forms: checkers board lines may be written with or without spaces.
    return game.state_to_json(state) == game.state_to_json(game.state_from_json(recorded))


def _check(game: Game[Any, Any], record: dict[str, Any], turns: list[Any], states: list[Any]) -> list[str]:
    problems: list[str] = []
    fmt = record_format(record)
    if fmt > RECORD_FORMAT:
        return [f"record_format {fmt} is newer than this arena reads ({RECORD_FORMAT})"]
    if len(states) != len(turns) + 1:
        return [f"{len(turns)} turns but {len(states)} states (the final state must be included)"]
    plies = record.get("plies")
    if plies is not None and plies != len(turns):
        problems.append(f"plies is {plies} but there are {len(turns)} turns")
    try:
        state = game.state_from_json(states[0])
    except GameError as exc:
        return [*problems, f"state 0: {exc}"]
    opening = _opening_count(turns) if fmt >= 2 else 0
    if fmt >= 2:
        problems += _check_format2(game, record, turns, states, opening)
    times = record.get("move_times_ms")
    if isinstance(times, list) and len(times) != len(turns) - opening:
        problems.append(f"{len(times)} move_times_ms for {len(turns) - opening} player moves")
    for i, turn in enumerate(turns):
        try:
            move = game.validate_move(state, turn_move(game, turn))
        except GameError as exc:
            return [*problems, f"turn {i}: {exc}"]
        if fmt >= 2 and isinstance(turn, dict) and turn.get("notation") != game.describe_move(move):
            problems.append(f"turn {i}: notation {turn.get('notation')!r} but the move is {game.describe_move(move)!r}")
        state = game.apply(state, move)
        try:
            same = _same_state(game, state, states[i + 1])
        except GameError as exc:
            return [*problems, f"state {i + 1}: {exc}"]
        if not same:
            return [*problems, f"state {i + 1} does not follow from turn {i}"]
    return problems + _check_ending(game, record, state)


def _opening_count(turns: list[Any]) -> int:
    count = 0
    for turn in turns:
        if not (isinstance(turn, dict) and turn.get("opening") is True):
            break
        count += 1
    return count


def _check_format2(game: Game[Any, Any], record: dict[str, Any], turns: list[Any], states: list[Any],
                   opening: int) -> list[str]:
    """Format 2's own promises: arena's keys on every turn, opening plies first and from the initial
    state (replayed from the seed when there is one), clocks on the players' moves."""
    problems: list[str] = []
    for i, turn in enumerate(turns):
        lacking = [key for key in TURN_KEYS if not (isinstance(turn, dict) and key in turn)]
        if lacking:
            problems.append(f"turn {i}: missing {', '.join(lacking)}")
        elif i >= opening and turn["opening"] is not False:
            problems.append(f"turn {i}: an opening ply after the players' moves began")
        elif i >= opening and not all(isinstance(turn[k], (int, float)) for k in ("charged_ms", "clock_left_ms")):
            problems.append(f"turn {i}: a player's move needs charged_ms and clock_left_ms")
        elif i < opening and (turn["charged_ms"] is not None or turn["clock_left_ms"] is not None):
            problems.append(f"turn {i}: an opening ply has no clock (charged_ms and clock_left_ms are null)")
    asked = record.get("opening_plies") or 0
    if opening > asked:
        problems.append(f"{opening} opening turns but opening_plies is {asked}")
    if opening:
        if not _same_state(game, game.initial_state(), states[0]):
            problems.append("the record has opening turns but does not start from the initial state")
        seed = record.get("seed")
        if isinstance(seed, int):
            expected = random_opening_moves(game, asked, random.Random(seed))
            written = [turn_move(game, turn) for turn in turns[:opening]]
            if written != expected:
                problems.append(f"the opening turns are not the random opening of seed {seed}")
    times = record.get("move_times_ms")
    charged = [turn.get("charged_ms") for turn in turns[opening:] if isinstance(turn, dict)]
    if isinstance(times, list) and len(times) == len(charged) and times != charged:
        problems.append("move_times_ms differs from the turns' charged_ms")
    return problems


def _check_ending(game: Game[Any, Any], record: dict[str, Any], state: Any) -> list[str]:
    termination, winner = record["termination"], record["winner"]
    outcome = game.outcome(state)
    if termination in RULED:
        if outcome is None or outcome.termination.value != termination or outcome.winner_name != winner:
            return [f"recorded {termination}/{winner} but the final position says {outcome}"]
    elif outcome is not None:
        over = f"{outcome.termination.value}/{outcome.winner_name}"
        return [f"the final position is over by the rules ({over}) but the record says {termination}"]
    elif termination == "max_moves" and winner != "NONE":
        return [f"a max_moves draw must have winner NONE, not {winner}"]
    elif termination in (*FAULTS, "resign") and winner not in ("BLACK", "WHITE"):
        return [f"a {termination} must have a winner"]
    elif termination in FAULTS and winner == game.state_to_json(state)["turn"]:
        return [f"the player to move committed the {termination} but is recorded as the winner"]
    elif termination == "interrupted" and winner != "NONE":
        return [f"an interrupted game has winner NONE, not {winner}"]
    return []


# -- files -------------------------------------------------------------------------------------------


def read_records(path: Path) -> list[Any]:
    """The records in the file ``path``, unchecked (:func:`check_record` says what is wrong with
    each): :func:`arena.records.reader.read_record_list`, a folder refused. Raises RecordInputError."""
    if path.is_dir():
        raise RecordInputError(f"{path}: is a folder (arena check-logs reads a tournament's folder)")
    return list(read_record_list(path, checked=False))


def log_folders(path: Path) -> list[Path]:
    """``path`` if it is a tournament's log folder (it has ``games.jsonl``), else the log folders
    directly inside it (``tournament_logs/``), sorted. RecordInputError when there are none."""
    if not path.is_dir():
        raise RecordInputError(f"{path}: no such folder")
    if (path / GAMES_FILE).is_file():
        return [path]
    inside = sorted(p for p in path.iterdir() if p.is_dir() and (p / GAMES_FILE).is_file())
    if not inside:
        raise RecordInputError(f"{path}: not a tournament's log folder (no games.jsonl in it or its subfolders)")
    return inside


def _load(folder: Path, name: str, problems: list[str]) -> Any:
    """The JSON of ``folder/name`` (no link followed below the folder, bounded, strict), or None
    with the reason added to ``problems``."""
    try:
        return read_json_file(folder / name, MAX_RECORDS_BYTES, root=folder)
    except FileNotFoundError:
        problems.append(f"missing {name}")
    except OSError as exc:
        problems.append(f"{name}: cannot read: {exc.strerror or exc}")
    except ValueError as exc:  # not JSON, a key twice, a path out of the folder
        problems.append(f"{name}: cannot read: {exc}")
    return None


def check_log_folder(folder: Path) -> tuple[int, list[str]]:
    """``(games, problems)`` for one tournament log folder: ``config.json``, ``games.jsonl`` (one
    line per finished game, indices unique), every game's record (checks out, agrees with its line),
    each agent's ``<agentId>.json`` counts and ``standings.json`` covering every agent."""
    problems: list[str] = []
    rows: list[dict[str, Any]] = []
    try:  # the store's one rule: a cut-off last line is warned of, any other bad line is the problem
        lines = read_rows(folder).rows
    except LogError as exc:
        lines = []
        problems.append(str(exc))
    for row in lines:
        if not isinstance(row.get("record"), str):  # a line the standings can read, but no record
            problems.append(f"game {row['index']}: its games.jsonl line names no record")
            continue
        rows.append(row)
    config = _load(folder, "config.json", problems)
    try:
        standings = read_standings(folder)
        if standings is None:
            problems.append(f"missing {STANDINGS_FILE}")
    except LogError as exc:
        standings = None
        problems.append(str(exc))
    listed_agents = config.get("agents") if isinstance(config, dict) else None
    agents = [a.get("id") for a in listed_agents if isinstance(a, dict)] if isinstance(listed_agents, list) else []
    tally: dict[str, Counter[str]] = {str(a): Counter() for a in agents}
    # A folder kept by pairing: every record is checked, but only the games that count now are in
    # the per-agent files and the standings (the rest is history: arena.records.field).
    field = Field.from_json(config) if keyed(config) else None
    for row in rows:
        where = f"game {row['index']}"
        try:
            record = read_record_file(folder / str(row["record"]), root=folder)
        except OSError as exc:
            problems.append(f"{where}: cannot read {row['record']}: {exc.strerror or exc}")
            continue
        except (RecordInputError, ValueError) as exc:  # not JSON; a path out of the folder
            problems.append(f"{where}: cannot read {row['record']}: {exc}")
            continue
        if not isinstance(record, dict):
            problems.append(f"{where}: {row['record']} is not a record")
            continue
        outcome = ("ranks", "termination") if "ranks" in row else ("winner", "termination")
        if tuple(record.get(key) for key in outcome) != tuple(row[key] for key in outcome):
            problems.append(f"{where}: games.jsonl and {row['record']} disagree")
        found = check_record(record)
        problems += [f"{where}: {p}" for p in found]
        if record_problem(record) is not None or (field is not None and not field.counts(row)):
            continue  # not counted: its fields are not what a record's are, or it is history
        placed = ranks(record)
        for seat, agent in enumerate(seat_ids(record)):
            counts = tally.setdefault(agent, Counter())
            counts["games"] += 1
            counts[placing(placed, seat)] += 1
    entries = standings.get("standings") if isinstance(standings, dict) else None
    listed = {e.get("id") for e in entries if isinstance(e, dict)} if isinstance(entries, list) else set()
    for agent_id, counts in tally.items():
        stats = _load(folder, f"{agent_id}.json", problems)
        if isinstance(stats, dict):
            for key in ("games", "wins", "draws", "losses"):
                if stats.get(key) != counts[key]:
                    problems.append(f"{agent_id}.json: {key} = {stats.get(key)}, but the records say {counts[key]}")
        if standings is not None and agent_id not in listed:
            problems.append(f"standings.json has no entry for {agent_id}")
    return len(rows), problems


# -- the commands ------------------------------------------------------------------------------------


def run_check_record(paths: Sequence[Path], out: TextIO, err: TextIO) -> int:
    """``arena check-record PATHS``: one line per problem on ``out``, then one line per file that
    checks out; returns the exit status (0 all check out, 1 a problem, 2 a file that is not
    records: one line on ``err``, before anything is checked)."""
    try:
        loaded = [(path, read_records(path)) for path in paths]
    except RecordInputError as exc:
        print(f"arena: error: {exc}", file=err)
        return 2
    failed = False
    for path, records in loaded:
        problems = [f"{path}[{n}]: {p}" for n, record in enumerate(records) for p in check_record(record)]
        for line in problems:
            print(line, file=out)
        if problems:
            failed = True
        else:
            ends = ", ".join(f"{r['termination']}/{_winner(r)}" for r in records)
            counted = "1 record checks out" if len(records) == 1 else f"{len(records)} records check out"
            print(f"{path}: {counted} ({ends})", file=out)
    return 1 if failed else 0


def run_check_logs(paths: Sequence[Path], out: TextIO, err: TextIO) -> int:
    """``arena check-logs PATHS``: one line per problem on ``out``, then one line per consistent
    folder; returns the exit status (0 all consistent, 1 a problem, 2 a path that is not a
    tournament's log folder: one line on ``err``, before anything is checked)."""
    try:
        folders = [folder for path in paths for folder in log_folders(path)]
    except RecordInputError as exc:
        print(f"arena: error: {exc}", file=err)
        return 2
    failed = False
    for folder in folders:
        games, problems = check_log_folder(folder)
        for problem in problems:
            print(f"{folder}: {problem}", file=out)
        if problems:
            failed = True
        else:
            print(f"{folder}: {games} games; records, per-agent files and standings agree", file=out)
    return 1 if failed else 0
