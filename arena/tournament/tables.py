"""What a tournament does differently when its game is of the general model (N seats, chance,
hidden information: :mod:`arena.games.model`): the job of one scheduled game, its ``games.jsonl``
row (:func:`arena.tournament.resume.table_row_mismatch` checks it on resume) and the cheap per-agent tally the terminal shows while
games run. Everything else (the log folder, the one run loop, resume, the backends, the standings
worker) is shared with two-player tournaments.

A row of an N-seat game::

    {"index", "group", "seats": [agent ids in seat order], "players": [{"id", "seat"}],
     "ranks": [...], "returns": [...], "termination", "reason", "eliminations": [{"seat",
     "termination"}], "plies", "duration_s", "started_at", "record": "games/00000.json", "seed"}

``group`` is the seat-rotation group (games sharing it share ``seed`` and agents); ``plies`` counts
the record's steps; ``ranks`` are 1 for the best, equal for a tie.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.backends import GameJob
from arena.records.reader import record_name
from arena.records.seats import placing
from arena.runs.jobs import GameSetting, game_job
from arena.stats.results import RankedResult
from arena.tournament.config import TournamentConfig
from arena.tournament.plan import agent_spec, isolation, time_control
from arena.tournament.schedule import ScheduledTable


def table_job(config: TournamentConfig, game: ScheduledTable, player_opts: dict[str, Any] | None) -> GameJob:
    """The job that plays scheduled game ``game`` of ``config`` (through the one job builder)."""
    assert config.players is not None
    setting = GameSetting(game=config.game, time_control=time_control(config), max_moves=config.max_moves,
                          isolation=isolation(config), players=config.players, parameters=config.parameters,
                          rules=config.rules_command or (), legal_moves=config.legal_moves, player_opts=player_opts)
    return game_job(setting, [agent_spec(config.agent(agent_id)) for agent_id in game.seats], game.index,
                    seed=game.seed)


def table_row(game: ScheduledTable, record: dict[str, Any]) -> dict[str, Any]:
    """The ``games.jsonl`` row of ``game`` finished with ``record`` (module docstring)."""
    return {
        "index": game.index,
        "group": game.group,
        "seats": list(game.seats),
        "players": game.players,
        "ranks": list(record["ranks"]),
        "returns": list(record["returns"]),
        "termination": record["termination"],
        "reason": record.get("reason", ""),
        "eliminations": [{"seat": e["seat"], "termination": e["termination"]}
                         for e in record.get("eliminations") or []],
        "plies": len(record.get("steps") or []),
        "duration_s": record.get("duration_s"),
        "started_at": record.get("started_at"),
        "record": record_name(game.index),
        "seed": game.seed,
        # The game's key in a folder kept by pairing (arena.records.field).
        **({"round": game.round} if game.round is not None else {}),
    }


class TableTally:
    """Per agent, as games finish in any order: ``games``, ``wins`` (ranked first alone),
    ``draws`` (first with others), ``losses`` (the rest) and ``avg_rank``: microseconds per game,
    for the terminal while games run (the ratings are the standings worker's)."""

    def __init__(self, agents: Sequence[str]) -> None:
        self._counts = {a: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for a in agents}
        self._rank_sum = dict.fromkeys(agents, 0)

    def add(self, game: RankedResult) -> None:
        for seat, (agent_id, rank) in enumerate(zip(game.seats, game.ranks, strict=True)):
            counts = self._counts[agent_id]
            counts["games"] += 1
            counts[placing(game.ranks, seat)] += 1
            self._rank_sum[agent_id] += rank

    def state(self) -> dict[str, Any]:
        """What :meth:`from_state` takes back (a resume's saved tally: :mod:`arena.tournament.checked`)."""
        return {"counts": self._counts, "rank_sum": self._rank_sum}

    @classmethod
    def from_state(cls, agents: Sequence[str], state: Any) -> TableTally:
        """The tally :meth:`state` described, for ``agents``; ValueError when it is not one of theirs."""
        from arena.tournament.logs import counts_from_state

        tally = cls(agents)
        try:
            rank_sum = state["rank_sum"]
            if set(rank_sum) != set(agents):
                raise ValueError("another field's tally")
            tally._counts = counts_from_state(state["counts"], agents)
            for a in agents:
                if type(rank_sum[a]) is not int:
                    raise ValueError("not a tally")
                tally._rank_sum[a] = rank_sum[a]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a tally ({exc})") from None
        return tally

    def snapshot(self, lowest_pending: int | None = None) -> dict[str, dict[str, Any]]:
        """Per agent its counts and ``avg_rank`` (None before its first game); ``lowest_pending``
        is accepted for the two-player tally's signature and not needed here."""
        return {a: {**c, "avg_rank": round(self._rank_sum[a] / c["games"], 3) if c["games"] else None}
                for a, c in self._counts.items()}
