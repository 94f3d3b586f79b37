"""Standings objects and N-seat tournament folders for the display and report tests, made in
milliseconds without bots.

- :func:`two_player_standings`: a ``standings.json`` object as today's runner writes it, for any
  number of agents (every pair met), without fitting anything;
- :func:`seat_standings`: an N-seat ``standings.json`` object in the issue's format, counted by hand
  from N-seat ``games.jsonl`` rows (the ratings are a stand-in: the runner's fit is not tested here);
- :func:`seat_record`: a real format-3 record of a registered N-seat game, random legal moves
  played in-process (:func:`arena.records.seats.build_seat_record`);
- :func:`write_seat_folder`: a tournament folder of such games (config.json, games.jsonl,
  games/NNNNN.json, standings.json).
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

from arena.games.model import CHANCE, SIMULTANEOUS, draw_chance, ranks
from arena.games.registry import get_table_game
from arena.records.reader import record_name
from arena.records.seats import build_seat_record, seat_entry


def agent_names(n: int) -> list[str]:
    return [f"agent-{i:03d}" for i in range(n)]


def _los(wins: float, losses: float) -> float:
    return 0.5 if wins + losses == 0 else 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def two_player_standings(n: int, *, seed: int = 0, games_per_pair: int = 2) -> dict[str, Any]:
    """Today's two-player standings object for ``n`` agents: every pair played ``games_per_pair``
    games, results drawn from made-up strengths."""
    rng = random.Random(seed)
    names = agent_names(n)
    strength = {a: rng.gauss(0, 150) for a in names}
    cross: dict[str, dict[str, Any]] = {a: {} for a in names}
    counts = {a: {"wins": 0, "draws": 0, "losses": 0} for a in names}
    for a, b in combinations(names, 2):
        w = d = 0
        for _ in range(games_per_pair):
            x = rng.random()
            p = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            w, d = (w + 1, d) if x < p * 0.9 else (w, d + 1) if x < p * 0.9 + 0.1 else (w, d)
        loss = games_per_pair - w - d
        cross[a][b] = {"games": games_per_pair, "wins": w, "draws": d, "losses": loss, "points": w + d / 2,
                       "los": round(_los(w, loss), 3)}
        cross[b][a] = {"games": games_per_pair, "wins": loss, "draws": d, "losses": w, "points": loss + d / 2,
                       "los": round(_los(loss, w), 3)}
        for who, won, lost in ((a, w, loss), (b, loss, w)):
            counts[who]["wins"] += won
            counts[who]["draws"] += d
            counts[who]["losses"] += lost
    rows = []
    for a in names:
        c = counts[a]
        games = c["wins"] + c["draws"] + c["losses"]
        points = c["wins"] + c["draws"] / 2
        rows.append({"id": a, "elo": round(strength[a], 1), "elo_low": round(strength[a] - 40, 1),
                     "elo_high": round(strength[a] + 40, 1), "games": games, **c, "points": points,
                     "score_pct": round(100 * points / games, 1), "draw_pct": round(100 * c["draws"] / games, 1),
                     "online_elo": 1000 + round(strength[a])})
    rows.sort(key=lambda r: -r["elo"])
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    total = n * (n - 1) // 2 * games_per_pair
    return {"games": total, "model": {"name": "Bradley-Terry (synthetic)"}, "first_move_elo": 12.0,
            "standings": rows, "crosstable": cross, "terminations": {"total": {"win": total}, "faults": {}}}


def synthetic_seat_rows(agents: list[str], games: int, players: int, *, seed: int = 0) -> list[dict[str, Any]]:
    """N-seat ``games.jsonl`` rows (no records): random groups of ``players`` agents, ranks drawn
    from made-up strengths."""
    rng = random.Random(seed)
    strength = {a: rng.gauss(0, 1) for a in agents}
    rows = []
    for index in range(games):
        seats = rng.sample(agents, players)
        returns = [round(strength[a] + rng.gauss(0, 1), 2) for a in seats]
        rows.append({"index": index, "group": index, "seats": seats,
                     "players": [{"id": a, "seat": s} for s, a in enumerate(seats)],
                     "ranks": list(ranks(returns)), "returns": returns, "termination": "win", "reason": "by the rules",
                     "eliminations": [], "plies": 10, "duration_s": 0.1, "record": record_name(index), "seed": index})
    return rows


def seat_standings(rows: list[dict[str, Any]], agents: list[str], *, game: str = "goofspiel") -> dict[str, Any]:
    """The issue's N-seat ``standings.json`` object, counted by hand from N-seat rows. Elo is a
    stand-in (400·log10 of the pairwise score's odds), its interval ±60."""
    players = len(rows[0]["seats"]) if rows else 3
    stats = {a: {"games": 0, "wins": 0, "rank_sum": 0, "return_sum": 0.0, "points": 0.0, "pairs": 0,
                 "rank_counts": [0] * players} for a in agents}
    pair: dict[str, dict[str, dict[str, Any]]] = {a: {} for a in agents}
    seats = [{"seat": s, "games": 0, "wins": 0, "rank_sum": 0, "return_sum": 0.0} for s in range(players)]
    total: dict[str, int] = {}
    faults: dict[str, dict[str, int]] = {}
    for row in rows:
        total[row["termination"]] = total.get(row["termination"], 0) + 1
        for e in row.get("eliminations", []):
            who = row["seats"][e["seat"]]
            faults.setdefault(who, {})[e["termination"]] = faults.setdefault(who, {}).get(e["termination"], 0) + 1
        for s, a in enumerate(row["seats"]):
            rank, ret = row["ranks"][s], row["returns"][s]
            st = stats[a]
            st["games"] += 1
            st["wins"] += rank == 1
            st["rank_sum"] += rank
            st["return_sum"] += ret
            st["rank_counts"][rank - 1] += 1
            seats[s]["games"] += 1
            seats[s]["wins"] += rank == 1
            seats[s]["rank_sum"] += rank
            seats[s]["return_sum"] += ret
            for t, b in enumerate(row["seats"]):
                if t == s:
                    continue
                score = 1.0 if rank < row["ranks"][t] else 0.5 if rank == row["ranks"][t] else 0.0
                st["points"] += score
                st["pairs"] += 1
                cell = pair[a].setdefault(b, {"games": 0, "wins": 0, "draws": 0, "losses": 0, "points": 0.0})
                cell["games"] += 1
                cell["points"] += score
                cell["wins" if score == 1 else "draws" if score == 0.5 else "losses"] += 1
    for cells in pair.values():
        for cell in cells.values():
            cell["los"] = round(_los(cell["wins"], cell["losses"]), 3)
    table = []
    for a in agents:
        st = stats[a]
        score = st["points"] / st["pairs"] if st["pairs"] else 0.5
        elo = 400 * math.log10(max(score, 0.01) / max(1 - score, 0.01))
        table.append({"id": a, "elo": round(elo, 1), "elo_low": round(elo - 60, 1), "elo_high": round(elo + 60, 1),
                      "games": st["games"], "wins": st["wins"],
                      "avg_rank": round(st["rank_sum"] / st["games"], 3) if st["games"] else None,
                      "avg_return": round(st["return_sum"] / st["games"], 3) if st["games"] else None,
                      "score_pct": round(100 * score, 1), "rank_counts": st["rank_counts"]})
    table.sort(key=lambda r: (-r["elo"], r["id"]))
    for rank, row in enumerate(table, 1):
        row["rank"] = rank
    return {"id": "t", "game": game, "seed": 0, "games": len(rows), "players": players,
            "model": {"name": "Plackett-Luce (hand-counted stand-in for the tests)"},
            "seat_elo": [round(10.0 * (players - 1 - s), 1) for s in range(players - 1)] + [0.0],
            "standings": table, "pairwise": pair,
            "seats": [{"seat": s["seat"], "games": s["games"], "wins": s["wins"],
                       "win_pct": round(100 * s["wins"] / s["games"], 1) if s["games"] else None,
                       "avg_rank": round(s["rank_sum"] / s["games"], 3) if s["games"] else None,
                       "avg_return": round(s["return_sum"] / s["games"], 3) if s["games"] else None} for s in seats],
            "terminations": {"total": total, "faults": faults}}


def seat_record(game_name: str, seat_ids: list[str], *, seed: int, index: int | None = None) -> dict[str, Any]:
    """A finished format-3 record of ``game_name`` for ``len(seat_ids)`` seats: seeded random legal
    moves and chance draws, every seat's clock charged a few milliseconds a move."""
    game = get_table_game(game_name, len(seat_ids))
    rng = random.Random(seed)
    state = game.initial_state()
    states = [game.state_to_json(state)]
    steps: list[dict[str, Any]] = []
    clocks = [10_000.0] * len(seat_ids)
    while not game.is_terminal(state):
        who = game.actor(state)
        if who == CHANCE:
            outcomes = game.chance_outcomes(state)
            outcome = draw_chance(outcomes, rng)
            probability = next(p for o, p in outcomes if o == outcome)
            steps.append({"ply": len(steps), "kind": "chance", "outcome": game.move_to_record(outcome),
                          "probability": str(Fraction(probability))})
            state = game.apply(state, outcome)
        elif who == SIMULTANEOUS:
            moves = {s: rng.choice(game.legal_moves(state, s)) for s in game.acting_seats(state)}
            for s in moves:
                clocks[s] -= 3.0
            steps.append({"ply": len(steps), "kind": "joint", "moves": {str(s): game.move_to_record(m) for s, m in moves.items()},
                          "charged_ms": {str(s): 3.0 for s in moves}, "clock_left_ms": {str(s): clocks[s] for s in moves}})
            state = game.apply_joint(state, moves)
        else:
            move = rng.choice(game.legal_moves(state, who))
            clocks[who] -= 3.0
            steps.append({"ply": len(steps), "kind": "move", "seat": who, "move": game.move_to_record(move),
                          "charged_ms": 3.0, "clock_left_ms": clocks[who]})
            state = game.apply(state, move)
        states.append(game.state_to_json(state))
    returns = [float(r) for r in game.returns(state)]
    return dict(build_seat_record(
        identity=game.identity(),  # type: ignore[arg-type]
        seats=[seat_entry(s, game.seat_names[s], a, "executable", f"./{a}") for s, a in enumerate(seat_ids)],
        steps=steps, states=states, returns=returns, ranks=list(ranks(returns)), termination="win",
        reason="the game ended by its rules", eliminations=[], clocks_left_ms=clocks,
        time_control={"timeLimit": 10_000}, max_moves=200, seed=seed,  # type: ignore[typeddict-item]
        game_index=index, started_at="2026-11-26T00:00:00Z", duration_s=0.05))


def write_seat_folder(folder: Path, *, game: str = "goofspiel", agents: list[str] | None = None, games: int = 6,
                      players: int = 3, seed: int = 0) -> Path:
    """A finished N-seat tournament folder: ``games`` random games of ``game`` (groups of
    ``players`` drawn from ``agents``), their rows and records, config.json and standings.json."""
    agents = agents or ["ann", "bob", "cyd", "dee"]
    rng = random.Random(seed)
    (folder / "games").mkdir(parents=True, exist_ok=True)
    rows = []
    for index in range(games):
        seats = rng.sample(agents, players)
        record = seat_record(game, seats, seed=seed * 1000 + index, index=index)
        (folder / record_name(index)).write_text(json.dumps(record))
        rows.append({"index": index, "group": index // players, "seats": seats,
                     "players": [{"id": a, "seat": s} for s, a in enumerate(seats)], "ranks": record["ranks"],
                     "returns": record["returns"], "termination": record["termination"], "reason": record["reason"],
                     "eliminations": [], "plies": len(record["steps"]), "duration_s": 0.05,
                     "started_at": record["started_at"], "record": record_name(index), "seed": record["seed"]})
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (folder / "config.json").write_text(json.dumps({"id": folder.name, "game": game, "players": players, "seed": seed,
                                                    "agents": [{"id": a} for a in agents]}))
    (folder / "standings.json").write_text(json.dumps(seat_standings(rows, agents, game=game)))
    return folder
