"""`arena check-bot` for a game of the general model (N seats, chance, simultaneous moves, hidden
information: arena's own, a plugin's, OpenSpiel's ``spiel:`` games).

The bot plays through the real N-seat engine (:func:`arena.match.table.play_table`: the same clocks,
framing and fault reasons as any match); the seats it does not take get a small random player
(standard library Python, playing from its ``legalMoves``):

1. **start-up**: the start, the bot at every seat, a few steps;
2. **probes**: the positions :func:`arena.tools.probes.derived_probes` finds in the game itself (every
   seat, a forced pass, a single legal move, a chance outcome, a simultaneous move, a seat out)
   and the game's own ``probe_positions``; from each, a few steps with the bot at the probe's seats;
3. **games**: whole games, the bot at seat 0, 1, ... in turn, the random player at the others.

Every reply must be a legal move, flushed, in time: a failure is the engine's own fault reason,
naming the probe, plus the bot's stderr tail.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from arena.fileio.files import SHARED_FILE_MODE, SHARED_FOLDER_MODE
from arena.games.registry import GameSpec
from arena.match.game import TimeControl
from arena.match.table import play_table
from arena.players.spec import AgentSpec
from arena.tools.check_bot import Check, Probing, reply_times
from arena.tools.probes import MARGIN, declared_probes, derived_probes

#: The random player of the other seats: standalone, it answers from the legal moves it is sent.
RANDOM_SEAT = """import json, random, sys
rng = random.Random(int(sys.argv[1]))
for line in sys.stdin:
    message = json.loads(line) if line.strip() else None
    if isinstance(message, dict) and message.get("type") == "game_state":
        print(json.dumps({"type": "turn", "payload": rng.choice(message["legalMoves"])}), flush=True)
"""
#: Steps played from each probe position: the bot moves, the others answer, the bot moves again.
PROBE_STEPS = 3


def _failure(record: dict[str, Any], seats: tuple[int, ...]) -> tuple[str, str, int] | None:
    """How the bot (at ``seats``) failed in ``record``: its termination (``""`` when the random
    player failed), the reason with its stderr tail, and the game's ply it failed at; None if it did not."""
    for out in record.get("eliminations", []):
        reason = f"{out['termination']}: {out['reason']}"
        step = int(out["ply"])
        if out["seat"] not in seats:
            return "", f"the random player failed ({reason}): not the bot's fault", step
        tail = (record.get("stderr_tail") or {}).get(str(out["seat"]))
        if tail:
            reason += f" | its stderr ended with: {tail.strip()[-300:]!r}"
        return str(out["termination"]), reason, step
    return None


def _position(game: Any, start: Any, record: dict[str, Any], ply: int) -> str:
    """The text of the position at the game's ``ply`` in ``record``, played from ``start``."""
    from arena.games.model import apply_step

    state = start
    try:
        for entry in record.get("steps", []):
            if game.ply(state) >= ply:
                break
            state = apply_step(game, state, entry)
        return str(game.board_text(state))
    except Exception:  # noqa: BLE001 - a record the rules cannot replay: no position shown
        return ""


def _replies(record: dict[str, Any], seats: tuple[int, ...]) -> list[float]:
    """The bot's thinking times in ``record`` (ms), one per reply."""
    times = []
    for step in record.get("steps", []):
        if step["kind"] == "move" and step["seat"] in seats:
            times.append(float(step["charged_ms"]))
        elif step["kind"] == "joint":
            times += [float(ms) for seat, ms in step["charged_ms"].items() if int(seat) in seats]
    return times


async def check_table_bot(command: str, spec: GameSpec, *, players: int | None = None,
                          params: dict[str, int] | None = None, time_limit_ms: int = 5000, games: int = 2,
                          seed: int = 1, legal_moves: bool = False,
                          env: tuple[tuple[str, str], ...] = (), bot_id: str = "bot") -> list[Check]:
    """Run every check against ``command`` playing ``spec``'s game with ``players`` seats and
    ``params`` (see the module docstring); ``legal_moves``: the bot's messages list its legal moves;
    ``env``: extra environment variables of the bot (a config agent's ``env``); ``bot_id`` names it
    (not ``random<k>``). Stops once the same failure came twice. GameError when the game refuses the
    players or parameters."""
    game = spec.table(players, params)
    n = game.players
    tc = TimeControl(time_limit_ms=time_limit_ms, startup_ms=min(2000, time_limit_ms))
    played: list[tuple[dict[str, Any], tuple[int, ...]]] = []  # every record, with the bot's seats in it
    start = game.initial_state()
    probes = derived_probes(game, seed, game.default_max_moves) + declared_probes(game)
    probing = Probing(1 + len(probes) + games)
    with tempfile.TemporaryDirectory(prefix="arena-check-bot-") as folder:
        script = Path(folder) / "random_seat.py"
        script.write_text(RANDOM_SEAT)
        # Run by the random seats, which run as users of their own (nothing secret in it).
        os.chmod(folder, SHARED_FOLDER_MODE)
        script.chmod(SHARED_FILE_MODE)

        async def one(state: Any, seats: tuple[int, ...], steps: int | None) -> dict[str, Any]:
            agents = [AgentSpec(bot_id, command=command, env=env) if s in seats else
                      AgentSpec(f"random{s}", command=f"python3 {script} {seed + s}") for s in range(n)]
            cap = None if steps is None else min(game.default_max_moves, game.ply(state) + steps)
            shown = [s for s in range(n) if legal_moves or s not in seats]
            return await play_table(game, agents, time_control=tc, max_moves=cap, seed=seed, start_state=state,
                                    legal_moves_for=shown)

        def check(label: str, record: dict[str, Any], seats: tuple[int, ...], fine: str,
                  whole: bool = False) -> bool:
            failed = _failure(record, seats)
            if failed is None and not _replies(record, seats):
                fine = f"the bot was not asked (the game went {len(record['steps'])} steps without it)"
            played.append((record, seats))
            if failed is None:
                return probing.add(Check(label, True, fine, [record]))
            kind, reason, step = failed
            found = Check(label, False, reason, [record], kind=kind or None)
            if whole:
                found.ply, found.position = step, _position(game, start, record, step)
            return probing.add(found)

        async def run() -> None:
            everyone = tuple(range(n))
            record = await one(start, everyone, 2 * n + MARGIN)
            if not check("start-up and first reply (every seat, the start)", record, everyone,
                         f"answered within {float(record.get('duration_s') or 0) * 1000:.0f} ms of starting"):
                return
            for probe in probes:
                record = await one(probe.state, probe.seats, PROBE_STEPS)
                at = ", ".join(map(str, probe.seats))
                if not check(probe.label, record, probe.seats,
                             f"legal replies from step {game.ply(probe.state)} (the bot at seat {at})"):
                    return
            for index in range(games):
                seats = (index % n,)
                record = await one(start, seats, None)
                ranks = record["ranks"]
                if not check(f"a whole game at seat {seats[0]} against random", record, seats,
                             f"{record['termination']} after {len(record['steps'])} steps, "
                             f"rank {ranks[seats[0]]} of {n}", whole=True):
                    return

        await run()
    times = [t for record, seats in played for t in _replies(record, seats)]
    return probing.checks + probing.stopped() + reply_times(times)
