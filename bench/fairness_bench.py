"""Is anything but a bot's own thinking charged to its clock in a big tournament? (issue 8, item 1)

The scenario: a Shobu round robin of ``--agents`` (40) bots with ``--prefill`` (800) games already in
``games.jsonl`` (written directly, so the standings are costly from the first new game on),
``timeLimit`` ``--time-limit`` (300 ms), ``--concurrency`` (2), bots that sleep ``--think-ms`` (2 ms)
per move, stopped after ``--games`` (300) new games.

Each bot times itself: from having read its input line to having flushed its reply, and writes
``think <ms>`` on stderr per move (the runner keeps each bot's stderr in ``stderr/``). The bots do no
rules work: they replay a quiet 4-ply cycle of Shobu moves found here, chosen by the state's
``turnNumber``, so every game goes the distance (``--max-moves`` plies, a draw). Printed: arena's
charged time minus the bot's own measure per move (each bot's first move left out: it is charged
after the start-up allowance), as median, 99th percentile and maximum, and the number of games
lost on time (goal: 0 timeouts, p99 <= 5 ms, max <= 20 ms at concurrency 2 on a 2-core machine).

    .venv/bin/python bench/fairness_bench.py [--agents 40] [--prefill 800] [--games 300]
        [--concurrency 2] [--time-limit 300] [--think-ms 2] [--max-moves 20]
        [--reporter silent|plain|rich] [--bootstrap 200]

Also printed: how late a task that sleeps 1 ms again and again wakes up (the event loop held up by
arena's own work, a thread holding the GIL, or no free CPU).

``--reporter rich`` draws the live progress bar (into a buffer, as if on a terminal) to see whether
its refresh thread delays the event loop; ``plain`` prints one line per game into a buffer.
``--no-stats-worker`` writes the standings and per-agent files only at the end (for comparison).
The bench runs against older arena versions too (copy it into a worktree of that commit): that is
how the before/after figures of issue 8 were taken. Other work on the machine shows in every figure:
note the load average printed first.

Measured (2 cores; ``.venv/bin/python bench/fairness_bench.py``): before the standings worker (commit
370d9c3, load 1.8) 15 timeouts in 300 games, charged - own p99 24 ms, max 269 ms, the event loop
once 1.2 s late; after (load 0.5) 0 timeouts, median 0.06 ms, p99 3.7 ms, max 7.2 ms.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import trio

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from arena.games import GameError, get_game  # noqa: E402
from arena.tournament.config import load_config  # noqa: E402
from arena.tournament.runner import RunOptions, SilentReporter, Tournament  # noqa: E402
from arena.tournament.schedule import build_schedule  # noqa: E402

# argv: a file holding the four reply lines as JSON, think ms. Replies moves[turnNumber % 4] (black moves at even
# turn numbers), timing itself from the read of its input to the flush of its reply.
BOT = r"""
import json, sys, time
replies = [r.encode() + b"\n" for r in json.loads(open(sys.argv[1]).read())]
think = float(sys.argv[2]) / 1000.0
out, err, readline = sys.stdout.buffer, sys.stderr, sys.stdin.buffer.readline
while True:
    line = readline()
    if not line:
        break
    begun = time.perf_counter()
    turn = json.loads(line)["payload"]["turnNumber"]
    time.sleep(think)
    out.write(replies[turn % 4])
    out.flush()
    err.write("think %.6f\n" % ((time.perf_counter() - begun) * 1000.0))
    err.flush()
"""


def shobu_cycle() -> list[str]:
    """Reply lines of four quiet Shobu moves (black, white, black, white) that bring back the start."""
    game = get_game("shobu")
    start = game.initial_state()
    board0 = game.state_to_json(start)["board"]

    def inverse(move: Any) -> Any:
        wire = game.move_to_wire(move)
        for part in ("passive", "aggressive"):
            origin, heading = wire[part]["origin"], wire[part]["heading"]
            wire[part] = {"origin": {"x": origin["x"] + heading["x"], "y": origin["y"] + heading["y"]},
                          "heading": {"x": -heading["x"], "y": -heading["y"]}}
        return game.parse_move(wire)

    def stones(state: Any) -> tuple[int, int]:
        board = game.state_to_json(state)["board"]
        return board.count("x"), board.count("o")

    for m1 in game.legal_moves(start):
        s1 = game.apply(start, m1)
        if stones(s1) != stones(start):
            continue
        for w1 in game.legal_moves(s1):
            s2 = game.apply(s1, w1)
            if stones(s2) != stones(start):
                continue
            try:
                m2 = game.validate_move(s2, inverse(m1))
                s3 = game.apply(s2, m2)
                w2 = game.validate_move(s3, inverse(w1))
            except GameError:  # the inverse move is not legal there: try another
                continue
            if game.state_to_json(game.apply(s3, w2))["board"] == board0:
                return [orjson.dumps({"type": "turn", "payload": game.move_to_wire(m)}).decode()
                        for m in (m1, w1, m2, w2)]
    raise SystemExit("no quiet 4-ply Shobu cycle found")


def write_config(folder: Path, args: argparse.Namespace) -> Path:
    bot = folder / "fairbot.py"
    bot.write_text(BOT)
    replies = folder / "replies.json"
    replies.write_text(json.dumps(shobu_cycle()))
    command = " ".join([sys.executable, str(bot), str(replies), str(args.think_ms)])
    obj = {"id": "fair", "game": "shobu", "tournamentType": "roundRobin", "gamesPerPair": 2,
           "timeLimit": args.time_limit, "maxMoves": args.max_moves, "seed": 1,
           "agents": [{"type": "executable", "id": f"a{i:02d}", "path": command} for i in range(args.agents)]}
    path = folder / "fair.json"
    path.write_text(json.dumps(obj))
    return path


def prefill(config_path: Path, logs: Path, count: int) -> None:
    """``count`` finished games of the schedule, written as the runner would list them."""
    config = load_config(config_path)
    folder = logs / config.id
    for sub in (folder, folder / "games", folder / "stderr"):
        sub.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_bytes(orjson.dumps(config.to_json(), option=orjson.OPT_INDENT_2))
    rng = random.Random(7)
    lines = []
    schedule = build_schedule(config.tournament_type, config.agent_ids, games_per_pair=config.games_per_pair,
                              seed=config.seed)
    for game in schedule:
        if game.index >= count:
            break
        winner = rng.choice(["BLACK", "WHITE", "NONE"])
        lines.append(orjson.dumps({
            "index": game.index, "pair": game.pair, "black": game.black, "white": game.white,
            "players": [{"id": game.black, "colour": "BLACK"}, {"id": game.white, "colour": "WHITE"}],
            "winner": winner, "result": {"BLACK": "1-0", "WHITE": "0-1", "NONE": "1/2-1/2"}[winner],
            "termination": "win" if winner != "NONE" else "max_moves", "reason": "prefilled",
            "plies": 20, "duration_s": 0.1, "started_at": "2026-01-01T00:00:00Z",
            "record": f"games/{game.index:05d}.json"}))
    (folder / "games.jsonl").write_bytes(b"\n".join(lines) + b"\n")


class StopAfter(SilentReporter):
    """Cancels ``scope`` once ``count`` games have finished (the inner reporter still reports)."""

    def __init__(self, count: int, inner: Any) -> None:
        self.count, self.inner = count, inner
        self.scope = trio.CancelScope()

    def started(self, **kw: Any) -> None:
        self.inner.started(**kw)

    def game_started(self, game: Any) -> None:
        self.inner.game_started(game)

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        self.inner.game_finished(row, done, stats)
        self.count -= 1
        if self.count == 0:
            self.scope.cancel()

    def close(self) -> None:
        self.inner.close()


def make_reporter(kind: str) -> Any:
    if kind == "silent":
        return SilentReporter()
    from rich.console import Console

    from arena.ui.standings import PlainReporter, RichReporter

    console = Console(file=io.StringIO(), force_terminal=kind == "rich", width=120)
    return RichReporter(console) if kind == "rich" else PlainReporter(console)


async def probe_lag(lags: list[float]) -> None:
    """Sleep 1 ms again and again and keep how late each wake-up was: how long the event loop was
    held up by something (arena's own work, a thread holding the GIL, no free CPU)."""
    while True:
        began = trio.current_time()
        await trio.sleep(0.001)
        lags.append((trio.current_time() - began - 0.001) * 1000.0)


def run(config_path: Path, logs: Path, args: argparse.Namespace,
        lags: list[float]) -> tuple[float, float]:
    reporter = StopAfter(args.games, make_reporter(args.reporter))
    # Only when asked, so that the bench also runs on arena versions without the worker (before/after).
    extra = {"stats_worker": False} if args.no_stats_worker else {}
    tournament = Tournament(load_config(config_path),
                            RunOptions(logs_root=logs, concurrency=args.concurrency,
                                       bootstrap_samples=args.bootstrap, **extra), reporter)
    tournament.prepare()
    timings: dict[str, float] = {}

    async def main() -> None:
        began = time.perf_counter()
        try:
            with reporter.scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(probe_lag, lags)
                    await tournament.play()
                    nursery.cancel_scope.cancel()
        finally:
            timings["play"] = time.perf_counter() - began
            reporter.close()
            began = time.perf_counter()
            await tournament.finish(interrupted=True)
            timings["finish"] = time.perf_counter() - began

    trio.run(main)
    return timings["play"], timings["finish"]


def differences(folder: Path, skip: int) -> tuple[list[float], list[dict[str, Any]]]:
    """charged - own (ms) of every move past each bot's first, and the new games' rows."""
    rows = [orjson.loads(line) for line in (folder / "games.jsonl").read_bytes().splitlines() if line.strip()]
    new = [r for r in rows if r["index"] >= skip]
    out: list[float] = []
    for row in new:
        record = orjson.loads((folder / row["record"]).read_bytes())
        own = []
        for colour in ("BLACK", "WHITE"):
            log = folder / record["stderr_logs"][colour]
            own.append([float(line.split()[1]) for line in log.read_text().splitlines()
                        if line.startswith("think ")])
        in_order = [ms for pair in zip(*own, strict=False) for ms in pair] + own[0][len(own[1]):]
        charged = record["move_times_ms"]
        out.extend(c - o for c, o in list(zip(charged, in_order, strict=False))[2:])
    return out, new


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--agents", type=int, default=40)
    parser.add_argument("--prefill", type=int, default=800)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--time-limit", type=int, default=300)
    parser.add_argument("--think-ms", type=float, default=2.0)
    parser.add_argument("--max-moves", type=int, default=20)
    parser.add_argument("--reporter", choices=("silent", "plain", "rich"), default="silent")
    parser.add_argument("--bootstrap", type=int, default=200)
    parser.add_argument("--no-stats-worker", action="store_true",
                        help="write standings and per-agent files only at the end (for comparison)")
    parser.add_argument("--keep", metavar="DIR", help="write the logs here instead of a temporary folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep) if args.keep else Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        config_path = write_config(base, args)
        logs = base / "logs"
        prefill(config_path, logs, args.prefill)
        print(f"fairness bench: {args.agents} agents, {args.prefill} games already logged, "
              f"{args.games} new games, timeLimit {args.time_limit} ms, concurrency {args.concurrency}, "
              f"bots sleep {args.think_ms} ms per move, maxMoves {args.max_moves}, reporter {args.reporter}, "
              f"{os.cpu_count()} cores (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
        lags: list[float] = []
        play_s, finish_s = run(config_path, logs, args, lags)
        diffs, rows = differences(logs / "fair", args.prefill)
        terminations: dict[str, int] = {}
        for row in rows:
            terminations[row["termination"]] = terminations.get(row["termination"], 0) + 1
        diffs.sort()
        count = len(diffs)
        if not count:
            raise SystemExit("no moves measured")
        print(f"  {len(rows)} games in {play_s:.1f} s (final standings and files {finish_s:.1f} s); "
              f"terminations {dict(sorted(terminations.items()))}")
        print(f"  charged - own think over {count} moves: median {statistics.median(diffs):.3f} ms, "
              f"p99 {diffs[min(count - 1, count * 99 // 100)]:.3f} ms, max {diffs[-1]:.3f} ms  "
              f"(goal p99 <= 5, max <= 20)")
        lags.sort()
        print(f"  event loop lateness (a 1 ms sleep, {len(lags)} times): median {statistics.median(lags):.3f} ms, "
              f"p99 {lags[len(lags) * 99 // 100]:.3f} ms, max {lags[-1]:.3f} ms")
        timeouts = terminations.get("timeout", 0)
        print(f"  timeouts: {timeouts}  (goal 0)")
        for row in rows:
            if row["termination"] == "timeout":
                print(f"    game {row['index']}: {row['reason']}")


if __name__ == "__main__":
    main()
