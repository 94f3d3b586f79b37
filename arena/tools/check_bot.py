"""`arena check-bot`: a conformance report for one bot, in well under a minute, for every game.

The bot plays short games through the real engine (the same clocks, framing and fault reasons as
any match); the seats it does not take get a random player:

1. **start-up**: the start position, the bot as BLACK, or at every seat of an N-seat game (the time
   to its first reply is reported);
2. **probes**: positions that exercise a protocol's corners. In each the bot moves, the others
   answer, and the bot moves again: a reply that is not alone on stdout (a debug line) is read as
   the next move and fails there. A board game of the colour dialect (``colour_dialect``: BLACK and
   WHITE) gets :func:`board_probes`, found by random play and recognised from the records' board
   only: playing WHITE, a single legal move, few legal moves, a capture available, a forced
   capture, a capture of two or more pieces in one move, a move that changes a piece's kind
   (crowning); then a forced pass. Any other game's (N seats, chance, simultaneous moves: arena's
   own, plugins, referees', OpenSpiel's) are :func:`arena.tools.probes.derived_probes`, found in
   the game itself (every seat, a forced pass, a single legal move, a chance outcome, a
   simultaneous move, a seat out). Every game adds its own ``probe_positions``;
3. **games**: full games, the bot with both colours (or at seat 0, 1, ... in turn).

Every game is read through the one game interface (:class:`arena.games.model.GeneralGame`) and
plays through the one match loop (:func:`arena.match.game.play_game`): a game of the colour dialect
on its own rules, in its own wire dialect, with arena's own random agent as the opponent; any other
with a small standard-library random player at the other seats, playing from its ``legalMoves``.
Every reply must be a legal move, flushed, in time: a failure is
the engine's own fault reason (with its hints: an unflushed reply, the wrong ``--game``) plus the
bot's stderr tail.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.fileio.files import SHARED_FILE_MODE, SHARED_FOLDER_MODE
from arena.games.base import Color
from arena.games.model import GeneralGame
from arena.match.clock import TimeControl
from arena.match.game import play_game
from arena.players.spec import AgentSpec

OK_TERMINATIONS = {"win", "no_legal_moves", "max_moves", "draw"}
#: Random playouts searched for probe positions (seeded: the same positions every run).
PLAYOUTS = 60
#: The ``kind`` of the report's line saying how many checks were not run.
SKIPPED = "skipped"


@dataclass
class Check:
    """One line of the report: ``ok`` with a figure, or a failure with what went wrong and a hint."""

    name: str
    ok: bool
    detail: str
    records: list[dict[str, Any]] = field(default_factory=list, repr=False)
    #: Where a whole game failed: the ply and the position's text (the game's ``board_text``).
    ply: int | None = None
    position: str | None = None
    #: What kind of failure (the termination, or ``stdout`` for output outside the replies).
    kind: str | None = None
    #: The bot's reply times in ``records`` (ms), for the report's last line.
    replies: list[float] = field(default_factory=list, repr=False)

    @property
    def skipped(self) -> bool:
        """The line that says how many checks were not run (:meth:`Probing.stopped`), not a check."""
        return self.kind == SKIPPED

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"name": self.name, "ok": self.ok, "detail": self.detail}
        if self.position is not None:
            shown |= {"ply": self.ply, "position": self.position}
        if self.skipped:
            shown["skipped"] = True
        return shown


#: Probing stops once the same kind of failure has come this many times: the rest would repeat it.
SAME_FAILURE_LIMIT = 2


class Probing:
    """The checks of one run, in order, stopped once the same kind of failure came
    :data:`SAME_FAILURE_LIMIT` times (a bot that never flushes fails every check the same way)."""

    def __init__(self, planned: int) -> None:
        self.planned = planned
        self.checks: list[Check] = []
        self._kinds: dict[str, int] = {}

    def add(self, check: Check) -> bool:
        """Record ``check``; False when probing should stop."""
        self.checks.append(check)
        if check.ok or check.kind is None:
            return True
        self._kinds[check.kind] = self._kinds.get(check.kind, 0) + 1
        return self._kinds[check.kind] < SAME_FAILURE_LIMIT

    def stopped(self) -> list[Check]:
        """The line saying how many checks were not run, if probing stopped early."""
        left = self.planned - len(self.checks)
        if left <= 0:
            return []
        kind = self.checks[-1].kind
        return [Check("not run", False, f"stopped after the same failure ({kind}) {SAME_FAILURE_LIMIT} times: "
                                        f"{left} more check{'s' if left > 1 else ''} would repeat it; fix it and "
                                        "run again", kind=SKIPPED)]


def _board_chars(game: GeneralGame[Any, Any], state: Any) -> str:
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


def _move_effects(game: GeneralGame[Any, Any], state: Any, seat: int) -> list[tuple[int, int]]:
    """For each of ``seat``'s legal moves: (pieces taken, kings made), read from the board before and after."""
    before = _board_chars(game, state)
    effects = []
    for move in game.legal_moves(state, seat):
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


def board_probes(game: GeneralGame[Any, Any], seed: int, cap: int) -> list[tuple[str, Any]]:
    """``(label, state)`` pairs of a board game of turns: the start after one random ply (WHITE to
    move), then the first position met in seeded random play for each probe of :data:`PROBES` that
    the game has (read from the records' board only)."""
    rng = random.Random(seed)
    start = game.initial_state()
    first = game.legal_moves(start, game.actor(start))
    found: list[tuple[str, Any]] = [("playing WHITE", game.apply(start, rng.choice(first)))]
    wanted = dict(PROBES)
    for _ in range(PLAYOUTS):
        state = start
        while wanted and not game.is_terminal(state) and game.ply(state) < cap - 3:
            seat = game.actor(state)
            effects = _move_effects(game, state, seat)
            for label, test in list(wanted.items()):
                if test(effects):
                    found.append((label, state))
                    del wanted[label]
                    break  # one probe per position: the others wait for positions of their own
            state = game.apply(state, rng.choice(game.legal_moves(state, seat)))
        if not wanted:
            break
    return found


def colour_probes(game: GeneralGame[Any, Any], seed: int, cap: int) -> list[tuple[str, Any]]:
    """Every probe of a game of the colour dialect: :func:`board_probes`, then a forced pass
    (:func:`arena.tools.probes.derived_probes`) and the game's own ``probe_positions``."""
    from arena.tools.probes import FORCED_PASS, declared_probes, derived_probes

    found = [p for p in derived_probes(game, seed, cap) if p.label == FORCED_PASS]
    return board_probes(game, seed, cap) + [(p.label, p.state) for p in found + declared_probes(game)
                                            if not game.is_terminal(p.state)]


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


def _failure(record: dict[str, Any], bot_id: str) -> tuple[str, str] | None:
    """The kind of fault the bot lost by in ``record`` (its termination) and the reason, with its
    stderr tail; or ``stdout`` when it wrote on stdout outside its replies; None if neither."""
    for player in record["players"]:
        dropped = player.get("droppedOutput") if player["id"] == bot_id else None
        if isinstance(dropped, dict) and dropped.get("bytes"):
            return "stdout", (f"wrote {dropped['bytes']} bytes on stdout outside its replies, starting "
                              f"{str(dropped.get('start', ''))[:40]!r} (dropped, never read as a move): is "
                              "something else written on stdout? Debug output belongs on stderr")
    if record["termination"] in OK_TERMINATIONS:
        return None
    loser = "WHITE" if record["winner"] == "BLACK" else "BLACK"
    if not any(p["id"] == bot_id and p["colour"] == loser for p in record["players"]):
        # Not the bot's fault: no kind, so it never stops the probing.
        return "", f"the random agent failed ({record['termination']}): {record['reason']}"
    reason = f"{record['termination']}: {record['reason']}"
    tails = record.get("stderr_tail")  # by seat number: BLACK "0", WHITE "1"
    tail = tails.get("1" if loser == "WHITE" else "0") if isinstance(tails, dict) else None
    if tail:
        reason += f" | its stderr ended with: {tail.strip()[-300:]!r}"
    return record["termination"], reason


def _check(label: str, record: dict[str, Any], bot_id: str, fine: str) -> Check:
    failed, replies = _failure(record, bot_id), _bot_replies(record, bot_id)
    if failed is None:
        return Check(label, True, fine, [record], replies=replies)
    return Check(label, False, failed[1], [record], kind=failed[0] or None, replies=replies)


def _where_it_failed(game: Any, check: Check) -> Check:
    """``check`` of a whole game with the ply and position (text) where the bot failed; ``game``:
    anything with ``state_from_json`` and ``board_text(state)``."""
    record = check.records[0]
    states = record.get("game_states") or []
    if check.ok or not states:
        return check
    try:
        shown = game.board_text(game.state_from_json(states[-1]))
    except Exception:  # noqa: BLE001 - a game without a readable board: the ply alone
        shown = ""
    check.ply, check.position = int(record.get("plies", len(states) - 1)), shown
    return check


def safe_bot_id(bot_id: str) -> str:
    """``bot_id`` for check-bot's games, kept apart from the random opponents' ids (``random``,
    ``random<seat>``)."""
    return f"{bot_id}-bot" if bot_id.rstrip("0123456789") == "random" else bot_id


#: A check to run: plays its games when awaited.
Trial = Callable[[], Awaitable[Check]]


async def check_bot(command: str, game_name: str, *, time_limit_ms: int = 5000, games: int = 2,
                    seed: int = 1, players: int | None = None, params: dict[str, int] | None = None,
                    legal_moves: bool = False, env: tuple[tuple[str, str], ...] = (),
                    bot_id: str = "bot") -> list[Check]:
    """Run every check against ``command`` playing ``game_name`` with ``players`` seats and
    ``params`` (see the module docstring), named ``bot_id`` in its games' reasons; ``legal_moves``:
    an N-seat bot's messages list its legal moves; ``env``: extra environment variables of the bot
    (a config agent's ``env``). Stops once the same failure came twice (:class:`Probing`).
    GameError for players or parameters the game refuses."""
    from arena.games.registry import get_spec

    bot_id = safe_bot_id(bot_id)
    spec = get_spec(game_name)
    game = spec.table(players, params)  # GameError naming what the game refuses
    bot = AgentSpec(bot_id, command=command, env=env)
    tc = TimeControl(time_limit_ms=time_limit_ms, startup_ms=min(2000, time_limit_ms))
    if game.colour_dialect:  # its own rules and wire dialect, a random agent as the opponent
        with _opponent_file("random.json", json.dumps({"algorithm": "random", "seed": seed})) as hyp:
            opponent = AgentSpec("random", kind="hyperparameters", path=str(hyp))
            return await _run(_colour_trials(game, spec, bot, opponent, tc, seed, games))
    with _opponent_file("random_seat.py", RANDOM_SEAT) as script:
        return await _run(_seat_trials(game, bot, script, tc, seed, games, legal_moves))


@contextmanager
def _opponent_file(name: str, text: str) -> Iterator[Path]:
    """A file ``name`` holding ``text`` in a fresh folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="arena-check-bot-") as folder:
        path = Path(folder) / name
        path.write_text(text)
        # Read by the random players, which run as users of their own (nothing secret in it).
        os.chmod(folder, SHARED_FOLDER_MODE)
        path.chmod(SHARED_FILE_MODE)
        yield path


async def _run(trials: list[Trial]) -> list[Check]:
    """The checks of ``trials`` in order, stopped as :class:`Probing` says, then the reply times."""
    probing = Probing(len(trials))
    for trial in trials:
        if not probing.add(await trial()):
            break
    times = [t for c in probing.checks for t in c.replies]
    return probing.checks + probing.stopped() + reply_times(times)


def _colour_trials(game: GeneralGame[Any, Any], spec: Any, bot: AgentSpec, opponent: AgentSpec, tc: TimeControl,
                   seed: int, games: int) -> list[Trial]:
    """A game of the colour dialect: start-up as BLACK, the probes, whole games with each colour,
    played on the spec's own rules (its wire dialect, its records)."""
    bot_id = bot.id
    probes = colour_probes(game, seed, spec.default_max_moves)
    start = game.initial_state()
    from arena.games.registry import configured_game

    rules = configured_game(spec.name)  # its own wire dialect

    async def one(state: Any, plies: int, bot_colour: Color) -> dict[str, Any]:
        black, white = (bot, opponent) if bot_colour is Color.BLACK else (opponent, bot)
        cap = game.ply(state) + plies if plies else None
        return await play_game(rules, black, white, time_control=tc, max_moves=cap, start_state=state)

    async def startup() -> Check:
        record = await one(start, 1, Color.BLACK)
        return _check("start-up and first reply (BLACK, the start position)", record, bot_id,
                      f"answered within {float(record.get('duration_s') or 0) * 1000:.0f} ms of starting")

    def probe(label: str, state: Any) -> Trial:
        async def trial() -> Check:
            to_move = Color(game.seat_names[game.actor(state)])
            record = await one(state, 3, to_move)
            return _check(label, record, bot_id, f"legal replies from turnNumber {game.ply(state)} "
                                                 f"({to_move.value} to move)")
        return trial

    def whole(index: int) -> Trial:
        async def trial() -> Check:
            colour = Color.BLACK if index % 2 == 0 else Color.WHITE
            record = await one(start, 0, colour)
            return _where_it_failed(game, _check(
                f"a whole game as {colour.value} against random", record, bot_id,
                f"{record['termination']} after {record['plies']} plies, winner {record['winner']}"))
        return trial

    return [startup] + [probe(label, state) for label, state in probes] + [whole(i) for i in range(games)]


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


def _seat_failure(record: dict[str, Any], seats: tuple[int, ...]) -> tuple[str, str, int] | None:
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


def _seat_position(game: Any, start: Any, record: dict[str, Any], ply: int) -> str:
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


def _seat_replies(record: dict[str, Any], seats: tuple[int, ...]) -> list[float]:
    """The bot's thinking times in ``record`` (ms), one per reply."""
    times = []
    for step in record.get("steps", []):
        if step["kind"] == "move" and step["seat"] in seats:
            times.append(float(step["charged_ms"]))
        elif step["kind"] == "joint":
            times += [float(ms) for seat, ms in step["charged_ms"].items() if int(seat) in seats]
    return times


def _seat_trials(game: GeneralGame[Any, Any], bot: AgentSpec, script: Path, tc: TimeControl, seed: int,
                 games: int, legal_moves: bool) -> list[Trial]:
    """An N-seat game's checks: start-up at every seat, the probes, whole games at each seat in turn;
    the random player (``script``) at the seats the bot does not take."""
    from arena.match.game import play_game
    from arena.tools.probes import MARGIN, declared_probes, derived_probes

    n = game.players
    start = game.initial_state()
    probes = derived_probes(game, seed, game.default_max_moves) + declared_probes(game)

    async def one(state: Any, seats: tuple[int, ...], steps: int | None) -> dict[str, Any]:
        agents = [bot if s in seats else AgentSpec(f"random{s}", command=f"python3 {script} {seed + s}")
                  for s in range(n)]
        cap = None if steps is None else min(game.default_max_moves, game.ply(state) + steps)
        shown = [s for s in range(n) if legal_moves or s not in seats]
        return await play_game(game, *agents, time_control=tc, max_moves=cap, seed=seed, start_state=state,
                                legal_moves_for=shown)

    def check(label: str, record: dict[str, Any], seats: tuple[int, ...], fine: str, whole: bool = False) -> Check:
        failed, replies = _seat_failure(record, seats), _seat_replies(record, seats)
        if failed is None:
            if not replies:
                fine = f"the bot was not asked (the game went {len(record['steps'])} steps without it)"
            return Check(label, True, fine, [record], replies=replies)
        kind, reason, step = failed
        found = Check(label, False, reason, [record], kind=kind or None, replies=replies)
        if whole:
            found.ply, found.position = step, _seat_position(game, start, record, step)
        return found

    async def startup() -> Check:
        everyone = tuple(range(n))
        record = await one(start, everyone, 2 * n + MARGIN)
        return check("start-up and first reply (every seat, the start)", record, everyone,
                     f"answered within {float(record.get('duration_s') or 0) * 1000:.0f} ms of starting")

    def probe(label: str, state: Any, seats: tuple[int, ...]) -> Trial:
        async def trial() -> Check:
            record = await one(state, seats, PROBE_STEPS)
            at = ", ".join(map(str, seats))
            return check(label, record, seats, f"legal replies from step {game.ply(state)} (the bot at seat {at})")
        return trial

    def whole(index: int) -> Trial:
        async def trial() -> Check:
            seats = (index % n,)
            record = await one(start, seats, None)
            return check(f"a whole game at seat {seats[0]} against random", record, seats,
                         f"{record['termination']} after {len(record['steps'])} steps, "
                         f"rank {record['ranks'][seats[0]]} of {n}", whole=True)
        return trial

    return [startup] + [probe(p.label, p.state, p.seats) for p in probes] + [whole(i) for i in range(games)]
