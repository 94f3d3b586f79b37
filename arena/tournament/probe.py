"""What the roster probe adds to check-bot's checks (``arena roster check --probe``, ``arena run
--set-aside-failing``): the middle game, the pace, and a memory per version.

check-bot's whole games are against arena's random agent, which a good bot beats in a few moves:
a fault that only shows in the middle game (a crash on the 5th move) or on a long game's clock
(1.5 s a move) never shows. So the probe also plays **whole games against a stronger opponent**
(arena's search agent: alpha-beta to depth 2 where the game has a search adapter, else MCTS), at
the tournament's own time control, colours alternating, until the bot has made
:data:`MIN_BOT_MOVES` moves in one game (or :data:`MIDDLE_GAMES` games were played): a fault there
fails the probe like any check. And it **warns** when the bot's median reply time, times its
moves in a typical game (half the median length of seeded random games), exceeds the time
control: a bot that would lose on time in the tournament.

A probe that passed is kept per version of the bot (:func:`arena.tournament.versions.agent_version`)
and per game, players, parameters and time control, in ``<logs>/.probes/``: an unchanged bot is not
probed again. A failure is not kept (it is probed again: a busy machine may have caused it).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from arena.agents.parts import search_ref
from arena.fileio.files import SHARED_FILE_MODE, SHARED_FOLDER_MODE, atomic_write
from arena.games.base import ArenaError, Color
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec
from arena.tools.check_bot import Check, _bot_replies, _check, _where_it_failed, safe_bot_id

#: The probe's format: a kept result of another format is probed again.
PROBE_FORMAT = 1
#: The bot's moves in one game that count as having reached the middle game.
MIN_BOT_MOVES = 12
#: Games against the stronger opponent at most, colours alternating.
MIDDLE_GAMES = 4
#: Seeded random games whose median length is a game's typical length.
TYPICAL_GAMES = 25
#: Where, under the logs folder, passed probes are kept.
PROBES_FOLDER = ".probes"


@dataclass(frozen=True)
class MiddleGame:
    """What the games against the stronger opponent found: ``check`` (its failure, or None when
    it is a game of N seats, which check-bot's games cover), the bot's reply times (ms) and the
    most moves it made in one game."""

    check: Check | None
    times: tuple[float, ...]
    most_moves: int


def _opponent(spec: Any, folder: Path, seed: int) -> AgentSpec:
    """arena's search agent, stronger than random: alpha-beta to depth 2 with the game's evaluation,
    or MCTS for a game without a search adapter. Its file is readable by the user it runs as."""
    settings = {"algorithm": "alphabeta", "maxDepth": 2, "seed": seed} if search_ref(spec) is not None else \
        {"algorithm": "mcts", "iterations": 100, "seed": seed}
    path = folder / "opponent.json"
    path.write_text(json.dumps(settings))
    os.chmod(folder, SHARED_FOLDER_MODE)
    path.chmod(SHARED_FILE_MODE)
    return AgentSpec("arena-search", kind="hyperparameters", path=str(path))


async def middle_game(command: str, spec: Any, *, time_limit_ms: int, seed: int = 1,
                      env: tuple[tuple[str, str], ...] = (), bot_id: str = "bot") -> MiddleGame:
    """Whole games of ``command`` against the stronger opponent (module docstring), at
    ``time_limit_ms`` a game each, until one reaches :data:`MIN_BOT_MOVES` of the bot's moves or a
    game fails. Two-player games only: a game of N seats gives ``check`` None."""
    from arena.games.registry import GENERAL, configured_game

    if spec.model == GENERAL:
        return MiddleGame(None, (), 0)
    bot_id = safe_bot_id(bot_id)
    game = spec.rules_object()
    played = configured_game(spec.name)  # its own wire dialect
    bot = AgentSpec(bot_id, command=command, env=env)
    tc = TimeControl(time_limit_ms=time_limit_ms, startup_ms=min(2000, time_limit_ms))
    times: list[float] = []
    most = 0
    check: Check | None = None
    with tempfile.TemporaryDirectory(prefix="arena-probe-") as folder:
        opponent = _opponent(spec, Path(folder), seed)
        if bot_id == opponent.id:
            bot_id = f"{bot_id}-bot"
            bot = AgentSpec(bot_id, command=command, env=env)
        for index in range(MIDDLE_GAMES):
            colour = Color.BLACK if index % 2 == 0 else Color.WHITE
            black, white = (bot, opponent) if colour is Color.BLACK else (opponent, bot)
            record = await play_game(played, black, white, time_control=tc, seed=seed + index)
            replies = _bot_replies(record, bot_id)
            times += replies
            most = max(most, len(replies))
            check = _where_it_failed(game, _check(
                f"a whole game as {colour.value} against arena's search agent", record, bot_id,
                f"{record['termination']} after {record['plies']} plies ({len(replies)} of the bot's moves)"))
            if not check.ok or most >= MIN_BOT_MOVES:
                break
    return MiddleGame(check, tuple(times), most)


def typical_bot_moves(spec: Any, seed: int = 1, players: int | None = None,
                      params: dict[str, int] | None = None) -> float:
    """A seat's moves in a typical game: the median length, in steps, of :data:`TYPICAL_GAMES`
    seeded random games (each capped at the game's move cap), divided by the number of seats."""
    from arena.games.model import TERMINAL, random_step

    game = spec.table(players, params)
    rng = random.Random(seed)
    lengths = []
    for _ in range(TYPICAL_GAMES):
        state, steps = game.initial_state(), 0
        while game.actor(state) != TERMINAL and steps < spec.default_max_moves:
            state = random_step(game, state, rng)
            steps += 1
        lengths.append(steps)
    return statistics.median(lengths) / game.players


def pace_warning(times: list[float], typical_moves: float, time_limit_ms: int) -> str | None:
    """A warning when the median of ``times`` (ms) times ``typical_moves`` exceeds ``time_limit_ms``
    (a game's budget), else None."""
    if not times:
        return None
    median = statistics.median(times)
    needs = median * typical_moves
    if needs <= time_limit_ms:
        return None
    return (f"too slow for the time control: median reply {median:.0f} ms x {typical_moves:g} moves in a typical "
            f"game = {needs / 1000:.1f} s, more than timeLimit {time_limit_ms / 1000:g} s: it would lose on time")


def probe_key(version: str, game: str, players: int | None, params: dict[str, int] | None, legal_moves: bool,
              time_limit_ms: int) -> str:
    """The name a probe of this bot version in this setting is kept under."""
    identity = {"format": PROBE_FORMAT, "version": version, "game": game, "players": players,
                "params": params or {}, "legalMoves": legal_moves, "timeLimit": time_limit_ms}
    return hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


def kept_probe(logs_root: Path, key: str) -> dict[str, Any] | None:
    """The probe kept under ``key``, or None (none kept, or a file that cannot be read as one)."""
    try:
        kept = orjson.loads((logs_root / PROBES_FOLDER / f"{key}.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return kept if isinstance(kept, dict) and isinstance(kept.get("checks"), list) else None


def keep_probe(logs_root: Path, key: str, result: dict[str, Any]) -> None:
    """Keeps ``result`` under ``key`` (atomically; a folder that cannot be written keeps nothing)."""
    folder = logs_root / PROBES_FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / f"{key}.json", orjson.dumps(result))
    except (OSError, ArenaError):
        return  # the probe's result stands; only the memory of it is lost
