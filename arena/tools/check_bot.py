"""`arena check-bot`: a conformance report for one bot, in well under a minute.

The bot plays short games through the real engine (the same clocks, framing and fault reasons as
any match), against arena's own random agent:

1. **start-up**: the start position, the bot as BLACK (the time to its first reply is reported);
2. **probes**: positions that exercise a protocol's corners, found by random play and recognised
   from the records' board only (so they work for every registered game): playing WHITE, a single
   legal move, few legal moves, a capture available, a forced capture, a capture of two or more
   pieces in one move, a move that changes a piece's kind (crowning); a forced pass, and the game's
   own ``probe_positions`` (:mod:`arena.tools.probes`). In each the bot moves, the random agent
   answers, and the bot moves again: a reply that is not alone on stdout (a debug line) is read as
   the next move and fails there;
3. **games**: full games against the random agent, the bot with both colours.

A game of the general model (N seats, chance, simultaneous moves: arena's own, plugins, OpenSpiel's)
is checked by :mod:`arena.tools.check_table_bot` with the probes derived from the game itself.

Every reply must be a legal move, flushed, in time: a failure is the engine's own fault reason (with
its hints: an unflushed reply, the wrong ``--game``) plus the bot's stderr tail.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.games.base import Color, Game
from arena.match.game import TimeControl, play_game
from arena.players.spec import AgentSpec

OK_TERMINATIONS = {"win", "no_legal_moves", "max_moves", "draw"}
#: Random playouts searched for probe positions (seeded: the same positions every run).
PLAYOUTS = 60


@dataclass
class Check:
    """One line of the report: ``ok`` with a figure, or a failure with what went wrong and a hint."""

    name: str
    ok: bool
    detail: str
    records: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


def _board_chars(game: Game[Any, Any], state: Any) -> str:
    board = game.state_to_json(state).get("board")
    if isinstance(board, str):
        return board
    if isinstance(board, list) and all(isinstance(row, str) for row in board):
        return "".join(board)
    return json.dumps(board)


def _pieces(chars: str) -> int:
    return sum(1 for c in chars if c.isalpha())


def _kings(chars: str) -> int:
    return sum(1 for c in chars if c.isupper())


def _move_effects(game: Game[Any, Any], state: Any) -> list[tuple[int, int]]:
    """For each legal move: (pieces taken, kings made), read from the board before and after."""
    before = _board_chars(game, state)
    effects = []
    for move in game.legal_moves(state):
        after = _board_chars(game, game.apply(state, move))
        effects.append((max(0, _pieces(before) - _pieces(after)), max(0, _kings(after) - _kings(before))))
    return effects


PROBES: dict[str, Callable[[list[tuple[int, int]]], bool]] = {
    "a single legal move": lambda e: len(e) == 1,
    "few legal moves (2-3)": lambda e: 2 <= len(e) <= 3,
    "a capture available": lambda e: any(t > 0 for t, _ in e) and not all(t > 0 for t, _ in e),
    "a forced capture (every legal move takes)": lambda e: bool(e) and all(t > 0 for t, _ in e),
    "a capture of two or more pieces in one move": lambda e: any(t >= 2 for t, _ in e),
    "a move that changes a piece's kind (crowning)": lambda e: any(k > 0 for _, k in e),
}


def probe_positions(game: Game[Any, Any], seed: int, cap: int) -> list[tuple[str, Any]]:
    """``(label, state)`` pairs: the start after one random ply (WHITE to move), then the first
    position met in seeded random play for each probe of :data:`PROBES` that the game has."""
    rng = random.Random(seed)
    start = game.initial_state()
    first = game.legal_moves(start)
    found: list[tuple[str, Any]] = [("playing WHITE", game.apply(start, rng.choice(first)))]
    wanted = dict(PROBES)
    for _ in range(PLAYOUTS):
        state = start
        while wanted and game.outcome(state) is None and game.ply(state) < cap - 3:
            effects = _move_effects(game, state)
            for label, test in list(wanted.items()):
                if test(effects):
                    found.append((label, state))
                    del wanted[label]
                    break  # one probe per position: the others wait for positions of their own
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not wanted:
            break
    return found


def game_probes(game: Game[Any, Any], seed: int, spec: Any) -> list[tuple[str, Any]]:
    """The probes a two-player game yields that :data:`PROBES` does not cover (a forced pass), and
    its own ``probe_positions`` (see :mod:`arena.tools.probes`)."""
    from arena.games.model import as_general
    from arena.tools.probes import FORCED_PASS, declared_probes, derived_probes

    general = as_general(game)
    found = [p for p in derived_probes(general, seed, spec.default_max_moves) if p.label == FORCED_PASS]
    return [(p.label, p.state) for p in found + declared_probes(general) if not game.is_terminal(p.state)]


def reply_times(times: list[float]) -> list[Check]:
    """The report's last line: the bot's reply times (ms), median, p95 and max; none without replies."""
    if not times:
        return []
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return [Check("reply times", True, f"{len(times)} replies: median {statistics.median(times):.1f} ms, "
                                       f"p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms")]


def _bot_replies(record: dict[str, Any], bot_id: str) -> list[float]:
    colours = {p["colour"] for p in record["players"] if p["id"] == bot_id}
    times = []
    states = record["game_states"]
    for index, turn in enumerate(record["turns"]):
        if turn.get("opening") or turn.get("charged_ms") is None:
            continue
        if states[index]["turn"] in colours:
            times.append(float(turn["charged_ms"]))
    return times


def _failure(record: dict[str, Any], bot_id: str) -> str | None:
    """The reason the bot lost by a fault in ``record``, with its stderr tail, or wrote on stdout
    outside its replies; None if neither."""
    for player in record["players"]:
        dropped = player.get("droppedOutput") if player["id"] == bot_id else None
        if isinstance(dropped, dict) and dropped.get("bytes"):
            return (f"wrote {dropped['bytes']} bytes on stdout outside its replies, starting "
                    f"{str(dropped.get('start', ''))[:40]!r} (dropped, never read as a move): is something "
                    "else written on stdout? Debug output belongs on stderr")
    if record["termination"] in OK_TERMINATIONS:
        return None
    loser = "WHITE" if record["winner"] == "BLACK" else "BLACK"
    if not any(p["id"] == bot_id and p["colour"] == loser for p in record["players"]):
        return f"the random agent failed ({record['termination']}): {record['reason']}"  # not the bot's fault
    reason = f"{record['termination']}: {record['reason']}"
    tail = (record.get("stderr_tail") or {}).get(loser) if isinstance(record.get("stderr_tail"), dict) else None
    if tail:
        reason += f" | its stderr ended with: {tail.strip()[-300:]!r}"
    return reason


async def check_bot(command: str, game_name: str, *, time_limit_ms: int = 5000, games: int = 2,
                    seed: int = 1, players: int | None = None, params: dict[str, int] | None = None,
                    legal_moves: bool = False, env: tuple[tuple[str, str], ...] = ()) -> list[Check]:
    """Run every check against ``command`` playing ``game_name`` (see the module docstring); a game
    of the general model goes to :func:`arena.tools.check_table_bot.check_table_bot` (with
    ``players``, ``params`` and ``legal_moves``). ``env``: extra environment variables of the bot (a
    config agent's ``env``). GameError for players or parameters the game refuses."""
    from arena.games.registry import GENERAL, get_spec

    spec = get_spec(game_name)
    if spec.model == GENERAL:
        from arena.tools.check_table_bot import check_table_bot

        return await check_table_bot(command, spec, players=players, params=params, time_limit_ms=time_limit_ms,
                                     games=games, seed=seed, legal_moves=legal_moves, env=env)
    if players not in (None, 2) or params:
        spec.table(players, params)  # a two-player game: GameError naming what it refuses
    game = spec.rules_object()
    bot = AgentSpec("bot", command=command, env=env)
    tc = TimeControl(time_limit_ms=time_limit_ms, startup_ms=min(2000, time_limit_ms))
    checks: list[Check] = []
    with tempfile.TemporaryDirectory(prefix="arena-check-bot-") as folder:
        hyp = Path(folder) / "random.json"
        hyp.write_text(json.dumps({"algorithm": "random", "seed": seed}))
        # Read by arena's random agent, which runs as a user of its own (nothing secret in it).
        os.chmod(folder, 0o755)
        hyp.chmod(0o644)
        opponent = AgentSpec("random", kind="hyperparameters", path=str(hyp))

        async def one(start: Any, plies: int, bot_colour: Color) -> dict[str, Any]:
            black, white = (bot, opponent) if bot_colour is Color.BLACK else (opponent, bot)
            cap = game.ply(start) + plies if plies else None
            return await play_game(game, black, white, time_control=tc, max_moves=cap, start_state=start)

        start = game.initial_state()
        record = await one(start, 1, Color.BLACK)
        failure = _failure(record, "bot")
        startup = record.get("duration_s")
        checks.append(Check("start-up and first reply (BLACK, the start position)", failure is None,
                            failure or f"answered within {float(startup or 0) * 1000:.0f} ms of starting",
                            [record]))
        for label, state in probe_positions(game, seed, spec.default_max_moves) + game_probes(game, seed, spec):
            to_move = game.to_move(state)
            record = await one(state, 3, to_move)
            failure = _failure(record, "bot")
            shown = game.state_to_json(state)
            checks.append(Check(label, failure is None,
                                failure or f"legal replies from turnNumber {shown['turnNumber']} "
                                           f"({to_move.value} to move)", [record]))
        for index in range(games):
            colour = Color.BLACK if index % 2 == 0 else Color.WHITE
            record = await one(start, 0, colour)
            failure = _failure(record, "bot")
            checks.append(Check(f"a whole game as {colour.value} against random", failure is None,
                                failure or f"{record['termination']} after {record['plies']} plies, "
                                           f"winner {record['winner']}", [record]))
    times = [t for c in checks for r in c.records for t in _bot_replies(r, "bot")]
    return checks + reply_times(times)
