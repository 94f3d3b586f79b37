"""The ranked result of one game, the input of every rating of any number of seats. No I/O.

A :class:`RankedResult` names the agent at each seat and its rank (1 best; equal ranks are a
tie). Two-player :class:`~arena.stats.ratings.GameResult` values map onto it with
:func:`ranked_from_game` (seats black, white), N-seat ``games.jsonl`` rows with
:func:`ranked_from_row`. The constants every rating shares live here too: this module imports only
the standard library, so the record checker and the terminal UI can read them without numpy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.stats.ratings import GameResult

#: Elo points per natural-log unit of strength: Elo = ``ELO_PER_NAT * theta``.
ELO_PER_NAT = 400.0 / math.log(10.0)
#: Terminations that are a bot's fault: the game is lost by the seat that committed them.
FAULTS = ("timeout", "illegal_move", "malformed_reply", "crash", "memory_limit", "output_limit")
#: The largest game index a row may carry (far beyond any real tournament; keeps arithmetic sane).
MAX_INDEX = 2**53


@dataclass(frozen=True)
class RankedResult:
    """One finished game of any number of seats.

    ``seats[k]`` is the agent id at seat k and ``ranks[k]`` its rank (1 best; equal ranks are a
    tie); ``returns`` the seats' returns when the game has them; ``group`` the unit of resampling
    (a colour-swapped pair, a seat-rotation group; None: the game is its own unit); ``faults`` the
    (seat, termination) of seats that lost by a fault.
    """

    index: int
    seats: tuple[str, ...]
    ranks: tuple[int, ...]
    returns: tuple[float, ...] | None = None
    termination: str = "win"
    group: int | None = None
    faults: tuple[tuple[int, str], ...] = ()


def agents_of(results: Sequence[RankedResult], agents: Sequence[str] | None = None) -> list[str]:
    """``agents`` as a list, or every agent of ``results`` in order of first appearance."""
    if agents is not None:
        return list(agents)
    return list(dict.fromkeys(a for r in results for a in r.seats))


def ranked_from_game(game: GameResult) -> RankedResult:
    """The two-player ``game`` as seats (black, white) with ranks (1, 2), (2, 1) or (1, 1).

    A fault termination of a decided game is the loser's fault (as ``termination_counts``).
    """
    ranks = (1, 1) if game.score == 0.5 else (1, 2) if game.score > 0.5 else (2, 1)
    faults: tuple[tuple[int, str], ...] = ()
    if game.termination in FAULTS and game.score != 0.5:
        faults = ((ranks.index(2), game.termination),)
    return RankedResult(index=game.index, seats=(game.black, game.white), ranks=ranks,
                        termination=game.termination, group=game.pair, faults=faults)


def ranked_from_row(row: Mapping[str, Any]) -> RankedResult:
    """A :class:`RankedResult` from an N-seat ``games.jsonl`` row (or record with those keys).

    Reads ``index``, ``seats`` (agent ids in seat order), ``ranks``, and when present ``returns``,
    ``termination``, ``group`` and ``eliminations`` ([{"seat", "termination"}]: every elimination is
    a seat out after a fault, kept as ``faults``). Raises ValueError (one line saying what is wrong) for anything else:
    not an object, seats that are not distinct strings (at least two), ranks that are not positive
    integers one per seat, returns that are not numbers one per seat, an index that is not an
    integer from 0 to :data:`MAX_INDEX` (``true`` is not 1).
    """
    if not isinstance(row, Mapping):
        raise ValueError(f"a game must be a JSON object, got {describe(row)}")  # noqa: TRY004 - the contract
    seats, ranks = row.get("seats"), row.get("ranks")
    # Each check first by the types' set (one C pass; a whole log's rows are read), then as written.
    if not isinstance(seats, list) or len(seats) < 2 or not (
            set(map(type, seats)) == _STR or all(isinstance(s, str) for s in seats)):
        raise ValueError(f'"seats" must be a list of at least two agent ids, got {describe(seats)}')
    if len(set(seats)) != len(seats):
        raise ValueError("the agents of a game's seats must be different")
    if not isinstance(ranks, list) or len(ranks) != len(seats) or not (
            (set(map(type, ranks)) == _INT and min(ranks) >= 1) or all(_whole(r) and r >= 1 for r in ranks)):
        raise ValueError(f'"ranks" must be a list of {len(seats)} positive integers, got {describe(ranks)}')
    index = row.get("index", row.get("game_index"))
    if not _whole(index) or not 0 <= index <= MAX_INDEX:
        raise ValueError(f"a game needs an index from 0 to {MAX_INDEX}, got {describe(index)}")
    returns = row.get("returns")
    if returns is not None and (not isinstance(returns, list) or len(returns) != len(seats) or not (
            set(map(type, returns)) <= _NUMBER or all(isinstance(r, int | float) and not isinstance(r, bool)
                                                     for r in returns))):
        raise ValueError(f'"returns" must be a list of {len(seats)} numbers, got {describe(returns)}')
    termination = row.get("termination", "win")
    group = row.get("group")
    faults = []
    for item in row.get("eliminations") or ():
        if isinstance(item, Mapping) and isinstance(item.get("termination"), str) and _whole(item.get("seat")) \
                and 0 <= item["seat"] < len(seats):
            faults.append((item["seat"], item["termination"]))
    return RankedResult(
        index=index,
        seats=tuple(seats),
        ranks=tuple(ranks),
        returns=None if returns is None else tuple(map(float, returns)),
        termination=termination if isinstance(termination, str) else "win",
        group=group if _whole(group) else None,
        faults=tuple(faults),
    )


_STR, _INT, _NUMBER = {str}, {int}, {int, float}


def _whole(value: Any) -> bool:
    """An int that is not a bool (JSON ``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def describe(value: Any) -> str:
    """A short description of a JSON value for a one-line message."""
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, int):
        return str(value) if abs(value) < 10**20 else "a huge integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else repr(value[:27] + "...")
    return {"list": "a list", "dict": "an object"}.get(type(value).__name__, type(value).__name__)
